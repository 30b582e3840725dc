"""A model held by another in one model file: a tagger's tokenizer_ is
written as a ``{"model": ...}`` value (its class, parameters and fitted
attributes, its arrays in the file's table), rebuilt and checked on load as
its own file would be; taggers without one load as before."""
import io
import json

import numpy as np
import pytest

from perceptron import StructuredPerceptron
from perceptron._core import model_file as _mf
from perceptron.exceptions import ModelFileError
from perceptron.io import load_model
from perceptron.tagging import MorphTagger, PerceptronTagger, Tokenizer

from test_model_file_checks import changed, load

TREEBANK = "".join(
    f"# text = {text}\n" + "".join(
        f"{i}\t{w}\t{w.lower()}\t{t}\t_\t_\t_\t_\t_\t{'SpaceAfter=No' if g else '_'}\n"
        for i, (w, t, g) in enumerate(tokens, 1)) + "\n"
    for text, tokens in [("It rained.", [("It", "PRON", 0), ("rained", "VERB", 1),
                                         (".", "PUNCT", 0)]),
                         ("We stayed home!", [("We", "PRON", 0), ("stayed", "VERB", 0),
                                              ("home", "ADV", 1), ("!", "PUNCT", 0)])]) * 5


@pytest.fixture(scope="module")
def tokenizer():
    return Tokenizer(max_iter=3, n_features=2 ** 10).fit(io.StringIO(TREEBANK))


def taggers(tokenizer):
    from perceptron.io import read_conllu_sentences
    docs = list(read_conllu_sentences(io.StringIO(TREEBANK)))
    pairs = [[(r[1], r[3]) for r in s.words] for s in docs]
    tagger = PerceptronTagger(n_features=256, max_iter=2).fit(pairs)
    morph = MorphTagger(n_features=256, n_class_features=64, max_iter=2).fit(docs)
    for t in (tagger, morph):
        t.tokenizer_ = tokenizer
    return tagger, morph


def saved(model):
    f = io.BytesIO()
    model.save(f)
    return f.getvalue()


def test_a_tagger_keeps_its_tokenizer(tokenizer):
    text = "We stayed home. It rained!"
    for tagger in taggers(tokenizer):
        data = saved(tagger)
        back = load(data)
        assert type(back) is type(tagger)
        assert type(back.tokenizer_) is Tokenizer
        assert back.tokenizer_.get_params() == tokenizer.get_params()
        np.testing.assert_array_equal(back.tokenizer_.coef_, tokenizer.coef_)
        assert back.tokenizer_.tokenize(text) == tokenizer.tokenize(text)
        info = _mf.read_container(np.frombuffer(data, dtype=np.uint8))
        held = json.loads(info["header"])["fitted"]["tokenizer_"]["model"]
        assert held["class"] == "Tokenizer" and "coef_" in held["fitted"]
        assert "tokenizer_.coef_" in [a[0] for a in info["arrays"]]
        # nothing of the training state of the tokenizer
        assert not any(k.startswith("_") for k in held["fitted"])
        assert back.tag(["We", "stayed"]) == tagger.tag(["We", "stayed"])


def test_a_tagger_without_one_loads_as_before(tokenizer):
    for tagger in taggers(tokenizer):
        del tagger.tokenizer_
        data = saved(tagger)
        assert b"tokenizer_" not in data
        assert "tokenizer_" not in vars(load(data))


def test_the_held_model_is_checked_on_load(tokenizer):
    tagger, morph = taggers(tokenizer)
    for t in (tagger, morph):
        data = saved(t)
        fitted = json.loads(_mf.read_container(np.frombuffer(data, dtype=np.uint8))["header"])[
            "fitted"]
        held = fitted["tokenizer_"]["model"]
        # a tokenizer whose weights do not have its n_features columns
        bad = json.loads(json.dumps(held))
        bad["params"]["n_features"] = 2 ** 11
        with pytest.raises(ModelFileError, match="n_features and the width of coef_"):
            load(changed(data, fitted={"tokenizer_": {"model": bad}}))
        # an unknown class, a missing part, an unknown parameter
        for edit, message in ((dict(held, **{"class": "Pickle"}), "not an estimator"),
                              ({"class": "Tokenizer", "params": {}}, "class, params and fitted"),
                              (dict(held, params=dict(held["params"], evil=1)),
                               "no parameter 'evil'")):
            with pytest.raises(ModelFileError, match=message):
                load(changed(data, fitted={"tokenizer_": {"model": edit}}))


def test_only_a_tokenizer_may_be_held(tokenizer):
    tagger, _ = taggers(tokenizer)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 3))
    tagger.tokenizer_ = StructuredPerceptron(max_iter=2).fit(X, np.argmax(X, 1), [4, 4, 4])
    with pytest.raises(ModelFileError, match="tokenizer_ must be a Tokenizer"):
        load_model(io.BytesIO(saved(tagger)))

"""MorphTagger: UPOS, XPOS, FEATS and lemma edit scripts learnt from CoNLL-U,
the columns written back with every other column kept, model files, early
stopping on a development set, and bad input."""
import copy
import io

import numpy as np
import pytest

from perceptron.io import read_conllu_sentences, write_conllu
from perceptron.tagging import MorphTagger, conll18_scores

WORDS = [
    [("Die", "die", "DET", "LB", "Definite=Def|PronType=Art"),
     ("katte", "kat", "NOUN", "NSM", "Number=Plur"),
     ("slaap", "slaap", "VERB", "VTHOG", "Subcat=Intr|VerbForm=Fin"),
     (".", ".", "PUNCT", "ZE", "_")],
    [("Die", "die", "DET", "LB", "Definite=Def|PronType=Art"),
     ("kat", "kat", "NOUN", "NSE", "Number=Sing"),
     ("eet", "eet", "VERB", "VTHOG", "Subcat=Tran|VerbForm=Fin"),
     ("vis", "vis", "NOUN", "NSE", "Number=Sing"),
     (".", ".", "PUNCT", "ZE", "_")],
    [("Honde", "hond", "NOUN", "NSM", "Number=Plur"),
     ("eet", "eet", "VERB", "VTHOG", "Subcat=Tran|VerbForm=Fin"),
     ("bene", "been", "NOUN", "NSM", "Number=Plur"),
     (".", ".", "PUNCT", "ZE", "_")],
    [("Die", "die", "DET", "LB", "Definite=Def|PronType=Art"),
     ("honde", "hond", "NOUN", "NSM", "Number=Plur"),
     ("slaap", "slaap", "VERB", "VTHOG", "Subcat=Intr|VerbForm=Fin"),
     (".", ".", "PUNCT", "ZE", "_")],
]


def conllu(sentences, deprel="dep"):
    out = []
    for k, s in enumerate(sentences):
        out.append(f"# sent_id = {k}")
        out.append(f"# text = {' '.join(w[0] for w in s)}")
        for i, (form, lemma, upos, xpos, feats) in enumerate(s, 1):
            out.append(f"{i}\t{form}\t{lemma}\t{upos}\t{xpos}\t{feats}\t{0 if i == 1 else 1}"
                       f"\t{'root' if i == 1 else deprel}\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


TRAIN = conllu(WORDS * 8)


def read(text):
    return list(read_conllu_sentences(io.StringIO(text)))


def small(**kw):
    return MorphTagger(n_features=2 ** 12, n_class_features=2 ** 10, **kw)


def test_learns_every_filled_column_and_keeps_the_others():
    train = read(TRAIN)
    tagger = small().fit(train)
    assert tagger.columns_.tolist() == ["upos", "xpos", "feats", "lemma"]
    gold = read(conllu(WORDS))
    system = copy.deepcopy(gold)
    for s in system:
        for r in s.words:
            r[2:6] = ["_"] * 4
    tagger.annotate(system)
    assert conll18_scores(gold, system)["AllTags"] == 1.0
    assert conll18_scores(gold, system)["Lemmas"] == 1.0
    out = io.StringIO()
    write_conllu(system, out)
    assert out.getvalue() == conllu(WORDS)  # heads, relations, comments kept


def test_lemma_of_an_unseen_word_by_its_script():
    tagger = small().fit(read(TRAIN))
    rows = tagger.tag(["Die", "hoede", "slaap", "."])
    # "honde" -> "hond" taught the script that drops a final "e"
    assert [r[3] for r in rows] == ["DET", "NOUN", "VERB", "PUNCT"]
    assert rows[1][2] == "hoed"
    assert rows[1][0] == "2" and rows[1][6:] == ["_"] * 4


def test_columns_filled_and_chosen():
    no_feats = TRAIN.replace("Number=Plur", "_").replace("Number=Sing", "_") \
        .replace("Definite=Def|PronType=Art", "_").replace("Subcat=Intr|VerbForm=Fin", "_") \
        .replace("Subcat=Tran|VerbForm=Fin", "_")
    assert small().fit(read(no_feats)).columns_.tolist() == ["upos", "xpos", "lemma"]
    assert small(columns=["upos"]).fit(read(TRAIN)).columns_.tolist() == ["upos"]
    with pytest.raises(ValueError, match="does not fill"):
        small(columns=["upos", "feats"]).fit(read(no_feats))
    with pytest.raises(ValueError, match="with UPOS"):
        small(columns=["lemma"]).fit(read(TRAIN))
    with pytest.raises(ValueError, match="columns must be"):
        small(columns=["deprel"]).fit(read(TRAIN))
    with pytest.raises(ValueError, match="at least one word"):
        small().fit([])


def test_save_load_predicts_the_same(tmp_path):
    tagger = small().fit(read(TRAIN))
    path = tmp_path / "m.ptn"
    tagger.save(path)
    loaded = MorphTagger.load(path)
    words = [["Die", "honde", "eet", "vis", "."], ["Katte", "slaap"]]
    a, _ = tagger.predict_columns(words)
    b, _ = loaded.predict_columns(words)
    assert a == b


def test_load_refuses_a_sequence_model_for_feats(tmp_path):
    # files of an earlier development version held FEATS as a sequence
    # model; loaded, they would fail only when tagging: refused on load
    from perceptron.exceptions import ModelFileError
    from perceptron.sequence import StructuredPerceptron

    tagger = small().fit(read(TRAIN))
    old = StructuredPerceptron(max_iter=1)
    old.fit(np.eye(3), np.array([0, 1, 0]), [3])
    tagger.feats_model_ = old
    path = tmp_path / "old.ptn"
    tagger.save(path)
    with pytest.raises(ModelFileError, match="feats_model_.*train the tagger again"):
        MorphTagger.load(path)


def test_dev_early_stopping():
    train = read(TRAIN)
    tagger = small(max_iter=6).fit(train, dev=read(conllu(WORDS)), patience=1)
    # the first epoch is already perfect on dev: patience 1 stops after the second
    assert tagger.upos_model_.n_iter_ <= 2
    assert tagger.upos_model_.dev_score_ == 1.0


def test_known_words():
    tagger = small().fit(read(TRAIN))
    assert tagger.known_words(["KATTE", "hoede"]).tolist() == [True, False]


def test_bad_input():
    tagger = small().fit(read(TRAIN))
    with pytest.raises(TypeError, match="str"):
        tagger.tag("Die kat")
    with pytest.raises(ValueError, match="10"):
        small().fit([[["1", "a"]]])
    assert np.all(tagger.known_words([]) == [])


def test_columns_predicted_apart_make_a_training_combination():
    tagger = small().fit(read(TRAIN))
    pairs = {(w[2], w[3], w[4]) for s in WORDS for w in s}
    words = [["Die", "vis", "eet", "bene", "."], ["Katte", "Honde", "hoede", "slaap"]]
    predicted, _ = tagger.predict_columns(words)
    for upos, xpos, feats in zip(predicted["upos"], predicted["xpos"], predicted["feats"]):
        assert (upos, xpos) in {(u, x) for u, x, _ in pairs}
        assert (upos, feats) in {(u, f) for u, _, f in pairs}
    assert tagger.xpos_allowed_.shape == (len(tagger.upos_classes_), len(tagger.xpos_classes_))

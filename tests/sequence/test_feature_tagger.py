"""FeatureTagger (feature dicts hashed in compiled code) and EntityTagger.

The hashing is compared with a pure-Python reference of python-crfsuite's
reading of the dicts and of the hash, and that reading with python-crfsuite's
own (``ItemSequence.items()``) when it is installed."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import StructuredPerceptron, load
from perceptron._core import feature_dicts
from perceptron.io import CSRData
from perceptron.tagging import EntityTagger, FeatureTagger, span_scores, spans

MASK = 2 ** 64 - 1


def fnv(data, h=14695981039346656037):
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & MASK
    return h


def mix(h):
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & MASK
    h ^= h >> 33
    h = (h * 0xc4ceb9fe1a85ec53) & MASK
    h ^= h >> 33
    return h


def attributes(token, prefix=""):
    """python-crfsuite's attributes of a token: [(name, value)], in order."""
    out = []
    if isinstance(token, dict):
        for key, value in token.items():
            name = prefix + key
            if isinstance(value, dict):
                out.extend(attributes(value, name + ":"))
            elif isinstance(value, (list, tuple, set)):
                out.extend((name + ":" + v, 1.0) for v in value)
            elif isinstance(value, str):
                out.append((name + ":" + value, 1.0))
            else:
                out.append((name, float(value)))
    else:
        out.extend((prefix + v, 1.0) for v in token)
    return out


def reference_rows(X, n_features):
    """(data, indices, indptr) of the tokens: each attribute's column is the
    mixed FNV-1a hash of its UTF-8 name modulo n_features; zero values
    dropped, a column's values added in float32 in order, columns sorted."""
    data, indices, indptr = [], [], [0]
    for seq in X:
        for token in seq:
            row = {}
            for name, value in attributes(token):
                if value == 0.0:
                    continue
                col = mix(fnv(name.encode("utf-8"))) % n_features
                row[col] = np.float32(row.get(col, np.float32(0)) + np.float32(value))
            for col in sorted(row):
                indices.append(col)
                data.append(row[col])
            indptr.append(len(indices))
    return (np.array(data, dtype=np.float32), np.array(indices, dtype=np.int32),
            np.array(indptr, dtype=np.int64))


names = st.text(alphabet=st.sampled_from("ab:é字-"), min_size=1, max_size=4)
values = st.one_of(names, st.integers(-3, 3), st.floats(-2, 2, width=32), st.booleans(),
                   st.lists(names, max_size=3))
tokens = st.one_of(st.dictionaries(names, st.one_of(values, st.dictionaries(names, values,
                                                                             max_size=3)),
                                   max_size=6),
                   st.lists(names, max_size=5))


@settings(max_examples=60, deadline=None)
@given(X=st.lists(st.lists(tokens, max_size=4), max_size=4),
       n_features=st.sampled_from([1, 7, 2 ** 10, 2 ** 31 - 1]))
def test_hashing_against_reference(X, n_features):
    data, indices, indptr, lengths = feature_dicts.hash_sequences(X, n_features)
    ref = reference_rows(X, n_features)
    np.testing.assert_array_equal(indices, ref[1])
    np.testing.assert_array_equal(indptr, ref[2])
    np.testing.assert_array_equal(data, ref[0])
    np.testing.assert_array_equal(lengths, [len(s) for s in X])


@settings(max_examples=100, deadline=None)
@given(seq=st.lists(tokens, max_size=4))
def test_attributes_are_python_crfsuites(seq):
    pycrfsuite = pytest.importorskip("pycrfsuite")
    theirs = pycrfsuite.ItemSequence(seq).items()
    for token, items in zip(seq, theirs):
        ours = {}
        for name, value in attributes(token):
            ours[name] = value   # a repeated name: python-crfsuite's dict keeps the last
        assert ours == pytest.approx(items)


def test_hashing_errors():
    with pytest.raises(TypeError, match=r"X\[0\]\[1\] is 3 \(int\)"):
        feature_dicts.hash_sequences([[{"a": 1}, 3]], 16)
    with pytest.raises(ValueError, match=r"X\[0\]\[0\]: the value of 'a' is nan, not finite"):
        feature_dicts.hash_sequences([[{"a": float("nan")}]], 16)
    with pytest.raises(TypeError, match=r"the value of 'a' is None"):
        feature_dicts.hash_sequences([[{"a": None}]], 16)
    with pytest.raises(TypeError, match="feature names must be str"):
        feature_dicts.hash_sequences([[{1: "x"}]], 16)
    with pytest.raises(TypeError, match=r"X\[0\] must be a sequence of feature dicts"):
        feature_dicts.hash_sequences([{"a": 1}], 16)
    with pytest.raises(ValueError, match="n_features must be in"):
        feature_dicts.hash_sequences([], 0)
    deep = {"a": 1}
    for _ in range(40):
        deep = {"k": deep}
    with pytest.raises(ValueError, match="nested deeper than"):
        feature_dicts.hash_sequences([[deep]], 16)


# ------------------------------------------------------------- FeatureTagger

def word_features(words):
    out = []
    for i, w in enumerate(words):
        f = {"w": w.lower(), "title": w.istitle(), "len": len(w) / 10,
             "suffix": {"1": w[-1:], "2": w[-2:]}}
        if i:
            f["prev"] = words[i - 1].lower()
        out.append(f)
    return out


def toy(n=60, seed=0):
    rng = np.random.default_rng(seed)
    people = ["Ada", "Alan", "Grace", "Edsger"]
    places = ["London", "Paris", "Zürich", "東京"]
    words = ["met", "in", "and", "the", "saw", "left"]
    X, y = [], []
    for _ in range(n):
        sent, labels = [], []
        for _ in range(int(rng.integers(2, 8))):
            r = rng.random()
            if r < 0.25:
                sent += [str(rng.choice(people)), "Lovelace"]
                labels += ["B-PER", "I-PER"]
            elif r < 0.4:
                sent.append(str(rng.choice(places)))
                labels.append("B-LOC")
            else:
                sent.append(str(rng.choice(words)))
                labels.append("O")
        X.append(word_features(sent))
        y.append(labels)
    return X, y


def test_feature_tagger_is_a_structured_perceptron_on_the_hashed_rows():
    X, y = toy()
    est = FeatureTagger(n_features=2 ** 12, max_iter=4, random_state=3).fit(X, y)
    data, indices, indptr, lengths = feature_dicts.hash_sequences(X, 2 ** 12)
    rows = CSRData(data, indices, indptr.astype(np.int32), (len(indptr) - 1, 2 ** 12))
    flat = np.array([t for s in y for t in s], dtype=object)
    ref = StructuredPerceptron(max_iter=4, random_state=3).fit(rows, flat, lengths)
    np.testing.assert_array_equal(est.coef_, ref.coef_)
    np.testing.assert_array_equal(est.transition_, ref.transition_)
    np.testing.assert_array_equal(est.classes_, ref.classes_)
    pred = est.predict(X)
    assert [t for s in pred for t in s] == ref.predict(rows, lengths).tolist()
    assert est.predict_single(X[0]) == pred[0]
    assert isinstance(pred, list) and all(isinstance(s, list) for s in pred)
    assert all(isinstance(t, str) for s in pred for t in s)
    right = sum(a == b for p, g in zip(pred, y) for a, b in zip(p, g))
    assert est.score(X, y) == right / sum(map(len, y))
    scores = est.decision_function(X[:3])
    assert [s.shape for s in scores] == [(len(x), len(est.classes_)) for x in X[:3]]
    trans = est.transition_features_
    labels = est.classes_.tolist()
    assert trans[("B-PER", "I-PER")] == est.transition_[labels.index("B-PER"),
                                                        labels.index("I-PER")]
    assert len(trans) == len(labels) ** 2


def test_feature_tagger_lists_of_names_and_constraints():
    X, y = toy(seed=1)
    as_lists = [[[f"{k}={v}" for k, v in t.items() if isinstance(v, str)] for t in s] for s in X]
    est = FeatureTagger(n_features=2 ** 12, max_iter=5, constraints="iob2").fit(as_lists, y)
    for labels in est.predict(as_lists):
        # every output is a sequence of well-formed IOB2 spans
        assert spans(labels, "iob2", "strict") == spans(labels)
        assert not any(b.startswith("I-") and (a == "O" or a[2:] != b[2:])
                       for a, b in zip(["O"] + labels, labels))
    assert np.isneginf(est.transition_[est.classes_.tolist().index("O"),
                                       est.classes_.tolist().index("I-PER")])


def test_feature_tagger_dev_scores_and_model_file(tmp_path):
    X, y = toy(seed=2)
    est = FeatureTagger(n_features=2 ** 10, max_iter=3, shuffle=False)
    est.fit(X[:40], y[:40], X_dev=X[40:], y_dev=y[40:])
    assert len(est.dev_scores_) == est.n_iter_ <= 3
    plain = FeatureTagger(n_features=2 ** 10, max_iter=est.n_iter_, shuffle=False).fit(X[:40],
                                                                                      y[:40])
    np.testing.assert_array_equal(est.coef_, plain.coef_)
    assert est.dev_scores_[-1] == plain.score(X[40:], y[40:])
    path = tmp_path / "tagger.ptn"
    est.save(path)
    back = load(path)
    assert isinstance(back, FeatureTagger)
    assert back.predict(X) == est.predict(X)


def test_feature_tagger_errors():
    X, y = toy(n=10)
    with pytest.raises(ValueError, match="sequence 0: X has"):
        FeatureTagger(n_features=64).fit(X, [s[:-1] for s in y])
    with pytest.raises(ValueError, match="X has 10 sequences but y has 9"):
        FeatureTagger(n_features=64).fit(X, y[:9])
    with pytest.raises(TypeError, match="labels must be str"):
        FeatureTagger(n_features=64).fit(X, [[1] * len(s) for s in y])
    with pytest.raises(ValueError, match="n_features must be an int"):
        FeatureTagger(n_features=0).fit(X, y)
    est = FeatureTagger(n_features=64).fit(X, y)
    with pytest.raises(ValueError, match="trained with 64"):
        est.set_params(n_features=128).predict(X)
    with pytest.raises(ValueError, match="X_dev and y_dev come together"):
        FeatureTagger(n_features=64).fit(X, y, X_dev=X)


# --------------------------------------------------------------- EntityTagger

def test_entity_tagger(tmp_path):
    X, y = toy(n=80, seed=4)
    words = [[f["w"] for f in s] for s in X]
    train = [list(zip(w, t)) for w, t in zip(words, y)]
    tagger = EntityTagger(n_features=2 ** 12).fit(train)
    report = tagger.evaluate_spans(train)
    pred = [[t for _, t in s] for s in tagger.tag_sents(words)]
    assert report == span_scores(y, pred)
    assert tagger.spans(words[0]) == spans(pred[0])
    for labels in pred:
        assert spans(labels, "iob2", "strict") == spans(labels)
    path = tmp_path / "ner.ptn"
    tagger.save(path)
    back = load(path)
    assert isinstance(back, EntityTagger)
    assert back.tag_sents(words) == tagger.tag_sents(words)
    bad = [list(s) for s in train]
    bad[0][0] = (bad[0][0][0], "I-LOC")
    with pytest.raises(ValueError, match="breaks the constraints"):
        EntityTagger(n_features=2 ** 10).fit(bad)
    with pytest.raises(ValueError, match="scheme must be one of"):
        EntityTagger(scheme="bilou").fit(train)


def test_feature_tagger_partial_fit_and_params():
    X, y = toy(seed=6)
    whole = FeatureTagger(n_features=2 ** 10, max_iter=2, random_state=5).fit(X, y)
    assert whole.n_iter_ == 2
    steps = FeatureTagger(n_features=2 ** 10, random_state=5)
    steps.partial_fit(X, y, classes=whole.classes_)
    steps.partial_fit(X, y)
    np.testing.assert_array_equal(steps.coef_, whole.coef_)
    np.testing.assert_array_equal(steps.transition_, whole.transition_)
    lazy = FeatureTagger(n_features=2 ** 10, max_iter=2, random_state=5).fit(
        (x for x in X), (labels for labels in y))
    np.testing.assert_array_equal(lazy.coef_, whole.coef_)
    assert lazy.predict(x for x in X) == whole.predict(X)
    params = FeatureTagger(n_features=64, constraints="bioes").get_params()
    assert params["n_features"] == 64 and params["constraints"] == "bioes"
    sklearn_base = pytest.importorskip("sklearn.base")
    copy = sklearn_base.clone(FeatureTagger(n_features=64, constraints="iob2"))
    assert copy.get_params()["constraints"] == "iob2"

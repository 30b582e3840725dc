"""The structured perceptron against the numpy reference of Collins (2002)."""
import io
import os
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import StructuredPerceptron, load
from perceptron._core.online import shuffled_orders
from perceptron.io import CSRData
from perceptron._common.validation import check_random_seed

from structured_reference import brute_force, path_score, structured_reference, viterbi


def sequences(seed, n_seq=40, K=3, d=6, max_len=7, float32=False):
    """Integer-valued tokens whose labels follow a noisy label chain, so that
    both the emissions and the transitions carry information (and every
    sum the algorithm forms is exact)."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, max_len + 1, n_seq)
    n = int(lengths.sum())
    y = np.empty(n, dtype=np.int64)
    X = rng.integers(-1, 2, (n, d)).astype(np.float32 if float32 else np.float64)
    pos = 0
    for L in lengths:
        prev = int(rng.integers(K))
        for _ in range(L):
            label = (prev + 1) % K if rng.random() < 0.7 else int(rng.integers(K))
            y[pos] = label
            X[pos, label % d] += 2
            prev = label
            pos += 1
    return X, y, lengths


def to_csr(X, index_dtype=np.int32):
    rows, cols = np.nonzero(X)
    indptr = np.zeros(X.shape[0] + 1, dtype=index_dtype)
    np.cumsum(np.bincount(rows, minlength=X.shape[0]), out=indptr[1:])
    return CSRData(np.ascontiguousarray(X[rows, cols]), cols.astype(index_dtype), indptr, X.shape)


def assert_matches(model, ref, average):
    prefix = "avg_" if average else ""
    compare = np.testing.assert_allclose if average else np.testing.assert_array_equal
    kw = {"rtol": 1e-12, "atol": 1e-12} if average else {}
    if model.coef_.dtype == np.float32 and average:
        kw = {"rtol": 1e-6, "atol": 1e-6}
    compare(model.coef_, ref[prefix + "W"], **kw)
    compare(model.intercept_, ref[prefix + "b"], **kw)
    compare(model.transition_, ref[prefix + "T"], **kw)
    compare(model.start_, ref[prefix + "start"], **kw)
    compare(model.end_, ref[prefix + "end"], **kw)
    np.testing.assert_array_equal(model.mistakes_, ref["mistakes"])
    assert model.n_iter_ == ref["epochs"]


# ---------------------------------------------------------------- Viterbi

def _model_for_scores(E, T, start, end):
    """A fitted model whose emission scores on X = I are E (L, K)."""
    L, K = E.shape
    m = StructuredPerceptron()
    m.classes_ = np.arange(K)
    m.n_features_in_ = L
    m.coef_ = np.ascontiguousarray(E.T, dtype=np.float64)
    m.intercept_ = np.zeros(K)
    m.transition_ = np.asarray(T, dtype=np.float64)
    m.start_ = np.asarray(start, dtype=np.float64)
    m.end_ = np.asarray(end, dtype=np.float64)
    return m


scores = st.one_of(st.integers(-4, 4).map(float),
                   st.floats(-100, 100, allow_nan=False, allow_infinity=False))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.integers(2, 4), st.data())
def test_viterbi_against_brute_force(L, K, data):
    draw = lambda shape: np.array(data.draw(st.lists(scores, min_size=int(np.prod(shape)),
                                                     max_size=int(np.prod(shape))))).reshape(shape)
    E, T, start, end = draw((L, K)), draw((K, K)), draw((K,)), draw((K,))
    m = _model_for_scores(E, T, start, end)
    z = m.predict(np.eye(L), [L])
    best, paths = brute_force(E, T, start, end)
    # the score of the decoded sequence is the maximum over all K^L sequences
    assert path_score(E, T, start, end, z) == best
    assert tuple(z) in paths
    # and it is the reference's sequence (the same tie-breaking)
    np.testing.assert_array_equal(z, viterbi(E, T, start, end))
    # the emission scores are what decision_function reports
    np.testing.assert_array_equal(m.decision_function(np.eye(L)), E)


def test_viterbi_several_sequences_and_empty_ones():
    rng = np.random.default_rng(3)
    K, lengths = 3, np.array([2, 0, 3, 1, 0])
    E = rng.integers(-5, 6, (lengths.sum(), K)).astype(float)
    T, s, e = (rng.integers(-3, 4, shape).astype(float) for shape in ((K, K), (K,), (K,)))
    m = _model_for_scores(E, T, s, e)
    z = m.predict(np.eye(len(E)), lengths)
    off = np.concatenate([[0], np.cumsum(lengths)])
    for q in range(len(lengths)):
        if lengths[q]:
            np.testing.assert_array_equal(z[off[q]:off[q + 1]], viterbi(E[off[q]:off[q + 1]], T, s, e))


# ------------------------------------------------------- against the reference

@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_reference_in_order(average, seed):
    X, y, lengths = sequences(seed)
    ref = structured_reference(X, y, lengths, 3, max_iter=6)
    m = StructuredPerceptron(max_iter=6, shuffle=False, average=average).fit(X, y, lengths)
    assert_matches(m, ref, average)


@pytest.mark.parametrize("average", [False, True])
def test_matches_reference_shuffled(average):
    X, y, lengths = sequences(5, n_seq=60, K=4)
    orders = shuffled_orders(len(lengths), 8, check_random_seed(11))
    ref = structured_reference(X, y, lengths, 4, max_iter=8, orders=orders)
    m = StructuredPerceptron(max_iter=8, random_state=11, average=average).fit(X, y, lengths)
    assert_matches(m, ref, average)


def test_matches_reference_with_sample_weight_and_eta():
    X, y, lengths = sequences(7)
    sw = np.random.default_rng(0).integers(0, 4, len(lengths)).astype(float)
    ref = structured_reference(X, y, lengths, 3, max_iter=5, eta=0.5, sample_weight=sw)
    m = StructuredPerceptron(max_iter=5, shuffle=False, eta0=0.5).fit(X, y, lengths, sample_weight=sw)
    assert_matches(m, ref, True)


def test_string_labels_and_converged_stop():
    X, y, lengths = sequences(4, K=3)
    tags = np.array(["DET", "NOUN", "VERB"])[y]
    m = StructuredPerceptron(max_iter=50, shuffle=False, average=False).fit(X, tags, lengths)
    ref = structured_reference(X, y, lengths, 3, max_iter=50)
    assert_matches(m, ref, False)
    assert list(m.classes_) == ["DET", "NOUN", "VERB"]
    assert set(m.predict(X, lengths)) <= set(m.classes_)


def test_averaged_weights_are_the_explicit_average():
    # the lazy accumulators against the running sum of the weights after
    # every visit; random labels, so that no epoch is free of mistakes
    X, _, lengths = sequences(9, n_seq=30)
    y = np.random.default_rng(1).integers(0, 3, len(X))
    ref = structured_reference(X, y, lengths, 3, max_iter=4, stop_when_converged=False)
    assert (ref["mistakes"] > 0).all()
    m = StructuredPerceptron(max_iter=4, shuffle=False).fit(X, y, lengths)
    assert m.n_iter_ == 4
    for name, key in (("coef_", "W"), ("intercept_", "b"), ("transition_", "T"),
                      ("start_", "start"), ("end_", "end")):
        np.testing.assert_allclose(getattr(m, name), ref["avg_" + key], rtol=1e-12, atol=1e-12)
        assert not np.array_equal(ref["avg_" + key], ref[key]) or not ref[key].any()
    # the last weights (no averaging) are the reference's to the bit
    raw = StructuredPerceptron(max_iter=4, shuffle=False, average=False).fit(X, y, lengths)
    np.testing.assert_array_equal(raw.coef_, ref["W"])
    np.testing.assert_array_equal(raw.transition_, ref["T"])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(1, 4),
       st.lists(st.integers(0, 5), min_size=1, max_size=12), st.booleans(), st.booleans(),
       st.booleans())
def test_matches_reference_hypothesis(seed, K, d, lengths, float32, sparse, average):
    # any shapes: empty sequences, single tokens, more labels than features
    rng = np.random.default_rng(seed)
    lengths = np.array(lengths)
    n = int(lengths.sum())
    if n < 2:
        lengths = np.append(lengths, 2)
        n += 2
    X = rng.integers(-3, 4, (n, d)).astype(np.float32 if float32 else np.float64)
    y = rng.integers(0, K, n)
    y[:2] = [0, 1]  # at least two classes
    K = len(np.unique(y))
    y = np.searchsorted(np.unique(y), y)
    orders = shuffled_orders(len(lengths), 3, check_random_seed(seed))
    ref = structured_reference(X, y, lengths, K, max_iter=3, orders=orders)
    m = StructuredPerceptron(max_iter=3, random_state=seed, average=average)
    m.fit(to_csr(X) if sparse else X, y, lengths)
    assert_matches(m, ref, average)
    assert m.coef_.dtype == X.dtype


# ------------------------------------------------------------ input kinds

@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_dense_and_csr_agree(index_dtype):
    X, y, lengths = sequences(2, n_seq=50, K=4)
    dense = StructuredPerceptron(max_iter=5, random_state=0).fit(X, y, lengths)
    sparse = StructuredPerceptron(max_iter=5, random_state=0).fit(to_csr(X, index_dtype), y,
                                                                  lengths)
    for name in ("coef_", "intercept_", "transition_", "start_", "end_", "mistakes_"):
        np.testing.assert_array_equal(getattr(dense, name), getattr(sparse, name))
    np.testing.assert_array_equal(dense.predict(X, lengths),
                                  sparse.predict(to_csr(X, index_dtype), lengths))
    np.testing.assert_array_equal(dense.predict(to_csr(X), lengths), sparse.predict(X, lengths))
    # averaged weights are not integers: the two layouts sum in other orders
    np.testing.assert_allclose(dense.decision_function(X), sparse.decision_function(to_csr(X)),
                               rtol=1e-12, atol=1e-12)


def test_scipy_csr():
    sp = pytest.importorskip("scipy.sparse")
    X, y, lengths = sequences(2)
    a = StructuredPerceptron(max_iter=3, random_state=0).fit(X, y, lengths)
    b = StructuredPerceptron(max_iter=3, random_state=0).fit(sp.csr_matrix(X), y, lengths)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.score(X, y, lengths) == b.score(sp.csr_matrix(X), y, lengths)


@pytest.mark.parametrize("sparse", [False, True])
def test_float32_and_float64_agree(sparse):
    X, y, lengths = sequences(6)
    X32 = X.astype(np.float32)
    conv = to_csr if sparse else (lambda a: a)
    a = StructuredPerceptron(max_iter=4, random_state=1, average=False).fit(conv(X), y, lengths)
    b = StructuredPerceptron(max_iter=4, random_state=1, average=False).fit(conv(X32), y, lengths)
    assert b.coef_.dtype == np.float32 and a.coef_.dtype == np.float64
    np.testing.assert_array_equal(a.coef_, b.coef_.astype(np.float64))
    np.testing.assert_array_equal(a.transition_, b.transition_)
    np.testing.assert_array_equal(a.predict(conv(X), lengths), b.predict(conv(X32), lengths))
    avg = StructuredPerceptron(max_iter=4, random_state=1).fit(conv(X32), y, lengths)
    ref = structured_reference(X, y, lengths, 3, max_iter=4,
                               orders=shuffled_orders(len(lengths), 4, check_random_seed(1)))
    assert_matches(avg, ref, True)


def test_partial_fit_continues_like_fit():
    X, y, lengths = sequences(8)
    full = StructuredPerceptron(max_iter=3, shuffle=False, tol=None).fit(X, y, lengths)
    part = StructuredPerceptron(shuffle=False)
    for _ in range(full.n_iter_):
        part.partial_fit(X, y, lengths)
    for name in ("coef_", "intercept_", "transition_", "start_", "end_"):
        np.testing.assert_array_equal(getattr(full, name), getattr(part, name))
    assert part.n_iter_ == full.n_iter_


def test_partial_fit_classes_and_switching_input_kind():
    X, y, lengths = sequences(8)
    first = lengths[:20].sum()
    m = StructuredPerceptron(random_state=0)
    m.partial_fit(X[:first], y[:first], lengths[:20], classes=[0, 1, 2])
    m.partial_fit(to_csr(X[first:]), y[first:], lengths[20:])
    m.partial_fit(X[first:], y[first:], lengths[20:])
    assert m.n_iter_ == 3 and m.score(X, y, lengths) > 0.5
    with pytest.raises(ValueError, match="not in classes"):
        m.partial_fit(X[:3], np.array([0, 1, 7]), [3])


def test_early_stopping():
    X, y, lengths = sequences(3, n_seq=80)
    m = StructuredPerceptron(max_iter=30, early_stopping=True, n_iter_no_change=2,
                             random_state=0).fit(X, y, lengths)
    assert 1 <= m.n_iter_ <= 30
    assert len(m.validation_scores_) == m.n_iter_
    again = StructuredPerceptron(max_iter=30, early_stopping=True, n_iter_no_change=2,
                                 random_state=0).fit(X, y, lengths)
    np.testing.assert_array_equal(m.coef_, again.coef_)
    with pytest.raises(ValueError, match="validation_fraction"):
        StructuredPerceptron(early_stopping=True).fit(X[:2], y[:2], [1, 1])


def test_tol_rule_stops():
    X, y, lengths = sequences(3, n_seq=60)
    # labels that no first-order model gets all right keep the loss up
    y = np.random.default_rng(0).integers(0, 3, len(y))
    m = StructuredPerceptron(max_iter=200, tol=1e9, n_iter_no_change=3,
                             random_state=0).fit(X, y, lengths)
    # the first epoch sets the best loss; the next three do not beat it by tol
    assert m.n_iter_ == 4


def test_learns_a_transition_only_signal():
    # the labels alternate and the features say nothing: only the
    # transitions and the start score can get them right
    lengths = np.full(30, 6)
    y = np.tile([0, 1, 0, 1, 0, 1], 30)
    X = np.ones((len(y), 1))
    m = StructuredPerceptron(max_iter=10, random_state=0).fit(X, y, lengths)
    assert m.score(X, y, lengths) == 1.0


# ------------------------------------------------------------- persistence

def test_save_load_and_pickle(tmp_path):
    X, y, lengths = sequences(1)
    tags = np.array(["A", "B", "C"])[y]
    m = StructuredPerceptron(max_iter=3, random_state=0).fit(to_csr(X), tags, lengths)
    path = tmp_path / "m.ptn"
    m.save(path)
    back = load(path)
    assert type(back) is StructuredPerceptron and back.get_params() == m.get_params()
    for name in ("coef_", "intercept_", "transition_", "start_", "end_", "classes_"):
        np.testing.assert_array_equal(getattr(back, name), getattr(m, name))
    np.testing.assert_array_equal(back.predict(X, lengths), m.predict(X, lengths))
    np.testing.assert_array_equal(back.predict(to_csr(X), lengths), m.predict(to_csr(X), lengths))
    with pytest.raises(ValueError, match="training state"):
        back.partial_fit(X, tags, lengths)
    p = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(p.predict(X, lengths), m.predict(X, lengths))


def test_training_state_round_trip():
    X, y, lengths = sequences(1)
    m = StructuredPerceptron(max_iter=2, random_state=0).fit(X, y, lengths)
    f = io.BytesIO()
    m.save(f, training_state=True)
    f.seek(0)
    back = load(f)
    m.partial_fit(X, y, lengths)
    back.partial_fit(X, y, lengths)
    np.testing.assert_array_equal(back.coef_, m.coef_)
    np.testing.assert_array_equal(back.transition_, m.transition_)
    kept = pickle.loads(pickle.dumps(m.keep_training_state()))
    kept.partial_fit(X, y, lengths)
    m.partial_fit(X, y, lengths)
    np.testing.assert_array_equal(kept.coef_, m.coef_)


# -------------------------------------------------------------- bad input

@pytest.mark.parametrize("lengths, match", [
    ([3, 3], "lengths sum to 6"),
    ([5, -1, 5], "non-negative"),
    ([[9]], "1-D"),
    (None, "lengths is required"),
])
def test_bad_lengths(lengths, match):
    X, y, _ = np.ones((9, 2)), np.arange(9) % 2, None
    with pytest.raises(ValueError, match=match):
        StructuredPerceptron().fit(X, y, lengths)


def test_bad_input_messages():
    X = np.ones((6, 2))
    y = np.array([0, 1, 0, 1, 0, 1])
    with pytest.raises(TypeError, match="lengths must hold integers"):
        StructuredPerceptron().fit(X, y, [2.5, 3.5])
    with pytest.raises(ValueError, match="y has 5"):
        StructuredPerceptron().fit(X, y[:5], [6])
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        StructuredPerceptron().fit(bad, y, [6])
    with pytest.raises(ValueError, match="sample_weight.*one weight per sequence"):
        StructuredPerceptron().fit(X, y, [3, 3], sample_weight=np.ones(6))
    with pytest.raises(ValueError, match="one class"):
        StructuredPerceptron().fit(X, np.zeros(6), [6])
    with pytest.raises(ValueError, match="max_iter"):
        StructuredPerceptron(max_iter=0).fit(X, y, [6])
    m = StructuredPerceptron().fit(X, y, [3, 3])
    with pytest.raises(ValueError, match="3 features"):
        m.predict(np.ones((6, 3)), [6])
    with pytest.raises(ValueError, match="X contains NaN"):
        m.predict(bad, [6])
    with pytest.raises(ValueError, match="lengths sum to 5"):
        m.predict(X, [5])


def test_callers_arrays_untouched():
    X, y, lengths = sequences(0)
    copies = X.copy(), y.copy(), lengths.copy()
    StructuredPerceptron(max_iter=2, random_state=0).fit(X, y, lengths)
    for a, b in zip((X, y, lengths), copies):
        np.testing.assert_array_equal(a, b)


def test_not_fitted():
    with pytest.raises(Exception, match="not fitted"):
        StructuredPerceptron().predict(np.ones((2, 2)), [2])


# ------------------------------------------------------ the shared UD data

UD = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "ud-ewt",
                  "en_ewt-ud-train.conllu")


def _read_conllu(path, max_sentences):
    sents, words, tags = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if words:
                    sents.append((words, tags))
                    words, tags = [], []
                    if len(sents) >= max_sentences:
                        break
                continue
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue
            words.append(cols[1])
            tags.append(cols[3])
    return sents


@pytest.mark.skipif(not os.path.exists(UD), reason="the shared UD English Web Treebank is absent")
def test_ud_ewt_small_tagger():
    # a word-identity and suffix model on 1,500 sentences: a smoke test of
    # the estimator on real tags (the tagger proper is perceptron.tagging)
    sents = _read_conllu(UD, 1500)
    vocab = {}
    rows, cols, tags, lengths = [], [], [], []
    for words, ts in sents:
        lengths.append(len(words))
        for w, t in zip(words, ts):
            for feat in ("w=" + w.lower(), "s=" + w[-3:], "cap=" + str(w[:1].isupper())):
                rows.append(len(tags))
                cols.append(vocab.setdefault(feat, len(vocab)))
            tags.append(t)
    n = len(tags)
    indptr = np.arange(0, 3 * n + 1, 3, dtype=np.int32)
    X = CSRData(np.ones(3 * n), np.array(cols, dtype=np.int32), indptr, (n, len(vocab)))
    lengths = np.array(lengths)
    split = int(lengths[:1200].sum())
    train = CSRData(X.data[:3 * split], X.indices[:3 * split], indptr[:split + 1],
                    (split, len(vocab)))
    test = CSRData(X.data[3 * split:], X.indices[3 * split:], indptr[split:] - indptr[split],
                   (n - split, len(vocab)))
    tags = np.array(tags)
    m = StructuredPerceptron(max_iter=5, random_state=0).fit(train, tags[:split], lengths[:1200])
    assert m.score(test, tags[split:], lengths[1200:]) > 0.8


def test_overflow_is_an_error_not_a_crash():
    X, y, lengths = sequences(0)
    huge = X * 1e306
    with pytest.raises(FloatingPointError, match="overflow"):
        StructuredPerceptron(max_iter=3, random_state=0).fit(huge, y, lengths)
    m = StructuredPerceptron(max_iter=1, random_state=0).fit(X, y, lengths)
    m.coef_ = m.coef_ * 1e300  # finite weights whose scores on `huge` are not
    with pytest.raises(FloatingPointError, match="not finite"):
        m.predict(huge, lengths)


@pytest.mark.parametrize("sw, match", [
    ([1.0, np.nan], "NaN"),
    ([1.0, -1.0], "non-negative"),
    (["a", "b"], "numbers"),
])
def test_bad_sample_weight(sw, match):
    X, y = np.eye(4), np.array([0, 1, 0, 1])
    with pytest.raises((ValueError, TypeError), match=match):
        StructuredPerceptron().fit(X, y, [2, 2], sample_weight=sw)


def test_csr_input_untouched():
    X, y, lengths = sequences(3)
    csr = to_csr(X)
    copies = [a.copy() for a in csr[:3]]
    m = StructuredPerceptron(max_iter=2, random_state=0).fit(csr, y, lengths)
    m.predict(csr, lengths)
    for a, b in zip(csr[:3], copies):
        np.testing.assert_array_equal(a, b)


def test_too_many_labels_are_refused_before_any_allocation():
    from perceptron.sequence._structured import MAX_LABELS

    n = MAX_LABELS + 1
    X = np.ones((n, 2))
    with pytest.raises(ValueError, match=f"y has {n} distinct labels"):
        StructuredPerceptron().fit(X, np.arange(n), [n])
    with pytest.raises(ValueError, match=f"y has {n} distinct labels"):
        StructuredPerceptron().partial_fit(X, np.arange(n), [n])


def test_coef_edited_in_place_is_what_predict_uses():
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (60, 5)).astype(np.float64)
    y = rng.integers(0, 3, 60)
    lengths = [20, 20, 20]
    for fit_X, score_X in ((sp.csr_matrix(X), X), (X, sp.csr_matrix(X))):
        m = StructuredPerceptron(max_iter=3, random_state=0).fit(fit_X, y, lengths)
        first = m.decision_function(score_X)  # lays the weights out for score_X's rows
        assert np.abs(first).sum() > 0
        m.coef_[...] = 0
        m.intercept_[...] = 0
        np.testing.assert_array_equal(m.decision_function(score_X), np.zeros_like(first))

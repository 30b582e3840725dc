"""The multiclass perceptron over candidate labels (the morphological
tagger's FEATS and lemma classifiers) against a numpy reference of the
multiclass perceptron (Collins 2002, figure 1, with sequences of one token;
averaging as in section 2.5), restricted to each row's group's candidates
(Ratnaparkhi 1996, section 4.2's tag dictionary)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron._common.validation import check_random_seed
from perceptron._core.online import shuffled_orders
from perceptron.io import CSRData
from perceptron.exceptions import ModelFileError
from perceptron.sequence._candidates import CandidateClassifier, candidate_lists


def candidate_reference(X, y, groups, K, orders, average=True):
    """The averaged multiclass perceptron, row by row in the given orders:
    the best-scoring candidate of the row's group (scores summed in float64
    in the order of the row's stored columns, the first of equal scores),
    and when it is not the gold label, gold + x and best - x (float32
    weights), the sums of the averaging (float64) at the clock."""
    data, indices, indptr = X.data, X.indices, X.indptr
    d = X.shape[1]
    cands = [sorted({int(c) for c, g2 in zip(y, groups) if g2 == g}) or list(range(K))
             for g in range(max(groups) + 1)]
    W = np.zeros((d, K), dtype=np.float32)
    U = np.zeros((d, K))
    b = np.zeros(K)
    acc = np.zeros(K)
    clock = 0.0
    mistakes = []
    for order in orders:
        wrong = 0
        for i in order:
            lo, hi = indptr[i], indptr[i + 1]
            c = cands[groups[i]]
            if len(c) > 1:
                scores = []
                for k in c:
                    s = b[k]
                    for j in range(lo, hi):
                        s += float(data[j]) * float(W[indices[j], k])
                    scores.append(s)
                p = c[int(np.argmax(scores))]
                if p != y[i]:
                    wrong += 1
                    for k, a in ((y[i], 1.0), (p, -1.0)):
                        for j in range(lo, hi):
                            W[indices[j], k] += np.float32(a) * data[j]
                            U[indices[j], k] += a * clock * float(data[j])
                        b[k] += a
                        acc[k] += a * clock
            clock += 1.0
        mistakes.append(wrong)
    if average and clock > 0:
        return (W.astype(np.float64) - U / clock).astype(np.float32), b - acc / clock, mistakes
    return W, b, mistakes


def problem(seed, n=40, d=7, K=5, G=3):
    """Integer-valued rows whose labels depend on a feature and on the
    group (each group has a few of the labels)."""
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, G, n)
    allowed = [rng.choice(K, size=int(rng.integers(1, K + 1)), replace=False) for _ in range(G)]
    y = np.array([rng.choice(allowed[g]) for g in groups])
    dense = rng.integers(-1, 3, (n, d)).astype(np.float32)
    dense[np.arange(n), y % d] += 2
    rows, cols = np.nonzero(dense)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return CSRData(dense[rows, cols], cols.astype(np.int64), indptr, (n, d)), y, groups


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(1, 40), d=st.integers(1, 9),
       K=st.integers(2, 7), G=st.integers(1, 4), average=st.booleans(),
       shuffle=st.booleans())
def test_matches_the_reference_bit_for_bit(seed, n, d, K, G, average, shuffle):
    X, y, groups = problem(seed, n, d, K, G)
    model = CandidateClassifier(max_iter=3, average=average, shuffle=shuffle, random_state=seed)
    model.fit(X, y, groups, K, int(groups.max()) + 1)
    orders = shuffled_orders(n, 3, check_random_seed(seed)) if shuffle else \
        [np.arange(n)] * 3
    W, b, mistakes = candidate_reference(X, y, groups, K, orders, average)
    # the fit stops at an epoch without a mistake, the reference runs all three
    done = next((e + 1 for e, m in enumerate(mistakes) if m == 0), 3)
    if done < 3:
        W, b, _ = candidate_reference(X, y, groups, K, orders[:done], average)
    np.testing.assert_array_equal(model.coef_, W)
    np.testing.assert_array_equal(model.intercept_, b)


def test_predictions_are_candidates_of_the_group():
    X, y, groups = problem(3, n=200, K=6, G=4)
    model = CandidateClassifier(max_iter=5).fit(X, y, groups, 6, 4)
    for g in range(4):
        seen = set(y[groups == g].tolist())
        other = np.full(len(y), g)
        assert set(model.predict(X, other).tolist()) <= seen
        scores = model.decision_function(X, other)
        assert np.isneginf(scores[:, sorted(set(range(6)) - seen)]).all()
        assert np.isfinite(scores[:, sorted(seen)]).all()
        np.testing.assert_array_equal(np.argmax(scores, axis=1), model.predict(X, other))


def test_candidate_lists():
    ptr, cand = candidate_lists([0, 0, 2, 0], [3, 1, 1, 3], 3, 4)
    # group 1 was seen with no label: every label is its candidate
    assert ptr.tolist() == [0, 2, 6, 7]
    assert cand.tolist() == [1, 3, 0, 1, 2, 3, 1]


def test_dev_keeps_the_best_epoch():
    X, y, groups = problem(5, n=120)
    dev = (X, groups, y)
    model = CandidateClassifier(max_iter=6).fit(X, y, groups, 5, 3, dev=dev, patience=1)
    assert model.dev_score_ == float(np.mean(model.predict(X, groups) == y))


def test_bad_input():
    X, y, groups = problem(1)
    model = CandidateClassifier().fit(X, y, groups, 5, 3)
    with pytest.raises(ValueError, match="groups must hold one code in"):
        model.predict(X, np.full(len(y), 3))
    with pytest.raises(ValueError, match="groups must hold"):
        model.predict(X, groups[:-1])
    bad = CSRData(X.data, X.indices, X.indptr, (X.shape[0], X.shape[1] + 1))
    with pytest.raises(ValueError, match="columns"):
        model.predict(bad, groups)
    wrong = CSRData(X.data, X.indices + 100, X.indptr, X.shape)
    with pytest.raises(ValueError, match="CSR rows"):
        CandidateClassifier().fit(wrong, y, groups, 5, 3)
    state = model.state()
    with pytest.raises(ModelFileError, match="cand_ptr_"):
        CandidateClassifier.from_state(dict(state, cand_=state["cand_"] + 5))
    with pytest.raises(ModelFileError, match="coef_"):
        CandidateClassifier.from_state(dict(state, coef_=state["coef_"].astype(np.float64)))
    again = CandidateClassifier.from_state(state)
    np.testing.assert_array_equal(again.predict(X, groups), model.predict(X, groups))


"""VotedPerceptron over sparse rows keeps each vector as the update that made
it (y_i x_i, the row's stored values) and scores by accumulating the
updates' dot products (Freund and Schapire 1999, Figure 1: v_{k+1} = v_k +
y_i x_i).  Against the paper's reference and against the dense store: the
same voters and, on integer-valued rows, the same votes bit for bit."""
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import VotedPerceptron, load
from perceptron.exceptions import ModelFileError
from perceptron._core import voted as _voted
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed
from perceptron.io import CSRData

from helpers import same_voters, voted_vectors
from reference import voted_reference


def csr_of(X, index_dtype=np.int64):
    """X's nonzero entries as CSRData (canonical: sorted columns, no zeros)."""
    rows, cols = np.nonzero(X)
    indptr = np.zeros(len(X) + 1, dtype=index_dtype)
    np.cumsum(np.bincount(rows, minlength=len(X)), out=indptr[1:])
    return CSRData(np.ascontiguousarray(X[rows, cols]), cols.astype(index_dtype), indptr, X.shape)


def sparse_integer_data(rng, n, d, k=2, density=0.3, noise=0.1, dtype=np.float64):
    X = rng.integers(-4, 5, size=(n, d)) * (rng.random((n, d)) < density)
    W = rng.integers(-3, 4, size=(d, k))
    y = np.argmax(X @ W + rng.random(k), axis=1) if k > 2 else (X @ W[:, 0] + 0.5 > 0).astype(int)
    flip = rng.random(n) < noise
    y[flip] = rng.integers(0, k, flip.sum())
    return X.astype(dtype), y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_the_updates_make_the_papers_vectors_and_votes(dtype, index_dtype, shuffle, rng):
    X, y01 = sparse_integer_data(rng, 150, 12, dtype=dtype)
    y = np.where(y01 == 1, 1, -1)
    A = csr_of(X, index_dtype)
    m = VotedPerceptron(max_iter=5, shuffle=shuffle, random_state=8).fit(A, y)
    orders = shuffled_orders(len(y), 5, check_random_seed(8)) if shuffle else None
    ref, mistakes = voted_reference(X, y, max_iter=5, orders=orders)
    assert not hasattr(m, "vectors_")
    ((V, b, c),) = voted_vectors(m)  # the vectors in the order they were made
    np.testing.assert_array_equal(V, np.array([v for v, _, _ in ref], dtype=np.float64))
    np.testing.assert_array_equal(b, [bj for _, bj, _ in ref])
    np.testing.assert_array_equal(c, [cj for _, _, cj in ref])
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    # update t is the row of the t-th mistake, with its label's sign
    assert m.update_indptr_[0][-1] == len(m.update_values_[0]) <= A.nnz * m.n_iter_
    votes = sum(cj * np.where(X.astype(np.float64) @ v.astype(np.float64) + bj > 0, 1, -1)
                for v, bj, cj in ref)
    expected = votes / sum(cj for _, _, cj in ref)
    np.testing.assert_array_equal(m.decision_function(A), expected)
    np.testing.assert_array_equal(m.decision_function(X), expected)  # dense rows too
    np.testing.assert_array_equal(m.predict(A), np.where(votes > 0, 1, -1))


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("params", [{}, {"max_vectors": 6}, {"fit_intercept": False},
                                    {"n_jobs": 2}])
def test_the_updates_vote_as_the_dense_vectors(k, params, rng):
    X, y = sparse_integer_data(rng, 200, 15, k=k, noise=0.25)
    A = csr_of(X)
    dense = VotedPerceptron(max_iter=6, random_state=3, **params).fit(X, y)
    sparse = VotedPerceptron(max_iter=6, random_state=3, **params).fit(A, y)
    assert same_voters(voted_vectors(dense), voted_vectors(sparse))
    assert sparse.n_vectors_evicted_ == dense.n_vectors_evicted_
    if "max_vectors" in params:
        assert dense.n_vectors_evicted_ > 0
        assert all(len(c) == 6 for c in sparse.vector_counts_)
    np.testing.assert_array_equal(sparse.mistakes_, dense.mistakes_)
    for rows in (A, X):
        np.testing.assert_array_equal(sparse.decision_function(rows), dense.decision_function(X))
        np.testing.assert_array_equal(sparse.predict(rows), dense.predict(X))


def test_real_valued_rows_vote_as_the_dense_vectors_to_rounding(rng):
    # the activations differ by rounding only (the dense coordinates are
    # rounded sums, the accumulated activations rounded sums of dot
    # products): no activation of these rows falls within it of zero
    X = rng.standard_normal((300, 20)) * (rng.random((300, 20)) < 0.4)
    y = (X[:, 0] - X[:, 1] + 0.3 * rng.standard_normal(300) > 0).astype(int)
    A = csr_of(X)
    dense = VotedPerceptron(max_iter=5, random_state=0).fit(X, y)
    sparse = VotedPerceptron(max_iter=5, random_state=0).fit(A, y)
    ((Vd, bd, cd),), ((Vs, bs, cs),) = voted_vectors(dense), voted_vectors(sparse)
    np.testing.assert_allclose(Vs, Vd, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(cs, cd)
    np.testing.assert_array_equal(sparse.decision_function(A), dense.decision_function(X))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 30), d=st.integers(1, 9), density=st.sampled_from([0.0, 0.2, 1.0]),
       max_iter=st.integers(1, 4), max_vectors=st.integers(1, 5), seed=st.integers(0, 2**16),
       dtype=st.sampled_from([np.float32, np.float64]), fit_intercept=st.booleans())
def test_any_small_sparse_fit_votes_as_the_dense_one(n, d, density, max_iter, max_vectors, seed,
                                                     dtype, fit_intercept):
    rng = np.random.default_rng(seed)
    X = (rng.integers(-3, 4, size=(n, d)) * (rng.random((n, d)) < density)).astype(dtype)
    y = rng.integers(0, 2, n)
    y[0], y[-1] = 0, 1  # two classes (one row: refused alike, below)
    kw = dict(max_iter=max_iter, max_vectors=max_vectors, fit_intercept=fit_intercept,
              random_state=seed)
    if n == 1:
        with pytest.raises(ValueError):
            VotedPerceptron(**kw).fit(csr_of(X), y)
        return
    dense = VotedPerceptron(**kw).fit(X, y)
    sparse = VotedPerceptron(**kw).fit(csr_of(X), y)
    assert same_voters(voted_vectors(dense), voted_vectors(sparse))
    np.testing.assert_array_equal(sparse.decision_function(csr_of(X)), dense.decision_function(X))


def test_a_model_file_keeps_the_updates_and_checks_them(rng, tmp_path):
    X, y = sparse_integer_data(rng, 120, 10, k=3)
    A = csr_of(X)
    model = VotedPerceptron(max_iter=4, random_state=1).fit(A, y)
    path = tmp_path / "voted.ptn"
    model.save(path)
    again = load(path)
    np.testing.assert_array_equal(again.decision_function(A), model.decision_function(A))
    for name in ("update_indptr_", "update_indices_", "update_values_", "vector_updates_"):
        for a, b in zip(getattr(again, name), getattr(model, name)):
            np.testing.assert_array_equal(a, b)
    # what the checks at load refuse (the codec's own: tests/io/test_model_file_checks.py)
    bad = [("update_indices_", lambda v: v + X.shape[1], "columns below n_features_in_"),
           ("update_values_", lambda v: np.where(v == v.max(), np.nan, v), "must be finite"),
           ("vector_updates_", lambda v: v[::-1].copy(), "rising"),
           ("update_indptr_", lambda v: v[:-1].copy(), "rise from 0 to the number")]
    for name, change, message in bad:
        broken = load(path)
        getattr(broken, name)[1] = change(getattr(broken, name)[1])
        broken.save(tmp_path / "broken.ptn")
        with pytest.raises(ModelFileError, match=message):
            load(tmp_path / "broken.ptn")


def test_refitting_changes_the_form(rng):
    X, y = sparse_integer_data(rng, 80, 6)
    model = VotedPerceptron(max_iter=3, random_state=0).fit(csr_of(X), y)
    assert hasattr(model, "vector_updates_") and not hasattr(model, "vectors_")
    model.fit(X, y)
    assert hasattr(model, "vectors_") and not hasattr(model, "vector_updates_")
    assert not hasattr(model, "update_values_")
    model.fit(csr_of(X), y)
    assert not hasattr(model, "vectors_")


def test_the_scorer_refuses_updates_that_do_not_fit_the_rows():
    X = np.ones((2, 3))
    ptr, idx, val = np.array([0, 1, 2]), np.array([0, 2]), np.array([1.0, -1.0])
    b, c, out = np.zeros(2), np.ones(2, dtype=np.int64), np.empty(2)
    _voted.decision_voted_updates(X, ptr, idx, val, np.array([1, 2]), b, c, out)
    np.testing.assert_array_equal(out, [0.0, 0.0])  # +1 (x.v1 = 1), then -1 (x.v2 = 0)
    for args in [(ptr, np.array([0, 3]), val, np.array([1, 2])),      # column 3 of 3
                 (ptr, idx, val, np.array([2, 1])),                     # not rising
                 (ptr, idx, val, np.array([1, 3])),                     # past the updates
                 (np.array([0, 2, 1]), idx, val, np.array([1, 2]))]:    # pointers fall
        with pytest.raises(ValueError, match="not a valid chain"):
            _voted.decision_voted_updates(X, *args, b, c, out)


def test_wide_hashed_rows_fit_in_memory_of_their_updates(rng, monkeypatch):
    # rows as HashingVectorizer makes them: 2**18 columns, 5 classes.  The
    # default budget kept dense would be 5 x 1000 vectors of 2**18 float64
    # (9.8 GiB): refused before.  The updates take what the mistakes' rows take.
    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES", raising=False)
    n, d, nnz = 2000, 2**18, 20
    indices = np.concatenate([np.sort(rng.choice(d, nnz, replace=False)) for _ in range(n)])
    A = CSRData(rng.random(n * nnz) + 0.5, indices.astype(np.int64),
                np.arange(0, n * nnz + 1, nnz, dtype=np.int64), (n, d))
    y = rng.integers(0, 5, n)
    first = CSRData(A.data[:50 * nnz], A.indices[:50 * nnz], A.indptr[:51], (50, d))
    model = VotedPerceptron(max_iter=3, random_state=0)
    tracemalloc.start()
    try:
        model.fit(A, y)
        scores = model.decision_function(first)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # numpy's arrays: 5 problems' updates (at most 3 x 2000 rows of 20
    # values, 16 bytes each, and the gather's positions) and a few dense
    # vectors of 2 MiB; the loop's own record of the mistakes' rows (8 bytes
    # a mistake, C memory) is not traced
    assert peak < 64 << 20
    assert len(model.update_values_) == 5 and scores.shape[1] == 5
    assert all(len(v) <= 3 * n * nnz for v in model.update_values_)

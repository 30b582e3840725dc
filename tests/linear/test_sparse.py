"""Sparse input: every estimator and Perceptron mode on CSR (and what converts
to it) gives the model of the dense array of the same rows in the same order.

Integer-valued data keep every product and sum exact at every SIMD level, so
the models must be equal bit for bit (coef_, intercept_, mistakes_); real
values are compared to tight tolerances.  The caller's matrices are compared
byte for byte before and after.
"""
import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

sp = pytest.importorskip("scipy.sparse")

import perceptron  # noqa: E402
from perceptron import (CentroidClassifier, KernelPerceptron, Perceptron, # noqa: E402
                        VotedPerceptron)
from perceptron._core.online import shuffled_orders  # noqa: E402
from perceptron._common.validation import CSRData, check_X, check_random_seed  # noqa: E402
from perceptron.io import CSRData, load_svmlight  # noqa: E402

from helpers import run_python, same_voters, voted_vectors  # noqa: E402
from reference import perceptron_reference  # noqa: E402

LEVELS = perceptron.simd_info()["supported"]
KINDS = ["csr32", "csr64", "csc", "coo", "noncanonical", "csrdata32", "csrdata64"]


def int_data(n=120, d=25, k=2, density=0.3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    X[rng.random(X.shape) > density] = 0.0
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)  # every class present
    return X, y


def noncanonical(X, rng):
    """CSR of X whose rows have shuffled columns and some values split in two
    entries of the same column (sums exact for integer values)."""
    C = sp.csr_matrix(X)
    data, indices, counts = [], [], []
    for i in range(X.shape[0]):
        lo, hi = C.indptr[i], C.indptr[i + 1]
        v, c = list(C.data[lo:hi]), list(C.indices[lo:hi])
        for j in range(len(v)):
            if rng.random() < 0.5:  # split v into (v - 1) + 1
                v.append(1.0)
                c.append(c[j])
                v[j] -= 1.0
        order = rng.permutation(len(v))
        data.extend(np.array(v)[order] if v else [])
        indices.extend(np.array(c)[order] if c else [])
        counts.append(len(v))
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    return sp.csr_matrix((np.array(data, dtype=X.dtype), np.array(indices, dtype=np.int32),
                          indptr), shape=X.shape)


def sparse_of(X, kind, seed=0):
    C = sp.csr_matrix(X)
    if kind == "csr32":
        C.indices = C.indices.astype(np.int32)
        C.indptr = C.indptr.astype(np.int32)
        return C
    if kind == "csr64":
        C.indices = C.indices.astype(np.int64)
        C.indptr = C.indptr.astype(np.int64)
        return C
    if kind == "csc":
        return sp.csc_matrix(X)
    if kind == "coo":
        return sp.coo_matrix(X)
    if kind == "noncanonical":
        return noncanonical(X, np.random.default_rng(seed))
    idx = np.int32 if kind == "csrdata32" else np.int64
    return CSRData(C.data.copy(), C.indices.astype(idx), C.indptr.astype(idx), X.shape)


def snapshot(A):
    """The bytes of every array of a sparse input (to prove it unchanged)."""
    if isinstance(A, CSRData):
        parts = (A.data, A.indices, A.indptr)
    elif A.format == "coo":
        parts = (A.data, A.row, A.col)
    else:
        parts = (A.data, A.indices, A.indptr)
    return [(p.dtype.str, p.tobytes()) for p in parts]


def assert_same(a, b, exact=True):
    for name in ("coef_", "intercept_"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, name
        if exact:
            np.testing.assert_array_equal(x, y, err_msg=name)
        else:
            np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-9, err_msg=name)
    if hasattr(a, "mistakes_"):
        np.testing.assert_array_equal(a.mistakes_, b.mistakes_)


MODES = {
    "binary": ({}, 2),
    "binary_noshuffle": ({"shuffle": False}, 2),
    "ovr": ({}, 3),
    "multinomial": ({"multiclass": "multinomial"}, 3),
    "averaged": ({"average": True}, 3),
    "pocket": ({"pocket": True}, 2),
    "pocket_multinomial": ({"pocket": True, "multiclass": "multinomial"}, 3),
    "margin": ({"margin": 2.0}, 2),
    "minibatch": ({"batch_size": 8, "eta0": 8.0}, 2),
    "minibatch_multinomial": ({"batch_size": 4, "eta0": 4.0, "multiclass": "multinomial"}, 3),
    "no_intercept": ({"fit_intercept": False}, 2),
    "class_weight": ({"class_weight": {0: 2.0, 1: 1.0, 2: 3.0}}, 3),
    "early_stopping": ({"early_stopping": True, "validation_fraction": 0.2}, 3),
}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_perceptron_sparse_equals_dense(mode, kind, dtype):
    params, k = MODES[mode]
    X, y = int_data(k=k, seed=len(mode))
    X = X.astype(dtype)
    A = sparse_of(X, kind)
    before = snapshot(A)
    dense = Perceptron(max_iter=15, random_state=3, **params).fit(X, y)
    sparse = Perceptron(max_iter=15, random_state=3, **params).fit(A, y)
    assert_same(dense, sparse)
    assert sparse.coef_.dtype == dtype
    assert dense.n_iter_ == sparse.n_iter_
    if "early_stopping" in params:
        np.testing.assert_array_equal(dense.validation_scores_, sparse.validation_scores_)
    # a model of either input scores either input the same way
    np.testing.assert_allclose(dense.decision_function(A), dense.decision_function(X),
                               rtol=1e-6 if dtype == np.float32 else 1e-12, atol=1e-9)
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(A))
    assert sparse.score(A, y) == dense.score(X, y)
    assert snapshot(A) == before


@pytest.mark.parametrize("kind", ["csr32", "csr64", "noncanonical"])
def test_sample_weight_and_multilabel(kind):
    X, y = int_data(k=3, seed=5)
    A = sparse_of(X, kind)
    sw = np.random.default_rng(0).integers(0, 4, size=len(y)).astype(float)
    for params in ({}, {"average": True}, {"multiclass": "multinomial"}):
        assert_same(Perceptron(max_iter=10, random_state=0, **params).fit(X, y, sample_weight=sw),
                    Perceptron(max_iter=10, random_state=0, **params).fit(A, y, sample_weight=sw))
    Y = np.eye(3, dtype=int)[y]
    Y[::4, 0] = 1
    dense = Perceptron(max_iter=10, random_state=0).fit(X, Y)
    sparse = Perceptron(max_iter=10, random_state=0).fit(A, Y)
    assert_same(dense, sparse)
    np.testing.assert_array_equal(dense.predict(A), sparse.predict(X))


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 1e-9), (np.float32, 1e-4)])
def test_real_valued_data_to_tight_tolerance(dtype, rtol):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((300, 60)).astype(dtype)
    X[rng.random(X.shape) > 0.2] = 0
    y = (X @ rng.standard_normal(60) > 0).astype(int)
    for params in ({}, {"average": True}, {"multiclass": "multinomial"}):
        yy = y if not params else y + (X[:, 0] > 0)
        dense = Perceptron(max_iter=5, random_state=1, **params).fit(X, yy)
        sparse = Perceptron(max_iter=5, random_state=1, **params).fit(sp.csr_matrix(X), yy)
        np.testing.assert_array_equal(dense.mistakes_, sparse.mistakes_)
        np.testing.assert_allclose(dense.coef_, sparse.coef_, rtol=rtol, atol=rtol)
        np.testing.assert_allclose(dense.intercept_, sparse.intercept_, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("kind", ["csr32", "csr64", "coo"])
def test_partial_fit_chunks_sparse_equal_dense(kind):
    X, y = int_data(n=150, k=3, seed=9)
    classes = np.unique(y)
    for params in ({}, {"average": True}, {"multiclass": "multinomial"}, {"pocket": True}):
        dense = Perceptron(random_state=0, **params)
        sparse = Perceptron(random_state=0, **params)
        mixed = Perceptron(random_state=0, **params)
        for c, lo in enumerate(range(0, 150, 50)):
            rows = slice(lo, lo + 50)
            dense.partial_fit(X[rows], y[rows], classes=classes)
            sparse.partial_fit(sparse_of(X[rows], kind), y[rows], classes=classes)
            mixed.partial_fit(X[rows] if c % 2 else sparse_of(X[rows], kind), y[rows],
                              classes=classes)
        assert_same(dense, sparse)
        assert_same(dense, mixed)


def test_float32_model_scores_float64_csr_and_back():
    X, y = int_data(k=3)
    m32 = Perceptron(max_iter=5, random_state=0).fit(sp.csr_matrix(X.astype(np.float32)), y)
    assert m32.coef_.dtype == np.float32
    np.testing.assert_array_equal(m32.predict(sp.csr_matrix(X)), m32.predict(X))
    m32.partial_fit(sp.csr_matrix(X), y)  # float64 chunk for a float32 model: converted
    assert m32.coef_.dtype == np.float32


def test_check_X_uses_canonical_csr_in_place():
    X, _ = int_data()
    for idx in (np.int32, np.int64):
        A = sparse_of(X, "csr32" if idx == np.int32 else "csr64")
        C = check_X(A, accept_sparse=True)
        assert isinstance(C, CSRData)
        assert C.data is A.data and C.indices is A.indices and C.indptr is A.indptr
        assert C.indices.dtype == idx  # int64 indices stay int64
        D = CSRData(A.data, A.indices, A.indptr, A.shape)
        C = check_X(D, accept_sparse=True)
        assert C.data is A.data and C.indices is A.indices
    # other value dtypes: converted once to float64, the structure shared
    A = sp.csr_matrix(X.astype(np.int16))
    C = check_X(A, accept_sparse=True)
    assert C.data.dtype == np.float64 and C.indices is A.indices
    np.testing.assert_array_equal(C.toarray(), X)


def test_check_X_canonical_copy_and_no_change_to_caller():
    X, _ = int_data(seed=4)
    rng = np.random.default_rng(0)
    A = noncanonical(X, rng)
    before = snapshot(A)
    C = check_X(A, accept_sparse=True)
    assert snapshot(A) == before
    np.testing.assert_array_equal(C.toarray(), X)
    for i in range(X.shape[0]):
        cols = C.indices[C.indptr[i]:C.indptr[i + 1]]
        assert (np.diff(cols) > 0).all()
    # mixed index dtypes become int64
    D = CSRData(A.data, A.indices.astype(np.int32), A.indptr.astype(np.int64), A.shape)
    C = check_X(D, accept_sparse=True)
    assert C.indices.dtype == C.indptr.dtype == np.int64
    np.testing.assert_array_equal(C.toarray(), X)


def csr_arrays(X):
    C = sp.csr_matrix(X)
    return C.data.copy(), C.indices.copy(), C.indptr.copy()


@pytest.mark.parametrize("estimator", [Perceptron, VotedPerceptron, CentroidClassifier,
                                       KernelPerceptron])
def test_bad_sparse_input_errors(estimator):
    X, y = int_data(n=10, d=4, density=0.6)
    data, indices, indptr = csr_arrays(X)
    cases = [
        (CSRData(data, indices, indptr, (10, 4, 1)), ValueError, "X must be 2-D"),
        (sp.csr_matrix((0, 4)), ValueError, "0 sample"),
        (sp.csr_matrix((10, 0)), ValueError, "0 feature"),
        (CSRData(data, np.where(indices == indices[0], -1, indices), indptr, (10, 4)),
         ValueError, "X has a negative column index"),
        (CSRData(data, indices, indptr, (10, int(indices.max()))), ValueError,
         "out of range for its"),
        (CSRData(data, indices, indptr + 1, (10, 4)), ValueError, "X.indptr must start at 0"),
        (CSRData(data, indices, indptr[:-1], (10, 4)), ValueError, "X.indptr has 10 entries"),
        (CSRData(data, indices, np.r_[indptr[:-1], indptr[-1] - 1], (10, 4)), ValueError,
         "X.indptr must end at the number of stored values"),
        (CSRData(data, indices, np.r_[0, indptr[2], indptr[1], indptr[3:]], (10, 4)),
         ValueError, "X.indptr must not decrease"),
        (CSRData(data[:-1], indices, indptr, (10, 4)), ValueError, "values but"),
        (CSRData(data, indices.astype(float), indptr, (10, 4)), TypeError,
         "X.indices must hold integers"),
        (CSRData(data.astype(complex), indices, indptr, (10, 4)), ValueError, "Complex"),
    ]
    for A, error, message in cases:
        with pytest.raises(error, match=message):
            estimator().fit(A, y[:A.shape[0]] if A.shape[0] else y)


@pytest.mark.parametrize("estimator", [Perceptron, VotedPerceptron, CentroidClassifier,
                                       KernelPerceptron])
def test_non_finite_sparse_values_are_caught(estimator):
    X, y = int_data(n=20, d=5, density=1.0)
    for bad in (np.nan, np.inf):
        A = sp.csr_matrix(X)
        A.data[7] = bad
        with pytest.raises(ValueError, match="NaN or infinity"):
            estimator().fit(A, y)
        model = estimator().fit(X, y)
        with pytest.raises(ValueError, match="NaN or infinity"):
            model.decision_function(A)


def test_wrong_number_of_features_on_sparse():
    X, y = int_data()
    m = Perceptron(max_iter=3).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.predict(sp.csr_matrix(X[:, :-1]))


def test_decision_csr_rows_match_all_rows():
    from perceptron._core import decision as _decision

    X, _ = int_data(n=50, d=9)
    rng = np.random.default_rng(0)
    W = rng.integers(-2, 3, size=(3, 9)).astype(np.float64)
    b = np.array([0.5, -1.0, 2.0])
    for idx in (np.int32, np.int64):
        C = sparse_of(X, "csr32" if idx == np.int32 else "csr64")
        out = np.empty((50, 3))
        _decision.decision_csr(C.data, C.indices, C.indptr, 9, W, b, out)
        np.testing.assert_array_equal(out, X @ W.T + b)
        rows = rng.permutation(50).astype(np.intp)[:20]
        part = np.empty((20, 3))
        _decision.decision_csr(C.data, C.indices, C.indptr, 9, W, b, part, 0, rows)
        np.testing.assert_array_equal(part, out[rows])
        part = np.empty((10, 3))
        _decision.decision_csr(C.data, C.indices, C.indptr, 9, W, b, part, 30)
        np.testing.assert_array_equal(part, out[30:40])
        with pytest.raises(ValueError, match="out of range"):
            _decision.decision_csr(C.data, C.indices, C.indptr, 9, W, b, part, 45)


@st.composite
def sparse_problems(draw):
    n = draw(st.integers(1, 25))
    d = draw(st.integers(1, 12))
    density = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(np.float64)
    X[rng.random(X.shape) >= density] = 0.0
    if n > 1 and draw(st.booleans()):
        X[rng.integers(0, n)] = 0.0  # an empty row
    y = rng.integers(0, 2, size=n)
    if n == 1 or len(np.unique(y)) < 2:
        y = np.arange(n) % 2
    if n == 1:
        X, y = np.vstack([X, X]), np.array([0, 1])
    return X, y, draw(st.sampled_from(KINDS)), draw(st.sampled_from([np.float32, np.float64]))


@settings(max_examples=80, deadline=None)
@given(problem=sparse_problems(), average=st.booleans())
def test_hypothesis_shapes_and_densities(problem, average):
    X, y, kind, dtype = problem
    X = X.astype(dtype)
    A = sparse_of(X, kind)
    before = snapshot(A)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = Perceptron(max_iter=6, random_state=0, average=average).fit(X, y)
        sparse = Perceptron(max_iter=6, random_state=0, average=average).fit(A, y)
    assert_same(dense, sparse)
    # Scoring a CSR row sums its products in another order than the dense
    # SIMD dot, so the two activations agree to rounding, not bit for bit:
    # the averaged weights (w - u/c) are not integers, and a row scored at
    # 1e-15 on one side of 0 may score -1e-15 on the other.  Predictions must
    # agree wherever the activation is clear of that rounding.
    a_dense, a_csr = dense.decision_function(X), dense.decision_function(A)
    scale = np.abs(X) @ np.abs(np.atleast_2d(dense.coef_)).T + np.abs(dense.intercept_)
    np.testing.assert_allclose(a_csr, a_dense, rtol=0, atol=1e-12 * max(1.0, scale.max()))
    clear = np.abs(a_dense) > 1e-9 * np.maximum(scale.ravel(), 1.0)
    np.testing.assert_array_equal(dense.predict(A)[clear], dense.predict(X)[clear])
    if not average:  # integer data and integer weights: every sum is exact
        np.testing.assert_array_equal(dense.predict(A), dense.predict(X))
    assert snapshot(A) == before


def test_a9a_sparse_fit_equals_dense(a9a_path):
    X, y = load_svmlight(a9a_path)
    assert sp.issparse(X)
    dense_X = X.toarray()
    for params in ({}, {"average": True}, {"shuffle": False}):
        dense = Perceptron(max_iter=3, random_state=0, **params).fit(dense_X, y)
        for idx in (np.int32, np.int64):
            A = X.copy()
            A.indices = A.indices.astype(idx)
            A.indptr = A.indptr.astype(idx)
            sparse = Perceptron(max_iter=3, random_state=0, **params).fit(A, y)
            assert_same(dense, sparse)
        np.testing.assert_array_equal(sparse.predict(dense_X), dense.predict(X))


LEVEL_FIT = """
import json, warnings
import numpy as np, scipy.sparse as sp
import perceptron
warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
out = {"level": perceptron.simd_info()["level"]}
# d = 6000: float64 weights beyond the gather threshold (32 KiB), float32 too
for d in (20, 6000):
    X = rng.integers(-3, 4, size=(300, d)).astype(np.float64)
    X[rng.random(X.shape) > 30 / d] = 0
    y = rng.integers(0, 3, 300)
    for dtype in ("float32", "float64"):
        Xd = X.astype(dtype)
        for idx in ("int32", "int64"):
            A = sp.csr_matrix(Xd)
            A.indices = A.indices.astype(idx)
            A.indptr = A.indptr.astype(idx)
            for params in ({}, {"average": True}, {"multiclass": "multinomial"}):
                s = perceptron.Perceptron(max_iter=5, random_state=0, **params).fit(A, y)
                t = perceptron.Perceptron(max_iter=5, random_state=0, **params).fit(Xd, y)
                same = (np.array_equal(s.coef_, t.coef_)
                        and np.array_equal(s.intercept_, t.intercept_)
                        and np.array_equal(s.mistakes_, t.mistakes_)
                        and np.array_equal(s.predict(Xd), t.predict(A)))
                key = f"{d} {dtype} {idx} {sorted(params)}"
                out[key] = [bool(same), s.coef_.tolist(), s.mistakes_.tolist()]
print(json.dumps(out))
"""


@pytest.mark.slow  # a fresh interpreter per level
def test_sparse_fits_equal_dense_at_every_level():
    results = {}
    for level in LEVELS:
        res = json.loads(run_python(LEVEL_FIT, simd=level)[0])
        assert res.pop("level") == level
        for key, (same, _, _) in res.items():
            assert same, (level, key)
        results[level] = res
    first = results[LEVELS[0]]
    for level in LEVELS[1:]:
        assert results[level] == first, level


def assert_same_voted(a, b):
    # b, fitted on sparse rows, keeps each vector as its updates: the same
    # voters as a's dense vectors, summed exactly (the data are integers)
    assert hasattr(a, "vectors_") and not hasattr(b, "vectors_")
    assert same_voters(voted_vectors(a), voted_vectors(b))
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)
    assert a.n_vectors_evicted_ == b.n_vectors_evicted_


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("k", [2, 3])
def test_voted_sparse_equals_dense(kind, dtype, k):
    X, y = int_data(k=k, seed=11)
    X = X.astype(dtype)
    A = sparse_of(X, kind)
    before = snapshot(A)
    for params in ({}, {"shuffle": False}, {"max_vectors": 5}):
        dense = VotedPerceptron(max_iter=8, random_state=2, **params).fit(X, y)
        sparse = VotedPerceptron(max_iter=8, random_state=2, **params).fit(A, y)
        assert_same_voted(dense, sparse)
        np.testing.assert_array_equal(dense.decision_function(A), dense.decision_function(X))
        np.testing.assert_array_equal(sparse.predict(X), dense.predict(A))
    assert snapshot(A) == before


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("k", [2, 4])
def test_centroid_sparse_equals_dense(kind, dtype, k):
    X, y = int_data(k=k, seed=12)
    X = X.astype(dtype)
    A = sparse_of(X, kind)
    before = snapshot(A)
    sw = np.random.default_rng(1).integers(1, 4, size=len(y)).astype(float)
    for weights in (None, sw):
        dense = CentroidClassifier().fit(X, y, sample_weight=weights)
        sparse = CentroidClassifier().fit(A, y, sample_weight=weights)
        np.testing.assert_array_equal(dense.centroids_, sparse.centroids_)
        assert_same(dense, sparse)
        np.testing.assert_allclose(dense.decision_function(A), dense.decision_function(X),
                                   rtol=1e-6 if dtype == np.float32 else 1e-12)
        np.testing.assert_array_equal(sparse.predict(X), dense.predict(A))
    assert snapshot(A) == before


@pytest.mark.parametrize("kind", ["csr32", "csr64", "csc", "noncanonical", "csrdata64"])
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_kernel_perceptron_densifies_sparse(kind, kernel):
    X, y = int_data(n=60, d=8, k=3, seed=13)
    A = sparse_of(X, kind)
    before = snapshot(A)
    dense = KernelPerceptron(kernel=kernel, max_iter=5, random_state=0, gamma=0.1).fit(X, y)
    sparse = KernelPerceptron(kernel=kernel, max_iter=5, random_state=0, gamma=0.1).fit(A, y)
    np.testing.assert_array_equal(dense.dual_coef_, sparse.dual_coef_)
    np.testing.assert_array_equal(dense.support_vectors_, sparse.support_vectors_)
    np.testing.assert_array_equal(dense.decision_function(A), dense.decision_function(X))
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(A))
    assert snapshot(A) == before


def test_kernel_perceptron_refuses_sparse_beyond_its_budget(monkeypatch):
    import perceptron.kernel._perceptron as kernel_module

    X, y = int_data(n=60, d=8)
    monkeypatch.setattr(kernel_module, "SPARSE_DENSIFY_MAX_BYTES", 1000)
    with pytest.raises(ValueError, match="X is sparse, 60 x 8.*SPARSE_DENSIFY_MAX_BYTES"):
        KernelPerceptron().fit(sp.csr_matrix(X), y)


def test_voted_and_centroid_a9a(a9a_path):
    X, y = load_svmlight(a9a_path)
    dense_X = X.toarray()
    assert_same_voted(VotedPerceptron(max_iter=2, random_state=0).fit(dense_X, y),
                      VotedPerceptron(max_iter=2, random_state=0).fit(X, y))
    assert_same(CentroidClassifier().fit(dense_X, y), CentroidClassifier().fit(X, y))


def test_structure_check_finds_errors_after_unsorted_rows():
    from perceptron._core import csr as _csr

    for idx in (np.int32, np.int64):
        indptr = np.array([0, 2, 3, 5], dtype=idx)
        unsorted = np.array([3, 1, 0, 2, 4], dtype=idx)
        assert _csr.check_structure(unsorted, indptr, 5) == (_csr.STATUS_NOT_CANONICAL, 1)
        assert _csr.check_structure(np.sort(unsorted), np.array([0, 5], dtype=idx), 5) == \
            (_csr.STATUS_OK, 0)
        repeated = np.array([1, 1, 0, 2, 4], dtype=idx)
        assert _csr.check_structure(repeated, indptr, 5)[0] == _csr.STATUS_NOT_CANONICAL
        # an unsorted row first, then an index out of range: the error wins
        bad = np.array([3, 1, 0, 2, 5], dtype=idx)
        assert _csr.check_structure(bad, indptr, 5) == (_csr.STATUS_INDEX_TOO_LARGE, 4)
        bad = np.array([3, 1, 0, -2, 4], dtype=idx)
        assert _csr.check_structure(bad, indptr, 5) == (_csr.STATUS_NEGATIVE_INDEX, 3)
        # within a sorted row only its ends are compared with the range
        assert _csr.check_structure(np.array([0, 1, 2], dtype=idx),
                                    np.array([0, 3], dtype=idx), 2) == \
            (_csr.STATUS_INDEX_TOO_LARGE, 2)
        assert _csr.check_structure(np.array([], dtype=idx), np.zeros(4, dtype=idx), 1) == \
            (_csr.STATUS_OK, 0)


def _structure_reference(indices, indptr, d):
    """check_structure's answer, entry by entry in Python (its docstring)."""
    from perceptron._core import csr as _csr

    n, nnz = len(indptr) - 1, len(indices)
    if indptr[0] != 0:
        return _csr.STATUS_BAD_INDPTR_START, 0
    if indptr[n] != nnz:
        return _csr.STATUS_BAD_INDPTR_END, n
    unsorted = None
    for i in range(n):
        lo, hi = int(indptr[i]), int(indptr[i + 1])
        if hi < lo or hi > nnz:
            return _csr.STATUS_BAD_INDPTR_ORDER, i + 1
        for k in range(lo, hi):
            if indices[k] < 0:
                return _csr.STATUS_NEGATIVE_INDEX, k
            if indices[k] >= d:
                return _csr.STATUS_INDEX_TOO_LARGE, k
            if k > lo and indices[k] <= indices[k - 1] and unsorted is None:
                unsorted = k
    if unsorted is not None:
        return _csr.STATUS_NOT_CANONICAL, unsorted
    return _csr.STATUS_OK, 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 3000),
       defect=st.sampled_from(["none", "unsorted", "repeat", "negative", "too_large",
                               "indptr"]),
       where=st.floats(0.0, 1.0), dtype=st.sampled_from([np.int32, np.int64]))
def test_structure_check_equals_a_reference(seed, rows, defect, where, dtype):
    # rows of up to 30 sorted columns (up to ~45,000 stored values, so that
    # the check's blocks of 16,384 are crossed), one defect placed anywhere
    from perceptron._core import csr as _csr

    rng = np.random.default_rng(seed)
    d = 40
    lengths = rng.integers(0, 31, size=rows)
    indptr = np.zeros(rows + 1, dtype=dtype)
    np.cumsum(lengths, out=indptr[1:])
    indices = np.concatenate([np.sort(rng.choice(d, size=m, replace=False)) for m in lengths]
                             + [np.zeros(0, dtype=np.int64)]).astype(dtype)
    nnz = len(indices)
    k = min(int(where * nnz), nnz - 1)
    if defect != "none" and nnz:
        if defect == "unsorted" and k > 0:
            indices[k], indices[k - 1] = indices[k - 1], indices[k]
        elif defect == "repeat" and k > 0:
            indices[k] = indices[k - 1]
        elif defect == "negative":
            indices[k] = -1
        elif defect == "too_large":
            indices[k] = d + int(where * 5)
        elif defect == "indptr" and rows > 1:
            r = 1 + int(where * (rows - 1))
            indptr[r] = indptr[r - 1] - 1 if indptr[r - 1] > 0 else indptr[r + 1] + 1
    before = (indices.copy(), indptr.copy())
    assert _csr.check_structure(indices, indptr, d) == _structure_reference(indices, indptr, d)
    np.testing.assert_array_equal(indices, before[0])
    np.testing.assert_array_equal(indptr, before[1])


def test_structure_check_across_its_blocks():
    # a repeat or a descent exactly where the check's blocks meet (16,384)
    from perceptron._core import csr as _csr

    for dtype in (np.int32, np.int64):
        rows = 2000
        indptr = (np.arange(rows + 1) * 30).astype(dtype)
        base = np.tile(np.arange(30), rows).astype(dtype)
        assert _csr.check_structure(base, indptr, 30) == (_csr.STATUS_OK, 0)
        for k in (16383, 16384, 16385, 2 * 16384, 2 * 16384 + 1):
            bad = base.copy()
            bad[k] = bad[k - 1]
            assert _csr.check_structure(bad, indptr, 30) == (_csr.STATUS_NOT_CANONICAL, k)
            bad = base.copy()
            bad[k] = 30
            assert _csr.check_structure(bad, indptr, 30) == (_csr.STATUS_INDEX_TOO_LARGE, k)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([-1.0, 0.0, 1.0, 2.5, -0.0, 7.0]), min_size=1, max_size=40),
       st.sampled_from([np.float64, np.float32, np.int64, np.uint8]))
def test_unique_labels_numeric_fast_path(values, dtype):
    from perceptron._common.validation import unique_labels

    y = np.array(values).astype(dtype)
    np.testing.assert_array_equal(unique_labels(y), np.unique(y))


def test_fit_stream_of_sparse_chunks_equals_dense_fit():
    X, y = int_data(n=200, k=3, seed=21)
    A = sparse_of(X, "csr64")
    before = snapshot(A)
    dense = Perceptron(shuffle=False, max_iter=4).fit(X, y)
    stream = Perceptron(shuffle=False, max_iter=4).fit_stream((A, y), chunk_rows=64,
                                                              classes=np.unique(y))
    assert_same(dense, stream)
    assert snapshot(A) == before


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["identity", "identity then shuffled", "gap", "reversed",
                                   "identity prefix of a subset"])
def test_csr_epoch_in_order_then_not_equals_reference(order, dtype, index_dtype):
    # rows a call does not shuffle are read as 0, 1, 2, ... when they are
    # exactly that (csrc/ptn_csr_online.h, the _ordered loops, after one
    # check of the order), through rows[] by the general loop otherwise:
    # the same steps as the rule either way
    from perceptron._core.online import LoopParams, run_epochs
    from perceptron.linear._state import OnlineState
    from reference import family_reference

    rng = np.random.default_rng(11)
    X = rng.integers(-3, 4, size=(60, 7)).astype(dtype)
    X[rng.random(X.shape) < 0.4] = 0
    y = np.where(X @ rng.integers(-2, 3, size=7) + rng.integers(-2, 3, size=60) > 0, 1, -1)
    rows = {"identity": np.arange(60),
            "identity then shuffled": np.r_[np.arange(25), 25 + rng.permutation(35)],
            "gap": np.r_[np.arange(20), np.arange(21, 60)],
            "reversed": np.arange(60)[::-1],
            "identity prefix of a subset": np.r_[np.arange(30), rng.choice(np.arange(30, 60), 12,
                                                                           replace=False)],
            }[order].astype(np.intp)
    A = sp.csr_matrix(X)
    A = sp.csr_matrix((A.data, A.indices.astype(index_dtype), A.indptr.astype(index_dtype)),
                      shape=A.shape)
    state = OnlineState(1, 7, dtype, multinomial=False, average=False, pocket=False,
                        batch_size=None, seed=0)
    state.rows = rows.copy()
    params = LoopParams(eta=1.0, margin=0.0, fit_intercept=True, shuffle=False, average=False,
                        pocket=False, stop_when_converged=False)
    res = run_epochs(state, A, y.astype(np.int8), None, params, 4)
    w, b, mistakes, updates, _ = family_reference(X, y, max_iter=4, orders=[rows] * 4,
                                                  stop_when_converged=False)
    np.testing.assert_array_equal(state.W[0], w)
    assert state.b[0] == b
    np.testing.assert_array_equal(res["mistakes"], mistakes)
    np.testing.assert_array_equal(res["updates"], updates)
    np.testing.assert_array_equal(state.rows, rows)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 60), d=st.integers(1, 40),
       density=st.sampled_from([0.0, 0.1, 0.4, 1.0]), dtype=st.sampled_from([np.float32,
                                                                             np.float64]),
       index=st.sampled_from([np.int32, np.int64]), shuffle=st.booleans(),
       eta=st.sampled_from([1.0, 0.1, 3e-5]), margin=st.sampled_from([0.0, 0.7]),
       stray=st.sampled_from([None, 2.0, -1.0, 0.0, np.nextafter(1.0, 2.0)]))
def test_indicator_features_fit_as_any_values(seed, n, d, density, dtype, index, shuffle, eta,
                                              margin, stray):
    """Rows whose stored values are all 1.0 take the loops that do not read
    the values: the same model bit for bit as the loop that reads them (the
    one sample weights take, every weight 1.0), and, in exact arithmetic
    (eta 1, no margin), as the numpy reference on the dense rows.  A single
    other value anywhere (`stray`) sends the fit back to the plain loops,
    with the same guarantees."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < density).astype(dtype)
    if stray is not None and X.any():
        X[tuple(np.argwhere(X)[rng.integers(0, np.count_nonzero(X))])] = stray
    y = np.where(rng.random(n) < 0.5, -1, 1)
    y[:2] = [-1, 1]  # both classes
    A = sp.csr_matrix(X)
    A.indices, A.indptr = A.indices.astype(index), A.indptr.astype(index)
    before = snapshot(A)
    params = dict(max_iter=4, tol=None, shuffle=shuffle, random_state=seed % 1000, eta0=eta,
                  margin=margin)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = Perceptron(**params).fit(A, y)
        weighted = Perceptron(**params).fit(A, y, sample_weight=np.ones(n))
    assert_same(ours, weighted)
    assert snapshot(A) == before
    if eta == 1.0 and margin == 0.0 and stray in (None, 2.0, -1.0, 0.0):
        orders = shuffled_orders(n, 4, check_random_seed(seed % 1000)) if shuffle else None
        w, b, mistakes, _ = perceptron_reference(X, y, max_iter=4, orders=orders)
        np.testing.assert_array_equal(ours.coef_.ravel(), w)
        assert float(ours.intercept_[0]) == b
        np.testing.assert_array_equal(ours.mistakes_, mistakes)

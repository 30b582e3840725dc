"""Binary CSR rows (every stored value 1) kept as their indices alone: asked
for (``CSRData`` without values, ``binary_csr``) or found in a matrix whose
values are all 1.0.  Every fit, partial fit and score gives the model of the
float CSR path on the same rows with their ones stored, bit for bit, and,
where the arithmetic is exact, of the numpy reference on the dense rows."""
import contextlib
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import PassiveAggressiveClassifier, Perceptron, VotedPerceptron, simd_info
from perceptron._core import csr as _csr
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed, check_X
from perceptron.io import CSRData, binary_csr
from reference import multinomial_reference, perceptron_reference
from helpers import run_python

LEVELS = simd_info()["supported"]


def binary_rows(rng, n, d, density, index=np.int32):
    """Dense 0/1 rows (float64) and their CSR arrays (indices of `index`),
    every row sorted; labels of a random linear rule."""
    X = (rng.random((n, d)) < density).astype(np.float64)
    rows, cols = np.nonzero(X)
    indptr = np.zeros(n + 1, dtype=np.int32 if index == np.uint16 else index)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    scores = X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)
    y = (scores > np.median(scores)).astype(int)
    return X, cols.astype(index), indptr, y


def k_labels(rng, X, k):
    return (X @ rng.standard_normal((X.shape[1], k)) + rng.standard_normal((len(X), k))).argmax(1)


@contextlib.contextmanager
def float_path(monkeypatch):
    """Fits in this context read the ones as stored (the float CSR path):
    the check that finds all-ones values is told it never does."""
    with monkeypatch.context() as m:
        m.setattr(_csr, "all_ones", lambda data: False)
        yield


def quiet_fit(est, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y, **kw)


def assert_same(a, b):
    assert a.coef_.dtype == b.coef_.dtype
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)


OPTIONS = [
    {},
    {"shuffle": False},
    {"average": True},
    {"eta0": 0.1, "margin": 0.5},
    {"penalty": "l2", "alpha": 1e-3},
    {"penalty": "l1", "alpha": 1e-3},
    {"penalty": "elasticnet", "alpha": 1e-3, "l1_ratio": 0.3},
    {"batch_size": 8},
    {"pocket": True},
    {"n_jobs": 2},
    {"early_stopping": True, "n_iter_no_change": 2},
    {"class_weight": "balanced"},
]


@pytest.mark.parametrize("kw", OPTIONS)
@pytest.mark.parametrize("k", [2, 3, "multinomial"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("index", [np.int32, np.int64, np.uint16])
@pytest.mark.parametrize("d", [30, 9000])  # 9000 float32 weights: beyond L1, the gathers' size
def test_same_bits_as_the_float_rows(kw, k, dtype, index, d, monkeypatch):
    rng = np.random.default_rng(d + len(kw))
    X, indices, indptr, y = binary_rows(rng, 150, d, min(0.3, 12 / d), index)
    if k != 2:
        y = k_labels(rng, X, 3)
    if k == "multinomial":
        kw = {**kw, "multiclass": "multinomial"}
    stored = CSRData(np.ones(len(indices), dtype=dtype), indices, indptr, X.shape)
    binary = binary_csr(indices, indptr, X.shape, dtype)
    params = {"max_iter": 4, "tol": None, "random_state": 1, **kw}
    ours = quiet_fit(Perceptron(**params), binary, y)
    with float_path(monkeypatch):
        theirs = quiet_fit(Perceptron(**params), stored, y)
        scores = theirs.decision_function(stored)
        labels = theirs.predict(stored)
    assert_same(ours, theirs)
    np.testing.assert_array_equal(ours.decision_function(binary), scores)
    np.testing.assert_array_equal(ours.predict(binary), labels)
    # the ones found in the float matrix take the binary rows too
    assert check_X(stored, accept_sparse=True, narrow=True).binary
    assert_same(quiet_fit(Perceptron(**params), stored, y), ours)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_reference_on_the_dense_rows(dtype, shuffle):
    """eta 1, no margin: every weight an integer, every sum exact, so the
    numpy reference on the dense rows must agree exactly."""
    rng = np.random.default_rng(4)
    X, indices, indptr, y = binary_rows(rng, 120, 40, 0.2)
    seed = 7
    rows = (CSRData(None, indices, indptr, X.shape) if dtype == np.float32
            else binary_csr(indices, indptr, X.shape, dtype))
    est = quiet_fit(Perceptron(max_iter=5, tol=None, shuffle=shuffle, random_state=seed),
                    rows, y)
    orders = shuffled_orders(len(y), 5, check_random_seed(seed)) if shuffle else None
    w, b, mistakes, _ = perceptron_reference(X.astype(dtype), np.where(y == 1, 1, -1),
                                             max_iter=5, orders=orders)
    assert est.coef_.dtype == dtype
    np.testing.assert_array_equal(est.coef_.ravel(), w)
    assert float(est.intercept_[0]) == b
    np.testing.assert_array_equal(est.mistakes_, mistakes)


def test_multinomial_reference_on_the_dense_rows():
    rng = np.random.default_rng(8)
    X, indices, indptr, _ = binary_rows(rng, 150, 30, 0.25)
    t = k_labels(rng, X, 4)
    est = quiet_fit(Perceptron(max_iter=4, tol=None, shuffle=False, multiclass="multinomial"),
                    CSRData(None, indices, indptr, X.shape), t)
    W, b, mistakes = multinomial_reference(X.astype(np.float32), t, 4, max_iter=4)[:3]
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b)
    np.testing.assert_array_equal(est.mistakes_, mistakes)


def test_partial_fit_and_passive_aggressive(monkeypatch):
    rng = np.random.default_rng(3)
    X, indices, indptr, y = binary_rows(rng, 200, 50, 0.15)
    ones = np.ones(len(indices), dtype=np.float32)
    models = []
    for binary in (True, False):
        est = Perceptron(random_state=0)
        pa = PassiveAggressiveClassifier(max_iter=3, tol=None, random_state=0)
        with contextlib.ExitStack() as stack:
            if not binary:
                stack.enter_context(float_path(monkeypatch))
            for lo in range(0, 200, 50):
                hi = lo + 50
                part = indptr[lo:hi + 1] - indptr[lo]
                cols = indices[indptr[lo]:indptr[hi]]
                chunk = CSRData(None if binary else ones[:len(cols)], cols, part, (50, 50))
                est.partial_fit(chunk, y[lo:hi], classes=[0, 1])
            quiet_fit(pa, CSRData(None if binary else ones, indices, indptr, X.shape), y)
        models.append((est, pa))
    assert_same(models[0][0], models[1][0])
    assert_same(models[0][1], models[1][1])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 60), d=st.integers(1, 50),
       density=st.sampled_from([0.0, 0.05, 0.3, 1.0]),
       dtype=st.sampled_from([np.float32, np.float64]),
       index=st.sampled_from([np.int32, np.int64, np.uint16]), shuffle=st.booleans(),
       eta=st.sampled_from([1.0, 0.1, 3e-5]), average=st.booleans())
def test_shapes_and_densities(seed, n, d, density, dtype, index, shuffle, eta, average):
    rng = np.random.default_rng(seed)
    X, indices, indptr, _ = binary_rows(rng, n, d, density, index)
    y = np.arange(n) % 2
    if n == 1:
        X, indices, indptr, _ = binary_rows(rng, 2, d, density, index)
        y = np.array([0, 1])
    params = dict(max_iter=3, tol=None, shuffle=shuffle, random_state=seed % 100, eta0=eta,
                  average=average)
    ours = quiet_fit(Perceptron(**params), binary_csr(indices, indptr, X.shape, dtype), y)
    # the same rows with their ones stored, read by the loop that sample
    # weights take (it reads the values: never the binary loops)
    stored = CSRData(np.ones(len(indices), dtype=dtype), indices, indptr, X.shape)
    theirs = quiet_fit(Perceptron(**params), stored, y, sample_weight=np.ones(len(y)))
    assert_same(ours, theirs)
    dense = X.astype(dtype)
    np.testing.assert_array_equal(ours.predict(binary_csr(indices, indptr, X.shape, dtype)),
                                  ours.predict(stored))
    if eta == 1.0 and not average:  # integer weights: the dense rows' scores are exact too
        np.testing.assert_array_equal(ours.decision_function(dense),
                                      ours.decision_function(stored))


def test_found_without_a_copy_and_caller_unchanged():
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(0)
    X, indices, indptr, y = binary_rows(rng, 50, 20, 0.3)
    A = sp.csr_matrix((np.ones(len(indices)), indices, indptr), shape=X.shape)
    before = [a.copy() for a in (A.data, A.indices, A.indptr)]
    C = check_X(A, accept_sparse=True, narrow=True)
    assert C.binary and C.dtype == np.float64 and C.nnz == A.nnz
    assert C.indices is A.indices and C.indptr is A.indptr  # no copy
    assert C.data.strides == (0,) and not C.data.flags.writeable
    assert not check_X(A, accept_sparse=True).binary  # loops that read values get them
    A.data[3] = 2.0
    assert not check_X(A, accept_sparse=True, narrow=True).binary
    A.data[3] = 1.0
    for a, b in zip((A.data, A.indices, A.indptr), before):
        np.testing.assert_array_equal(a, b)


def test_csrdata_of_binary_rows():
    indices = np.array([0, 2, 1, 3, 2], dtype=np.int32)
    indptr = np.array([0, 2, 2, 5], dtype=np.int32)
    X = CSRData(None, indices, indptr, (3, 4))
    dense = np.array([[1, 0, 1, 0], [0, 0, 0, 0], [0, 1, 1, 1]], dtype=np.float32)
    assert X.binary and X.dtype == np.float32 and X.nnz == 5
    np.testing.assert_array_equal(X.toarray(), dense)
    assert X.toarray().dtype == np.float32
    Y = X.astype(np.float64)
    assert Y.binary and Y.dtype == np.float64 and Y.indices is indices
    np.testing.assert_array_equal(Y.toarray(), dense)
    assert not CSRData(np.ones(5), indices, indptr, (3, 4)).binary
    if pytest.importorskip("scipy.sparse"):
        np.testing.assert_array_equal(X.tocsr().toarray(), dense)


def test_other_estimators_read_the_ones_stored():
    rng = np.random.default_rng(2)
    X, indices, indptr, y = binary_rows(rng, 80, 15, 0.3)
    binary = CSRData(None, indices, indptr, X.shape)
    stored = CSRData(np.ones(len(indices), dtype=np.float32), indices, indptr, X.shape)
    a = quiet_fit(VotedPerceptron(max_iter=3, random_state=0), binary, y)
    b = quiet_fit(VotedPerceptron(max_iter=3, random_state=0), stored, y)
    np.testing.assert_array_equal(a.decision_function(binary), b.decision_function(stored))
    np.testing.assert_array_equal(a.predict(binary), b.predict(stored))


@pytest.mark.parametrize("indices, indptr, error, match", [
    ([1, 0, 2], [0, 2, 3], ValueError, r"X: binary rows .* row 0 is out of increasing order at "
     r"position 1 \(column 0 after 1\)"),
    ([0, 0, 2], [0, 2, 3], ValueError, r"X: binary rows .* row 0 repeats at position 1"),
    ([0, 5, 2], [0, 2, 3], ValueError, r"column index 5 at position 1, out of range for its 4"),
    ([0, -1, 2], [0, 2, 3], ValueError, r"negative column index \(-1\) at position 1"),
    ([0.0, 1.0, 2.0], [0, 2, 3], TypeError, r"X.indices must hold integers, got dtype float64"),
    ([0, 1, 2], [0.0, 2.0, 3.0], TypeError, r"X.indptr must hold integers, got dtype float64"),
    ([0, 1, 2], [0, 2, 3, 3], ValueError, r"X.indptr has 4 entries; a CSR matrix of 2 rows "
     r"needs 3"),
    ([0, 1, 2], [0, 2, 4], ValueError, r"X.indptr must end at the number of stored values \(3\)"),
    ([[0, 1, 2]], [0, 2, 3], ValueError, r"X.indices must be 1-D"),
])
def test_bad_binary_rows_are_named(indices, indptr, error, match):
    X = CSRData(None, np.array(indices), np.array(indptr), (2, 4))
    y = np.array([0, 1])
    for call in (lambda: Perceptron().fit(X, y), lambda: check_X(X, accept_sparse=True,
                                                                 narrow=True)):
        with pytest.raises(error, match=match):
            call()


@pytest.mark.parametrize("small", [np.uint16, np.int16, np.uint8])
def test_narrow_indices_become_int32_beside_int32_row_pointers(small):
    rng = np.random.default_rng(6)
    X, indices, indptr, y = binary_rows(rng, 60, 200, 0.1)  # 200 columns: uint8 holds them
    narrow = CSRData(None, indices.astype(small), indptr, X.shape)
    checked = check_X(narrow, accept_sparse=True, narrow=True)
    # 16-bit unsigned indices of binary rows are read as stored, the others widened once
    assert checked.indices.dtype == (np.uint16 if small == np.uint16 else np.int32)
    assert checked.binary and check_X(narrow, accept_sparse=True).indices.dtype == np.int32
    np.testing.assert_array_equal(checked.indices, indices)
    params = {"max_iter": 3, "tol": None, "random_state": 0}
    assert_same(quiet_fit(Perceptron(**params), narrow, y),
                quiet_fit(Perceptron(**params), CSRData(None, indices, indptr, X.shape), y))
    wide = CSRData(None, indices.astype(small), indptr.astype(np.int64), X.shape)
    assert check_X(wide, accept_sparse=True, narrow=True).indices.dtype == (
        np.uint16 if small == np.uint16 else np.int64)


@pytest.mark.parametrize("pointers", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_16_bit_rows_beyond_l1_give_the_wide_rows_bits(pointers, dtype, shuffle, monkeypatch):
    """Weights beyond L1 (where the vector levels gather) and rows of 0 to
    40 values (every length of a gather's tail): the 16-bit rows, whose
    indices the loop widens a row at a time in order, give the model of the
    same rows with indices of the row pointers' width, and of the float
    path, at eta0 0.1 (inexact sums)."""
    rng = np.random.default_rng(11)
    n, d = 200, 12000
    lengths = rng.integers(0, 41, n)
    cols = [np.sort(rng.choice(d, size=k, replace=False)) for k in lengths]
    indptr = np.r_[0, np.cumsum(lengths)].astype(pointers)
    indices = np.concatenate(cols).astype(np.int64)
    X = np.zeros((n, d))
    X[np.repeat(np.arange(n), lengths), indices] = 1.0
    y = (X @ rng.standard_normal(d) > 0).astype(int)
    params = {"max_iter": 3, "tol": None, "random_state": 2, "eta0": 0.1, "shuffle": shuffle}
    short = binary_csr(indices.astype(np.uint16), indptr, X.shape, dtype)
    wide = binary_csr(indices.astype(pointers), indptr, X.shape, dtype)
    assert check_X(short, accept_sparse=True, narrow=True).indices.dtype == np.uint16
    ours = quiet_fit(Perceptron(**params), short, y)
    assert_same(ours, quiet_fit(Perceptron(**params), wide, y))
    with float_path(monkeypatch):
        stored = CSRData(np.ones(len(indices), dtype=dtype), indices.astype(pointers), indptr,
                         X.shape)
        assert_same(ours, quiet_fit(Perceptron(**params), stored, y))
    np.testing.assert_array_equal(ours.decision_function(short), ours.decision_function(wide))


def test_16_bit_indices_of_long_rows_are_widened_and_checked():
    d = 3000
    long_row = np.arange(0, d, 2, dtype=np.uint16)  # 1,500 values: over ROW16_MAX
    indptr = np.array([0, len(long_row), len(long_row) + 1], dtype=np.int32)
    indices = np.r_[long_row, np.uint16(5)]
    X = CSRData(None, indices, indptr, (2, d))
    assert len(long_row) > _csr.ROW16_MAX
    assert check_X(X, accept_sparse=True, narrow=True).indices.dtype == np.int32
    est = quiet_fit(Perceptron(max_iter=2, tol=None), X, [0, 1])
    ref = quiet_fit(Perceptron(max_iter=2, tol=None), CSRData(None, indices.astype(np.int32),
                                                              indptr, (2, d)), [0, 1])
    assert_same(est, ref)
    bad = CSRData(None, np.array([1, 0, 3], dtype=np.uint16), np.array([0, 2, 3], dtype=np.int32),
                  (2, 4))
    with pytest.raises(ValueError, match=r"row 0 is out of increasing order at position 1"):
        check_X(bad, accept_sparse=True, narrow=True)
    bad = CSRData(None, np.array([0, 1, 7], dtype=np.uint16), np.array([0, 2, 3], dtype=np.int32),
                  (2, 4))
    with pytest.raises(ValueError, match=r"column index 7 at position 2, out of range for its 4"):
        check_X(bad, accept_sparse=True, narrow=True)


def test_binary_values_refuse_other_dtypes():
    with pytest.raises(TypeError, match="float32 or float64 weights, got dtype int8"):
        binary_csr(np.array([0]), np.array([0, 1]), (1, 2), np.int8)


def test_compiled_entries_refuse_a_short_array_of_ones():
    from perceptron._core.decision import decision_csr
    indices = np.array([0, 1, 2], dtype=np.int32)
    indptr = np.array([0, 3], dtype=np.int32)
    W = np.ones((1, 3), dtype=np.float32)
    out = np.empty((1, 1))
    with pytest.raises(ValueError, match="shorter than the longest row"):
        decision_csr(np.ones(2, dtype=np.float32), indices, indptr, 3, W, np.zeros(1), out,
                     binary=2)


def test_a_fit_allocates_no_values():
    rng = np.random.default_rng(1)
    n, d, m = 20000, 5000, 40
    indices = np.sort(rng.integers(0, d, size=(n, m)).astype(np.int32), axis=1)
    indices[:, 1:] += np.arange(1, m, dtype=np.int32)  # distinct and rising: below d + m
    indices %= d
    indices.sort(axis=1)
    keep = np.ones((n, m), dtype=bool)
    keep[:, 1:] = indices[:, 1:] != indices[:, :-1]
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(keep.sum(1), out=indptr[1:])
    indices = np.ascontiguousarray(indices[keep])
    y = rng.integers(0, 2, n)
    X = CSRData(None, indices, indptr, (n, d))
    tracemalloc.start()
    quiet_fit(Perceptron(max_iter=2, tol=None, random_state=0), X, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # float32 values would be 4 bytes a non-zero; the fit's own arrays are
    # O(n + d): the row order, labels, weights
    assert peak < 2 * len(indices), (peak, len(indices))


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_same_bits_at_every_level(level):
    """At a forced level (a fresh interpreter: the level is chosen at
    import), below and beyond the gathers' threshold, binary rows give the
    float rows' model."""
    out, _ = run_python("""
        import warnings
        import numpy as np
        from perceptron import Perceptron, simd_info
        from perceptron._core import csr as _csr
        from perceptron.io import CSRData, binary_csr
        warnings.simplefilter("ignore")
        rng = np.random.default_rng(5)
        print(simd_info()["level"])
        real_all_ones = _csr.all_ones
        for d in (40, 9000, 20000):
            X = rng.random((300, d)) < min(0.3, 20 / d)
            rows, cols = np.nonzero(X)
            for index in (np.int32, np.int64, np.uint16):
                indptr = np.r_[0, np.cumsum(X.sum(1))].astype(np.int32 if index == np.uint16
                                                              else index)
                indices = cols.astype(index)
                y = rng.integers(0, 3, 300)
                for dt in (np.float32, np.float64):
                    for kw in ({}, {"multiclass": "multinomial"}, {"average": True},
                               {"shuffle": False}, {"penalty": "l2", "alpha": 1e-3},
                               {"batch_size": 4}, {"eta0": 0.1}):
                        B = binary_csr(indices, indptr, X.shape, dt)
                        S = CSRData(np.ones(len(cols), dtype=dt), indices, indptr, X.shape)
                        a = Perceptron(max_iter=3, tol=None, random_state=1, **kw).fit(B, y)
                        _csr.all_ones = lambda data: False
                        b = Perceptron(max_iter=3, tol=None, random_state=1, **kw).fit(S, y)
                        s = b.decision_function(S)
                        _csr.all_ones = real_all_ones
                        assert np.array_equal(a.coef_, b.coef_), (d, index, dt, kw)
                        assert np.array_equal(a.intercept_, b.intercept_), (d, index, dt, kw)
                        assert np.array_equal(a.decision_function(B), s), (d, index, dt, kw)
        print("same")
    """, simd=level)
    assert out.split() == [level, "same"]


# ------------------------------------------------ streams of binary chunks

STREAM_OPTIONS = [
    {},
    {"average": True},
    {"eta0": 0.1, "margin": 0.5},
    {"penalty": "l2", "alpha": 1e-3},
    {"batch_size": 8},
    {"multiclass": "multinomial"},
]


def write_rows(path, X, y):
    from perceptron.io import dump_svmlight
    dump_svmlight(X, y, path)
    return path


@pytest.mark.parametrize("kw", STREAM_OPTIONS)
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("chunk_rows", [40, 1000])
def test_stream_of_binary_chunks_same_bits_as_float_rows(tmp_path, monkeypatch, kw, k,
                                                         chunk_rows):
    """fit_stream(path, binary=True) (each chunk parsed without values, read
    as binary rows) trains the model of the same file streamed as float
    rows, of partial_fit on the float CSR chunks and (in order, whole
    batches) of fit on the whole float CSR, bit for bit."""
    rng = np.random.default_rng(k + chunk_rows + len(kw))
    X, indices, indptr, y = binary_rows(rng, 200, 60, 0.12)
    if k == 3:
        y = k_labels(rng, X, 3)
    path = write_rows(tmp_path / "rows.svm", X, y)
    params = {"shuffle": False, "max_iter": 5, "tol": None, "random_state": 0, **kw}
    ours = Perceptron(**params).fit_stream(path, binary=True, chunk_rows=chunk_rows)
    assert ours.coef_.dtype == np.float64  # the svmlight readers' default dtype
    stored = CSRData(np.ones(len(indices)), indices, indptr, X.shape)
    with float_path(monkeypatch):
        streamed = Perceptron(**params).fit_stream(path, chunk_rows=chunk_rows)
        by_chunks = Perceptron(**params)
        classes = np.unique(y).astype(np.float64)
        for _ in range(ours.n_iter_):
            for lo in range(0, len(y), chunk_rows):
                hi = min(lo + chunk_rows, len(y))
                part = CSRData(stored.data[indptr[lo]:indptr[hi]],
                               indices[indptr[lo]:indptr[hi]], indptr[lo:hi + 1] - indptr[lo],
                               (hi - lo, X.shape[1]))
                by_chunks.partial_fit(part, y[lo:hi].astype(np.float64), classes=classes)
        whole = quiet_fit(Perceptron(**params), stored, y.astype(np.float64))
    for other in (streamed, by_chunks):
        np.testing.assert_array_equal(ours.coef_, other.coef_)
        np.testing.assert_array_equal(ours.intercept_, other.intercept_)
    assert_same(ours, streamed)
    np.testing.assert_array_equal(ours.updates_, streamed.updates_)
    # (mini-batches cut at a chunk's end differ from those of the whole
    # rows; a two-class multinomial fit keeps one row of weights, its
    # partial_fit two)
    if (chunk_rows >= len(y) or "batch_size" not in kw) and (k == 3 or "multiclass" not in kw):
        np.testing.assert_array_equal(ours.coef_, whole.coef_)
        np.testing.assert_array_equal(ours.intercept_, whole.intercept_)
        np.testing.assert_array_equal(ours.mistakes_, whole.mistakes_[:ours.n_iter_])


def test_stream_of_binary_chunks_equals_the_reference(tmp_path):
    """eta 1, rows in order: every sum exact, so the numpy reference on the
    dense rows gives the streamed model exactly (the reference's stop after
    an epoch without a mistake is the stream's)."""
    rng = np.random.default_rng(11)
    X, _, _, y = binary_rows(rng, 150, 30, 0.2)
    path = write_rows(tmp_path / "rows.svm", X, np.where(y == 1, 1, -1))
    est = Perceptron(shuffle=False, max_iter=8).fit_stream(path, binary=True, chunk_rows=32)
    w, b, mistakes, _ = perceptron_reference(X, np.where(y == 1, 1, -1), max_iter=8)
    np.testing.assert_array_equal(est.coef_.ravel(), w)
    assert float(est.intercept_[0]) == b
    np.testing.assert_array_equal(est.mistakes_, mistakes)


def test_stream_of_binary_chunks_checks_its_values_and_source(tmp_path):
    from perceptron.exceptions import SvmlightFormatError
    path = tmp_path / "rows.svm"
    path.write_bytes(b"1 1:1 2:1\n-1 3:1\n1 2:1 3:2\n")
    with pytest.raises(SvmlightFormatError, match=r"line 3: '3:2': a value other than 1"):
        Perceptron().fit_stream(path, binary=True, chunk_rows=1)
    with pytest.raises(ValueError, match="binary=True reads an svmlight file"):
        Perceptron().fit_stream((np.ones((4, 2)), [0, 1, 0, 1]), binary=True)
    with pytest.raises(TypeError, match="binary must be True or False"):
        Perceptron().fit_stream(path, binary="yes")

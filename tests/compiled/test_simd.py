"""Every kernel against numpy, at every SIMD level this machine supports."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import simd as _simd, simd_info

from helpers import grid

LEVELS = simd_info()["supported"]
LENGTHS = [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 97, 1536]
OFFSETS = [0, 1, 3]
DTYPES = [np.float32, np.float64]


def misaligned_or_long(*case):
    """The quick run's part of a grid ending in (length, offset): every length
    (every tail) at a misaligned start, and every start for 33 and 1536
    elements (blocks and a tail); the rest is marked slow."""
    n, offset = case[-2:]
    return offset == 1 or n in (33, 1536)


def _buffers(rng, n, offset, dtype):
    """Two arrays of length n starting `offset` elements into larger buffers,
    so the kernels see misaligned starts."""
    bx = rng.standard_normal(n + offset + 8).astype(dtype)
    by = rng.standard_normal(n + offset + 8).astype(dtype)
    return bx, by, bx[offset:offset + n], by[offset:offset + n]


def test_levels_include_scalar_and_active():
    info = simd_info()
    assert "scalar" in info["supported"]
    assert info["level"] in info["supported"]
    assert set(info["supported"]) <= set(info["compiled"])


@grid("level, dtype, n, offset", LEVELS, DTYPES, LENGTHS, OFFSETS, fast=misaligned_or_long)
def test_dot_matches_numpy(level, dtype, n, offset, rng):
    _, _, x, y = _buffers(rng, n, offset, dtype)
    terms = x.astype(np.float64) * y.astype(np.float64)
    expected = float(terms.sum())
    got = _simd._py_dot(x, y, level)
    tol = 1e-12 * max(n, 1)
    if dtype is np.float32 and level != "scalar":
        # blocks of four float32 products per lane (csrc/ptn_simd.h)
        tol += 4 * 2.0 ** -24 * float(np.abs(terms).sum())
    assert abs(got - expected) <= tol + 1e-12 * abs(expected)


@grid("level, dtype, n, offset", LEVELS, DTYPES, LENGTHS, OFFSETS, fast=misaligned_or_long)
def test_axpy_matches_numpy_and_stays_in_bounds(level, dtype, n, offset, rng):
    bx, by, x, y = _buffers(rng, n, offset, dtype)
    before = by.copy()
    a = 0.37
    expected = y.astype(np.float64) + dtype(a).astype(np.float64) * x.astype(np.float64)
    _simd._py_axpy(a, x, y, level)
    tol = 1e-6 if dtype is np.float32 else 1e-15
    np.testing.assert_allclose(y, expected, rtol=tol, atol=tol)
    # nothing outside [offset, offset + n) was written
    np.testing.assert_array_equal(by[:offset], before[:offset])
    np.testing.assert_array_equal(by[offset + n:], before[offset + n:])


@grid("level, n, offset", LEVELS, LENGTHS, OFFSETS, fast=misaligned_or_long)
def test_axpy_float32_into_float64(level, n, offset, rng):
    bx = rng.standard_normal(n + offset + 8).astype(np.float32)
    by = rng.standard_normal(n + offset + 8)
    x, y = bx[offset:offset + n], by[offset:offset + n]
    before = by.copy()
    a = -1.7
    expected = y + a * x.astype(np.float64)
    _simd._py_axpy(a, x, y, level)
    np.testing.assert_allclose(y, expected, rtol=1e-15, atol=1e-15)
    np.testing.assert_array_equal(by[:offset], before[:offset])
    np.testing.assert_array_equal(by[offset + n:], before[offset + n:])


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_integer_valued_data_is_exact_at_every_level(level, dtype, rng):
    x = rng.integers(-50, 50, size=1000).astype(dtype)
    y = rng.integers(-50, 50, size=1000).astype(dtype)
    assert _simd._py_dot(x, y, level) == float(np.dot(x.astype(np.int64), y.astype(np.int64)))
    w = y.copy()
    _simd._py_axpy(-3.0, x, w, level)
    np.testing.assert_array_equal(w, y - 3 * x)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [31, 32, 33, 63, 64, 65, 127, 128, 200, 256, 1000])
def test_dot_bits_do_not_depend_on_alignment(level, dtype, n, rng):
    # the AVX-512 dots read a row that starts off a cache line with aligned
    # loads and permutes (csrc/simd_avx512.c): the same vectors as unaligned
    # loads, so a row gives the same bits wherever it sits in memory
    values = rng.standard_normal(n).astype(dtype)
    w = rng.standard_normal(n).astype(dtype)
    item = np.dtype(dtype).itemsize
    raw = np.zeros(n * item + 128, dtype=np.uint8)
    base = (-raw.ctypes.data) % 64  # first byte of raw on a 64-byte boundary
    results = set()
    for shift in range(0, 64, item):
        x = raw[base + shift:base + shift + n * item].view(dtype)
        x[:] = values
        results.add(_simd._py_dot(x, w, level))
    assert len(results) == 1
    assert results == {_simd._py_dot(values, w, level)}


@pytest.mark.parametrize("dtype", DTYPES)
def test_float32_dot_accumulates_in_double(dtype):
    # 2**24 + 1 ones: a float32 accumulator would stall at 2**24
    n = 2**24 + 1
    x = np.ones(n, dtype=dtype)
    for level in LEVELS:
        assert _simd._py_dot(x, x, level) == float(n)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 300), offset=st.integers(0, 7), dtype=st.sampled_from(DTYPES),
       a=st.floats(-1e3, 1e3), seed=st.integers(0, 2**32 - 1),
       scale=st.sampled_from([1e-30, 1e-3, 1.0, 1e3, 1e30]))
def test_kernels_property(n, offset, dtype, a, seed, scale):
    rng = np.random.default_rng(seed)
    bx = (rng.standard_normal(n + offset) * scale).astype(dtype)
    by = (rng.standard_normal(n + offset) * scale).astype(dtype)
    x, y = bx[offset:], by[offset:]
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    expected_dot = float(np.dot(x64, y64))
    abs_dot = float(np.dot(np.abs(x64), np.abs(y64)))
    for level in LEVELS:
        bound = abs_dot * 1e-12 + 1e-300
        if dtype is np.float32 and level != "scalar":
            # blocks of four float32 products per lane; out of float32's
            # range (scale 1e30 or 1e-30) the kernel falls back to exact
            # products (csrc/ptn_simd.h)
            bound += 4 * 2.0 ** -24 * abs_dot
        assert abs(_simd._py_dot(x, y, level) - expected_dot) <= bound
        out = y.copy()
        _simd._py_axpy(a, x, out, level)
        exp = y64 + np.float64(dtype(a)) * x64
        eps = np.finfo(dtype).eps
        err = np.abs(out.astype(np.float64) - exp)
        assert np.all(err <= 2 * eps * (np.abs(y64) + np.abs(np.float64(dtype(a)) * x64)) + 1e-300)


def test_bad_arguments_to_test_wrappers():
    x = np.ones(3)
    with pytest.raises(ValueError):
        _simd._py_dot(x, np.ones(4))
    with pytest.raises(ValueError, match="same dtype"):
        _simd._py_axpy(1.0, x, np.ones(3, dtype=np.float32))
    with pytest.raises(TypeError):
        _simd._py_dot(np.ones(3, dtype=np.int32), np.ones(3, dtype=np.int32))
    with pytest.raises(ValueError, match="level must be one of"):
        _simd._py_dot(x, x, "sse9")


# ------------------------------------------------------ squared distance and exp


@grid("level, dtype, n, offset", LEVELS, DTYPES, LENGTHS, OFFSETS, fast=misaligned_or_long)
def test_sqdist_matches_numpy(level, dtype, n, offset, rng):
    _, _, x, y = _buffers(rng, n, offset, dtype)
    diff = x.astype(np.float64) - y.astype(np.float64)
    expected = float(np.dot(diff, diff))
    got = _simd._py_sqdist(x, y, level)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12 * max(n, 1))
    assert _simd._py_sqdist(x, x, level) == 0.0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_sqdist_integer_valued_data_is_exact(level, dtype, rng):
    x = rng.integers(-50, 50, size=1001).astype(dtype)
    y = rng.integers(-50, 50, size=1001).astype(dtype)
    d = x.astype(np.int64) - y.astype(np.int64)
    assert _simd._py_sqdist(x, y, level) == float(np.dot(d, d))


def _ulps(got, want):
    """Distance in units in the last place of `want` (subnormals: of the smallest one)."""
    spacing = np.maximum(np.spacing(np.abs(want)), np.finfo(np.float64).smallest_subnormal)
    return np.abs(got - want) / spacing


@grid("level, n, offset", LEVELS, LENGTHS, OFFSETS, fast=misaligned_or_long)
def test_exp_matches_numpy_over_the_whole_range(level, n, offset, rng):
    buf = rng.uniform(-750.0, 712.0, size=n + offset + 8)
    out_buf = np.full_like(buf, 7.0)
    x, out = buf[offset:offset + n], out_buf[offset:offset + n]
    with np.errstate(over="ignore", under="ignore"):
        want = np.exp(x)
    _simd._py_exp(x, out, level)
    finite = np.isfinite(want)
    assert np.all(out[~finite] == want[~finite])
    assert np.all(_ulps(out[finite], want[finite]) <= 4)
    # nothing written outside [offset, offset + n)
    assert np.all(out_buf[:offset] == 7.0) and np.all(out_buf[offset + n:] == 7.0)
    # in place gives the same values
    inplace = x.copy()
    _simd._py_exp(inplace, inplace, level)
    np.testing.assert_array_equal(inplace, out)


@pytest.mark.parametrize("level", LEVELS)
def test_exp_special_values(level):
    x = np.array([0.0, -0.0, 1.0, -1.0, 709.78, 709.79, 710.0, 1e308, np.inf, -np.inf, np.nan,
                  -708.4, -720.0, -745.1, -745.2, -746.0, -1e308, 1e-300, -1e-300])
    out = np.empty_like(x)
    _simd._py_exp(x, out, level)
    with np.errstate(over="ignore", under="ignore"):
        want = np.exp(x)
    assert out[0] == 1.0 and out[1] == 1.0
    assert out[8] == np.inf and out[9] == 0.0 and np.isnan(out[10])
    finite = np.isfinite(want)
    assert np.all(_ulps(out[finite], want[finite]) <= 4)
    assert np.all((out[~finite] == want[~finite]) | (np.isnan(out[~finite]) & np.isnan(want[~finite])))


def test_exp_wrapper_rejects_bad_arguments():
    with pytest.raises(TypeError, match="float64"):
        _simd._py_exp(np.ones(3, dtype=np.float32), np.ones(3, dtype=np.float32))
    with pytest.raises(ValueError, match="same length"):
        _simd._py_exp(np.ones(3), np.ones(4))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 300), offset=st.integers(0, 7), dtype=st.sampled_from(DTYPES),
       seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([1e-30, 1e-3, 1.0, 1e3, 1e30]),
       shift=st.floats(-1e3, 1e3))
def test_sqdist_and_exp_property(n, offset, dtype, seed, scale, shift):
    rng = np.random.default_rng(seed)
    bx = (rng.standard_normal(n + offset) * scale + shift).astype(dtype)
    by = (rng.standard_normal(n + offset) * scale + shift).astype(dtype)
    x, y = bx[offset:], by[offset:]
    d = x.astype(np.float64) - y.astype(np.float64)
    expected = float(np.dot(d, d))
    z = -np.abs(rng.standard_normal(n)) * scale  # the arguments the RBF kernel passes
    with np.errstate(over="ignore", under="ignore"):
        want = np.exp(z)
    for level in LEVELS:
        assert abs(_simd._py_sqdist(x, y, level) - expected) <= expected * 1e-12 + 1e-300
        out = np.empty(n)
        _simd._py_exp(z, out, level)
        assert np.all(_ulps(out, want) <= 4)


# the quick run: every block width p (the blocks of 8 vectors, of one vector,
# and the masked tail, at each level's width) for 3 rows of 7 features, and
# every row count and feature count for p = 33; the rest is marked slow
@grid("level, dtype, m, d, p", LEVELS, DTYPES, [0, 1, 3, 7], [1, 7, 50],
      [1, 3, 4, 8, 9, 31, 32, 33, 64, 65, 130],
      fast=lambda level, dtype, m, d, p: (m, d) == (3, 7) or p == 33)
def test_dot_block_matches_numpy(level, dtype, m, d, p, rng):
    A = rng.standard_normal((m, d + 3)).astype(dtype)  # 3 extra columns: a row stride > d
    shift = rng.standard_normal(d)
    BT = rng.standard_normal((d, p))
    got = _simd._py_block(A, shift, BT, level)
    want = (A[:, :d].astype(np.float64) - shift) @ BT
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * d)
    # an output does not depend on the block around it: each vector alone
    for q in range(0, p, max(1, p // 5)):
        alone = _simd._py_block(A, shift, np.ascontiguousarray(BT[:, q:q + 1]), level)
        np.testing.assert_array_equal(alone[:, 0], got[:, q])


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_dot_block_integer_valued_data_is_exact(level, dtype, rng):
    A = rng.integers(-20, 20, size=(11, 101)).astype(dtype)
    shift = rng.integers(-3, 3, size=101).astype(np.float64)
    BT = rng.integers(-20, 20, size=(101, 70)).astype(np.float64)
    want = (A.astype(np.int64) - shift.astype(np.int64)) @ BT.astype(np.int64)
    np.testing.assert_array_equal(_simd._py_block(A, shift, BT, level), want)


def test_block_wrapper_rejects_bad_arguments():
    with pytest.raises(ValueError, match="lda >= d"):
        _simd._py_block(np.ones((2, 3)), np.ones(4), np.ones((4, 2)))
    with pytest.raises(TypeError, match="float64"):
        _simd._py_block(np.ones((2, 3)), np.ones(3, dtype=np.float32), np.ones((3, 2)))
    with pytest.raises(TypeError, match="float32 or float64"):
        _simd._py_block(np.ones((2, 3), dtype=np.int32), np.ones(3), np.ones((3, 2)))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("p", [1, 3, 4, 7, 8, 9, 64, 65])
def test_rbf_block_matches_numpy(level, p, rng):
    m = 5
    na, nb = 3 + rng.random(m), 3 + rng.random(p)
    dot = 3 + rng.random((m, p))  # some distances come out below 0: clipped
    buf = dot.copy()
    _simd._py_rbf_block(na, nb, 0.7, buf, level)
    want = np.exp(-0.7 * np.maximum(na[:, None] + nb - 2 * dot, 0.0))
    np.testing.assert_allclose(buf, want, rtol=1e-14)
    assert np.any(na[:, None] + nb - 2 * dot < 0) and np.all(buf <= 1.0)
    with pytest.raises(ValueError, match="na"):
        _simd._py_rbf_block(na, nb[:-1] if p > 1 else np.ones(2), 0.7, buf, level)


def _scan_reference(X, rows, y, w, b, margin, start, stop):
    """The first position in [start, stop) whose row needs an update, in numpy."""
    for k in range(start, stop):
        i = rows[k]
        a = float(X[i].astype(np.float64) @ w.astype(np.float64)) + b
        ya = y[i] * a
        if not (margin < ya < np.inf):
            return k, a
    return stop, None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), d=st.sampled_from([1, 3, 16, 31, 64, 65, 130]),
       margin=st.sampled_from([0.0, 0.5, 3.0]), ahead=st.sampled_from([0, 1, 3, 100]),
       seed=st.integers(0, 2**32 - 1), data=st.data())
def test_scan_matches_reference(level, dtype, n, d, margin, ahead, seed, data):
    # integer-valued data: every sum is exact at every level, so positions agree exactly
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(dtype)
    w = rng.integers(-2, 3, size=d).astype(dtype)
    y = rng.choice(np.array([-1, 1], dtype=np.int8), size=n)
    # mostly rows the weights get right, so that stretches are long
    y = np.where(rng.random(n) < 0.8, np.where(X.astype(np.float64) @ w >= 0, 1, -1), y).astype(np.int8)
    # shuffled, in order (0, 1, 2, ...: the scan reads those rows by position
    # while rows[k] == k), in order up to a point and shuffled after it, or
    # rising with gaps (the rows of positive sample weight)
    order = data.draw(st.sampled_from(["shuffled", "in order", "in order, then shuffled",
                                       "rising with gaps"]))
    rows = np.arange(n, dtype=np.intp)
    if order == "shuffled":
        rows = rng.permutation(n).astype(np.intp)
    elif order == "in order, then shuffled":
        cut = data.draw(st.integers(0, n))
        rows[cut:] = rng.permutation(rows[cut:])
    elif order == "rising with gaps":
        rows = np.flatnonzero(rng.random(n) < 0.7).astype(np.intp)
        if len(rows) == 0:
            rows = np.array([n - 1], dtype=np.intp)
    b = float(rng.integers(-2, 3))
    n = len(rows)
    start = data.draw(st.integers(0, n))
    stop = data.draw(st.integers(start, n))
    got = _simd._py_scan(X, rows, y, w, b, margin, start, stop, ahead, level)
    assert got == _scan_reference(X, rows, y, w, b, margin, start, stop)


@pytest.mark.parametrize("level", LEVELS)
def test_float32_dot_out_of_float32_range_is_exact(level):
    # products of 1e25 * 1e25 overflow float32 and 1e-25 * 1e-25 underflow:
    # the blocked kernel must notice and give the float64 value
    rng = np.random.default_rng(0)
    for scale in (1e25, 1e-25):
        x = (rng.standard_normal(300) * scale).astype(np.float32)
        y = (rng.standard_normal(300) * scale).astype(np.float32)
        expected = float(np.dot(x.astype(np.float64), y.astype(np.float64)))
        got = _simd._py_dot(x, y, level)
        assert np.isfinite(got)
        assert got == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_scan_stops_at_non_finite_activations(level, dtype):
    X = np.ones((6, 70), dtype=dtype)
    w = np.ones(70, dtype=dtype)
    y = np.ones(6, dtype=np.int8)
    rows = np.arange(6, dtype=np.intp)
    X[3, 5] = np.nan
    pos, a = _simd._py_scan(X, rows, y, w, 0.0, 0.0, 0, 6, 2, level)
    assert pos == 3 and np.isnan(a)
    X[3, 5] = np.inf
    pos, a = _simd._py_scan(X, rows, y, w, 0.0, 0.0, 0, 6, 0, level)
    assert pos == 3 and a == np.inf  # y*a = +inf is not "right": overflow or bad data
    X[3, 5] = 1.0
    assert _simd._py_scan(X, rows, y, w, 0.0, 0.0, 0, 6, 0, level) == (6, None)
    # y*a exactly at the margin is a violation (y*a <= margin)
    pos, a = _simd._py_scan(X, rows, y, w, -70.0, 0.0, 0, 6, 0, level)
    assert pos == 0 and a == 0.0


# d: weights in L1, and large enough for the gathers; the quick run takes the
# counts that end a gather of 8 or 16 lanes with 0, 1, 7 or 9 left over
@grid("level, dtype, index_dtype, d, nnz", LEVELS, DTYPES, [np.int32, np.int64], [50, 70000],
      [0, 1, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 50],
      fast=lambda *case: case[-1] in (0, 1, 7, 9, 16, 17, 25, 33))
def test_sparse_dot_and_axpy_match_numpy(level, dtype, index_dtype, d, nnz, rng):
    if nnz > d:
        pytest.skip("more values than columns")
    idx = rng.choice(d, size=nnz, replace=False).astype(index_dtype)  # unsorted, distinct
    val = rng.standard_normal(nnz).astype(dtype)
    w = rng.standard_normal(d).astype(dtype)
    expected = float(np.dot(val.astype(np.float64), w[idx].astype(np.float64)))
    got = _simd._py_sdot(val, idx, w, level)
    assert abs(got - expected) <= 1e-12 * (nnz + 1)  # exact products: only the sum rounds
    before = w.copy()
    _simd._py_saxpy(0.37, val, idx, w, level)
    updated = before.copy()
    updated[idx] = (before[idx].astype(np.float64) + np.float64(dtype(0.37)) * val).astype(dtype)
    tol = 1e-6 if dtype is np.float32 else 1e-15
    np.testing.assert_allclose(w, updated, rtol=tol, atol=tol)
    untouched = np.ones(d, dtype=bool)
    untouched[idx] = False
    np.testing.assert_array_equal(w[untouched], before[untouched])
    acc = np.full(d, 0.5)
    _simd._py_saxpy(2.0, val.astype(np.float32), idx, acc, level)  # float32 into float64
    expected_acc = np.full(d, 0.5)
    expected_acc[idx] += 2.0 * val.astype(np.float32).astype(np.float64)
    np.testing.assert_allclose(acc, expected_acc, rtol=1e-15, atol=1e-15)


def test_sparse_test_wrappers_refuse_bad_arguments():
    val, w = np.ones(3), np.ones(5)
    with pytest.raises(ValueError, match="index w"):
        _simd._py_sdot(val, np.array([0, 1, 5]), w)
    with pytest.raises(TypeError, match="int32 or int64"):
        _simd._py_sdot(val, np.array([0, 1, 2], dtype=np.int16), w)
    with pytest.raises(ValueError, match="repeat"):
        _simd._py_saxpy(1.0, val, np.array([0, 1, 1]), w)


def _descents_reference(a, strict):
    # compared, not subtracted: a difference of extreme values overflows
    count = int(np.count_nonzero(a[1:] < a[:-1] if strict else a[1:] <= a[:-1]))
    return count, int(a.min()), int(a.max())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 15, 16, 17, 33, 100, 1000])
@pytest.mark.parametrize("strict", [False, True])
def test_descents_match_numpy(level, dtype, n, strict, rng):
    info = np.iinfo(dtype)
    for a in (rng.integers(-5, 5, size=n).astype(dtype),           # many ties
              np.sort(rng.integers(0, 50, size=n)).astype(dtype),  # rising, with repeats
              np.arange(n, dtype=dtype),                           # strictly rising
              rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)):
        a = a.copy()
        a[rng.integers(0, n)] = info.min if n % 2 else info.max   # extreme values
        got = _simd._py_descents(a, strict, level)
        assert got == _descents_reference(a, strict)
        # misaligned start
        b = np.concatenate([a[:1], a])[1:]
        assert _simd._py_descents(b, strict, level) == got


def test_descents_of_nothing():
    for level in LEVELS:
        for dtype in (np.int32, np.int64):
            assert _simd._py_descents(np.zeros(0, dtype=dtype), False, level) == (0, None, None)
    with pytest.raises(TypeError):
        _simd._py_descents(np.zeros(3), False)


def _plain_by_scan(X, rows, y, w, b, margin, eta, fit_intercept, start, stop, ahead, level):
    """The plain rule the way the binary loop ran it before the update moved
    into the kernel (perceptron/_core/online.pyx): the level's scan to the
    next row to act on, then the binary rule's counts and step
    (csrc/ptn_update.h, ptn_binary_update with a sample weight of 1) and the
    level's axpy, and the scan on."""
    mistakes = updates = 0
    loss = raw = 0.0
    k = start
    while k < stop:
        j, a = _simd._py_scan(X, rows, y, w, b, margin, k, stop, ahead, level)
        if j == stop:
            break
        if not np.isfinite(a):
            return j, a, b, mistakes, updates, loss, raw
        yi = float(y[rows[j]])
        ya = yi * a
        if ya <= 0.0:
            mistakes += 1
            loss -= 1.0 * ya
            raw -= ya
        step = eta * 1.0 * yi
        if fit_intercept:
            b += step
        updates += 1
        _simd._py_axpy(step, X[rows[j]], w, level)
        k = j + 1
    return stop, None, b, mistakes, updates, loss, raw


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 30),
       d=st.sampled_from([1, 5, 16, 31, 33, 63, 64, 65, 80, 96, 100, 112, 127, 128, 130]),
       margin=st.sampled_from([0.0, 0.5]), eta=st.sampled_from([1.0, 0.1, 3.0]),
       fit_intercept=st.booleans(), ahead=st.sampled_from([0, 2, 50]),
       order=st.sampled_from(["in order", "shuffled", "in order, then not"]),
       bad=st.sampled_from([None, "nan", "inf", "huge"]), seed=st.integers(0, 2**32 - 1))
def test_plain_scan_is_the_scan_and_the_binary_rule(level, dtype, n, d, margin, eta,
                                                    fit_intercept, ahead, order, bad, seed):
    # the kernel that makes the plain rule's updates itself gives the weights,
    # bias, counts and stop of the scan-then-update loop, bit for bit: float
    # data (sums that round), short rows held in registers, float32 tails
    # held in double, rows in order (read by position) or not, and rows whose
    # activation is NaN or infinite (the kernel stops there, as the scan does)
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    if bad is not None:
        r = int(rng.integers(n))
        X[r, int(rng.integers(d))] = {"nan": np.nan, "inf": np.inf, "huge": 3e38}[bad]
    y = rng.choice(np.array([-1, 1], dtype=np.int8), size=n)
    rows = np.arange(n, dtype=np.intp)
    if order == "shuffled":
        rows = rng.permutation(n).astype(np.intp)
    elif order == "in order, then not" and n > 2:
        rows[n // 2:] = rng.permutation(rows[n // 2:])
    w0 = (rng.standard_normal(d) * 0.1).astype(dtype)
    b0 = float(rng.standard_normal())
    for start, stop in ((0, n), (n // 3, n)):
        w_kernel, w_loop = w0.copy(), w0.copy()
        with np.errstate(all="ignore"):
            got = _simd._py_scan_plain(X, rows, y, w_kernel, b0, margin, eta, fit_intercept,
                                       start, stop, ahead, level)
            want = _plain_by_scan(X, rows, y, w_loop, b0, margin, eta, fit_intercept,
                                  start, stop, ahead, level)
        assert got[0] == want[0] and got[3:5] == want[3:5]
        for g, e in zip((got[1], got[2], got[5], got[6]), (want[1], want[2], want[5], want[6])):
            assert (g is None) == (e is None)
            if g is not None:
                assert np.float64(g).view(np.int64) == np.float64(e).view(np.int64)
        assert w_kernel.tobytes() == w_loop.tobytes()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("d", range(65, 128))
def test_plain_scan_of_every_one_block_row_length(level, d):
    # float32 rows of 65-127 features: the AVX-512 scan holds the block and
    # every layout of the tail (groups of 16, a part group, its high half)
    # in registers and updates them there; each length, many updates,
    # against the scan-then-update loop bit for bit
    rng = np.random.default_rng(d)
    n = 60
    X = rng.standard_normal((n, d)).astype(np.float32)
    y = rng.choice(np.array([-1, 1], dtype=np.int8), size=n)
    rows = np.arange(n, dtype=np.intp)
    w0 = (rng.standard_normal(d) * 0.1).astype(np.float32)
    w_kernel, w_loop = w0.copy(), w0.copy()
    got = _simd._py_scan_plain(X, rows, y, w_kernel, 0.25, 1.0, 0.5, True, 0, n, 0, level)
    want = _plain_by_scan(X, rows, y, w_loop, 0.25, 1.0, 0.5, True, 0, n, 0, level)
    assert got[0] == want[0] and got[3:5] == want[3:5] and got[4] > n // 4
    assert np.float64(got[2]).view(np.int64) == np.float64(want[2]).view(np.int64)
    assert w_kernel.tobytes() == w_loop.tobytes()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_scan_activation_is_the_dot_product_bit_for_bit(level, dtype, rng):
    # the short-row scans (csrc/simd_avx512.c) hold the weights in registers
    # and must give each row the bits of the level's dot product; longer
    # rows take the general loop, whose float32 scan at AVX-512 converts the
    # weights of the tail after the last block of 64 once per call: every
    # length up to past both thresholds and every tail length after one and
    # two blocks, rows off the cache-line boundary (d odd), and rows small
    # or large enough that float32 blocks under- or overflow and are summed
    # again exactly
    for d in list(range(1, 140)) + [191, 192, 193, 255, 256, 257]:
        n = 8
        X = rng.standard_normal((n, d)).astype(dtype)
        X[1] = -0.0                               # signed zeros through the sums
        X[2, ::2] = 0.0
        X[3] *= 1e-36                             # float32 blocks underflow: summed again
        X[4] *= 3e37                              # float32 blocks overflow: summed again
        w = rng.standard_normal(d).astype(dtype)
        b = float(rng.standard_normal())
        rows = rng.permutation(n).astype(np.intp)
        y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int8)
        for k in range(n):
            # margin +inf: every row stops the scan, which returns its activation
            j, act = _simd._py_scan(X, rows, y, w, b, np.inf, k, n, 0, level)
            assert j == k
            expected = _simd._py_dot(X[rows[k]], w, level) + b
            # the same bits, signed zeros included
            assert np.float64(act).view(np.int64) == np.float64(expected).view(np.int64), (d, k)


# ---------------------------------------------------------------- row orders
# SplitMix64 (Steele, Lea and Flood 2014), Lemire's bounded integers (2019)
# and the Fisher-Yates shuffle, in Python, from the published algorithms.

_M64 = (1 << 64) - 1


def _splitmix_next(state):
    state = (state + 0x9E3779B97F4A7C15) & _M64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return state, z ^ (z >> 31)


def _below(state, bound):
    """(state, uniform integer in [0, bound)) for 1 <= bound < 2**32."""
    state, x = _splitmix_next(state)
    m = (x >> 32) * bound
    if (m & 0xFFFFFFFF) < bound:
        threshold = ((1 << 32) - bound) % bound
        while (m & 0xFFFFFFFF) < threshold:
            state, x = _splitmix_next(state)
            m = (x >> 32) * bound
    return state, m >> 32


def _shuffle(state, order):
    for i in range(len(order), 1, -1):
        state, j = _below(state, i)
        order[i - 1], order[j] = order[j], order[i - 1]
    return state


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, _M64),
       top=st.one_of(st.integers(1, 600), st.integers(2**31 - 40, 2**31 + 40),
                     st.integers(2**32 - 60, 2**32 - 1)),
       count=st.integers(0, 40))
def test_draws_are_the_reference_draws(level, seed, top, count):
    # bounds just above 2**31 reject about half the draws: the vector levels
    # hand those to the scalar code and must go on from the right state
    count = min(count, top)
    got, state = _simd._py_draws(seed, top, count, level)
    s, expected = seed, []
    for lane in range(count):
        s, j = _below(s, top - lane)
        expected.append(j)
    assert got.tolist() == expected
    assert state == s


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 8, 9, 10, 17, 255, 256, 257, 258, 264, 265, 1000, 4099])
def test_shuffle_is_the_reference_fisher_yates(level, n):
    # the chunks of the vector levels (256 draws) and their 8 lanes, cut at
    # every boundary; three epochs, each shuffling the one before
    orders, state = _simd._py_shuffle(n, 12345 + n, 3, level)
    order, s = list(range(n)), 12345 + n
    for epoch in range(3):
        s = _shuffle(s, order)
        assert orders[epoch].tolist() == order
    assert state == s


def test_fit_orders_are_the_same_at_every_level():
    from perceptron._core.online import shuffled_orders

    # shuffled_orders uses the active level; every level gives its orders
    expected = shuffled_orders(3000, 2, 99)
    for level in LEVELS:
        orders, _ = _simd._py_shuffle(3000, 99, 2, level)
        np.testing.assert_array_equal(orders, expected)

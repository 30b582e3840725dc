"""The narrow-row kernels (csrc/ptn_narrow.h: float16, bfloat16, int8, uint8
rows against float32 weights) at every SIMD level this machine supports:
the bits of the float32 kernels on the rows converted first."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import simd as _simd, simd_info

LEVELS = simd_info()["supported"]
NARROW = [np.float16, np.int8, np.uint8]


def _narrow_row(rng, n, dtype):
    kind = np.dtype(dtype).kind
    if kind == "i":
        return rng.integers(-128, 128, n).astype(dtype)
    if kind == "u":
        return rng.integers(0, 256, n).astype(dtype)
    return (rng.standard_normal(n) * 3).astype(dtype)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", NARROW + ["bfloat16"])
@pytest.mark.parametrize("n", [0, 1, 3, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 97, 300])
def test_kernels_same_bits_as_float32(level, dtype, n, rng):
    """ndot, naxpy (float32 and float64) and nconvert at every level: the
    bits of the float32 kernels on the converted row."""
    if dtype == "bfloat16":
        dtype = pytest.importorskip("ml_dtypes").bfloat16
    x = _narrow_row(rng, n, dtype)
    xf = x.astype(np.float32)
    w = rng.standard_normal(n).astype(np.float32)
    assert _simd._py_narrow("dot", x, w, level=level) == _simd._py_dot(xf, w, level) or n == 0
    y1, y2 = w.copy(), w.copy()
    _simd._py_narrow("axpy", x, y1, 0.37, level=level)
    _simd._py_axpy(0.37, xf, y2, level)
    np.testing.assert_array_equal(y1, y2)
    u1 = rng.standard_normal(n)
    u2 = u1.copy()
    _simd._py_narrow("axpy", x, u1, -1.25, level=level)
    _simd._py_axpy(-1.25, xf, u2, level)
    np.testing.assert_array_equal(u1, u2)
    out = np.empty(n, np.float32)
    _simd._py_narrow("convert", x, out, level=level)
    np.testing.assert_array_equal(out, xf)




@pytest.mark.parametrize("level", LEVELS)
def test_every_half_converts_as_ieee(level):
    """All 65,536 halves through the level's conversion (its vector loads):
    numpy's float16 to float32, NaNs as NaN."""
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    out = np.empty(65536, np.float32)
    y = np.zeros(65536, np.float32)
    _simd._py_narrow("axpy", x, y, 1.0, level=level)
    _simd._py_narrow("convert", x, out, level=level)
    ref = x.astype(np.float32)
    nan = np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(y), nan)
    np.testing.assert_array_equal(out[~nan], ref[~nan])
    # 1 * x + 0 loses only the sign of -0
    np.testing.assert_array_equal(y[~nan], ref[~nan] + np.float32(0))


def _scan_walk(X, rows, y, w, b, margin, level):
    """Every stop of the level's scan over `rows`, from the first position to
    the last: (position, activation) pairs."""
    stops, k = [], 0
    while k < len(rows):
        pos, act = _simd._py_scan(X, rows, y, w, b, margin, k, len(rows), 0, level)
        stops.append((pos, act))
        k = pos + 1
    return stops


@given(level=st.sampled_from(LEVELS), dtype=st.sampled_from(NARROW),
       d=st.integers(1, 300), scale=st.sampled_from([1e-30, 1e-3, 1.0, 1e37]),
       shuffle=st.booleans(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_scans_same_bits_as_float32(level, dtype, d, scale, shuffle, seed):
    """nscan and nscan_plain at every level: the stops and activations of
    scan_f32, and the weights, bias and counts of scan_plain_f32, on the rows
    converted to float32, in order and shuffled; rows shorter than a block,
    of whole blocks, and with a rest; weights so small (1e-30) that the
    blocks' sum falls under float32's range, or so large (1e37) that its
    products overflow, where the dot product is summed again exactly."""
    rng = np.random.default_rng(seed)
    n = 40
    X = np.stack([_narrow_row(rng, d, dtype) for _ in range(n)])
    X[3] = 0  # an all-zero row: the activation is the bias
    Xf = X.astype(np.float32)
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int8)
    w = (rng.standard_normal(d) * scale).astype(np.float32)
    rows = rng.permutation(n) if shuffle else np.arange(n)
    rows = rows.astype(np.intp)
    for margin in (0.0, 0.5):
        assert (_scan_walk(X, rows, y, w, 0.25, margin, level)
                == _scan_walk(Xf, rows, y, w, 0.25, margin, level))
    w1, w2 = w.copy(), w.copy()
    got = _simd._py_scan_plain(X, rows, y, w1, 0.0, 0.0, 1.0, True, 0, n, 0, level)
    want = _simd._py_scan_plain(Xf, rows, y, w2, 0.0, 0.0, 1.0, True, 0, n, 0, level)
    assert got == want
    np.testing.assert_array_equal(w1, w2)


@pytest.mark.parametrize("level", LEVELS)
def test_scan_of_bfloat16_rows(level, rng):
    """bfloat16 rows through nscan and nscan_plain: the float32 scans' bits."""
    bf16 = pytest.importorskip("ml_dtypes").bfloat16
    for d in (5, 64, 100, 256):
        X = (rng.standard_normal((30, d)) * 3).astype(bf16)
        Xf = X.astype(np.float32)
        y = np.where(rng.random(30) < 0.5, 1, -1).astype(np.int8)
        w = rng.standard_normal(d).astype(np.float32)
        rows = rng.permutation(30).astype(np.intp)
        assert _scan_walk(X, rows, y, w, 0.0, 0.0, level) == _scan_walk(Xf, rows, y, w, 0.0, 0.0,
                                                                         level)
        w1, w2 = w.copy(), w.copy()
        assert (_simd._py_scan_plain(X, rows, y, w1, 0.0, 0.0, 1.0, True, 0, 30, 0, level)
                == _simd._py_scan_plain(Xf, rows, y, w2, 0.0, 0.0, 1.0, True, 0, 30, 0, level))
        np.testing.assert_array_equal(w1, w2)

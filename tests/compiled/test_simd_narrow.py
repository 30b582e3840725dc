"""The narrow-row kernels (csrc/ptn_narrow.h: float16, bfloat16, int8, uint8
rows against float32 weights) at every SIMD level this machine supports:
the bits of the float32 kernels on the rows converted first."""
import numpy as np
import pytest

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

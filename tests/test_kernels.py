"""Every kernel against numpy, at every SIMD level this machine supports."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import _simd, simd_info

LEVELS = simd_info()["supported"]
LENGTHS = [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 97, 1536]
DTYPES = [np.float32, np.float64]


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


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("offset", [0, 1, 3])
def test_dot_matches_numpy(level, dtype, n, offset, rng):
    _, _, x, y = _buffers(rng, n, offset, dtype)
    expected = float(np.dot(x.astype(np.float64), y.astype(np.float64)))
    got = _simd._py_dot(x, y, level)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12 * max(n, 1))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("offset", [0, 1, 3])
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


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("offset", [0, 1, 3])
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
    bound = float(np.dot(np.abs(x64), np.abs(y64))) * 1e-12 + 1e-300
    for level in LEVELS:
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

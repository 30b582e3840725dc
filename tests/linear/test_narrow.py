"""Rows stored narrower than float32 (float16, bfloat16, int8, uint8), read as
stored: the same model, bit for bit, as on the rows converted to float32
first, at every SIMD level; no widened copy of X."""
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import Perceptron, VotedPerceptron, simd_info
from perceptron._core import online as _online
from perceptron._common.validation import check_random_seed
from reference import family_reference, multinomial_reference
from helpers import run_python

LEVELS = simd_info()["supported"]
NARROW = [np.float16, np.int8, np.uint8]


def _bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    return ml_dtypes.bfloat16


def narrow_data(rng, n, d, dtype, k=2, integer=False):
    """Rows of `dtype` (values spread over its range, or small integers
    with `integer`), labels of k classes from a random linear rule."""
    if integer:
        X = rng.integers(-3 if np.dtype(dtype).kind != "u" else 0, 4, size=(n, d))
    elif np.dtype(dtype).kind == "i":
        X = rng.integers(-128, 128, size=(n, d))
    elif np.dtype(dtype).kind == "u":
        X = rng.integers(0, 256, size=(n, d))
    else:
        X = rng.standard_normal((n, d)) * 3
    X = X.astype(dtype)
    W = rng.standard_normal((k, d))
    scores = X.astype(np.float64) @ W.T + rng.standard_normal((n, k))
    y = (scores[:, 0] > np.median(scores[:, 0])).astype(int) if k == 2 else scores.argmax(1)
    return X, y


def fit_both(X, y, **kw):
    """The fit on X as stored and on X converted to float32 first."""
    kw = {"max_iter": 4, "tol": None, "random_state": 3, **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = Perceptron(**kw).fit(X, y)
        b = Perceptron(**kw).fit(X.astype(np.float32), y)
    return a, b


def assert_same_model(a, b):
    assert a.coef_.dtype == np.float32 and b.coef_.dtype == np.float32
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("d", [5, 31, 64, 100, 256])
def test_reference_on_rows_converted_to_float32(dtype, d, rng):
    """The published rule (tests/reference.py) on the rows converted to
    float32: the same updates and weights, in order and shuffled (integer
    values: every sum exact, whatever the summation order)."""
    X, y = narrow_data(rng, 300, d, dtype, integer=True)
    signs = np.where(y == 1, 1, -1)
    for shuffle in (False, True):
        est = Perceptron(max_iter=5, tol=None, shuffle=shuffle, random_state=7)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, y)
        orders = _online.shuffled_orders(len(y), 5, check_random_seed(7)) if shuffle else None
        w, b, mistakes, _, _ = family_reference(X.astype(np.float32), signs, max_iter=5,
                                                orders=orders, stop_when_converged=False)
        np.testing.assert_array_equal(est.coef_[0], w)
        assert est.intercept_[0] == b
        np.testing.assert_array_equal(est.mistakes_, mistakes[:len(est.mistakes_)])


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("shuffle", [False, True])
def test_binary_same_bits_as_float32(dtype, shuffle, rng):
    X, y = narrow_data(rng, 400, 77, dtype)
    a, b = fit_both(X, y, shuffle=shuffle)
    assert_same_model(a, b)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X.astype(np.float32)))
    np.testing.assert_array_equal(a.predict(X), b.predict(X.astype(np.float32)))


OPTIONS = [
    {"multiclass": "ovr"},
    {"multiclass": "multinomial"},
    {"average": True},
    {"penalty": "l2", "alpha": 1e-3},
    {"penalty": "l1", "alpha": 1e-4},
    {"penalty": "elasticnet", "alpha": 1e-4},
    {"batch_size": 16},
    {"pocket": True},
    {"margin": 0.5},
    {"n_jobs": 2, "multiclass": "ovr"},
    {"early_stopping": True, "tol": 1e-3},
]


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("kw", OPTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_options_same_bits_as_float32(dtype, kw, rng):
    k = 3 if "multiclass" in kw else 2
    X, y = narrow_data(rng, 300, 40, dtype, k=k)
    a, b = fit_both(X, y, **kw)
    assert_same_model(a, b)
    np.testing.assert_array_equal(a.predict(X), b.predict(X.astype(np.float32)))


@pytest.mark.parametrize("dtype", NARROW)
def test_multinomial_reference(dtype, rng):
    X, t = narrow_data(rng, 200, 12, dtype, k=3, integer=True)
    est = Perceptron(multiclass="multinomial", max_iter=3, tol=None, shuffle=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, t)
    W, b, mistakes = multinomial_reference(X.astype(np.float32), t, 3, max_iter=3)
    np.testing.assert_array_equal(est.mistakes_, mistakes)
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b)


@pytest.mark.parametrize("dtype", NARROW)
def test_parameter_mixing_same_bits(dtype, rng):
    X, y = narrow_data(rng, 600, 20, dtype)
    a, b = fit_both(X, y, n_jobs=2, shuffle=False)
    assert_same_model(a, b)


@pytest.mark.parametrize("dtype", NARROW)
def test_partial_fit_chunks_same_bits(dtype, rng):
    X, y = narrow_data(rng, 300, 33, dtype)
    a = Perceptron(shuffle=False)
    b = Perceptron(shuffle=False)
    for lo in range(0, 300, 100):
        a.partial_fit(X[lo:lo + 100], y[lo:lo + 100], classes=[0, 1])
        b.partial_fit(X[lo:lo + 100].astype(np.float32), y[lo:lo + 100], classes=[0, 1])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.coef_.dtype == np.float32


def test_partial_fit_of_a_float64_model_continues_on_narrow_rows(rng):
    """(tests/linear/test_narrow64.py has the float64 weights' tests)"""
    X, y = narrow_data(rng, 50, 4, np.float16)
    est = Perceptron().partial_fit(X.astype(np.float64), y, classes=[0, 1])
    wide = Perceptron().partial_fit(X.astype(np.float64), y, classes=[0, 1])
    est.partial_fit(X, y)
    wide.partial_fit(X.astype(np.float64), y)
    assert est.coef_.dtype == np.float64
    np.testing.assert_array_equal(est.coef_, wide.coef_)


def test_models_score_the_other_dtypes(rng):
    """A model trained on narrow rows scores float32/float64 rows, and the reverse."""
    X, y = narrow_data(rng, 200, 16, np.float16)
    a, _ = fit_both(X, y)
    np.testing.assert_array_equal(a.decision_function(X),
                                  a.decision_function(X.astype(np.float32)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wide = Perceptron(max_iter=3, tol=None).fit(X.astype(np.float64), y)
    np.testing.assert_allclose(wide.decision_function(X),
                               wide.decision_function(X.astype(np.float64)), rtol=1e-6)


def test_bfloat16_same_bits_as_float32(rng):
    bf16 = _bfloat16()
    X, y = narrow_data(rng, 300, 50, np.float32, k=3)
    X = X.astype(bf16)
    for kw in ({}, {"multiclass": "multinomial"}, {"average": True, "shuffle": False}):
        a, b = fit_both(X, y, **kw)
        assert_same_model(a, b)
        np.testing.assert_array_equal(a.decision_function(X),
                                      b.decision_function(X.astype(np.float32)))


def test_non_finite_half_is_named(rng):
    X, y = narrow_data(rng, 50, 6, np.float16)
    X[7, 2] = np.inf
    with pytest.raises(ValueError, match="NaN or infinity|not finite|infinit"):
        Perceptron(max_iter=2).fit(X, y)


def test_other_estimators_convert_as_before(rng):
    X, y = narrow_data(rng, 80, 5, np.int8)
    est = VotedPerceptron(max_iter=2).fit(X, y)
    assert est.decision_function(X).dtype == np.float64
    np.testing.assert_array_equal(est.decision_function(X),
                                  est.decision_function(X.astype(np.float64)))


def test_fit_reads_float16_without_a_widened_copy(rng):
    """The peak memory a float16 fit allocates is a small part of X (the
    row order, the labels, O(d) buffers): a float32 copy of X alone would
    be twice X."""
    n, d = 20000, 256
    X = rng.standard_normal((n, d)).astype(np.float16)
    y = (rng.standard_normal(n) > 0).astype(np.int64)
    est = Perceptron(max_iter=2, tol=None, random_state=0)
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, y)
            est.predict(X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert est.coef_.dtype == np.float32
    # the row order (8 bytes a row) and the labels are the O(n) part
    assert peak < X.nbytes / 8


@given(st.integers(1, 70), st.sampled_from(NARROW), st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_shapes_same_bits(d, dtype, seed):
    rng = np.random.default_rng(seed)
    X, y = narrow_data(rng, 40, d, dtype)
    a, b = fit_both(X, y, max_iter=2)
    assert_same_model(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_fits_at_every_level(level):
    """The fits of every dtype and option at a forced level (a fresh
    interpreter: the level is chosen at import) equal their float32 fits."""
    out, _ = run_python("""
        import warnings
        import numpy as np
        from perceptron import Perceptron, simd_info
        warnings.simplefilter("ignore")
        rng = np.random.default_rng(5)
        print(simd_info()["level"])
        for dt in (np.float16, np.int8, np.uint8):
            for d in (7, 40, 64, 130, 256):
                X = (rng.standard_normal((250, d)) * 20).clip(-100, 100).astype(dt)
                y = rng.integers(0, 3, 250)
                for kw in ({}, {"multiclass": "multinomial"}, {"average": True},
                           {"shuffle": False}, {"penalty": "l2", "alpha": 1e-3}):
                    a = Perceptron(max_iter=3, tol=None, random_state=1, **kw).fit(X, y)
                    b = Perceptron(max_iter=3, tol=None, random_state=1, **kw).fit(
                        X.astype(np.float32), y)
                    assert np.array_equal(a.coef_, b.coef_), (dt, d, kw)
                    assert np.array_equal(a.decision_function(X),
                                          b.decision_function(X.astype(np.float32)))
        print("same")
    """, simd=level)
    assert out.split() == [level, "same"]


@pytest.mark.slow
@pytest.mark.parametrize("kw", [{}, {"multiclass": "multinomial"}])
def test_dask_arrays_of_narrow_rows(kw, client, rng):
    """perceptron.dask.fit keeps float16 blocks as stored: the model of the
    same fit on the float32 blocks, and its predictions."""
    da = pytest.importorskip("dask.array")
    from perceptron import dask as pdask

    X, y = narrow_data(rng, 400, 9, np.float16, k=3)
    models = [pdask.fit(Perceptron(max_iter=3, tol=None, **kw), da.from_array(Z, chunks=(100, 9)),
                        da.from_array(y, chunks=100), client=client)
              for Z in (X, X.astype(np.float32))]
    assert_same_model(*models)
    got = pdask.predict(models[0], da.from_array(X, chunks=(100, 9))).compute()
    np.testing.assert_array_equal(got, models[1].predict(X.astype(np.float32)))

"""float64 weights over rows stored narrower than float32 (float16,
bfloat16, int8, uint8), asked for by the linear estimators' ``dtype``:
the rows read as stored, each widened as it is read, and the model bit for
bit the one trained on ``X.astype(np.float64)``, at every SIMD level; no
widened copy of X.

The tests of this file run at the level the package chose; run the file
with ``PERCEPTRON_SIMD=scalar`` (``avx2``, ...) to run them all at another,
and ``test_fits_at_every_level`` runs a grid of them at each level the
machine has."""
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import PassiveAggressiveClassifier, Perceptron, simd, simd_info
from perceptron._core import online as _online
from perceptron._common.validation import check_random_seed
from perceptron.io import CSRData, binary_csr, load_model, save_model
from reference import family_reference, multinomial_reference, passive_aggressive_reference
from helpers import run_python

LEVELS = simd_info()["supported"]
NARROW = [np.float16, np.int8, np.uint8]
F64 = np.float64


def narrow_data(rng, n, d, dtype, k=2, integer=False):
    """Rows of `dtype` (values spread over its range, or small integers
    with `integer`), labels of k classes from a random linear rule."""
    kind = np.dtype(dtype).kind
    if integer:
        X = rng.integers(-3 if kind != "u" else 0, 4, size=(n, d))
    elif kind == "i":
        X = rng.integers(-128, 128, size=(n, d))
    elif kind == "u":
        X = rng.integers(0, 256, size=(n, d))
    else:
        X = rng.standard_normal((n, d)) * 3
    X = X.astype(dtype)
    W = rng.standard_normal((k, d))
    scores = X.astype(F64) @ W.T + rng.standard_normal((n, k))
    y = (scores[:, 0] > np.median(scores[:, 0])).astype(int) if k == 2 else scores.argmax(1)
    return X, y


def quiet(fit, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit(*args, **kw)


def fit_both(X, y, cls=Perceptron, sample_weight=None, **kw):
    """The float64-weights fit on X as stored, and the default fit on X
    converted to float64 first."""
    kw = {"max_iter": 4, "tol": None, "random_state": 3, **kw}
    a = quiet(cls(dtype=F64, **kw).fit, X, y, sample_weight=sample_weight)
    b = quiet(cls(**kw).fit, X.astype(F64), y, sample_weight=sample_weight)
    return a, b


def assert_same_model(a, b):
    assert a.coef_.dtype == F64 and b.coef_.dtype == F64
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)
    np.testing.assert_array_equal(a.updates_, b.updates_)
    np.testing.assert_array_equal(a.loss_, b.loss_)
    assert a.n_iter_ == b.n_iter_
    # -0.0 and 0.0 alike to assert_array_equal: the signs of the zeros too
    np.testing.assert_array_equal(np.signbit(a.coef_), np.signbit(b.coef_))


# ------------------------------------------------------------------ the published rules

@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("shuffle", [False, True])
def test_reference_on_rows_converted_to_float64(dtype, shuffle, rng):
    """The published rule (tests/reference.py) on the rows converted to
    float64 (weights in their dtype): the same updates and weights."""
    X, y = narrow_data(rng, 300, 45, dtype, integer=True)
    signs = np.where(y == 1, 1, -1)
    est = quiet(Perceptron(max_iter=5, tol=None, shuffle=shuffle, random_state=7,
                           dtype=F64).fit, X, y)
    orders = _online.shuffled_orders(len(y), 5, check_random_seed(7)) if shuffle else None
    w, b, mistakes, _, _ = family_reference(X.astype(F64), signs, max_iter=5, orders=orders,
                                            stop_when_converged=False)
    assert est.coef_.dtype == F64
    np.testing.assert_array_equal(est.coef_[0], w)
    assert est.intercept_[0] == b
    np.testing.assert_array_equal(est.mistakes_, mistakes[:len(est.mistakes_)])


@pytest.mark.parametrize("dtype", NARROW)
def test_multinomial_reference(dtype, rng):
    X, t = narrow_data(rng, 200, 12, dtype, k=3, integer=True)
    est = quiet(Perceptron(multiclass="multinomial", max_iter=3, tol=None, shuffle=False,
                           dtype=F64).fit, X, t)
    W, b, _ = multinomial_reference(X.astype(F64), t, 3, max_iter=3)[:3]
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b)


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("variant", ["pa1", "pa2"])
def test_passive_aggressive_reference(dtype, variant, rng):
    """PA-I and PA-II (Crammer et al. 2006) on the rows converted to float64:
    their steps read ||x||^2 of the float64 rows."""
    X, y = narrow_data(rng, 150, 9, dtype, integer=True)
    signs = np.where(y == 1, 1, -1)
    loss = "hinge" if variant == "pa1" else "squared_hinge"
    est = quiet(PassiveAggressiveClassifier(loss=loss, C=0.5, max_iter=3, tol=None,
                                            shuffle=False, dtype=F64).fit, X, y)
    # the package's float64 dot product and update at the active level: the
    # reference takes the same roundings
    ref = passive_aggressive_reference(
        X.astype(F64), signs, C=0.5, variant=variant, max_iter=3,
        dot=lambda x, w: simd._py_dot(np.ascontiguousarray(x), w),
        axpy=lambda a, x, w: simd._py_axpy(a, np.ascontiguousarray(x), w))
    np.testing.assert_array_equal(est.coef_, ref["W"])
    np.testing.assert_array_equal(est.intercept_, ref["b"])
    np.testing.assert_array_equal(est.updates_, ref["updates"])


# ------------------------------------------------------- the same model as on float64 rows

@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("shuffle", [False, True])
def test_binary_same_bits_as_float64(dtype, shuffle, rng):
    X, y = narrow_data(rng, 400, 77, dtype)
    a, b = fit_both(X, y, shuffle=shuffle)
    assert_same_model(a, b)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X.astype(F64)))
    np.testing.assert_array_equal(a.predict(X), b.predict(X.astype(F64)))


OPTIONS = [
    {"multiclass": "ovr"},
    {"multiclass": "multinomial"},
    {"average": True},
    {"average": True, "multiclass": "multinomial"},
    {"penalty": "l2", "alpha": 1e-3},
    {"penalty": "l1", "alpha": 1e-4},
    {"penalty": "elasticnet", "alpha": 1e-4, "multiclass": "multinomial"},
    {"batch_size": 16},
    {"pocket": True},
    {"pocket": True, "multiclass": "multinomial"},
    {"margin": 0.5},
    {"n_jobs": 2, "multiclass": "ovr"},
    {"n_jobs": 2},
    {"n_jobs": 2, "multiclass": "multinomial", "mixing": "mistakes"},
    {"early_stopping": True, "tol": 1e-3},
    {"tol": 1e-3, "max_iter": 30},
]


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("kw", OPTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_options_same_bits_as_float64(dtype, kw, rng):
    k = 3 if "multiclass" in kw else 2
    X, y = narrow_data(rng, 300, 40, dtype, k=k)
    a, b = fit_both(X, y, **kw)
    assert_same_model(a, b)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X.astype(F64)))
    np.testing.assert_array_equal(a.predict(X), b.predict(X.astype(F64)))


@pytest.mark.parametrize("kw", [{}, {"multiclass": "multinomial"}, {"penalty": "l2"},
                                {"pocket": True}, {"average": True, "multiclass": "ovr"}],
                         ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "binary")
def test_rows_beyond_the_cache_same_bits(kw, rng):
    """Rows whose float64 form (14 MB) the loops would prefetch, shuffled:
    the same model as on the float64 rows."""
    X, y = narrow_data(rng, 6000, 300, np.int8, k=3 if kw.get("multiclass") else 2)
    a, b = fit_both(X, y, max_iter=2, **kw)
    assert_same_model(a, b)


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("kw", [{"loss": "hinge"}, {"loss": "squared_hinge"},
                                {"loss": "hinge", "multiclass": "multinomial"},
                                {"loss": "squared_hinge", "average": True},
                                {"loss": "hinge", "n_jobs": 2, "multiclass": "ovr"}],
                         ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_passive_aggressive_same_bits_as_float64(dtype, kw, rng):
    k = 3 if "multiclass" in kw else 2
    X, y = narrow_data(rng, 250, 30, dtype, k=k)
    a, b = fit_both(X, y, cls=PassiveAggressiveClassifier, C=0.1, **kw)
    assert_same_model(a, b)


@pytest.mark.parametrize("dtype", NARROW)
def test_sample_weights_same_bits(dtype, rng):
    X, y = narrow_data(rng, 300, 21, dtype, k=3)
    sw = rng.uniform(0, 2, len(y))
    sw[::7] = 0.0
    for kw in ({}, {"multiclass": "multinomial"}, {"average": True}):
        a, b = fit_both(X, y, sample_weight=sw, **kw)
        assert_same_model(a, b)


def test_negative_zeros_keep_their_sign(rng):
    """A column of zeros, -0.0 in the rows labelled +1 and +0.0 in the
    others, over a weight started at -0.0: every update adds a -0.0
    (y * eta * x_j), which leaves the weight -0.0 only if the rows kept
    their zeros' signs when widened."""
    for dtype in (np.float16, "bfloat16"):
        if dtype == "bfloat16":
            dtype = pytest.importorskip("ml_dtypes").bfloat16
        X, y = narrow_data(rng, 200, 6, np.float16)
        X = X.astype(dtype)
        X[:, 2] = np.where(y == 1, -0.0, 0.0)
        init = np.zeros((1, 6))
        init[0, 2] = -0.0
        a = quiet(Perceptron(max_iter=3, tol=None, dtype=F64).fit, X, y, coef_init=init)
        b = quiet(Perceptron(max_iter=3, tol=None).fit, X.astype(F64), y, coef_init=init)
        assert np.signbit(b.coef_[0, 2]) and a.updates_.sum() > 0
        assert_same_model(a, b)


def test_bfloat16_same_bits_as_float64(rng):
    bf16 = pytest.importorskip("ml_dtypes").bfloat16
    X, y = narrow_data(rng, 300, 50, np.float32, k=3)
    X = X.astype(bf16)
    for kw in ({}, {"multiclass": "multinomial"}, {"average": True, "shuffle": False},
               {"penalty": "l2", "alpha": 1e-3}):
        a, b = fit_both(X, y, **kw)
        assert_same_model(a, b)
        np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X.astype(F64)))


def test_float32_and_sparse_rows_take_float64_weights(rng):
    """dtype=float64 over the other rows: float32 rows (dense, CSR values)
    converted once, binary CSR rows kept as their indices; the models of
    the float64 rows."""
    X, y = narrow_data(rng, 200, 30, np.float32, k=3)
    a, b = fit_both(X, y)
    assert_same_model(a, b)
    B = (rng.random((200, 30)) < 0.2).astype(np.float32)
    indptr = np.concatenate([[0], np.cumsum((B != 0).sum(1))]).astype(np.int32)
    indices = np.nonzero(B)[1].astype(np.int32)
    csr32 = CSRData(B[B != 0], indices, indptr, B.shape)
    kw = {"max_iter": 4, "tol": None, "random_state": 3}
    wide = quiet(Perceptron(**kw).fit, B.astype(F64), y)
    for X in (csr32, CSRData(None, indices, indptr, B.shape)):
        est = quiet(Perceptron(dtype=F64, **kw).fit, X, y)
        assert est.coef_.dtype == F64
        np.testing.assert_array_equal(est.coef_, wide.coef_)
        np.testing.assert_array_equal(est.intercept_, wide.intercept_)
    asked = quiet(Perceptron(**kw).fit, binary_csr(indices, indptr, B.shape, F64), y)
    np.testing.assert_array_equal(asked.coef_, wide.coef_)


# ---------------------------------------------------------------------------- partial_fit

@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("kw", [{}, {"multiclass": "multinomial"}, {"average": True},
                                {"multiclass": "ovr"}])
def test_partial_fit_chunks_same_bits(dtype, kw, rng):
    """Chunks of narrow rows with dtype=float64 give the model of the same
    chunks in float64; so does a float64 model (trained on float64 rows)
    continuing on narrow rows, read as stored."""
    X, y = narrow_data(rng, 300, 33, dtype, k=3 if kw else 2)
    classes = np.unique(y)
    a = Perceptron(shuffle=False, dtype=F64, **kw)
    b = Perceptron(shuffle=False, **kw)
    c = Perceptron(shuffle=False, **kw)
    for lo in range(0, 300, 100):
        chunk, labels = X[lo:lo + 100], y[lo:lo + 100]
        a.partial_fit(chunk, labels, classes=classes)
        b.partial_fit(chunk.astype(F64), labels, classes=classes)
        # c: float64 rows first, then the narrow rows as stored
        c.partial_fit(chunk if lo else chunk.astype(F64), labels, classes=classes)
    for est in (a, c):
        assert est.coef_.dtype == F64
        np.testing.assert_array_equal(est.coef_, b.coef_)
        np.testing.assert_array_equal(est.intercept_, b.intercept_)
    assert a.get_params()["dtype"] is F64 and c.get_params()["dtype"] is None


def test_partial_fit_keeps_its_dtype(rng):
    X, y = narrow_data(rng, 60, 4, np.float16)
    est = Perceptron().partial_fit(X, y, classes=[0, 1])
    assert est.coef_.dtype == np.float32
    est.set_params(dtype=F64)
    with pytest.raises(ValueError, match="dtype changed since the first call"):
        est.partial_fit(X, y)
    est.set_params(dtype=None).partial_fit(X, y)
    assert est.coef_.dtype == np.float32


def test_fit_stream_of_narrow_chunks(rng):
    X, y = narrow_data(rng, 300, 12, np.int8)
    kw = {"shuffle": False, "max_iter": 3}
    a = Perceptron(dtype=F64, **kw).fit_stream((X, y), classes=[0, 1], chunk_rows=70)
    b = Perceptron(**kw).fit_stream((X.astype(F64), y), classes=[0, 1], chunk_rows=70)
    assert a.coef_.dtype == F64
    np.testing.assert_array_equal(a.coef_, b.coef_)


# ----------------------------------------------------------------------- the parameter

@pytest.mark.parametrize("value", [np.int32, np.float32, np.float16, "float16", "int8", "wide",
                                   3, [np.float64], np.dtype("complex128")])
def test_bad_dtype_names_the_parameter(value, rng):
    X, y = narrow_data(rng, 20, 3, np.float16)
    for cls in (Perceptron, PassiveAggressiveClassifier):
        with pytest.raises(ValueError, match=r"^dtype must be None .* or numpy\.float64, got"):
            cls(dtype=value).fit(X, y)
        with pytest.raises(ValueError, match=r"^dtype must be None"):
            cls(dtype=value).partial_fit(X, y, classes=[0, 1])


@pytest.mark.parametrize("value", [np.float64, "float64", float, np.dtype(np.float64), "f8"])
def test_spellings_of_float64(value, rng):
    X, y = narrow_data(rng, 40, 3, np.uint8)
    est = quiet(Perceptron(dtype=value, max_iter=2).fit, X, y)
    assert est.coef_.dtype == F64
    assert est.get_params()["dtype"] is value


def test_get_set_params_and_model_file(rng, tmp_path):
    """dtype is a parameter as any other: in get_params, set_params, clone
    and the model file (by its name), and a loaded float64 model continues
    on narrow rows."""
    sklearn_base = pytest.importorskip("sklearn.base")
    X, y = narrow_data(rng, 120, 6, np.float16)
    est = Perceptron(max_iter=2, tol=None)
    assert est.get_params()["dtype"] is None
    est.set_params(dtype=F64)
    assert sklearn_base.clone(est).dtype is F64
    a = est.partial_fit(X[:60], y[:60], classes=[0, 1])
    path = tmp_path / "m.ptn"
    save_model(a, path, training_state=True)
    b = load_model(path)
    assert np.dtype(b.dtype) == F64 and b.coef_.dtype == F64
    a.partial_fit(X[60:], y[60:])
    b.partial_fit(X[60:], y[60:])
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_float64_models_score_narrow_rows_as_float64(rng):
    """A float64 model (trained on float64 rows, or dtype=float64) scores
    narrow rows as the same rows in float64, block by block."""
    X, y = narrow_data(rng, 5000, 40, np.float16, k=3)
    wide = quiet(Perceptron(max_iter=3, tol=None).fit, X.astype(F64), y)
    np.testing.assert_array_equal(wide.decision_function(X),
                                  wide.decision_function(X.astype(F64)))
    np.testing.assert_array_equal(wide.predict(X), wide.predict(X.astype(F64)))
    narrow = quiet(Perceptron(max_iter=3, tol=None, dtype=F64).fit, X, y)
    for n_jobs in (1, 2):
        narrow.set_params(n_jobs=n_jobs)
        np.testing.assert_array_equal(narrow.decision_function(X),
                                      wide.decision_function(X.astype(F64)))


def test_non_finite_half_is_named(rng):
    X, y = narrow_data(rng, 50, 6, np.float16)
    X[7, 2] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        Perceptron(max_iter=2, dtype=F64).fit(X, y)
    X[7, 2] = -np.inf
    with pytest.raises(ValueError, match="NaN or infinity"):
        Perceptron(max_iter=2, dtype=F64, multiclass="multinomial").fit(X, y)


# ------------------------------------------------------------------------------- memory

def _fit_peak(X, y):
    est = Perceptron(max_iter=2, tol=None, random_state=0, dtype=F64)
    tracemalloc.start()
    try:
        quiet(est.fit, X, y)
        est.predict(X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert est.coef_.dtype == F64
    return peak


def test_fit_reads_float16_without_a_widened_copy(rng):
    """The peak memory of a float64-weights fit on float16 rows grows with
    the rows by their order and labels (tens of bytes a row), not by a
    widened row (8 * d = 2,048 bytes here): X plus O(d)."""
    d = 256
    X = rng.standard_normal((20000, d)).astype(np.float16)
    y = (rng.standard_normal(len(X)) > 0).astype(np.int64)
    small = _fit_peak(X[:5000], y[:5000])
    large = _fit_peak(X, y)
    # a float64 copy of X alone would be 4 X
    assert large < X.nbytes / 4
    assert (large - small) / 15000 < 100


# ----------------------------------------------------------------------------- hypothesis

def _edge_rows(dtype, n, d, rng):
    """Rows mixing the dtype's edge values (extremes, zeros of both signs,
    float16 subnormals) with ordinary ones."""
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    edges = [info.min, info.max, 0, 1, -1 if np.dtype(dtype).kind != "u" else 2]
    if np.dtype(dtype).kind == "f":
        edges += [-0.0, float(info.smallest_subnormal), -float(info.smallest_normal), 0.5]
    X = np.array(edges, dtype=dtype)[rng.integers(0, len(edges), size=(n, d))]
    ordinary = narrow_data(rng, n, d, dtype)[0]
    keep = rng.random((n, d)) < 0.6
    return np.where(keep, ordinary, X).astype(dtype)


@given(st.integers(1, 70), st.integers(2, 40), st.sampled_from(NARROW),
       st.sampled_from([{}, {"multiclass": "multinomial"}, {"average": True},
                        {"loss": "squared_hinge"}]),
       st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_shapes_and_edge_values_same_bits(d, n, dtype, kw, seed):
    rng = np.random.default_rng(seed)
    X = _edge_rows(dtype, n, d, rng)
    y = rng.integers(0, 3 if kw.get("multiclass") else 2, n)
    if len(np.unique(y)) < 2:
        y[0], y[-1] = 0, 1
    cls = PassiveAggressiveClassifier if "loss" in kw else Perceptron
    a, b = fit_both(X, y, cls=cls, max_iter=2, **kw)
    assert_same_model(a, b)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X.astype(F64)))


# ------------------------------------------------------------------------ every SIMD level

@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_fits_at_every_level(level):
    """float64-weights fits of every narrow dtype and the main options at a
    forced level (a fresh interpreter: the level is chosen at import) equal
    the fits on the rows converted to float64."""
    out, _ = run_python("""
        import warnings
        import numpy as np
        from perceptron import Perceptron, PassiveAggressiveClassifier, simd_info
        warnings.simplefilter("ignore")
        rng = np.random.default_rng(5)
        print(simd_info()["level"])
        for dt in (np.float16, np.int8, np.uint8):
            for d in (7, 40, 64, 130, 256):
                X = (rng.standard_normal((250, d)) * 20).clip(-100, 100).astype(dt)
                y = rng.integers(0, 3, 250)
                for cls, kw in ((Perceptron, {}), (Perceptron, {"multiclass": "multinomial"}),
                                (Perceptron, {"average": True}), (Perceptron, {"shuffle": False}),
                                (Perceptron, {"penalty": "l2", "alpha": 1e-3}),
                                (Perceptron, {"pocket": True}), (Perceptron, {"n_jobs": 2}),
                                (PassiveAggressiveClassifier, {"loss": "squared_hinge"})):
                    a = cls(max_iter=3, tol=None, random_state=1, dtype=np.float64,
                            **kw).fit(X, y)
                    b = cls(max_iter=3, tol=None, random_state=1, **kw).fit(
                        X.astype(np.float64), y)
                    assert np.array_equal(a.coef_, b.coef_), (dt, d, cls, kw)
                    assert np.array_equal(a.intercept_, b.intercept_), (dt, d, cls, kw)
                    assert np.array_equal(a.decision_function(X),
                                          b.decision_function(X.astype(np.float64)))
        print("same")
    """, simd=level)
    assert out.split() == [level, "same"]


@pytest.mark.slow
@pytest.mark.parametrize("kw", [{}, {"multiclass": "multinomial"},
                                {"loss": "squared_hinge", "multiclass": "ovr"}],
                         ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "binary")
def test_dask_arrays_of_narrow_rows(kw, client, rng):
    """perceptron.dask.fit with dtype=float64 keeps int8 blocks as stored:
    the model of the same fit on the float64 blocks, and its predictions."""
    da = pytest.importorskip("dask.array")
    from perceptron import dask as pdask

    cls = PassiveAggressiveClassifier if "loss" in kw else Perceptron
    X, y = narrow_data(rng, 400, 9, np.int8, k=3)
    models = [pdask.fit(cls(max_iter=3, tol=None, dtype=dtype, random_state=0, **kw),
                        da.from_array(Z, chunks=(100, 9)), da.from_array(y, chunks=100),
                        client=client)
              for Z, dtype in ((X, F64), (X.astype(F64), None))]
    assert models[0].coef_.dtype == F64
    np.testing.assert_array_equal(models[0].coef_, models[1].coef_)
    np.testing.assert_array_equal(models[0].intercept_, models[1].intercept_)
    got = pdask.decision_function(models[0], da.from_array(X, chunks=(100, 9))).compute()
    np.testing.assert_array_equal(got, models[1].decision_function(X.astype(F64)))


def test_onnx_double_input_scores_a_float64_model(rng):
    """A float64 model of narrow rows exported with a double input: the
    rows cast to double by the caller score as decision_function scores
    them as stored (perceptron.onnx)."""
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("skl2onnx")
    from perceptron import onnx as ponnx

    X, y = narrow_data(rng, 300, 6, np.int8, k=3)
    model = quiet(Perceptron(dtype=F64, max_iter=5, random_state=0).fit, X, y)
    session = ort.InferenceSession(ponnx.to_onnx(model, X.astype(F64)).SerializeToString())
    labels, scores = session.run(None, {session.get_inputs()[0].name: X.astype(F64)})[:2]
    np.testing.assert_array_equal(labels, model.predict(X))
    np.testing.assert_allclose(scores, model.decision_function(X), rtol=1e-12, atol=1e-12)

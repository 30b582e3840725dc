"""The passive-aggressive rules PA-I and PA-II (PassiveAggressiveClassifier):
the compiled loops against the numpy reference written from Crammer et al.
(2006) bit for bit on the same row order, against scikit-learn, on CSR
rows, averaged, by partial_fit, with threads and in model files."""
import io
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import perceptron.simd as simd
from perceptron import ConvergenceWarning, PassiveAggressiveClassifier, Perceptron
from perceptron.io import load_model, save_model
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from reference import passive_aggressive_reference

LOSSES = {"pa1": "hinge", "pa2": "squared_hinge"}


def kernel_dot(x, w):
    # the package's dense dot product at the active level (activations and
    # ||x||^2 alike): the reference takes the same roundings
    return simd._py_dot(np.ascontiguousarray(x), w)


def kernel_axpy(a, x, w):
    simd._py_axpy(a, np.ascontiguousarray(x), w)


def data(rng, n=120, d=7, k=2, dtype=np.float64):
    X = rng.standard_normal((n, d)).astype(dtype)
    W = rng.standard_normal((k, d))
    t = np.argmax(X @ W.T + 0.8 * rng.standard_normal((n, k)), axis=1)
    return X, t


def fit(model, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(*args, **kw)


def sklearn_fits(X, t, variant, C, **kw):
    """scikit-learn's two spellings of the rule, dense X, in order."""
    sklm = pytest.importorskip("sklearn.linear_model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sgd = sklm.SGDClassifier(loss="hinge", penalty=None, learning_rate=variant, eta0=C,
                                 tol=None, shuffle=False, **kw).fit(X, t)
        fits = [sgd]
        if hasattr(sklm, "PassiveAggressiveClassifier"):
            fits.append(sklm.PassiveAggressiveClassifier(
                C=C, loss=LOSSES[variant], tol=None, shuffle=False, **kw).fit(X, t))
    return fits


# ------------------------------------------------ the reference, bit for bit


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_binary_equals_reference_bits(variant, dtype, shuffle, rng):
    X, t = data(rng, dtype=dtype)
    y = np.where(t == 1, 1, -1)
    m = fit(PassiveAggressiveClassifier(C=0.3, loss=LOSSES[variant], shuffle=shuffle,
                                        random_state=5, tol=None, max_iter=6), X, t)
    orders = shuffled_orders(len(X), 6, check_random_seed(5)) if shuffle else None
    ref = passive_aggressive_reference(X, y, C=0.3, variant=variant, max_iter=6, orders=orders,
                                       dot=kernel_dot, axpy=kernel_axpy)
    np.testing.assert_array_equal(m.coef_, ref["W"])
    np.testing.assert_array_equal(m.intercept_, ref["b"].astype(dtype))
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])
    np.testing.assert_array_equal(m.updates_, ref["updates"])
    np.testing.assert_allclose(m.loss_, ref["loss"] / len(X), rtol=1e-12)


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
def test_sample_weights_no_intercept_and_zero_rows_equal_reference_bits(variant, rng):
    X, t = data(rng)
    X[::9] = 0.0  # rows PA-I passes over (||x|| = 0); PA-II still moves the bias on them
    y = np.where(t == 1, 1, -1)
    sw = rng.uniform(0.2, 2.0, len(X))
    for fit_intercept in (True, False):
        m = fit(PassiveAggressiveClassifier(C=2.0, loss=LOSSES[variant], shuffle=False,
                                            tol=None, max_iter=4, fit_intercept=fit_intercept),
                X, t, sample_weight=sw)
        ref = passive_aggressive_reference(X, y, C=2.0, variant=variant, max_iter=4,
                                           sample_weight=sw, fit_intercept=fit_intercept,
                                           dot=kernel_dot, axpy=kernel_axpy)
        np.testing.assert_array_equal(m.coef_, ref["W"])
        np.testing.assert_array_equal(m.intercept_, ref["b"])
        np.testing.assert_array_equal(m.updates_, ref["updates"])


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_multinomial_equals_reference_bits(variant, dtype, rng):
    X, t = data(rng, k=4, dtype=dtype)
    m = fit(PassiveAggressiveClassifier(C=0.5, loss=LOSSES[variant], multiclass="multinomial",
                                        shuffle=False, tol=None, max_iter=5), X, t)
    ref = passive_aggressive_reference(X, t=t, k=4, C=0.5, variant=variant, max_iter=5,
                                       dot=kernel_dot, axpy=kernel_axpy)
    np.testing.assert_array_equal(m.coef_, ref["W"])
    np.testing.assert_array_equal(m.intercept_, ref["b"].astype(dtype))
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])
    np.testing.assert_array_equal(m.updates_, ref["updates"])


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
def test_one_vs_rest_classes_equal_binary_references(variant, rng):
    X, t = data(rng, k=3)
    m = fit(PassiveAggressiveClassifier(C=0.7, loss=LOSSES[variant], shuffle=True,
                                        random_state=3, tol=None, max_iter=4), X, t)
    for j in range(3):
        orders = shuffled_orders(len(X), 4, check_random_seed(3))
        ref = passive_aggressive_reference(X, np.where(t == j, 1, -1), C=0.7, variant=variant,
                                           max_iter=4, orders=orders, dot=kernel_dot,
                                           axpy=kernel_axpy)
        np.testing.assert_array_equal(m.coef_[j], ref["W"][0])
        np.testing.assert_array_equal(m.intercept_[j], ref["b"][0])


@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_averaged_is_the_mean_of_the_weights_after_every_row(multiclass, dtype, rng):
    X, t = data(rng, k=3, dtype=dtype)
    m = fit(PassiveAggressiveClassifier(average=True, multiclass=multiclass, shuffle=False,
                                        tol=None, max_iter=3), X, t)
    rtol = 1e-5 if dtype == np.float32 else 1e-9
    for j in range(3) if multiclass == "ovr" else [None]:
        if j is None:
            ref = passive_aggressive_reference(X, t=t, k=3, max_iter=3, average=True,
                                               dot=kernel_dot, axpy=kernel_axpy)
            W, b = ref["W"], ref["b"]
            coef, intercept = m.coef_, m.intercept_
        else:
            ref = passive_aggressive_reference(X, np.where(t == j, 1, -1), max_iter=3,
                                               average=True, dot=kernel_dot, axpy=kernel_axpy)
            W, b = ref["W"][0], ref["b"][0]
            coef, intercept = m.coef_[j], m.intercept_[j]
        np.testing.assert_allclose(coef, W, rtol=rtol, atol=rtol * 1e-3)
        np.testing.assert_allclose(intercept, b, rtol=rtol, atol=rtol * 1e-3)


# -------------------------------------------------------------- scikit-learn


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("C", [0.05, 1.0])
def test_agrees_with_sklearn_dense_and_csr(variant, k, C, rng):
    X, t = data(rng, n=200, d=9, k=k)
    Xs = sp.csr_matrix(np.where(np.abs(X) < 0.5, 0.0, X))
    for Xf in (X, Xs):
        ours = fit(PassiveAggressiveClassifier(C=C, loss=LOSSES[variant], shuffle=False,
                                               tol=None, max_iter=8), Xf, t)
        # scikit-learn moves the bias by a hundredth of the step on sparse
        # input: the same problem, dense, is the comparison
        for theirs in sklearn_fits(Xf.toarray() if sp.issparse(Xf) else Xf, t, variant, C,
                                   max_iter=8):
            np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9,
                                       atol=1e-12)


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
def test_agrees_with_sklearn_on_csr_without_intercept(variant, rng):
    X, t = data(rng, n=200, d=9, k=3)
    Xs = sp.csr_matrix(np.where(np.abs(X) < 0.5, 0.0, X))
    ours = fit(PassiveAggressiveClassifier(loss=LOSSES[variant], shuffle=False, tol=None,
                                           max_iter=6, fit_intercept=False), Xs, t)
    for theirs in sklearn_fits(Xs, t, variant, 1.0, max_iter=6, fit_intercept=False):
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("k", [2, 3])
def test_agrees_with_sklearn_with_class_and_sample_weights(k, rng):
    X, t = data(rng, n=200, d=6, k=k)
    sw = rng.uniform(0.5, 1.5, len(X))
    # binary: each row weighted by its class's weight, as scikit-learn's
    # binary fit does (its one-vs-rest weights only each class's own rows)
    cw = {0: 0.5, 1: 2.0} if k == 2 else None
    ours = fit(PassiveAggressiveClassifier(C=0.4, shuffle=False, tol=None, max_iter=5,
                                           class_weight=cw), X, t, sample_weight=sw)
    sklm = pytest.importorskip("sklearn.linear_model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = sklm.SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=0.4,
                                    tol=None, shuffle=False, max_iter=5,
                                    class_weight=cw).fit(X, t, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------ other routes


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
def test_sparse_agrees_with_dense(dtype, index, multiclass, rng):
    X, t = data(rng, k=3, dtype=dtype)
    X[np.abs(X) < 0.6] = 0.0
    Xs = sp.csr_matrix(X)
    Xs.indices = Xs.indices.astype(index)
    Xs.indptr = Xs.indptr.astype(index)
    kw = dict(loss="squared_hinge", multiclass=multiclass, shuffle=True, random_state=1,
              tol=None, max_iter=4)
    dense = fit(PassiveAggressiveClassifier(**kw), X, t)
    sparse = fit(PassiveAggressiveClassifier(**kw), Xs, t)
    rtol = 1e-4 if dtype == np.float32 else 1e-9
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=rtol, atol=rtol * 1e-2)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=rtol, atol=rtol * 1e-2)


@pytest.mark.parametrize("variant", ["pa1", "pa2"])
def test_partial_fit_chunks_equal_one_epoch(variant, rng):
    X, t = data(rng, k=3)
    kw = dict(loss=LOSSES[variant], shuffle=False, tol=None, max_iter=1)
    whole = fit(PassiveAggressiveClassifier(**kw), X, t)
    chunks = PassiveAggressiveClassifier(**kw)
    for lo in range(0, len(X), 25):
        chunks.partial_fit(X[lo:lo + 25], t[lo:lo + 25], classes=np.arange(3))
    np.testing.assert_array_equal(chunks.coef_, whole.coef_)
    np.testing.assert_array_equal(chunks.intercept_, whole.intercept_)


def test_threads_give_the_bits_of_one_thread_and_mixing_fits(rng):
    X, t = data(rng, n=400, k=3)
    kw = dict(shuffle=True, random_state=2, tol=None, max_iter=5)
    one = fit(PassiveAggressiveClassifier(**kw), X, t)
    two = fit(PassiveAggressiveClassifier(n_jobs=2, **kw), X, t)
    np.testing.assert_array_equal(two.coef_, one.coef_)
    np.testing.assert_array_equal(two.intercept_, one.intercept_)
    # a single problem on two threads: iterative parameter mixing (McDonald,
    # Hall and Mann 2010) of the rule's shards, deterministic for a seed
    y = (t == 1).astype(int)
    mixed = [fit(PassiveAggressiveClassifier(n_jobs=2, **kw), X, y) for _ in range(2)]
    np.testing.assert_array_equal(mixed[0].coef_, mixed[1].coef_)
    assert mixed[0].score(X, y) >= fit(PassiveAggressiveClassifier(**kw), X, y).score(X, y) - 0.1


def test_model_file_round_trip(rng):
    X, t = data(rng, k=3)
    m = fit(PassiveAggressiveClassifier(C=0.2, loss="squared_hinge", multiclass="multinomial",
                                        average=True, max_iter=3), X, t)
    f = io.BytesIO()
    save_model(m, f, training_state=True)
    f.seek(0)
    back = load_model(f)
    assert type(back) is PassiveAggressiveClassifier
    assert back.get_params() == m.get_params()
    np.testing.assert_array_equal(back.decision_function(X), m.decision_function(X))
    # the training state came along: partial_fit goes on from it
    back.partial_fit(X, t)
    m.partial_fit(X, t)
    np.testing.assert_array_equal(back.coef_, m.coef_)


def test_parameters_are_checked_and_set_params_takes_effect(rng):
    X, t = data(rng)
    with pytest.raises(ValueError, match="C"):
        PassiveAggressiveClassifier(C=0.0).fit(X, t)
    with pytest.raises(ValueError, match="loss"):
        PassiveAggressiveClassifier(loss="log").fit(X, t)
    m = PassiveAggressiveClassifier(C=1e-3, shuffle=False, tol=None, max_iter=2)
    small = fit(m, X, t).coef_.copy()
    large = fit(m.set_params(C=10.0), X, t).coef_
    assert not np.array_equal(small, large)
    assert np.abs(small).max() < np.abs(large).max()
    # the perceptron's own parameters stay the perceptron's
    assert "eta0" not in m.get_params() and "C" not in Perceptron().get_params()

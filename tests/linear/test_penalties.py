"""The penalties (penalty="l2", "l1", "elasticnet"): the compiled loops
against the numpy reference of the rule (tests/reference.py,
penalized_reference) bit for bit on the same row order, sparse against
dense, and against scikit-learn's Perceptron."""
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import perceptron
import perceptron.simd as simd
from perceptron import Perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from helpers import quiet_fit, signs
from reference import penalized_minibatch_reference, penalized_reference

PENALTIES = ("l2", "l1", "elasticnet")


def kernel_dot(x, w):
    # the package's dense dot product at the active level: the sum's order is
    # the kernels', so that the reference takes the same roundings
    return simd._py_dot(np.ascontiguousarray(x), w)


def kernel_axpy(a, x, w):
    simd._py_axpy(a, np.ascontiguousarray(x), w)


def gaussian_data(rng, n, d, k=2, dtype=np.float64):
    X = rng.standard_normal((n, d)).astype(dtype)
    W = rng.standard_normal((k, d))
    t = np.argmax(X @ W.T + 0.7 * rng.standard_normal((n, k)), axis=1)
    return X, t


def assert_same_fit(m, ref, j=None):
    """The model (or its class j, against a binary reference) has the bits of the reference."""
    coef = m.coef_ if j is None else m.coef_[j:j + 1]
    intercept = m.intercept_ if j is None else m.intercept_[j:j + 1]
    if j is None and ref["W"].shape[0] == 2 and coef.shape[0] == 1:
        # two classes by the multiclass rule: the one equivalent row
        W = (ref["W"][1:].astype(np.float64) - ref["W"][:1]).astype(coef.dtype)
        b = ref["b"][1:] - ref["b"][:1]
    else:
        W, b = ref["W"], ref["b"]
    np.testing.assert_array_equal(coef, W)
    np.testing.assert_array_equal(intercept, np.asarray(b, dtype=coef.dtype))


# ------------------------------------------------ the reference, bit for bit


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("shuffle", [False, True])
def test_binary_equals_reference_bits(penalty, dtype, average, shuffle, rng):
    X, t = gaussian_data(rng, 150, 9, dtype=dtype)
    kw = dict(penalty=penalty, alpha=0.003, l1_ratio=0.3, eta0=0.7)
    m = quiet_fit(Perceptron(max_iter=6, tol=None, shuffle=shuffle, average=average, random_state=5,
                             **kw), X, t)
    orders = shuffled_orders(len(t), 6, check_random_seed(5)) if shuffle else None
    ref = penalized_reference(X, signs(t), penalty=penalty, alpha=0.003, l1_ratio=0.3, eta=0.7,
                              max_iter=6, average=average, orders=orders, dot=kernel_dot,
                              axpy=kernel_axpy)
    assert_same_fit(m, ref)
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])
    np.testing.assert_array_equal(m.updates_, ref["updates"])
    assert m.n_iter_ == 6  # a penalty never stops at an epoch without an update


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_margin_sample_weight_and_no_intercept_equal_reference_bits(penalty, dtype, rng):
    X, t = gaussian_data(rng, 120, 6, dtype=dtype)
    sw = rng.uniform(0.2, 2.0, len(t))
    m = quiet_fit(Perceptron(max_iter=5, tol=None, shuffle=False, margin=0.5, fit_intercept=False,
                             penalty=penalty, alpha=0.01, l1_ratio=0.6), X, t, sample_weight=sw)
    ref = penalized_reference(X, signs(t), penalty=penalty, alpha=0.01, l1_ratio=0.6,
                              max_iter=5, margin=0.5, fit_intercept=False, sample_weight=sw,
                              dot=kernel_dot, axpy=kernel_axpy)
    assert_same_fit(m, ref)
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])
    np.testing.assert_allclose(m.loss_, ref["loss"] / sw.sum(), rtol=1e-12)


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("average", [False, True])
def test_multinomial_equals_reference_bits(penalty, dtype, average, rng):
    X, t = gaussian_data(rng, 140, 7, k=4, dtype=dtype)
    m = quiet_fit(Perceptron(max_iter=5, tol=None, shuffle=False, multiclass="multinomial",
                             average=average, penalty=penalty, alpha=0.004, l1_ratio=0.5), X, t)
    ref = penalized_reference(X, t=t, k=4, penalty=penalty, alpha=0.004, l1_ratio=0.5,
                              max_iter=5, average=average, dot=kernel_dot, axpy=kernel_axpy)
    assert_same_fit(m, ref)
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])


@pytest.mark.parametrize("penalty", PENALTIES)
def test_ovr_classes_equal_binary_references(penalty, rng):
    X, t = gaussian_data(rng, 120, 5, k=3)
    m = quiet_fit(Perceptron(max_iter=4, tol=None, shuffle=False, penalty=penalty, alpha=0.02),
                  X, t)
    for j in range(3):
        ref = penalized_reference(X, np.where(t == j, 1, -1), penalty=penalty, alpha=0.02,
                                  max_iter=4, dot=kernel_dot, axpy=kernel_axpy)
        assert_same_fit(m, ref, j)


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("average", [False, True])
def test_tol_rule_reads_loss_plus_penalty_as_reference(penalty, average, rng):
    X, t = gaussian_data(rng, 200, 8)
    m = quiet_fit(Perceptron(shuffle=False, penalty=penalty, alpha=0.002, average=average,
                             max_iter=200), X, t)
    ref = penalized_reference(X, signs(t), penalty=penalty, alpha=0.002, average=average,
                              max_iter=200, tol=1e-3, dot=kernel_dot, axpy=kernel_axpy)
    assert m.n_iter_ == len(ref["mistakes"]) < 200
    assert_same_fit(m, ref)


def test_the_averaged_weights_are_the_explicit_average_of_the_effective_weights(rng):
    X, t = gaussian_data(rng, 80, 5)
    y = signs(t)
    # the explicit average: the effective weights after each of the 3 * 80
    # steps, from fits of 1, 2, ... rows (the rule depends on nothing after)
    total_w, total_b = np.zeros(5), 0.0
    for epoch in range(3):
        for stop in range(1, 81):
            rows = np.arange(80)
            orders = [rows] * epoch + [rows[:stop]]
            ref = penalized_reference(X, y, penalty="elasticnet", alpha=0.01, l1_ratio=0.4,
                                      max_iter=epoch + 1, orders=orders, dot=kernel_dot,
                                      axpy=kernel_axpy)
            total_w += ref["W"][0]
            total_b += ref["b"][0]
    m = quiet_fit(Perceptron(max_iter=3, tol=None, shuffle=False, average=True,
                             penalty="elasticnet", alpha=0.01, l1_ratio=0.4), X, t)
    np.testing.assert_array_equal(m.coef_[0], total_w / 240)
    np.testing.assert_array_equal(m.intercept_[0], total_b / 240)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 19), seed=st.integers(0, 2**32 - 1),
       penalty=st.sampled_from(PENALTIES), dtype=st.sampled_from([np.float32, np.float64]),
       alpha=st.sampled_from([0.0, 1e-4, 0.03, 0.6, 5.0]),
       l1_ratio=st.sampled_from([0.0, 0.15, 1.0]), multinomial=st.booleans(),
       average=st.booleans())
def test_hypothesis_equals_reference_bits(n, d, seed, penalty, dtype, alpha, l1_ratio,
                                          multinomial, average):
    rng = np.random.default_rng(seed)
    k = 3 if multinomial else 2
    assume(n >= k)
    X, _ = gaussian_data(rng, n, d, k=k, dtype=dtype)
    t = rng.permutation(np.arange(n) % k)  # every class present
    kw = dict(penalty=penalty, alpha=alpha, l1_ratio=l1_ratio, average=average)
    m = quiet_fit(Perceptron(max_iter=3, tol=None, shuffle=False,
                             multiclass="multinomial" if multinomial else "ovr", **kw), X, t)
    if multinomial:
        ref = penalized_reference(X, t=t, k=k, max_iter=3, dot=kernel_dot, axpy=kernel_axpy,
                                  **kw)
    else:
        ref = penalized_reference(X, signs(t), max_iter=3, dot=kernel_dot, axpy=kernel_axpy,
                                  **kw)
    assert_same_fit(m, ref)
    assert np.isfinite(m.coef_).all()


# -------------------------------------------------------------- mini-batch


@pytest.mark.parametrize("penalty, kw", [("l2", dict(alpha=0.5)), ("l1", dict(alpha=0.25)),
                                         ("elasticnet", dict(alpha=1.0, l1_ratio=0.5))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("multinomial", [False, True])
@pytest.mark.parametrize("average", [False, True])
def test_minibatch_equals_reference_bits(penalty, kw, dtype, multinomial, average, rng):
    # integer rows, batches of 4, an L2 factor of 1/2 and L1 steps of 1/4,
    # 1/2: exact arithmetic, so any order of the sums gives the same bits
    X = rng.integers(-4, 5, size=(90, 7)).astype(dtype)
    t = np.argmax(X @ rng.integers(-3, 4, size=(7, 3)), axis=1)
    if not multinomial:
        t = (t == 1).astype(int)
    m = quiet_fit(Perceptron(max_iter=5, tol=None, shuffle=True, random_state=2, batch_size=4,
                             average=average, penalty=penalty,
                             multiclass="multinomial" if multinomial else "ovr", **kw), X, t)
    orders = shuffled_orders(90, 5, check_random_seed(2))
    extra = dict(t=t, k=3) if multinomial else dict(y=signs(t))
    ref = penalized_minibatch_reference(X, batch_size=4, penalty=penalty, max_iter=5,
                                        orders=orders, average=average, **extra, **kw)
    assert_same_fit(m, ref)
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])


@pytest.mark.parametrize("penalty", PENALTIES)
def test_minibatch_agrees_with_reference_on_real_valued_data(penalty, rng):
    X, t = gaussian_data(rng, 100, 6)
    m = quiet_fit(Perceptron(max_iter=5, tol=None, shuffle=False, batch_size=8, penalty=penalty,
                             alpha=0.01, l1_ratio=0.3, average=True), X, t)
    ref = penalized_minibatch_reference(X, signs(t), batch_size=8, penalty=penalty, alpha=0.01,
                                        l1_ratio=0.3, max_iter=5, average=True)
    np.testing.assert_allclose(m.coef_, ref["W"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(m.intercept_, ref["b"], rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(m.mistakes_, ref["mistakes"])


# ---------------------------------------------------------- sparse = dense


def dyadic_cases():
    # parameters whose arithmetic is exact on small integers (an L2 factor
    # of 1/2, L1 steps of 1/4, 1/2): the dense and the sparse dot products
    # then agree whatever their order of summation
    return [("l2", dict(alpha=0.5)), ("l1", dict(alpha=0.25)),
            ("elasticnet", dict(alpha=1.0, l1_ratio=0.5)),
            ("l2", dict(alpha=1.0, eta0=0.5))]


@pytest.mark.parametrize("penalty, kw", dyadic_cases())
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("average", [False, True])
def test_sparse_equals_dense_bits(penalty, kw, dtype, index, average, rng):
    sp = pytest.importorskip("scipy.sparse")
    X = rng.integers(-3, 4, size=(150, 12)).astype(dtype)
    X[rng.random(X.shape) < 0.6] = 0
    t = (X @ rng.integers(-2, 3, size=12) + rng.integers(-1, 2, size=150) > 0).astype(int)
    S = sp.csr_matrix(X)
    S.indices = S.indices.astype(index)
    S.indptr = S.indptr.astype(index)
    for multiclass, labels, bs in (("ovr", t, None), ("multinomial", t + (X[:, 0] > 1), None),
                                   ("ovr", t, 4)):
        args = dict(max_iter=8, tol=None, random_state=3, average=average, multiclass=multiclass,
                    penalty=penalty, batch_size=bs, **kw)
        dense = quiet_fit(Perceptron(**args), X, labels)
        sparse = quiet_fit(Perceptron(**args), S, labels)
        np.testing.assert_array_equal(dense.coef_, sparse.coef_)
        np.testing.assert_array_equal(dense.intercept_, sparse.intercept_)
        np.testing.assert_array_equal(dense.mistakes_, sparse.mistakes_)


@pytest.mark.parametrize("penalty", PENALTIES)
def test_sparse_agrees_with_dense_on_real_valued_data(penalty, rng):
    sp = pytest.importorskip("scipy.sparse")
    X, t = gaussian_data(rng, 200, 10)
    X[rng.random(X.shape) < 0.5] = 0.0
    args = dict(max_iter=5, tol=None, shuffle=False, penalty=penalty, alpha=1e-3)
    dense = quiet_fit(Perceptron(**args), X, t)
    sparse = quiet_fit(Perceptron(**args), sp.csr_matrix(X), t)
    np.testing.assert_allclose(dense.coef_, sparse.coef_, rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------ scikit-learn


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("alpha", [1e-5, 1e-3, 0.05])
@pytest.mark.parametrize("l1_ratio", [0.15, 0.7])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_agrees_with_sklearn(penalty, alpha, l1_ratio, fit_intercept):
    linear_model = pytest.importorskip("sklearn.linear_model")
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.make_classification(300, 15, n_informative=6, random_state=1)
    for tol, max_iter in ((1e-3, 1000), (None, 25)):
        kw = dict(penalty=penalty, alpha=alpha, l1_ratio=l1_ratio, fit_intercept=fit_intercept,
                  shuffle=False, tol=tol, max_iter=max_iter, eta0=0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = linear_model.Perceptron(**kw).fit(X, y)
            ours = Perceptron(**kw).fit(X, y)
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9,
                                   atol=1e-9 * np.abs(theirs.coef_).max())
        np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)
        assert ours.n_iter_ == theirs.n_iter_, (tol, ours.n_iter_, theirs.n_iter_)
        np.testing.assert_array_equal(ours.coef_ == 0, theirs.coef_ == 0)


@pytest.mark.parametrize("penalty", PENALTIES)
def test_agrees_with_sklearn_one_vs_rest_and_sample_weights(penalty, rng):
    linear_model = pytest.importorskip("sklearn.linear_model")
    X, t = gaussian_data(rng, 240, 6, k=3)
    sw = rng.uniform(0.5, 2.0, len(t))
    kw = dict(penalty=penalty, alpha=1e-3, l1_ratio=0.5, shuffle=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = linear_model.Perceptron(**kw).fit(X, t, sample_weight=sw)
        ours = Perceptron(**kw).fit(X, t, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)
    assert ours.n_iter_ == theirs.n_iter_


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("sparse", [False, True])
def test_one_vs_rest_keeps_penalizing_a_class_without_mistakes(penalty, sparse):
    # Standardised iris: class 0 is separated in the first epoch, classes 1
    # and 2 never are.  With a penalty every row shrinks the weights, a
    # mistake or not, so a class without a mistake in an epoch still
    # changes: it keeps running, as scikit-learn's one-vs-rest does.
    linear_model = pytest.importorskip("sklearn.linear_model")
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    kw = dict(penalty=penalty, alpha=1e-3, tol=None, shuffle=False, max_iter=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = linear_model.Perceptron(**kw).fit(X, y)
        if sparse:
            X = pytest.importorskip("scipy.sparse").csr_matrix(X)
        ours = Perceptron(**kw).fit(X, y)
        binary = Perceptron(**kw).fit(X, np.where(y == 0, 1, -1))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9,
                               atol=1e-9 * np.abs(theirs.coef_).max())
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(ours.coef_[0], binary.coef_[0])
    np.testing.assert_array_equal(ours.intercept_[0], binary.intercept_[0])


# ---------------------------------------------------------------- the rest


def test_l1_gives_sparse_weights_and_alpha_zero_is_no_penalty(rng):
    X, t = gaussian_data(rng, 300, 30)
    X[:, 10:] = 0.01 * rng.standard_normal((300, 20))  # 20 nearly useless features
    plain = quiet_fit(Perceptron(max_iter=10, tol=None, shuffle=False), X, t)
    l1 = quiet_fit(Perceptron(max_iter=10, tol=None, shuffle=False, penalty="l1", alpha=0.01), X, t)
    assert np.count_nonzero(l1.coef_) < np.count_nonzero(plain.coef_)
    # alpha = 0: the plain rule's steps (it runs on after an epoch without
    # an update, which changes nothing)
    zero = quiet_fit(Perceptron(max_iter=10, tol=None, shuffle=False, penalty="l2", alpha=0.0),
                     X, t)
    np.testing.assert_array_equal(zero.coef_, plain.coef_)
    np.testing.assert_array_equal(zero.intercept_, plain.intercept_)


def test_a_huge_l2_step_zeroes_the_weights_instead_of_flipping_them(rng):
    X, t = gaussian_data(rng, 50, 4)
    m = quiet_fit(Perceptron(max_iter=3, tol=None, shuffle=False, penalty="l2", alpha=50.0), X, t)
    ref = penalized_reference(X, signs(t), penalty="l2", alpha=50.0, max_iter=3,
                              dot=kernel_dot, axpy=kernel_axpy)
    assert_same_fit(m, ref)
    assert np.isfinite(m.coef_).all()


def test_partial_fit_epochs_equal_fit_epochs(rng):
    X, t = gaussian_data(rng, 100, 6, k=3)
    kw = dict(shuffle=False, penalty="elasticnet", alpha=0.01, average=True)
    m = Perceptron(**kw)
    for _ in range(3):
        m.partial_fit(X, t, classes=[0, 1, 2])
    f = quiet_fit(Perceptron(max_iter=3, tol=None, **kw), X, t)
    np.testing.assert_array_equal(m.coef_, f.coef_)
    np.testing.assert_array_equal(m.intercept_, f.intercept_)
    # the training state carries u, q and the norms through a pickle
    m2 = pickle.loads(pickle.dumps(m.keep_training_state()))
    m.partial_fit(X, t)
    m2.partial_fit(X, t)
    np.testing.assert_array_equal(m.coef_, m2.coef_)


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_partial_fit_chunks_equal_one_epoch_and_fit_stream_equals_fit(penalty, dtype, rng):
    X, t = gaussian_data(rng, 150, 6, k=3, dtype=dtype)
    kw = dict(shuffle=False, penalty=penalty, alpha=0.01, average=True)
    whole = Perceptron(**kw).partial_fit(X, t, classes=[0, 1, 2])
    chunks = Perceptron(**kw)
    for start in range(0, 150, 40):  # the scale, u and q carry over the cuts
        chunks.partial_fit(X[start:start + 40], t[start:start + 40], classes=[0, 1, 2])
    np.testing.assert_array_equal(whole.coef_, chunks.coef_)
    np.testing.assert_array_equal(whole.intercept_, chunks.intercept_)
    streamed = Perceptron(max_iter=4, **kw).fit_stream((X, t), chunk_rows=40)
    f = quiet_fit(Perceptron(max_iter=4, tol=None, **kw), X, t)
    assert streamed.n_iter_ == f.n_iter_ == 4
    np.testing.assert_array_equal(streamed.coef_, f.coef_)
    np.testing.assert_array_equal(streamed.intercept_, f.intercept_)


def test_partial_fit_refuses_a_change_of_penalty(rng):
    X, t = gaussian_data(rng, 60, 4)
    m = Perceptron(penalty="l1").partial_fit(X, t, classes=[0, 1])
    m.set_params(penalty="l2")
    with pytest.raises(ValueError, match="penalty changed"):
        m.partial_fit(X, t)


def test_save_and_load_keep_the_penalty_state(rng, tmp_path):
    X, t = gaussian_data(rng, 60, 4)
    m = Perceptron(penalty="elasticnet", shuffle=False).partial_fit(X, t, classes=[0, 1])
    path = tmp_path / "m.ptn"
    m.save(path, training_state=True)
    loaded = perceptron.load(path)
    m.partial_fit(X, t)
    loaded.partial_fit(X, t)
    np.testing.assert_array_equal(m.coef_, loaded.coef_)
    # a file whose penalty state would send a zero scale or NaN to the loops
    for name, bad_value in (("scale", 0.0), ("q", np.nan), ("norms", np.inf)):
        broken = pickle.loads(pickle.dumps(m.keep_training_state()))
        getattr(broken._states[0], name)[...] = bad_value
        broken.save(path, training_state=True)
        with pytest.raises(ValueError, match=f"{name if name == 'scale' else 'finite'}"):
            perceptron.load(path)


def test_the_pocket_refuses_a_penalty(rng):
    X, t = gaussian_data(rng, 40, 3)
    with pytest.raises(ValueError, match="penalty='l2' and pocket=True cannot be combined"):
        Perceptron(penalty="l2", pocket=True).fit(X, t)


def test_dask_refuses_a_penalty(rng):
    pytest.importorskip("dask")
    pytest.importorskip("distributed")
    from perceptron import dask as ptn_dask

    # the parameters are checked before the data or a client
    with pytest.raises(ValueError, match="penalty='l1' is not supported"):
        ptn_dask.fit(Perceptron(penalty="l1"), None, None)


def test_early_stopping_with_a_penalty_stops_on_the_held_out_score(rng):
    X, t = gaussian_data(rng, 400, 6)
    m = quiet_fit(Perceptron(penalty="l2", alpha=1e-3, early_stopping=True, n_iter_no_change=3,
                             max_iter=500), X, t)
    assert 3 < m.n_iter_ < 500
    assert len(m.validation_scores_) == m.n_iter_


def test_multinomial_partial_fit_takes_a_new_class_with_a_penalty(rng):
    X, t = gaussian_data(rng, 120, 5, k=3)
    m = Perceptron(multiclass="multinomial", penalty="elasticnet", alpha=0.01, shuffle=False)
    m.partial_fit(X[t < 2], t[t < 2])
    m.partial_fit(X, t)
    state = m._states[0]
    assert state.W.shape == state.q.shape == (3, 5) and state.norms.shape == (3, 2)
    # the new class's row starts at zero with q = 0, as every weight that has
    # stayed at zero: under the cumulative rule it owes the whole u so far
    assert m.coef_.shape == (3, 5) and np.isfinite(m.coef_).all()

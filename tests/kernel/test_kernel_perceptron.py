"""KernelPerceptron against the numpy reference of the dual algorithm, the
primal Perceptron, and the problems no line solves."""
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import ConvergenceWarning, KernelPerceptron, NotFittedError, Perceptron, simd_info
from perceptron._core import kernel as _kernel
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed
from perceptron.datasets import make_circles, make_separable, make_xor
from perceptron.kernel import kernel_matrix

from helpers import quiet_fit
from kernel_reference import kernel_matrix_reference, kernel_perceptron_reference


def integer_problem(rng, n=120, d=5, flips=9):
    """Integer-valued data (every kernel sum exact in floating point) whose
    labels come from a hyperplane, with some flipped so that training runs
    many epochs with many updates."""
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    y = np.where(X @ rng.integers(-2, 3, size=d) + 0.5 > 0, 1, -1)
    y[rng.choice(n, flips, replace=False)] *= -1
    return X, y


KERNELS_EXACT = [("linear", {}), ("poly", {"degree": 2, "gamma": 1.0, "coef0": 1.0}),
                 ("poly", {"degree": 3, "gamma": 2.0, "coef0": 0.0})]


# ------------------------------------------------------ the numpy reference


@pytest.mark.parametrize("kernel,params", KERNELS_EXACT)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_equals_the_reference_exactly_on_integer_data(kernel, params, dtype, shuffle,
                                                      fit_intercept, rng):
    X, y = integer_problem(rng)
    model = quiet_fit(KernelPerceptron(kernel=kernel, max_iter=12, shuffle=shuffle,
                                       fit_intercept=fit_intercept, random_state=5, **params),
                      X.astype(dtype), y)
    orders = shuffled_orders(len(y), 12, check_random_seed(5)) if shuffle else None
    G = kernel_matrix_reference(X, X, kernel, **params)
    alpha, b, mistakes, loss = kernel_perceptron_reference(G, y, max_iter=12, orders=orders,
                                                           fit_intercept=fit_intercept)
    assert model.n_iter_ == len(mistakes)
    np.testing.assert_array_equal(model.mistakes_, mistakes)
    np.testing.assert_array_equal(model.loss_, loss / len(y))
    np.testing.assert_array_equal(model.support_, np.flatnonzero(alpha))
    np.testing.assert_array_equal(model.alpha_[0], alpha[alpha > 0])
    assert model.intercept_[0] == b
    assert model.t_ == alpha.sum() == mistakes.sum()
    # and the decision function is the dual sum
    np.testing.assert_array_equal(model.decision_function(X.astype(dtype)),
                                  G[:, alpha > 0] @ (alpha * y)[alpha > 0] + b)


@pytest.mark.parametrize("cache_columns", [1, 2, 7, 64, 120])
@pytest.mark.parametrize("block", [1, 3, 64])
@pytest.mark.parametrize("budget", [0, 1, 5, 40])
def test_cache_size_block_and_budget_against_the_reference(cache_columns, block, budget, rng):
    """Every cache capacity (eviction or none), every block size and the
    support-vector budget follow the reference's decisions exactly."""
    X, y = integer_problem(rng)
    G = kernel_matrix_reference(X, X, "poly", degree=2, gamma=1.0, coef0=1.0)
    seed = 99
    for data, kind in ((X, _kernel.KIND_POLY), (G, _kernel.KIND_PRECOMPUTED)):
        r = _kernel.fit_dual(data, y.astype(np.int8), kind=kind, gamma=1.0, coef0=1.0, degree=2,
                             eta=1.0, fit_intercept=True, shuffle=True, max_iter=10, seed=seed,
                             cache_columns=cache_columns, max_support_vectors=budget, block=block)
        alpha, b, mistakes, _ = kernel_perceptron_reference(
            G, y, max_iter=10, orders=shuffled_orders(len(y), 10, seed),
            max_support_vectors=budget or None)
        np.testing.assert_array_equal(r["alpha"], alpha)
        np.testing.assert_array_equal(r["mistakes"], mistakes)
        assert r["intercept"] == b
        assert r["cache_capacity"] == min(cache_columns, len(y))
        if budget:
            assert (r["alpha"] > 0).sum() <= budget


@pytest.mark.parametrize("kernel,params", [("rbf", {"gamma": 0.3}),
                                           ("sigmoid", {"gamma": 0.05, "coef0": -0.5})])
def test_rbf_and_sigmoid_follow_the_reference(kernel, params, rng):
    """Real-valued kernels: the same decisions as the reference (sums differ in
    the last bits only, far from any tie on this data)."""
    X = rng.standard_normal((150, 4))
    y = np.where(np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] > 0, 1, -1)
    model = quiet_fit(KernelPerceptron(kernel=kernel, max_iter=8, random_state=3, **params), X, y)
    G = kernel_matrix_reference(X, X, kernel, **params)
    alpha, b, mistakes, _ = kernel_perceptron_reference(
        G, y, max_iter=8, orders=shuffled_orders(len(y), 8, check_random_seed(3)))
    np.testing.assert_array_equal(model.mistakes_, mistakes)
    np.testing.assert_array_equal(model.support_, np.flatnonzero(alpha))
    assert model.intercept_[0] == b
    np.testing.assert_allclose(model.decision_function(X),
                               G[:, alpha > 0] @ (alpha * y)[alpha > 0] + b, rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernel_matrix_matches_the_definitions(kernel, dtype, rng):
    X = rng.standard_normal((23, 9)).astype(dtype)
    Y = rng.standard_normal((17, 9)).astype(dtype)
    got = kernel_matrix(X, Y, kernel, degree=3, gamma=0.4, coef0=0.7)
    want = kernel_matrix_reference(X, Y, kernel, degree=3, gamma=0.4, coef0=0.7)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
    # symmetric bit for bit (the shifted norms and products commute)
    G = kernel_matrix(X, kernel=kernel, gamma=0.4, coef0=0.7)
    np.testing.assert_array_equal(G, G.T)


def test_kernel_matrix_resolves_gamma_like_the_estimator(rng):
    X = rng.standard_normal((30, 4)) * 3
    g_scale = 1.0 / (4 * X.var())
    np.testing.assert_allclose(kernel_matrix(X, kernel="rbf"),
                               kernel_matrix_reference(X, X, "rbf", gamma=g_scale), rtol=1e-12)
    np.testing.assert_allclose(kernel_matrix(X, kernel="rbf", gamma="auto"),
                               kernel_matrix_reference(X, X, "rbf", gamma=0.25), rtol=1e-12)
    assert quiet_fit(KernelPerceptron(max_iter=2), X, X[:, 0] > 0).gamma_ == pytest.approx(g_scale)


# ------------------------------------------------- the primal, and the line


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("eta", [1.0, 0.5])
def test_linear_kernel_equals_the_primal_perceptron(dtype, shuffle, eta, rng):
    X, y = integer_problem(rng, n=200, d=7)
    X = X.astype(dtype)
    primal = quiet_fit(Perceptron(eta0=eta, max_iter=15, shuffle=shuffle, random_state=11,
                                  tol=None), X, y)
    dual = quiet_fit(KernelPerceptron(kernel="linear", eta0=eta, max_iter=15, shuffle=shuffle,
                                      random_state=11), X, y)
    np.testing.assert_array_equal(dual.mistakes_, primal.mistakes_)
    assert dual.t_ == primal.t_ and dual.n_iter_ == primal.n_iter_
    np.testing.assert_array_equal(dual.coef_, primal.coef_.astype(np.float64))
    assert dual.intercept_[0] == primal.intercept_[0]
    X_test = rng.integers(-5, 6, size=(300, 7)).astype(dtype)
    np.testing.assert_array_equal(dual.decision_function(X_test), primal.decision_function(X_test))
    np.testing.assert_array_equal(dual.predict(X_test), primal.predict(X_test))


def test_linear_kernel_equals_the_primal_on_real_valued_data(rng):
    ds = make_separable(300, 6, margin=0.02, random_state=2)
    primal = Perceptron(random_state=4).fit(ds.data, ds.target)
    dual = KernelPerceptron(kernel="linear", random_state=4).fit(ds.data, ds.target)
    np.testing.assert_array_equal(dual.mistakes_, primal.mistakes_)
    np.testing.assert_allclose(dual.decision_function(ds.data), primal.decision_function(ds.data),
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(dual.predict(ds.data), primal.predict(ds.data))


@pytest.mark.parametrize("kernel,params", [("rbf", {"gamma": 2.0}),
                                           ("poly", {"degree": 2, "coef0": 1.0})])
def test_xor_is_learned_where_the_line_fails(kernel, params):
    X, y = make_xor(200, noise=0.1, random_state=0)
    with pytest.warns(ConvergenceWarning):
        line = Perceptron(max_iter=50, random_state=0, tol=None).fit(X, y)
    assert line.score(X, y) < 0.8
    model = KernelPerceptron(kernel=kernel, random_state=0, **params).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    # the exact truth table too
    X4, y4 = make_xor(4, noise=0.0)
    assert KernelPerceptron(kernel=kernel, random_state=0, **params).fit(X4, y4).score(X4, y4) == 1


def test_concentric_circles_are_learned_where_the_line_fails():
    X, y = make_circles(300, factor=0.5, noise=0.05, random_state=1)
    with pytest.warns(ConvergenceWarning):
        line = Perceptron(max_iter=50, random_state=0, tol=None).fit(X, y)
    assert line.score(X, y) < 0.75
    model = KernelPerceptron(kernel="rbf", gamma=2.0, random_state=0).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    assert 0 < len(model.support_) < len(y)
    X_new, y_new = make_circles(300, factor=0.5, noise=0.05, random_state=2)
    assert model.score(X_new, y_new) > 0.95


# --------------------------------------------------- one-vs-rest, threads


def test_one_vs_rest_equals_binary_fits_and_threads_change_nothing(rng):
    X = rng.standard_normal((240, 3))
    y = np.array(["a", "b", "c"])[np.digitize(X[:, 0] + 0.3 * X[:, 1] ** 2, [-0.4, 0.6])]
    one = quiet_fit(KernelPerceptron(gamma=1.0, max_iter=30, random_state=8), X, y)
    two = quiet_fit(KernelPerceptron(gamma=1.0, max_iter=30, random_state=8, n_jobs=-1), X, y)
    np.testing.assert_array_equal(one.dual_coef_, two.dual_coef_)
    np.testing.assert_array_equal(one.mistakes_, two.mistakes_)
    assert one.dual_coef_.shape == (3, len(one.support_))
    assert one.mistakes_.shape == (3, one.n_iter_)
    scores = one.decision_function(X)
    assert scores.shape == (240, 3)
    np.testing.assert_array_equal(one.predict(X), one.classes_[np.argmax(scores, axis=1)])
    assert one.score(X, y) > 0.9
    for k, label in enumerate(one.classes_):
        binary = quiet_fit(KernelPerceptron(gamma=1.0, max_iter=30, random_state=8), X, y == label)
        full = np.zeros(len(y))
        full[one.support_] = one.dual_coef_[k]
        part = np.zeros(len(y))
        part[binary.support_] = binary.dual_coef_[0]
        np.testing.assert_array_equal(full, part)
        assert one.intercept_[k] == binary.intercept_[0]
        np.testing.assert_array_equal(one.mistakes_[k, :binary.n_iter_], binary.mistakes_)
        assert not one.mistakes_[k, binary.n_iter_:].any()
        np.testing.assert_allclose(scores[:, k], binary.decision_function(X), rtol=1e-12,
                                   atol=1e-12)


def test_binary_fit_on_several_threads_equals_one_thread(rng):
    X = rng.standard_normal((3000, 20))
    y = np.where((X[:, :3] ** 2).sum(axis=1) > 2.4, 1, -1)
    one = quiet_fit(KernelPerceptron(max_iter=3, random_state=0, cache_size=10), X, y)
    two = quiet_fit(KernelPerceptron(max_iter=3, random_state=0, cache_size=10, n_jobs=2), X, y)
    assert one.cache_stats_["computed"] > 64  # blocks were computed, and evicted
    np.testing.assert_array_equal(one.dual_coef_, two.dual_coef_)
    np.testing.assert_array_equal(one.intercept_, two.intercept_)
    np.testing.assert_array_equal(one.loss_, two.loss_)


def test_prediction_on_several_threads_equals_one_thread(rng, monkeypatch):
    X = rng.standard_normal((3000, 20))
    y = np.where((X[:, :3] ** 2).sum(axis=1) > 2.4, 1, -1)
    model = quiet_fit(KernelPerceptron(max_iter=3, random_state=0), X, y)
    many = model.decision_function(X)
    monkeypatch.setenv("PERCEPTRON_NUM_THREADS", "1")
    np.testing.assert_array_equal(model.decision_function(X), many)


# ----------------------------------------------------- other kernel forms


def test_precomputed_and_callable_equal_the_built_in_kernel(rng):
    X, y = integer_problem(rng)
    X_test = rng.integers(-3, 4, size=(50, 5)).astype(np.float64)
    params = {"degree": 2, "gamma": 1.0, "coef0": 1.0}
    built_in = quiet_fit(KernelPerceptron(kernel="poly", max_iter=10, random_state=2, **params),
                         X, y)
    G = kernel_matrix_reference(X, X, "poly", **params)
    pre = quiet_fit(KernelPerceptron(kernel="precomputed", max_iter=10, random_state=2), G, y)
    fn = quiet_fit(KernelPerceptron(kernel=lambda A, B: kernel_matrix_reference(A, B, "poly",
                                                                               **params),
                                    max_iter=10, random_state=2), X, y)
    for other in (pre, fn):
        np.testing.assert_array_equal(other.support_, built_in.support_)
        np.testing.assert_array_equal(other.dual_coef_, built_in.dual_coef_)
        assert other.intercept_[0] == built_in.intercept_[0]
    want = built_in.decision_function(X_test)
    np.testing.assert_array_equal(pre.decision_function(
        kernel_matrix_reference(X_test, X, "poly", **params)), want)
    np.testing.assert_array_equal(fn.decision_function(X_test), want)
    assert pre.support_vectors_.shape == (0, len(y)) and pre.n_features_in_ == len(y)


def test_float32_data_stays_float32_and_agrees_with_float64():
    X, y = make_circles(200, random_state=3)
    m64 = KernelPerceptron(gamma=2.0, random_state=0).fit(X, y)
    m32 = KernelPerceptron(gamma=2.0, random_state=0).fit(X.astype(np.float32), y)
    assert m32.support_vectors_.dtype == np.float32
    assert m32.score(X, y) == m64.score(X, y) == 1.0
    # scoring float64 rows with a float32 model (and back) works
    np.testing.assert_allclose(m32.decision_function(X),
                               m32.decision_function(X.astype(np.float32)), rtol=1e-5, atol=1e-5)


def test_budget_caps_the_support_vectors():
    X, y = make_circles(300, noise=0.1, random_state=4)
    model = quiet_fit(KernelPerceptron(gamma=2.0, max_iter=20, max_support_vectors=25,
                                       random_state=0), X, y)
    assert len(model.support_) <= 25 and model.n_removed_ > 0
    assert model.alpha_.sum() < model.t_  # removed terms are gone
    assert model.score(X, y) > 0.7
    free = quiet_fit(KernelPerceptron(gamma=2.0, max_iter=20, random_state=0), X, y)
    assert free.n_removed_ == 0 and len(free.support_) > 25


def test_cache_statistics_and_results_do_not_depend_on_the_budget(rng):
    X, y = integer_problem(rng, n=300)
    small = quiet_fit(KernelPerceptron(kernel="poly", degree=2, coef0=1.0, gamma=1.0,
                                       max_iter=15, random_state=0, cache_size=0.003), X, y)
    large = quiet_fit(KernelPerceptron(kernel="poly", degree=2, coef0=1.0, gamma=1.0,
                                       max_iter=15, random_state=0), X, y)
    np.testing.assert_array_equal(small.dual_coef_, large.dual_coef_)
    np.testing.assert_array_equal(small.mistakes_, large.mistakes_)
    assert small.cache_stats_["capacity"] == 1 and large.cache_stats_["capacity"] == 300
    # with room for every column, each is computed at most once
    assert large.cache_stats_["computed"] <= len(large.support_)
    assert large.cache_stats_["computed"] + large.cache_stats_["reused"] <= large.t_
    assert small.cache_stats_["computed"] > large.cache_stats_["computed"]


def slru_reference(n, capacity, accesses):
    """Segmented LRU (Karedla, Love and Wherry 1994) in plain Python: misses
    enter probation (evicting its least recent column, else the least recent
    protected one); a hit moves a column to the front of the protected
    segment (4/5 of the capacity), whose overflow returns to probation."""
    probation, protected = [], []  # most recent first
    cap_protected = capacity * 4 // 5
    hits = []
    for j in accesses:
        if j in probation or j in protected:
            hits.append(True)
            (probation if j in probation else protected).remove(j)
            protected.insert(0, j)
            if len(protected) > cap_protected:
                probation.insert(0, protected.pop())
        else:
            hits.append(False)
            if len(probation) + len(protected) == capacity:
                (probation if probation else protected).pop()
            probation.insert(0, j)
    return hits, protected + probation


def test_the_gram_cache_on_its_own():
    hits, order = _kernel._lru_trace(10, 3, [1, 2, 3, 1, 4, 2, 1, 5, 4])
    # 1 2 3 miss; 1 hit (protected); 4, 2, 5, 4 each evict the oldest on
    # probation, while 1 stays protected
    assert hits == [False, False, False, True, False, False, True, False, False]
    assert order == [1, 4, 5]
    with pytest.raises(ValueError):
        _kernel._lru_trace(3, 2, [5])


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 12), capacity=st.integers(1, 12), data=st.data())
def test_the_gram_cache_is_a_segmented_lru(n, capacity, data):
    accesses = data.draw(st.lists(st.integers(0, n - 1), max_size=60))
    assert _kernel._lru_trace(n, capacity, accesses) == slru_reference(n, capacity, accesses)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), d=st.integers(1, 4),
       capacity=st.integers(1, 40), block=st.integers(1, 64), budget=st.integers(0, 12),
       fit_intercept=st.booleans(), eta=st.sampled_from([1.0, 2.0, 0.5]))
def test_property_any_cache_block_budget_equals_the_reference(seed, n, d, capacity, block, budget,
                                                               fit_intercept, eta):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(np.float64)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    r = _kernel.fit_dual(X, y.astype(np.int8), kind=_kernel.KIND_LINEAR, gamma=0.0, coef0=0.0,
                         degree=1, eta=eta, fit_intercept=fit_intercept, shuffle=True, max_iter=6,
                         seed=seed, cache_columns=capacity, max_support_vectors=budget,
                         block=block)
    alpha, b, mistakes, loss = kernel_perceptron_reference(
        X @ X.T, y, eta=eta, max_iter=6, orders=shuffled_orders(n, 6, seed),
        fit_intercept=fit_intercept, max_support_vectors=budget or None)
    np.testing.assert_array_equal(r["alpha"], alpha)
    np.testing.assert_array_equal(r["mistakes"], mistakes)
    np.testing.assert_array_equal(r["loss"], loss)
    assert r["intercept"] == b


# ----------------------------------------------------------- API, errors


def test_attributes_and_parameters():
    X, y = make_xor(40, random_state=1)
    model = KernelPerceptron(gamma=2.0, random_state=0).fit(X, y)
    assert model.classes_.tolist() == [-1, 1]
    assert model.n_features_in_ == 2 and model.gamma_ == 2.0
    assert model.alpha_.dtype == np.int64 and model.alpha_.shape == (1, len(model.support_))
    assert np.all(model.alpha_ > 0)
    np.testing.assert_array_equal(model.dual_coef_, model.alpha_ * np.where(y[model.support_] > 0,
                                                                             1.0, -1.0))
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert model.n_support_.tolist() == [len(model.support_)]
    assert model.mistakes_.shape == (model.n_iter_,) and model.mistakes_[-1] == 0
    assert model.decision_function(X).shape == (40,)
    with pytest.raises(AttributeError, match="kernel='linear'"):
        model.coef_
    assert not hasattr(model, "coef_")
    clone = KernelPerceptron(**model.get_params())
    assert repr(clone) == "KernelPerceptron(gamma=2.0, random_state=0)"
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.predict(X), model.predict(X))
    assert model.set_params(kernel="poly") is model


def test_convergence_warning_on_data_no_kernel_separates():
    X = np.array([[0.0], [0.0], [1.0]])
    with pytest.warns(ConvergenceWarning, match="did not converge in 5 epochs"):
        model = KernelPerceptron(max_iter=5, random_state=0).fit(X, [0, 1, 1])
    assert not model.converged_ and model.n_iter_ == 5


@pytest.mark.parametrize("params,error,match", [
    ({"kernel": "cosine"}, ValueError, "kernel must be one of"),
    ({"kernel": 3}, ValueError, "kernel must be one of"),
    ({"gamma": 0.0}, ValueError, "gamma must be > 0"),
    ({"gamma": -1.0}, ValueError, "gamma must be > 0"),
    ({"gamma": "big"}, ValueError, "gamma must be 'scale', 'auto'"),
    ({"degree": 0}, ValueError, "degree must be >= 1"),
    ({"degree": 2.5}, TypeError, "degree must be an int"),
    ({"degree": 2**40}, ValueError, "degree must be <="),
    ({"coef0": np.nan}, ValueError, "coef0 must be finite"),
    ({"eta0": 0.0}, ValueError, "eta0 must be > 0"),
    ({"max_iter": 0}, ValueError, "max_iter must be >= 1"),
    ({"cache_size": 0}, ValueError, "cache_size must be > 0"),
    ({"max_support_vectors": 0}, ValueError, "max_support_vectors must be >= 1"),
    ({"shuffle": "yes"}, TypeError, "shuffle must be True or False"),
    ({"n_jobs": 0}, ValueError, "n_jobs"),
    ({"random_state": -1}, ValueError, "random_state"),
])
def test_bad_parameters_are_refused_by_name(params, error, match):
    X, y = make_xor(8, random_state=0)
    with pytest.raises(error, match=match):
        KernelPerceptron(**params).fit(X, y)


def test_bad_data_is_refused_and_inputs_are_not_modified():
    X, y = make_xor(8, random_state=0)
    Xc, yc = X.copy(), y.copy()
    model = KernelPerceptron(gamma=1.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(y, yc)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KernelPerceptron().fit(bad, y)
    with pytest.raises(ValueError, match="NaN"):
        model.predict(bad)
    with pytest.raises(ValueError, match="one class"):
        KernelPerceptron().fit(X, np.ones(8))
    with pytest.raises(ValueError, match="3 features"):
        model.predict(np.ones((2, 3)))
    with pytest.raises(ValueError, match="square Gram matrix"):
        KernelPerceptron(kernel="precomputed").fit(np.ones((8, 3)), y)
    with pytest.raises(ValueError, match="expected \\(len\\(X\\), len\\(Y\\)\\)"):
        KernelPerceptron(kernel=lambda A, B: np.ones((2, 2))).fit(X, y)
    with pytest.raises(ValueError, match="kernel callable's result contains NaN"):
        KernelPerceptron(kernel=lambda A, B: np.full((len(A), len(B)), np.nan)).fit(X, y)
    with pytest.raises(NotFittedError):
        KernelPerceptron().predict(X)
    with pytest.raises(FloatingPointError, match="overflowed"):
        KernelPerceptron(kernel="poly", degree=400, gamma=10.0, coef0=10.0).fit(X * 1e3, y)
    with pytest.raises(ValueError, match="kernel must be 'linear'"):
        kernel_matrix(X, kernel="precomputed")


@pytest.mark.slow  # a fresh interpreter per level
def test_every_simd_level_gives_the_same_exact_fit(rng):
    """The loop reads the active table; on integer data every level's sums are
    exact, so a fit in a fresh process at each level gives the same model."""
    import subprocess
    import sys
    code = ("import numpy as np, warnings; from perceptron import KernelPerceptron;"
            "rng = np.random.default_rng(0); X = rng.integers(-3, 4, size=(80, 9)).astype(float);"
            "y = np.where(X @ rng.integers(-2, 3, size=9) > 0, 1, -1); y[::7] *= -1;"
            "warnings.simplefilter('ignore');"
            "m = KernelPerceptron(kernel='poly', degree=2, coef0=1.0, gamma=1.0, max_iter=5,"
            " random_state=0).fit(X, y);"
            "print(m.dual_coef_.tolist(), m.intercept_.tolist(), m.decision_function(X).tolist())")
    outputs = set()
    for level in simd_info()["supported"]:
        env = {**__import__("os").environ, "PERCEPTRON_SIMD": level}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             check=True)
        outputs.add(out.stdout)
    assert len(outputs) == 1

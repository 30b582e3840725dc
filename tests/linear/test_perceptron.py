"""The binary Perceptron against a numpy reference of Rosenblatt's rule, and its API."""
import pickle
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import ConvergenceWarning, NotFittedError, Perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from helpers import quiet_fit
from reference import perceptron_reference


def separable(rng, n, d, dtype=np.float64, integer=False, margin=0.0):
    w = rng.integers(-3, 4, size=d) if integer else rng.standard_normal(d)
    X = rng.integers(-4, 5, size=(n, d)) if integer else rng.standard_normal((n, d))
    s = X @ w + 0.5
    keep = np.abs(s) > margin
    X, s = X[keep], s[keep]
    return X.astype(dtype), np.where(s > 0, 1, -1)


# --------------------------------------------------------------- reference


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("eta", [1.0, 0.5, 3.0])
def test_unshuffled_fit_equals_reference_exactly(dtype, fit_intercept, eta, rng):
    X, y = separable(rng, 200, 13, dtype, integer=True)
    y[::17] *= -1  # not separable any more: many epochs, many updates
    model = quiet_fit(Perceptron(eta0=eta, max_iter=20, shuffle=False, tol=None,
                                 fit_intercept=fit_intercept), X, y)
    w, b, mistakes, loss = perceptron_reference(X, y, eta=eta, max_iter=20,
                                                fit_intercept=fit_intercept)
    np.testing.assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b
    np.testing.assert_array_equal(model.mistakes_, mistakes)
    np.testing.assert_array_equal(model.loss_, loss / len(y))
    assert model.t_ == mistakes.sum()
    assert model.n_iter_ == len(mistakes)
    assert model.coef_.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_shuffled_fit_equals_reference_on_the_same_orders(dtype, rng):
    X, y = separable(rng, 150, 9, dtype, integer=True)
    y[::11] *= -1
    model = quiet_fit(Perceptron(max_iter=15, random_state=42, tol=None), X, y)
    orders = shuffled_orders(len(y), 15, check_random_seed(42))
    w, b, mistakes, _ = perceptron_reference(X, y, max_iter=15, orders=orders)
    np.testing.assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b
    np.testing.assert_array_equal(model.mistakes_, mistakes)


def test_float64_random_data_matches_reference_to_1e12(rng):
    X, y = separable(rng, 400, 25)
    model = Perceptron(max_iter=200, shuffle=False, tol=None).fit(X, y)
    w, b, mistakes, _ = perceptron_reference(X, y, max_iter=200)
    assert model.converged_
    np.testing.assert_array_equal(model.mistakes_, mistakes)
    np.testing.assert_allclose(model.coef_[0], w, rtol=1e-12, atol=1e-12)
    assert model.intercept_[0] == pytest.approx(b, rel=1e-12, abs=1e-12)


def test_float32_agrees_with_float64(rng):
    X, y = separable(rng, 400, 25, margin=0.2)
    m64 = Perceptron(max_iter=200, random_state=0, tol=None).fit(X, y)
    m32 = Perceptron(max_iter=200, random_state=0, tol=None).fit(X.astype(np.float32), y)
    assert m32.coef_.dtype == np.float32 and m64.coef_.dtype == np.float64
    assert m32.converged_ and m64.converged_
    np.testing.assert_array_equal(m32.mistakes_, m64.mistakes_)
    np.testing.assert_allclose(m32.coef_, m64.coef_, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(m32.predict(X), m64.predict(X))


def test_first_example_from_zero_updates():
    # y*a <= 0, not < 0: from w = 0 the first row must update, and a second
    # row landing exactly on the boundary (a = 0) must update too
    X = np.array([[1.0], [-1.0]])
    y = np.array([1, -1])
    model = Perceptron(tol=None, shuffle=False).fit(X, y)
    np.testing.assert_array_equal(model.mistakes_, [2, 0])
    assert model.coef_[0, 0] == 2.0 and model.intercept_[0] == 0.0
    assert model.converged_ and model.n_iter_ == 2


def test_sign_of_zero_is_negative_class():
    model = Perceptron().fit([[1.0], [-1.0]], ["b", "a"])
    model.coef_[:] = 0.0
    model.intercept_[:] = 0.0
    assert model.decision_function([[5.0]])[0] == 0.0
    assert model.predict([[5.0]])[0] == "a"  # classes_[0]


# ------------------------------------------------------------ convergence


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 120), d=st.integers(1, 12),
       gamma=st.floats(0.02, 0.5), shuffle=st.booleans())
def test_updates_never_exceed_the_mistake_bound(seed, n, d, gamma, shuffle):
    # Novikoff's theorem (1962): separable through the origin with margin
    # gamma by a unit w*, ||x|| <= R: at most (R/gamma)^2 updates
    rng = np.random.default_rng(seed)
    w_star = rng.standard_normal(d)
    w_star /= np.linalg.norm(w_star)
    X = rng.standard_normal((n, d))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    X *= rng.uniform(0.2, 1.0, size=(n, 1))
    proj = X @ w_star
    X += np.outer(np.where(proj >= 0, gamma, -gamma), w_star)  # push off the plane
    y = np.where(X @ w_star > 0, 1, -1)
    if len(np.unique(y)) < 2:
        y[0] = -y[0]
        X[0] = -X[0]
    margins = y * (X @ w_star)
    true_gamma = margins.min()
    assert true_gamma >= gamma * 0.999
    R = np.linalg.norm(X, axis=1).max()
    model = Perceptron(tol=None, fit_intercept=False, shuffle=shuffle, random_state=seed,
                       max_iter=100000).fit(X, y)
    assert model.converged_
    assert model.t_ <= (R / true_gamma) ** 2
    assert model.score(X, y) == 1.0


def test_xor_does_not_converge_and_warns():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    y = np.array([0, 1, 1, 0])
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        model = Perceptron(max_iter=50, random_state=0, tol=None).fit(X, y)
    assert not model.converged_
    assert model.n_iter_ == 50
    assert len(model.mistakes_) == 50 and (model.mistakes_ > 0).all()
    assert model.score(X, y) < 1.0


_XOR = (np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float), np.array([0, 1, 1, 0]))


def _fit_xor():
    """A fit that does not converge, called from one line (the warning's place)."""
    return Perceptron(max_iter=5, random_state=0, tol=None).fit(*_XOR)


def _outcome(call):
    """What a call does under the filters in force: the messages of the
    warnings it records, or the category of the warning it raises."""
    with warnings.catch_warnings(record=True) as caught:
        try:
            call()
        except Warning as raised:
            return type(raised)
    return [(w.category, str(w.message), w.lineno) for w in caught]


@pytest.mark.parametrize("setup", [
    lambda line: warnings.simplefilter("always"),
    lambda line: warnings.simplefilter("ignore"),
    lambda line: warnings.simplefilter("ignore", ConvergenceWarning),
    lambda line: warnings.simplefilter("ignore", DeprecationWarning),
    lambda line: warnings.simplefilter("error", ConvergenceWarning),
    lambda line: warnings.filterwarnings("ignore", message="Perceptron did not"),
    lambda line: warnings.filterwarnings("ignore", message="something else"),
    lambda line: warnings.filterwarnings("ignore", module=__name__),
    lambda line: warnings.filterwarnings("ignore", module="elsewhere"),
    lambda line: warnings.filterwarnings("ignore", lineno=line),
    lambda line: warnings.filterwarnings("ignore", lineno=line + 1),
    lambda line: (warnings.simplefilter("always"), warnings.simplefilter("ignore", append=True)),
    lambda line: (warnings.simplefilter("ignore", UserWarning),
                  warnings.simplefilter("always", ConvergenceWarning)),
    lambda line: warnings.resetwarnings(),
    # filters reading the text in front of others, as numpy and scipy add them
    lambda line: (warnings.simplefilter("ignore"),
                  warnings.filterwarnings("ignore", message="something else")),
    lambda line: (warnings.simplefilter("ignore"),
                  warnings.filterwarnings("always", message="something else")),
    lambda line: (warnings.simplefilter("ignore"),
                  warnings.filterwarnings("always", message="Perceptron did not")),
    lambda line: (warnings.simplefilter("always"),
                  warnings.filterwarnings("ignore", message="something else")),
    lambda line: (warnings.simplefilter("always"),
                  warnings.filterwarnings("ignore", message="Perceptron did not")),
], ids=["always", "ignore", "ignore-category", "other-category", "error", "message",
        "other-message", "module", "other-module", "line", "other-line", "first-wins",
        "subclass-first", "no-filter", "ignore-after-other-text-ignored",
        "ignore-after-other-text-shown", "ignore-after-text-shown", "always-after-other-text",
        "always-after-text-ignored"])
def test_convergence_warning_follows_the_filters(setup):
    # the warning is seen (recorded, raised) or not exactly as warnings.warn
    # of its category and message, from the caller of fit, is
    with warnings.catch_warnings(record=True) as first:
        warnings.simplefilter("always")
        _fit_xor()
    (seen,) = first
    assert issubclass(seen.category, ConvergenceWarning)
    assert "did not converge" in str(seen.message)

    def reference():
        warnings.warn_explicit(str(seen.message), seen.category, seen.filename, seen.lineno,
                               module=__name__, registry={})

    def fitted():
        setup(seen.lineno)
        _fit_xor()

    def warned():
        setup(seen.lineno)
        reference()

    assert _outcome(fitted) == _outcome(warned)


def test_convergence_warning_sees_filters_changed_in_place(monkeypatch):
    # the filters' last answer is reused only for the same filters: an entry
    # replaced in place (the list keeps its length) or another default action
    # is seen on the next fit
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        _fit_xor()
        assert not caught
        warnings.filters[0] = ("always", None, Warning, None, 0)
        _fit_xor()
        assert len(caught) == 1 and issubclass(caught[0].category, ConvergenceWarning)
        warnings.resetwarnings()
        monkeypatch.setattr(warnings, "defaultaction", "ignore")
        _fit_xor()
        assert len(caught) == 1
        monkeypatch.setattr(warnings, "defaultaction", "always")
        _fit_xor()
        assert len(caught) == 2


def test_convergence_warning_filter_of_one_line_of_a_caller():
    # two calls of fit from one function, on two lines: a filter of the
    # first line's number ignores its warnings alone, whichever came before
    model = Perceptron(max_iter=5, random_state=0, tol=None)

    def fits(order):
        for which in order:
            if which == "a":
                model.fit(*_XOR)
            else:
                model.fit(*_XOR)
        return fits.__code__.co_firstlineno

    start = fits(())
    line_a, line_b = start + 3, start + 5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=ConvergenceWarning, lineno=line_a)
        fits("aabab")
    assert [w.lineno for w in caught] == [line_b, line_b]
    assert all(issubclass(w.category, ConvergenceWarning) for w in caught)


def test_ignored_convergence_warning_still_trains():
    # a fit whose warning the filters drop is the same fit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiet = _fit_xor()
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        loud = _fit_xor()
    assert np.array_equal(quiet.coef_, loud.coef_)
    assert np.array_equal(quiet.intercept_, loud.intercept_)
    assert np.array_equal(quiet.mistakes_, loud.mistakes_)


def test_separable_data_converges_without_warning(rng):
    X, y = separable(rng, 500, 10, margin=0.3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = Perceptron(tol=None, random_state=0).fit(X, y)
    assert model.converged_ and model.mistakes_[-1] == 0
    assert model.n_iter_ < 1000
    assert model.score(X, y) == 1.0


# ------------------------------------------------------------------ labels


@pytest.mark.parametrize("labels", [
    (-1, 1), (0, 1), (1, 2), (False, True), ("cat", "dog"), (3.0, -2.0), (b"no", b"yes"),
])
def test_any_two_labels(labels, rng):
    X, s = separable(rng, 100, 4, margin=0.2)
    y = np.where(s > 0, labels[1], labels[0]) if not isinstance(labels[0], bytes) else \
        np.array([labels[1] if v > 0 else labels[0] for v in s])
    model = Perceptron(random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.classes_, np.sort(np.array(labels)))
    pred = model.predict(X)
    assert pred.dtype == model.classes_.dtype
    np.testing.assert_array_equal(pred, y)
    # classes_[1] is the positive class
    pos = model.decision_function(X) > 0
    np.testing.assert_array_equal(pred[pos], model.classes_[1])


def test_label_list_input_and_column_vector(rng):
    X, y = separable(rng, 60, 3, margin=0.2)
    m1 = Perceptron(random_state=1).fit(X.tolist(), y.tolist())
    from perceptron import DataConversionWarning
    with pytest.warns(DataConversionWarning):
        m2 = Perceptron(random_state=1).fit(X, y.reshape(-1, 1))
    np.testing.assert_array_equal(m1.coef_, m2.coef_)


# ------------------------------------------------------------- shuffling


def test_shuffle_is_reproducible_and_seed_dependent(rng):
    X, y = separable(rng, 300, 8)
    y[::7] *= -1
    a = quiet_fit(Perceptron(max_iter=5, random_state=3), X, y)
    b = quiet_fit(Perceptron(max_iter=5, random_state=3), X, y)
    c = quiet_fit(Perceptron(max_iter=5, random_state=4), X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)
    g1 = quiet_fit(Perceptron(max_iter=5, random_state=np.random.default_rng(9)), X, y)
    g2 = quiet_fit(Perceptron(max_iter=5, random_state=np.random.default_rng(9)), X, y)
    np.testing.assert_array_equal(g1.coef_, g2.coef_)
    r1 = quiet_fit(Perceptron(max_iter=5, random_state=np.random.RandomState(9)), X, y)
    r2 = quiet_fit(Perceptron(max_iter=5, random_state=np.random.RandomState(9)), X, y)
    np.testing.assert_array_equal(r1.coef_, r2.coef_)


def test_shuffled_orders_are_permutations_and_change_each_epoch():
    orders = shuffled_orders(1000, 4, 123)
    for o in orders:
        np.testing.assert_array_equal(np.sort(o), np.arange(1000))
    assert not np.array_equal(orders[0], orders[1])
    np.testing.assert_array_equal(orders, shuffled_orders(1000, 4, 123))


def test_shuffle_is_roughly_uniform():
    # position of element 0 after one shuffle, over many seeds: uniform on 0..4
    counts = np.zeros(5)
    for seed in range(5000):
        counts[list(shuffled_orders(5, 1, seed)[0]).index(0)] += 1
    expected = 1000.0
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.0  # 4 degrees of freedom: p < 0.001 above 18.5


# ------------------------------------------------------------ warm start


def test_warm_start_continues_from_previous_weights(rng):
    X, y = separable(rng, 200, 6)
    y[::9] *= -1
    full = quiet_fit(Perceptron(max_iter=6, shuffle=False), X, y)
    warm = quiet_fit(Perceptron(max_iter=3, shuffle=False, warm_start=True), X, y)
    quiet_fit(warm, X, y)
    np.testing.assert_array_equal(full.coef_, warm.coef_)
    np.testing.assert_array_equal(full.intercept_, warm.intercept_)
    cold = quiet_fit(Perceptron(max_iter=3, shuffle=False), X, y)
    first = cold.coef_.copy()
    quiet_fit(cold, X, y)
    np.testing.assert_array_equal(cold.coef_, first)


def test_warm_start_refuses_changed_features_or_classes(rng):
    X, y = separable(rng, 50, 4, margin=0.2)
    m = Perceptron(warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.fit(X[:, :3], y)
    with pytest.raises(ValueError, match="classes"):
        m.fit(X, np.where(y > 0, 5, 7))


# -------------------------------------------------------- api and safety


def test_attributes_and_shapes(rng):
    X, y = separable(rng, 80, 5, margin=0.2)
    m = Perceptron(random_state=0).fit(X, y)
    assert m.coef_.shape == (1, 5) and m.intercept_.shape == (1,)
    assert m.n_features_in_ == 5
    assert m.mistakes_.shape == (m.n_iter_,) and m.loss_.shape == (m.n_iter_,)
    assert m.t_ == m.mistakes_.sum()
    assert isinstance(m.converged_, bool)
    dec = m.decision_function(X)
    assert dec.shape == (len(y),) and dec.dtype == np.float64
    np.testing.assert_allclose(dec, X @ m.coef_[0] + m.intercept_[0], rtol=1e-12, atol=1e-12)
    assert m.score(X, y) == np.mean(m.predict(X) == y)


def test_get_set_params_and_repr():
    m = Perceptron(eta0=0.5, random_state=3)
    params = m.get_params()
    assert {k: params[k] for k in ("eta0", "max_iter", "fit_intercept", "shuffle",
                                   "random_state", "warm_start")} == {
        "eta0": 0.5, "max_iter": 1000, "fit_intercept": True, "shuffle": True,
        "random_state": 3, "warm_start": False}
    assert set(params) == {"eta0", "max_iter", "fit_intercept", "shuffle", "random_state",
                           "warm_start", "average", "pocket", "margin", "batch_size",
                           "multiclass", "n_jobs", "early_stopping", "validation_fraction",
                           "n_iter_no_change", "class_weight", "verbose", "callback",
                           "progress", "penalty", "alpha", "l1_ratio", "tol", "mixing",
                           "dtype"}
    assert m.set_params(max_iter=7) is m and m.max_iter == 7
    with pytest.raises(ValueError, match="Invalid parameter 'beta'"):
        m.set_params(beta=1)
    assert repr(m) == "Perceptron(eta0=0.5, max_iter=7, random_state=3)"
    assert repr(Perceptron()) == "Perceptron()"


def test_not_fitted():
    for method in ("predict", "decision_function"):
        with pytest.raises(NotFittedError, match="not fitted"):
            getattr(Perceptron(), method)([[1.0]])


def test_pickle_round_trip(rng):
    X, y = separable(rng, 80, 5, margin=0.2)
    m = Perceptron(random_state=0).fit(X, y)
    m2 = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(m2.predict(X), m.predict(X))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_caller_arrays_are_not_modified(dtype, rng):
    X, y = separable(rng, 100, 6, dtype)
    X2, y2 = X.copy(), y.copy()
    m = quiet_fit(Perceptron(random_state=0), X, y)
    m.predict(X)
    m.decision_function(X)
    m.score(X, y)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


def test_read_only_and_non_contiguous_input(rng):
    X, y = separable(rng, 100, 6, margin=0.2)
    ref = Perceptron(random_state=0).fit(X, y)
    ro = X.copy()
    ro.flags.writeable = False
    np.testing.assert_array_equal(Perceptron(random_state=0).fit(ro, y).coef_, ref.coef_)
    fortran = np.asfortranarray(X)
    np.testing.assert_array_equal(Perceptron(random_state=0).fit(fortran, y).coef_, ref.coef_)
    reversed_view = X[::-1]  # negative stride
    np.testing.assert_array_equal(ref.predict(reversed_view), ref.predict(X)[::-1])
    wide = np.zeros((len(X), 12))
    wide[:, ::2] = X
    np.testing.assert_array_equal(Perceptron(random_state=0).fit(wide[:, ::2], y).coef_, ref.coef_)


def test_integer_and_bool_input_become_float64(rng):
    X = rng.integers(-3, 4, size=(50, 4))
    y = np.where(X @ [1, -2, 3, 1] + 0.5 > 0, 1, 0)
    m = quiet_fit(Perceptron(random_state=0), X, y)
    assert m.coef_.dtype == np.float64
    mb = quiet_fit(Perceptron(random_state=0), X > 0, y)
    assert mb.coef_.dtype == np.float64


def test_float32_fit_makes_no_copy_of_X(rng):
    X = rng.standard_normal((20000, 64)).astype(np.float32)
    y = np.where(X[:, 0] > 0, 1, -1)
    model = Perceptron(max_iter=2, random_state=0)
    tracemalloc.start()
    quiet_fit(model, X, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < X.nbytes / 4, f"fit allocated {peak} bytes for a {X.nbytes}-byte X"


def test_big_endian_input(rng):
    X, y = separable(rng, 60, 3, margin=0.2)
    ref = Perceptron(random_state=0).fit(X, y)
    big = Perceptron(random_state=0).fit(X.astype(">f8"), y)
    np.testing.assert_array_equal(ref.coef_, big.coef_)
    np.testing.assert_array_equal(ref.predict(X.astype(">f8")), ref.predict(X))


def test_large_predict_uses_threads_and_matches(rng):
    X = rng.standard_normal((40000, 64)).astype(np.float32)
    y = np.where(X[:, :3].sum(axis=1) > 0, 1, -1)
    m = quiet_fit(Perceptron(max_iter=3, random_state=0), X, y)
    w = m.coef_[0].astype(np.float64)
    expected = X.astype(np.float64) @ w + m.intercept_[0]
    # float32 dot products: four-product float32 blocks summed in double
    # (csrc/ptn_simd.h), so the error is bounded by the terms' magnitudes
    bound = 4 * 2.0 ** -24 * (np.abs(X.astype(np.float64)) @ np.abs(w)) + 1e-9
    assert np.all(np.abs(m.decision_function(X) - expected) <= bound)

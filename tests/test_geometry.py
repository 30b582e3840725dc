"""perceptron.geometry against hand-computed values and the identities of Bloch 2020 and Wan's note 2."""
import io
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import ConvergenceWarning, KernelPerceptron, NotFittedError, Perceptron, geometry
from perceptron.datasets import make_separable

# The hyperplane 3 x1 + 4 x2 - 5 = 0: ||w|| = 5, at distance 1 from the origin.
W = np.array([3.0, 4.0])
B = -5.0
X = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, 0.5]])  # activations 20, -5, 0


# ------------------------------------------------------------ hand computed


def test_hand_computed_margins_and_distances():
    y = np.array([1, -1, 1])
    np.testing.assert_array_equal(geometry.functional_margin(W, X, y, B), [20.0, 5.0, 0.0])
    np.testing.assert_array_equal(geometry.geometric_margin(W, X, y, B), [4.0, 1.0, 0.0])
    np.testing.assert_array_equal(geometry.signed_distance(W, X, B), [4.0, -1.0, 0.0])
    assert geometry.margin(W, X, y, B) == 0.0
    assert geometry.margin(W, X[:2], y[:2], B) == 1.0
    assert geometry.origin_distance(W, B) == -1.0
    assert geometry.origin_distance(W) == 0.0
    np.testing.assert_allclose(geometry.project(W, X, B)[0], [0.6, 0.8])
    np.testing.assert_array_equal(geometry.project(W, X, B)[2], X[2])  # already on H


def test_hand_computed_loss_and_subgradient():
    y = np.array([-1, -1, 1])  # functional margins -20, 5, 0
    assert geometry.perceptron_loss(W, X, y, B, reduction="sum") == 20.0
    assert geometry.perceptron_loss(W, X, y, B) == pytest.approx(20.0 / 3)
    gw, gb = geometry.perceptron_loss_subgradient(W, X, y, B, reduction="sum")
    np.testing.assert_array_equal(gw, [3.0, 4.0])  # -y_1 x_1 only
    assert gb == 1.0
    gw, gb = geometry.perceptron_loss_subgradient(W, X, y, B)
    np.testing.assert_allclose(gw, [1.0, 4.0 / 3])
    assert gb == pytest.approx(1.0 / 3)
    # the kink at sample 3 (y a = 0): the perceptron's element adds -y_3 x_3
    gw, gb = geometry.perceptron_loss_subgradient(W, X, y, B, reduction="sum", at_zero=1.0)
    np.testing.assert_array_equal(gw, [2.0, 3.5])
    assert gb == 0.0


def test_hand_computed_radius_scaling_and_bound():
    Xb = np.array([[2.0, 0.0], [0.0, -1.0]])
    yb = np.array([1, -1])
    w_star = np.array([1.0, 1.0])  # y w.x = 2, 1; ||w|| = sqrt 2: gamma = 1/sqrt 2
    assert geometry.radius(Xb) == 2.0
    scaled, R = geometry.scale_to_unit_ball(Xb, return_radius=True)
    assert R == 2.0
    np.testing.assert_array_equal(scaled, Xb / 2)
    assert geometry.mistake_bound(Xb, yb, w_star) == pytest.approx(8.0)  # 4 / (1/2)
    # with a bias: R^2 = 4 + 1 on (x, 1), gamma unchanged for b* = 0
    assert geometry.mistake_bound(Xb, yb, w_star, fit_intercept=True) == pytest.approx(10.0)
    # (w*, b*) = (1, 1, 0.5): y (w.x + b) = 2.5, 0.5; norm sqrt(2.25)
    assert geometry.mistake_bound(Xb, yb, w_star, 0.5, fit_intercept=True) == pytest.approx(
        5.0 / (0.5 / 1.5) ** 2)


# ---------------------------------------- identities of the margin and the distance


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 6), n=st.integers(1, 30),
       b=st.floats(-10, 10), scale=st.sampled_from([1e-3, 1.0, 1e3]))
def test_identities_of_the_notes(seed, d, n, b, scale):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d) * scale
    X = rng.standard_normal((n, d)) * 3
    norm = np.linalg.norm(w)
    dist = geometry.signed_distance(w, X, b)
    # Wan, theorem 1: the signed distance is f(x)/||w||
    np.testing.assert_allclose(dist * norm, X @ w + b, rtol=1e-12, atol=1e-9 * (1 + abs(b)))
    # theorem 2: the origin is at b/||w||, the signed distance of x = 0
    assert geometry.origin_distance(w, b) == pytest.approx(
        geometry.signed_distance(w, np.zeros((1, d)), b)[0], rel=1e-12, abs=1e-300)
    P = geometry.project(w, X, b)
    tol = 1e-9 * (1 + np.abs(X).max() * norm + abs(b))
    # projections lie on H ...
    np.testing.assert_allclose(P @ w + b, 0.0, atol=tol)
    # ... at the distance of lemma 1.2, along the normal
    np.testing.assert_allclose(X - P, np.outer(dist, w / norm), atol=1e-9 * (1 + np.abs(X).max()))
    # w is orthogonal to every vector parallel to H (lemma 1.2)
    if n >= 2:
        np.testing.assert_allclose((P[1:] - P[0]) @ w, 0.0, atol=2 * tol)
    # geometric margin = functional / ||w||, and invariant when (w, b) is scaled
    y = np.where(rng.random(n) < 0.5, -1, 1)
    fm = geometry.functional_margin(w, X, y, b)
    np.testing.assert_allclose(geometry.geometric_margin(w, X, y, b), fm / norm, rtol=1e-12)
    np.testing.assert_allclose(geometry.geometric_margin(7.0 * w, X, y, 7.0 * b),
                               fm / norm, rtol=1e-9, atol=1e-12)
    assert geometry.margin(w, X, y, b) == pytest.approx(np.min(fm) / norm, rel=1e-12)
    # the loss is the sum of the negative parts of the functional margins
    assert geometry.perceptron_loss(w, X, y, b, reduction="sum") == pytest.approx(
        np.maximum(0, -fm).sum(), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), at_zero=st.sampled_from([0.0, 0.5, 1.0]),
       reduction=st.sampled_from(["mean", "sum"]))
def test_subgradient_inequality(seed, at_zero, reduction):
    # Bloch 2020, eq. 4: v is a subgradient at theta when l(theta') >= l(theta) + v.(theta' - theta)
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(20, 3)).astype(float)
    y = np.where(rng.random(20) < 0.5, -1, 1)
    w, b = rng.integers(-2, 3, size=3).astype(float), float(rng.integers(-2, 3))  # kinks likely
    gw, gb = geometry.perceptron_loss_subgradient(w, X, y, b, reduction=reduction, at_zero=at_zero)
    loss = geometry.perceptron_loss(w, X, y, b, reduction=reduction)
    for _ in range(20):
        w2, b2 = w + rng.standard_normal(3), b + rng.standard_normal()
        lhs = geometry.perceptron_loss(w2, X, y, b2, reduction=reduction)
        assert lhs >= loss + gw @ (w2 - w) + gb * (b2 - b) - 1e-9


def test_subgradient_is_the_gradient_away_from_kinks(rng):
    X = rng.standard_normal((40, 4))
    y = np.where(rng.random(40) < 0.5, -1, 1)
    w, b = rng.standard_normal(4), 0.3
    gw, gb = geometry.perceptron_loss_subgradient(w, X, y, b)
    eps = 1e-7
    for j in range(4):
        step = np.zeros(4)
        step[j] = eps
        numeric = (geometry.perceptron_loss(w + step, X, y, b)
                   - geometry.perceptron_loss(w - step, X, y, b)) / (2 * eps)
        assert numeric == pytest.approx(gw[j], abs=1e-6)
    numeric_b = (geometry.perceptron_loss(w, X, y, b + eps)
                 - geometry.perceptron_loss(w, X, y, b - eps)) / (2 * eps)
    assert numeric_b == pytest.approx(gb, abs=1e-6)


def test_scaling_to_the_unit_ball_leaves_the_perceptron_unchanged(rng):
    # without a bias and from w = 0, x -> x/R scales every activation by 1/R^2;
    # a power-of-two R makes that exact in floating point
    X = rng.integers(-3, 4, size=(80, 3)).astype(float)
    X[0] = [8.0, 0.0, 0.0]  # R = 8
    y = np.where(X @ [1.0, -2.0, 0.5] > 0.25, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = Perceptron(fit_intercept=False, max_iter=30, random_state=1).fit(X, y)
        scaled = geometry.scale_to_unit_ball(X)
        c = Perceptron(fit_intercept=False, max_iter=30, random_state=1).fit(scaled, y)
    assert np.max(np.linalg.norm(scaled, axis=1)) == 1.0
    np.testing.assert_array_equal(a.mistakes_, c.mistakes_)
    np.testing.assert_array_equal(a.coef_ / 8, c.coef_)


# ----------------------------------------------------- models and raw weights


def test_fitted_model_equals_its_raw_weights_with_labels_mapped():
    ds = make_separable(120, 4, margin=0.1, random_state=3)
    labels = np.where(ds.target > 0, "yes", "no")
    model = Perceptron(random_state=0).fit(ds.data, labels)
    w, b = model.coef_[0], float(model.intercept_[0])
    signs = np.where(labels == "yes", 1, -1)
    np.testing.assert_allclose(geometry.functional_margin(model, ds.data, labels),
                               geometry.functional_margin(w, ds.data, signs, b))
    assert geometry.margin(model, ds.data, labels) == pytest.approx(
        geometry.margin(w, ds.data, signs, b))
    assert geometry.margin(model, ds.data, labels) > 0  # converged: it separates
    assert geometry.origin_distance(model) == pytest.approx(b / np.linalg.norm(w))
    assert geometry.perceptron_loss(model, ds.data, labels) == 0.0
    gw, gb = geometry.perceptron_loss_subgradient(model, ds.data, labels)
    assert not gw.any() and gb == 0.0


def test_kernel_perceptron_with_the_linear_kernel_is_a_linear_model():
    ds = make_separable(100, 3, margin=0.1, random_state=4)
    kp = KernelPerceptron(kernel="linear", random_state=0).fit(ds.data, ds.target)
    assert geometry.margin(kp, ds.data, ds.target) > 0
    np.testing.assert_allclose(geometry.signed_distance(kp, ds.data) * np.linalg.norm(kp.coef_),
                               kp.decision_function(ds.data), rtol=1e-10, atol=1e-12)


def test_report_prints_and_returns_the_geometry():
    ds = make_separable(150, 5, margin=0.08, random_state=7)
    model = Perceptron(fit_intercept=False, random_state=0).fit(ds.data, ds.target)
    out = io.StringIO()
    rep = model.report(ds.data, ds.target, ds.coef, file=out)
    text = out.getvalue()
    assert rep.n_updates == model.t_ and rep.n_iter == model.n_iter_ and rep.converged
    assert rep.radius == pytest.approx(ds.radius)
    assert rep.star_margin == pytest.approx(ds.margin)
    assert rep.bound == pytest.approx((ds.radius / ds.margin) ** 2)
    assert rep.within_bound and rep.separates and rep.margin > 0 and rep.loss == 0.0
    assert str(rep) in text and "updates made" in text and "(R/gamma)^2" in text
    assert f"{model.t_}" in text
    # the bias-learning model gets the bound on (x, 1)
    model = Perceptron(random_state=0).fit(ds.data, ds.target)
    rep = geometry.report(model, ds.data, ds.target, ds.coef, verbose=False)
    assert rep.bound == pytest.approx((ds.radius**2 + 1) / ds.margin**2)
    # without a separator: no bound, and nothing printed when not verbose
    out = io.StringIO()
    rep = geometry.report(model, ds.data, ds.target, file=out, verbose=False)
    assert rep.bound is None and out.getvalue() == ""
    assert "not computed" in str(rep)


# ----------------------------------------------------------------- errors


def test_bad_input_is_refused_clearly():
    y = np.array([1, -1, 1])
    with pytest.raises(ValueError, match="zero vector"):
        geometry.signed_distance(np.zeros(2), X)
    with pytest.raises(ValueError, match="3 features but the hyperplane has 2"):
        geometry.signed_distance(W, np.ones((2, 3)))
    with pytest.raises(ValueError, match="-1 and \\+1"):
        geometry.functional_margin(W, X, np.array([0, 1, 1]))
    with pytest.raises(ValueError, match="X has 3 samples but y has 2"):
        geometry.functional_margin(W, X, y[:2])
    with pytest.raises(ValueError, match="NaN"):
        geometry.signed_distance(W, np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="w contains"):
        geometry.signed_distance([np.inf, 1.0], X)
    with pytest.raises(ValueError, match="1-D array"):
        geometry.signed_distance(np.ones((2, 2)), X)
    with pytest.raises(TypeError, match="b must be a real number"):
        geometry.signed_distance(W, X, "5")
    with pytest.raises(ValueError, match="reduction"):
        geometry.perceptron_loss(W, X, y, B, reduction="max")
    with pytest.raises(ValueError, match="at_zero"):
        geometry.perceptron_loss_subgradient(W, X, y, B, at_zero=2.0)
    with pytest.raises(ValueError, match="does not separate"):
        geometry.mistake_bound(X, y, W, B, fit_intercept=True)
    with pytest.raises(ValueError, match="fit_intercept=True"):
        geometry.mistake_bound(X, y, W, B)
    with pytest.raises(ValueError, match="every row of X is zero"):
        geometry.scale_to_unit_ball(np.zeros((3, 2)))
    with pytest.raises(NotFittedError):
        geometry.margin(Perceptron(), X, y)
    model = Perceptron(random_state=0).fit(X[:2], [1, -1])
    with pytest.raises(ValueError, match="do not pass b"):
        geometry.signed_distance(model, X, 1.0)
    with pytest.raises(ValueError, match="labels the model does not know"):
        geometry.margin(model, X, [1, -1, 7])


def test_caller_arrays_are_not_modified():
    Xc, wc = X.copy(), W.copy()
    y = np.array([1, -1, 1])
    for fn in (lambda: geometry.project(W, X, B), lambda: geometry.scale_to_unit_ball(X),
               lambda: geometry.perceptron_loss_subgradient(W, X, y, B)):
        fn()
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(W, wc)


# ---------------------------------------------------- the convergence bound


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 150), d=st.integers(1, 8),
       margin=st.floats(0.05, 0.5), shuffle=st.booleans())
def test_updates_never_exceed_the_bound(seed, n, d, margin, shuffle):
    """Novikoff: from w = 0 on data separable with margin gamma in a ball of
    radius R, the perceptron makes at most (R/gamma)^2 updates."""
    ds = make_separable(n, d, margin=margin, radius=1.0, random_state=seed)
    X, y = ds.data, ds.target
    if len(np.unique(y)) < 2:
        return
    bound = geometry.mistake_bound(X, y, ds.coef)
    assert bound == pytest.approx((ds.radius / ds.margin) ** 2)
    assert bound <= (1.0 / margin) ** 2 * (1 + 1e-9)
    plain = Perceptron(tol=None, fit_intercept=False, shuffle=shuffle, random_state=seed).fit(X, y)
    assert plain.converged_ and plain.t_ <= bound
    biased = Perceptron(tol=None, shuffle=shuffle, random_state=seed).fit(X, y)
    assert biased.converged_
    assert biased.t_ <= geometry.mistake_bound(X, y, ds.coef, fit_intercept=True)
    dual = KernelPerceptron(kernel="linear", fit_intercept=False, shuffle=shuffle,
                            random_state=seed).fit(X, y)
    assert dual.converged_ and dual.t_ <= bound

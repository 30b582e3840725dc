"""is_linearly_separable: agreement with construction, and every certificate
checked independently of the code that produced it."""
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("scipy")

from perceptron import ConvergenceWarning, Perceptron  # noqa: E402
from perceptron.datasets import (load_breast_cancer, make_circles, make_separable,  # noqa: E402
                                 make_xor)
from perceptron.geometry import is_linearly_separable  # noqa: E402


def signs_of(y, classes):
    return np.where(np.asarray(y) == classes[1], 1.0, -1.0)


def assert_separator(result, X, y):
    """The hyperplane separates every sample strictly, with the margin claimed."""
    assert result.separable and bool(result)
    s = signs_of(y, result.classes)
    assert np.linalg.norm(result.coef) == pytest.approx(1.0, rel=1e-12)
    fm = s * (np.asarray(X, dtype=np.float64) @ result.coef + result.intercept)
    assert np.all(fm > 0)
    assert result.margin == pytest.approx(fm.min(), rel=1e-9)


def assert_hulls_meet(result, X, y):
    """A convex combination of positive samples equals one of negative samples."""
    assert not result.separable and not bool(result)
    X = np.asarray(X, dtype=np.float64)
    s = signs_of(y, result.classes)
    for idx, wts, sign in ((result.positive_indices, result.positive_weights, 1.0),
                           (result.negative_indices, result.negative_weights, -1.0)):
        assert len(idx) >= 1 and np.all(s[idx] == sign)
        assert np.all(wts >= 0) and wts.sum() == pytest.approx(1.0, abs=1e-12)
    p = result.positive_weights @ X[result.positive_indices]
    q = result.negative_weights @ X[result.negative_indices]
    scale = 1.0 + np.abs(X).max()
    assert np.linalg.norm(p - q) <= 1e-9 * scale
    assert result.residual == pytest.approx(np.linalg.norm(p - q), abs=1e-12 * scale)
    np.testing.assert_allclose(result.point, p, atol=1e-9 * scale)
    # Caratheodory: a vertex of the certificate polytope needs few samples
    assert len(result.positive_indices) + len(result.negative_indices) <= X.shape[1] + 2


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("d", [1, 2, 5, 12])
def test_separable_by_construction(seed, d):
    ds = make_separable(80, d, margin=0.05, random_state=seed)
    result = is_linearly_separable(ds.data, ds.target)
    assert_separator(result, ds.data, ds.target)
    # the construction's hyperplane has margin ds.margin; the program's own one
    # maximises a box-normalised margin, so only its positivity is guaranteed
    assert result.margin > 0


@pytest.mark.parametrize("seed", range(8))
def test_not_separable_by_construction(seed):
    ds = make_separable(60, 3, margin=0.05, random_state=seed)
    X, y = ds.data.copy(), ds.target.copy()
    # a point inside the hull of three negative samples, labelled positive
    neg = np.flatnonzero(y < 0)[:3]
    weights = np.array([0.2, 0.3, 0.5])
    X = np.vstack([X, weights @ X[neg]])
    y = np.append(y, 1)
    result = is_linearly_separable(X, y)
    assert_hulls_meet(result, X, y)
    # the perceptron cannot converge on it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        assert not Perceptron(max_iter=50, random_state=0).fit(X, y).converged_


def test_xor_is_not_separable_and_the_certificate_is_the_centre():
    X, y = make_xor(4, noise=0.0)
    result = is_linearly_separable(X, y)
    assert_hulls_meet(result, X, y)
    np.testing.assert_allclose(result.point, [0.5, 0.5], atol=1e-12)
    assert sorted(result.positive_indices.tolist()) == [1, 2]
    assert sorted(result.negative_indices.tolist()) == [0, 3]
    np.testing.assert_allclose(result.positive_weights, [0.5, 0.5])
    assert "not linearly separable" in str(result)


@pytest.mark.parametrize("make", [lambda: make_xor(200, random_state=0),
                                  lambda: make_circles(200, random_state=0)])
def test_noisy_xor_and_circles_are_not_separable(make):
    X, y = make()
    assert_hulls_meet(is_linearly_separable(X, y), X, y)


def test_one_feature_and_labels_of_any_kind():
    X = np.array([[0.0], [2.0], [1.0]])
    result = is_linearly_separable(X, ["low", "low", "mid"])
    assert_hulls_meet(result, X, ["low", "low", "mid"])
    np.testing.assert_allclose(result.point, [1.0])
    ok = is_linearly_separable(np.array([[0.0], [1.0], [2.0], [3.0]]), [False, False, True, True])
    assert_separator(ok, [[0.0], [1.0], [2.0], [3.0]], [False, False, True, True])
    assert "linearly separable" in str(ok)


def test_the_same_point_in_both_classes():
    X = np.array([[1.0, 1.0], [1.0, 1.0], [3.0, 0.0]])
    result = is_linearly_separable(X, [1, -1, 1])
    assert_hulls_meet(result, X, [1, -1, 1])


def test_the_demo_data_is_separable_with_a_tiny_margin():
    # The perceptron never converges on it in 1000 epochs (the README's demo):
    # not because no hyperplane exists, but because (R/gamma)^2 is astronomic.
    ds = load_breast_cancer()
    result = is_linearly_separable(ds.data, ds.target)
    assert_separator(result, ds.data, ds.target)
    R = np.linalg.norm(ds.data, axis=1).max()
    assert (R / result.margin) ** 2 > 1e12


def test_errors_and_inputs_untouched():
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    Xc = X.copy()
    with pytest.raises(ValueError, match="1 classes"):
        is_linearly_separable(X, [1, 1])
    with pytest.raises(ValueError, match="3 classes"):
        is_linearly_separable(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="NaN"):
        is_linearly_separable(np.array([[np.nan, 0.0], [1.0, 1.0]]), [0, 1])
    is_linearly_separable(X, [0, 1])
    np.testing.assert_array_equal(X, Xc)


def test_a_clear_message_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    with pytest.raises(ImportError, match="pip install scipy"):
        is_linearly_separable(np.eye(2), [0, 1])

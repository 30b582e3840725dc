"""The synthetic data sets: their promised geometry, determinism and errors."""
import numpy as np
import pytest

from perceptron.datasets import Dataset, SeparableDataset, make_circles, make_separable, make_xor


@pytest.mark.parametrize("d", [1, 2, 7, 40])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_make_separable_keeps_its_promises(d, dtype):
    ds = make_separable(500, d, margin=0.15, radius=2.5, random_state=3, dtype=dtype)
    assert isinstance(ds, SeparableDataset) and isinstance(ds, Dataset)
    X, y = ds
    assert X.shape == (500, d) and X.dtype == dtype and set(np.unique(y)) == {-1, 1}
    assert np.linalg.norm(ds.coef) == pytest.approx(1.0, rel=1e-12) and ds.intercept == 0.0
    X64 = X.astype(np.float64)
    fm = y * (X64 @ ds.coef)
    norms = np.linalg.norm(X64, axis=1)
    # the reported gamma and R are the data's own ...
    assert ds.margin == pytest.approx(fm.min(), rel=1e-12)
    assert ds.radius == pytest.approx(norms.max(), rel=1e-12)
    # ... and keep the requested bounds (up to the rounding of the dtype)
    slack = 1e-6 if dtype == np.float32 else 1e-12
    assert ds.margin >= 0.15 - slack and ds.radius <= 2.5 + slack
    # the points fill the shell between margin and radius, not just its edges
    assert fm.max() > 1.5 and np.median(norms) > 1.0


def test_generators_are_deterministic_from_random_state():
    for make in (lambda s: make_separable(50, 3, random_state=s),
                 lambda s: make_xor(50, random_state=s),
                 lambda s: make_circles(50, random_state=s)):
        a, b, c = make(7), make(7), make(8)
        np.testing.assert_array_equal(a.data, b.data)
        np.testing.assert_array_equal(a.target, b.target)
        assert not np.array_equal(a.data, c.data)
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    np.testing.assert_array_equal(make_xor(20, random_state=g1).data,
                                  make_xor(20, random_state=g2).data)
    np.testing.assert_array_equal(make_xor(20, random_state=np.random.RandomState(1)).data,
                                  make_xor(20, random_state=np.random.RandomState(1)).data)


def test_make_xor_is_the_truth_table():
    X, y = make_xor(4, noise=0.0)
    np.testing.assert_array_equal(X, [[0, 0], [0, 1], [1, 0], [1, 1]])
    np.testing.assert_array_equal(y, [-1, 1, 1, -1])
    X, y = make_xor(400, noise=0.05, random_state=0)
    corner = np.rint(X).astype(int)
    np.testing.assert_array_equal(y, np.where(corner[:, 0] ^ corner[:, 1], 1, -1))
    assert np.all(np.bincount(corner[:, 0] * 2 + corner[:, 1]) == 100)


def test_make_circles_has_two_rings():
    X, y = make_circles(401, factor=0.3, noise=0.0, random_state=0)
    r = np.linalg.norm(X, axis=1)
    np.testing.assert_allclose(r[y == 1], 0.3)
    np.testing.assert_allclose(r[y == -1], 1.0)
    assert (y == 1).sum() == 200 and (y == -1).sum() == 201


@pytest.mark.parametrize("call,match", [
    (lambda: make_separable(10, 2, margin=1.0, radius=1.0), "margin must be smaller than radius"),
    (lambda: make_separable(10, 2, margin=0.0), "margin must be > 0"),
    (lambda: make_separable(0, 2), "n_samples must be >= 1"),
    (lambda: make_separable(10, 0), "n_features must be >= 1"),
    (lambda: make_separable(10, 2, radius=-1.0), "radius must be > 0"),
    (lambda: make_separable(10, 2, dtype=np.int32), "dtype must be float32 or float64"),
    (lambda: make_xor(10, noise=-0.1), "noise must be >= 0"),
    (lambda: make_xor(10, random_state=-3), "random_state"),
    (lambda: make_circles(10, factor=1.0), "factor must be < 1"),
    (lambda: make_circles(1), "n_samples must be >= 2"),
])
def test_bad_arguments_are_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()

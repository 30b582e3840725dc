"""VotedPerceptron and CentroidClassifier against references of their papers/notes."""
import numpy as np
import pytest

from perceptron import CentroidClassifier, NotFittedError, Perceptron, VotedPerceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from reference import voted_reference


def integer_data(rng, n, d, noise=0.15, dtype=np.float64):
    X = rng.integers(-4, 5, size=(n, d)).astype(dtype)
    y = np.where(X @ rng.integers(-3, 4, size=d) + 0.5 > 0, 1, -1)
    flip = rng.random(n) < noise
    y[flip] *= -1
    return X, y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_voted_equals_freund_schapire_reference(dtype, shuffle, rng):
    X, y = integer_data(rng, 120, 6, dtype=dtype)
    m = VotedPerceptron(max_iter=5, shuffle=shuffle, random_state=8).fit(X, y)
    orders = shuffled_orders(len(y), 5, check_random_seed(8)) if shuffle else None
    ref, mistakes = voted_reference(X, y, max_iter=5, orders=orders)
    assert len(m.vectors_) == 1
    np.testing.assert_array_equal(m.vectors_[0], np.array([v for v, _, _ in ref]))
    np.testing.assert_array_equal(m.vector_intercepts_[0], [b for _, b, _ in ref])
    np.testing.assert_array_equal(m.vector_counts_[0], [c for _, _, c in ref])
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    # the counts add up to every example seen: each step adds 1 to one vector
    assert m.vector_counts_[0].sum() == len(y) * m.n_iter_
    votes = sum(c * np.where(X @ v.astype(np.float64) + b > 0, 1, -1) for v, b, c in ref)
    total = sum(c for _, _, c in ref)
    np.testing.assert_allclose(m.decision_function(X), votes / total)
    np.testing.assert_array_equal(m.predict(X), np.where(votes > 0, 1, -1))


def test_voted_budget_keeps_the_heaviest_voters(rng):
    X, y = integer_data(rng, 200, 5, noise=0.3)
    full = VotedPerceptron(max_iter=4, random_state=1).fit(X, y)
    small = VotedPerceptron(max_iter=4, random_state=1, max_vectors=10).fit(X, y)
    assert len(small.vectors_[0]) == 10
    assert small.n_vectors_evicted_ > 0
    top = np.sort(full.vector_counts_[0])[::-1][:10]
    np.testing.assert_array_equal(np.sort(small.vector_counts_[0])[::-1], top)
    kept = {v.tobytes() for v in full.vectors_[0]}
    assert all(v.tobytes() in kept for v in small.vectors_[0])


def test_voted_multiclass_and_generalisation(rng):
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_digits(return_X_y=True)
    X = X / 16.0
    m = VotedPerceptron(max_iter=10, random_state=0, n_jobs=2).fit(X[:1400], y[:1400])
    assert len(m.vectors_) == 10
    assert m.decision_function(X[:3]).shape == (3, 10)
    assert m.score(X[1400:], y[1400:]) > 0.88


def test_voted_validation(rng):
    X, y = integer_data(rng, 20, 3)
    with pytest.raises(NotFittedError):
        VotedPerceptron().predict(X)
    with pytest.raises(ValueError, match="max_vectors must be >= 1"):
        VotedPerceptron(max_vectors=0).fit(X, y)
    m = VotedPerceptron().fit(X, y)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        m.predict(bad)
    with pytest.raises(ValueError, match="NaN or infinity"):
        VotedPerceptron().fit(bad, y)


def test_centroid_binary_formula(rng):
    X = rng.standard_normal((100, 4))
    y = np.where(rng.random(100) > 0.4, "P", "N")
    m = CentroidClassifier().fit(X, y)
    assert list(m.classes_) == ["N", "P"]  # classes_[1] = "P" is the positive class C
    mu_c, mu_x = X[y == "P"].mean(axis=0), X[y == "N"].mean(axis=0)
    np.testing.assert_allclose(m.centroids_, [mu_x, mu_c], rtol=1e-12)
    f = (mu_c - mu_x) @ X.T - (mu_c @ mu_c - mu_x @ mu_x) / 2
    np.testing.assert_allclose(m.decision_function(X), f, rtol=1e-10, atol=1e-12)
    nearest = np.where(np.linalg.norm(X - mu_c, axis=1) < np.linalg.norm(X - mu_x, axis=1),
                       "P", "N")
    np.testing.assert_array_equal(m.predict(X), nearest)


def test_centroid_multiclass_nearest_mean_and_weights(rng):
    X = rng.standard_normal((300, 3)).astype(np.float32)
    y = rng.integers(0, 4, size=300)
    sw = rng.random(300)
    m = CentroidClassifier().fit(X, y, sample_weight=sw)
    mus = np.array([np.average(X[y == k], axis=0, weights=sw[y == k]) for k in range(4)])
    np.testing.assert_allclose(m.centroids_, mus, rtol=1e-5)
    dist = np.linalg.norm(X[:, None, :] - mus[None], axis=2)
    np.testing.assert_array_equal(m.predict(X), np.argmin(dist, axis=1))
    assert m.coef_.dtype == np.float32


def test_perceptron_beats_centroid_on_a9a(a9a_path):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(a9a_path), n_features=123)
    X = X.toarray()
    train, test = slice(0, 24000), slice(24000, None)
    c = CentroidClassifier().fit(X[train], y[train]).score(X[test], y[test])
    p = Perceptron(average=True, max_iter=5, random_state=0)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = p.fit(X[train], y[train]).score(X[test], y[test])
    assert a > c > 0.6

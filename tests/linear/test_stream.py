"""Out-of-core training: fit_stream over chunks, memory-mapped arrays."""
import warnings

import numpy as np
import pytest

from perceptron import ConvergenceWarning, Perceptron


def data(rng, n=900, d=12, k=2):
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    w = rng.integers(-2, 3, size=(k, d))
    y = np.argmax(X @ w.T + rng.integers(0, 2, size=(n, k)), axis=1) if k > 2 else \
        np.where(X @ w[0] > 0, "yes", "no")
    return X, y


@pytest.mark.parametrize("params", [{}, {"average": True}, {"margin": 1.0},
                                    {"multiclass": "multinomial"}, {"batch_size": 16}])
@pytest.mark.parametrize("chunk_rows", [1000, 128, 7])
def test_stream_without_shuffling_equals_fit(rng, params, chunk_rows):
    X, y = data(rng, k=3 if "multiclass" in params else 2)
    ref = Perceptron(shuffle=False, max_iter=6, random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref.fit(X, y)
    if "batch_size" in params and chunk_rows < len(X) and chunk_rows % params["batch_size"]:
        pytest.skip("mini-batches cut at chunk ends differ from batches over all rows")
    m = Perceptron(shuffle=False, max_iter=6, random_state=0, **params)
    m.fit_stream((X, y), chunk_rows=chunk_rows)
    np.testing.assert_array_equal(m.coef_, ref.coef_)
    np.testing.assert_array_equal(m.intercept_, ref.intercept_)
    np.testing.assert_array_equal(m.mistakes_, ref.mistakes_)
    np.testing.assert_array_equal(m.updates_, ref.updates_)
    assert m.n_iter_ == ref.n_iter_ and m.converged_ == ref.converged_
    np.testing.assert_allclose(m.loss_, ref.loss_, rtol=1e-12)
    np.testing.assert_array_equal(m.predict(X), ref.predict(X))


def test_memory_mapped_npy_is_read_in_views(tmp_path, rng):
    X, y = data(rng, n=2000)
    np.save(tmp_path / "X.npy", X)
    Xm = np.load(tmp_path / "X.npy", mmap_mode="r")
    a = Perceptron(shuffle=False, max_iter=4).fit_stream((Xm, y), chunk_rows=300)
    b = Perceptron(shuffle=False, max_iter=4).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    # fit itself takes the memory map without copying it
    c = Perceptron(shuffle=False, max_iter=4).fit(Xm, y)
    np.testing.assert_array_equal(c.coef_, b.coef_)


def test_callables_lists_and_one_shot_iterators(rng):
    X, y = data(rng)
    chunks = [(X[i:i + 100], y[i:i + 100]) for i in range(0, len(X), 100)]
    a = Perceptron(max_iter=3, random_state=1).fit_stream(chunks)
    b = Perceptron(max_iter=3, random_state=1).fit_stream(lambda: iter(chunks))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    c = Perceptron(max_iter=1, random_state=1).fit_stream(iter(chunks), classes=["no", "yes"])
    assert c.n_iter_ == 1
    with pytest.raises(ValueError, match="can be read once"):
        Perceptron(max_iter=3).fit_stream(iter(chunks), classes=["no", "yes"])


def test_stream_refits_from_scratch_and_checks_arguments(rng):
    X, y = data(rng)
    m = Perceptron(max_iter=2).fit(X[:, :5], y)
    m.fit_stream((X, y), chunk_rows=100)  # a new fit: other features are fine
    assert m.n_features_in_ == X.shape[1]
    with pytest.raises(ValueError, match="chunk_rows"):
        m.fit_stream((X, y), chunk_rows=0)
    with pytest.raises(ValueError, match="must match"):
        m.fit_stream((X, y[:-1]))
    with pytest.raises(TypeError, match="source"):
        m.fit_stream(42)
    with pytest.raises(ValueError, match="early_stopping"):
        Perceptron(early_stopping=True).fit_stream((X, y))

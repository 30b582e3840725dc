"""Out-of-core training: fit_stream over chunks, memory-mapped arrays."""
import warnings

import numpy as np
import pytest

from perceptron import ConvergenceWarning, Perceptron
from helpers import narrow_dtypes


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


# ------------------------------------------- row blocks stored narrow

def narrow_data(rng, dtype, n=900, d=12, k=2):
    """Small integers stored as `dtype` (every sum of them exact), the labels
    of a linear rule on them."""
    low = 0 if np.dtype(dtype).kind == "u" else -3
    X = rng.integers(low, 4, size=(n, d)).astype(dtype)
    w = rng.integers(-2, 3, size=(k, d))
    Xf = X.astype(np.float64) - (1.5 if low == 0 else 0.0)
    y = np.argmax(Xf @ w.T + rng.integers(0, 2, size=(n, k)), axis=1) if k > 2 else \
        (Xf @ w[0] > 0).astype(int)
    return X, y


@pytest.mark.parametrize("dtype", narrow_dtypes(), ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("params", [{}, {"average": True}, {"multiclass": "multinomial"}])
def test_stream_of_narrow_blocks_equals_float32_and_reference(rng, dtype, params):
    """Blocks of float16, bfloat16, int8 or uint8 rows train as stored: float32
    weights, bit for bit those of the stream of the blocks converted to float32
    first, of fit on the whole array, and (binary) of the published rule on
    the converted rows."""
    from reference import family_reference

    k = 3 if "multiclass" in params else 2
    X, y = narrow_data(rng, dtype, k=k)
    kw = dict(shuffle=False, max_iter=5, tol=None, random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = Perceptron(**kw).fit_stream((X, y), chunk_rows=128)
        b = Perceptron(**kw).fit_stream((X.astype(np.float32), y), chunk_rows=128)
        c = Perceptron(**kw).fit(X, y)
    for other in (b, c):
        assert a.coef_.dtype == other.coef_.dtype == np.float32
        np.testing.assert_array_equal(a.coef_, other.coef_)
        np.testing.assert_array_equal(a.intercept_, other.intercept_)
        np.testing.assert_array_equal(a.mistakes_, other.mistakes_)
        np.testing.assert_array_equal(a.updates_, other.updates_)
    if not params:
        w, bias, mistakes, updates, _ = family_reference(
            X.astype(np.float32), np.where(y == 1, 1, -1), max_iter=5)
        np.testing.assert_array_equal(a.coef_[0], w)
        assert a.intercept_[0] == bias
        np.testing.assert_array_equal(a.mistakes_, mistakes)
    np.testing.assert_array_equal(a.decision_function(X), c.decision_function(X))


def test_stream_of_narrow_memory_map_makes_no_wide_copy(tmp_path, rng):
    """A float16 memory map streamed in blocks: each block is read as stored,
    so the process allocates far less than one float32 copy of a block."""
    import tracemalloc

    n, d, chunk = 8000, 256, 2000
    X = (rng.standard_normal((n, d)) * 3).astype(np.float16)
    y = (X[:, :4].astype(np.float64).sum(axis=1) > 0).astype(int)
    np.save(tmp_path / "X.npy", X)
    Xm = np.load(tmp_path / "X.npy", mmap_mode="r")
    est = Perceptron(max_iter=2, random_state=0)
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit_stream((Xm, y), chunk_rows=chunk, classes=[0, 1])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert est.coef_.dtype == np.float32
    # a float32 copy of one block is chunk * d * 4 bytes (2 MB); the stream
    # keeps O(d) weights and a block's row order and labels
    assert peak < chunk * d * 4 / 4
    ref = Perceptron(max_iter=2, random_state=0).fit_stream((X.astype(np.float32), y),
                                                            chunk_rows=chunk, classes=[0, 1])
    np.testing.assert_array_equal(est.coef_, ref.coef_)


def test_stream_mixing_block_dtypes(rng):
    """Narrow blocks and float32 blocks feed one float32 model; after a
    float64 block (float64 weights) a narrow block is read as stored, each
    row widened as it is read: the model of the blocks in float64."""
    X, y = narrow_data(rng, np.int8)
    half = len(X) // 2
    mixed = [(X[:half], y[:half]), (X[half:].astype(np.float32), y[half:])]
    a = Perceptron(shuffle=False, max_iter=3, random_state=0).fit_stream(mixed)
    b = Perceptron(shuffle=False, max_iter=3, random_state=0).fit_stream(
        (X.astype(np.float32), y), chunk_rows=half)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    wide_first = [(X[:half].astype(np.float64), y[:half]), (X[half:], y[half:])]
    c = Perceptron(shuffle=False, max_iter=2).fit_stream(wide_first)
    d = Perceptron(shuffle=False, max_iter=2).fit_stream((X.astype(np.float64), y),
                                                          chunk_rows=half)
    assert c.coef_.dtype == np.float64
    np.testing.assert_array_equal(c.coef_, d.coef_)

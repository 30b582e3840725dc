"""predict's compiled class picking against numpy's argmax over the activations.

predict no longer writes the (n, k) activations: the scoring loop picks each
row's class (``a > 0`` for one row of weights, else the first largest
activation, as ``numpy.argmax`` does).  The activations are the same
operations as ``decision_function``'s, so the classes must be exactly those
of the numpy rule applied to ``decision_function``.
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron._linear_base import linear_decision, linear_predict_index
from perceptron._validation import check_X


def numpy_rule(scores):
    if scores.shape[1] == 1:
        return (scores[:, 0] > 0).astype(np.intp)
    return np.argmax(scores, axis=1)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 20), k=st.integers(1, 6),
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 2**32 - 1),
       ties=st.booleans(), sparse=st.booleans(), threads=st.sampled_from([1, 2]))
def test_matches_argmax_of_decision(n, d, k, dtype, seed, ties, sparse, threads):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(dtype)  # small integers: exact ties happen
    W = rng.integers(-2, 3, size=(k, d)).astype(dtype)
    b = rng.integers(-1, 2, size=k).astype(np.float64)
    if ties and k > 1:
        W[-1] = W[0]
        b[-1] = b[0]
    if sparse:
        sp = pytest.importorskip("scipy.sparse")
        X = sp.csr_matrix(X)
    Xc = check_X(X, accept_sparse=True)
    expected = numpy_rule(linear_decision(Xc, W, b, threads))
    np.testing.assert_array_equal(linear_predict_index(Xc, W, b, threads), expected)


def test_infinite_activations_pick_as_argmax():
    X = np.array([[1.0, 1.0], [1.0, -1.0]])
    W = np.array([[1e308, 1e308], [1e308, 1e308], [0.0, 1.0]])
    b = np.zeros(3)
    expected = numpy_rule(linear_decision(X, W, b, 1))
    np.testing.assert_array_equal(linear_predict_index(X, W, b, 1), expected)


def test_overflow_to_nan_raises():
    X = np.array([[1.0, -1.0]])
    W = np.array([[np.inf, np.inf]])  # inf - inf: NaN
    with pytest.raises(ValueError, match="overflowed"):
        linear_predict_index(X, W, np.zeros(1), 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_labels_taken_per_thread_equal_classes_of_the_indices(rng, threads, monkeypatch):
    from perceptron import _parallel

    from perceptron import _linear_base

    monkeypatch.setattr(_parallel, "PARALLEL_MIN_WORK", 1)
    monkeypatch.setattr(_linear_base, "_PREDICT_BLOCK", 7)  # several blocks a thread
    X = rng.standard_normal((50, 4))
    W = rng.standard_normal((3, 4))
    classes = np.array(["ant", "bee", "cicada"])
    index = linear_predict_index(X, W, np.zeros(3), threads)
    np.testing.assert_array_equal(linear_predict_index(X, W, np.zeros(3), threads, classes),
                                  classes[index])

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

from perceptron.linear._base import linear_decision, linear_predict_index
from perceptron._common.validation import check_X


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


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300), k=st.sampled_from([1, 2, 3, 5, 33, 700]),
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 2**32 - 1),
       infinite=st.booleans(), sparse=st.booleans(), labels=st.booleans())
def test_matches_argmax_across_blocks(n, k, dtype, seed, infinite, sparse, labels):
    # rows are scored and picked a block at a time (64 rows, fewer for many
    # classes): blocks whole and partial, some with infinite activations,
    # which take the row-by-row pick, beside blocks without
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, 4)).astype(dtype)
    W = rng.integers(-2, 3, size=(k, 4)).astype(dtype)
    b = rng.integers(-1, 2, size=k).astype(np.float64)
    if infinite:
        big = np.finfo(dtype).max
        W[:, 0] = rng.choice([-big, big], size=k)  # rows with x_0 != 0 overflow
        W[:, 1:] = 0  # no inf - inf
        X[rng.random(n) < 0.7, 0] = 0  # most rows stay finite
    if sparse:
        sp = pytest.importorskip("scipy.sparse")
        X = sp.csr_matrix(X)
    Xc = check_X(X, accept_sparse=True)
    expected = numpy_rule(linear_decision(Xc, W, b, 1))
    if labels:
        classes = np.array([f"c{j}" for j in range(max(k, 2))])
        np.testing.assert_array_equal(linear_predict_index(Xc, W, b, 1, classes),
                                      classes[expected])
    else:
        np.testing.assert_array_equal(linear_predict_index(Xc, W, b, 1), expected)


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


@pytest.mark.parametrize("row", [0, 3, 6])
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_nan_in_a_later_class_raises(row, k):
    # the block's picker checks every class's activations, not only the
    # first: a NaN (inf - inf, two products that overflow) in the last
    # class (with one row of weights, the only one) of one row of 7, the
    # first or the second of a pair, or the odd row after the pairs
    X = np.zeros((7, 2))
    X[row] = [1e10, -1e10]
    W = np.zeros((k, 2))
    W[-1] = [1e300, 1e300]
    with pytest.raises(ValueError, match="overflowed"):
        linear_predict_index(X, W, np.zeros(k), 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_labels_taken_per_thread_equal_classes_of_the_indices(rng, threads, monkeypatch):
    from perceptron._common import parallel as _parallel

    from perceptron.linear import _base as _linear_base

    monkeypatch.setattr(_parallel, "PARALLEL_MIN_WORK", 1)
    monkeypatch.setattr(_linear_base, "_PREDICT_BLOCK", 7)  # several blocks a thread
    X = rng.standard_normal((50, 4))
    W = rng.standard_normal((3, 4))
    classes = np.array(["ant", "bee", "cicada"])
    index = linear_predict_index(X, W, np.zeros(3), threads)
    np.testing.assert_array_equal(linear_predict_index(X, W, np.zeros(3), threads, classes),
                                  classes[index])


CLASS_ARRAYS = {
    "int8": np.array([-3, 5, 7], dtype=np.int8),
    "int16": np.array([-300, 5, 7000], dtype=np.int16),
    "int64": np.array([-(2**40), 5, 2**62], dtype=np.int64),
    "float64": np.array([-0.5, 1.5, np.pi]),
    "bool": np.array([False, True, True]),
    "U1": np.array(["a", "b", "c"]),
    "U3": np.array(["no", "yes", "may"]),
    "U4": np.array(["abcd", "e", "fgh"]),
    "U5": np.array(["alpha", "b", "gamma"]),
    "S7": np.array([b"x", b"longest", b"mid"]),
    "big-endian int32": np.array([1, -2, 3], dtype=">i4"),
    "datetime64": np.array(["2001-01-01", "2002-02-02", "2003-03-03"], dtype="datetime64[D]"),
    "structured": np.array([(1, 2.0), (3, 4.0), (5, 6.0)], dtype=[("a", "i2"), ("b", "f8")]),
    "object": np.array(["ant", 2, None], dtype=object),
}


@pytest.mark.parametrize("name", sorted(CLASS_ARRAYS))
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
def test_labels_copied_by_the_loop_equal_classes_of_the_indices(name, k, sparse, threads, rng,
                                                                 monkeypatch):
    # the loop copies the bytes of each row's class (every dtype without
    # Python objects); object labels are taken from classes after it
    from perceptron._common import parallel as _parallel

    monkeypatch.setattr(_parallel, "PARALLEL_MIN_WORK", 1)
    classes = CLASS_ARRAYS[name][:2 if k == 1 else 3]
    X = rng.standard_normal((41, 5))
    W = np.eye(k, 5) + 0.01 * rng.standard_normal((k, 5))  # every class wins some rows
    b = np.zeros(k)
    if sparse:
        sp = pytest.importorskip("scipy.sparse")
        X[np.abs(X) < 0.3] = 0.0
        X = sp.csr_matrix(X)
    Xc = check_X(X, accept_sparse=True)
    index = linear_predict_index(Xc, W, b, threads)
    got = linear_predict_index(Xc, W, b, threads, classes)
    assert got.dtype == classes.dtype
    np.testing.assert_array_equal(got, classes[index])
    assert set(index.tolist()) == set(range(len(classes)))


def test_compiled_pickers_refuse_labels_that_do_not_fit():
    from perceptron._core import decision

    X = np.ones((4, 3))
    W = np.ones((1, 3))
    b = np.zeros(1)
    cls = np.zeros((2, 8), dtype=np.uint8)
    with pytest.raises(ValueError, match="inconsistent shapes"):  # one row of weights: 2 classes
        decision.predict_dense(X, W, b, None, np.empty(1), cls[:1], np.empty((4, 8), np.uint8))
    with pytest.raises(ValueError, match="inconsistent shapes"):  # rows of other widths
        decision.predict_dense(X, W, b, None, np.empty(1), cls, np.empty((4, 4), np.uint8))
    with pytest.raises(ValueError, match="inconsistent shapes"):  # fewer labels than rows
        decision.predict_dense(X, W, b, None, np.empty(1), cls, np.empty((3, 8), np.uint8))
    with pytest.raises(ValueError, match="inconsistent shapes"):  # neither index nor labels
        decision.predict_dense(X, W, b, None, np.empty(1))
    sp = pytest.importorskip("scipy.sparse")
    A = sp.csr_matrix(X)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        decision.predict_csr(A.data, A.indices, A.indptr, 3, np.ones((3, 3)), np.zeros(3), None,
                             np.empty(3), 0, cls, np.empty((4, 8), np.uint8))
    with pytest.raises(ValueError, match="out of range"):
        decision.predict_csr(A.data, A.indices, A.indptr, 3, W, b, None, np.empty(1), 1, cls,
                             np.empty((4, 8), np.uint8))

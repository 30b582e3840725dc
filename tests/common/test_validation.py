"""The messages of Perceptron's checks: each bad X, y or parameter value
given to fit or predict raises the exception whose text names the problem
(dtype, dimensions, empty, non-finite values and the row they are in,
unseen features, sparse input, weights that overflow), and a failed fit
leaves the fitted model as it was.  Also the label utilities behind those
checks (unique_labels, label_signs, labels_not_in) against numpy.  The
sweep of bad data across every entry point is test_bad_input.py."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import Perceptron

GOOD_X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
GOOD_Y = np.array([0, 1, 1, 0])


@pytest.mark.parametrize("X, error, match", [
    (np.array([["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]), TypeError, "dtype <U1"),
    (np.ones((4, 2), dtype=complex), ValueError, "Complex data not supported"),
    (np.array([[object(), 1], [1, 1], [1, 1], [1, 1]], dtype=object), TypeError, "not all numbers"),
    (np.ones((4, 2), dtype="datetime64[s]"), TypeError, "must hold numbers"),
    (np.ones(4), ValueError, "2-D array, got 1-D.*Reshape your data"),
    (np.ones((4, 2, 1)), ValueError, "2-D array, got 3-D"),
    (np.float64(3.0), ValueError, "2-D array, got 0-D"),
    (np.ones((0, 2)), ValueError, r"0 sample\(s\)"),
    (np.ones((4, 0)), ValueError, r"0 feature\(s\)"),
    ([[1.0, 2.0], [3.0]], ValueError, "could not be converted"),
    ("abc", TypeError, "string"),
])
def test_bad_X_at_fit(X, error, match):
    with pytest.raises(error, match=match):
        Perceptron().fit(X, GOOD_Y)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("row", [0, 3])
def test_non_finite_X_at_fit(bad, dtype, row):
    X = GOOD_X.astype(dtype)
    X[row, 1] = bad
    with pytest.raises(ValueError, match=rf"X contains NaN or infinity \(row {row}\)"):
        Perceptron(shuffle=False).fit(X, GOOD_Y)


def test_non_finite_X_found_even_when_its_row_is_correct():
    # the non-finite row is classified "correctly" by an infinite activation
    X = np.array([[1.0], [-1.0], [np.inf]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        Perceptron(shuffle=False).fit(X, [1, 0, 1])


@pytest.mark.parametrize("y, error, match", [
    (np.array([0, 1, 1]), ValueError, "X has 4 samples but y has 3"),
    (np.array([1, 1, 1, 1]), ValueError, "one class"),
    (np.array([0.5, 1.0, 2.0, 0.0]), ValueError, "Unknown label type: continuous"),
    (None, ValueError, "requires y to be passed"),
    (np.array([[0, 2], [1, 0], [1, 0], [0, 1]]), ValueError, "0/1 indicator"),
    (np.ones((4, 2, 2)), ValueError, "1-D array of labels"),
    (np.array([0.0, np.nan, 1.0, 0.0]), ValueError, "NaN"),
    (np.array([0, None, 1, 0], dtype=object), ValueError, "None or NaN"),
    (np.array([0, "a", 1, 0], dtype=object), TypeError, "cannot be sorted"),
    (np.array([0j, 1j, 1j, 0j]), TypeError, "complex"),
])
def test_bad_y(y, error, match):
    with pytest.raises(error, match=match):
        Perceptron().fit(GOOD_X, y)


@pytest.mark.parametrize("y, shown", [
    (np.zeros(4, dtype=np.int64), "(0)"), (np.full(4, 2.0), "(2.0)"),
    (np.array(["a"] * 4), "('a')"), (np.ones(4, dtype=bool), "(True)"),
])
def test_one_class_is_named_by_its_plain_value(y, shown):
    # the label as the user wrote it, not numpy's repr (np.int64(0))
    with pytest.raises(ValueError) as info:
        Perceptron().fit(GOOD_X, y)
    assert str(info.value).startswith(f"y has one class {shown};")


@pytest.mark.parametrize("param, value, error, match", [
    ("eta0", 0.0, ValueError, "eta0 must be > 0"),
    ("eta0", -1.0, ValueError, "eta0 must be > 0"),
    ("eta0", np.nan, ValueError, "eta0 must be finite"),
    ("eta0", "fast", TypeError, "eta0 must be a real number"),
    ("max_iter", 0, ValueError, "max_iter must be >= 1"),
    ("max_iter", 2.5, TypeError, "max_iter must be an int"),
    ("max_iter", True, TypeError, "max_iter must be a number"),
    ("shuffle", "yes", TypeError, "shuffle must be True or False"),
    ("fit_intercept", None, TypeError, "fit_intercept must be True or False"),
    ("warm_start", 1.0, TypeError, "warm_start must be True or False"),
    ("random_state", -3, ValueError, "random_state must be non-negative"),
    ("random_state", "seed", ValueError, "random_state must be None"),
])
def test_bad_parameters(param, value, error, match):
    with pytest.raises(error, match=match):
        Perceptron(**{param: value}).fit(GOOD_X, GOOD_Y)


def test_predict_checks_features_and_values():
    m = Perceptron(random_state=0).fit(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="X has 3 features, but Perceptron is expecting 2"):
        m.predict(np.ones((2, 3)))
    with pytest.raises(ValueError, match="NaN or infinity"):
        m.predict(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="NaN or infinity"):
        m.decision_function(np.array([[1.0, np.inf]], dtype=np.float32))
    with pytest.raises(ValueError, match="2-D"):
        m.predict(np.ones(2))
    with pytest.raises(ValueError, match="Complex data"):
        m.predict(np.ones((1, 2), dtype=complex))


def test_sparse_input_is_refused_clearly_where_dense_is_needed():
    # the estimators take sparse X (tests/linear/test_sparse.py); check_array does not
    sparse = pytest.importorskip("scipy.sparse")
    from perceptron._common.validation import check_array

    with pytest.raises(TypeError, match="sparse"):
        check_array(sparse.csr_matrix(GOOD_X))


@pytest.mark.parametrize("dtype, eta0", [(np.float32, 1e30), (np.float64, 1e300)])
def test_overflowing_weights_name_the_epoch(dtype, eta0):
    # an update of eta0 * x is beyond the dtype's range: the weights become
    # infinite in the first epoch, and the fit says so instead of returning them
    X = np.array([[1e9], [-1e9]], dtype=dtype)
    with pytest.raises(FloatingPointError, match=r"overflowed in epoch 1"):
        Perceptron(shuffle=False, eta0=eta0).fit(X, [1, 0])


def test_failed_fit_leaves_estimator_unchanged():
    m = Perceptron(random_state=0).fit(GOOD_X, GOOD_Y)
    before = m.coef_.copy(), m.intercept_.copy(), m.n_iter_
    X = GOOD_X.copy()
    X[2, 0] = np.nan
    with pytest.raises(ValueError):
        m.fit(X, GOOD_Y)
    np.testing.assert_array_equal(m.coef_, before[0])
    np.testing.assert_array_equal(m.intercept_, before[1])
    assert m.n_iter_ == before[2]


@settings(max_examples=100, deadline=None)
@given(labels=st.lists(st.text(alphabet="abcxyz", max_size=3), min_size=1, max_size=60),
       as_bytes=st.booleans())
def test_unique_labels_matches_numpy_for_strings(labels, as_bytes):
    # few classes take the peeling path, more than 16 the set path
    from perceptron._common.validation import unique_labels

    y = np.array([s.encode() for s in labels]) if as_bytes else np.array(labels)
    got = unique_labels(y)
    assert got.dtype == y.dtype
    np.testing.assert_array_equal(got, np.unique(y))


def test_unique_labels_many_string_classes():
    from perceptron._common.validation import unique_labels

    y = np.array([f"c{i % 40:02d}" for i in range(400)])
    np.testing.assert_array_equal(unique_labels(y), np.unique(y))


@settings(max_examples=100, deadline=None)
@given(bits=st.lists(st.booleans(), min_size=0, max_size=70), step=st.integers(1, 3))
def test_label_signs_is_the_where_of_the_notes(bits, step):
    # +1 where the mask holds, -1 elsewhere, as int8; strided (non-contiguous)
    # masks included; the mask itself is left as it was
    from perceptron._common.validation import label_signs

    mask = np.array(bits, dtype=bool)[::step]
    before = mask.copy()
    got = label_signs(mask)
    assert got.dtype == np.int8 and got.shape == mask.shape
    np.testing.assert_array_equal(got, np.where(mask, 1, -1))
    np.testing.assert_array_equal(mask, before)


@settings(max_examples=100, deadline=None)
@given(seen=st.lists(st.integers(-5, 5), max_size=8),
       known=st.lists(st.integers(-5, 5), max_size=8),
       kinds=st.sampled_from(["ii", "if", "fi", "uu", "bb", "UU", "SS", "Ui", "iU"]))
def test_labels_not_in_is_setdiff(seen, known, kinds):
    # the binary-search path against np.setdiff1d, for every pairing of kinds
    from perceptron.linear._targets import labels_not_in

    def as_kind(values, kind):
        if kind == "u":
            return np.array([abs(v) for v in values], dtype=np.uint8)
        if kind == "b":
            return np.array([v > 0 for v in values], dtype=bool)
        if kind == "U":
            return np.array([f"c{v}" for v in values], dtype=str)
        if kind == "S":
            return np.array([f"c{v}".encode() for v in values], dtype=bytes)
        return np.array(values, dtype=np.int64 if kind == "i" else np.float64)

    s = np.unique(as_kind(seen, kinds[0]))
    k = np.unique(as_kind(known, kinds[1]))
    try:
        expected = np.setdiff1d(s, k)
    except TypeError:
        return  # numpy itself cannot compare these
    np.testing.assert_array_equal(labels_not_in(s, k), expected)

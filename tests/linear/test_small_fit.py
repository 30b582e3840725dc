"""The short paths of a small fit give exactly what the general paths give.

``encode_two`` (perceptron._core.labels) encodes labels of two values in one
compiled pass, ``encode_small_ints`` more classes of small non-negative
integers by counting; ``check_params`` remembers checked parameters; run_epochs
reaches the state's arrays through the buffer protocol.  Each is compared
with the general path (labels given as an ndarray subclass, which the short
path leaves alone), on the same data, bit for bit, errors included."""
import copy
import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from perceptron import Perceptron
from perceptron._core import online as _online
from perceptron._core.labels import encode_small_ints, encode_two
from perceptron.linear._targets import encode_targets
from perceptron.linear._state import OnlineState
from perceptron._common.validation import label_signs

pytestmark = pytest.mark.filterwarnings("ignore:Perceptron did not converge")


class _General(np.ndarray):
    """Labels the short path does not take (it takes exact ndarrays only)."""


def general(y):
    return y.view(_General)


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as exc:  # the error itself is compared
        return (type(exc), str(exc))


VALUES = {
    "b1": [True, False],
    "i1": [0, 1, -1, 2, -128, 127], "i2": [0, 1, -1, 300], "i4": [0, 1, -5, 7],
    "i8": [0, 1, -1, 2**40, -2**62], "u1": [0, 1, 255], "u2": [0, 3, 65535],
    "u4": [0, 1, 2**32 - 1], "u8": [0, 1, 2**64 - 1],
    "f4": [1.0, -1.0, 0.0, 2.0, 0.5, np.nan, np.inf, -0.0, 3e38],
    "f8": [1.0, -1.0, 0.0, 2.0, 0.5, np.nan, -np.inf, -0.0, 2.0**60, 1e300],
    "U5": ["a", "b", "", "ab", "a\x00b", "é", "zz"],
    "S3": [b"a", b"b", b"", b"ab", b"\xff"],
    "O": ["a", "b", 1, None],
    "M8[D]": ["2020-01-01", "2021-06-30", "1970-01-01"], "m8[s]": [0, 1, -7],
    "c16": [1.0, 1j, 0.0],
}


@st.composite
def labels(draw):
    code = draw(st.sampled_from(sorted(VALUES)))
    pool = draw(st.lists(st.sampled_from(VALUES[code]), min_size=1, max_size=3))
    n = draw(st.integers(1, 40))
    values = [draw(st.sampled_from(pool)) for _ in range(n)]
    y = np.array(values, dtype=object if code == "O" else code)
    order = draw(st.sampled_from(["C", "strided", "swapped"]))
    if order == "strided":
        y = np.repeat(y, 2)[::2]
    elif order == "swapped" and y.dtype.kind not in "bOS" and y.dtype.itemsize > 1:
        y = y.astype(y.dtype.newbyteorder())
    return y


def same_targets(a, b):
    if isinstance(a, tuple) and isinstance(a[0], type):
        assert a == b
        return
    kind_a, classes_a, index_a, signs_a = a
    kind_b, classes_b, index_b, signs_b = b
    assert kind_a == kind_b
    assert classes_a.dtype == classes_b.dtype
    np.testing.assert_array_equal(classes_a, classes_b)
    assert [str(c) for c in classes_a] == [str(c) for c in classes_b]  # -0.0 vs 0.0
    if kind_a == "binary":
        sa = label_signs(index_a == 1) if signs_a is None else signs_a
        sb = label_signs(index_b == 1) if signs_b is None else signs_b
        assert sa.dtype == sb.dtype == np.int8
        np.testing.assert_array_equal(sa, sb)
    else:
        np.testing.assert_array_equal(index_a, index_b)


def same_as_general(y):
    """encode_targets of y gives what the general path gives (or the same error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_targets(outcome(encode_targets, y, len(y)),
                     outcome(encode_targets, general(y), len(y)))


@settings(max_examples=400, deadline=None)
@given(labels())
@example(np.array([1.0, 0.0, -0.0], dtype=np.float32))   # -0.0 after 0.0: np.unique's pick
@example(np.array([0.0, -0.0, 1.0]))
def test_encode_targets_short_path_is_the_general_path(y):
    same_as_general(y)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["b1", "i1", "u2", "i4", "u4", "i8", "u8", "f4", "f8"]),
       st.integers(1, 700), st.data())
def test_encode_targets_of_long_labels_is_the_general_path(code, n, data):
    # long enough for the vectorized compare of the compiled encoder: two
    # labels, and maybe a stray one (a third value, NaN, -0.0 beside 0.0)
    # anywhere, the start, the vector body or the tail
    values = VALUES[code]
    pair = data.draw(st.lists(st.sampled_from(values), min_size=2, max_size=2))
    picks = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y = np.array([pair[p] for p in picks], dtype=code)
    if data.draw(st.booleans()):
        y[data.draw(st.integers(0, n - 1))] = data.draw(st.sampled_from(values))
    if data.draw(st.booleans()):
        y = np.repeat(y, 2)[::2]
    same_as_general(y)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["S", "U"]), st.integers(1, 40), st.integers(1, 300), st.data())
def test_encode_targets_of_text_labels_is_the_general_path(kind, width, n, data):
    # fixed-width strings of every width around the compiled encoder's
    # 16-byte pieces (its last piece overlaps the one before it), and maybe a
    # stray label one character away from one of the two, the character
    # anywhere in the item: the start, a whole piece, the overlapped tail
    alphabet = "ab\x00\xe9z" if kind == "U" else "ab\x00z"
    text = st.text(alphabet, min_size=0, max_size=width)
    pair = [data.draw(text), data.draw(text)]
    picks = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y = np.array([pair[p] for p in picks], dtype=f"{kind}{width}")
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, n - 1))
        chars = list(str(y[at]).ljust(width, "z"))
        chars[data.draw(st.integers(0, width - 1))] = data.draw(st.sampled_from("abz"))
        y[at] = "".join(chars)
    if data.draw(st.booleans()):
        y = np.repeat(y, 2)[::2]
    same_as_general(y)
    # and the short path takes every y of two labels (none left to the general one)
    distinct = np.unique(y)
    got = encode_two(y)
    assert (got is None) == (len(distinct) > 2)
    if got is not None:
        np.testing.assert_array_equal(got[1], distinct)
        np.testing.assert_array_equal(got[0], np.where(y == distinct[-1], 1, -1)
                                      if len(distinct) == 2 else -np.ones(len(y)))


@settings(max_examples=300, deadline=None)
@given(labels())
def test_encode_two_finds_the_sorted_distinct_labels(y):
    got = encode_two(y)
    if got is None:
        return
    assert y.dtype.kind in "biufSU"
    signs, classes = got
    assert classes.dtype == y.dtype
    expected = np.unique(y)
    np.testing.assert_array_equal(classes, expected)
    assert len(classes) <= 2
    np.testing.assert_array_equal(signs, np.where(y == classes[-1], 1, -1)
                                  if len(classes) == 2 else -np.ones(len(y)))


def test_encode_two_leaves_the_unusual_to_the_general_path():
    for y in (np.array([1.0, np.nan]), np.array([0.5, 1.0]), np.array([-0.0, 1.0]),
              np.array([1, 2, 3]), np.array([], dtype=np.int64), np.array(["a", 1], dtype=object),
              np.array([1, 2], dtype=">i8"), np.ones((2, 2)), [0, 1], np.float16([0, 1]),
              np.array(["2020-01-01", "2021-01-01"], dtype="M8[D]"),
              np.array([1, 2], dtype="m8[s]"), np.array([1 + 0j, 2]),
              np.array([(1, 2)], dtype="i4,i4")):
        assert encode_two(y) is None


@settings(max_examples=60, deadline=None)
@given(labels(), st.sampled_from([np.float32, np.float64]), st.booleans())
def test_fit_on_the_short_path_is_bit_identical(y, dtype, average):
    rng = np.random.default_rng(len(y))
    X = rng.standard_normal((len(y), 3)).astype(dtype)
    fits = []
    for labels_ in (y, general(y)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits.append(outcome(lambda: Perceptron(max_iter=4, tol=None, average=average)
                                .fit(X, labels_)))
    a, b = fits
    if isinstance(a, tuple):
        assert a == b
        return
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.classes_, b.classes_)
    assert a.classes_.dtype == b.classes_.dtype
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize("extra", [{}, {"class_weight": "balanced"}, {"class_weight": {1: 2.0}},
                                   {"early_stopping": True, "validation_fraction": 0.3}])
def test_fit_short_path_with_class_weights_and_early_stopping(extra):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 4))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1, -1)
    a = Perceptron(max_iter=6, tol=None, random_state=1, **extra).fit(X, y)
    b = Perceptron(max_iter=6, tol=None, random_state=1, **extra).fit(X, general(y))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["i8", "i4", "f8", "U2", "b1"]),
       st.lists(st.integers(0, 1), min_size=3, max_size=30), st.integers(1, 4))
def test_partial_fit_short_path_is_bit_identical(code, bits, n_chunks):
    pool = {"i8": [-3, 5], "i4": [0, 1], "f8": [-1.0, 1.0], "U2": ["no", "ja"],
            "b1": [False, True]}[code]
    y = np.array([pool[b] for b in bits], dtype=code)
    X = np.random.default_rng(len(bits)).standard_normal((len(y), 3))
    models = []
    for wrap in (lambda v: v, general):
        m = Perceptron(shuffle=False)
        for part in np.array_split(np.arange(len(y)), n_chunks):
            if len(part):
                m.partial_fit(X[part], wrap(y[part]), classes=np.array(pool, dtype=code))
        models.append(m)
    a, b = models
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)


def test_partial_fit_short_path_refuses_new_labels_as_before():
    X = np.ones((4, 2))
    m = Perceptron().partial_fit(X, np.array([0, 1, 0, 1]), classes=np.array([0, 1]))
    with pytest.raises(ValueError, match=r"labels \[2\] that are not in classes"):
        m.partial_fit(X, np.array([0, 1, 2, 1]))
    with pytest.raises(ValueError, match=r"labels \[5\] that are not in classes"):
        m.partial_fit(X, np.array([5, 5, 5, 5]))


def test_remembered_parameters_see_every_change():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
    y = np.array([0, 1, 1, 0])
    m = Perceptron(max_iter=5, tol=None).fit(X, y)
    for name, value, error in [("eta0", -1.0, ValueError), ("eta0", True, TypeError),
                               ("max_iter", 0, ValueError), ("fit_intercept", 1, TypeError),
                               ("n_jobs", 0, ValueError), ("callback", 3, TypeError),
                               ("pocket", True, None), ("multiclass", "x", ValueError)]:
        before = getattr(m, name)
        m.set_params(**{name: value})
        if error is None:
            m.fit(X, y)
        else:
            with pytest.raises(error):
                m.fit(X, y)
        setattr(m, name, before)  # plain assignment is seen too
        m.fit(X, y)
    # a bad value never takes the place of an equal good one (True == 1)
    Perceptron(max_iter=1, tol=None).fit(X, y)
    with pytest.raises(TypeError, match="max_iter must be an int"):
        Perceptron(max_iter=1.0, tol=None).fit(X, y)
    with pytest.raises(TypeError, match="number, got the boolean"):
        Perceptron(max_iter=True, tol=None).fit(X, y)


@pytest.mark.parametrize("name, value", [("eta0", 0.25), ("fit_intercept", False),
                                         ("shuffle", False), ("average", True),
                                         ("margin", 0.5), ("penalty", "l2"),
                                         ("alpha", 0.01), ("batch_size", 2)])
def test_kept_loop_parameters_follow_each_change(name, value):
    # a fit keeps the loops' parameters it made with the checked ones: a
    # change of either kind (set_params or assignment) makes them anew
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int)
    extra = {"penalty": "l2"} if name == "alpha" else {}
    for change in ("set_params", "setattr"):
        m = Perceptron(max_iter=3, tol=None, random_state=1, **extra).fit(X, y)
        if change == "set_params":
            m.set_params(**{name: value})
        else:
            setattr(m, name, value)
        m.fit(X, y)
        fresh = Perceptron(max_iter=3, tol=None, random_state=1, **extra,
                           **{name: value}).fit(X, y)
        np.testing.assert_array_equal(m.coef_, fresh.coef_)
        np.testing.assert_array_equal(m.intercept_, fresh.intercept_)
        np.testing.assert_array_equal(m.mistakes_, fresh.mistakes_)


def test_remembered_parameters_follow_copies_pickles_and_deletion():
    import copy
    import pickle

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
    y = np.array([0, 1, 1, 0])
    m = Perceptron(max_iter=5, tol=None).fit(X, y)
    for other in (copy.copy(m), copy.deepcopy(m), pickle.loads(pickle.dumps(m)),
                  Perceptron(**m.get_params())):
        other.set_params(eta0=-1.0)  # the copy's change is its own
        with pytest.raises(ValueError, match="eta0"):
            other.fit(X, y)
        m.fit(X, y)
    m.max_iter = 0
    with pytest.raises(ValueError, match="max_iter"):
        m.fit(X, y)
    m.max_iter = 5
    m.fit(X, y)
    del m.max_iter  # a parameter deleted is not one checked before
    with pytest.raises(AttributeError):
        m.fit(X, y)
    # kept outside the estimator: its attributes, pickles and files do not change
    fitted = Perceptron(max_iter=5, tol=None).fit(X, y)
    fitted.fit(X, y)
    assert not [name for name in vars(fitted) if "check" in name]


def test_remembered_parameters_are_compared_by_identity():
    from perceptron._core.online import same_values

    class EqualToAll:
        def __eq__(self, other):
            return True

        __hash__ = object.__hash__

    one, other_one = 1.5, float("1.5")  # equal, two objects
    assert same_values({"a": one, "b": None}, ("a", "b"), (one, None))
    assert not same_values({"a": other_one, "b": None}, ("a", "b"), (one, None))
    assert not same_values({"a": EqualToAll()}, ("a",), (one,))
    assert not same_values({"a": one}, ("a", "b"), (one, None))  # a name missing
    assert not same_values({"a": one}, ("a",), (one, None))
    # an object equal to every value takes no checked value's place in a fit
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
    y = np.array([0, 1, 1, 0])
    m = Perceptron(max_iter=5, tol=None).fit(X, y)
    m.fit(X, y)
    m.eta0 = EqualToAll()
    with pytest.raises(TypeError, match="eta0"):
        m.fit(X, y)


def test_run_epochs_checks_the_state_arrays():
    X = np.ones((3, 2))
    y = np.ones(3, dtype=np.int8)
    params = _online.LoopParams(eta=1.0, margin=0.0, fit_intercept=True, shuffle=False,
                                average=False, pocket=False, stop_when_converged=True)

    def state():
        s = OnlineState(1, 2, np.float64, multinomial=False, average=False, pocket=False,
                        batch_size=None, seed=1)
        s.rows = np.arange(3, dtype=np.intp)
        return s

    assert _online.run_epochs(state(), X, y, None, params, 2)["epochs"] >= 1
    for field, value in [("W", np.zeros((1, 2), dtype=np.float32)), ("W", np.zeros((1, 3))),
                         ("W", np.zeros((2, 4))[:, ::2]), ("b", np.zeros(0)),
                         ("counters", np.zeros(2, dtype=np.int64)),
                         ("rng_state", np.zeros(2, dtype=np.uint64)),
                         ("rows", np.arange(3, dtype=np.int32)), ("acts", np.zeros(1, np.float32))]:
        s = state()
        setattr(s, field, value)
        with pytest.raises((ValueError, BufferError)):
            _online.run_epochs(s, X, y, None, params, 1)
    s = state()
    s.W.setflags(write=False)
    with pytest.raises((ValueError, BufferError)):
        _online.run_epochs(s, X, y, None, params, 1)
    with pytest.raises(ValueError, match="labels"):
        _online.run_epochs(state(), X, y[:2], None, params, 1)
    with pytest.raises(ValueError):
        _online.run_epochs(state(), X, y.astype(np.int32), None, params, 1)


def test_state_copy_without_rows_leaves_the_order_out():
    # partial_fit copies every state with rows=False before it runs: the
    # previous order (n entries, one per class in one-vs-rest) is not copied
    from perceptron.linear._state import OnlineState
    st = OnlineState(1, 3, np.float64, multinomial=False, average=True, pocket=False,
                     batch_size=None, seed=0)
    st.rows = np.arange(10, dtype=np.intp)
    new = st.copy(rows=False)
    assert new.rows is None and st.rows is not None
    kept = st.copy()
    np.testing.assert_array_equal(kept.rows, st.rows)
    assert kept.rows is not st.rows
    for name, value in vars(st).items():
        if isinstance(value, np.ndarray) and name != "rows":
            assert vars(new)[name] is not value
            np.testing.assert_array_equal(vars(new)[name], value)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1])
def test_binary_zeros_is_the_constructor(dtype, seed):
    # the plain binary fit's state: the constructor's fields, in its order,
    # of its dtypes, shapes and values
    made = OnlineState(1, 5, dtype, multinomial=False, average=False, pocket=False,
                       batch_size=None, seed=seed)
    short = OnlineState.binary_zeros(5, np.dtype(dtype), seed)
    assert type(short) is OnlineState
    assert list(vars(short)) == list(vars(made))
    for name, value in vars(made).items():
        other = vars(short)[name]
        assert type(other) is type(value), name
        if isinstance(value, np.ndarray):
            assert other.dtype == value.dtype and other.shape == value.shape, name
            assert other.flags.c_contiguous and other.flags.owndata, name
            np.testing.assert_array_equal(other, value, err_msg=name)
        else:
            assert other == value, name
    assert short.pocket_score is not made.pocket_score  # a copy, not the shared template
    assert short.rng_state[0] == seed


INT_CODES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"]


@st.composite
def small_int_labels(draw):
    code = draw(st.sampled_from(INT_CODES))
    n = draw(st.integers(1, 60))
    info = np.iinfo(code)
    # around the table's bound (2 n + 256), negatives and the type's extremes
    edge = [2 * n + 255, 2 * n + 256, 2 * n + 257, int(info.max), int(info.min)]
    pool = draw(st.lists(st.one_of(st.integers(0, 12), st.sampled_from(edge),
                                   st.integers(int(info.min), int(info.max))),
                         min_size=1, max_size=8))
    pool = [v for v in pool if info.min <= v <= info.max] or [0]
    y = np.array([draw(st.sampled_from(pool)) for _ in range(n)], dtype=code)
    order = draw(st.sampled_from(["C", "strided", "swapped"]))
    if order == "strided":
        y = np.repeat(y, 2)[::2]
    elif order == "swapped" and y.dtype.itemsize > 1:
        y = y.astype(y.dtype.newbyteorder())
    return y


@settings(max_examples=400, deadline=None)
@given(small_int_labels())
@example(np.array([0, 1, 2], dtype=np.uint64))
@example(np.array([0, 5, 258], dtype=np.int16))    # 258 = 2 n + 252: counted
@example(np.array([0, 5, 263], dtype=np.int16))    # 263 = 2 n + 257: the general path
def test_encode_small_ints_is_unique_and_searchsorted(y):
    got = encode_small_ints(y)
    plain = y.dtype.isnative and len(y) > 0
    classes = np.unique(y)
    counted = plain and y.min() >= 0 and int(y.max()) <= 2 * len(y) + 256 and len(classes) >= 2
    if not counted:
        assert got is None
        return
    index, got_classes = got
    assert got_classes.dtype == y.dtype and got_classes.dtype == classes.dtype
    np.testing.assert_array_equal(got_classes, classes)
    assert index.dtype == np.int32
    np.testing.assert_array_equal(index, np.searchsorted(classes, y).astype(np.int32))


@settings(max_examples=200, deadline=None)
@given(small_int_labels())
def test_encode_targets_counted_labels_are_the_general_path(y):
    same_targets(outcome(encode_targets, y, len(y)),
                 outcome(encode_targets, general(y), len(y)))


def test_encode_small_ints_leaves_the_unusual_to_the_general_path():
    for y in (np.array([0, 1, 2.0]), np.array([True, False]), np.array([], dtype=np.int64),
              np.array([-1, 0, 1]), np.array([0, 1, 2], dtype=">i4"), np.ones((2, 2), int),
              [0, 1, 2], np.array([3, 3, 3]), np.array(["0", "1", "2"]),
              np.array([0, 1, 2], dtype=object), np.array([0, 1, 10 ** 6])):
        assert encode_small_ints(y) is None


@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
def test_multiclass_fit_on_counted_labels_is_bit_identical(multiclass):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((300, 5))
    y = np.argmax(X @ rng.standard_normal((5, 6)), axis=1) * 3  # 0, 3, ..., 15
    a = Perceptron(max_iter=4, tol=None, random_state=2, multiclass=multiclass).fit(X, y)
    b = Perceptron(max_iter=4, tol=None, random_state=2, multiclass=multiclass).fit(X, general(y))
    np.testing.assert_array_equal(a.classes_, b.classes_)
    assert a.classes_.dtype == b.classes_.dtype
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.mistakes_, b.mistakes_)


FITTED = ("coef_", "intercept_", "classes_", "n_features_in_", "n_iter_", "mistakes_",
          "updates_", "loss_", "t_", "converged_", "_mode", "_multilabel")


def same_fitted(a, b):
    for name in FITTED:
        va, vb = getattr(a, name), getattr(b, name)
        assert type(va) is type(vb), name
        if isinstance(va, np.ndarray):
            assert va.dtype == vb.dtype and va.shape == vb.shape, name
            assert va.flags.c_contiguous == vb.flags.c_contiguous, name
            np.testing.assert_array_equal(va, vb, err_msg=name)
        else:
            assert va == vb, name
    assert len(a._states) == len(b._states) == 1
    sa, sb = vars(a._states[0]), vars(b._states[0])
    assert sa.keys() == sb.keys()
    for key, value in sa.items():
        if isinstance(value, np.ndarray):
            assert value.dtype == sb[key].dtype
            np.testing.assert_array_equal(value, sb[key], err_msg=key)
        else:
            assert value == sb[key], key
    assert hasattr(a, "feature_names_in_") == hasattr(b, "feature_names_in_")


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 40), st.integers(1, 4), st.sampled_from([np.float32, np.float64]),
       st.sampled_from(["i8", "U3", "f8", "b1"]), st.integers(1, 6), st.booleans(),
       st.booleans(), st.booleans(), st.sampled_from([None, "l2", "l1", "elasticnet"]),
       st.sampled_from([None, 1, 4]), st.sampled_from([0.5, 1.0]), st.sampled_from([0.0, 0.3]),
       st.integers(0, 3))
def test_plain_binary_fit_is_the_general_fit(n, d, dtype, code, max_iter, average, shuffle,
                                             fit_intercept, penalty, batch_size, eta0, margin,
                                             seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    pool = {"i8": [-3, 7], "U3": ["no", "yes"], "f8": [0.0, 2.0], "b1": [False, True]}[code]
    y = np.array([pool[v] for v in rng.integers(0, 2, n)], dtype=code)
    params = dict(max_iter=max_iter, tol=None, average=average, shuffle=shuffle,
                  fit_intercept=fit_intercept, penalty=penalty, batch_size=batch_size,
                  eta0=eta0, margin=margin, random_state=seed)
    short_and_general_fit(params, X, y)


def short_and_general_fit(params, X, y):
    """Fit on y (the short path, where it applies) and on general(y) (the
    general path); assert the same outcome: the model, its state and
    predictions, the warning where it was, or the same error.  Returns
    the short path's model, or None after an error."""
    fits, caught = [], []
    for labels_ in (y, general(y)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            fits.append(outcome(lambda: Perceptron(**params).fit(X, labels_)))
        caught.append([(type(x.message), str(x.message), x.filename) for x in w])
    assert caught[0] == caught[1]  # the ConvergenceWarning, where it was, or none
    a, b = fits
    if isinstance(a, tuple):
        assert a == b
        return None
    same_fitted(a, b)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    return a


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 5), st.sampled_from([np.float32, np.float64]),
       st.sampled_from([np.int32, np.int64]), st.sampled_from(["csr", "csr_array", "coo"]),
       st.integers(1, 5), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from([None, "l2"]), st.sampled_from([0.0, 0.3]), st.sampled_from([0.0, 0.6]),
       st.integers(0, 3))
def test_plain_binary_fit_on_sparse_rows_is_the_general_fit(n, d, dtype, index_dtype, fmt,
                                                           max_iter, average, shuffle,
                                                           fit_intercept, penalty, margin,
                                                           zeros, seed):
    # CSR rows (and formats check_X converts) take the short path too: the
    # same model, histories, state, warning and predictions as the general one
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(dtype)
    X[rng.random(X.shape) < zeros] = 0
    A = sp.csr_matrix(X)
    A = sp.csr_matrix((A.data, A.indices.astype(index_dtype), A.indptr.astype(index_dtype)),
                      shape=A.shape)
    A = {"csr": A, "csr_array": sp.csr_array(A), "coo": A.tocoo()}[fmt]
    y = np.where(rng.integers(0, 2, n) > 0, "yes", "no")
    params = dict(max_iter=max_iter, tol=None, average=average, shuffle=shuffle,
                  fit_intercept=fit_intercept, penalty=penalty, margin=margin, random_state=seed)
    a = short_and_general_fit(params, A, y)
    if a is not None and penalty is None:  # the rows as a dense array: the same steps of the rule
        dense = Perceptron(**params).fit(X, y)
        np.testing.assert_array_equal(a.mistakes_, dense.mistakes_)


def test_plain_binary_fit_refits_and_forgets_feature_names():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    y = np.where(X[:, 0] > 0, 1, 0)
    a = Perceptron(max_iter=3, tol=None, random_state=0)
    b = Perceptron(max_iter=3, tol=None, random_state=0)
    for X_, y_ in [(pd.DataFrame(X, columns=["a", "b", "c"]), y), (X, y), (X[:, :2], 1 - y)]:
        a.fit(X_, y_)
        b.fit(X_, general(y_))
        same_fitted(a, b)
    assert not hasattr(a, "feature_names_in_")


@pytest.mark.parametrize("extra", [{"warm_start": True}, {"n_jobs": 2}, {"pocket": True},
                                   {"tol": 1e-3}, {"verbose": 0, "callback": lambda info: None}])
def test_fits_the_plain_path_leaves_alone_are_unchanged(extra):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 3))
    y = np.where(X[:, 1] > 0, 1, -1)
    a = Perceptron(max_iter=4, random_state=0, **extra)
    b = Perceptron(max_iter=4, random_state=0, **extra)
    for _ in range(2):  # the second: warm start from the first
        a.fit(X, y)
        b.fit(X, general(y))
        same_fitted(a, b)


def test_the_plain_path_is_taken_where_it_applies(monkeypatch):
    # the plain path is the route's every fast choice at once: the labels
    # encoded in one pass (signs), every epoch in one call of the loops on
    # this thread (no stop flag), and the loops' plain rule (fast_path)
    import perceptron.linear._fit as route

    calls, encoded = [], []
    real_encode, real_run = route.encode_targets, route.run_to_rule

    def encode(y, n):
        out = real_encode(y, n)
        encoded.append(out[3] is not None)
        return out

    def run_to_rule(X, mode, problems, sw, p, loop, rows, n_threads, stop, run):
        if encoded[-1] and stop is None and \
                _online.fast_path(loop, sw is not None) == _online.PATH_PLAIN:
            calls.append(1)
        return real_run(X, mode, problems, sw, p, loop, rows, n_threads, stop, run)
    monkeypatch.setattr(route, "encode_targets", encode)
    monkeypatch.setattr(route, "run_to_rule", run_to_rule)
    X = np.random.default_rng(2).standard_normal((20, 2))
    y = np.where(X[:, 0] > 0, "b", "a")
    Perceptron(max_iter=2, tol=None).fit(X, y)
    assert len(calls) == 1
    sp = pytest.importorskip("scipy.sparse")
    Perceptron(max_iter=2, tol=None).fit(sp.csr_matrix(X), y)
    assert len(calls) == 2
    Perceptron(max_iter=2).fit(X, y)  # the default tol: its rule runs in the compiled loop
    assert len(calls) == 3
    for make in (lambda: Perceptron(max_iter=2, tol=None).fit(X, general(y)),
                 lambda: Perceptron(max_iter=2, callback=lambda info: None).fit(X, y),
                 lambda: Perceptron(max_iter=2, tol=None).fit(X, y, sample_weight=np.ones(20)),
                 lambda: Perceptron(max_iter=2, tol=None, class_weight={"a": 2.0}).fit(X, y)):
        make()
    assert len(calls) == 3


def test_a_subclass_from_outside_the_package_takes_the_general_path():
    # its overrides of the general path's steps are honoured, in fit and in
    # partial_fit of a binary model's known classes
    seen = []

    class Logged(Perceptron):
        def _set_fitted(self, *args, **kwargs):
            seen.append("fit")
            return super()._set_fitted(*args, **kwargs)

        def _run(self, *args, **kwargs):
            seen.append("run")
            return super()._run(*args, **kwargs)

    X = np.random.default_rng(3).standard_normal((30, 3))
    y = np.where(X[:, 0] > 0, 1, 0)
    m = Logged(max_iter=2, tol=None).fit(X, y)
    assert "fit" in seen and "run" in seen
    seen.clear()
    m.partial_fit(X, y)
    assert "run" in seen
    ref = Perceptron(max_iter=2, tol=None).fit(X, y)
    np.testing.assert_array_equal(Logged(max_iter=2, tol=None).fit(X, y).coef_, ref.coef_)


def partial_state(m):
    return {name: (value.copy() if isinstance(value, np.ndarray) else value)
            for name, value in vars(m).items() if name != "_states"}, \
        [{k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in vars(s).items()}
         for s in m._states]


def same_partial(a, b):
    (fa, sa), (fb, sb) = partial_state(a), partial_state(b)
    assert fa.keys() == fb.keys()
    for name, value in fa.items():
        assert type(value) is type(fb[name]), name
        if isinstance(value, np.ndarray):
            assert value.dtype == fb[name].dtype, name
            np.testing.assert_array_equal(value, fb[name], err_msg=name)
        elif name != "callback":
            assert value == fb[name], name
    assert len(sa) == len(sb)
    for x, z in zip(sa, sb):
        assert x.keys() == z.keys()
        for key, value in x.items():
            if isinstance(value, np.ndarray):
                np.testing.assert_array_equal(value, z[key], err_msg=key)
            else:
                assert value == z[key], key


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.sampled_from([np.float32, np.float64]),
       st.sampled_from([np.float32, np.float64]), st.booleans(), st.booleans(),
       st.sampled_from([None, "l2", "elasticnet"]), st.sampled_from([None, 3]),
       st.integers(1, 3), st.integers(0, 3), st.booleans())
def test_partial_fit_plain_binary_is_the_general_path(n, dtype_first, dtype, average, shuffle,
                                                      penalty, batch_size, calls, seed, bad):
    rng = np.random.default_rng(seed)
    classes = np.array(["neg", "pos"])
    params = dict(average=average, shuffle=shuffle, penalty=penalty, batch_size=batch_size,
                  random_state=seed)
    X0 = rng.standard_normal((5, 3)).astype(dtype_first)
    y0 = classes[rng.integers(0, 2, 5)]
    a = Perceptron(**params).partial_fit(X0, y0, classes=classes)
    b = Perceptron(**params).partial_fit(X0, general(y0), classes=classes)
    for _ in range(calls):
        X = rng.standard_normal((n, 3)).astype(dtype)
        y = classes[rng.integers(0, 2, n)]
        if bad:  # a failed call leaves either model as it was
            X[-1, 0] = np.nan
        results = [outcome(lambda: a.partial_fit(X, y)),
                   outcome(lambda: b.partial_fit(X, general(y)))]
        if bad:
            assert results[0] == results[1] and isinstance(results[0], tuple)
        same_partial(a, b)
    np.testing.assert_array_equal(a.predict(X0), b.predict(X0))


def test_partial_fit_plain_binary_leaves_a_shallow_copy_alone():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] > 0, 1, 0)
    m = Perceptron(random_state=0).partial_fit(X, y, classes=np.array([0, 1]))
    twin = copy.copy(m)
    before = partial_state(twin)
    for _ in range(3):
        m.partial_fit(X, y)
    after = partial_state(twin)
    for (x, z) in [(before[0], after[0])] + list(zip(before[1], after[1])):
        for key, value in x.items():
            if isinstance(value, np.ndarray):
                np.testing.assert_array_equal(value, z[key], err_msg=key)
    twin.partial_fit(X, y)
    ref = Perceptron(random_state=0).partial_fit(X, y, classes=np.array([0, 1]))
    ref.partial_fit(X, general(y))
    np.testing.assert_array_equal(twin.coef_, ref.coef_)
    np.testing.assert_array_equal(twin.mistakes_, ref.mistakes_)


@pytest.mark.parametrize("make", [
    lambda X: X, lambda X: X.astype(np.float32), lambda X: X.astype(">f8"),
    lambda X: X.astype(">f4"), lambda X: X[:, ::2], lambda X: np.asfortranarray(X),
    lambda X: X[:0], lambda X: X[:, :0], lambda X: X.astype(np.int64), lambda X: X[0],
    lambda X: X.astype(np.float16), lambda X: X.view(_General),
    lambda X: X.astype(np.dtype(np.float64, metadata={"a": 1}))])
def test_check_X_short_path_is_check_array(make):
    # check_X returns the usual array (C-ordered native float32/float64,
    # non-empty) as it is, without check_array's steps: the same array,
    # and for anything else what check_array gives or raises
    from perceptron._common.validation import check_array, check_X
    X = make(np.arange(12, dtype=np.float64).reshape(4, 3))
    short, general_ = outcome(check_X, X), outcome(check_array, X)
    if isinstance(general_, tuple):
        assert short == general_
        return
    assert (short is X) == (general_ is X)
    assert short.dtype == general_.dtype and short.flags.c_contiguous
    np.testing.assert_array_equal(short, general_)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), max_size=40),
       st.floats(min_value=5e-324, max_value=1e308, allow_nan=False, allow_infinity=False))
@example([1.0, 3.0, 1e-310, -0.0, 7.0], 3.0)
@example([np.finfo(np.float64).max, 5e-324], 0.1)
def test_divided_is_numpy_division_bit_for_bit(values, by):
    # the per-epoch loss of a small fit divided by the training weight in one
    # compiled pass: the bits of numpy's true_divide, the input left as it was
    arr = np.array(values, dtype=np.float64)
    before = arr.copy()
    got = _online.divided(arr, by)
    with np.errstate(all="ignore"):  # (a quotient may overflow to infinity)
        want = arr / by
    assert got.dtype == np.float64 and got.shape == want.shape and got.flags.c_contiguous
    assert got.tobytes() == want.tobytes()
    assert arr.tobytes() == before.tobytes()
    assert not np.shares_memory(got, arr)

"""Bad data at the public entry points, the suite's one sweep of them: X of
every odd kind (memory maps, objects, strings, complex, NaN, empty, views,
byte orders, ...), bad labels, weights and shapes, through fit, predict and
decision_function of every estimator, the geometry functions, the svmlight
reader and the model loader, plus hypothesis-drawn shapes and edge values.
Each call must give a clear exception (ValueError, TypeError or
FloatingPointError, with a message) or a finite result, never a crash, and
leave the caller's arrays byte-for-byte unchanged; which of the two it gives
is checked against what the package promises.  The exact messages for
Perceptron's data are in test_validation.py; bad parameter values are in
test_param_checks.py."""
import io
import os
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import perceptron
from perceptron import (CentroidClassifier, ConvergenceWarning, KernelPerceptron, Perceptron,
                        VotedPerceptron, geometry)

CLEAR = (ValueError, TypeError, FloatingPointError)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # ConvergenceWarning included


def fingerprint(a):
    """What must not change: bytes for arrays of numbers, the items otherwise."""
    if isinstance(a, np.ndarray):
        if a.dtype.kind == "O":
            return ("O", a.shape, [repr(v) for v in a.ravel().tolist()])
        return (a.dtype.str, a.shape, a.strides, bytes(np.ascontiguousarray(a).tobytes()))
    return repr(a)


def outcome(fn, *args, **kwargs):
    """'error: <type>' for a clear exception, 'ok' for a result; anything else fails."""
    before = [fingerprint(a) for a in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(*args, **kwargs)
    except CLEAR as exc:
        assert str(exc), f"{type(exc).__name__} without a message"
        # the family it belongs to (a ModelFileError is a ValueError, ...)
        got = "error: " + next(c.__name__ for c in CLEAR if isinstance(exc, c))
    else:
        got = "ok"
        if isinstance(result, np.ndarray) and result.dtype.kind == "f":
            assert np.isfinite(result).all(), "a result with NaN or infinity"
    after = [fingerprint(a) for a in args]
    assert before == after, "an argument was modified"
    return got


def base(rng, n=40, d=5, dtype=np.float64):
    X = rng.standard_normal((n, d)).astype(dtype)
    y = np.where(X[:, 0] > 0, 1, -1)
    return X, y


def bad_xs(rng):
    """(name, X, the outcome the package promises for fit)."""
    X, _ = base(rng)
    read_only = X.copy()
    read_only.setflags(write=False)
    big = (X * 1e37).astype(np.float32)
    nan, inf = X.copy(), X.copy()
    nan[3, 2] = np.nan
    inf[5, 1] = -np.inf
    folder = tempfile.mkdtemp()
    np.save(os.path.join(folder, "X.npy"), X)
    np.save(os.path.join(folder, "Xnan.npy"), nan)
    return [
        ("memory map", np.load(os.path.join(folder, "X.npy"), mmap_mode="r"), "ok"),
        ("memory map with NaN", np.load(os.path.join(folder, "Xnan.npy"), mmap_mode="r"),
         "error: ValueError"),
        ("words", np.full(X.shape, "spam", dtype=object), "error: TypeError"),
        ("numbers as objects", X.astype(str).astype(object), "ok"),  # each converts to a float
        ("numeric strings", X.astype(str), "error: TypeError"),
        ("complex", X.astype(complex), "error: ValueError"),
        ("bool", X > 0, "ok"),
        ("int", (X * 10).astype(np.int64), "ok"),
        ("float16", X.astype(np.float16), "ok"),
        ("nan", nan, "error: ValueError"),
        ("inf", inf, "error: ValueError"),
        ("no rows", X[:0], "error: ValueError"),
        ("no features", X[:, :0], "error: ValueError"),
        ("1-D", X[:, 0], "error: ValueError"),
        ("3-D", X[:, :, None], "error: ValueError"),
        ("column view", X[:, ::2], "ok"),
        ("negative strides", X[::-1, ::-1], "ok"),
        ("Fortran order", np.asfortranarray(X), "ok"),
        ("read-only", read_only, "ok"),
        ("big.endian", X.astype(">f8"), "ok"),
        ("near float32's largest", big, {"ok", "error: FloatingPointError"}),
        ("list of lists", X.tolist(), "ok"),
        ("ragged", [[1.0, 2.0], [3.0]], "error: ValueError"),
        ("None", None, "error: ValueError"),
        ("a string", "X", "error: TypeError"),
    ]


ESTIMATORS = [
    lambda: Perceptron(max_iter=3, random_state=0),
    lambda: Perceptron(max_iter=3, average=True, multiclass="multinomial", random_state=0),
    lambda: VotedPerceptron(max_iter=2, random_state=0),
    lambda: CentroidClassifier(),
    lambda: KernelPerceptron(max_iter=2, random_state=0),
]


@pytest.mark.parametrize("make", ESTIMATORS)
def test_fit_predict_decision_with_every_bad_x(make, rng):
    _, y = base(rng)
    record = {}
    for name, X, promised in bad_xs(rng):
        got = outcome(make().fit, X, y)
        record[name] = got
        if isinstance(promised, set):  # weights that overflow end the fit clearly
            assert got in promised | {"error: ValueError"}, (name, got)
        else:
            assert got == promised, (name, got)
    # predict and decision_function of a fitted model take the same inputs
    model = make().fit(*base(rng))
    for name, X, promised in bad_xs(rng):
        for method in (model.predict, model.decision_function):
            got = outcome(method, X)
            if promised == "ok" or isinstance(promised, set):
                assert got in ("ok", "error: ValueError"), (name, got)
            else:
                assert got == promised, (name, method.__name__, got)
    assert record["nan"].startswith("error") and record["column view"] == "ok"


def test_labels_weights_and_shapes(rng):
    X, y = base(rng)
    cases = [
        ("short y", (X, y[:-1]), "error: ValueError"),
        ("one class", (X, np.ones(len(y))), "error: ValueError"),
        ("nan label", (X, np.where(y > 0, 1.0, np.nan)), "error: ValueError"),
        ("continuous", (X, X[:, 0]), "error: ValueError"),
        ("3-D y", (X, y[:, None, None]), "error: ValueError"),
        ("complex y", (X, y.astype(complex)), "error: TypeError"),
        ("column y", (X, y[:, None]), "ok"),
        ("mixed labels", (X, np.array([1, "a"] * 20, dtype=object)), "error: TypeError"),
        ("None labels", (X, np.array([None, 1] * 20, dtype=object)), "error: ValueError"),
    ]
    for name, args, promised in cases:
        assert outcome(Perceptron(max_iter=2).fit, *args) == promised, name
    for sw, promised in [(np.ones(3), "error: ValueError"), (-np.ones(len(y)), "error: ValueError"),
                         (np.full(len(y), np.nan), "error: ValueError"),
                         (np.zeros(len(y)), "error: ValueError"),
                         (np.array(["a"] * len(y)), "error: TypeError")]:
        assert outcome(lambda X, y, sw: Perceptron(max_iter=2).fit(X, y, sample_weight=sw),
                       X, y, sw) == promised
    model = Perceptron(max_iter=2).fit(X, y)
    assert outcome(model.predict, X[:, :3]) == "error: ValueError"  # feature count
    assert outcome(model.partial_fit, X[:, :3], y) == "error: ValueError"
    assert outcome(model.partial_fit, X, np.full(len(y), 7)) == "error: ValueError"
    assert outcome(Perceptron().partial_fit, X, y) == "error: ValueError"  # classes missing


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 12), d=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from(["float32", "float64", "int8", "float16", "bool", ">f4"]),
       special=st.sampled_from([None, np.nan, np.inf, -np.inf, 1e300, -0.0, 5e-324]),
       where=st.integers(0, 10**6))
def test_hypothesis_shapes_dtypes_and_edge_values(n, d, seed, dtype, special, where):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    if special is not None and X.dtype.kind == "f":
        X.flat[where % X.size] = special
    y = np.arange(n) % 2 if n > 1 else np.array([0])
    got = outcome(Perceptron(max_iter=3, random_state=0).fit, X, y)
    if n < 2 or (special is not None and X.dtype.kind == "f" and not np.isfinite(X).all()):
        assert got.startswith("error")
    model = Perceptron(max_iter=2, random_state=0).fit(rng.standard_normal((6, d)), np.arange(6) % 2)
    got = outcome(model.decision_function, X)
    if np.isfinite(X.astype(np.float64)).all() and np.abs(X.astype(np.float64)).max() < 1e300:
        assert got == "ok"
    else:
        assert got in ("ok", "error: ValueError")


def test_geometry_functions_with_bad_input(rng):
    X, y = base(rng)
    w = rng.standard_normal(X.shape[1])
    for fn in (geometry.functional_margin, geometry.geometric_margin, geometry.margin,
               geometry.perceptron_loss, geometry.perceptron_loss_subgradient):
        assert outcome(fn, w, X, y) == "ok"
        assert outcome(fn, w[:-1], X, y) == "error: ValueError"
        assert outcome(fn, np.zeros_like(w), X, y) in ("ok", "error: ValueError")
        bad = X.copy()
        bad[0, 0] = np.nan
        assert outcome(fn, w, bad, y) == "error: ValueError"
        assert outcome(fn, w, X, y[:-1]) == "error: ValueError"
        assert outcome(fn, np.full(w.shape, "spam"), X, y).startswith("error")
    for fn in (geometry.signed_distance, geometry.project):
        assert outcome(fn, w, X) == "ok"
        assert outcome(fn, w, X[:, :2]) == "error: ValueError"
    assert outcome(geometry.radius, X[:0]) == "error: ValueError"
    assert outcome(geometry.mistake_bound, X, y, np.zeros_like(w)) == "error: ValueError"


def test_readers_and_loader_with_bad_input(tmp_path):
    bad = tmp_path / "bad.svm"
    bad.write_bytes(b"1 1:0.5\n\xff\xfe 2:1\n")
    assert outcome(perceptron.io.load_svmlight, str(bad)) == "error: ValueError"
    with pytest.raises(FileNotFoundError):
        perceptron.io.load_svmlight(str(tmp_path / "missing.svm"))
    for payload in (b"", b"\x89PTN", b"\x80\x04\x95" + b"\x00" * 100, b"PK\x03\x04" + b"\x00" * 60):
        path = tmp_path / "m.ptn"
        path.write_bytes(payload)
        assert outcome(perceptron.load, str(path)) == "error: ValueError"
    assert outcome(perceptron.load, io.BytesIO(b"not a model")) in ("error: ValueError",
                                                                   "error: TypeError")

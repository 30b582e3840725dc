"""Model files: model.save / perceptron.load for every estimator and mode,
continuing training from a loaded model, pickling, and files from strangers
(truncated, corrupt, newer, oversized, pickles): a clear ModelFileError,
never a crash."""
import io
import json
import pickle
import struct
import zlib
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import perceptron
from perceptron import CentroidClassifier, KernelPerceptron, Perceptron, VotedPerceptron
from perceptron._core import model_file as _model_file
from perceptron.exceptions import ModelFileError
from perceptron.io import load_model, save_model

from helpers import quiet


def make_data(rng, n=90, d=6, dtype=np.float64):
    X = rng.standard_normal((n, d)).astype(dtype)
    y3 = np.argmax(X[:, :3] + 0.3 * rng.standard_normal((n, 3)), axis=1)
    return X, y3


def cases(dtype):
    """(name, estimator, X, y) for every estimator and mode."""
    rng = np.random.default_rng(3)
    X, y3 = make_data(rng, dtype=dtype)
    y2 = np.where(y3 == 0, "yes", "no")
    Y = (X[:, :4] > 0).astype(int)
    G = X @ X.T
    return [
        ("binary", Perceptron(random_state=0), X, y2),
        ("ovr", Perceptron(random_state=0, n_jobs=2), X, y3),
        ("multinomial", Perceptron(random_state=0, multiclass="multinomial"), X, y3),
        ("multinomial-2", Perceptron(random_state=0, multiclass="multinomial"), X, y3 == 1),
        ("multilabel", Perceptron(random_state=0, max_iter=30), X, Y),
        ("averaged", Perceptron(random_state=0, average=True, max_iter=20), X, y3),
        ("pocket", Perceptron(random_state=0, pocket=True, max_iter=20), X, y3 + 10),
        ("margin-batch", Perceptron(random_state=1, margin=0.5, batch_size=8, max_iter=15,
                                    eta0=0.5), X, y3.astype(float)),
        ("early-stopping", Perceptron(random_state=0, early_stopping=True, max_iter=40,
                                      class_weight={0: 2.0, 1: 1.0, 2: 0.5}), X, y3),
        ("bool-labels", Perceptron(random_state=0, shuffle=False, fit_intercept=False), X,
         y3 == 2),
        ("voted", VotedPerceptron(random_state=0, max_vectors=40), X, y2),
        ("voted-ovr", VotedPerceptron(random_state=0, max_iter=3), X, y3),
        ("centroid", CentroidClassifier(), X, y2),
        ("centroid-3", CentroidClassifier(), X, y3),
        ("kernel-rbf", KernelPerceptron(random_state=0, max_iter=20), X, y2),
        ("kernel-poly-ovr", KernelPerceptron(kernel="poly", degree=2, random_state=0,
                                             max_iter=10, max_support_vectors=30), X, y3),
        ("kernel-linear", KernelPerceptron(kernel="linear", random_state=0, max_iter=10), X,
         y3 == 0),
        ("kernel-sigmoid", KernelPerceptron(kernel="sigmoid", gamma=0.1, random_state=0,
                                            max_iter=5), X, y3),
        ("kernel-precomputed", KernelPerceptron(kernel="precomputed", random_state=0,
                                                max_iter=10), G.astype(dtype), y2),
    ]


CASE_NAMES = [c[0] for c in cases(np.float64)]


def fitted(name, dtype):
    for case in cases(dtype):
        if case[0] == name:
            _, est, X, y = case
            return quiet(est.fit, X, y), X, y
    raise KeyError(name)


def assert_same_value(a, b, where):
    assert type(a) is type(b), (where, type(a), type(b))
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, where
        assert a.flags.c_contiguous and a.flags.writeable, where
        if a.dtype.kind == "f":
            np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8), err_msg=where)
        else:
            np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            assert_same_value(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (u, v) in enumerate(zip(a, b)):
            assert_same_value(u, v, f"{where}[{i}]")
    elif hasattr(a, "__dict__") and not callable(a):
        assert_same_attributes(a, b, where, skip=("rows",))  # a state: its row order is not saved
    else:
        assert a == b or (a != a and b != b), where


def assert_same_attributes(a, b, where, skip=()):
    names = set(vars(a)) - set(skip)
    assert names == set(vars(b)) - set(skip), where
    for name in sorted(names):
        assert_same_value(getattr(a, name), getattr(b, name), f"{where}.{name}")


def round_trip(model, training_state=True):
    # whole files (the training state kept): tests/io/test_compact.py has the compact ones
    buf = io.BytesIO()
    model.save(buf, training_state=training_state)
    return perceptron.load(io.BytesIO(buf.getvalue())), buf.getvalue()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", CASE_NAMES)
def test_round_trip(name, dtype, tmp_path):
    model, X, y = fitted(name, dtype)
    path = tmp_path / "model.ptn"
    model.save(path, training_state=True)
    loaded = perceptron.load(path)
    assert type(loaded) is type(model)
    assert loaded.get_params() == model.get_params()
    assert_same_attributes(model, loaded, name, skip=("rows",))
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    a, b = loaded.decision_function(X), model.decision_function(X)
    assert a.dtype == b.dtype
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    assert loaded.score(X, y) == model.score(X, y)
    # the same file again from the loaded model, byte for byte
    assert round_trip(loaded)[1] == path.read_bytes()
    # the state's row order is dropped, the rest of the state kept
    for state in getattr(loaded, "_states", []):
        assert state.rows is None


@pytest.mark.parametrize("name", CASE_NAMES)
def test_pickle_round_trip(name):
    model, X, _ = fitted(name, np.float32)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    np.testing.assert_array_equal(again.decision_function(X), model.decision_function(X))


def test_linear_model_seen_by_c_is_the_estimators():
    for name in ("binary", "ovr", "multilabel", "multinomial-2", "centroid-3"):
        for dtype in (np.float32, np.float64):
            model, X, _ = fitted(name, dtype)
            data = np.frombuffer(round_trip(model)[1], dtype=np.uint8)
            kind, code, k, d, coef_at, intercept_at = _model_file.linear_view(data)
            assert (k, d) == model.coef_.shape
            assert kind == {"multilabel": 2}.get(name, 0 if k == 1 else 1)
            assert code == (0 if dtype == np.float32 else 1)
            assert coef_at % 64 == 0 and intercept_at % 64 == 0
            coef = np.frombuffer(data, dtype=dtype, count=k * d, offset=coef_at).reshape(k, d)
            np.testing.assert_array_equal(coef, model.coef_)
            np.testing.assert_array_equal(
                np.frombuffer(data, dtype=dtype, count=k, offset=intercept_at), model.intercept_)
    for name in ("voted", "kernel-linear"):
        with pytest.raises(ValueError, match="not linear"):
            _model_file.linear_view(np.frombuffer(round_trip(fitted(name, np.float64)[0])[1],
                                                  dtype=np.uint8))


@pytest.mark.parametrize("name", ["binary", "ovr", "multinomial", "multilabel", "averaged",
                                  "pocket", "margin-batch"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_partial_fit_continues_from_a_loaded_model(name, dtype):
    model, X, y = fitted(name, dtype)
    params = model.get_params()
    params.pop("early_stopping")
    rng = np.random.default_rng(5)
    X2 = rng.standard_normal(X.shape).astype(dtype)
    first = Perceptron(**params)
    classes = None if name in ("multinomial", "multilabel") else np.unique(y)
    quiet(first.partial_fit, X, y, classes=classes)
    loaded, _ = round_trip(first)
    for est in (first, loaded):
        quiet(est.partial_fit, X2, y)
        quiet(est.partial_fit, X, y)
    assert_same_attributes(first, loaded, name, skip=("rows",))


def test_a_file_with_the_older_history_lists_loads_and_continues():
    # files written before the histories lived in the arrays alone also hold
    # them as lists (_history): still read, checked, and dropped
    model, X, y = fitted("binary", np.float64)
    model._history = {"mistakes": model.mistakes_.tolist(), "updates": model.updates_.tolist(),
                      "loss": model.loss_.tolist()}
    loaded, _ = round_trip(model)
    assert not hasattr(loaded, "_history")
    np.testing.assert_array_equal(loaded.mistakes_, model.mistakes_)
    n = len(loaded.mistakes_)
    quiet(loaded.partial_fit, X, y)
    assert len(loaded.mistakes_) == len(loaded.loss_) == loaded.n_iter_ == n + 1
    model._history["loss"] = ["not a number"]
    with pytest.raises(ModelFileError, match="_history"):
        round_trip(model)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_warm_start_continues_from_a_loaded_model(dtype):
    model, X, y = fitted("averaged", dtype)
    model.set_params(warm_start=True, max_iter=5)
    loaded, _ = round_trip(model)
    assert loaded.warm_start is True
    quiet(model.fit, X, y)
    quiet(loaded.fit, X, y)
    np.testing.assert_array_equal(model.coef_, loaded.coef_)
    np.testing.assert_array_equal(model.intercept_, loaded.intercept_)


def test_multinomial_partial_fit_may_add_a_class_after_loading(rng):
    X, y = make_data(rng)
    model = quiet(Perceptron(multiclass="multinomial", random_state=0).partial_fit, X, y)
    loaded, _ = round_trip(model)
    y_new = np.where(y == 2, 7, y)
    for est in (model, loaded):
        quiet(est.partial_fit, X, y_new)
    np.testing.assert_array_equal(loaded.classes_, [0, 1, 2, 7])
    np.testing.assert_array_equal(model.coef_, loaded.coef_)


def test_feature_names_are_kept(rng):
    pd = pytest.importorskip("pandas")
    X, y = make_data(rng)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    for est in (Perceptron(random_state=0), VotedPerceptron(random_state=0), CentroidClassifier()):
        model = quiet(est.fit, frame, y)
        loaded, _ = round_trip(model)
        np.testing.assert_array_equal(loaded.feature_names_in_, model.feature_names_in_)
        assert loaded.feature_names_in_.dtype == object
        np.testing.assert_array_equal(loaded.predict(frame), model.predict(frame))
        with pytest.raises(ValueError, match="feature names should match"):
            loaded.predict(frame.rename(columns={"f0": "g"}))


def test_labels_of_every_json_type(rng):
    X, y = make_data(rng)
    for labels in (np.array(["a", "bb", "ccc"]), np.array([b"x", b"y", b"\xff"]),
                   np.array([-5, 0, 2**40]), np.array([1.0, 2.0, -3.0]),
                   np.array(["x", "yy", "z"], dtype=object), np.array([1, 2, 3], dtype=object),
                   np.array(["é", "ß", "中"]), np.array([10, 20, 30], dtype=np.uint8)):
        model = quiet(Perceptron(random_state=0).fit, X, labels[y])
        loaded, _ = round_trip(model)
        assert loaded.classes_.dtype == model.classes_.dtype
        assert loaded.classes_.tolist() == model.classes_.tolist()
        assert [type(v) for v in loaded.classes_.tolist()] == \
            [type(v) for v in model.classes_.tolist()]
        np.testing.assert_array_equal(loaded.predict(X), model.predict(X))


def test_unfitted_estimators_round_trip():
    for est in (Perceptron(eta0=0.5, class_weight={"a": 2.0}, random_state=7),
                VotedPerceptron(max_vectors=3), CentroidClassifier(),
                KernelPerceptron(kernel="poly", gamma="auto", degree=4)):
        loaded, _ = round_trip(est)
        assert type(loaded) is type(est) and loaded.get_params() == est.get_params()
        assert not hasattr(loaded, "classes_")


def test_save_refuses_what_a_data_file_cannot_hold(rng, tmp_path):
    X, y = make_data(rng)
    labels = np.empty(3, dtype=object)
    labels[:] = [Decimal(1), Decimal(2), Decimal(3)]
    model = quiet(Perceptron(random_state=0).fit, X, labels[y])
    with pytest.raises(ValueError, match=r"classes_ holds the value Decimal\('1'\) of type "
                                         r"Decimal; the labels .* must be strings, booleans or "
                                         r"finite numbers \(a model file never pickles\)"):
        model.save(tmp_path / "m.ptn")
    assert not list(tmp_path.iterdir())  # nothing left behind
    kernel = quiet(KernelPerceptron(kernel=lambda A, B: A @ B.T).fit, X, y)
    with pytest.raises(ValueError, match="callable kernel"):
        kernel.save(io.BytesIO())

    class Mine(Perceptron):
        pass

    with pytest.raises(TypeError, match="only the estimators of the package"):
        save_model(quiet(Mine(random_state=0).fit, X, y), io.BytesIO())
    model = quiet(Perceptron(random_state=np.random.default_rng(0), max_iter=5,
                             callback=lambda info: None).fit, X, y)
    with pytest.warns(UserWarning) as record:
        loaded, _ = round_trip(model)
    assert len(record) == 2
    assert loaded.random_state is None and loaded.callback is None
    with pytest.raises(TypeError, match="binary mode"):
        model.save(io.StringIO())


# ------------------------------------------------------ files from strangers

SMALL = {
    "perceptron": lambda: Perceptron(random_state=0, max_iter=3),
    "averaged-multinomial": lambda: Perceptron(random_state=0, max_iter=3, average=True,
                                               multiclass="multinomial"),
    "voted": lambda: VotedPerceptron(random_state=0, max_iter=2),
    "centroid": CentroidClassifier,
    "kernel": lambda: KernelPerceptron(kernel="poly", degree=2, random_state=0, max_iter=3),
}


def small_file(kind="perceptron"):
    rng = np.random.default_rng(0)
    X, y = make_data(rng, n=20, d=4)
    model = quiet(SMALL[kind]().fit, X, y)
    return model, X, round_trip(model)[1]


_SMALL_FILES = {kind: small_file(kind) for kind in SMALL}


def fix_crc(data):
    data = bytearray(data)
    data[20:24] = b"\0\0\0\0"
    data[20:24] = struct.pack("<I", zlib.crc32(data))
    return bytes(data)


def load_bytes(data):
    return load_model(io.BytesIO(bytes(data)))


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_truncation_at_every_offset(kind):
    _, _, data = _SMALL_FILES[kind]
    for n in range(len(data)):
        with pytest.raises(ModelFileError, match="truncated|not a perceptron model file"):
            load_bytes(data[:n])
    with pytest.raises(ModelFileError, match="8 bytes past the end"):
        load_bytes(data + b"\0" * 8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(sorted(SMALL)))
def test_random_byte_changes_never_crash(data, kind):
    model, X, original = _SMALL_FILES[kind]
    changed = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(changed) - 1))
        changed[pos] = data.draw(st.integers(0, 255))
    fixed = data.draw(st.booleans())
    if fixed:  # get past the checksum, to the checks behind it
        changed = fix_crc(changed)
    try:
        loaded = load_bytes(changed)
    except ModelFileError as exc:
        assert str(exc).startswith("<file>: ")
        return
    assert bytes(changed) == original or fixed
    try:  # what loads is a valid model: it scores and trains on, or refuses clearly
        labels = loaded.predict(X)
        loaded.decision_function(X)
        if isinstance(loaded, Perceptron):
            quiet(loaded.partial_fit, X, labels)
    except (ValueError, FloatingPointError):
        pass


def test_checksum_catches_a_changed_weight():
    _, _, data = small_file()
    changed = bytearray(data)
    changed[-1] ^= 0x10
    with pytest.raises(ModelFileError, match="checksum mismatch.*corrupt"):
        load_bytes(changed)


def header_of(data):
    info = _model_file.read_container(np.frombuffer(data, dtype=np.uint8))
    return json.loads(info["header"]), info


def referenced(value):
    """Names of the table's arrays a JSON value refers to."""
    if isinstance(value, dict):
        if set(value) == {"array"}:
            return {value["array"]}
        return set().union(*(referenced(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(referenced(v) for v in value))
    return set()


def with_header(data, header):
    """The file with another JSON header, the layout rebuilt around it (and
    without the arrays the header no longer uses)."""
    keep = referenced(header)
    return with_header_bytes(data, json.dumps(header).encode(), keep)


def with_header_bytes(data, text, keep=None):
    from perceptron.io import _model_file as _model_io

    _, info = header_of(data)
    buf = np.frombuffer(data, dtype=np.uint8)
    arrays = [(name, np.frombuffer(buf, dtype=dtype, count=nbytes // np.dtype(dtype).itemsize,
                                   offset=offset).reshape(shape))
              for name, dtype, shape, offset, nbytes in info["arrays"]
              if keep is None or name in keep]
    return _model_io._pack(info["linear_kind"], text, arrays)


def test_newer_version_is_refused():
    _, _, data = small_file()
    newer = bytearray(data)
    newer[8:12] = struct.pack("<I", 2)
    with pytest.raises(ModelFileError, match="format version 2.*newer version of the package"):
        load_bytes(newer)
    with pytest.raises(ModelFileError, match="format version 2"):
        load_bytes(fix_crc(newer))
    newer[8:12] = struct.pack("<I", 0)
    with pytest.raises(ModelFileError, match="format version 0"):
        load_bytes(newer)


def test_a_newer_layout_of_an_estimator_is_refused():
    # each estimator declares the version of its layout (perceptron.io._registry);
    # files of the first layout hold no key, a newer one is refused by name
    # (the Perceptron's layout 2 lets the training state out: tests/io/test_compact.py)
    model, X, data = small_file()
    header, _ = header_of(data)
    assert "schema_version" not in header
    for version in (3, "2", True, None):
        newer = with_header(data, dict(header, schema_version=version))
        with pytest.raises(ModelFileError, match="layout version"):
            load_bytes(newer)
    np.testing.assert_array_equal(load_bytes(data).predict(X), model.predict(X))


def test_oversized_header_is_refused():
    _, _, data = small_file()
    big = bytearray(data)
    big[32:40] = struct.pack("<Q", 2**40)
    with pytest.raises(ModelFileError, match=r"header claims 1099511627776 bytes, more than the "
                                             r"67108864 allowed"):
        load_bytes(big)
    big[32:40] = struct.pack("<Q", 2**64 - 1)
    with pytest.raises(ModelFileError, match="header claims"):
        load_bytes(fix_crc(big))
    many = bytearray(data)
    many[16:20] = struct.pack("<I", 2**31)
    with pytest.raises(ModelFileError, match="2147483648 arrays, more than the 4096 allowed"):
        load_bytes(many)


def test_pickles_and_other_files_are_refused(tmp_path):
    model, _, _ = small_file()
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(model))
    with pytest.raises(ModelFileError, match="it is a pickle: perceptron never loads pickles"):
        perceptron.load(path)
    np.savez(tmp_path / "arrays.npz", coef=model.coef_)
    with pytest.raises(ModelFileError, match="zip archive"):
        perceptron.load(tmp_path / "arrays.npz")
    np.save(tmp_path / "array.npy", model.coef_)
    with pytest.raises(ModelFileError, match=r"\.npy array"):
        perceptron.load(tmp_path / "array.npy")
    (tmp_path / "text.txt").write_text("hello")
    with pytest.raises(ModelFileError, match="not a perceptron model file"):
        perceptron.load(tmp_path / "text.txt")
    with pytest.raises(TypeError, match="binary mode"):
        load_model(io.StringIO("x"))


def test_wrong_kind_of_model_is_refused():
    _, _, data = small_file()
    header, _ = header_of(data)
    for cls in ("os.system", "Foo", "perceptron.linear.Perceptron", 3, None):
        with pytest.raises(ModelFileError, match="is not an estimator of this package"):
            load_bytes(with_header(data, dict(header, **{"class": cls})))
    # a Perceptron's attributes given to another class
    with pytest.raises(ModelFileError, match="is not a fitted attribute of VotedPerceptron"):
        load_bytes(with_header(data, dict(header, **{"class": "VotedPerceptron", "params": {}})))
    with pytest.raises(ModelFileError, match="has no parameter 'shell'.*newer version"):
        load_bytes(with_header(data, dict(header, params=dict(header["params"], shell="rm"))))
    with pytest.raises(ModelFileError, match="'__class__' is not a fitted attribute"):
        load_bytes(with_header(data, dict(header, fitted=dict(header["fitted"], __class__=1))))
    with pytest.raises(ModelFileError, match="header has the keys"):
        load_bytes(with_header(data, dict(header, extra=1)))
    with pytest.raises(ModelFileError, match="unknown tag 'pickle'"):
        load_bytes(with_header(data, dict(header, fitted=dict(header["fitted"],
                                                              t_={"pickle": "x"}))))
    deep = 1
    for _ in range(40):
        deep = {"list": [deep]}
    with pytest.raises(ModelFileError, match="nest more than 16 deep"):
        load_bytes(with_header(data, dict(header, fitted=dict(header["fitted"], t_=deep))))
    for text in (b"[1, 2]", b"{", b"\xff\xfe", b'{"a": NaN}', b"[" * 100000 + b"]" * 100000):
        with pytest.raises(ModelFileError, match="header"):
            load_bytes(with_header_bytes(data, text))


def test_arrays_that_disagree_with_the_model_are_refused():
    model, X, data = small_file()
    header, info = header_of(data)
    names = [a[0] for a in info["arrays"]]
    # coef_'s table entry says (n_features, k) instead of (k, n_features): same size
    table = 64 + 96 * names.index("coef_")
    swapped = bytearray(data)
    k, d = model.coef_.shape
    swapped[table + 56:table + 72] = struct.pack("<QQ", d, k)
    with pytest.raises(ModelFileError, match=r"coef_ must be a float32 or float64 array of "
                                             r"shape \(3, n_features_in_\)"):
        load_bytes(fix_crc(swapped))
    # a shape whose product does not match the size
    wrong = bytearray(data)
    wrong[table + 56:table + 64] = struct.pack("<Q", k + 1)
    with pytest.raises(ModelFileError, match="array 'coef_': its shape does not match its size"):
        load_bytes(fix_crc(wrong))
    # an object dtype (or any unknown code)
    for code in (0, 12, 255):
        obj = bytearray(data)
        obj[table + 32] = code
        with pytest.raises(ModelFileError, match=f"unknown dtype code {code}.*object"):
            load_bytes(fix_crc(obj))
    # n_features_in_ that does not match coef_
    with pytest.raises(ModelFileError, match="coef_ must be"):
        load_bytes(with_header(data, dict(header, fitted=dict(header["fitted"],
                                                              n_features_in_=d + 1))))
    # a training state that does not match the model
    fitted_ = dict(header["fitted"])
    states = fitted_["_states"]["list"]
    fitted_["_states"] = {"list": states[:1]}
    with pytest.raises(ModelFileError, match="_states must hold 3 training states"):
        load_bytes(with_header(data, dict(header, fitted=fitted_)))
    fitted_ = json.loads(json.dumps(header["fitted"]))
    fitted_["_states"]["list"][1]["online_state"]["multinomial"] = True
    with pytest.raises(ModelFileError, match=r"_states\[1\].multinomial must be False"):
        load_bytes(with_header(data, dict(header, fitted=fitted_)))
    # an array of the table that the header does not use
    fitted_ = dict(header["fitted"])
    del fitted_["loss_"]
    with pytest.raises(ModelFileError, match=r"arrays \['loss_'\] are not used"):
        load_bytes(with_header_bytes(data, json.dumps(dict(header, fitted=fitted_)).encode()))
    # the preamble's linear kind must be the header's model's
    kind = bytearray(data)
    kind[12:16] = struct.pack("<I", 1)
    with pytest.raises(ModelFileError, match="linear kind 1 does not match"):
        load_bytes(fix_crc(kind))


def with_arrays(data, **replace):
    """The file with some arrays of the table replaced (same names)."""
    from perceptron.io import _model_file as _model_io

    header, info = header_of(data)
    buf = np.frombuffer(data, dtype=np.uint8)
    arrays = []
    for name, dtype, shape, offset, nbytes in info["arrays"]:
        a = np.frombuffer(buf, dtype=dtype, count=nbytes // np.dtype(dtype).itemsize,
                          offset=offset).reshape(shape)
        arrays.append((name, replace.get(name, a)))
    return _model_io._pack(info["linear_kind"], json.dumps(header).encode(), arrays)


def test_classes_out_of_order_are_refused(rng):
    # partial_fit finds class indices by binary search in classes_: out of
    # order, a label could map past the last row of the weights (a crash
    # found by random byte changes)
    X, y = make_data(rng)
    model = quiet(Perceptron(multiclass="multinomial", random_state=0).fit, X, y * 10)
    _, data = round_trip(model)
    for classes in ([0, 20, 10], [0, 10, 10]):
        with pytest.raises(ModelFileError, match="classes_ must hold distinct labels in "
                                                 "increasing order"):
            load_bytes(with_arrays(data, classes_=np.array(classes, dtype=np.int64)))


def test_kernel_support_indices_are_checked():
    model, X, _ = fitted("kernel-precomputed", np.float64)
    _, data = round_trip(model)
    header, info = header_of(data)
    buf = np.frombuffer(data, dtype=np.uint8)
    arrays = []
    for name, dtype, shape, offset, nbytes in info["arrays"]:
        a = np.frombuffer(buf, dtype=dtype, count=nbytes // 8, offset=offset).reshape(shape)
        if name == "support_":
            a = a.copy()
            a[-1] = 10**6  # would index past the kernel values at predict
        arrays.append((name, a))
    from perceptron.io import _model_file as _model_io

    bad = _model_io._pack(0, json.dumps(header).encode(), arrays)
    with pytest.raises(ModelFileError, match="support_ indexes past the training rows"):
        load_bytes(bad)


def test_layout_errors_name_the_problem():
    _, _, data = small_file()
    cases_ = [
        (24, struct.pack("<Q", 65), "the header is at byte 65"),
        (40, struct.pack("<Q", 0), "the data offset 0 is not the header's end"),
        (56, b"\x01", "nonzero reserved bytes in the preamble"),
        (12, struct.pack("<I", 9), "unknown linear model kind 9"),
        (64, b"co\x01f", "its name holds the byte 0x01"),
        (64, b"\0", "its name is empty"),
        (64 + 33, b"\x07", "7 dimensions"),
        (64 + 40, struct.pack("<Q", 2**64 - 64), "its data is at byte"),
    ]
    for offset, patch, message in cases_:
        bad = bytearray(data)
        bad[offset:offset + len(patch)] = patch
        with pytest.raises(ModelFileError, match=message):
            load_bytes(fix_crc(bad))
    # two arrays with one name
    header, info = header_of(data)
    bad = bytearray(data)
    bad[64 + 96:64 + 96 + 32] = bad[64:64 + 32]
    with pytest.raises(ModelFileError, match="two arrays are called 'coef_'"):
        load_bytes(fix_crc(bad))


def test_file_size_is_checked_against_the_preamble():
    _, _, data = small_file()
    bad = bytearray(data)
    bad[48:56] = struct.pack("<Q", len(data) + 64)
    with pytest.raises(ModelFileError, match=f"truncated: the file should be {len(data) + 64} "
                                             f"bytes long, it has {len(data)}"):
        load_bytes(bad)


def test_crc_is_zlibs():
    data = np.frombuffer(b"perceptron model file", dtype=np.uint8)
    assert _model_file.crc32(data) == zlib.crc32(data.tobytes())
    assert _model_file.crc32(data[:0]) == 0


def test_a_lone_surrogate_label_is_refused_naming_it(tmp_path):
    # UTF-8 has no encoding of a lone surrogate (The Unicode Standard,
    # section 3.9): the file cannot hold it, and the message names the label
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    y = np.array(["ok", "bad\ud800", "ok", "bad\ud800"])
    model = Perceptron().fit(X, y)
    path = tmp_path / "m.ptn"
    with pytest.raises(ValueError, match="lone surrogate") as info:
        model.save(path)
    assert "classes_" in str(info.value) and repr("bad\ud800") in str(info.value)
    assert not path.exists()

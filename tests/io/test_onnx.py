"""ONNX export (perceptron.onnx): labels and scores computed by onnxruntime
equal the estimator's, for every linear model kind, float32 and float64,
integer and string labels; what cannot be exported is refused."""
import sys

import numpy as np
import pytest

pytest.importorskip("skl2onnx", reason="skl2onnx is not installed (pip install "
                                       "perceptron-family[onnx])")
pytest.importorskip("onnx", reason="onnx is not installed (pip install perceptron-family[onnx])")
ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed (pip install "
                                                "perceptron-family[onnx])")

import skl2onnx  # noqa: E402

from perceptron import (CentroidClassifier, KernelPerceptron, NotFittedError,  # noqa: E402
                        PassiveAggressiveClassifier, Perceptron, VotedPerceptron)
from perceptron import onnx as ponnx  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::perceptron.ConvergenceWarning")


def _data(dtype, seed=0, n=300, d=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(dtype)
    t = X[:, 0] + 0.5 * X[:, 1]
    return X, {
        "binary": (t > 0.1).astype(np.int64),
        "multiclass": np.digitize(t, [-0.6, 0.6]) * 10 - 5,  # -5, 5, 15
        "multilabel": np.stack([X[:, 0] > 0, X[:, 1] > 0.3, t < 0], axis=1).astype(np.int64),
    }


def _labels(y, kind):
    if kind == "int":
        return y
    names = np.array(["alpha", "beta", "gamma"])
    return names[np.searchsorted(np.unique(y), y)]


MODELS = {
    "binary": (lambda: Perceptron(random_state=0), "binary"),
    "binary-averaged": (lambda: Perceptron(average=True, random_state=0), "binary"),
    "ovr": (lambda: Perceptron(multiclass="ovr", random_state=0), "multiclass"),
    "ovr-averaged": (lambda: Perceptron(multiclass="ovr", average=True, random_state=0),
                     "multiclass"),
    "multinomial": (lambda: Perceptron(multiclass="multinomial", random_state=0),
                    "multiclass"),
    "multinomial-averaged": (lambda: Perceptron(multiclass="multinomial", average=True,
                                                random_state=0), "multiclass"),
    "multinomial-binary": (lambda: Perceptron(multiclass="multinomial", random_state=0),
                           "binary"),
    "pocket": (lambda: Perceptron(pocket=True, random_state=0), "binary"),
    "pa1": (lambda: PassiveAggressiveClassifier(random_state=0), "binary"),
    "pa2-ovr-averaged": (lambda: PassiveAggressiveClassifier(loss="squared_hinge", average=True,
                                                             random_state=0), "multiclass"),
    "pa1-multinomial": (lambda: PassiveAggressiveClassifier(multiclass="multinomial",
                                                            random_state=0), "multiclass"),
    "centroid-binary": (lambda: CentroidClassifier(), "binary"),
    "centroid": (lambda: CentroidClassifier(), "multiclass"),
    "kernel-linear-binary": (lambda: KernelPerceptron(kernel="linear", random_state=0),
                             "binary"),
    "kernel-linear": (lambda: KernelPerceptron(kernel="linear", random_state=0),
                      "multiclass"),
}


def _run(onx, X):
    session = ort.InferenceSession(onx.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, {session.get_inputs()[0].name: X})))


def _check_scores(got, want, dtype):
    assert got.dtype == dtype
    assert got.shape == want.shape
    scale = max(1.0, float(np.abs(want).max()))
    if dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * scale)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10 * scale)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("label_kind", ["int", "str"])
@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_labels_and_scores_equal_ours(model_name, label_kind, dtype):
    make, problem = MODELS[model_name]
    X, ys = _data(dtype)
    y = _labels(ys[problem], label_kind)
    model = make().fit(X, y)
    out = _run(ponnx.to_onnx(model, X), X)
    assert list(out) == ["label", "probabilities"]
    want_labels = model.predict(X)
    assert out["label"].shape == want_labels.shape
    np.testing.assert_array_equal(out["label"], want_labels)
    if label_kind == "str":
        assert out["label"].dtype == object
    else:
        assert out["label"].dtype == np.int64
    _check_scores(out["probabilities"], model.decision_function(X), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_multilabel(dtype):
    X, ys = _data(dtype)
    model = Perceptron(random_state=0).fit(X, ys["multilabel"])
    out = _run(ponnx.to_onnx(model, X), X)
    assert out["label"].dtype == np.int64 and out["label"].shape == ys["multilabel"].shape
    np.testing.assert_array_equal(out["label"], model.predict(X))
    _check_scores(out["probabilities"], model.decision_function(X), dtype)


def test_float_and_bool_labels_keep_their_values():
    X, ys = _data(np.float64)
    for y in (ys["multiclass"].astype(np.float64), ys["binary"].astype(bool)):
        model = Perceptron(random_state=0).fit(X, y)
        got = _run(ponnx.to_onnx(model, X), X)["label"]
        assert got.dtype == model.classes_.dtype
        np.testing.assert_array_equal(got, model.predict(X))


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_unsigned_labels_at_or_above_2_63_keep_their_values(kind):
    X, ys = _data(np.float64)
    top = np.iinfo(np.uint64).max
    values = np.array([2**63, top, 5], dtype=np.uint64)
    index = ys[kind] if kind == "binary" else (ys[kind] + 5) // 10
    y = values[index]
    model = Perceptron(random_state=0).fit(X, y)
    assert model.classes_.dtype == np.uint64
    out = _run(ponnx.to_onnx(model, X, options={"output_class_labels": True}), X)
    assert out["label"].dtype == np.uint64
    np.testing.assert_array_equal(out["label"], model.predict(X))
    np.testing.assert_array_equal(out["class_labels"], model.classes_)
    # below 2**63 the labels stay int64, as before
    small = Perceptron(random_state=0).fit(X, index.astype(np.uint64))
    assert _run(ponnx.to_onnx(small, X), X)["label"].dtype == np.int64


def test_integer_labels_no_onnx_type_holds_are_refused():
    X, ys = _data(np.float64)
    y = np.array([-2**63 - 1, 2**64 - 1], dtype=object)[ys["binary"]]
    model = Perceptron(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="neither int64 nor uint64"):
        ponnx.to_onnx(model, X)


def test_skl2onnx_to_onnx_after_register():
    X, ys = _data(np.float32)
    model = Perceptron(random_state=0).fit(X, _labels(ys["multiclass"], "str"))
    assert ponnx.register() == ponnx.ALIAS
    out = _run(skl2onnx.to_onnx(model, X[:1]), X)
    np.testing.assert_array_equal(out["label"], model.predict(X))
    _check_scores(out["probabilities"], model.decision_function(X), np.float32)


def test_register_is_idempotent():
    from skl2onnx._supported_operators import sklearn_operator_name_map

    X, ys = _data(np.float64)
    model = Perceptron(random_state=0).fit(X, ys["multiclass"])
    ponnx.register()
    first = skl2onnx.to_onnx(model, X[:1]).SerializeToString()
    for _ in range(3):
        assert ponnx.register() == ponnx.ALIAS
    for cls in (Perceptron, CentroidClassifier, KernelPerceptron, VotedPerceptron):
        assert sklearn_operator_name_map[cls] == ponnx.ALIAS
    assert skl2onnx.to_onnx(model, X[:1]).SerializeToString() == first


def test_in_a_sklearn_pipeline():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, ys = _data(np.float32)
    pipe = make_pipeline(StandardScaler(), Perceptron(random_state=0)).fit(X, ys["multiclass"])
    ponnx.register()
    out = _run(skl2onnx.to_onnx(pipe, X[:1]), X)
    np.testing.assert_array_equal(out["label"], pipe.predict(X))
    _check_scores(out["probabilities"], pipe.decision_function(X), np.float32)


def test_input_type_from_X_dtype_or_option():
    X, ys = _data(np.float32)
    model = Perceptron(random_state=0).fit(X, ys["binary"])
    elem = {1: np.float32, 11: np.float64}

    def input_dtype(onx):
        return elem[onx.graph.input[0].type.tensor_type.elem_type]

    assert input_dtype(ponnx.to_onnx(model)) == np.float32  # the model's dtype
    assert input_dtype(ponnx.to_onnx(model, 6)) == np.float32
    assert input_dtype(ponnx.to_onnx(model, X.astype(np.float64))) == np.float64
    sparse = pytest.importorskip("scipy.sparse")
    assert input_dtype(ponnx.to_onnx(model, sparse.csr_matrix(X.astype(np.float64)))) == \
        np.float64
    onx = ponnx.to_onnx(model, dtype=np.float64)
    assert input_dtype(onx) == np.float64
    X64 = X.astype(np.float64)
    out = _run(onx, X64)
    np.testing.assert_array_equal(out["label"], model.predict(X))
    _check_scores(out["probabilities"], model.decision_function(X64), np.float64)
    assert [d.dim_value for d in onx.graph.input[0].type.tensor_type.shape.dim] == [0, 6]
    with pytest.raises(ValueError, match="features"):
        ponnx.to_onnx(model, 5)
    with pytest.raises(ValueError, match="features"):
        ponnx.to_onnx(model, X[:, :3])
    with pytest.raises(TypeError, match="dtype must be float32, float64, float16, int8 or uint8"):
        ponnx.to_onnx(model, dtype=np.int64)


def test_outputs_renamed_with_final_types():
    from skl2onnx.common.data_types import DoubleTensorType, StringTensorType

    X, ys = _data(np.float64)
    model = Perceptron(random_state=0).fit(X, _labels(ys["binary"], "str"))
    onx = ponnx.to_onnx(model, X, final_types=[("class", StringTensorType([None])),
                                               ("scores", DoubleTensorType([None]))])
    out = _run(onx, X)
    assert list(out) == ["class", "scores"]
    np.testing.assert_array_equal(out["class"], model.predict(X))
    _check_scores(out["scores"], model.decision_function(X), np.float64)


def test_options_nocl_and_output_class_labels():
    X, ys = _data(np.float64)
    y = _labels(ys["multiclass"], "str")
    model = Perceptron(random_state=0).fit(X, y)
    out = _run(ponnx.to_onnx(model, X, options={"nocl": True}), X)
    np.testing.assert_array_equal(out["label"], np.searchsorted(model.classes_,
                                                                model.predict(X)))
    out = _run(ponnx.to_onnx(model, X, options={"output_class_labels": True}), X)
    assert list(out) == ["label", "probabilities", "class_labels"]
    np.testing.assert_array_equal(out["class_labels"], model.classes_)
    # no probabilities to zip: zipmap (which skl2onnx's Pipeline sets) changes nothing
    for zipmap in (True, False):
        out = _run(ponnx.to_onnx(model, X, options={"zipmap": zipmap}), X)
        assert list(out) == ["label", "probabilities"]
        np.testing.assert_array_equal(out["label"], model.predict(X))


def test_not_fitted_is_refused():
    ponnx.register()
    for model in (Perceptron(), CentroidClassifier(), KernelPerceptron(kernel="linear")):
        with pytest.raises(NotFittedError, match=type(model).__name__):
            ponnx.to_onnx(model, 3)
        with pytest.raises(NotFittedError, match=type(model).__name__):
            skl2onnx.to_onnx(model, np.zeros((1, 3), dtype=np.float32))


@pytest.mark.parametrize("make", [lambda: VotedPerceptron(max_iter=2),
                                  lambda: KernelPerceptron(kernel="rbf", max_iter=2),
                                  lambda: KernelPerceptron(kernel="poly", max_iter=2)],
                         ids=["voted", "kernel-rbf", "kernel-poly"])
def test_what_is_not_linear_is_refused(make):
    X, ys = _data(np.float64, n=60)
    model = make().fit(X, ys["binary"])
    ponnx.register()
    with pytest.raises(TypeError, match=type(model).__name__):
        ponnx.to_onnx(model)
    with pytest.raises(TypeError, match=type(model).__name__):
        skl2onnx.to_onnx(model, X[:1])


def test_not_an_estimator_of_ours_is_refused():
    from sklearn.linear_model import Perceptron as SkPerceptron

    X, ys = _data(np.float64, n=60)
    with pytest.raises(TypeError, match="SkPerceptron|Perceptron is not an estimator"):
        ponnx.to_onnx(SkPerceptron().fit(X, ys["binary"]))


def test_missing_skl2onnx_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "skl2onnx", None)
    X, ys = _data(np.float64, n=60)
    model = Perceptron(random_state=0).fit(X, ys["binary"])
    with pytest.raises(ImportError, match=r"perceptron-family\[onnx\]"):
        ponnx.register()
    with pytest.raises(ImportError, match=r"perceptron-family\[onnx\]"):
        ponnx.to_onnx(model)


# ------------------------------------------------------- narrow input rows

NARROW = [np.float16, np.int8, np.uint8]


def _narrow_data(dtype, seed=0, n=300, d=6):
    """Rows stored as `dtype` (spread over its range) and the labels of a
    linear rule on them, for each problem kind."""
    rng = np.random.default_rng(seed)
    kind = np.dtype(dtype).kind
    if kind == "i":
        X = rng.integers(-128, 128, size=(n, d)).astype(dtype)
    elif kind == "u":
        X = rng.integers(0, 256, size=(n, d)).astype(dtype)
    else:
        X = (rng.normal(size=(n, d)) * 3).astype(dtype)
    t = X[:, 0].astype(np.float64) + 0.5 * X[:, 1] - X.astype(np.float64).mean()
    cut = np.quantile(t, [1 / 3, 2 / 3])
    return X, {
        "binary": (t > np.median(t)).astype(np.int64),
        "multiclass": np.digitize(t, cut) * 10 - 5,
        "multilabel": np.stack([t > cut[0], t > cut[1], X[:, 2] > X[:, 3]],
                               axis=1).astype(np.int64),
    }


def _input_element(onx):
    return onx.graph.input[0].type.tensor_type.elem_type


@pytest.mark.parametrize("dtype", NARROW, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("model_name", ["binary", "ovr", "multinomial", "pocket", "pa1",
                                        "pa2-ovr-averaged", "centroid"])
def test_narrow_rows_cast_in_front_score_as_ours(model_name, dtype):
    """A model fed float16, int8 or uint8 rows exports a graph that takes
    them as they are stored (a Cast to float in front): onnxruntime's labels
    are predict's and its float scores decision_function's on those rows."""
    from onnx import TensorProto

    make, problem = MODELS[model_name]
    X, ys = _narrow_data(dtype)
    model = make().fit(X, ys[problem])
    onx = ponnx.to_onnx(model, X)
    assert _input_element(onx) == {np.float16: TensorProto.FLOAT16, np.int8: TensorProto.INT8,
                                   np.uint8: TensorProto.UINT8}[dtype]
    assert [n.op_type for n in onx.graph.node][0] == "Cast"
    out = _run(onx, X)
    np.testing.assert_array_equal(out["label"], model.predict(X))
    _check_scores(out["probabilities"], model.decision_function(X), np.float32)
    # the same rows converted by the caller give the same graph's scores
    wide = _run(ponnx.to_onnx(model, X.astype(np.float32)), X.astype(np.float32))
    np.testing.assert_array_equal(out["label"], wide["label"])
    np.testing.assert_array_equal(out["probabilities"], wide["probabilities"])


@pytest.mark.parametrize("dtype", NARROW, ids=lambda t: np.dtype(t).name)
def test_narrow_multilabel(dtype):
    X, ys = _narrow_data(dtype)
    model = Perceptron(random_state=0).fit(X, ys["multilabel"])
    out = _run(ponnx.to_onnx(model, X), X)
    np.testing.assert_array_equal(out["label"], model.predict(X))
    _check_scores(out["probabilities"], model.decision_function(X), np.float32)


def test_narrow_input_by_dtype_and_in_skl2onnx():
    """dtype= asks for a narrow input without an array; skl2onnx's own
    to_onnx (whose input type comes from its sample) and a Pipeline's last
    step take it too; a model trained on float64 rows scores narrow ones."""
    from onnx import TensorProto

    X, ys = _narrow_data(np.uint8)
    X64 = X.astype(np.float64)
    model = Perceptron(random_state=0).fit(X64, ys["multiclass"])
    onx = ponnx.to_onnx(model, dtype=np.uint8)
    assert _input_element(onx) == TensorProto.UINT8
    out = _run(onx, X)
    np.testing.assert_array_equal(out["label"], model.predict(X))
    _check_scores(out["probabilities"], model.decision_function(X), np.float32)

    ponnx.register()
    X16, ys16 = _narrow_data(np.float16)
    model = Perceptron(random_state=0).fit(X16, ys16["binary"])
    out = _run(skl2onnx.to_onnx(model, X16[:1]), X16)
    np.testing.assert_array_equal(out["label"], model.predict(X16))
    _check_scores(out["probabilities"], model.decision_function(X16), np.float32)


def test_bfloat16_and_other_dtypes_are_refused_by_name():
    X, ys = _narrow_data(np.int8)
    model = Perceptron(random_state=0).fit(X, ys["binary"])
    for dtype in (np.int16, np.int32, bool):
        with pytest.raises(TypeError, match=r"dtype must be float32, float64, float16, int8 or "
                                            r"uint8, got"):
            ponnx.to_onnx(model, dtype=dtype)
    with pytest.raises(TypeError, match="dtype must be a numpy dtype"):
        ponnx.to_onnx(model, dtype="no such type")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with pytest.raises(TypeError, match="bfloat16"):
        ponnx.to_onnx(model, dtype=ml_dtypes.bfloat16)
    # an array of a dtype the graph does not take leaves the choice to the model
    assert _input_element(ponnx.to_onnx(model, X.astype(np.int32))) == 1  # FLOAT

"""Export to ONNX: a converter for skl2onnx, and ``to_onnx``.

A fitted linear model of the package is ``scores = X @ coef_.T +
intercept_`` followed by a choice of label, which ONNX writes with a few
standard operators (MatMul, Add, then Greater or ArgMax, and Gather of
``classes_``).  ``register()`` teaches skl2onnx to write them, so that
``skl2onnx.to_onnx`` converts our estimators, alone or inside a
scikit-learn ``Pipeline``; ``to_onnx(model)`` registers and converts in one
call.

Exported: ``Perceptron`` in every mode (binary, one-vs-rest, multinomial,
multi-label; averaged, pocket, margin and mini-batch models are the same
``coef_`` and ``intercept_``), ``CentroidClassifier``, and
``KernelPerceptron`` with ``kernel="linear"``, whose decision function is
the linear one of its primal weights ``coef_``.  Refused, with a
``TypeError``: ``VotedPerceptron`` (its prediction is a vote of many weight
vectors, not one linear function: export an averaged ``Perceptron``, which
approximates it) and ``KernelPerceptron`` with any other kernel.

The graph has two outputs, named as skl2onnx names those of
``sklearn.svm.LinearSVC``, which also has scores and no probabilities:

- ``label``: ``predict``'s values: ``classes_`` as int64 (integer labels;
  uint64 when one is at or above 2**63), string, double (float labels) or
  bool tensors of shape (N,); the int64 indicator matrix (N, n_labels) of
  a multi-label model;
- ``probabilities``: ``decision_function``'s values, NOT probabilities
  (the package has no ``predict_proba``): shape (N,) for a binary model,
  as ``decision_function`` returns them, else (N, n_classes), in the
  input's float type.

skl2onnx's options of ``LinearSVC`` are accepted: ``nocl`` (labels as class
indices 0..k-1), ``output_class_labels`` (a third output, ``class_labels``,
holding ``classes_``) and ``raw_scores`` (the scores are always raw).
``zipmap``, which skl2onnx's ``Pipeline`` parser sets on every classifier,
is accepted and ignored: ZipMap makes dictionaries of probabilities, and
there are none.

The input may also be a float16, int8 or uint8 tensor, the narrow rows the
estimators read as stored: a Cast node in front turns it into float, whose
every value the narrow type holds exactly, and the graph scores it with
float32 weights (the weights a model trained on such rows has by default;
a model of float64 weights, such as one trained with ``dtype=np.float64``,
has them cast), its scores a float tensor.  A double input keeps a float64
model's weights: rows cast to double by the caller (exactly) then score as
``decision_function`` does.

skl2onnx, onnx (and onnxruntime, to run the graphs) are optional:
``pip install perceptron-family[onnx]``.  They are imported when a function
of this module is called, not when it is imported.
"""
import importlib
import numbers

import numpy as np

from perceptron._common.validation import check_is_fitted
from perceptron.linear._centroid import CentroidClassifier
from perceptron.kernel._perceptron import KernelPerceptron
from perceptron.linear._perceptron import Perceptron
from perceptron.linear._voted import VotedPerceptron

__all__ = ["register", "to_onnx", "ALIAS"]

#: The name of the operator skl2onnx knows our estimators by.
ALIAS = "PerceptronLinearClassifier"

# every estimator class of the package: the linear ones are converted, the
# others are registered too so that skl2onnx refuses them with our TypeError
# instead of its MissingShapeCalculator
_CLASSES = (Perceptron, CentroidClassifier, KernelPerceptron, VotedPerceptron)
# zipmap: skl2onnx's Pipeline parser sets it on every classifier step; there
# are no probabilities to zip, so it is accepted and changes nothing
_OPTIONS = {"nocl": [True, False], "output_class_labels": [False, True],
            "raw_scores": [True, False], "zipmap": [True, False]}


def _require(name):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ImportError(
            f"perceptron.onnx needs skl2onnx and onnx, and {name} is not installed: "
            "pip install perceptron-family[onnx]") from exc


# ------------------------------------------------------------ what exports

def _check_exportable(model):
    """Raise TypeError for a model ONNX cannot hold, NotFittedError for a
    model not fitted; return the model's kind: binary, multiclass or
    multilabel."""
    name = type(model).__name__
    if isinstance(model, VotedPerceptron):
        raise TypeError(
            f"{name} cannot be exported to ONNX: its prediction is a vote of many weight "
            "vectors, not one linear function; export Perceptron(average=True), which "
            "approximates the vote with one vector")
    if isinstance(model, KernelPerceptron):
        if not (isinstance(model.kernel, str) and model.kernel == "linear"):
            raise TypeError(
                f"{name}(kernel={model.kernel!r}) cannot be exported to ONNX: only the linear "
                "kernel, whose decision function is linear in x, is exported")
        check_is_fitted(model, "dual_coef_")
        return "binary" if len(model.classes_) == 2 else "multiclass"
    if not isinstance(model, (Perceptron, CentroidClassifier)):
        raise TypeError(f"{name} is not an estimator of perceptron; perceptron.onnx exports "
                        "Perceptron, CentroidClassifier and KernelPerceptron(kernel='linear')")
    check_is_fitted(model)
    return model.c_model().kind


def _labels(model, nocl):
    """The label values as an array of int64, str, float64 or bool, and
    their ONNX element type's name."""
    classes = np.asarray(model.classes_)
    if nocl:
        return np.arange(len(classes), dtype=np.int64), "int64"
    if classes.dtype.kind in "iu":
        return _integer_labels(classes.tolist())
    if classes.dtype.kind == "b":
        return classes, "bool"
    if classes.dtype.kind == "f":
        return classes.astype(np.float64), "double"
    if classes.dtype.kind == "U" or all(isinstance(c, str) for c in classes):
        return classes.astype(str), "string"
    if all(isinstance(c, numbers.Integral) for c in classes):
        return _integer_labels([int(c) for c in classes])
    raise TypeError(f"the labels of this {type(model).__name__} cannot be an ONNX tensor: "
                    "they must be all integers, all floats, all strings or bools, got "
                    f"{sorted({type(c).__name__ for c in classes})}")


def _integer_labels(values):
    """Integer labels as int64 when they all fit, else as uint64 when they
    all fit that (an unsigned label at or above 2**63 would wrap to a
    negative int64); others cannot be an ONNX tensor."""
    low, high = min(values), max(values)
    if low >= -2**63 and high < 2**63:
        return np.array(values, dtype=np.int64), "int64"
    if low >= 0 and high < 2**64:
        return np.array(values, dtype=np.uint64), "uint64"
    raise ValueError(f"the integer labels of this model span {low} to {high}, which neither "
                     "int64 nor uint64 holds: an ONNX tensor cannot store them")


def _weights(model):
    """coef_ (k, d) and intercept_ (k,) as float64 arrays."""
    return (np.asarray(model.coef_, dtype=np.float64),
            np.asarray(model.intercept_, dtype=np.float64).reshape(-1))


# ------------------------------------------------ parser, shapes, converter

def _parse(scope, model, inputs, custom_parsers=None):
    """skl2onnx's parser: declares the operator and its outputs."""
    _check_exportable(model)
    types = _require("skl2onnx.common.data_types")
    operator = scope.declare_local_operator(ALIAS, model)
    operator.inputs = inputs
    label = scope.declare_local_variable("label", types.Int64TensorType())
    scores = scope.declare_local_variable("probabilities", types.FloatTensorType())
    operator.outputs.append(label)
    operator.outputs.append(scores)
    if scope.get_options(model, dict(output_class_labels=False))["output_class_labels"]:
        operator.outputs.append(scope.declare_local_variable("class_labels",
                                                             types.Int64TensorType()))
    return list(operator.outputs)


# the narrow input dtypes: numpy's name -> skl2onnx's tensor type's name.
# Every value of these is a float32 exactly, so a Cast to float in front of
# the float graph loses nothing.
_NARROW_INPUTS: dict = {"float16": "Float16TensorType", "int8": "Int8TensorType",
                        "uint8": "UInt8TensorType"}


def _narrow_input(types, input_type):
    """Whether `input_type` (a skl2onnx tensor type) is one of the narrow
    inputs, cast to float in front of the graph."""
    return any(isinstance(input_type, getattr(types, name))
               for name in _NARROW_INPUTS.values() if hasattr(types, name))


def _tensor_type(types, element):
    return {"int64": types.Int64TensorType, "uint64": types.UInt64TensorType,
            "string": types.StringTensorType,
            "double": types.DoubleTensorType, "bool": types.BooleanTensorType}[element]


def _shapes(operator):
    """skl2onnx's shape calculator: the types and shapes of the outputs."""
    types = _require("skl2onnx.common.data_types")
    model = operator.raw_operator
    kind = _check_exportable(model)
    input_type = operator.inputs[0].type
    narrow = _narrow_input(types, input_type)
    if not narrow and not isinstance(input_type, (types.FloatTensorType, types.DoubleTensorType)):
        raise TypeError(f"{type(model).__name__} exports with a float, double, float16, int8 or "
                        f"uint8 input tensor, got {type(input_type).__name__}")
    n = operator.inputs[0].get_first_dimension()
    nocl = operator.scope_inst.get_options(model, dict(nocl=False))["nocl"]
    labels, element = _labels(model, nocl)
    k = len(model.intercept_.reshape(-1))
    if kind == "multilabel":
        operator.outputs[0].type = types.Int64TensorType(shape=[n, k])
    else:
        operator.outputs[0].type = _tensor_type(types, element)(shape=[n])
    # narrow inputs are scored in float (a Cast in front)
    scores_type = types.FloatTensorType if narrow else type(input_type)
    operator.outputs[1].type = scores_type(shape=[n] if kind == "binary" else [n, k])
    if len(operator.outputs) > 2:
        operator.outputs[2].type = _tensor_type(types, element)(shape=[len(labels)])


def _convert(scope, operator, container):
    """skl2onnx's converter: the nodes of the graph."""
    types = _require("skl2onnx.common.data_types")
    TensorProto = _require("onnx").TensorProto
    model = operator.raw_operator
    kind = _check_exportable(model)
    options = container.get_options(model, dict(nocl=False))
    is_double = isinstance(operator.inputs[0].type, types.DoubleTensorType)
    proto = TensorProto.DOUBLE if is_double else TensorProto.FLOAT
    dtype = np.float64 if is_double else np.float32
    rows = operator.inputs[0].full_name

    def name(base):
        return scope.get_unique_variable_name(base)

    def node(op_type, inputs, outputs, **attrs):
        container.add_node(op_type, inputs, outputs,
                           name=scope.get_unique_operator_name(op_type), **attrs)

    def constant(base, proto_type, values, shape=None):
        values = np.asarray(values)
        if proto_type == TensorProto.STRING:
            flat = [s.encode("utf-8") for s in values.ravel().tolist()]
        else:
            flat = values.ravel().tolist()
        var = name(base)
        container.add_initializer(var, proto_type, list(values.shape if shape is None
                                                         else shape), flat)
        return var

    if _narrow_input(types, operator.inputs[0].type):
        # float16, int8, uint8 rows: every value is a float exactly, so the
        # Cast loses nothing and the float graph follows
        rows = name("rows")
        node("Cast", [operator.inputs[0].full_name], rows, to=TensorProto.FLOAT)
    coef, intercept = _weights(model)
    weights = constant("coef", proto, coef.T.astype(dtype))
    bias = constant("intercept", proto, intercept.astype(dtype))
    product, scores = name("product"), name("scores")
    node("MatMul", [rows, weights], product)
    node("Add", [product, bias], scores)
    label_out, scores_out = operator.outputs[0].full_name, operator.outputs[1].full_name

    labels, element = _labels(model, options["nocl"])
    label_proto = {"int64": TensorProto.INT64, "uint64": TensorProto.UINT64,
                   "string": TensorProto.STRING,
                   "double": TensorProto.DOUBLE, "bool": TensorProto.BOOL}[element]
    if len(operator.outputs) > 2:
        node("Identity", [constant("classes", label_proto, labels)],
             operator.outputs[2].full_name)

    if kind != "multiclass":
        zero = constant("zero", proto, np.zeros((), dtype=dtype))
    if kind == "multilabel":
        # predict: the indicator a_j > 0 of every label
        positive = name("positive")
        node("Identity", [scores], scores_out)
        node("Greater", [scores, zero], positive)
        node("Cast", [positive], label_out, to=TensorProto.INT64)
        return
    if kind == "binary":
        # classes_[1] where a > 0, else classes_[0] (so a = 0 gives classes_[0])
        flat, positive, index = name("flat_scores"), name("positive"), name("index")
        node("Reshape", [scores, constant("shape", TensorProto.INT64, [-1])], flat)
        node("Identity", [flat], scores_out)
        node("Greater", [flat, zero], positive)
        node("Cast", [positive], index, to=TensorProto.INT64)
    else:
        # the class of the largest activation, the first one on ties (as numpy's argmax)
        index = name("index")
        node("Identity", [scores], scores_out)
        node("ArgMax", [scores], index, axis=1, keepdims=0)
    node("Gather", [constant("classes", label_proto, labels), index], label_out, axis=0)


# ------------------------------------------------------------------ public

def register():
    """Register the converter of the package's estimators with skl2onnx.

    After this call ``skl2onnx.to_onnx(model, X[:1])`` and
    ``skl2onnx.convert_sklearn`` convert a fitted ``Perceptron``,
    ``CentroidClassifier`` or ``KernelPerceptron(kernel="linear")``, also as
    the last step of a scikit-learn ``Pipeline``; ``VotedPerceptron`` and
    the other kernels are refused with a ``TypeError``.  Calling it again
    does nothing more: the registration is idempotent.

    Returns
    -------
    alias : str
        The operator name skl2onnx knows the estimators by (``ALIAS``).

    Raises
    ------
    ImportError
        When skl2onnx or onnx is not installed.
    """
    skl2onnx = _require("skl2onnx")
    _require("onnx")
    for cls in _with_subclasses(_CLASSES):
        skl2onnx.update_registered_converter(cls, ALIAS, _shapes, _convert, overwrite=True,
                                             parser=_parse, options=dict(_OPTIONS))
    return ALIAS


def _with_subclasses(classes):
    """The classes and every class derived from them (an estimator of the
    package built on Perceptron, a user's subclass): skl2onnx looks
    converters up by the exact class."""
    found, todo = [], list(classes)
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.append(cls)
            todo.extend(cls.__subclasses__())
    return found


def _input_dtype(dtype):
    """The name of skl2onnx's tensor type of input rows of `dtype`, or None
    for a dtype the graph does not take (bfloat16 among them: ONNX has the
    type, but skl2onnx no input type of it)."""
    if dtype is None or not isinstance(dtype, np.dtype):
        return None
    if dtype == np.float32:
        return "FloatTensorType"
    if dtype == np.float64:
        return "DoubleTensorType"
    return _NARROW_INPUTS.get(dtype.name)


def to_onnx(model, X=None, *, dtype=None, options=None, target_opset=None, **kwargs):
    """Convert a fitted estimator to an ONNX model (``onnx.ModelProto``).

    Registers the converter (``register``) and calls
    ``skl2onnx.convert_sklearn`` with one input, named ``"X"``, of shape
    (N, n_features).  The graph's outputs are ``label`` and
    ``probabilities`` (which holds ``decision_function``'s scores, not
    probabilities; see the module's documentation).

    Parameters
    ----------
    model : Perceptron, CentroidClassifier or KernelPerceptron
        Fitted; a ``KernelPerceptron`` with ``kernel="linear"``.
    X : None, int or array-like of shape (n_samples, n_features), default=None
        The input: None uses ``n_features_in_``; an int is the number of
        features; an array gives the number of its columns and, when it is
        float32, float64, float16, int8 or uint8, the input's tensor type.
    dtype : None or one of numpy.float32, float64, float16, int8, uint8, default=None
        The input's tensor type.  float32 and float64: the graph and its
        scores are in that type.  float16, int8 and uint8 (rows stored
        narrow, as the estimators read them): a Cast to float in front,
        exact for every value of these types, and float scores.  None:
        X's dtype when X is an array of one of these, else the dtype of the
        model's ``coef_``.
    options : dict or None, default=None
        skl2onnx's options for the model: ``nocl``, ``output_class_labels``,
        ``raw_scores``.
    target_opset : int, dict or None, default=None
        The ONNX opset (skl2onnx's default: the newest it knows).
    **kwargs
        Passed on to ``skl2onnx.convert_sklearn`` (for example
        ``final_types`` to rename the outputs).

    Returns
    -------
    onnx.ModelProto

    Raises
    ------
    TypeError
        For a model ONNX cannot hold (``VotedPerceptron``, a kernel other
        than linear, not an estimator of the package), or an input dtype
        other than float32, float64, float16, int8 and uint8.
    perceptron.exceptions.NotFittedError
        For a model not fitted.
    ValueError
        When X's number of features is not the model's.
    ImportError
        When skl2onnx or onnx is not installed.
    """
    _check_exportable(model)
    n_features = model.n_features_in_
    x_dtype = None
    if X is not None:
        if isinstance(X, numbers.Integral) and not isinstance(X, bool):
            d = int(X)
        else:
            # the shape and dtype only: X may be sparse (scipy, CSRData) or a DataFrame
            arr = X if hasattr(X, "shape") else np.asarray(X)
            if len(arr.shape) != 2:
                raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {arr.shape}")
            d = arr.shape[1]
            if _input_dtype(getattr(arr, "dtype", None)) is not None:
                x_dtype = np.dtype(arr.dtype)
        if d != n_features:
            raise ValueError(f"X has {d} features, but {type(model).__name__} is expecting "
                             f"{n_features} features as input")
    if dtype is None:
        dtype = x_dtype if x_dtype is not None else np.asarray(model.coef_).dtype
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be a numpy dtype, got {dtype!r}") from None
    element = _input_dtype(dtype)
    if element is None:
        hint = (": skl2onnx has no bfloat16 input type; cast the rows to float32 (exact for "
                "bfloat16) and export with dtype=numpy.float32") if dtype.name == "bfloat16" else ""
        raise TypeError(f"dtype must be float32, float64, float16, int8 or uint8, got "
                        f"{dtype}{hint}")
    register()
    skl2onnx = _require("skl2onnx")
    types = _require("skl2onnx.common.data_types")
    tensor = getattr(types, element)
    if options is not None:
        options = {id(model): options}
    return skl2onnx.convert_sklearn(model, initial_types=[("X", tensor([None, n_features]))],
                                    options=options, target_opset=target_opset, **kwargs)

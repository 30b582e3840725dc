"""What a model file holds for each estimator, declared by the estimator.

The generic model-file codec (``perceptron.io._model_file``) never imports an
estimator: each estimator module registers its class here, next to the
class, with the fitted attributes a file may hold for it, the check run on a
loaded model and the version of that layout (``register_model``); a type of
value that is neither JSON nor an array (the training state of
``partial_fit``) registers how it is written (``register_value_type``).  The
codec reads these tables.  An estimator also names the attributes that only
training reads (``training_state``): model files and pickles leave them out
unless asked to keep them (``save(..., training_state=True)``,
``est.keep_training_state()``).

The ``need``/``check_*`` helpers are the checks the estimators' load-time
validators share: the compiled loops trust their inputs (checked once in
Python at fit and predict), and a loaded model skipped fit, so everything
predict, partial_fit and warm_start read without checking is checked when
the file is loaded.
"""
from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Optional, Tuple

import numpy as np

from perceptron.exceptions import ModelFileError

__all__ = ["ModelSpec", "ValueType", "register_model", "register_value_type", "models",
           "value_types", "KEEP_TRAINING_STATE", "training_state_of", "attr", "bad", "need",
           "is_array", "check_int", "check_held", "check_common",
           "check_linear", "check_history"]


@dataclass(frozen=True)
class ModelSpec:
    """The model-file layout of one estimator class.

    cls : the estimator class (rebuilt from its ``get_params``).
    fitted : the fitted attributes a file may hold; anything else is refused
        both ways (an unknown attribute at save is a bug of the declaration, in
        a file it is not a model of this package).
    check : called on a loaded, fitted estimator; raises ``ModelFileError``
        (or TypeError / ValueError / ...) when the file does not make a valid
        model.
    linear_kind : the estimator's kind for the preamble, read by C programs
        ("binary", "multiclass", "multilabel"; None: not a linear model, or
        not fitted).
    schema_version : the newest version of this layout (a file with a newer
        one is refused), and the version a file is written with.  Files hold
        the key only above 1.
    training_state : the fitted attributes that only training reads (the
        state ``partial_fit`` and ``warm_start`` continue from), left out of
        model files and pickles unless asked for: prediction never reads them.
    training_state_schema_version : the layout version of a file that keeps
        its training state, when older than ``schema_version`` (so that an
        older package still reads such a file); None: ``schema_version``.
    """

    cls: type
    fitted: FrozenSet[str]
    check: Callable[[Any], None]
    linear_kind: Callable[[Any], Optional[str]]
    schema_version: int = 1
    training_state: FrozenSet[str] = frozenset()
    training_state_schema_version: Optional[int] = None


@dataclass(frozen=True)
class ValueType:
    """A value a model file writes as ``{tag: {field: value, ...}}``.

    cls : its exact type.  template : a function returning an instance whose
    fields are those a file must hold.  transient : fields written as null
    (rebuilt by the estimator).  optional : fields a value may have beyond
    the template's (the estimator's own check says when they must be there)."""

    tag: str
    cls: type
    template: Callable[[], Any]
    transient: Tuple[str, ...] = ()
    optional: Tuple[str, ...] = ()


_MODELS: Dict[str, ModelSpec] = {}
_VALUE_TYPES: Dict[str, ValueType] = {}


def register_model(cls, *, fitted, check, linear_kind=lambda est: None, schema_version=1,
                   training_state=(), training_state_schema_version=None):
    """Declare the model-file layout of an estimator class (see ``ModelSpec``)."""
    training_state = frozenset(training_state)
    assert training_state <= frozenset(fitted), "the training state is made of fitted attributes"
    _MODELS[cls.__name__] = ModelSpec(cls, frozenset(fitted), check, linear_kind,
                                      schema_version, training_state,
                                      training_state_schema_version)
    return cls


def register_value_type(tag, cls, template, transient=(), optional=()):
    """Declare a tagged value type a model file can hold (see ``ValueType``)."""
    _VALUE_TYPES[tag] = ValueType(tag, cls, template, tuple(transient), tuple(optional))


def models():
    """Class name -> ``ModelSpec`` of every registered estimator."""
    return dict(_MODELS)


def value_types():
    """Tag -> ``ValueType`` of every registered value type."""
    return dict(_VALUE_TYPES)


# The instance attribute ``est.keep_training_state()`` sets: model files and
# pickles of that estimator keep its training state.  A preference about how
# the estimator is written, not a fitted attribute: never written itself.
KEEP_TRAINING_STATE = "_keep_training_state"


def training_state_of(cls):
    """The training-state attributes of `cls` (or of the registered class it
    derives from); empty for a class that registered none."""
    for klass in cls.__mro__:
        spec = _MODELS.get(klass.__name__)
        if spec is not None and spec.cls is klass:
            return spec.training_state
    return frozenset()


# ------------------------------------------------- checks of loaded models

def attr(obj, name: str) -> Any:
    """obj.name, or None when obj lacks it."""
    return getattr(obj, name, None)


def bad(what):
    raise ModelFileError(f"invalid model: {what}")


def need(cond, what):
    if not cond:
        bad(what)


def is_array(a, ndim, kinds):
    return isinstance(a, np.ndarray) and a.ndim == ndim and a.dtype.kind in kinds


def check_int(value, what, low=0):
    need(isinstance(value, int) and not isinstance(value, bool) and value >= low,
         f"{what} must be an int >= {low}")


def check_held(est, name, class_name):
    """The attribute `name`, when there, holds an estimator of the class
    registered as `class_name` (a model the file holds inside another, built
    and checked on load as its own file would be)."""
    if name in vars(est):
        spec = _MODELS.get(class_name)
        need(spec is not None and type(vars(est)[name]) is spec.cls,
             f"{name} must be a {class_name}")


def check_common(est, min_classes=2):
    """classes_, n_features_in_ and feature_names_in_, as fit makes them."""
    c = attr(est, "classes_")
    need(isinstance(c, np.ndarray) and c.ndim == 1 and len(c) >= min_classes,
         f"classes_ must be a 1-D array of at least {min_classes} labels")
    # sorted and distinct, as fit makes them: partial_fit maps labels to
    # class indices by binary search, which must stay inside the classes
    try:
        values = c.tolist()
        ordered = all(a < b for a, b in zip(values[:-1], values[1:]))
    except TypeError:
        ordered = False
    need(ordered, "classes_ must hold distinct labels in increasing order")
    check_int(attr(est, "n_features_in_"), "n_features_in_", 1)
    names = attr(est, "feature_names_in_")
    if hasattr(est, "feature_names_in_"):
        need(is_array(names, 1, "O") and len(names) == est.n_features_in_
             and all(isinstance(v, str) for v in names),
             "feature_names_in_ must hold n_features_in_ strings")


def check_linear(est, k):
    """coef_ (k, n_features_in_) float32 or float64, intercept_ (k,) of its dtype."""
    W, b = attr(est, "coef_"), attr(est, "intercept_")
    need(is_array(W, 2, "f") and W.dtype in (np.float32, np.float64)
         and W.shape == (k, est.n_features_in_),
         f"coef_ must be a float32 or float64 array of shape ({k}, n_features_in_)")
    need(is_array(b, 1, "f") and b.dtype == W.dtype and b.shape == (k,),
         "intercept_ must be an array (k,) of coef_'s dtype")


def check_history(est, *names, ndim=1):
    """Each of `names` is an array of 1 (or `ndim`) dimensions."""
    for name in names:
        a = attr(est, name)
        need(isinstance(a, np.ndarray) and a.ndim in (1, ndim), f"{name} must be an array")

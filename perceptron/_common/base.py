"""Estimator plumbing shared by every model: parameters and scoring.

The protocol is scikit-learn's (``get_params``, ``set_params``, parameters
stored unchanged by ``__init__``, fitted attributes ending in ``_``), written
here so that scikit-learn is not a dependency.  Pickles leave out the
training state an estimator registers (``perceptron.io._registry``) unless
``keep_training_state()`` was called; copies keep everything.
"""
from __future__ import annotations

import copy
import inspect
from typing import Any, Callable, Dict, Optional

import numpy as np

from perceptron.io._model_file import save_model
from perceptron.io._registry import KEEP_TRAINING_STATE, training_state_of
from perceptron._common.sklearn_compat import EstimatorBase, watch_scikit_learn
from perceptron._common.typing import ArrayLike, MatrixLike, Self


class BaseEstimator(EstimatorBase):
    """Parameters from the ``__init__`` signature, as scikit-learn reads them.

    A subclass of ``sklearn.base.BaseEstimator`` as soon as scikit-learn is
    imported (its metadata routing and notebook display;
    ``perceptron._common.sklearn_compat``), without importing it."""

    # every estimator has these (a mixed list of estimators is a list of this class)
    fit: Callable[..., Any]
    predict: Callable[..., Any]
    score: Callable[..., float]

    @classmethod
    def _param_names(cls):
        signature = inspect.signature(cls.__init__)
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        return sorted(name for name, p in signature.parameters.items()
                      if name != "self" and p.kind in kinds)

    def get_params(self, deep: bool = True) -> Dict[str, Any]:
        """Parameters of this estimator, as a dict (``deep`` is accepted for
        scikit-learn compatibility; no parameter is itself an estimator)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> Self:
        """Set parameters by name; unknown names raise ValueError."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator "
                                 f"{type(self).__name__}. Valid parameters are: {valid}")
            setattr(self, name, value)
        return self

    def save(self, path: Any, *, training_state: Optional[bool] = None) -> None:
        """Write this estimator to a model file (see ``perceptron.io.save_model``).

        The file is plain data (numeric arrays and a JSON header, never a
        pickle) with the parameters and the fitted attributes;
        ``perceptron.load(path)`` gives back an estimator that predicts
        exactly as this one.

        Parameters
        ----------
        path : str, os.PathLike or binary file object
        training_state : bool or None, default=None
            Keep the training state of a ``Perceptron`` (what ``partial_fit``
            and ``warm_start`` continue from: the raw weights, the averaging
            accumulators, the pocket, the counters).  False: a compact file,
            about the size of ``coef_``, that predicts the same; the loaded
            model refuses ``partial_fit`` and warm-starts from ``coef_``.
            None: keep it only if :meth:`keep_training_state` was called.
        """
        save_model(self, path, training_state=training_state)

    def keep_training_state(self, keep: bool = True) -> Self:
        """Keep the training state in this estimator's pickles and model files.

        Pickles (``pickle``, ``joblib``, the processes of ``n_jobs`` in
        scikit-learn) and :meth:`save` leave out by default what only
        training reads: the ``Perceptron``'s raw weights, averaging
        accumulators, pocket and counters.  They then hold about the size of
        ``coef_``, and the copy predicts the same but cannot go on with
        ``partial_fit``.  After ``keep_training_state()`` they hold
        everything, and the copy continues exactly where this estimator
        stopped.  ``copy.copy`` and ``copy.deepcopy`` always keep everything.
        The setting is not a parameter (``clone`` does not carry it).
        VotedPerceptron, CentroidClassifier and KernelPerceptron have no
        training state: their pickles are always whole.

        Parameters
        ----------
        keep : bool, default=True
            False goes back to compact pickles and files.

        Returns
        -------
        self
        """
        if not isinstance(keep, (bool, np.bool_)):
            raise TypeError(f"keep must be True or False, got {keep!r}")
        if keep:
            setattr(self, KEEP_TRAINING_STATE, True)
        elif KEEP_TRAINING_STATE in vars(self):
            delattr(self, KEEP_TRAINING_STATE)
        return self

    def __getstate__(self):
        """The pickled attributes: all but the training state, unless
        :meth:`keep_training_state` was called."""
        state = dict(vars(self))
        if not state.get(KEEP_TRAINING_STATE, False):
            for name in training_state_of(type(self)):
                state.pop(name, None)
        return state

    def __setstate__(self, state):
        vars(self).update(state)

    def __copy__(self):
        # a copy in the process: everything, the training state included
        new = type(self).__new__(type(self))
        vars(new).update(vars(self))
        return new

    def __deepcopy__(self, memo):
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        vars(new).update(copy.deepcopy(vars(self), memo))
        return new

    def __sklearn_tags__(self):
        """scikit-learn's estimator tags (read by scikit-learn >= 1.6 only, so
        importing it here adds no dependency).  Every estimator of the package
        takes sparse X (CSR in place, other formats converted once)."""
        from sklearn.utils import InputTags, Tags, TargetTags

        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    input_tags=InputTags(sparse=True))

    def _more_tags(self):
        # the same tags for scikit-learn < 1.6, which reads this instead
        return {"X_types": ["2darray", "sparse"]}

    def __repr__(self):
        signature = inspect.signature(type(self).__init__)
        changed = []
        for name in self._param_names():
            default = signature.parameters[name].default
            value = getattr(self, name, default)
            same = value is default
            if not same:
                try:
                    same = bool(value == default) and type(value) is type(default)
                except Exception:
                    same = False
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"


watch_scikit_learn()


def no_training_state(est, method):
    """The error of `method` (partial_fit) on a fitted model loaded or
    unpickled without its training state."""
    return ValueError(
        f"this {type(est).__name__} has no training state (it was saved or pickled without it, "
        f"the default), so {method} cannot continue it: save it with "
        "est.save(path, training_state=True), or call est.keep_training_state() before "
        "pickling it, to go on training after loading (fit with warm_start=True starts again "
        "from coef_ and intercept_)")


class ClassifierMixin:
    """``score`` as mean accuracy."""

    _estimator_type = "classifier"
    # provided by the estimator this mixin is combined with
    fit: Callable[..., Any]
    predict: Callable[..., Any]

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags

        # the estimator classes put BaseEstimator after this mixin, which has it
        tags = super().__sklearn_tags__()  # type: ignore[misc]
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags

    def _more_tags(self):
        # scikit-learn < 1.6: the base's tags and a required y
        more = super()._more_tags()  # type: ignore[misc]
        return {**more, "requires_y": True}

    def score(self, X: MatrixLike, y: ArrayLike,
              sample_weight: Optional[ArrayLike] = None) -> float:
        """Mean accuracy of ``predict(X)`` against ``y`` (weighted if given)."""
        y = np.asarray(y)
        pred = self.predict(X)
        if y.shape != pred.shape:
            if y.ndim == 2 and y.shape[1] == 1 and pred.ndim == 1:
                y = y.ravel()
            else:
                raise ValueError(f"y has shape {y.shape} but predict(X) has shape {pred.shape}")
        correct = (pred == y)
        if correct.ndim == 2:  # multi-label: a sample counts when every label is right
            correct = correct.all(axis=1)
        if sample_weight is None:
            return float(np.mean(correct))
        sample_weight = np.asarray(sample_weight, dtype=np.float64)
        if sample_weight.shape != correct.shape:
            raise ValueError(f"sample_weight has shape {sample_weight.shape}, expected {correct.shape}")
        return float(np.average(correct, weights=sample_weight))

"""Linear perceptron classifiers."""
import warnings

import numpy as np

from . import _decision, _online
from ._base import BaseEstimator, ClassifierMixin
from ._parallel import available_threads, map_threads, row_chunks
from ._validation import (check_array, check_is_fitted, check_labels, check_n_features,
                          check_random_seed, check_scalar, encode_binary, unique_labels)
from .exceptions import ConvergenceWarning

__all__ = ["Perceptron"]


class LinearClassifierMixin(ClassifierMixin):
    """Scoring of a fitted linear model: ``decision_function`` and ``predict``.

    The activation of a row is ``a = w.x + b``; the prediction is
    ``classes_[1]`` when ``a > 0`` and ``classes_[0]`` otherwise (so
    ``sign(0) = -1``, as in the notes).  Rows are split among threads when
    there is enough work; each thread runs the compiled loop without the GIL.
    """

    def decision_function(self, X):
        """Signed activation ``w.x + b`` of each row (positive: ``classes_[1]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,), float64
        """
        check_is_fitted(self)
        X = check_array(X)
        check_n_features(self, X)
        w = self.coef_[0]
        if w.dtype != X.dtype:
            # the loop needs one dtype; casting d weights beats copying X
            w = w.astype(X.dtype)
        b = float(self.intercept_[0])
        n, d = X.shape
        out = np.empty(n, dtype=np.float64)
        chunks = row_chunks(n, d, available_threads())
        map_threads(lambda lo, hi: _decision.decision_binary_dense(X[lo:hi], w, b, out[lo:hi]),
                    chunks, len(chunks))
        if not np.isfinite(out).all():
            if not np.isfinite(X).all():
                raise ValueError("X contains NaN or infinity; remove or impute those values first")
            if np.isnan(out).any():
                raise ValueError("the decision function overflowed (X holds values too large "
                                 "for the model's weights)")
        return out

    def predict(self, X):
        """Class of each row: ``classes_[1]`` where ``w.x + b > 0``, else ``classes_[0]``."""
        scores = self.decision_function(X)
        # take(mode="clip") skips the bounds checks of fancy indexing: the
        # indices are 0 and 1 by construction, and this is 4x faster
        return self.classes_.take((scores > 0).astype(np.intp), mode="clip")


class Perceptron(LinearClassifierMixin, BaseEstimator):
    """Rosenblatt's perceptron for two classes, trained by error-driven updates.

    For each training row ``x`` with label ``y`` in {-1, +1} (``classes_[1]``
    is +1) the activation is ``a = w.x + b``; when ``y*a <= 0`` the model
    updates ``w <- w + eta0*y*x`` and ``b <- b + eta0*y`` (Rosenblatt 1958;
    Daume III, *A Course in Machine Learning*, ch. 3, Algorithm 5).  Each
    epoch visits every row once, in a new random order when ``shuffle``; the
    fit stops after the first epoch without a mistake (the data are then
    separated) or after ``max_iter`` epochs, with a ``ConvergenceWarning``.
    On separable data with margin gamma and radius R, at most (R/gamma)^2
    updates are made (Novikoff 1962).

    Parameters
    ----------
    eta0 : float, default=1.0
        Step size of an update (> 0).  With ``w = 0`` at the start, the
        predictions do not depend on it; it matters with ``warm_start``.
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data).
    fit_intercept : bool, default=True
        Learn the bias ``b``; if False, ``b`` stays 0 (or its warm start).
    shuffle : bool, default=True
        Visit the rows in a new random order each epoch.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the shuffles; an int makes fits reproducible.
    warm_start : bool, default=False
        Start from the previous fit's ``coef_`` and ``intercept_``.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
        Weights ``w``, in the dtype of the training data (float32 or float64).
    intercept_ : ndarray of shape (1,)
        Bias ``b`` (kept in double precision during the fit).
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is the positive class.
    n_features_in_ : int
    n_iter_ : int
        Epochs run.
    converged_ : bool
        Whether an epoch without mistakes was reached.
    mistakes_ : ndarray of shape (n_iter_,)
        Mistakes (updates) made in each epoch.
    loss_ : ndarray of shape (n_iter_,)
        Perceptron loss of each epoch, ``(1/N) sum max(0, -y_i a_i)``, with
        each ``a_i`` taken when row i was visited (before its update).
    t_ : int
        Total number of updates (mistakes) over the fit.  Note that
        scikit-learn's ``t_`` counts samples seen instead.

    Notes
    -----
    Float32 input stays float32 (no copy); float64 stays float64; other
    numeric input is converted once to float64.  Activations are summed in
    double precision whatever the data's dtype.  X is checked for NaN and
    infinity during the first epoch (any non-finite value makes an activation
    non-finite), not by a separate pass.
    """

    def __init__(self, eta0=1.0, max_iter=1000, fit_intercept=True, shuffle=True,
                 random_state=None, warm_start=False):
        self.eta0 = eta0
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.shuffle = shuffle
        self.random_state = random_state
        self.warm_start = warm_start

    def _check_params(self):
        return {
            "eta": check_scalar(self.eta0, "eta0", "float", low=0.0, low_open=True),
            "max_iter": check_scalar(self.max_iter, "max_iter", "int", low=1),
            "fit_intercept": check_scalar(self.fit_intercept, "fit_intercept", "bool"),
            "shuffle": check_scalar(self.shuffle, "shuffle", "bool"),
            "warm_start": check_scalar(self.warm_start, "warm_start", "bool"),
        }

    def fit(self, X, y):
        """Train on X (n_samples, n_features) and labels y (n_samples,).

        Returns
        -------
        self
        """
        params = self._check_params()
        X = check_array(X)
        n, d = X.shape
        y = check_labels(y, n)
        classes = unique_labels(y)
        if len(classes) < 2:
            raise ValueError(f"y has a single class ({classes[0]!r}); a classifier needs "
                             "samples of two classes")
        if len(classes) > 2:
            raise ValueError(f"y has {len(classes)} classes; Perceptron is a binary "
                             "classifier and needs exactly two")
        signs = encode_binary(y, classes)
        w, b = self._initial_weights(params["warm_start"], X.dtype, d, classes)
        seed = check_random_seed(self.random_state)
        result = _online.fit_binary_dense(
            X, signs, w, b, eta=params["eta"], fit_intercept=params["fit_intercept"],
            shuffle=params["shuffle"], max_iter=params["max_iter"], seed=seed)
        _raise_for_status(result)

        self.coef_ = w.reshape(1, d)
        self.intercept_ = np.array([result["intercept"]], dtype=X.dtype)
        self.classes_ = classes
        self.n_features_in_ = d
        self.n_iter_ = result["n_epochs"]
        self.converged_ = result["converged"]
        self.mistakes_ = result["mistakes"]
        self.loss_ = result["loss"] / n
        self.t_ = result["n_updates"]
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} did not converge: {self.mistakes_[-1]} mistakes in the "
                f"last of {self.n_iter_} epochs (max_iter={params['max_iter']}); the data may not "
                "be linearly separable", ConvergenceWarning, stacklevel=2)
        return self

    def _initial_weights(self, warm_start, dtype, d, classes):
        if warm_start and hasattr(self, "coef_"):
            if self.coef_.shape != (1, d):
                raise ValueError(f"warm_start: the previous fit had {self.coef_.shape[1]} features, "
                                 f"X has {d}")
            if not np.array_equal(self.classes_, classes):
                raise ValueError(f"warm_start: the previous fit had classes {self.classes_!r}, "
                                 f"y has {classes!r}")
            return self.coef_[0].astype(dtype, copy=True), float(self.intercept_[0])
        return np.zeros(d, dtype=dtype), 0.0


def _raise_for_status(result):
    status = result["status"]
    if status == _online.STATUS_NONFINITE_X:
        raise ValueError(f"X contains NaN or infinity (row {result['bad_row']}); "
                         "remove or impute those values first")
    if status == _online.STATUS_OVERFLOW:
        raise FloatingPointError(
            f"the weights overflowed in epoch {result['bad_epoch'] + 1}: the features are too "
            "large for the model's dtype; scale them (for example to unit variance) or lower eta0")

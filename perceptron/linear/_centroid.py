"""The centroid method: classify by the nearest class mean."""
from __future__ import annotations

from typing import Optional

import numpy as np

from perceptron._core import centroid as _centroid
from perceptron._common.base import BaseEstimator
from perceptron.linear._base import LinearClassifierMixin
from perceptron.io._registry import attr, check_common, check_linear, is_array, need, register_model
from perceptron._common.typing import ArrayLike, MatrixLike, Self
from perceptron._common.validation import (check_feature_names, check_fit_input,
                                           check_sample_weight, check_weight_memory)

__all__ = ["CentroidClassifier"]


class CentroidClassifier(LinearClassifierMixin, BaseEstimator):
    """Nearest class mean, a linear classifier (the centroid method: the bisector of the class means).

    For two classes C (``classes_[1]``) and X (``classes_[0]``) with means
    ``mu_C`` and ``mu_X`` the decision function is

        f(x) = (mu_C - mu_X).x - (||mu_C||^2 - ||mu_X||^2) / 2,

    positive on the side of ``mu_C``: the hyperplane bisecting the two means.
    With more classes a row goes to the class of the nearest mean, the largest
    ``mu_k.x - ||mu_k||^2 / 2``.  No iterations: a baseline for the
    perceptrons, and what they improve on.

    Attributes
    ----------
    centroids_ : ndarray of shape (n_classes, n_features), float64
        The (weighted) class means.
    coef_, intercept_ : the linear form above: one row for two classes, one
        per class otherwise (``mu_k`` and ``-||mu_k||^2 / 2``).
    classes_, n_features_in_
    """

    def __init__(self) -> None:
        pass

    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: Optional[ArrayLike] = None) -> Self:
        """Compute the class means of X (n_samples, n_features) for labels y.

        X may be sparse, as ``Perceptron.fit`` takes it: the class sums run
        over the stored values of the CSR rows; the means are dense, and so
        is ``coef_`` (in the values' dtype).  A fit whose class sums, means
        and weights (``n_classes * n_features * (16 + itemsize)`` bytes) would
        take more than 4 GiB is refused before anything is allocated, as the
        other estimators' fits are (``PERCEPTRON_MAX_FIT_BYTES`` in the
        environment raises the limit).
        """
        names_source = X
        X, y, classes = check_fit_input(X, y)
        n, d = X.shape
        t = np.asarray(np.searchsorted(classes, y), dtype=np.int32)
        sw = check_sample_weight(sample_weight, n)
        # the float64 class sums and means (centroids_) and coef_ in X's dtype,
        # all n_classes x n_features: checked before any is allocated
        check_weight_memory(len(classes), d, 16 + X.dtype.itemsize, "CentroidClassifier")
        sums = np.zeros((len(classes), d))
        totals = np.zeros(len(classes))
        _centroid.class_sums(X, t, sw, sums, totals)
        if (totals <= 0).any():
            empty = classes[totals <= 0].tolist()
            raise ValueError(f"classes {empty} have zero total sample weight")
        mu = sums / totals[:, None]
        if not np.isfinite(mu).all():
            raise ValueError("X contains NaN or infinity; remove or impute those values first")
        half_sq = 0.5 * np.einsum("ij,ij->i", mu, mu)
        if len(classes) == 2:
            coef = (mu[1] - mu[0])[None, :]
            intercept = np.array([half_sq[0] - half_sq[1]])
        else:
            coef, intercept = mu, -half_sq
        self.centroids_ = mu
        self.coef_ = np.ascontiguousarray(coef, dtype=X.dtype)
        self.intercept_ = intercept.astype(X.dtype)
        self.classes_ = classes
        self.n_features_in_ = d
        check_feature_names(self, names_source, reset=True)
        return self


# ------------------------------------------------------------- model files

def _check_saved(est):
    check_common(est)
    n_classes = len(est.classes_)
    check_linear(est, 1 if n_classes == 2 else n_classes)
    mu = attr(est, "centroids_")
    need(is_array(mu, 2, "f") and mu.shape == (n_classes, est.n_features_in_),
         "centroids_ must be an array (n_classes, n_features_in_)")


def _linear_kind(est):
    if not hasattr(est, "coef_"):
        return None
    return "binary" if est.coef_.shape[0] == 1 else "multiclass"


register_model(CentroidClassifier, check=_check_saved, linear_kind=_linear_kind,
               fitted={"centroids_", "coef_", "intercept_", "classes_", "n_features_in_",
                       "feature_names_in_"})

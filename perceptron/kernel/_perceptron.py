"""The kernel perceptron: the perceptron in dual form, for boundaries that are
not hyperplanes (XOR, concentric circles)."""
from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, Optional, Union

import numpy as np

from perceptron._core import kernel as _kernel
from perceptron._common.base import BaseEstimator, ClassifierMixin
from perceptron._common.stopping import epoch_bar
from perceptron._common.parallel import map_threads, resolve_n_jobs, row_chunks, scoring_threads
from perceptron.io._registry import (attr, bad, check_common, check_history, check_int, is_array,
                                     need, register_model)
from perceptron._common.typing import ArrayLike, Float64Array, LabelArray, MatrixLike, Self
from perceptron._common.validation import (check_X, check_array, check_feature_names, check_finite,
                                           check_is_fitted, check_labels, check_n_features,
                                           check_random_seed, check_scalar, encode_binary,
                                           label_signs, require_two_classes, unique_labels,
                                           MAX_EPOCHS_RECORDED)
from perceptron.exceptions import ConvergenceWarning

__all__ = ["KernelPerceptron", "kernel_matrix"]

_KINDS = {
    "linear": _kernel.KIND_LINEAR,
    "poly": _kernel.KIND_POLY,
    "rbf": _kernel.KIND_RBF,
    "sigmoid": _kernel.KIND_SIGMOID,
    "precomputed": _kernel.KIND_PRECOMPUTED,
}
_USES_GAMMA = ("poly", "rbf", "sigmoid")


#: Largest dense copy (bytes) KernelPerceptron makes of a sparse X: its kernel
#: computations (blocks of Gram columns by the dense SIMD kernels, squared
#: distances about the mean) run on dense rows, so sparse input is densified
#: once when it fits this budget and refused with a clear error otherwise.
SPARSE_DENSIFY_MAX_BYTES = 1 << 30


def _densified(X, name="X"):
    """X itself when dense; a sparse X (as Perceptron takes it) checked and
    made dense once, within SPARSE_DENSIFY_MAX_BYTES."""
    checked = check_X(X, name, accept_sparse=True)
    if isinstance(checked, np.ndarray):
        return checked
    n, d = checked.shape
    size = n * d * checked.dtype.itemsize
    if size > SPARSE_DENSIFY_MAX_BYTES:
        raise ValueError(
            f"{name} is sparse, {n} x {d}: KernelPerceptron computes its kernels on dense rows "
            f"and {name} would take {size / 2**20:.0f} MiB dense, more than "
            f"perceptron.kernel.SPARSE_DENSIFY_MAX_BYTES ({SPARSE_DENSIFY_MAX_BYTES / 2**20:.0f} "
            "MiB); use Perceptron for large sparse data, or pass fewer rows")
    return checked.toarray()


def _check_kernel(kernel):
    if callable(kernel):
        return kernel
    if isinstance(kernel, str) and kernel in _KINDS:
        return kernel
    raise ValueError(f"kernel must be one of {', '.join(repr(k) for k in _KINDS)} or a callable "
                     f"kernel(X, Y) returning the matrix of kernel values; got {kernel!r}")


def _check_gamma(gamma):
    if isinstance(gamma, str):
        if gamma in ("scale", "auto"):
            return gamma
        raise ValueError(f"gamma must be 'scale', 'auto' or a positive number, got {gamma!r}")
    return check_scalar(gamma, "gamma", "float", low=0.0, low_open=True)


def _resolve_gamma(gamma, X):
    """'scale': 1 / (n_features * X.var()) (1 when X is constant); 'auto': 1 / n_features
    (the conventions of scikit-learn's SVC)."""
    if gamma == "scale":
        var = float(X.var(dtype=np.float64))
        return 1.0 / (X.shape[1] * var) if var > 0 else 1.0
    if gamma == "auto":
        return 1.0 / X.shape[1]
    return gamma


def _call_kernel(kernel, X, Y):
    """kernel(X, Y) as a finite float64 (len(X), len(Y)) C-contiguous matrix."""
    K = np.asarray(kernel(X, Y))
    if K.shape != (X.shape[0], Y.shape[0]):
        raise ValueError(f"the kernel callable returned an array of shape {K.shape}; expected "
                         f"(len(X), len(Y)) = ({X.shape[0]}, {Y.shape[0]})")
    if K.dtype.kind not in "fiub":
        raise TypeError(f"the kernel callable returned dtype {K.dtype}; expected real numbers")
    K = np.ascontiguousarray(K, dtype=np.float64)
    return check_finite(K, "the kernel callable's result")


def kernel_matrix(X, Y=None, kernel="rbf", *, degree=3, gamma="scale", coef0=0.0):
    """Matrix of kernel values ``K[a, b] = k(X[a], Y[b])``, by the compiled code
    the kernel perceptron trains and predicts with.

    Kernels (the definitions of scikit-learn's SVC):

    - ``linear``: ``x.z``
    - ``poly``: ``(gamma x.z + coef0)^degree``
    - ``rbf``: ``exp(-gamma ||x - z||^2)``
    - ``sigmoid``: ``tanh(gamma x.z + coef0)``

    Parameters
    ----------
    X : array-like of shape (n_X, n_features)
    Y : array-like of shape (n_Y, n_features), default=None
        None means ``Y = X`` (the Gram matrix of X).
    kernel : {"linear", "poly", "rbf", "sigmoid"}, default="rbf"
    degree : int, default=3
    gamma : "scale", "auto" or float > 0, default="scale"
        "scale" and "auto" are resolved from X as in ``KernelPerceptron``.
    coef0 : float, default=0.0

    Returns
    -------
    K : ndarray of shape (n_X, n_Y), float64
    """
    if not isinstance(kernel, str) or kernel not in _KINDS or kernel == "precomputed":
        raise ValueError(f"kernel must be 'linear', 'poly', 'rbf' or 'sigmoid', got {kernel!r}")
    X = check_finite(check_array(X, "X"), "X")
    Y = X if Y is None else check_finite(check_array(Y, "Y"), "Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features and Y has {Y.shape[1]}; they must match")
    if Y.dtype != X.dtype:
        X, Y = X.astype(np.float64), Y.astype(np.float64)
    degree = check_scalar(degree, "degree", "int", low=1, high=2**31 - 1)
    gamma = _resolve_gamma(_check_gamma(gamma), X)
    coef0 = check_scalar(coef0, "coef0", "float")
    return _kernel.kernel_matrix(X, Y, kind=_KINDS[kernel], gamma=gamma, coef0=coef0,
                                 degree=degree)


class KernelPerceptron(ClassifierMixin, BaseEstimator):
    """The perceptron in dual form with a kernel (Aizerman, Braverman and
    Rozonoer 1964; Freund and Schapire 1999).

    The primal perceptron's weights are a sum of the rows it made mistakes on,
    ``w = sum_j eta alpha_j y_j x_j``, so its activation needs only dot
    products; replacing ``x_j . x`` by a kernel ``K(x_j, x)`` gives a
    perceptron in the kernel's feature space without ever forming it:

        f(x) = sum_j eta alpha_j y_j K(x_j, x) + b,   predict sign(f(x)),

    where ``alpha_j`` counts the mistakes made on training row ``j``.  Training
    visits the rows as ``Perceptron`` does (same order for the same
    ``random_state``) and, when ``y_i f(x_i) <= 0``, sets
    ``alpha_i <- alpha_i + 1`` and ``b <- b + eta0 y_i``.  The rows with
    ``alpha_j > 0`` are the support vectors.  With ``kernel="linear"`` the
    decisions are exactly those of ``Perceptron`` on the same row order
    (Freund and Schapire 1999, section 2); with ``rbf`` or ``poly`` it fits
    XOR and concentric circles, which no hyperplane separates.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        ``linear``: ``x.z``; ``poly``: ``(gamma x.z + coef0)^degree``;
        ``rbf``: ``exp(-gamma ||x - z||^2)``; ``sigmoid``:
        ``tanh(gamma x.z + coef0)`` (not positive definite for every gamma,
        coef0: the perceptron then has no convergence guarantee).
        ``precomputed``: X is the Gram matrix (n_samples, n_samples) at fit
        and the kernel values against the training rows (n_test,
        n_samples) at predict.  A callable ``kernel(X, Y)`` must return the
        (len(X), len(Y)) matrix; it is evaluated once on the whole training
        set at fit (an n_samples^2 matrix) and against the support vectors at
        predict.
    degree : int, default=3
        Degree of the ``poly`` kernel (>= 1).
    gamma : "scale", "auto" or float > 0, default="scale"
        Kernel coefficient of ``poly``, ``rbf`` and ``sigmoid``.  "scale" is
        ``1 / (n_features * X.var())``, "auto" is ``1 / n_features``.
    coef0 : float, default=0.0
        Constant term of ``poly`` and ``sigmoid``.
    eta0 : float, default=1.0
        Step size (> 0); from ``alpha = 0`` the predictions do not depend on it.
    max_iter : int, default=1000
        Maximum number of epochs; at most 10**7 (the fit records each
        epoch's mistakes and loss in arrays of max_iter numbers).
    fit_intercept : bool, default=True
        Learn the bias ``b``.
    shuffle : bool, default=True
        Visit the rows in a new random order each epoch.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the shuffles.
    cache_size : float, default=200.0
        Memory budget of the Gram cache in MB (2^20 bytes).  Columns of the
        Gram matrix (n_samples float64 each) are computed when a mistake
        first needs them and kept, least recently used first out; when the
        whole matrix fits, each column is computed at most once.  At least
        one column is always kept.  Classes fitted in parallel share the
        budget equally.  The budget changes which terms are summed when,
        hence, on real-valued data, the last bits of the activations (never
        more than rounding); on integer-valued data with the linear or
        polynomial kernel the fit is exactly the same.
    max_support_vectors : int or None, default=None
        Budget of support vectors.  When a mistake on a new row would exceed
        it, the oldest support vector (the first to have entered the set) is
        removed first, with its whole term ``eta alpha_j y_j (K(x_j, .) + 1)``
        (the removal step of the Forgetron, Dekel, Shalev-Shwartz and Singer
        2008, without its shrinking).  None: no budget.
    n_jobs : int or None, default=None
        Threads for the fit (None: 1, -1: all, -2: all but one, ...):
        one-vs-rest classes are fitted in parallel; with two classes, the
        threads share the computation of each block of Gram columns.  The
        model does not depend on it.  Prediction uses at most ``n_jobs``
        threads (None: all the process may use).
    progress : bool, default=False
        Show a tqdm progress bar of the epochs, of every one-vs-rest class
        (tqdm must be installed).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
        Features of X (precomputed: the number of training samples).
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set (rows with a
        nonzero count for at least one class), increasing.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (a copy, in the training dtype; empty for
        ``precomputed``).
    alpha_ : ndarray of shape (n_estimators, n_SV), int64
        Mistake counts ``alpha_j`` (after any removal by the budget).
        ``n_estimators`` is 1 for two classes, else the number of classes
        (one-vs-rest).
    dual_coef_ : ndarray of shape (n_estimators, n_SV), float64
        ``eta0 * alpha_j * y_j`` with ``y_j`` in {-1, +1} for that estimator.
    intercept_ : ndarray of shape (n_estimators,)
    n_support_ : ndarray of shape (n_estimators,)
        Support vectors of each estimator.
    gamma_ : float or None
        The gamma used (None for kernels without one).
    n_iter_ : int
        Epochs run (the most over the estimators).
    converged_ : bool
        Whether every estimator reached an epoch without mistakes.
    mistakes_ : ndarray of shape (``n_iter_``,) or (n_classes, ``n_iter_``)
        Mistakes per epoch (one-vs-rest: per class, zero after a class has
        converged).
    loss_ : ndarray, the shape of ``mistakes_``
        Perceptron loss per epoch, ``(1/N) sum max(0, -y_i f(x_i))`` with each
        ``f(x_i)`` taken when row i was visited.
    t_ : int
        Updates made in all.
    n_removed_ : int
        Support vectors removed by ``max_support_vectors``.
    cache_stats_ : dict
        ``capacity`` (columns per estimator), ``computed`` (columns computed),
        ``reused`` (updates served from a cached column).
    coef_ : ndarray of shape (n_estimators, n_features)
        Only for ``kernel="linear"``: the primal weights ``sum_j c_j x_j``.

    Notes
    -----
    The activations of all training rows are kept up to date, so a mistake
    costs one pass over a Gram column; columns that are not cached are
    computed in blocks of up to 64, in one pass over X, as a matrix product
    by the SIMD kernels (``dot_block``, then ``exp`` for rbf, whose squared
    distances are taken about the data's mean).  See ``perceptron._core.kernel``
    for the design.  X is checked for NaN and infinity before training.

    Sparse X (as ``Perceptron`` takes it: scipy.sparse or CSRData) is checked
    and made dense once, in ``fit`` and in ``decision_function``, when the
    dense copy fits ``perceptron.kernel.SPARSE_DENSIFY_MAX_BYTES`` (1 GiB);
    larger sparse input is refused with a ValueError.  The kernel methods'
    cost is quadratic in the rows anyway, and their blocks of Gram columns
    run on the dense SIMD kernels.
    """

    def __init__(self, kernel: Any = "rbf", degree: int = 3, gamma: Union[str, float] = "scale",
                 coef0: float = 0.0, eta0: float = 1.0, max_iter: int = 1000,
                 fit_intercept: bool = True, shuffle: bool = True, random_state: Any = None,
                 cache_size: float = 200.0, max_support_vectors: Optional[int] = None,
                 n_jobs: Optional[int] = None, progress: bool = False) -> None:
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.eta0 = eta0
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.shuffle = shuffle
        self.random_state = random_state
        self.cache_size = cache_size
        self.max_support_vectors = max_support_vectors
        self.n_jobs = n_jobs
        self.progress = progress

    def _check_params(self):
        msv = self.max_support_vectors
        if msv is not None:
            msv = check_scalar(msv, "max_support_vectors", "int", low=1)
        return {
            "kernel": _check_kernel(self.kernel),
            "degree": check_scalar(self.degree, "degree", "int", low=1, high=2**31 - 1),
            "gamma": _check_gamma(self.gamma),
            "coef0": check_scalar(self.coef0, "coef0", "float"),
            "eta": check_scalar(self.eta0, "eta0", "float", low=0.0, low_open=True),
            "max_iter": check_scalar(self.max_iter, "max_iter", "int", low=1,
                                     high=MAX_EPOCHS_RECORDED),
            "fit_intercept": check_scalar(self.fit_intercept, "fit_intercept", "bool"),
            "shuffle": check_scalar(self.shuffle, "shuffle", "bool"),
            "cache_size": check_scalar(self.cache_size, "cache_size", "float", low=0.0,
                                       low_open=True),
            "max_support_vectors": msv,
            "n_jobs": resolve_n_jobs(self.n_jobs),
        }

    def fit(self, X: MatrixLike, y: ArrayLike) -> Self:
        """Train on X (n_samples, n_features) (precomputed: the Gram matrix)
        and labels y (n_samples,).

        Returns
        -------
        self
        """
        params = self._check_params()
        progress = check_scalar(self.progress, "progress", "bool")
        kernel = params["kernel"]
        names_source = X
        X = check_array(_densified(X))
        n = X.shape[0]
        if kernel == "precomputed" and X.shape[1] != n:
            raise ValueError(f"kernel='precomputed': X must be the square Gram matrix "
                             f"(n_samples, n_samples), got shape {X.shape}")
        check_finite(X)
        y = check_labels(y, n)
        classes = unique_labels(y)
        require_two_classes(classes)
        if callable(kernel):
            data, kind, gamma = _call_kernel(kernel, X, X), _kernel.KIND_PRECOMPUTED, None
        else:
            data, kind = X, _KINDS[kernel]
            gamma = _resolve_gamma(params["gamma"], X) if kernel in _USES_GAMMA else None
        if len(classes) == 2:
            signs = [encode_binary(y, classes)]
        else:
            signs = [label_signs(y == c) for c in classes]
        # classes in parallel; a single estimator (two classes) uses the
        # threads for its blocks of Gram columns instead (never both: a pool
        # worker must not wait on the pool)
        n_threads = min(params["n_jobs"], len(signs))
        block_threads = params["n_jobs"] if n_threads == 1 else 1
        budget = params["cache_size"] * 2**20 / n_threads
        seed = check_random_seed(self.random_state)

        def run_blocks(run, n_rows, work_per_row):
            chunks = row_chunks(n_rows, work_per_row, block_threads)
            map_threads(run, chunks, len(chunks))

        bar = epoch_bar(self, params["max_iter"] * len(signs)) if progress else None

        def fit_one(e):
            return _kernel.fit_dual(
                data, signs[e], kind=kind, gamma=gamma or 0.0, coef0=params["coef0"],
                degree=params["degree"], eta=params["eta"],
                fit_intercept=params["fit_intercept"], shuffle=params["shuffle"],
                max_iter=params["max_iter"], seed=seed,
                # n columns hold the whole matrix (and an unbounded budget is inf)
                cache_columns=n if budget >= 8.0 * n * n else int(budget // (8 * n)),
                # at most n support vectors (one per row): a larger budget never binds
                max_support_vectors=min(params["max_support_vectors"] or 0, n),
                n_threads=block_threads, runner=run_blocks,
                on_epoch=None if bar is None else lambda epoch, m: bar.update(1))

        try:
            results = map_threads(fit_one, [(e,) for e in range(len(signs))], n_threads)
        finally:
            if bar is not None:
                bar.close()
        for r in results:
            if r["status"] == _kernel.STATUS_OVERFLOW:
                raise FloatingPointError(
                    f"the activations overflowed in epoch {r['bad_epoch'] + 1}: the kernel values "
                    "are too large (scale the features, or lower eta0, gamma, coef0 or degree)")

        alpha = np.stack([r["alpha"] for r in results])
        sign_matrix = np.stack(signs).astype(np.float64)
        support = np.flatnonzero(alpha.any(axis=0))
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        self.support_ = support
        self.support_vectors_ = (np.empty((0, X.shape[1]), dtype=X.dtype) if kernel == "precomputed"
                                 else X[support].copy())
        # fancy indexing along axis 1 may return a Fortran-ordered array; the
        # scoring loop reads rows of coefficients
        self.alpha_ = np.ascontiguousarray(alpha[:, support])
        self.dual_coef_ = np.ascontiguousarray(
            params["eta"] * self.alpha_ * sign_matrix[:, support])
        self.intercept_ = np.array([r["intercept"] for r in results], dtype=np.float64)
        self.n_support_ = (self.alpha_ > 0).sum(axis=1)
        self.gamma_ = gamma
        self._kind = kind
        self._kernel_fn = kernel if callable(kernel) else None
        self._degree = params["degree"]
        self._coef0 = params["coef0"]
        self.n_iter_ = max(r["n_epochs"] for r in results)
        self.converged_ = all(r["converged"] for r in results)
        mistakes = np.zeros((len(results), self.n_iter_), dtype=np.int64)
        loss = np.zeros((len(results), self.n_iter_), dtype=np.float64)
        for e, r in enumerate(results):
            mistakes[e, :r["n_epochs"]] = r["mistakes"]
            loss[e, :r["n_epochs"]] = r["loss"] / n
        self.mistakes_ = mistakes[0] if len(results) == 1 else mistakes
        self.loss_ = loss[0] if len(results) == 1 else loss
        self.t_ = int(sum(r["n_updates"] for r in results))
        self.n_removed_ = int(sum(r["n_removed"] for r in results))
        self.cache_stats_ = {
            "capacity": results[0]["cache_capacity"],
            "computed": int(sum(r["columns_computed"] for r in results)),
            "reused": int(sum(r["columns_reused"] for r in results)),
        }
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} did not converge in {params['max_iter']} epochs "
                f"(max_iter): mistakes were still made in the last one; the data may not be "
                "separable in the kernel's feature space", ConvergenceWarning, stacklevel=2)
        check_feature_names(self, names_source, reset=True)
        return self

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """Activation ``sum_j c_j K(x_j, x) + b`` of each row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            precomputed: kernel values against the training rows,
            (n_samples, n_training_samples).

        Returns
        -------
        scores : ndarray of shape (n_samples,) for two classes (positive:
            ``classes_[1]``), else (n_samples, n_classes)
        """
        check_is_fitted(self, "dual_coef_")
        check_feature_names(self, X, reset=False)
        X = check_array(_densified(X))
        check_n_features(self, X)
        check_finite(X)
        m = X.shape[0]
        n_est = self.dual_coef_.shape[0]
        out = np.empty((m, n_est), dtype=np.float64)
        if self._kind == _kernel.KIND_PRECOMPUTED:
            if self._kernel_fn is not None:
                G = _call_kernel(self._kernel_fn, X, self.support_vectors_)
                columns = np.arange(len(self.support_), dtype=np.intp)
            else:
                G, columns = X, self.support_.astype(np.intp)
            _kernel.decision_precomputed(G, columns, self.dual_coef_, self.intercept_, out)
        else:
            SV = self.support_vectors_
            if SV.dtype != X.dtype:
                # the loop needs one dtype; casting the support vectors beats copying X
                SV = SV.astype(X.dtype)
            d = X.shape[1]
            chunks = row_chunks(m, max(1, len(SV)) * (d + 2), scoring_threads(self.n_jobs))
            map_threads(lambda lo, hi: _kernel.decision_dual(
                X[lo:hi], SV, self.dual_coef_, self.intercept_, out[lo:hi], kind=self._kind,
                gamma=self.gamma_ or 0.0, coef0=self._coef0, degree=self._degree),
                chunks, len(chunks))
        if not np.isfinite(out).all():
            raise FloatingPointError("the decision function overflowed: the kernel values are "
                                     "too large (scale the features, or lower gamma, coef0 or "
                                     "degree)")
        return out[:, 0] if n_est == 1 else out

    def predict(self, X: MatrixLike) -> LabelArray:
        """Class of each row: two classes, ``classes_[1]`` where the activation
        is > 0, else ``classes_[0]``; more, the class of the largest
        activation (one-vs-rest)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    @property
    def coef_(self):
        """Primal weights ``sum_j c_j x_j`` (n_estimators, n_features); only
        for ``kernel="linear"``, where ``f(x) = coef_ @ x + intercept_``."""
        check_is_fitted(self, "dual_coef_")
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError("coef_ is only available when kernel='linear'")
        return self.dual_coef_ @ self.support_vectors_.astype(np.float64)


# ------------------------------------------------------------- model files

def _check_saved(est):
    check_common(est)
    try:
        est._check_params()
    except (TypeError, ValueError) as exc:
        bad(f"the parameters are not valid: {exc}")
    n_est = 1 if len(est.classes_) == 2 else len(est.classes_)
    kind = est._kind
    need(est._kernel_fn is None, "a callable kernel cannot come from a file")
    need(isinstance(est.kernel, str) and _KINDS.get(est.kernel) == kind,
         "_kind does not match the kernel parameter")
    support = est.support_
    need(is_array(support, 1, "i"), "support_ must be an integer array")
    support = est.support_ = support.astype(np.intp)
    n_sv = len(support)
    need(n_sv == 0 or (support[0] >= 0 and (np.diff(support) > 0).all()),
         "support_ must be increasing non-negative indices")
    SV = est.support_vectors_
    d = est.n_features_in_
    need(is_array(SV, 2, "f") and SV.dtype in (np.float32, np.float64),
         "support_vectors_ must be a float32 or float64 matrix")
    if kind == _kernel.KIND_PRECOMPUTED:
        # predict reads column support_[j] of the kernel values against the
        # n_features_in_ training rows
        need(n_sv == 0 or support[-1] < d, "support_ indexes past the training rows")
        need(SV.shape == (0, d), "support_vectors_ must be empty (0, n_features_in_) for a "
                                 "precomputed kernel")
    else:
        need(SV.shape == (n_sv, d), "support_vectors_ must be (n_support, n_features_in_)")
    need(is_array(est.alpha_, 2, "i") and est.alpha_.dtype == np.int64
         and est.alpha_.shape == (n_est, n_sv), f"alpha_ must be int64 ({n_est}, {n_sv})")
    need(is_array(est.dual_coef_, 2, "f") and est.dual_coef_.dtype == np.float64
         and est.dual_coef_.shape == (n_est, n_sv), f"dual_coef_ must be float64 ({n_est}, {n_sv})")
    need(is_array(est.intercept_, 1, "f") and est.intercept_.dtype == np.float64
         and est.intercept_.shape == (n_est,), f"intercept_ must be float64 ({n_est},)")
    need(is_array(est.n_support_, 1, "i") and est.n_support_.shape == (n_est,),
         "n_support_ must be an integer array (n_estimators,)")
    gamma = est.gamma_
    need(gamma is None or (isinstance(gamma, float) and math.isfinite(gamma) and gamma > 0),
         "gamma_ must be None or a positive float")
    need(gamma is not None or kind in (_kernel.KIND_LINEAR, _kernel.KIND_PRECOMPUTED),
         "gamma_ is needed by this kernel")
    check_int(est._degree, "_degree", 1)
    need(est._degree <= 2**31 - 1, "_degree must fit a C int")
    need(isinstance(est._coef0, float) and math.isfinite(est._coef0), "_coef0 must be a float")
    for name in ("n_iter_", "t_", "n_removed_"):
        check_int(attr(est, name), name)
    need(isinstance(est.converged_, bool), "converged_ must be a bool")
    check_history(est, "mistakes_", "loss_", ndim=2)
    stats = est.cache_stats_
    need(isinstance(stats, dict) and all(isinstance(k, str) and isinstance(v, int)
                                         for k, v in stats.items()),
         "cache_stats_ must map names to ints")


register_model(KernelPerceptron, check=_check_saved,
               fitted={"classes_", "n_features_in_", "support_", "support_vectors_", "alpha_",
                       "dual_coef_", "intercept_", "n_support_", "gamma_", "_kind", "_kernel_fn",
                       "_degree", "_coef0", "n_iter_", "converged_", "mistakes_", "loss_", "t_",
                       "n_removed_", "cache_stats_", "feature_names_in_"})

"""Scoring of fitted linear models: ``linear_decision`` and the
``LinearClassifierMixin`` that ``Perceptron`` and ``CentroidClassifier`` share."""
from __future__ import annotations

import weakref
from typing import Any, Optional

import numpy as np

from perceptron.model import LinearModel
from perceptron._common.base import ClassifierMixin
from perceptron._core import csr as _csr
from perceptron._core import decision as _decision
from perceptron._common.parallel import available_threads, map_threads, row_chunks, scoring_threads
from perceptron._common.typing import ArrayLike, Float64Array, LabelArray, MatrixLike, Self
from perceptron._common.validation import (CSRData, check_feature_names, check_is_fitted,
                                           check_n_features, check_X, is_narrow, model_dtype)

__all__ = ["LinearClassifierMixin", "linear_decision"]


# the most bytes of float64 rows score_widened converts at a time (per thread)
_WIDE_BLOCK = 1 << 18
_F64 = np.dtype(np.float64)


def score_widened(X, W, b, out, rows=None):
    """out = X[rows] @ W.T + b (rows None: every row) for narrow rows X
    (``is_narrow``) and float64 weights W: blocks of the rows converted to
    float64, at most ``_WIDE_BLOCK`` bytes (a row at least), scored by the
    float64 rows' loop (``decision_dense``): every narrow value is a float64
    exactly, so the activations have the bits of ``X.astype(np.float64)``'s,
    without a float64 copy of X."""
    n = len(out)
    step = max(1, _WIDE_BLOCK // (8 * max(X.shape[1], 1)))
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        block = (X[lo:hi] if rows is None else X[rows[lo:hi]]).astype(_F64)
        _decision.decision_dense(block, W, b, out[lo:hi])


def linear_decision(X, W, b, n_threads=None):
    """Activations X @ W.T + b, (n, k) float64, rows split among at most
    `n_threads` threads (None: ``available_threads()``).

    X is a dense array or a ``CSRData`` (checked CSR arrays)."""
    if n_threads is None:
        n_threads = available_threads()
    narrow = not isinstance(X, CSRData) and is_narrow(X.dtype)
    if W.dtype != model_dtype(X.dtype) and not (narrow and W.dtype == _F64):
        # the loop needs one dtype; casting k*d weights beats copying X
        # (narrow rows meet float32 weights, or float64 ones row block by block)
        W = W.astype(model_dtype(X.dtype))
    W = np.ascontiguousarray(W)
    b = np.ascontiguousarray(b, dtype=np.float64)
    n, d = X.shape
    out = np.empty((n, W.shape[0]), dtype=np.float64)
    if isinstance(X, CSRData):
        chunks = row_chunks(n, max(1, X.nnz // n) * W.shape[0], n_threads)
        values, binary = _csr.loop_values(X.data, X.indptr)
        map_threads(lambda lo, hi: _decision.decision_csr(values, X.indices, X.indptr, d, W, b,
                                                          out[lo:hi], lo, binary=binary),
                    chunks, len(chunks))
    else:
        score = (_decision.decision_dense if not narrow else score_widened
                 if W.dtype == _F64 else _decision.decision_narrow)
        chunks = row_chunks(n, d * W.shape[0], n_threads)
        map_threads(lambda lo, hi: score(X[lo:hi], W, b, out[lo:hi]), chunks, len(chunks))
    if not np.isfinite(out).all():
        values = X.data if isinstance(X, CSRData) else X
        if not np.isfinite(values).all():
            raise ValueError("X contains NaN or infinity; remove or impute those values first")
        if np.isnan(out).any():
            raise ValueError("the decision function overflowed (X holds values too large "
                             "for the model's weights)")
    return out


def linear_predict_index(X, W, b, n_threads=None, classes=None):
    """The class index of each row, (n,) intp: ``a > 0`` for one row of
    weights, else the first largest activation, from the activations
    ``linear_decision`` computes (the same operations), without writing
    them out.  The same errors as ``linear_decision``.

    With `classes`, returns ``classes[index]`` instead: the compiled loop
    copies each row's label (the bytes of its class) where it picks the
    class, on the threads that score the rows; labels that are Python
    objects are taken from ``classes`` by blocks of rows instead, each
    thread picking the indices of a block into a small buffer that stays in
    its cache."""
    if n_threads is None:
        n_threads = available_threads()
    if not isinstance(X, CSRData) and is_narrow(X.dtype):
        # narrow rows: their activations (read as stored), then the same choice
        a = linear_decision(X, W, b, n_threads)
        index = (a[:, 0] > 0).astype(np.intp) if a.shape[1] == 1 else np.argmax(a, axis=1)
        return index if classes is None else classes[index]
    if W.dtype != X.dtype:
        W = W.astype(X.dtype)
    W = np.ascontiguousarray(W)
    b = np.ascontiguousarray(b, dtype=np.float64)
    n, d = X.shape
    k = W.shape[0]
    if isinstance(X, CSRData):
        chunks = row_chunks(n, max(1, X.nnz // n) * k, n_threads)
        values, binary = _csr.loop_values(X.data, X.indptr)

        def pick(lo, hi, index, cls=None, labels=None):
            return _decision.predict_csr(values, X.indices, X.indptr, d, W, b, index,
                                         _decision.pick_scratch(k), lo, cls, labels,
                                         binary=binary)
    else:
        chunks = row_chunks(n, d * k, n_threads)

        def pick(lo, hi, index, cls=None, labels=None):
            return _decision.predict_dense(X[lo:hi], W, b, index, _decision.pick_scratch(k),
                                           cls, labels)

    if classes is None:
        out = np.empty(n, dtype=np.intp)

        def run(lo, hi):
            return pick(lo, hi, out[lo:hi])
    elif not classes.dtype.hasobject and classes.dtype.itemsize > 0:
        # the labels as rows of bytes: the loop copies them itself, without
        # the GIL, instead of a take from classes_ after it
        size = classes.dtype.itemsize
        cls = np.ascontiguousarray(classes).view(np.uint8).reshape(len(classes), size)
        # made as bytes and viewed as labels: np.empty of a str dtype fills
        # the array with zeros first (26 us for 200,000 3-letter labels),
        # and the loop writes every byte of every row anyway
        labels = np.empty((n, size), dtype=np.uint8)
        out = labels.reshape(n * size).view(classes.dtype)

        def run(lo, hi):
            return pick(lo, hi, None, cls, labels[lo:hi])
    else:
        out = np.empty(n, dtype=classes.dtype)

        def run(lo, hi):
            buffer = np.empty(min(_PREDICT_BLOCK, hi - lo), dtype=np.intp)
            nonfinite = nan = 0
            for start in range(lo, hi, _PREDICT_BLOCK):
                stop = min(hi, start + _PREDICT_BLOCK)
                index = buffer[:stop - start]
                counts = pick(start, stop, index)
                nonfinite, nan = nonfinite + counts[0], nan + counts[1]
                # take(mode="clip") skips the bounds checks of fancy
                # indexing: the indices are valid by construction
                classes.take(index, out=out[start:stop], mode="clip")
            return nonfinite, nan
    counts = map_threads(run, chunks, len(chunks))
    if any(nonfinite for nonfinite, _ in counts):
        values = X.data if isinstance(X, CSRData) else X
        if not np.isfinite(values).all():
            raise ValueError("X contains NaN or infinity; remove or impute those values first")
        if any(nan for _, nan in counts):
            raise ValueError("the decision function overflowed (X holds values too large "
                             "for the model's weights)")
    return out


# rows whose class indices predict keeps at once per thread (128 KB)
_PREDICT_BLOCK = 16384


class LinearClassifierMixin(ClassifierMixin):
    """Scoring of a fitted linear model: ``decision_function`` and ``predict``.

    The activation of a row is ``a_j = w_j.x + b_j`` for each row ``j`` of
    ``coef_``.  With one row (two classes) the prediction is ``classes_[1]``
    when ``a > 0`` and ``classes_[0]`` otherwise (so ``sign(0) = -1``, as in
    Daume 2017, *A Course in Machine Learning*, ch. 3); with one row per class it is the class of the largest
    activation (the first one on ties); for a multi-label model it is the
    indicator ``a_j > 0`` of every label.  Rows are split among threads when
    there is enough work (at most ``n_jobs`` of them, when the estimator has
    the parameter; see ``perceptron._common.parallel``); each thread runs the
    compiled loop without the GIL.
    """

    _multilabel = False
    # fitted attributes, set by the estimator's fit
    coef_: np.ndarray
    intercept_: np.ndarray
    classes_: np.ndarray
    # whether scoring reads float16, bfloat16, int8 and uint8 rows as stored
    # (the estimators whose fit does: Perceptron) or converts them
    _narrow_rows = False

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """Activations ``w_j.x + b_j`` of each row.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Dense, or sparse as ``fit`` takes it (scipy.sparse, CSRData).

        Returns
        -------
        scores : ndarray of shape (n_samples,) for two classes (positive:
            ``classes_[1]``), else (n_samples, n_classes) or (n_samples,
            n_labels); float64.
        """
        check_is_fitted(self)
        check_feature_names(self, X, reset=False)
        X = check_X(X, accept_sparse=True, narrow=self._narrow_rows)
        check_n_features(self, X)
        out = linear_decision(X, _dense(self.coef_), self.intercept_,
                              scoring_threads(getattr(self, "n_jobs", None)))
        return out[:, 0] if out.shape[1] == 1 else out

    def c_model(self) -> LinearModel:
        """The fitted weights as a C struct, for nogil scoring from Cython or C.

        Returns a ``perceptron.model.LinearModel``; its ``c_model`` member
        is the ``ptn_linear_model`` of csrc/ptn_model.h, to be used with the
        ``decision`` / ``decision_all`` / ``predict`` functions of
        ``perceptron/_model.pxd`` (``cimport perceptron.model``).

        Lifetime: the struct borrows ``coef_`` and ``intercept_`` (it copies
        them only if they are not C-contiguous); the LinearModel object keeps
        them alive, so hold a reference to it while its struct is in use.  A
        new fit gives the estimator new arrays; a LinearModel obtained before
        goes on scoring the old model.  Scoring only reads the weights: many
        threads may share one model.
        """
        check_is_fitted(self)
        cached = _C_MODELS.get(self)
        if cached is not None and cached[0] is self.coef_ and cached[1] is self.intercept_:
            return cached[2]
        if self._multilabel:
            kind = "multilabel"
        else:
            kind = "binary" if self.coef_.shape[0] == 1 else "multiclass"
        model = LinearModel(_dense(self.coef_), self.intercept_, kind)
        _C_MODELS[self] = (self.coef_, self.intercept_, model)
        return model

    def sparsify(self) -> Self:
        """Store ``coef_`` as a scipy.sparse CSR matrix (needs scipy).

        Scoring goes on working (the weights are made dense for each call,
        so this saves memory between calls, not time); ``densify`` undoes
        it, and a new ``fit`` sets dense weights again.

        Returns
        -------
        self
        """
        check_is_fitted(self)
        import scipy.sparse

        self.coef_ = scipy.sparse.csr_matrix(self.coef_)
        return self

    def densify(self) -> Self:
        """Store ``coef_`` as a dense numpy array again (after ``sparsify``).

        Returns
        -------
        self
        """
        check_is_fitted(self)
        self.coef_ = _dense(self.coef_)
        return self

    def decision_one(self, x: ArrayLike) -> Any:
        """``decision_function`` of one row, with the least overhead.

        x : 1-D array or list of ``n_features_in_`` numbers (converted to the
        model's dtype when it is not already).  Returns a float for a binary
        model, an array (n_classes,) otherwise.  NaN or infinity in x, a
        wrong length or non-numbers raise ValueError / TypeError.
        """
        return self.c_model().decision_one(x)

    def predict_one(self, x: ArrayLike) -> Any:
        """``predict`` of one row: the class label, with the least overhead
        (see ``decision_one`` for x)."""
        index = self.c_model().predict_one(x)
        return self.classes_[index]

    def predict(self, X: MatrixLike) -> LabelArray:
        """Class of each row (an indicator matrix for a multi-label model)."""
        if self._multilabel:
            return (self.decision_function(X) > 0).astype(np.int64)
        check_is_fitted(self)
        check_feature_names(self, X, reset=False)
        X = check_X(X, accept_sparse=True, narrow=self._narrow_rows)
        check_n_features(self, X)
        # the compiled loop picks each row's class from its activations (as
        # argmax over decision_function would) without writing them out
        return linear_predict_index(X, _dense(self.coef_), self.intercept_,
                                    scoring_threads(getattr(self, "n_jobs", None)),
                                    classes=self.classes_)

    def report(self, X: MatrixLike, y: ArrayLike, w_star: Optional[ArrayLike] = None,
               b_star: float = 0.0, *, file: Any = None, verbose: bool = True) -> Any:
        """Print and return the geometry of this model on (X, y): updates made,
        R, the margin achieved, and the bound (R/gamma)^2 for a separator
        ``w_star``; see ``perceptron.geometry.report``."""
        from perceptron.geometry import report

        return report(self, X, y, w_star, b_star, file=file, verbose=verbose)


def _dense(W):
    """The weights as a numpy array, whether ``sparsify`` stored them sparse or not."""
    return np.ascontiguousarray(W.toarray()) if hasattr(W, "toarray") else W


# estimator -> (coef_, intercept_, LinearModel): c_model()'s cache, kept out of
# the estimator's __dict__ so that scoring never changes the estimator
_C_MODELS: "weakref.WeakKeyDictionary[Any, tuple]" = weakref.WeakKeyDictionary()

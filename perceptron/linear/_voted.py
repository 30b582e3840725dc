"""The voted perceptron (Freund and Schapire 1999)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from perceptron._core import voted as _voted
from perceptron._common.base import BaseEstimator, ClassifierMixin
from perceptron._common.stopping import epoch_bar
from perceptron._common.parallel import map_threads, resolve_n_jobs, row_chunks, scoring_threads
from perceptron.io._registry import (attr, check_common, check_history, check_int, is_array, need,
                                     register_model)
from perceptron._common.typing import ArrayLike, Float64Array, LabelArray, MatrixLike, Self
from perceptron._common.validation import (CSRData, check_feature_names, check_finite,
                                           check_fit_bytes, check_fit_input, check_is_fitted,
                                           check_n_features,
                                           check_random_seed, check_scalar, check_weight_memory,
                                           check_X, label_signs, mix64, MAX_EPOCHS_RECORDED)

__all__ = ["VotedPerceptron"]

# the kept vectors of a fit on dense X, and of a fit on sparse X (their updates)
_VECTORS = ("vectors_", "vector_intercepts_", "vector_counts_")
_UPDATES = ("update_indptr_", "update_indices_", "update_values_", "vector_updates_",
            "vector_intercepts_", "vector_counts_")


def _updates(X, signs, results):
    """Each problem's kept vectors as their updates (the fitted attributes of
    _UPDATES, one tuple a problem): the rows of the first mistakes up to the
    last kept vector, copied as CSR rows with the label's sign, the vectors
    in the order they were made.  Their memory is checked before it is
    allocated."""
    plans = []
    for s, res in zip(signs, results):
        order = np.argsort(res["vector_updates"], kind="stable")
        upto = np.ascontiguousarray(res["vector_updates"][order])
        rows = res["update_rows"][:int(upto[-1]) if len(upto) else 0]
        first = X.indptr[rows].astype(np.int64)
        lengths = X.indptr[rows + 1].astype(np.int64) - first
        plans.append((s, res, order, upto, rows, first, lengths))
    # per stored value: its column and value, and the positions gathered
    nnz = sum(int(p[-1].sum()) for p in plans)
    check_fit_bytes(nnz * 32 + sum(8 * len(p[4]) for p in plans),
                    f"a VotedPerceptron's updates ({nnz:,} stored values up to the last voter)",
                    "lower max_iter or max_vectors")
    out = []
    for s, res, order, upto, rows, first, lengths in plans:
        ptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=ptr[1:])
        at = np.repeat(first - ptr[:-1], lengths) + np.arange(ptr[-1], dtype=np.int64)
        values = X.data[at].astype(np.float64)
        values *= np.repeat(s[rows].astype(np.float64), lengths)  # y_i x_i, exact
        out.append((ptr, X.indices[at].astype(np.int64), values, upto,
                    np.ascontiguousarray(res["intercepts"][order]),
                    np.ascontiguousarray(res["counts"][order])))
    return out


class VotedPerceptron(ClassifierMixin, BaseEstimator):
    """The voted perceptron: every weight vector of the run votes, weighted by
    how long it survived.

    Training is the perceptron rule (update ``w += y*x``, ``b += y`` when
    ``y*a <= 0``); each weight vector ``v_i`` the run passes through is kept
    with its survival count ``c_i`` (1 when it is made, +1 for every example
    it then classifies right).  A row is classified by the vote
    ``sign(sum_i c_i sign(v_i.x + b_i))`` (Freund and Schapire 1999, "Large
    margin classification using the perceptron algorithm", Figure 1), which
    generalises like a large-margin classifier on data that are not
    separable.  More than two classes: one voted perceptron per class
    (one-vs-rest), on ``n_jobs`` threads.

    Parameters
    ----------
    max_iter : int, default=10
        Epochs (Freund and Schapire's T); the fit also stops after an epoch
        without mistakes.  At most 10**7 (the fit records each epoch's
        mistakes in an array of max_iter counts).
    fit_intercept : bool, default=True
    shuffle : bool, default=True
    random_state : None, int, numpy.random.Generator or RandomState, default=None
    max_vectors : int, default=1000
        At most this many vectors vote per binary problem.  When the store
        is full and a vector closes, the lightest voter (the smallest count;
        a newcomer loses ties) is dropped, be it a stored vector or the
        newcomer: the store keeps the heaviest voters.  Over dense X the
        vectors are kept dense (at most ``max_vectors * (n_features + 2)``
        numbers a problem), and ``fit`` refuses, before training, a budget
        whose vectors could take more than 4 GiB (``PERCEPTRON_MAX_FIT_BYTES``
        in the environment raises the limit).  Over sparse X each vector is
        kept as what it adds to the one before it, the update ``y_i x_i``
        (a row's stored values): a fit keeps the updates up to the last
        voter, at most one a mistake, and scores a row by accumulating their
        dot products (see ``update_values_``).
    n_jobs : int or None, default=None
        Threads for one-vs-rest problems (None: 1) and for scoring (None:
        all the process may use); -1: all the CPUs the process may use, -2:
        all but one, ...
    progress : bool, default=False
        Show a tqdm progress bar of the epochs, of every one-vs-rest problem
        (tqdm must be installed).

    Attributes
    ----------
    vectors_ : list of ndarray of shape (n_vectors, n_features)
        After a fit on dense X: the kept weight vectors of each binary
        problem (one problem for two classes, one per class otherwise), in
        the training data's dtype.
    update_indptr_, update_indices_, update_values_ : lists of ndarray
        After a fit on sparse X, instead of ``vectors_``: the updates of each
        problem as CSR rows (int64 pointers, int64 columns, float64 values):
        update t is ``y_i x_i`` of the row of the t-th mistake.
    vector_updates_ : list of ndarray of shape (n_vectors,), int64
        After a fit on sparse X: kept vector j is the sum of the first
        ``vector_updates_[p][j]`` updates (rising).  Its activation on a row
        is accumulated from the updates' dot products with the row, so it
        equals the dense vector's exactly on integer-valued data and to
        rounding otherwise.
    vector_intercepts_ : list of ndarray of shape (n_vectors,)
    vector_counts_ : list of ndarray of shape (n_vectors,)
        Survival counts: the votes.
    n_vectors_evicted_ : int
        Vectors dropped by the ``max_vectors`` budget.
    classes_, n_features_in_, n_iter_, converged_, mistakes_ :
        As in ``Perceptron`` (``mistakes_`` summed over one-vs-rest problems).
    """

    def __init__(self, max_iter: int = 10, fit_intercept: bool = True, shuffle: bool = True,
                 random_state: Any = None, max_vectors: int = 1000,
                 n_jobs: Optional[int] = None, progress: bool = False) -> None:
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.shuffle = shuffle
        self.random_state = random_state
        self.max_vectors = max_vectors
        self.n_jobs = n_jobs
        self.progress = progress

    def _check_params(self):
        """The parameters, checked (also when a model file is loaded)."""
        return (check_scalar(self.max_iter, "max_iter", "int", low=1, high=MAX_EPOCHS_RECORDED),
                check_scalar(self.fit_intercept, "fit_intercept", "bool"),
                check_scalar(self.shuffle, "shuffle", "bool"),
                check_scalar(self.max_vectors, "max_vectors", "int", low=1),
                resolve_n_jobs(self.n_jobs),
                check_random_seed(self.random_state))

    def fit(self, X: MatrixLike, y: ArrayLike) -> Self:
        """Train on X (n_samples, n_features) and labels y (n_samples,).

        X may be sparse, as ``Perceptron.fit`` takes it (CSR used in place):
        the vectors are then kept as their updates (``update_values_``),
        dense otherwise (``vectors_``, in X's dtype).
        """
        max_iter, fit_intercept, shuffle, max_vectors, n_threads, seed = self._check_params()
        progress = check_scalar(self.progress, "progress", "bool")
        names_source = X
        X, y, classes = check_fit_input(X, y)
        n, d = X.shape
        n_problems = 1 if len(classes) == 2 else len(classes)
        sparse = isinstance(X, CSRData)
        if sparse:
            # the vector being trained and its copy in the results, dense; the
            # updates are counted once made (_updates)
            check_weight_memory(n_problems, d, 2 * X.dtype.itemsize, "VotedPerceptron")
        else:
            # the vectors are kept dense: at most one a mistake, max_vectors a problem
            kept = min(max_vectors, n * max_iter + 1)
            check_fit_bytes(n_problems * kept * (d * X.dtype.itemsize + 16),
                            f"a VotedPerceptron keeping up to {kept} dense vectors of {d} "
                            f"features for each of {n_problems} "
                            f"problem{'s' if n_problems > 1 else ''}",
                            "lower max_vectors, use fewer features, or pass X as sparse rows "
                            "(the vectors are then kept as their updates; "
                            "perceptron.Perceptron with average=True keeps one vector)")
        index = np.searchsorted(classes, y)
        if len(classes) == 2:
            problems = [(label_signs(index == 1), seed)]
        else:
            problems = [(label_signs(index == j), mix64(seed ^ (j + 1)))
                        for j in range(len(classes))]

        bar = epoch_bar(self, max_iter * len(problems)) if progress else None

        def job(signs, problem_seed):
            return _voted.fit_voted(X, signs, np.arange(n, dtype=np.intp),
                                    fit_intercept=fit_intercept, shuffle=shuffle,
                                    max_iter=max_iter, seed=problem_seed,
                                    max_vectors=max_vectors, sparse=sparse,
                                    on_epoch=None if bar is None else lambda e, m: bar.update(1))

        try:
            results = map_threads(job, problems, min(n_threads, len(problems)))
        finally:
            if bar is not None:
                bar.close()
        for res in results:
            if res["status"] == _voted.STATUS_NONFINITE_X:
                raise ValueError(f"X contains NaN or infinity (row {res['bad_row']}); "
                                 "remove or impute those values first")
            if res["status"] == _voted.STATUS_OVERFLOW:
                raise FloatingPointError(f"the weights overflowed in epoch {res['epochs'] + 1}: "
                                         "scale the features")
            if res["status"] == _voted.STATUS_NO_MEMORY:
                raise MemoryError("out of memory for the voted perceptron's vectors; "
                                  "lower max_vectors")
        n_iter = max(res["epochs"] for res in results)
        mistakes = np.zeros(n_iter, dtype=np.int64)
        for res in results:
            mistakes[:len(res["mistakes"])] += res["mistakes"]
        for name in _VECTORS + _UPDATES:  # a refit may change the form
            self.__dict__.pop(name, None)
        if sparse:
            chains = _updates(X, [signs for signs, _ in problems], results)
            for name, values in zip(_UPDATES, zip(*chains)):
                setattr(self, name, list(values))
        else:
            self.vectors_ = [res["vectors"] for res in results]
            self.vector_intercepts_ = [res["intercepts"] for res in results]
            self.vector_counts_ = [res["counts"] for res in results]
        self.n_vectors_evicted_ = int(sum(res["evicted"] for res in results))
        self.classes_ = classes
        self.n_features_in_ = d
        self.n_iter_ = n_iter
        self.mistakes_ = mistakes
        self.converged_ = all(res["mistakes"][-1] == 0 for res in results)
        check_feature_names(self, names_source, reset=True)
        return self

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """The vote ``sum_i c_i sign(v_i.x + b_i) / sum_i c_i`` in [-1, 1].

        Returns shape (n_samples,) for two classes (positive: ``classes_[1]``),
        else (n_samples, n_classes).
        """
        check_is_fitted(self, "vector_counts_")
        check_feature_names(self, X, reset=False)
        X = check_X(X, accept_sparse=True)
        check_n_features(self, X)
        # a vote is a sum of signs, finite even for NaN rows: check X itself
        # (one pass, cheap next to the n_vectors dot products of every row)
        check_finite(X.data if isinstance(X, CSRData) else X)
        n = X.shape[0]
        n_threads = scoring_threads(self.n_jobs)
        out = np.empty((len(self.vector_counts_), n))
        width = X.nnz // max(n, 1) + 1 if isinstance(X, CSRData) else X.shape[1]
        for j in range(len(out)):
            b, c, row = self.vector_intercepts_[j], self.vector_counts_[j], out[j]
            if hasattr(self, "vector_updates_"):
                ptr, idx, val, upto = (getattr(self, name)[j] for name in _UPDATES[:4])
                # a row scatters, reads every update up to the last voter, gathers
                chunks = row_chunks(n, 2 * width + len(idx) + len(upto), n_threads)
                map_threads(lambda lo, hi: _voted.decision_voted_updates(
                    X, ptr, idx, val, upto, b, c, row[lo:hi], lo), chunks, len(chunks))
            else:
                V = np.ascontiguousarray(self.vectors_[j], dtype=X.dtype)
                chunks = row_chunks(n, width * max(len(V), 1), n_threads)
                map_threads(lambda lo, hi: _voted.decision_voted(X, V, b, c, row[lo:hi], lo),
                            chunks, len(chunks))
            total = float(c.sum())
            if total > 0:
                row /= total
        return out[0] if len(out) == 1 else out.T.copy()

    def predict(self, X: MatrixLike) -> LabelArray:
        """Class of each row by the weighted vote (``classes_[0]`` on a tie)."""
        scores = self.decision_function(X)
        index = (scores > 0).astype(np.intp) if scores.ndim == 1 else np.argmax(scores, axis=1)
        return self.classes_.take(index, mode="clip")


# ------------------------------------------------------------- model files

def _check_saved(est):
    check_common(est)
    try:
        est._check_params()
    except (TypeError, ValueError) as exc:
        need(False, f"the parameters are not valid: {exc}")
    n_problems = 1 if len(est.classes_) == 2 else len(est.classes_)
    sparse = attr(est, "vector_updates_") is not None
    need(sparse != (attr(est, "vectors_") is not None),
         "a voted model holds vectors_ or its updates (update_indptr_, ...), one of the two")
    names = _UPDATES if sparse else _VECTORS
    need(all(isinstance(attr(est, name), list) and len(attr(est, name)) == n_problems
             for name in names), f"{', '.join(names)} must be lists of {n_problems}")
    b, c = est.vector_intercepts_, est.vector_counts_
    for j in range(n_problems):
        if sparse:
            n = _check_updates(est, j)
        else:
            V = est.vectors_[j]
            need(is_array(V, 2, "f") and V.dtype in (np.float32, np.float64)
                 and V.shape[1] == est.n_features_in_,
                 f"vectors_[{j}] must be a float array (n_vectors, n_features_in_)")
            n = V.shape[0]
            # a NaN weight votes as a negative sign
            need(bool(np.isfinite(V).all()),
                 f"vectors_[{j}] and vector_intercepts_[{j}] must be finite")
        need(is_array(b[j], 1, "f") and b[j].dtype == np.float64 and b[j].shape == (n,),
             f"vector_intercepts_[{j}] must be float64 ({n},)")
        need(is_array(c[j], 1, "i") and c[j].dtype == np.int64 and c[j].shape == (n,),
             f"vector_counts_[{j}] must be int64 ({n},)")
        # a NaN bias votes as a negative sign; a negative count turns a vote round
        need(bool(np.isfinite(b[j]).all()),
             f"vector_intercepts_[{j}] must be finite" if sparse else
             f"vectors_[{j}] and vector_intercepts_[{j}] must be finite")
        need(bool((c[j] >= 0).all()), f"vector_counts_[{j}] must be non-negative")
    for name in ("n_iter_", "n_vectors_evicted_"):
        check_int(attr(est, name), name)
    need(isinstance(est.converged_, bool), "converged_ must be a bool")
    check_history(est, "mistakes_")
    need(est.mistakes_.dtype == np.int64 and est.mistakes_.shape == (est.n_iter_,),
         "mistakes_ must be int64 of shape (n_iter_,)")


def _check_updates(est, j):
    """Problem j's updates (a fit on sparse X): CSR rows of columns below
    n_features_in_ and finite values, and kept vectors rising through them;
    returns the number of kept vectors."""
    ptr, idx, val, upto = (getattr(est, name)[j] for name in _UPDATES[:4])
    need(is_array(ptr, 1, "i") and ptr.dtype == np.int64 and len(ptr) >= 1,
         f"update_indptr_[{j}] must be int64 (n_updates + 1,)")
    need(is_array(idx, 1, "i") and idx.dtype == np.int64 and is_array(val, 1, "f")
         and val.dtype == np.float64 and idx.shape == val.shape,
         f"update_indices_[{j}] and update_values_[{j}] must be int64 and float64 of one length")
    need(ptr[0] == 0 and ptr[-1] == len(idx) and bool((np.diff(ptr) >= 0).all()),
         f"update_indptr_[{j}] must rise from 0 to the number of stored values")
    need(bool(((idx >= 0) & (idx < est.n_features_in_)).all()),
         f"update_indices_[{j}] must be columns below n_features_in_")
    need(bool(np.isfinite(val).all()), f"update_values_[{j}] must be finite")
    need(is_array(upto, 1, "i") and upto.dtype == np.int64
         and bool(((upto >= 0) & (upto < len(ptr))).all()) and bool((np.diff(upto) >= 0).all()),
         f"vector_updates_[{j}] must be int64 numbers of updates, rising")
    return len(upto)


register_model(VotedPerceptron, check=_check_saved,
               fitted={"vectors_", "vector_intercepts_", "vector_counts_", "n_vectors_evicted_",
                       "update_indptr_", "update_indices_", "update_values_", "vector_updates_",
                       "classes_", "n_features_in_", "n_iter_", "mistakes_", "converged_",
                       "feature_names_in_"})

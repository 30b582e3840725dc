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
                                           check_random_seed, check_scalar, check_X, label_signs,
                                           mix64, MAX_EPOCHS_RECORDED)

__all__ = ["VotedPerceptron"]


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
        Memory budget: at most this many vectors are kept per binary problem
        (so at most ``max_vectors * (n_features + 2)`` numbers).  The vectors
        are dense: ``fit`` refuses, before training, a budget whose vectors
        could take more than 4 GiB (``PERCEPTRON_MAX_FIT_BYTES`` in the
        environment raises the limit), such as the default on 2**18 hashed
        features and 5 classes (10 GiB).  When the
        store is full and a vector closes, the lightest voter (the smallest
        count; a newcomer loses ties) is dropped, be it a stored vector or the
        newcomer: the store keeps the heaviest voters.
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
        The kept weight vectors of each binary problem (one problem for two
        classes, one per class otherwise), in the training data's dtype.
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

        X may be sparse, as ``Perceptron.fit`` takes it (CSR used in place;
        the vectors kept are dense, in the values' dtype).
        """
        max_iter, fit_intercept, shuffle, max_vectors, n_threads, seed = self._check_params()
        progress = check_scalar(self.progress, "progress", "bool")
        names_source = X
        X, y, classes = check_fit_input(X, y)
        n, d = X.shape
        n_problems = 1 if len(classes) == 2 else len(classes)
        # the vectors are kept dense: at most one a mistake, max_vectors a problem
        kept = min(max_vectors, n * max_iter + 1)
        check_fit_bytes(n_problems * kept * (d * X.dtype.itemsize + 16),
                        f"a VotedPerceptron keeping up to {kept} dense vectors of {d} features "
                        f"for each of {n_problems} problem{'s' if n_problems > 1 else ''}",
                        "lower max_vectors, or use fewer features (perceptron.Perceptron "
                        "with average=True keeps one vector)")
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
                                    max_vectors=max_vectors,
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
        check_is_fitted(self, "vectors_")
        check_feature_names(self, X, reset=False)
        X = check_X(X, accept_sparse=True)
        check_n_features(self, X)
        # a vote is a sum of signs, finite even for NaN rows: check X itself
        # (one pass, cheap next to the n_vectors dot products of every row)
        check_finite(X.data if isinstance(X, CSRData) else X)
        n = X.shape[0]
        n_threads = scoring_threads(self.n_jobs)
        out = np.empty((len(self.vectors_), n))
        for j, (V, b, c) in enumerate(zip(self.vectors_, self.vector_intercepts_,
                                          self.vector_counts_)):
            V = np.ascontiguousarray(V, dtype=X.dtype)
            row = out[j]
            width = X.nnz // max(n, 1) + 1 if isinstance(X, CSRData) else X.shape[1]
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
    V, b, c = est.vectors_, est.vector_intercepts_, est.vector_counts_
    need(all(isinstance(x, list) and len(x) == n_problems for x in (V, b, c)),
         f"vectors_, vector_intercepts_ and vector_counts_ must be lists of {n_problems}")
    for j in range(n_problems):
        need(is_array(V[j], 2, "f") and V[j].dtype in (np.float32, np.float64)
             and V[j].shape[1] == est.n_features_in_,
             f"vectors_[{j}] must be a float array (n_vectors, n_features_in_)")
        n = V[j].shape[0]
        need(is_array(b[j], 1, "f") and b[j].dtype == np.float64 and b[j].shape == (n,),
             f"vector_intercepts_[{j}] must be float64 ({n},)")
        need(is_array(c[j], 1, "i") and c[j].dtype == np.int64 and c[j].shape == (n,),
             f"vector_counts_[{j}] must be int64 ({n},)")
        # a NaN weight votes as a negative sign; a negative count turns a vote round
        need(bool(np.isfinite(V[j]).all() and np.isfinite(b[j]).all()),
             f"vectors_[{j}] and vector_intercepts_[{j}] must be finite")
        need(bool((c[j] >= 0).all()), f"vector_counts_[{j}] must be non-negative")
    for name in ("n_iter_", "n_vectors_evicted_"):
        check_int(attr(est, name), name)
    need(isinstance(est.converged_, bool), "converged_ must be a bool")
    check_history(est, "mistakes_")
    need(est.mistakes_.dtype == np.int64 and est.mistakes_.shape == (est.n_iter_,),
         "mistakes_ must be int64 of shape (n_iter_,)")


register_model(VotedPerceptron, check=_check_saved,
               fitted={"vectors_", "vector_intercepts_", "vector_counts_", "n_vectors_evicted_",
                       "classes_", "n_features_in_", "n_iter_", "mistakes_", "converged_",
                       "feature_names_in_"})

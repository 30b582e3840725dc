"""A token classifier whose labels are restricted by the token's group.

The morphological tagger labels each token with one of hundreds of
feature strings or lemma edit scripts, but a token's part of speech leaves
few of them possible: a noun's features are a few number and case values,
a punctuation mark's none.  ``CandidateClassifier`` is the multiclass
perceptron (Collins 2002, figure 1, over sequences of one token), averaged
(section 2.5), in which each token's candidates are the labels its group
(its part of speech) had in training: a tag dictionary (Ratnaparkhi 1996,
section 4.2) keyed by the part of speech.  Training and prediction both
choose among the candidates alone, so a prediction is always a combination
of the training data and a token costs its features times its group's
candidates rather than times every label (``perceptron._core.candidates``).
"""
import numpy as np

from perceptron._core import candidates as _candidates
from perceptron._core import structured as _structured
from perceptron._common.validation import check_random_seed
from perceptron.io._registry import is_array, need

__all__ = ["CandidateClassifier", "candidate_lists"]

# the fitted arrays of a classifier, as a model file holds them
STATE = ("coef_", "intercept_", "cand_ptr_", "cand_")


def candidate_lists(groups, labels, n_groups, n_labels):
    """(cand_ptr int64, cand int32): the labels seen with each group, sorted
    (a group seen with none: every label)."""
    table = np.zeros((n_groups, n_labels), dtype=bool)
    table[np.asarray(groups, dtype=np.intp), np.asarray(labels, dtype=np.intp)] = True
    table[~table.any(axis=1)] = True
    cand_ptr = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(table.sum(axis=1), out=cand_ptr[1:])
    return cand_ptr, np.nonzero(table)[1].astype(np.int32)


class CandidateClassifier:
    """The averaged multiclass perceptron over each token's candidates.

    ``fit(X, y, groups, n_labels, n_groups)``: X CSR rows (``CSRData``), y
    the label codes, groups the group codes of the tokens.
    """

    def __init__(self, max_iter=5, average=True, shuffle=True, random_state=0):
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X, y, groups, n_labels, n_groups, dev=None, patience=2):
        """Train; with ``dev`` = (X, groups, codes) (codes -1: a label not
        seen in training), keep the epoch of the best dev accuracy, stopping
        after ``patience`` epochs without a better one."""
        data, indices, indptr = _rows(X)
        y = np.ascontiguousarray(y, dtype=np.int32)
        groups = _groups(groups, len(y), n_groups)
        if len(y) and (y.min() < 0 or y.max() >= n_labels):
            raise ValueError(f"y must hold label codes in [0, {n_labels})")
        self.cand_ptr_, self.cand_ = candidate_lists(groups, y, n_groups, n_labels)
        W = np.zeros((X.shape[1], n_labels), dtype=np.float32)
        b = np.zeros(n_labels)
        U = np.zeros(W.shape) if self.average else None
        acc = np.zeros(n_labels) if self.average else None
        order = np.arange(len(y), dtype=np.intp)
        rng = np.array([check_random_seed(self.random_state)], dtype=np.uint64)
        clock = 0.0
        best, since = None, 0
        for _ in range(int(self.max_iter)):
            clock, mistakes = _candidates.epoch(data, indices, indptr, W, U, b, acc, y, groups,
                                                self.cand_ptr_, self.cand_, order, 1.0, clock,
                                                bool(self.shuffle), rng)
            if dev is not None:
                self._publish(W, U, b, acc, clock)
                score = float(np.mean(self.predict(dev[0], dev[1]) == dev[2]))
                if best is None or score > best[0]:
                    best, since = (score, self.state()), 0
                else:
                    since += 1
                    if since >= patience:
                        break
            elif mistakes == 0:
                break
        self._publish(W, U, b, acc, clock)
        if best is not None:
            self.dev_score_ = best[0]
            for name, value in best[1].items():
                setattr(self, name, value)
        return self

    def _publish(self, W, U, b, acc, clock):
        """The averaged weights (w - U / c; Collins 2002, section 2.5) or
        the last ones."""
        if U is not None and clock > 0:
            self.coef_ = _structured.averaged(W, U, clock)
            self.intercept_ = b - acc / clock
        else:
            self.coef_, self.intercept_ = W.copy(), b.copy()

    def predict(self, X, groups):
        """The best candidate label code (intp) of each row."""
        data, indices, indptr = self._input(X)
        groups = _groups(groups, X.shape[0], len(self.cand_ptr_) - 1)
        return _candidates.best(data, indices, indptr, self.coef_, self.intercept_, groups,
                                self.cand_ptr_, self.cand_).astype(np.intp)

    def decision_function(self, X, groups):
        """(n, n_labels) float64: the candidates' scores, minus infinity for
        the other labels."""
        data, indices, indptr = self._input(X)
        groups = _groups(groups, X.shape[0], len(self.cand_ptr_) - 1)
        return _candidates.scores(data, indices, indptr, self.coef_, self.intercept_, groups,
                                  self.cand_ptr_, self.cand_)

    def _input(self, X):
        if X.shape[1] != self.coef_.shape[0]:
            raise ValueError(f"X has {X.shape[1]} columns, the classifier was trained on "
                             f"{self.coef_.shape[0]}")
        return _rows(X)

    def state(self):
        """The fitted arrays, by name (``STATE``)."""
        return {k: getattr(self, k) for k in STATE}

    @classmethod
    def from_state(cls, state, **params):
        """The classifier of ``state()``'s arrays, checked (a model file's
        ``need`` errors) before any compiled loop reads them."""
        est = cls(**params)
        W, b, ptr, cand = (state.get(k) for k in STATE)
        need(is_array(W, 2, "f") and W.dtype == np.float32 and bool(np.isfinite(W).all()),
             "coef_ of a candidate classifier: finite float32 (n_features, n_labels)")
        k = W.shape[1]
        need(is_array(b, 1, "f") and b.dtype == np.float64 and b.shape == (k,) and
             bool(np.isfinite(b).all()), "intercept_: finite float64, one a label")
        need(is_array(ptr, 1, "i") and ptr.dtype == np.int64 and len(ptr) >= 2 and
             ptr[0] == 0 and bool(np.all(np.diff(ptr) > 0)) and is_array(cand, 1, "i") and
             cand.dtype == np.int32 and ptr[-1] == len(cand) and
             bool(np.all((cand >= 0) & (cand < k))),
             "cand_ptr_ and cand_: the candidate labels of each group")
        est.coef_ = np.ascontiguousarray(W)
        est.intercept_, est.cand_ptr_, est.cand_ = b, ptr, cand
        return est


def _rows(X):
    """(data float32, indices int64, indptr int64) of CSR rows, checked
    (nothing unchecked reaches the compiled loops)."""
    data = np.ascontiguousarray(X.data, dtype=np.float32)
    indices = np.ascontiguousarray(X.indices, dtype=np.int64)
    indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
    n, d = X.shape
    if indptr.shape != (n + 1,) or indptr[0] != 0 or indptr[-1] != len(indices) or \
            len(data) != len(indices) or bool(np.any(np.diff(indptr) < 0)) or \
            (len(indices) and (indices.min() < 0 or indices.max() >= d)):
        raise ValueError(f"X must be CSR rows of shape {X.shape}: row pointers rising from 0 to "
                         "the stored values, columns in [0, n_features)")
    if not np.isfinite(data).all():
        raise ValueError("X contains NaN or infinity")
    return data, indices, indptr


def _groups(groups, n, n_groups):
    g = np.ascontiguousarray(groups, dtype=np.int32)
    if g.shape != (n,) or (n and (g.min() < 0 or g.max() >= n_groups)):
        raise ValueError(f"groups must hold one code in [0, {n_groups}) a row ({n} rows)")
    return g

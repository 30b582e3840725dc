"""The structured perceptron for sequence labelling (Collins 2002)."""
from __future__ import annotations

import math
import time
import weakref
from typing import Any, Optional

import numpy as np

from perceptron._core import structured as _structured
from perceptron._common.base import BaseEstimator, no_training_state
from perceptron.io._registry import (attr, check_common, check_int, is_array, need,
                                     register_model)
from perceptron._common.stopping import StopRule, epoch_bar
from perceptron._common.typing import ArrayLike, Float64Array, LabelArray, MatrixLike, Self
from perceptron.sequence._spans import allowed, valid_path
from perceptron._common.validation import (check_feature_names, check_fit_bytes,
                                           check_is_fitted, check_labels, check_n_features,
                                           check_random_seed, check_scalar, check_X,
                                           require_two_classes, unique_labels)

__all__ = ["StructuredPerceptron"]


class StructuredPerceptron(BaseEstimator):
    """Structured perceptron for labelling sequences (Collins 2002), averaged by default.

    A first-order model over label sequences: each token t of a sequence has
    a feature row x_t, and a label sequence z scores

        start[z_0] + sum_t (w_{z_t} . x_t + b_{z_t})
                   + sum_{t>=1} T[z_{t-1}, z_t] + end[z_{L-1}].

    Prediction is the highest-scoring label sequence, found by Viterbi
    decoding.  Training visits the sequences (shuffled each epoch), decodes
    each with the current weights and, when the decoded labels differ from
    the gold ones, adds the gold sequence's features and subtracts the
    decoded one's (Collins 2002, "Discriminative Training Methods for Hidden
    Markov Models: Theory and Experiments with Perceptron Algorithms",
    figure 1).  With ``average=True`` the model predicts with the average of
    the weights after every sequence visit (Collins 2002, section 2.5),
    computed by the lazy trick of the averaged perceptron (Daume III 2006).

    Input as seqlearn takes it: ``X`` has one row per token, the sequences
    one after the other, and ``lengths`` gives the number of tokens of each.

    Parameters
    ----------
    max_iter : int, default=10
        Epochs over the training sequences.
    average : bool, default=True
        Predict with the averaged weights.
    shuffle : bool, default=True
        Visit the sequences in a new random order every epoch.
    random_state : None, int, numpy Generator or RandomState, default=None
        Seed of the shuffles and of the validation split.
    eta0 : float, default=1.0
        Step size (> 0).  The perceptron's predictions do not depend on it
        when the weights start at zero; it scales the weights.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the sequences, measure the token
        accuracy on them after each epoch, stop after ``n_iter_no_change``
        epochs without improvement and keep the best weights.
    validation_fraction : float, default=0.1
        In (0, 1): the share of sequences held out for early stopping.
    n_iter_no_change : int, default=5
        Patience of the stopping rules.
    tol : float or None, default=None
        Without early stopping: stop after ``n_iter_no_change`` epochs whose
        loss (the sum over sequences of score(decoded) - score(gold)) is not
        below the lowest so far minus ``tol * n_sequences``; with early
        stopping, a validation accuracy not above the best plus ``tol``
        counts as no improvement.  None: no loss rule, and early stopping
        compares with the best itself.  The fit always stops at an epoch
        without a mistake.
    verbose : int, default=0
        Print a line per epoch.
    progress : bool, default=False
        Show a tqdm progress bar of the epochs (tqdm must be installed).
    constraints : None, str or tuple of three arrays, default=None
        Label sequences the model may never output.  A span scheme,
        ``"iob2"`` (or ``"bio"``) or ``"bioes"`` (or ``"iobes"``), whose rules
        apply to ``classes_`` (str labels such as ``"B-PER"``; see
        :func:`perceptron.tagging.allowed`); or ``(start, transition, end)``,
        boolean arrays of shapes (K,), (K, K), (K,) over the sorted labels
        saying which labels may begin a sequence, follow one another and end
        one.  The forbidden starts, transitions and ends score minus infinity
        in ``start_``, ``transition_`` and ``end_``, so that Viterbi decoding,
        in training as in prediction, finds the best allowed sequence (the
        training sequences must all be allowed).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels, sorted.
    coef_ : ndarray of shape (n_classes, n_features)
        Emission weights, in the dtype of the training data.
    intercept_ : ndarray of shape (n_classes,), float64
        Emission biases.
    transition_ : ndarray of shape (n_classes, n_classes), float64
        ``transition_[i, j]``: the score of label ``classes_[i]`` followed by
        ``classes_[j]``.
    start_, end_ : ndarray of shape (n_classes,), float64
        Scores of a sequence's first and last label.
    n_iter_ : int
        Epochs run.
    n_features_in_ : int
    mistakes_ : ndarray of int64
        Sequences decoded wrong in each epoch (before their update).
    validation_scores_ : ndarray
        Token accuracy on the held-out sequences after each epoch
        (``early_stopping`` only).
    """

    def __init__(self, max_iter: int = 10, average: bool = True, shuffle: bool = True,
                 random_state: Any = None, eta0: float = 1.0, early_stopping: bool = False,
                 validation_fraction: float = 0.1, n_iter_no_change: int = 5,
                 tol: Optional[float] = None, verbose: int = 0,
                 constraints: Any = None, progress: bool = False) -> None:
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state
        self.eta0 = eta0
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.verbose = verbose
        self.constraints = constraints
        self.progress = progress

    # ---------------------------------------------------------------- checks

    def _check_params(self):
        return {
            "max_iter": check_scalar(self.max_iter, "max_iter", "int", low=1),
            "average": check_scalar(self.average, "average", "bool"),
            "shuffle": check_scalar(self.shuffle, "shuffle", "bool"),
            "eta0": check_scalar(self.eta0, "eta0", "float", low=0.0, low_open=True),
            "early_stopping": check_scalar(self.early_stopping, "early_stopping", "bool"),
            "validation_fraction": check_scalar(self.validation_fraction, "validation_fraction",
                                                "float", low=0.0, high=1.0, low_open=True,
                                                high_open=True),
            "n_iter_no_change": check_scalar(self.n_iter_no_change, "n_iter_no_change", "int",
                                             low=1),
            "tol": None if self.tol is None else check_scalar(self.tol, "tol", "float", low=0.0),
            "verbose": check_scalar(self.verbose, "verbose", "int", low=0),
            "progress": check_scalar(self.progress, "progress", "bool"),
        }

    # ------------------------------------------------------------------- fit

    def fit(self, X: MatrixLike, y: ArrayLike, lengths: ArrayLike,
            sample_weight: Optional[ArrayLike] = None) -> Self:
        """Train on the sequences of X.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_tokens, n_features)
            One row per token, the sequences one after the other; dense or
            CSR (scipy or ``perceptron.io.CSRData``), float32 or float64.
        y : array-like of shape (n_tokens,)
            The label of each token.
        lengths : array-like of int, shape (n_sequences,)
            The number of tokens of each sequence; they sum to n_tokens.
        sample_weight : array-like of shape (n_sequences,), default=None
            A weight per sequence: it multiplies the sequence's updates.

        Returns
        -------
        self
        """
        p = self._check_params()
        names_source = X
        X, offsets = _check_tokens(X, lengths)
        y = check_labels(y, X.shape[0])
        classes = unique_labels(y)
        require_two_classes(classes)
        codes = np.searchsorted(classes, y).astype(np.int32)
        sw = _check_sequence_weight(sample_weight, len(offsets) - 1)
        seed = check_random_seed(self.random_state)
        self._init_state(len(classes), X, p["average"], seed, offsets)
        self._constrain(classes, codes, offsets, first=True)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        check_feature_names(self, names_source, reset=True)
        n_seq = len(offsets) - 1
        seqs = np.arange(n_seq, dtype=np.intp)
        val = None
        if p["early_stopping"]:
            seqs, val = _validation_split(n_seq, p["validation_fraction"], seed)
        self._run(X, codes, offsets, seqs, val, sw, p, p["max_iter"], reset=True)
        return self

    def partial_fit(self, X: MatrixLike, y: ArrayLike, lengths: ArrayLike,
                    classes: Optional[ArrayLike] = None,
                    sample_weight: Optional[ArrayLike] = None) -> Self:
        """One epoch over the sequences of X, continuing from the current weights.

        ``classes`` (all the labels the model will see) is needed at the
        first call unless y already holds them all.
        """
        p = self._check_params()
        names_source = X
        X, offsets = _check_tokens(X, lengths)
        y = check_labels(y, X.shape[0])
        first = not hasattr(self, "classes_")
        if first:
            classes = unique_labels(y if classes is None else np.asarray(classes), "classes")
            require_two_classes(classes)
        else:
            check_n_features(self, X)
            if getattr(self, "_W", None) is None:
                raise no_training_state(self, "partial_fit")
            if classes is not None and not np.array_equal(np.asarray(classes), self.classes_):
                raise ValueError(f"classes={np.asarray(classes)!r} is not the classes_ of the "
                                 f"first call, {self.classes_!r}")
            classes = self.classes_
        codes = np.searchsorted(classes, y)
        codes = np.minimum(codes, len(classes) - 1)
        unknown = classes[codes] != y
        if unknown.any():
            raise ValueError(f"y holds labels not in classes: {np.unique(y[unknown])[:5]!r}")
        codes = codes.astype(np.int32)
        sw = _check_sequence_weight(sample_weight, len(offsets) - 1)
        if first:
            self._init_state(len(classes), X, p["average"], check_random_seed(self.random_state),
                             offsets)
            self._constrain(classes, codes, offsets, first=True)
            self.classes_ = classes
            self.n_features_in_ = X.shape[1]
            self.n_iter_ = 0
            self.mistakes_ = np.zeros(0, dtype=np.int64)
            check_feature_names(self, names_source, reset=True)
        elif bool(self._U is not None) != p["average"]:
            raise ValueError("average changed since the first call to partial_fit")
        else:
            self._constrain(classes, codes, offsets, first=False)
        seqs = np.arange(len(offsets) - 1, dtype=np.intp)
        self._run(X, codes, offsets, seqs, None, sw, p, 1, reset=False)
        return self

    def _init_state(self, k, X, average, seed, offsets):
        if k > MAX_LABELS:
            raise ValueError(f"y has {k} distinct labels; a StructuredPerceptron takes at most "
                             f"{MAX_LABELS}: its transition table is k x k and Viterbi decoding "
                             "costs k*k operations a token")
        d = X.shape[1]
        longest = int(np.max(np.diff(offsets))) if len(offsets) > 1 else 0
        check_fit_memory(k, d, X.dtype.itemsize, average, longest)
        layout = "dense" if isinstance(X, np.ndarray) else "csr"
        shape = (k, d) if layout == "dense" else (d, k)
        self._layout = layout
        self._W = np.zeros(shape, dtype=X.dtype)
        self._U = np.zeros(shape) if average else None
        self._head = np.zeros(k * k + 3 * k)
        self._acc_head = np.zeros(k * k + 3 * k) if average else None
        self._clock = 0.0
        self._rng = np.array([seed], dtype=np.uint64)

    def _constrain(self, classes, codes, offsets, first):
        """Minus infinity in the head at the starts, transitions and ends
        ``constraints`` forbids, after checking the training sequences keep
        to them; at a later ``partial_fit`` call, that they are the same."""
        tables = constraint_tables(self.constraints, classes)
        k = len(classes)
        if tables is None:
            forbidden = None
        else:
            start, transition, end = tables
            forbidden = ~np.concatenate([np.ones(k, dtype=bool), transition.ravel(), start, end])
            check_allowed(codes, offsets, tables, classes)
        if not first:
            held = np.isneginf(self._head)
            if not np.array_equal(held, forbidden if forbidden is not None else held & False):
                raise ValueError("constraints changed since the first call to partial_fit")
            return
        if forbidden is not None:
            self._head[forbidden] = -np.inf

    def _to_layout(self, X):
        """Put the training state in the layout X's rows need (dense rows:
        (K, d); CSR rows: (d, K)) and X in its dtype."""
        layout = "dense" if isinstance(X, np.ndarray) else "csr"
        if layout != self._layout:
            self._W = np.ascontiguousarray(self._W.T)
            if self._U is not None:
                self._U = np.ascontiguousarray(self._U.T)
            self._layout = layout
        return X if X.dtype == self._W.dtype else X.astype(self._W.dtype)

    def _run(self, X, codes, offsets, seqs, val, sw, p, epochs, reset):
        X = self._to_layout(X)
        n_train = len(seqs)
        order = seqs.copy()
        loss_rule = StopRule(None if p["early_stopping"] else p["tol"], p["n_iter_no_change"],
                             n_train)
        val_rule = StopRule(p["tol"] if p["tol"] is not None else 0.0, p["n_iter_no_change"],
                            len(val) if val is not None else 1, higher_is_better=True)
        mistakes, scores, best = [], [], None
        # closed after the last epoch; on an exception, when the frame drops it
        bar = epoch_bar(self, epochs) if p["progress"] else None
        for epoch in range(epochs):
            start = time.perf_counter()
            status, clock, n_wrong, token_errors, loss = _structured.epoch(
                X, self._W, self._U, self._head, self._acc_head, codes, offsets, order, sw,
                p["eta0"], self._clock, p["shuffle"], self._rng)
            if status:
                raise FloatingPointError(
                    f"the weights overflowed in epoch {epoch + 1}: the features are too large "
                    "for the model's dtype; scale them or lower eta0")
            self._clock = clock
            mistakes.append(n_wrong)
            line = (f"-- Epoch {epoch + 1}: sequences wrong {n_wrong}, tokens wrong "
                    f"{token_errors}, loss {loss:.6g}")
            stop = n_wrong == 0
            if val is not None:
                self._publish()
                score = self._token_accuracy(X, codes, offsets, val)
                scores.append(score)
                line += f", validation accuracy {score:.6f}"
                if best is None or score > best[0]:
                    best = (score, self._fitted_attributes())
                stop = stop or val_rule.observe(score)
            else:
                stop = stop or loss_rule.observe(loss)
            if p["verbose"]:
                print(f"{line}, {time.perf_counter() - start:.3f} s")
            if bar is not None:
                bar.set_postfix({"wrong": n_wrong, "loss": f"{loss:.4g}"}, refresh=False)
                bar.update(1)
            if stop:
                break
        if bar is not None:
            bar.close()
        self._publish()
        if best is not None and best[0] > scores[-1]:
            for name, value in best[1].items():
                setattr(self, name, value)
        done = len(mistakes)
        self.n_iter_ = done if reset else getattr(self, "n_iter_", 0) + done
        old = np.zeros(0, dtype=np.int64) if reset else getattr(self, "mistakes_",
                                                                  np.zeros(0, dtype=np.int64))
        self.mistakes_ = np.concatenate([old, np.asarray(mistakes, dtype=np.int64)])
        if val is not None:
            self.validation_scores_ = np.asarray(scores)
        elif reset and hasattr(self, "validation_scores_"):
            del self.validation_scores_

    def _publish(self):
        """The fitted attributes from the training state: the averaged
        weights (w - U / c) or the last ones."""
        k = len(self.classes_)
        W, head, U, acc = self._W, self._head, self._U, self._acc_head
        if U is not None and acc is not None and self._clock > 0:
            # w - U / c in float64, rounded once to W's dtype, in one pass
            # (the weights of a hashed feature space are tens of megabytes)
            W = _structured.averaged(W, U, self._clock)
            head = head - acc / self._clock
        else:
            W, head = W.copy(), head.copy()
        # coef_ is (K, d); for CSR training the state is (d, K) and coef_ a
        # transposed view, which CSR scoring reads without a copy
        self.coef_ = W if self._layout == "dense" else W.T
        self.intercept_ = head[:k].copy()
        self.transition_ = head[k:k + k * k].reshape(k, k).copy()
        self.start_ = head[k + k * k:2 * k + k * k].copy()
        self.end_ = head[2 * k + k * k:].copy()

    def _set_state(self, classes, layout, W, U, head, acc, clock, rng):
        """Install a training state made elsewhere (perceptron.dask) and
        publish its fitted attributes."""
        self.classes_ = classes
        self.n_features_in_ = W.shape[1] if layout == "dense" else W.shape[0]
        self._layout = layout
        self._W, self._U, self._head, self._acc_head = W, U, head, acc
        self._clock = clock
        self._rng = rng
        if hasattr(self, "validation_scores_"):
            del self.validation_scores_
        self._publish()

    def _fitted_attributes(self):
        return {name: getattr(self, name) for name in
                ("coef_", "intercept_", "transition_", "start_", "end_")}

    def _token_accuracy(self, X, codes, offsets, seqs):
        W, head = self._scoring_weights(X)
        pred = _structured.decode(X, W, head, offsets, seqs)
        lengths = np.diff(offsets)[seqs]
        tokens = np.repeat(offsets[:-1][seqs], lengths) + _ranges(lengths)
        if not len(tokens):
            return 1.0
        return float(np.mean(pred[tokens] == codes[tokens]))

    # --------------------------------------------------------------- predict

    def _scoring_weights(self, X):
        """(W, head) of the fitted attributes, W in the layout X's rows need."""
        dense = isinstance(X, np.ndarray)
        coef = self.coef_
        if dense:
            W = coef if coef.flags.c_contiguous else _cached_layout(self, coef, "dense")
        else:
            W = coef.T if coef.T.flags.c_contiguous else _cached_layout(self, coef, "csr")
        head = np.concatenate([self.intercept_, self.transition_.ravel(), self.start_,
                               self.end_]).astype(np.float64)
        return W, head

    def _check_predict_input(self, X, lengths=None):
        check_is_fitted(self, "coef_")
        check_feature_names(self, X, reset=False)
        if lengths is None:
            X = check_X(X, accept_sparse=True)
            _check_finite(X)
            offsets = None
        else:
            X, offsets = _check_tokens(X, lengths)
        check_n_features(self, X)
        if X.dtype != self.coef_.dtype:
            X = X.astype(self.coef_.dtype)
        return X, offsets

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """Emission scores ``X @ coef_.T + intercept_``, shape (n_tokens, n_classes).

        The per-token part of a sequence's score; the labels ``predict``
        returns also depend on the transitions."""
        X, _ = self._check_predict_input(X)
        W, _ = self._scoring_weights(X)
        return _structured.emission_scores(X, W, np.ascontiguousarray(self.intercept_,
                                                                      dtype=np.float64))

    def predict(self, X: MatrixLike, lengths: ArrayLike) -> LabelArray:
        """The highest-scoring label sequence of each sequence (Viterbi), by token."""
        X, offsets = self._check_predict_input(X, lengths)
        W, head = self._scoring_weights(X)
        return self.classes_[_structured.decode(X, W, head, offsets)]

    def score(self, X: MatrixLike, y: ArrayLike, lengths: ArrayLike) -> float:
        """Token accuracy of ``predict(X, lengths)`` against ``y``."""
        pred = self.predict(X, lengths)
        y = check_labels(y, len(pred))
        return float(np.mean(pred == y))


# ------------------------------------------------------------------ helpers

def constraint_tables(constraints, classes):
    """(start, transition, end) boolean tables of ``constraints`` over
    ``classes`` (None: no constraint), checked."""
    if constraints is None:
        return None
    k = len(classes)
    if isinstance(constraints, str):
        labels = classes.tolist()
        if not all(isinstance(c, str) for c in labels):
            raise TypeError(f"constraints={constraints!r} needs str labels (such as 'B-PER'), "
                            f"got classes {classes[:5]!r}")
        tables = allowed(labels, constraints)
    else:
        if not isinstance(constraints, (tuple, list)) or len(constraints) != 3:
            raise TypeError("constraints must be None, a scheme name or a tuple (start, "
                            f"transition, end) of boolean arrays, got {constraints!r:.80}")
        tables = (np.asarray(constraints[0]), np.asarray(constraints[1]),
                  np.asarray(constraints[2]))
        for name, a, shape in zip(("start", "transition", "end"), tables,
                                  ((k,), (k, k), (k,))):
            if a.dtype != np.bool_ or a.shape != shape:
                raise ValueError(f"constraints: {name} must be a boolean array of shape "
                                 f"{shape} (the labels are {k}), got {a.dtype} {a.shape}")
    start, transition, end = tables
    # a sequence of every length must remain: a label that may start, end
    # and follow itself
    if not (start & end & np.diag(transition)).any():
        raise ValueError("constraints leave no label that may begin and end a sequence and "
                         "follow itself: some sequence lengths could not be labelled")
    return tables


def check_allowed(codes, offsets, tables, classes):
    """Raise ValueError naming the first training sequence the tables forbid."""
    start, transition, end = tables
    codes = np.asarray(codes, dtype=np.intp)
    lengths = np.diff(offsets)
    firsts = offsets[:-1][lengths > 0]
    lasts = offsets[1:][lengths > 0] - 1
    inner = np.ones(len(codes), dtype=bool)
    inner[firsts] = False   # no transition into a sequence's first token
    pos = np.flatnonzero(inner)
    ok = (start[codes[firsts]].all() and end[codes[lasts]].all()
          and transition[codes[pos - 1], codes[pos]].all())
    if ok:
        return
    for q in range(len(lengths)):
        path = codes[offsets[q]:offsets[q + 1]]
        if not valid_path(path, start, transition, end):
            raise ValueError(f"sequence {q} of y breaks the constraints: "
                             f"{classes[path].tolist()[:20]!r}")


# the most labels a model takes: the transition tables (k x k, twice with
# averaging) and the decoding (k*k a token) grow with their square
MAX_LABELS = 4096

def fit_bytes(k, d, itemsize, average, longest):
    """The memory a fit with k labels and d features allocates, in bytes:
    the weights (k x d in the data's dtype, and the published coef_), the
    averaging sums (float64), the head (k x k transitions, k intercepts,
    starts and ends: the training copy, its sums, the fitted tables) and
    Viterbi's buffers for the longest sequence (float64 emissions and 16-bit
    back-pointers, k each a token)."""
    weights = k * d * (2 * itemsize + (8 if average else 0))
    head = (k * k + 3 * k) * 8 * (3 if average else 2)
    return weights + head + longest * k * (8 + 2) + 3 * k * 8


def check_fit_memory(k, d, itemsize, average, longest):
    """A ValueError before anything is allocated when a fit would need
    more than the limit (``PERCEPTRON_MAX_FIT_BYTES``, default 4 GiB)."""
    check_fit_bytes(fit_bytes(k, d, itemsize, average, longest),
                    f"a StructuredPerceptron with {k} labels and {d} features ({k} x {d} "
                    f"weights of {itemsize} bytes"
                    f"{' with their float64 averages' if average else ''}, a {k} x {k} "
                    "transition table)",
                    "use fewer features (n_features of a tagger) or labels")


_LAYOUTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _cached_layout(est, coef, layout):
    """coef_ as the C-contiguous (K, d) ("dense") or (d, K) ("csr") array
    the scoring loop reads, made once per fitted coef_ (a tagger scores
    sentence after sentence; a transpose of the weights each time would
    cost more than the decoding)."""
    entry = _LAYOUTS.get(est)
    # only a read-only coef_ can be cached: a writable one may have been
    # edited in place since (pruning, a mask) and is laid out again
    if (entry is not None and entry[0] is coef and entry[1] == layout
            and not coef.flags.writeable):
        return entry[2]
    W = np.ascontiguousarray(coef if layout == "dense" else coef.T)
    _LAYOUTS[est] = (coef, layout, W)
    return W


def _ranges(lengths):
    """0 .. l-1 for each l of lengths, concatenated."""
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(total, dtype=np.int64) - starts


def _check_finite(X):
    values = X if isinstance(X, np.ndarray) else X.data
    if not np.isfinite(values).all():
        raise ValueError("X contains NaN or infinity; remove or impute those values first")


def check_lengths(lengths, n_tokens):
    """The offsets (int64, n_sequences + 1) of sequences of these lengths,
    after checking that they are non-negative integers summing to n_tokens."""
    if lengths is None:
        raise ValueError("lengths is required: the number of tokens of each sequence")
    arr = np.asarray(lengths)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"lengths must be a 1-D array of sequence lengths, got shape {arr.shape}")
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        if arr.dtype.kind == "f" and arr.size and np.isfinite(arr).all() and \
                (arr == np.round(arr)).all():
            arr = arr.astype(np.int64)
        elif arr.size or arr.dtype.kind not in "f":
            raise TypeError(f"lengths must hold integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    if (arr < 0).any():
        i = int(np.argmax(arr < 0))
        raise ValueError(f"lengths must be non-negative, got lengths[{i}] = {arr[i]}")
    if (arr > n_tokens).any() or int(arr.sum()) != n_tokens:
        raise ValueError(f"lengths sum to {int(arr.sum(dtype=np.float64))} but X has "
                         f"{n_tokens} rows (tokens); they must be equal")
    offsets = np.zeros(len(arr) + 1, dtype=np.int64)
    np.cumsum(arr, out=offsets[1:])
    return offsets


def _check_tokens(X, lengths):
    X = check_X(X, accept_sparse=True)
    _check_finite(X)
    return X, check_lengths(lengths, X.shape[0])


def _check_sequence_weight(sample_weight, n_seq):
    if sample_weight is None:
        return None
    sw = np.asarray(sample_weight)
    if sw.ndim == 0:
        sw = np.full(n_seq, float(sw))
    if sw.dtype.kind not in "iufb":
        raise TypeError(f"sample_weight must hold numbers, got dtype {sw.dtype}")
    sw = np.ascontiguousarray(sw, dtype=np.float64)
    if sw.shape != (n_seq,):
        raise ValueError(f"sample_weight has shape {sw.shape}, expected ({n_seq},): one weight "
                         "per sequence (per entry of lengths)")
    if not np.isfinite(sw).all():
        raise ValueError("sample_weight contains NaN or infinity")
    if (sw < 0).any():
        raise ValueError("sample_weight must be non-negative")
    return sw


def _validation_split(n_seq, fraction, seed):
    """(train, validation) sequence indices, sorted: a random
    ``fraction`` of the sequences held out, whole."""
    n_val = int(round(fraction * n_seq))
    if n_val < 1 or n_val >= n_seq:
        raise ValueError(f"validation_fraction={fraction} of {n_seq} sequences leaves "
                         f"{n_val} for validation and {n_seq - n_val} for training; both need "
                         "at least one (raise it, add sequences, or turn early_stopping off)")
    perm = np.random.default_rng(seed).permutation(n_seq)
    return np.sort(perm[n_val:]).astype(np.intp), np.sort(perm[:n_val]).astype(np.intp)


# ------------------------------------------------------------- model files

def _finite(a):
    return bool(np.isfinite(a).all())


def _forbidden(est, k):
    """Where the head (intercepts, transitions, starts, ends) holds minus
    infinity: the moves ``constraints`` forbids; None when the model does not
    say (no constraints parameter: a tagger's sequence model rebuilt from a
    file carries its constraints in its tables alone)."""
    try:
        tables = constraint_tables(est.constraints, est.classes_)
    except (TypeError, ValueError) as exc:
        need(False, f"the constraints are not valid: {exc}")
    if tables is None:
        return None
    start, transition, end = tables
    return ~np.concatenate([np.ones(k, dtype=bool), transition.ravel(), start, end])


def _finite_but_forbidden(a, forbidden):
    """No NaN, no plus infinity; minus infinity exactly where forbidden (or
    anywhere, as a forbidden move, when forbidden is None)."""
    if forbidden is None:
        return not bool(np.isnan(a).any() or np.isposinf(a).any())
    return bool(np.array_equal(np.isneginf(a), forbidden) and np.isfinite(a[~forbidden]).all())


def _check_saved(est):
    check_common(est)
    try:
        est._check_params()
    except (TypeError, ValueError) as exc:
        need(False, f"the parameters are not valid: {exc}")
    k, d = len(est.classes_), est.n_features_in_
    need(k <= MAX_LABELS, f"at most {MAX_LABELS} classes")
    W = attr(est, "coef_")
    need(is_array(W, 2, "f") and W.dtype in (np.float32, np.float64) and W.shape == (k, d),
         "coef_ must be a float32 or float64 array (n_classes, n_features_in_)")
    # Viterbi's max would take a NaN score as no score at all: refuse it
    need(_finite(W), "coef_ must be finite")
    for name, shape in (("intercept_", (k,)), ("transition_", (k, k)), ("start_", (k,)),
                        ("end_", (k,))):
        a = attr(est, name)
        need(is_array(a, len(shape), "f") and a.dtype == np.float64 and a.shape == shape,
             f"{name} must be a float64 array of shape {shape}")
    forbidden = _forbidden(est, k)
    need(_finite(est.intercept_), "intercept_ must be finite")
    head = np.concatenate([est.intercept_, est.transition_.ravel(), est.start_, est.end_])
    for name, lo, hi in (("transition_", k, k + k * k), ("start_", k + k * k, 2 * k + k * k),
                         ("end_", 2 * k + k * k, None)):
        need(_finite_but_forbidden(head[lo:hi], None if forbidden is None else forbidden[lo:hi]),
             f"{name} must be finite (minus infinity only where constraints forbids)")
    check_int(attr(est, "n_iter_"), "n_iter_")
    m = attr(est, "mistakes_")
    need(is_array(m, 1, "i") and m.dtype == np.int64 and m.shape == (est.n_iter_,)
         and bool((m >= 0).all()), "mistakes_ must be non-negative int64 of shape (n_iter_,)")
    if hasattr(est, "validation_scores_"):
        v = est.validation_scores_
        need(is_array(v, 1, "f") and v.dtype == np.float64 and len(v) <= est.n_iter_
             and _finite(v), "validation_scores_ must be finite float64, at most n_iter_")
    state = attr(est, "_W")
    if state is not None:
        layout = attr(est, "_layout")
        need(layout in ("dense", "csr"), "_layout must be 'dense' or 'csr'")
        shape = (k, d) if layout == "dense" else (d, k)
        need(is_array(state, 2, "f") and state.dtype == W.dtype and state.shape == shape,
             f"_W must be an array {shape} of coef_'s dtype")
        m = k * k + 3 * k
        need(is_array(attr(est, "_head"), 1, "f") and est._head.shape == (m,),
             f"_head must be a float64 array ({m},)")
        U, acc = attr(est, "_U"), attr(est, "_acc_head")
        need((U is None) == (acc is None), "_U and _acc_head come together")
        if U is not None:
            need(is_array(U, 2, "f") and U.dtype == np.float64 and U.shape == shape,
                 f"_U must be a float64 array {shape}")
            need(is_array(acc, 1, "f") and acc.dtype == np.float64 and acc.shape == (m,),
                 f"_acc_head must be a float64 array ({m},)")
        need(_finite(state) and (U is None or _finite(U)) and _finite(est._head[:k])
             and _finite_but_forbidden(est._head, forbidden)
             and (acc is None or not np.isnan(acc).any() and not np.isposinf(acc).any()),
             "the training state must be finite (minus infinity only where constraints "
             "forbids)")
        need(isinstance(attr(est, "_clock"), float) and math.isfinite(est._clock)
             and est._clock >= 0, "_clock")
        rng = attr(est, "_rng")
        need(is_array(rng, 1, "u") and rng.shape == (1,) and rng.dtype == np.uint64, "_rng")


_STATE = {"_W", "_U", "_head", "_acc_head", "_clock", "_rng", "_layout"}

register_model(StructuredPerceptron, check=_check_saved,
               fitted={"coef_", "intercept_", "transition_", "start_", "end_", "classes_",
                       "n_features_in_", "n_iter_", "mistakes_", "validation_scores_",
                       "feature_names_in_"} | _STATE,
               training_state=_STATE)

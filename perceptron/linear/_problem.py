"""The problems of a ``Perceptron`` fit: what each run of the compiled loops
trains (a state and its labels), the weights it starts from, the row order
one-vs-rest problems share, and the model the problems make."""
from typing import Dict, Optional

import numpy as np

from perceptron._common.validation import check_weight_memory, label_signs, mix64, model_dtype
from perceptron._core import online as _online
from perceptron.linear._state import OnlineState


_fast_path = _online.fast_path
_PATH_PLAIN = _online.PATH_PLAIN
_INTP = np.dtype(np.intp)


class Problem:
    """One run of the loops: a state and the labels it trains on.

    `labels` may be a function that makes them: one-vs-rest makes each
    class's n signs when its loop runs, so that k classes never hold k
    label arrays of n rows at once.  `order`: a SharedOrder when the problem
    visits the rows in an order shared with other problems.  `sqnorm`: the
    squared norms of X's rows when the update rule reads them (``share_norms``),
    one array for every problem and call of a fit, else None."""

    __slots__ = ("state", "_labels", "order", "history", "sqnorm")

    def __init__(self, state, labels):
        self.state = state
        self._labels = labels
        self.order: Optional["SharedOrder"] = None
        self.sqnorm = None
        self.history: Dict[str, list] = {"mistakes": [], "updates": [], "loss": []}

    @property
    def labels(self):
        return self._labels() if callable(self._labels) else self._labels

    @labels.setter
    def labels(self, value):
        self._labels = value

    @property
    def class_signs(self):
        """The one-vs-rest ClassSigns the labels are made by, else None."""
        return self._labels if isinstance(self._labels, ClassSigns) else None


class SharedOrder:
    """The rows the one-vs-rest problems visit, in one order for all of
    them: shuffled once an epoch with the generator state `rng_state` (an
    array shared with the first problem's state, so that it is saved and
    continued with it), then visited as they are by every class."""

    def __init__(self, rows, rng_state):
        self.rows = rows
        self.rng_state = rng_state


# every row in order (all_rows): the last n asked for, read-only; a copy of
# it costs half of np.arange's fill for the n of a small fit
_ALL_ROWS = [np.arange(0, dtype=_INTP)]
_ALL_ROWS_KEPT = 1 << 16


def all_rows(n):
    """A new array of every row in order, ``np.arange(n, dtype=np.intp)``
    (the loops shuffle it in place): a copy of the one kept for the last n
    asked for (n up to 65,536), else made."""
    kept = _ALL_ROWS[0]
    if len(kept) == n:
        return kept.copy()
    rows = np.arange(n, dtype=_INTP)
    if n <= _ALL_ROWS_KEPT:
        kept = rows.copy()
        kept.flags.writeable = False
        _ALL_ROWS[0] = kept
    return rows


def share_order(problems, rows):
    """One-vs-rest: every class visits `rows`, one array, in one order
    (shuffled once an epoch by the first class's generator)."""
    order = SharedOrder(rows, problems[0].state.rng_state)
    for pr in problems:
        pr.state.rows = rows
        pr.order = order


def share_norms(problems, X, loop):
    """The squared norms ||x_i||^2 of X's rows, computed once, for every
    problem of a fit (or of a partial_fit call) whose update rule reads
    them (the passive-aggressive step, Crammer et al. 2006, section 3):
    every epoch and every problem then reads the one array instead of a
    pass over X per call of the loops.  `loop`: the LoopParams."""
    if _online.needs_norms(loop):
        # the norms the weights read: narrow rows meeting float64 weights
        # give those of the same rows in float64
        dtype = problems[0].state.W.dtype
        sqnorm = (_online.squared_norms(X) if dtype == model_dtype(X.dtype)
                  else _online.squared_norms(X, dtype))
        for pr in problems:
            pr.sqnorm = sqnorm


class ClassSigns:
    """The one-vs-rest signs of class j (+1 where index == j), made when
    called; the fused one-vs-rest epoch reads index and j instead."""

    def __init__(self, index, j):
        self.index = index
        self.j = j

    def __call__(self):
        return label_signs(self.index == self.j)


def class_signs(index, j):
    """A function making the one-vs-rest signs of class j (+1 where index == j)."""
    return ClassSigns(index, j)


def chunk_labels(mode, target, k):
    """The labels of each problem of a partial_fit chunk (one-vs-rest: made
    when the class's loop runs)."""
    if mode == "binary":
        return [label_signs(target == 1)]
    if mode == "multinomial":
        return [target]
    if mode == "multilabel":
        return [label_signs(target[:, j]) for j in range(k)]
    return [class_signs(target, j) for j in range(k)]


def make_problems(kind, k, index, d, dtype, seed, p, loop, init, signs=None):
    """The loop runs of a fit: (mode, [problems]); `signs`: a binary
    y's int8 signs when ``encode_targets`` made them (index is None then).
    `loop`: the fit's LoopParams; `init`: the (W, b) to start from, or None.
    A binary state of the plain rule (``fast_path``) from zeros has no
    arrays beside its weights: ``OnlineState.binary_zeros`` makes it."""
    plain = init is None and _fast_path(loop) == _PATH_PLAIN
    if plain and kind == "binary":  # the usual small fit
        # the plain rule keeps no pocket, averages or gradient: the weights alone
        check_weight_memory(1, d, dtype.itemsize, "fit")
        return "binary", [Problem(OnlineState.binary_zeros(d, dtype, seed),
                                  label_signs(index == 1) if signs is None else signs)]
    itemsize = np.dtype(dtype).itemsize
    check_weight_memory(1 if kind == "binary" else k, d,
                        itemsize * (1 + bool(p["pocket"]))
                        + 8 * (bool(p["average"]) + bool(p["batch_size"])), "fit")

    def state(rows_k, multinomial, s, j):
        if plain and not multinomial:
            return OnlineState.binary_zeros(d, dtype, s)
        W0, b0 = (None, None) if init is None else (init[0][j:j + rows_k], init[1][j:j + rows_k])
        return OnlineState(rows_k, d, dtype, multinomial=multinomial, average=p["average"],
                           pocket=p["pocket"], batch_size=p["batch_size"], seed=s,
                           W0=W0, b0=b0, penalty=p["penalty"])

    if kind == "binary":
        signs = label_signs(index == 1) if signs is None else signs
        return "binary", [Problem(state(1, False, seed, 0), signs)]
    if kind == "multiclass" and p["multiclass"] == "multinomial":
        return "multinomial", [Problem(state(k, True, seed, 0), index)]
    problems = []
    for j in range(k):
        if kind == "multilabel":
            labels = label_signs(index[:, j])
        else:  # made when the class's loop runs (k arrays of n: O(n*k) memory)
            labels = class_signs(index, j)
        # one-vs-rest: class 0's generator (a binary fit's) shuffles the shared order
        s = seed if j == 0 and kind != "multilabel" else mix64(seed ^ (j + 1))
        problems.append(Problem(state(1, False, s, j), labels))
    return ("multilabel" if kind == "multilabel" else "ovr"), problems


def initial_weights(coef_init, intercept_init, mode, k, d, prior):
    """(W, b) to start a fit from: ``coef_init`` / ``intercept_init`` when
    given (shape (k, d) and (k,), or (d,) and a scalar for one row), else
    ``prior`` (the warm start, or None for zeros).  A two-class multinomial
    model keeps a zero row for ``classes_[0]``."""
    if coef_init is None and intercept_init is None:
        return prior
    rows = 2 if (mode == "multinomial" and k == 1) else k
    W = np.zeros((rows, d)) if prior is None else np.array(prior[0], dtype=np.float64)
    b = np.zeros(rows) if prior is None else np.array(prior[1], dtype=np.float64)
    if coef_init is not None:
        c = np.asarray(coef_init, dtype=np.float64)
        if c.ndim == 1:
            c = c.reshape(1, -1)
        if c.shape != (k, d):
            raise ValueError(f"coef_init must have shape ({k}, {d}), got {c.shape}")
        if not np.isfinite(c).all():
            raise ValueError("coef_init contains NaN or infinity")
        W[rows - k:] = c
    if intercept_init is not None:
        c = np.asarray(intercept_init, dtype=np.float64).reshape(-1)
        if c.shape != (k,):
            raise ValueError(f"intercept_init must have shape ({k},), got {c.shape}")
        if not np.isfinite(c).all():
            raise ValueError("intercept_init contains NaN or infinity")
        b[rows - k:] = c
    return W, b


def warm_start_weights(p, model, kind, classes, d):
    """(W, b) a fit with ``warm_start`` starts from, or None: the training
    state's weights of the fitted model (`model`: the estimator's
    attributes); without one (a compact model), coef_ and intercept_, as
    scikit-learn does."""
    if not (p["warm_start"] and "coef_" in model):
        return None
    states = model.get("_states")
    if states is not None:
        W, b = (np.vstack([s.current()[0] for s in states]),
                np.concatenate([s.b for s in states]))
    else:
        W, b = np.array(model["coef_"]), np.asarray(model["intercept_"], dtype=np.float64)
    if W.shape[1] != d:
        raise ValueError(f"warm_start: the previous fit had {W.shape[1]} features, X has {d}")
    if len(classes) != len(model["classes_"]) or not np.array_equal(model["classes_"], classes):
        raise ValueError(f"warm_start: the previous fit had classes {model['classes_']!r}, "
                         f"y has {classes!r}")
    if kind == "multiclass" and \
            (model["_mode"] == "multinomial") != (p["multiclass"] == "multinomial"):
        raise ValueError("warm_start: multiclass changed since the previous fit")
    return W, b


def effective(mode, problems, p):
    """coef, intercept of the model the problems make now."""
    if len(problems) == 1:  # effective() and current() return fresh arrays
        state = problems[0].state
        average = p["average"]
        pocket = p["pocket"]
        # (the plain rule's weights are the current ones: effective() returns current())
        W, b = (state.effective(average, pocket) if average or pocket else state.current())
        if mode != "multinomial":
            return W, b
    else:
        parts = [pr.state.effective(p["average"], p["pocket"]) for pr in problems]
        W = np.vstack([w for w, _ in parts])
        b = np.concatenate([b for _, b in parts])
    if mode == "multinomial" and W.shape[0] == 2:
        # two classes trained by the multiclass rule: one equivalent row
        W = (W[1:].astype(np.float64) - W[:1]).astype(W.dtype)
        b = b[1:] - b[:1]
    return W, b

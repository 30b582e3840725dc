"""Plumbing of the Perceptron's training runs, shared by ``Perceptron`` and
the Dask transport (``perceptron.dask``): one problem per weight vector or
matrix, the statuses of the compiled loops, per-call histories, class
weights, the early-stopping split, and the check of a training state read
from a model file."""
import threading
import weakref
from typing import Dict, Optional

import numpy as np

from perceptron._core import decision as _decision, online as _online, ovr_epoch as _ovr_epoch
from perceptron._common.parallel import map_threads, resolve_n_jobs
from perceptron.io._registry import attr, need
from perceptron.linear._state import C_EPOCHS, N_COUNTERS, OnlineState
from perceptron._common.validation import CSRData, check_scalar, label_signs


def class_weights(class_weight, classes, class_index):
    """Weight of each class, from None, "balanced" or a {label: weight} dict."""
    k = len(classes)
    if class_weight is None:
        return None
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise ValueError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
        counts = np.bincount(class_index, minlength=k).astype(np.float64)
        # n / (k * n_c), as scikit-learn defines "balanced"
        with np.errstate(divide="ignore"):
            return np.where(counts > 0, len(class_index) / (k * counts), 0.0)
    if not isinstance(class_weight, dict):
        raise TypeError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
    weights = np.ones(k)
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    for label, value in class_weight.items():
        if label not in lookup:
            raise ValueError(f"class_weight has the label {label!r}, which is not a class of y "
                             f"({classes.tolist()})")
        value = check_scalar(value, f"class_weight[{label!r}]", "float", low=0.0)
        weights[lookup[label]] = value
    return weights


# The buffers behind the per-call histories partial_fit keeps (mistakes_,
# updates_, loss_): id of a buffer -> (how much of it is in use, a weak
# reference to the array appended() returned for that much).
_BUFFER_USE: Dict[int, tuple] = {}
_BUFFER_LOCK = threading.Lock()


def appended(arr, value, dtype):
    """A new 1-D array: arr followed by value, in amortized constant time.

    The result is a prefix of a larger buffer; when arr is the very array
    this function returned last for that buffer (so it covers all of the
    buffer in use), value goes into the next slot and the result is the
    longer prefix.  Otherwise (an array from elsewhere, or a buffer another
    array has already grown, as after copy.copy of an estimator) the values
    are copied into a new buffer of twice the size.  Either way arr itself
    is left as it was."""
    n = len(arr)
    base = arr.base
    if type(base) is np.ndarray and len(base) > n:
        # the check and the write as one step: two threads appending to
        # arrays of one buffer (estimators copied by copy.copy) would
        # otherwise both see the next slot free and write it
        with _BUFFER_LOCK:
            use = _BUFFER_USE.get(id(base))
            if use is not None and use[0] == n and use[1]() is arr and arr.dtype == dtype \
                    and arr.ndim == 1 and arr.strides == base.strides:
                base[n] = value
                out = base[:n + 1]
                _BUFFER_USE[id(base)] = (n + 1, weakref.ref(out))
                return out
    buf = np.empty(max(16, 2 * (n + 1)), dtype=dtype)
    buf[:n] = arr
    buf[n] = value
    out = buf[:n + 1]
    _BUFFER_USE[id(buf)] = (n + 1, weakref.ref(out))
    weakref.finalize(buf, _BUFFER_USE.pop, id(buf), None)
    return out


class Problem:
    """One run of the loops: a state and the labels it trains on.

    `labels` may be a function that makes them: one-vs-rest makes each
    class's n signs when its loop runs, so that k classes never hold k
    label arrays of n rows at once.  `order`: a SharedOrder when the problem
    visits the rows in an order shared with other problems."""

    def __init__(self, state, labels):
        self.state = state
        self._labels = labels
        self.order: Optional["SharedOrder"] = None
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


def share_order(problems, rows):
    """One-vs-rest: every class visits `rows`, one array, in one order
    (shuffled once an epoch by the first class's generator)."""
    order = SharedOrder(rows, problems[0].state.rng_state)
    for pr in problems:
        pr.state.rows = rows
        pr.order = order


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


def fused_ovr_covers(X, problems, loop_params):
    """Whether the fused one-vs-rest epoch (perceptron._core.ovr_epoch) runs
    these problems: dense rows, the online rule without pocket, penalty or
    mini-batches, and one-vs-rest signs of one class index array.  The one
    place that chooses; everything else runs each class's own loop."""
    if not (isinstance(X, np.ndarray) and X.dtype in (np.float32, np.float64)
            and X.ndim == 2 and X.flags.c_contiguous and X.shape[1] > 0):
        return False
    if _online.fast_path(loop_params) == _online.PATH_ROWS:
        return False
    first = problems[0].class_signs
    return first is not None and all(
        pr.class_signs is not None and pr.class_signs.index is first.index
        and not pr.state.multinomial for pr in problems)


def fused_ovr_epoch(X, problems, sw, rows, params, stop):
    """One fused one-vs-rest epoch of the (``fused_ovr_covers``) problems
    over ``rows``: the result of each, statuses unchecked."""
    return _ovr_epoch.run_ovr_epoch([pr.state for pr in problems], X,
                                    problems[0].class_signs.index,
                                    [pr.class_signs.j for pr in problems], sw, rows, params, stop)


def run_fused_ovr(X, problems, sw, params, n_threads, stop):
    """One fused one-vs-rest epoch of `problems` over their shared order:
    each row read once for all the classes of a group, the classes split
    into n_threads groups run on threads (a class's result does not depend
    on its group).  Statuses and histories as the per-class loops leave them;
    returns each problem's result."""
    rows = problems[0].order.rows
    n_groups = max(1, min(n_threads, len(problems)))
    bounds = np.linspace(0, len(problems), n_groups + 1).round().astype(int)
    groups = [problems[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]

    def job(group):
        return fused_ovr_epoch(X, group, sw, rows, params, stop)
    try:
        parts = map_threads(job, [(g,) for g in groups], n_groups)
    except BaseException:
        stop[0] = 1  # tell the other threads' loops to return
        raise
    results = [res for part in parts for res in part]
    for problem, res in zip(problems, results):
        raise_for_status(res, problem.state)
        for key in ("mistakes", "updates", "loss"):
            problem.history[key].append(res[key])
    return results


def run_in_shared_order(run_each, X, problems, sw, loop_params, n_epochs, n_threads, stop):
    """n_epochs epochs of problems that share a SharedOrder: the rows are
    shuffled here once an epoch (when loop_params shuffles), then every
    problem visits them as they are (keep_order): in the fused epoch, each
    row read once for all classes, where ``fused_ovr_covers`` says it
    applies, else each problem's own loop, by
    ``run_each(X, problems, sw, params, 1, n_threads, stop)``.  The two give
    the same bits.  A problem stops after an epoch without an update, as its
    own loop would.  Returns the last epoch's result of each problem."""
    order = problems[0].order
    given = loop_params._asdict()
    params = _online.LoopParams(**{**given, "keep_order": True})
    fused = fused_ovr_covers(X, problems, params)
    active = list(problems)
    last: Dict[int, dict] = {}
    for _ in range(n_epochs):
        if given["shuffle"]:
            _online.shuffle_rows(order.rng_state, order.rows)
        if fused:
            results = run_fused_ovr(X, active, sw, params, n_threads, stop)
        else:
            results = run_each(X, active, sw, params, 1, min(n_threads, len(active)), stop)
        last.update((id(pr), res) for pr, res in zip(active, results))
        if given["stop_when_converged"]:
            active = [pr for pr, res in zip(active, results) if res["updates"].sum() > 0]
        if not active:
            break
    return [last[id(pr)] for pr in problems]


def labels_not_in(seen, known):
    """The labels of `seen` (sorted, distinct) that `known` (sorted, distinct)
    lacks.  Numbers against numbers, or text against text: a binary search
    of each, as np.setdiff1d would find them but without its sort (a
    partial_fit call's fixed cost); other pairs through np.setdiff1d."""
    numeric = seen.dtype.kind in "iufb" and known.dtype.kind in "iufb"
    if not (numeric or seen.dtype.kind == known.dtype.kind) or not len(known):
        return np.setdiff1d(seen, known)
    pos = np.minimum(np.searchsorted(known, seen), len(known) - 1)
    return seen[known[pos] != seen]


def check_penalty_combination(p):
    """Refuse a penalty with the pocket (checked parameters p)."""
    if p["penalty"] is not None and p["pocket"]:
        # Gallant's ratchet compares runs of one weight vector; a penalty
        # moves the weights on every row, so a run has no weights to keep
        raise ValueError(f"penalty={p['penalty']!r} and pocket=True cannot be combined: "
                         "the penalty changes the weights on every row, so there is no "
                         "run of unchanged weights for the pocket to keep")


def check_state_params(state, p):
    """partial_fit continues a state: the variant must be the one it was made for."""
    if (state.U is not None, state.PW is not None, state.G is not None,
            state.__dict__.get("penalty")) == (p["average"], p["pocket"],
                                               p["batch_size"] is not None, p.get("penalty")):
        return
    made = {"average": state.U is not None, "pocket": state.PW is not None,
            "batch_size": state.G is not None, "penalty": getattr(state, "penalty", None)}
    asked = {"average": p["average"], "pocket": p["pocket"],
             "batch_size": p["batch_size"] is not None, "penalty": p.get("penalty")}
    changed = [name for name in made if made[name] != asked[name]]
    if changed:
        raise ValueError(f"{', '.join(changed)} changed since the first call to partial_fit; "
                         "a model continues the variant it started with (fit again, or "
                         "set the parameters back)")


def validation_split(rows, target, kind, fraction, seed):
    """Stratified split of `rows` into (train, validation) for early stopping."""
    rng = np.random.default_rng(seed)
    groups = target[rows] if kind != "multilabel" else np.zeros(len(rows), dtype=np.int32)
    train_parts, val_parts = [], []
    for g in np.unique(groups):
        members = rows[groups == g]
        members = members[rng.permutation(len(members))]
        n_val = min(int(round(fraction * len(members))), len(members) - 1)
        val_parts.append(members[:n_val])
        train_parts.append(members[n_val:])
    val = np.sort(np.concatenate(val_parts)).astype(np.intp)
    train = np.sort(np.concatenate(train_parts)).astype(np.intp)
    if len(val) == 0:
        raise ValueError(f"validation_fraction={fraction} leaves no sample for validation "
                         f"out of {len(rows)}; raise it or turn early_stopping off")
    return train, val


_STATUS_OK = _online.STATUS_OK

# The loops return per-epoch counts in arrays of the epochs asked for: a long
# fit runs in blocks of epochs, so that memory follows the epochs run, not max_iter.
EPOCH_BLOCK = 1 << 16


def run_blocks(state, X, labels, sw, loop_params, n_epochs, stop, rule=None):
    """``run_epochs`` for up to n_epochs epochs, in blocks of ``EPOCH_BLOCK``;
    the same model and result as one call (the state, its shuffling generator
    included, and the stopping rule ``rule``, if any, carry from block to
    block)."""
    if n_epochs <= EPOCH_BLOCK:  # one call: the usual case, and a small fit's fixed cost
        return _online.run_epochs(state, X, labels, sw, loop_params, n_epochs, stop, rule)
    # the loops stop at an epoch without an update only without a penalty
    until_converged = loop_params.stop_when_converged and loop_params.penalty is None
    parts = []
    left = n_epochs
    while left > 0:
        asked = min(left, EPOCH_BLOCK)
        res = _online.run_epochs(state, X, labels, sw, loop_params, asked, stop, rule)
        parts.append(res)
        left -= res["epochs"]
        if (res["status"] != _online.STATUS_OK or res["epochs"] < asked
                or (until_converged and res["epochs"]
                    and res["updates"][-1] == 0)
                or (stop is not None and stop[0])):
            break
    if len(parts) == 1:
        return parts[0]
    merged = dict(parts[-1])
    merged["epochs"] = sum(part["epochs"] for part in parts)
    for key, value in parts[-1].items():  # the per-epoch arrays (mistakes, loss, ...)
        if isinstance(value, np.ndarray) and value.shape[:1] == (parts[-1]["epochs"],):
            merged[key] = np.concatenate([part[key] for part in parts])
    return merged


def raise_for_status(result, state):
    status = result["status"]
    if status == _STATUS_OK:
        return
    if status == _online.STATUS_NONFINITE_X:
        raise ValueError(f"X contains NaN or infinity (row {result['bad_row']}); "
                         "remove or impute those values first")
    if status == _online.STATUS_OVERFLOW:
        epoch = int(state.counters[C_EPOCHS]) + 1
        raise FloatingPointError(
            f"the weights overflowed in epoch {epoch}: the features are too large for the "
            "model's dtype; scale them (for example to unit variance) or lower eta0")
    if status == _online.STATUS_STOPPED:
        raise KeyboardInterrupt("training was stopped")


def check_saved_state(state, template, j):
    """Raise ModelFileError unless a loaded training state has the fields,
    shapes and dtypes of `template` (made by the estimator for the file's
    model)."""
    need(type(state) is OnlineState, f"_states[{j}] is not a training state")
    need(set(vars(state)) == set(vars(template)),
         f"_states[{j}] has the fields {sorted(vars(state))}, expected {sorted(vars(template))}")
    for name, ref in vars(template).items():
        value = attr(state, name)
        if isinstance(ref, np.ndarray):
            need(isinstance(value, np.ndarray) and value.shape == ref.shape
                 and value.dtype == ref.dtype,
                 f"_states[{j}].{name} must be {ref.dtype} of shape {ref.shape}")
        elif name == "rows":
            need(value is None, f"_states[{j}].rows must be null")
        else:
            need(type(value) is type(ref) and value == ref,
                 f"_states[{j}].{name} must be {ref!r}")
    need(len(state.counters) == N_COUNTERS, "the state's counters")
    if getattr(template, "penalty", None) is not None:
        # the loops divide by the scale and add u and q to the weights
        need(bool(np.all(np.isfinite(state.scale) & (state.scale > 0))),
             f"_states[{j}].scale must be finite and positive")
        need(all(bool(np.isfinite(v).all()) for v in (state.u, state.norms, state.q)
                 if v is not None), f"_states[{j}]: the penalty's arrays must be finite")


def rule_loss_key(mode, p):
    """The loss the stopping rule reads: for scikit-learn's algorithm (the
    plain rule, binary or one-vs-rest), unweighted, as scikit-learn sums it;
    with one of the additions (average, pocket, margin, batch_size, the
    multinomial rule), weighted, as ``loss_`` reports it (with heavy class
    weights the unweighted sum stops those too early)."""
    plain = not (p["average"] or p["pocket"] or p["margin"] > 0 or p["batch_size"]
                 or mode == "multinomial")
    return "raw_loss" if plain else "loss"


def resolve_jobs(n_jobs):
    """Threads for ``n_jobs`` by joblib's convention: None -> 1, k > 0 -> k,
    -1 -> every CPU the process may use, -2 -> all but one, and so on
    (``n_cpus + 1 + n_jobs``, at least 1); 0 is an error."""
    return resolve_n_jobs(n_jobs)


def loss_rule(p, mode, n_rows):
    """The stopping rule of a fit's training loss for the compiled loop to
    observe (``run_blocks(..., rule=...)``), or None without ``tol``."""
    if p["tol"] is None:
        return None
    return StopRule(p["tol"], p["n_iter_no_change"], n_rows, key=rule_loss_key(mode, p))


def rule_value(result, key):
    """The epoch's value for the stopping rule: its loss (``key``), plus
    with a penalty the penalty terms of its rows (scikit-learn's objective)."""
    value = float(result[key].sum())
    if "penalty_loss" in result:
        value += float(result["penalty_loss"].sum())
    return value


class StopRule:
    """scikit-learn's stopping rule of its SGD loop, for one training problem.

    After each epoch, ``observe`` gets the epoch's summed training loss,
    unweighted as scikit-learn sums it (or,
    with ``higher_is_better``, the validation score).  An epoch whose loss is
    not below ``best - tol * n_rows`` (a score not above ``best + tol``)
    counts as an epoch without improvement, any other resets the count;
    ``best`` follows the lowest loss (highest score) seen.  ``observe``
    returns True once ``n_iter_no_change`` epochs in a row went without
    improvement.  ``tol=None`` never stops.

    ``key`` names the loss a training-loss rule reads from an epoch's
    result ("loss" or "raw_loss", ``rule_loss_key``): the compiled loop
    (``run_epochs(..., rule=...)``) observes it itself after each epoch,
    with this object's ``best`` and ``count``, and writes them back."""

    def __init__(self, tol, n_iter_no_change, n_rows, higher_is_better=False, key="loss"):
        self.tol = tol
        self.key = key
        self.patience = n_iter_no_change
        self.slack = None if tol is None else (tol if higher_is_better else tol * n_rows)
        self.higher = higher_is_better
        self.best = -np.inf if higher_is_better else np.inf
        self.count = 0

    def observe(self, value):
        if self.slack is None:
            return False
        if self.higher:
            worse = value < self.best + self.slack
            self.best = max(self.best, value)
        else:
            worse = value > self.best - self.slack
            self.best = min(self.best, value)
        self.count = self.count + 1 if worse else 0
        return self.count >= self.patience


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


def validation_score(mode, X, val_rows, target_val, weights_val, W, b):
    scores = np.empty((len(val_rows), W.shape[0]))
    if len(val_rows):
        W = np.ascontiguousarray(W.astype(X.dtype))
        if isinstance(X, CSRData):
            _decision.decision_csr(X.data, X.indices, X.indptr, X.shape[1], W, b, scores,
                                   0, val_rows)
        else:
            _decision.decision_dense(X, W, b, scores, val_rows)
    if mode == "multilabel":
        correct = ((scores > 0) == target_val).all(axis=1)
    elif scores.shape[1] == 1:
        correct = (scores[:, 0] > 0) == (target_val == 1)
    else:
        correct = np.argmax(scores, axis=1) == target_val
    if weights_val is None:
        return float(np.mean(correct))
    return float(np.average(correct, weights=weights_val)) if weights_val.sum() > 0 else 0.0


def _check_validation_rows(X, val_rows):
    """NaN or infinity in the held-out rows: the epochs never visit them, so
    the loops' check (in the first epoch) would not see them."""
    if isinstance(X, CSRData):
        bad = np.flatnonzero(~np.isfinite(X.data))
        found = len(bad) > 0 and bool(np.isin(np.searchsorted(X.indptr, bad, side="right") - 1,
                                              val_rows).any())
    else:
        found = not np.isfinite(X[val_rows]).all()
    if found:
        raise ValueError("X contains NaN or infinity (in the rows held out for early "
                         "stopping); remove or impute those values first")


def fit_epochwise(est, X, mode, problems, sw, p, target, val_rows, rows, n_threads, stop,
                   monitor, run=None):
    """One epoch at a time: the stopping rule (tol), early stopping, verbose
    output, progress, callbacks.  ``run`` runs the epochs (``est._run`` when
    None; the runner of iterative parameter mixing on threads), so that
    every rule reads the model the epoch made: for mixing, the mixed model.

    Returns (W, b, validation scores, stopped by the callback)."""
    early = val_rows is not None
    if early:
        _check_validation_rows(X, val_rows)
        target_val = target[val_rows]
        weights_val = None if sw is None else sw[val_rows]
        rule = StopRule(p["tol"], p["n_iter_no_change"], len(rows), higher_is_better=True)
    train_weight = float(len(rows)) if sw is None else float(sw[rows].sum())
    loop = est._loop_params(p)
    best = (-np.inf, None, None)
    scores, patience = [], 0
    # each problem stops on its own: after an epoch without an update (not
    # with a penalty, which still moves the weights), or by the loss rule
    # (scikit-learn's, per binary problem; with a penalty its objective adds
    # the penalty term of every row)
    rules = {id(pr): StopRule(None if early else p["tol"], p["n_iter_no_change"], len(rows))
             for pr in problems}
    active = list(problems)
    key = rule_loss_key(mode, p)
    W = b = None
    run = est._run if run is None else run
    for epoch in range(1, p["max_iter"] + 1):
        results = run(X, active, sw, loop, 1, min(n_threads, len(active)), stop)
        active = [pr for pr, res in zip(active, results)
                  if (res["updates"].sum() > 0 or "penalty_loss" in res)
                  and not rules[id(pr)].observe(rule_value(res, key))]
        W, b = est._effective(mode, problems, p)
        score = None
        if early:
            score = validation_score(mode, X, val_rows, target_val, weights_val, W, b)
            scores.append(score)
            if score > best[0]:
                best = (score, W, b)
            if p["tol"] is None:  # patience counts epochs without a new best
                patience = 0 if score == best[0] and best[1] is W else patience + 1
            elif rule.observe(score):
                patience = p["n_iter_no_change"]
        asked_to_stop = monitor.active and monitor.epoch(
            epoch, sum(int(r["mistakes"].sum()) for r in results),
            sum(int(r["updates"].sum()) for r in results),
            sum(float(r["loss"].sum()) for r in results) / train_weight, score,
            W.copy(), b.copy())
        if asked_to_stop:
            return (best[1], best[2], scores, True) if early else (W, b, scores, True)
        if (early and patience >= p["n_iter_no_change"]) or not active:
            break
    if early:
        return best[1], best[2], scores, False
    return W, b, scores, False


def check_saved_states(states, mode, n_classes, d, dtype, p):
    """Check the training states of a loaded Perceptron: one per problem
    (one multinomial state, one binary state, or one per class), each shaped
    as a fit with the parameters ``p`` makes it."""
    if mode == "multinomial":
        shapes = [(n_classes, True)]
    elif mode == "binary":
        shapes = [(1, False)]
    else:
        shapes = [(1, False)] * n_classes
    need(isinstance(states, list) and len(states) == len(shapes),
         f"_states must hold {len(shapes)} training states")
    for j, (state, (rows, multinomial)) in enumerate(zip(states, shapes)):
        check_saved_state(state, OnlineState(rows, d, dtype, multinomial=multinomial,
                                             average=p["average"], pocket=p["pocket"],
                                             batch_size=p["batch_size"], seed=0,
                                             penalty=p["penalty"]), j)

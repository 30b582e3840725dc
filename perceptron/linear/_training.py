"""The sequential trainer of a ``Perceptron`` fit: epochs of its problems
in the compiled loops (``run``), on threads when there are several; the
one-vs-rest problems in one shared row order, through the fused epoch where
the one predicate of the fast paths (``perceptron._core.online.fast_path``)
and the data allow it; long fits in blocks of epochs; the loops' statuses
turned into exceptions."""
from typing import Dict

import numpy as np

from perceptron._common.parallel import map_threads
from perceptron._core import online as _online, ovr_epoch as _ovr_epoch
from perceptron.linear._state import C_EPOCHS


def run(X, problems, sw, loop_params, n_epochs, n_threads, stop, rule=None):
    """n_epochs epochs of every (active) problem, on threads; returns
    results.  ``rule``: one problem's stopping rule (``run_blocks``).  The
    sequential trainer of a fit (``perceptron.linear._mixing.ThreadMixing``
    is the other); `stop`: the flag that tells the loops on other threads
    to return, or None when one problem runs on this thread alone."""
    if len(problems) == 1 and problems[0].order is None:
        # one problem on this thread: a small fit's fixed cost
        problem = problems[0]
        state = problem.state
        if n_epochs <= EPOCH_BLOCK:  # run_blocks's one call, without the call to it
            res = _online.run_epochs(state, X, problem.labels, sw, loop_params, n_epochs, stop,
                                     rule, problem.sqnorm)
        else:
            res = run_blocks(state, X, problem.labels, sw, loop_params, n_epochs, stop, rule,
                             problem.sqnorm)
        if res["status"] != _STATUS_OK:
            raise_for_status(res, state)
        history = problem.history
        history["mistakes"].append(res["mistakes"])
        history["updates"].append(res["updates"])
        history["loss"].append(res["loss"])
        return [res]
    if problems and problems[0].order is not None:
        return run_in_shared_order(X, problems, sw, loop_params, n_epochs, n_threads, stop)
    return run_each(X, problems, sw, loop_params, n_epochs, n_threads, stop, rule)


def run_each(X, problems, sw, loop_params, n_epochs, n_threads, stop, rule=None):
    """n_epochs epochs of each problem on its own, on threads; returns results."""
    if len(problems) == 1:  # no threads to start: a small fit's fixed cost
        problem = problems[0]
        res = run_blocks(problem.state, X, problem.labels, sw, loop_params, n_epochs, stop, rule,
                         problem.sqnorm)
        raise_for_status(res, problem.state)
        history = problem.history
        history["mistakes"].append(res["mistakes"])
        history["updates"].append(res["updates"])
        history["loss"].append(res["loss"])
        return [res]
    assert rule is None, "a stopping rule in the loop is for one problem"

    def job(problem):
        return run_blocks(problem.state, X, problem.labels, sw, loop_params, n_epochs, stop,
                          sqnorm=problem.sqnorm)
    try:
        results = map_threads(job, [(pr,) for pr in problems], n_threads)
    except BaseException:
        stop[0] = 1  # tell the other threads' loops to return
        raise
    for problem, res in zip(problems, results):
        raise_for_status(res, problem.state)
        for key in ("mistakes", "updates", "loss"):
            problem.history[key].append(res[key])
    return results


def run_in_shared_order(X, problems, sw, loop_params, n_epochs, n_threads, stop):
    """n_epochs epochs of problems that share a SharedOrder: the rows are
    shuffled here once an epoch (when loop_params shuffles), then every
    problem visits them as they are (keep_order): in the fused epoch, each
    row read once for all classes, where ``fused_ovr_covers`` says it
    applies, else each problem's own loop (``run_each``).  The two give
    the same bits.  A problem stops after an epoch without an update, as its
    own loop would: only without a penalty, since a penalty shrinks the
    weights on every row, mistake or not (the loops' rule, online.pyx
    ``_execute``).  Returns the last epoch's result of each problem."""
    order = problems[0].order
    given = loop_params._asdict()
    params = _online.LoopParams(**{**given, "keep_order": True})
    fused = fused_ovr_covers(X, problems, params)
    until_converged = given["stop_when_converged"] and loop_params.penalty is None
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
        if until_converged:
            active = [pr for pr, res in zip(active, results) if res["updates"].sum() > 0]
        if not active:
            break
    return [last[id(pr)] for pr in problems]


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
    over ``rows``: the result of each, statuses unchecked.  The rows'
    squared norms, when the rule reads them, are the problems' one array."""
    return _ovr_epoch.run_ovr_epoch([pr.state for pr in problems], X,
                                    problems[0].class_signs.index,
                                    [pr.class_signs.j for pr in problems], sw, rows, params, stop,
                                    problems[0].sqnorm)


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


_STATUS_OK = _online.STATUS_OK

# The loops return per-epoch counts in arrays of the epochs asked for: a long
# fit runs in blocks of epochs, so that memory follows the epochs run, not max_iter.
EPOCH_BLOCK = 1 << 16


def run_blocks(state, X, labels, sw, loop_params, n_epochs, stop, rule=None, sqnorm=None):
    """``run_epochs`` for up to n_epochs epochs, in blocks of ``EPOCH_BLOCK``;
    the same model and result as one call (the state, its shuffling generator
    included, and the stopping rule ``rule``, if any, carry from block to
    block).  ``sqnorm``: the rows' squared norms (the problem's), or None."""
    if n_epochs <= EPOCH_BLOCK:  # one call: the usual case, and a small fit's fixed cost
        return _online.run_epochs(state, X, labels, sw, loop_params, n_epochs, stop, rule,
                                  sqnorm)
    # the loops stop at an epoch without an update only without a penalty
    until_converged = loop_params.stop_when_converged and loop_params.penalty is None
    parts = []
    left = n_epochs
    while left > 0:
        asked = min(left, EPOCH_BLOCK)
        res = _online.run_epochs(state, X, labels, sw, loop_params, asked, stop, rule, sqnorm)
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

"""When a ``Perceptron`` fit stops: scikit-learn's rule on the training loss
(``StopRule``), observed in the compiled loop (``run_to_rule``) or between
epochs (``fit_epochwise``, with early stopping on held-out rows, verbose
output, the progress bar and callbacks)."""
import numpy as np

from perceptron._common.stopping import StopRule
from perceptron._common.validation import CSRData, is_narrow, model_dtype
from perceptron._core import csr as _csr
from perceptron._core import decision as _decision
from perceptron.linear._base import score_widened
from perceptron.linear._problem import effective


def rule_loss_key(mode, p):
    """The loss the stopping rule reads: for scikit-learn's algorithm (the
    plain rule, binary or one-vs-rest), unweighted, as scikit-learn sums it;
    with one of the additions (average, pocket, margin, batch_size, the
    multinomial rule), weighted, as ``loss_`` reports it (with heavy class
    weights the unweighted sum stops those too early)."""
    plain = not (p["average"] or p["pocket"] or p["margin"] > 0 or p["batch_size"]
                 or mode == "multinomial")
    return "raw_loss" if plain else "loss"


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


def run_to_rule(X, mode, problems, sw, p, loop, rows, n_threads, stop, run):
    """Every epoch of the fit in one call of the trainer: the loops stop
    after an epoch without an update and, for one problem (binary,
    multinomial), by the loss rule (``loss_rule``) they observe themselves
    after each epoch.  Returns the model the problems make (W, b)."""
    run(X, problems, sw, loop, p["max_iter"], n_threads, stop,
        None if p["tol"] is None else loss_rule(p, mode, len(rows)))
    return effective(mode, problems, p)


def fit_epochwise(X, mode, problems, sw, p, loop, target, val_rows, rows, n_threads, stop,
                  monitor, run):
    """One epoch at a time: the stopping rule (tol), early stopping, verbose
    output, progress, callbacks.  ``run`` runs the epochs (the sequential
    trainer, or the runner of iterative parameter mixing on threads), so
    that every rule reads the model the epoch made: for mixing, the mixed
    model.  `loop`: the fit's LoopParams.

    Returns (W, b, validation scores, stopped by the callback)."""
    early = val_rows is not None
    if early:
        check_validation_rows(X, val_rows)
        target_val = target[val_rows]
        weights_val = None if sw is None else sw[val_rows]
        rule = StopRule(p["tol"], p["n_iter_no_change"], len(rows), higher_is_better=True)
    train_weight = float(len(rows)) if sw is None else float(sw[rows].sum())
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
    for epoch in range(1, p["max_iter"] + 1):
        results = run(X, active, sw, loop, 1, min(n_threads, len(active)), stop)
        active = [pr for pr, res in zip(active, results)
                  if (res["updates"].sum() > 0 or "penalty_loss" in res)
                  and not rules[id(pr)].observe(rule_value(res, key))]
        W, b = effective(mode, problems, p)
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


def validation_score(mode, X, val_rows, target_val, weights_val, W, b):
    scores = np.empty((len(val_rows), W.shape[0]))
    if len(val_rows):
        narrow = not isinstance(X, CSRData) and is_narrow(X.dtype)
        if not (narrow and W.dtype == np.float64):
            W = W.astype(model_dtype(X.dtype))
        W = np.ascontiguousarray(W)
        if isinstance(X, CSRData):
            values, binary = _csr.loop_values(X.data, X.indptr)
            _decision.decision_csr(values, X.indices, X.indptr, X.shape[1], W, b, scores,
                                   0, val_rows, binary=binary)
        elif narrow and W.dtype == np.float64:
            score_widened(X, W, b, scores, val_rows)
        elif narrow:
            _decision.decision_narrow(X, W, b, scores, val_rows)
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


def check_validation_rows(X, val_rows):
    """NaN or infinity in the held-out rows: the epochs never visit them, so
    the loops' check (in the first epoch) would not see them."""
    if isinstance(X, CSRData) and X.binary:
        found = False  # ones, not stored
    elif isinstance(X, CSRData):
        bad = np.flatnonzero(~np.isfinite(X.data))
        found = len(bad) > 0 and bool(np.isin(np.searchsorted(X.indptr, bad, side="right") - 1,
                                              val_rows).any())
    else:
        found = not np.isfinite(X[val_rows]).all()
    if found:
        raise ValueError("X contains NaN or infinity (in the rows held out for early "
                         "stopping); remove or impute those values first")

"""The one route of a ``Perceptron`` fit, and of a partial_fit call.

A fit takes five steps, each in its own module:

1. the checked parameters (``perceptron.linear._params.check_params``, read
   by the estimator before it checks X);
2. the problem: the labels encoded and weighted
   (``perceptron.linear._targets``), the states the loops train and the
   rows they visit (``perceptron.linear._problem.make_problems``): one
   binary problem, one per class (one-vs-rest) or per label (multi-label),
   or one multinomial problem;
3. the trainer: the sequential one (``perceptron.linear._training.run``)
   or iterative parameter mixing on threads
   (``perceptron.linear._mixing.mixing_runner``);
4. the stopping rule (``perceptron.linear._stopping``): observed in the
   compiled loop, every epoch in one call (``run_to_rule``), or between
   epochs when something watches them (``fit_epochwise``);
5. the fitted attributes (``perceptron.linear._fitted``), which the
   estimator publishes.

The fast paths are choices inside these steps: labels of two values are
encoded in one compiled pass, a state of the plain rule is made without the
arrays it does not need and the compiled loops take their fastest epoch
(both by ``perceptron._core.online.fast_path``), one-vs-rest classes share
the fused epoch, a fit of one problem on one thread starts no thread and
raises no stop flag.  The route reads the estimator's attributes (warm
start, partial_fit's model) and hands the estimator to callbacks, but
never calls it: the sequential trainer is passed in.
"""
import numpy as np

from perceptron._common.validation import (check_labels, check_random_seed, check_sample_weight,
                                           mix64)
from perceptron.linear._fitted import chunk_attributes, fitted_attributes
from perceptron.linear._mixing import mixing_runner
from perceptron.linear._monitor import Monitor
from perceptron.linear._params import check_state_params, loop_params, weights_dtype
from perceptron.linear._problem import (Problem, all_rows, chunk_labels, effective,
                                        initial_weights, make_problems, share_norms, share_order,
                                        warm_start_weights)
from perceptron.linear._stopping import fit_epochwise, run_to_rule, validation_split
from perceptron.linear._targets import (class_index_of, class_weights, encode_targets,
                                        known_binary_signs, partial_targets)

_INTP = np.dtype(np.intp)
_STOP = np.dtype(np.uint8)
_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)


def _class_weighted(sw, class_weight, classes, target):
    """The weight of each row (None: every row 1): its checked sample
    weight `sw` times its class's weight."""
    if class_weight is not None:
        cw = class_weights(class_weight, classes, target)
        if cw is not None:
            sw = cw[target] if sw is None else sw * cw[target]
    return sw


def fit(p, X, y, sample_weight, coef_init, intercept_init, model, owner, run):
    """Train on X (checked by ``check_X``) and y with the checked
    parameters p.

    `model`: the estimator's attributes (a warm start reads the previous
    fit there); `owner`: the estimator, which callbacks receive
    (``EpochInfo.estimator``); `run`: the sequential trainer
    (``perceptron.linear._training.run``, or a subclass's ``_run``).

    Returns (the fitted attributes, the attributes of early stopping to set
    after the feature names, stopped by the callback)."""
    n, d = X.shape
    dtype = X.dtype
    if p["dtype"] is not None or not (dtype is _F64 or dtype is _F32):
        dtype = weights_dtype(p, dtype)  # (float64 and float32 rows: their own)
    # the problem
    kind, classes, target, signs = encode_targets(y, n)
    class_weight = p["class_weight"]
    early = p["early_stopping"]
    if target is None and (class_weight is not None or early):
        target = class_index_of(signs)
    sw = None if sample_weight is None else check_sample_weight(sample_weight, n)
    if class_weight is not None:
        if kind == "multilabel":
            raise ValueError("class_weight is not supported for multi-label y")
        sw = _class_weighted(sw, class_weight, classes, target)
    seed = check_random_seed(p["random_state"])
    init = warm_start_weights(p, model, kind, classes, d) if p["warm_start"] else None
    if coef_init is not None or intercept_init is not None:
        init = initial_weights(coef_init, intercept_init,
                               "multinomial" if kind == "multiclass" and
                               p["multiclass"] == "multinomial" else kind,
                               1 if kind == "binary" else len(classes), d, init)
    loop = loop_params(p)
    mode, problems = make_problems(kind, len(classes), target, d, dtype, seed, p, loop, init, signs)
    rows = all_rows(n) if sw is None else np.flatnonzero(sw > 0).astype(_INTP)
    if len(rows) == 0:
        raise ValueError("every sample weight is zero; nothing to train on")
    val_rows = None
    if early:
        rows, val_rows = validation_split(rows, target, kind, p["validation_fraction"],
                                          mix64(seed ^ 0x5EED))
    last = len(problems) - 1
    if mode == "ovr":
        share_order(problems, rows)
    elif last == 0:
        problems[0].state.rows = rows
    else:  # each shuffles its own order in place; the last takes rows
        for pr in problems[:-1]:
            pr.state.rows = rows.copy()
        problems[-1].state.rows = rows
    if p["pocket"]:
        for pr in problems:
            pr.state.start_pocket(X, pr.labels, sw, from_current=True)
    share_norms(problems, X, loop)

    # the trainer
    n_jobs = p["n_threads"]
    n_threads = min(n_jobs, last + 1)
    # None: the sequential algorithm
    mixing = None if n_jobs < 2 else mixing_runner(X, problems, p)
    # the flag that tells the loops on other threads to return
    stop = None if mixing is None and last == 0 else np.zeros(1, dtype=_STOP)

    # the stopping rule: one problem (binary, multinomial) observes it in the
    # compiled loop, every epoch in one call; one-vs-rest's classes stop one
    # by one between epochs, as anything watching the epochs does
    watched = p["verbose"] or p["callback"] is not None or p["progress"]
    alone = last == 0 and problems[0].order is None
    after = {}
    stopped = False
    if mixing is None and val_rows is None and not watched and (p["tol"] is None or alone):
        W, b = run_to_rule(X, mode, problems, sw, p, loop, rows, n_threads, stop, run)
    else:
        monitor = Monitor(owner, p["verbose"], p["callback"], p["progress"], p["max_iter"])
        try:
            W, b, val_scores, stopped = fit_epochwise(
                X, mode, problems, sw, p, loop, target, val_rows, rows, n_threads, stop,
                monitor, run if mixing is None else mixing)
        finally:
            monitor.close()
        if val_rows is not None:
            after = {"validation_scores_": np.array(val_scores),
                     "best_validation_score_": float(np.max(val_scores))}

    # the fitted attributes
    train_weight = float(len(rows)) if sw is None else float(sw[rows].sum())
    return (fitted_attributes(mode, problems, classes, W, b, d, dtype, train_weight), after,
            stopped)


def partial_fit(p, X, y, classes, sample_weight, model, run):
    """One epoch over a chunk of rows (X checked by ``check_X``, of the
    model's dtype and width), continuing the model's training state
    (`model`: the estimator's attributes; none yet on the first call).
    Works on copies of the states, so that a failed or interrupted call
    leaves the model as it was.  Returns the new attributes."""
    first = "_states" not in model
    n, d = X.shape
    states = None
    if not first:
        states = [s.copy(rows=False) for s in model["_states"]]
        check_state_params(states[0], p)
    class_weight = p["class_weight"]
    arr = np.asarray(y)
    multilabel = arr.ndim == 2 and arr.shape[1] > 1
    signs = None
    if multilabel:
        kind, labels, target, _ = encode_targets(arr, n)
        if not first and (not model["_multilabel"] or len(labels) != len(model["classes_"])):
            raise ValueError("y's labels do not match the previous calls")
        sw = None if sample_weight is None else check_sample_weight(sample_weight, n)
    else:
        # a chunk of the two known classes of a binary model: encoded in one pass
        signs = (known_binary_signs(y, n, model["classes_"])
                 if not first and classes is None and model["_mode"] == "binary" else None)
        if signs is None:
            y = check_labels(y, n)
            target, labels = partial_targets(y, classes, states, p["multiclass"],
                                             model.get("classes_"), model.get("_mode"))
        else:
            labels = model["classes_"]
            target = None if class_weight is None else class_index_of(signs)
        kind = ("binary" if len(labels) == 2 and p["multiclass"] != "multinomial"
                else "multiclass")
        sw = None if sample_weight is None else check_sample_weight(sample_weight, n)
        sw = _class_weighted(sw, class_weight, labels, target)

    loop = loop_params(p, stop_when_converged=False)
    if first:
        mode, problems = make_problems(kind, len(labels), target, d,
                                       weights_dtype(p, X.dtype),
                                       check_random_seed(p["random_state"]), p, loop, None)
    else:
        assert states is not None
        mode = model["_mode"]
        if signs is not None:  # a binary model's known classes, encoded in one pass
            problems = [Problem(states[0], signs)]
        else:
            problems = [Problem(state, labels_j) for state, labels_j in
                        zip(states, chunk_labels(mode, target, len(labels)))]
    rows = all_rows(n) if sw is None else np.flatnonzero(sw > 0).astype(_INTP)
    if len(rows):
        if mode == "ovr":
            share_order(problems, rows)
        alone = len(problems) == 1
        for pr in problems:
            # (sw[rows] is summed below: then rows keeps its order)
            pr.state.rows = (pr.state.rows if mode == "ovr" else rows
                             if alone and sw is None else rows.copy())
            if p["pocket"]:
                pr.state.start_pocket(X, pr.labels, sw, from_current=first)
        share_norms(problems, X, loop)
        run(X, problems, sw, loop, 1, min(p["n_threads"], len(problems)),
            None if alone else np.zeros(1, dtype=_STOP))
    weight = float(len(rows)) if sw is None else float(sw[rows].sum())
    W, b = effective(mode, problems, p)
    # the weights' dtype: the states' (float64 ones continue on narrow rows)
    return chunk_attributes(model, first, mode, problems, labels, W, b, d,
                            problems[0].state.W.dtype, weight, len(rows) > 0)

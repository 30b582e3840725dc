"""What a model file holds for a ``Perceptron``, checked on load: the fitted
attributes and, when the file keeps it, the training state of each problem
(read by the generic codec, perceptron.io._model_file, through the registry)."""
import numpy as np

from perceptron.io._registry import (attr, bad, check_common, check_history, check_int,
                                     check_linear, need)
from perceptron.linear._params import check_params
from perceptron.linear._state import N_COUNTERS, OnlineState


def linear_kind(est):
    """binary, multiclass or multilabel: the kind of linear model a file holds."""
    if not hasattr(est, "coef_"):
        return None
    if est._mode == "multilabel":
        return "multilabel"
    return "binary" if est.coef_.shape[0] == 1 else "multiclass"


def check_saved(est):
    """The check of a Perceptron read from a model file (``register_model``)."""
    mode = attr(est, "_mode")
    need(mode in ("binary", "ovr", "multinomial", "multilabel"), "unknown _mode")
    check_common(est)
    n_classes = len(est.classes_)
    need(est._multilabel is (mode == "multilabel"), "_multilabel disagrees with _mode")
    if mode == "multilabel":
        need(np.array_equal(est.classes_, np.arange(n_classes)),
             "a multi-label model's classes_ must be 0..n_labels-1")
    if mode == "binary":
        need(n_classes == 2, "a binary model has two classes")
    if mode == "ovr":
        need(n_classes >= 3, "a one-vs-rest model has three classes or more")
    k = 1 if mode == "binary" or (mode == "multinomial" and n_classes == 2) else n_classes
    check_linear(est, k)
    for name in ("n_iter_", "t_"):
        check_int(attr(est, name), name)
    need(isinstance(est.converged_, bool), "converged_ must be a bool")
    check_history(est, "mistakes_", "updates_", "loss_")
    # files written before partial_fit kept its history in the arrays alone
    # also hold it as lists: checked, then dropped
    history = attr(est, "_history")
    need(history is None or (
        isinstance(history, dict) and set(history) == {"mistakes", "updates", "loss"}
        and all(isinstance(v, list) and all(isinstance(x, (int, float)) and
                                            not isinstance(x, bool) for x in v)
                for v in history.values())),
         "_history must hold the lists mistakes, updates and loss")
    try:
        p = check_params(est)
    except (TypeError, ValueError) as exc:
        bad(f"the parameters are not valid: {exc}")
    states = attr(est, "_states")
    if states is None:  # a compact file: no training state
        if "_history" in vars(est):
            del est._history
        return
    check_saved_states(states, mode, n_classes, est.n_features_in_, est.coef_.dtype, p)
    if "_history" in vars(est):
        del est._history  # a file of an earlier version: mistakes_ ... hold the same


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

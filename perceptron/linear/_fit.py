"""The parameters and targets of a ``Perceptron`` fit, checked with the least
fixed cost: a small fit (hundreds of rows, a few epochs) spends most of its
time here rather than in the loops, so the common cases take short paths
that give exactly the results, and the errors, of the general ones.

- ``check_params``: the checked parameters, remembered for parameter values
  seen before (compared by identity, for immutable values only, so that a
  parameter set again, by ``set_params`` or by assignment, is seen), and by
  the estimator itself until one of its parameters is set;
- ``encode_targets``: the classes and the encoded labels, with labels of two
  distinct values (integers, booleans, whole floats) encoded in one compiled
  pass (``perceptron._core.labels.encode_two``), and more classes of small
  non-negative integers by counting (``encode_small_ints``) instead of
  np.unique's sort and a binary search per label;
- ``fit_plain_binary``: a binary fit on a dense array or checked CSR rows
  with none of the options that need the general path's steps
  (``plain_binary`` decides),
  in the steps of the general path that remain: the same state, the same
  call of the loops, the same attributes.
"""
import operator
import warnings
import weakref

import numpy as np

from perceptron._core.labels import encode_small_ints, encode_two
from perceptron.linear._mixing import check_mixing
from perceptron.linear._state import OnlineState
from perceptron.linear._training import (appended, check_penalty_combination, loss_rule,
                                         raise_for_status, resolve_jobs, run_blocks)
from perceptron.exceptions import ConvergenceWarning, sklearn_compatible
from perceptron._common.validation import (CSRData, check_array, check_labels, check_scalar,
                                           is_one_of, require_two_classes, unique_labels)

# the per-epoch counts of a model: (result key, attribute, dtype)
# (dtype objects: comparing an array's dtype with one costs less than with a type)
HISTORIES = (("mistakes", "mistakes_", np.dtype(np.int64)),
             ("updates", "updates_", np.dtype(np.int64)),
             ("loss", "loss_", np.dtype(np.float64)))

# the parameters whose checked values are remembered; n_jobs (whose -1 reads
# the CPUs available now) and callback (any object) are checked on every call
_CACHED = ("eta0", "max_iter", "fit_intercept", "shuffle", "warm_start", "average", "pocket",
           "margin", "early_stopping", "validation_fraction", "n_iter_no_change", "verbose",
           "progress", "alpha", "l1_ratio", "tol", "mixing", "penalty", "batch_size",
           "multiclass")
_values_of = operator.attrgetter(*_CACHED)
# ids of the parameter values -> (the values, the checked dict).  An entry
# holds its values, so that their ids cannot be reused by other objects
# while it exists; only values of immutable types are remembered.
_CHECKED: dict = {}
_CHECKED_MAX = 64
_IMMUTABLE = (bool, int, float, str, type(None))


# id(estimator) -> [its checked parameters, or None; the LoopParams a fit
# makes of them, or None]: an estimator's own copy, which
# Perceptron.__setattr__ forgets (forget_checked) when one of CHECKED_PARAMS
# is set, so that a fit reads no parameter to know that its checks still
# hold.  Kept out of the estimator's __dict__ (which model files
# and pickles write); an entry leaves with its estimator (weakref.finalize).
_OWN: dict = {}
CHECKED_PARAMS = frozenset(_CACHED)


def forget_checked(est):
    """Drop the checked parameters `est` keeps (one of them was set)."""
    entry = _OWN.get(id(est))
    if entry is not None:
        entry[0] = entry[1] = None


def _keep_checked(est, p):
    entry = _OWN.get(id(est))
    if entry is None:
        entry = _OWN[id(est)] = [None, None]
        weakref.finalize(est, _OWN.pop, id(est), None)
    entry[0] = p
    entry[1] = None


def kept_loop_params(est, p, make):
    """``make(p)``, the loops' parameters of a fit, made once while the
    checked parameters `est` keeps hold (p is a copy of them then)."""
    entry = _OWN.get(id(est))
    if entry is None or entry[0] is None:
        return make(p)
    if entry[1] is None:
        entry[1] = make(p)
    return entry[1]


def check_params(est):
    """The checked parameters of a Perceptron, as a dict; raises the error
    of the first bad parameter, in the order of ``_check_params_of``."""
    own = _OWN.get(id(est))
    if own is not None and own[0] is not None:
        p = dict(own[0])
    else:
        values = _values_of(est)
        entry = _CHECKED.get(tuple(map(id, values)))
        if entry is None:
            p = _check_params_of(est)
            if all(type(v) in _IMMUTABLE or isinstance(v, np.generic) for v in values):
                if len(_CHECKED) >= _CHECKED_MAX:
                    _CHECKED.clear()
                _CHECKED[tuple(map(id, values))] = (values, dict(p))
                _keep_checked(est, dict(p))
            return p
        _keep_checked(est, entry[1])
        p = dict(entry[1])
    p["n_threads"] = resolve_jobs(est.n_jobs)
    if est.callback is not None and not callable(est.callback):
        raise TypeError(f"callback must be callable or None, got {est.callback!r}")
    return p


def _check_params_of(est):
    p = {
        "eta": check_scalar(est.eta0, "eta0", "float", low=0.0, low_open=True),
        "max_iter": check_scalar(est.max_iter, "max_iter", "int", low=1),
        "fit_intercept": check_scalar(est.fit_intercept, "fit_intercept", "bool"),
        "shuffle": check_scalar(est.shuffle, "shuffle", "bool"),
        "warm_start": check_scalar(est.warm_start, "warm_start", "bool"),
        "average": check_scalar(est.average, "average", "bool"),
        "pocket": check_scalar(est.pocket, "pocket", "bool"),
        "margin": check_scalar(est.margin, "margin", "float", low=0.0),
        "early_stopping": check_scalar(est.early_stopping, "early_stopping", "bool"),
        "validation_fraction": check_scalar(est.validation_fraction, "validation_fraction",
                                            "float", low=0.0, high=1.0, low_open=True,
                                            high_open=True),
        "n_iter_no_change": check_scalar(est.n_iter_no_change, "n_iter_no_change", "int",
                                         low=1),
        "n_threads": resolve_jobs(est.n_jobs),
        "verbose": check_scalar(est.verbose, "verbose", "int", low=0),
        "progress": check_scalar(est.progress, "progress", "bool"),
        "alpha": check_scalar(est.alpha, "alpha", "float", low=0.0),
        "l1_ratio": check_scalar(est.l1_ratio, "l1_ratio", "float", low=0.0, high=1.0),
        "tol": None if est.tol is None else check_scalar(est.tol, "tol", "float"),
        "mixing": check_mixing(est.mixing),
    }
    if not is_one_of(est.penalty, (None, "l2", "l1", "elasticnet")):
        raise ValueError("penalty must be None, 'l2', 'l1' or 'elasticnet', got "
                         f"{est.penalty!r}")
    p["penalty"] = est.penalty
    if est.callback is not None and not callable(est.callback):
        raise TypeError(f"callback must be callable or None, got {est.callback!r}")
    if est.batch_size is None:
        p["batch_size"] = None
    else:
        p["batch_size"] = check_scalar(est.batch_size, "batch_size", "int", low=1)
        if p["batch_size"] == 1:  # one row per batch is the online rule
            p["batch_size"] = None
    if not is_one_of(est.multiclass, ("ovr", "multinomial")):
        raise ValueError(f"multiclass must be 'ovr' or 'multinomial', got {est.multiclass!r}")
    if p["pocket"] and p["average"]:
        raise ValueError("pocket=True and average=True are alternatives: choose one")
    if p["pocket"] and p["batch_size"] is not None:
        raise ValueError("pocket=True needs the online rule (batch_size=None)")
    check_penalty_combination(p)
    return p


def encode_targets(y, n):
    """(kind, classes, class_index, signs) for binary, multiclass or multi-label y.

    class_index: int32 class of each row (the 0/1 indicator matrix for
    multi-label y), or None when ``signs`` holds the labels: the int8 signs
    of a binary y (``classes[1]`` is +1) that ``encode_two`` encoded in one
    pass; ``class_index_of(signs)`` gives the index then.  signs is None on
    the general path."""
    if type(y) is np.ndarray and y.ndim == 1 and y.shape[0] == n:
        fast = encode_two(y)
        if fast is not None and len(fast[1]) == 2:
            return "binary", fast[1], None, fast[0]
        if fast is None:  # more than two labels: small non-negative integers are counted
            counted = encode_small_ints(y)
            if counted is not None:
                index, classes = counted  # (two or more classes)
                return ("binary" if len(classes) == 2 else "multiclass"), classes, index, None
    arr = np.asarray(y) if not hasattr(y, "toarray") else y
    if getattr(arr, "ndim", 1) == 2 and arr.shape[1] > 1:
        Y = check_array(arr, "y") if arr.dtype.kind not in "b" else np.asarray(arr)
        if Y.shape[0] != n:
            raise ValueError(f"X has {n} samples but y has {Y.shape[0]}; they must match")
        if not np.isin(Y, (0, 1)).all():
            raise ValueError("a 2-D y must be a 0/1 indicator matrix (multi-label): it "
                             "holds other values")
        return "multilabel", np.arange(Y.shape[1]), (Y != 0), None
    y = check_labels(y, n)
    classes = unique_labels(y)
    require_two_classes(classes)
    if len(classes) == 2:  # one comparison instead of a binary search per label
        index = (y == classes[1]).astype(np.int32)
    else:
        index = np.searchsorted(classes, y).astype(np.int32)
    kind = "binary" if len(classes) == 2 else "multiclass"
    return kind, classes, index, None


def class_index_of(signs):
    """The int32 class index (0 or 1) of binary signs: what the general path
    of ``encode_targets`` returns as class_index."""
    return (signs > 0).astype(np.int32)


def known_binary_signs(y, n, known):
    """The int8 signs of a partial_fit chunk y against two known classes
    (``known[1]`` is +1), or None when the general path must decide (y not
    a 1-D array of n labels of known's dtype, labels outside known, labels
    the general checks refuse)."""
    if type(y) is not np.ndarray or y.ndim != 1 or y.shape[0] != n or y.dtype != known.dtype \
            or len(known) != 2:
        return None
    fast = encode_two(y)
    if fast is None:
        return None
    signs, seen = fast
    if len(seen) == 2:
        if seen.tobytes() == known.tobytes():  # the same labels, bit for bit (no NaN in seen)
            return signs
        return signs if seen[0] == known[0] and seen[1] == known[1] else None
    if seen[0] == known[0]:
        return signs  # one label, the lesser: every sign is -1
    if seen[0] == known[1]:
        return -signs
    return None



def package_class(est):
    """The short paths set attributes and run loops themselves: a subclass
    from outside the package, which may override the general path's steps,
    takes the general path."""
    return type(est).__module__.startswith("perceptron.")


def plain_binary(est, p, X, n):
    """Whether a fit whose labels ``encode_two`` encoded (and without
    sample weights or initial weights) can take ``fit_plain_binary``: X as
    ``check_X`` returns it (a dense array or ``CSRData``), one thread (no
    parameter mixing), no class weights, validation, warm start from a
    fitted model, pocket or monitoring (the stopping rule, if any, runs in
    the compiled loop)."""
    return (package_class(est) and (type(X) is np.ndarray or type(X) is CSRData) and n > 0
            and p["n_threads"] < 2
            and not p["pocket"] and not p["early_stopping"] and est.class_weight is None
            and not (p["warm_start"] and hasattr(est, "coef_")) and not p["verbose"]
            and not p["progress"] and est.callback is None)


def fit_plain_binary(est, X, classes, signs, p, seed, loop_params):
    """The fit of ``Perceptron.fit`` when ``plain_binary`` holds: what its
    general path does then (one state from zeros, every row in order,
    ``run_blocks``, the effective weights), without the steps that do
    nothing in this case; the fitted attributes set at once."""
    n, d = X.shape
    if p["average"] or p["batch_size"] or p["penalty"] is not None:
        state = OnlineState(1, d, X.dtype, multinomial=False, average=p["average"],
                            pocket=False, batch_size=p["batch_size"], seed=seed,
                            penalty=p["penalty"])
    else:
        state = OnlineState.binary_zeros(d, X.dtype, seed)
    state.rows = np.arange(n, dtype=np.intp)
    # no stop flag: nothing here can raise it (the loops still check for Ctrl-C)
    res = run_blocks(state, X, signs, None, loop_params, p["max_iter"], None,
                     loss_rule(p, "binary", n))
    raise_for_status(res, state)
    W, b = state.effective(p["average"], False)
    updates = res["updates"]
    est.__dict__.update({
        "coef_": W if W.dtype == X.dtype and W.flags.c_contiguous else
        np.ascontiguousarray(W, dtype=X.dtype),
        "intercept_": b if b.dtype == X.dtype else b.astype(X.dtype),
        "classes_": classes,
        "n_features_in_": d,
        "n_iter_": len(res["mistakes"]),
        "mistakes_": res["mistakes"],
        "updates_": updates,
        "loss_": res["loss"] / float(n),
        "t_": state.updates,
        "converged_": bool(len(updates) > 0 and updates[-1] == 0),
        "_mode": "binary",
        "_multilabel": False,
        "_states": [state],
    })


def append_histories(est, new, first):
    """Append one partial_fit call's counts (``new``: key -> value) to the
    model's histories, in amortized constant time (``appended``): a stream
    of many chunks costs the same per call at its end as at its start."""
    for key, name, dtype in HISTORIES:
        before = getattr(est, name, None) if not first else None
        if before is None:
            before = np.zeros(0, dtype=dtype)
        before = np.asarray(before, dtype=dtype)
        setattr(est, name, appended(before if before.ndim == 1 else before.ravel(),
                                    new[key], dtype))


def partial_fit_binary(est, X, signs, state, p, loop_params):
    """A partial_fit call of a binary model on the signs of its two known
    classes, without sample or class weights or a pocket: what the general
    path does then, on ``state`` (the caller's copy of the model's state),
    without its idle steps.  X has the model's dtype and width."""
    n = X.shape[0]
    state.rows = np.arange(n, dtype=np.intp)
    res = run_blocks(state, X, signs, None, loop_params, 1, None)  # no stop flag, as in fit
    raise_for_status(res, state)
    append_histories(est, {"mistakes": int(float(res["mistakes"][0])),
                           "updates": int(float(res["updates"][0])),
                           "loss": float(res["loss"][0]) / float(n)}, False)
    W, b = state.effective(p["average"], False)
    est.__dict__.update({
        "coef_": W if W.dtype == X.dtype and W.flags.c_contiguous else
        np.ascontiguousarray(W, dtype=X.dtype),
        "intercept_": b if b.dtype == X.dtype else b.astype(X.dtype),
        "n_features_in_": X.shape[1],
        "n_iter_": len(est.mistakes_),
        "t_": int(state.updates),
        "converged_": bool(est.updates_[-1] == 0),
        "_multilabel": False,
        "_states": [state],
    })


def warn_not_converged(est, p):
    """The ConvergenceWarning of a fit that ran max_iter epochs without
    converging, attributed to the caller of ``fit``."""
    warnings.warn(
        f"{type(est).__name__} did not converge: {est.mistakes_[-1]} mistakes in the "
        f"last of {est.n_iter_} epochs (max_iter={p['max_iter']}); the data may not "
        "be linearly separable", sklearn_compatible(ConvergenceWarning), stacklevel=3)

"""The parameters of a ``Perceptron`` fit, checked in one place.

``check_params`` reads every parameter of the estimator on every call and
returns the checked values as a dict; a parameter set again, by
``set_params`` or by assignment, is always seen: the one thing remembered is
the previous call's values and result, reused only for a call whose every
value is the very same object (see ``_LAST``).
A small fit (hundreds of rows, a few epochs) spends a good share of its time
outside the loops, so each check first takes the one comparison that
accepts the usual value (a float in range, an int, a bool) and hands
anything else to ``check_scalar``, which accepts, converts or refuses it with
its message: the result, and the first error, are those of ``check_scalar``
alone, in the order of the parameters below.

``loop_params`` turns the checked parameters into the compiled loops'
``LoopParams``.
"""
import math

import numpy as np

from perceptron._common.parallel import resolve_n_jobs
from perceptron._common.validation import (CSRData, check_scalar, is_narrow, is_one_of,
                                           model_dtype)
from perceptron._core import online as _online

MIXINGS = ("uniform", "mistakes")
PENALTIES = (None, "l2", "l1", "elasticnet")
_INF = math.inf
_INT_MAX = 2**63 - 1
_F64 = np.dtype(np.float64)


def check_mixing(mixing):
    if not is_one_of(mixing, MIXINGS):  # an array's == is not a bool
        raise ValueError(f"mixing must be 'uniform' or 'mistakes', got {mixing!r}")
    return mixing


def check_dtype(dtype):
    """The weights' dtype a ``dtype`` parameter asks for: None (the rows'
    own: float64 for float64 rows, float32 for the others) or float64 (any
    spelling numpy reads as float64: ``np.float64``, ``"float64"``,
    ``float``)."""
    if dtype is None:
        return None
    try:
        asked = np.dtype(dtype)
    except (TypeError, ValueError):
        asked = None
    if asked is None or asked != _F64:  # (a dtype compares None as float64)
        raise ValueError(f"dtype must be None (the weights in the rows' dtype, float32 for "
                         f"float16, bfloat16, int8 and uint8 rows) or numpy.float64, got "
                         f"{dtype!r}")
    return _F64


def weights_dtype(p, x_dtype):
    """The weights' dtype of a fit of checked parameters p on rows of
    `x_dtype`: p's ``dtype`` when given, else ``model_dtype``'s."""
    return model_dtype(x_dtype) if p["dtype"] is None else p["dtype"]


def rows_for_weights(X, dtype):
    """Checked rows X (``check_X``) as the linear loops read them against
    weights of `dtype` (None: ``model_dtype(X.dtype)``'s): narrow rows as
    stored (the loops widen each row as they read it), float32 rows (dense,
    or a CSR matrix's values) converted once to float64 for float64
    weights; binary CSR rows stay their indices alone."""
    if dtype is None or X.dtype == dtype or (not isinstance(X, CSRData) and is_narrow(X.dtype)):
        return X
    return X.astype(dtype)


def resolve_jobs(n_jobs):
    """Threads for ``n_jobs`` by joblib's convention: None -> 1, k > 0 -> k,
    -1 -> every CPU the process may use, -2 -> all but one, and so on
    (``n_cpus + 1 + n_jobs``, at least 1); 0 is an error."""
    return resolve_n_jobs(n_jobs)


# The previous call's parameter values (held here: no other object can take
# the identity of one) and the dict its checks returned.  A call whose every
# value is the very object the previous call read gets a copy of that dict
# without the checks.  It is kept only when every checked value is of a type
# the checks accept as it is (float, int, bool, None, str: immutable), so
# that the same objects give the same result; n_jobs (its threads depend on
# the CPUs the process may use) and callback (callable() reads its type) are
# checked on every call; class_weight and random_state are passed through.
_LAST = None
_same_values = _online.same_values
_checked_loop_params = _online.checked_loop_params
_NAMES = (
    "eta0", "max_iter", "fit_intercept", "shuffle", "warm_start", "average", "pocket", "margin",
    "early_stopping", "validation_fraction", "n_iter_no_change", "n_jobs", "verbose", "progress",
    "alpha", "l1_ratio", "tol", "mixing", "penalty", "callback", "batch_size", "multiclass",
    "class_weight", "random_state", "dtype")


def check_params(est):
    """The checked parameters of a Perceptron, as a dict; raises the error
    of the first bad parameter, in the order of ``_checked``.  Beside the
    numbers and switches the loops read, the dict holds what the rest of a
    fit reads: ``n_threads``, ``multiclass``, ``class_weight`` (checked where
    the classes are known), ``callback`` and ``random_state`` (drawn from
    when the fit needs its seed)."""
    global _LAST
    last = _LAST
    if last is not None:
        try:  # the very objects of the previous call, in the instance's dict
            unchanged = _same_values(est.__dict__, _NAMES, last[0])
        except (AttributeError, TypeError):  # no instance dict: the checks read each
            unchanged = False
        # (a parameter not in the instance's dict, a property or a deleted one,
        # is not unchanged: the checks read it, and raise in their order)
        if unchanged:
            values = last[0]
            p = last[1].copy()
            n_jobs = values[11]
            p["n_threads"] = 1 if n_jobs is None else resolve_n_jobs(n_jobs)
            callback = values[19]
            if callback is not None and not callable(callback):
                raise TypeError(f"callback must be callable or None, got {callback!r}")
            return p
    p, key = _checked(est)
    if key is not None and p["callback"] is None:  # (no callback kept alive here)
        _LAST = (key, p.copy())
    return p


def _checked(est):
    """The checks of check_params, in order, reading each parameter as it
    checks it: (the checked dict, the values read when each is its checked
    value, else None)."""
    usual = True  # every value of a type the checks accept as it is
    eta = est.eta0
    if not (type(eta) is float and 0.0 < eta < _INF):
        eta = check_scalar(eta, "eta0", "float", low=0.0, low_open=True)
        usual = False
    max_iter = est.max_iter
    if not (type(max_iter) is int and 1 <= max_iter <= _INT_MAX):
        max_iter = check_scalar(max_iter, "max_iter", "int", low=1)
        usual = False
    fit_intercept = est.fit_intercept
    if fit_intercept is not True and fit_intercept is not False:
        fit_intercept = check_scalar(fit_intercept, "fit_intercept", "bool")
        usual = False
    shuffle = est.shuffle
    if shuffle is not True and shuffle is not False:
        shuffle = check_scalar(shuffle, "shuffle", "bool")
        usual = False
    warm_start = est.warm_start
    if warm_start is not True and warm_start is not False:
        warm_start = check_scalar(warm_start, "warm_start", "bool")
        usual = False
    average = est.average
    if average is not True and average is not False:
        average = check_scalar(average, "average", "bool")
        usual = False
    pocket = est.pocket
    if pocket is not True and pocket is not False:
        pocket = check_scalar(pocket, "pocket", "bool")
        usual = False
    margin = est.margin
    if not (type(margin) is float and 0.0 <= margin < _INF):
        margin = check_scalar(margin, "margin", "float", low=0.0)
        usual = False
    early_stopping = est.early_stopping
    if early_stopping is not True and early_stopping is not False:
        early_stopping = check_scalar(early_stopping, "early_stopping", "bool")
        usual = False
    fraction = est.validation_fraction
    if not (type(fraction) is float and 0.0 < fraction < 1.0):
        fraction = check_scalar(fraction, "validation_fraction", "float", low=0.0, high=1.0,
                                low_open=True, high_open=True)
        usual = False
    n_iter_no_change = est.n_iter_no_change
    if not (type(n_iter_no_change) is int and 1 <= n_iter_no_change <= _INT_MAX):
        n_iter_no_change = check_scalar(n_iter_no_change, "n_iter_no_change", "int", low=1)
        usual = False
    n_jobs = est.n_jobs
    n_threads = 1 if n_jobs is None else resolve_n_jobs(n_jobs)
    verbose = est.verbose
    if not (type(verbose) is int and 0 <= verbose <= _INT_MAX):
        verbose = check_scalar(verbose, "verbose", "int", low=0)
        usual = False
    progress = est.progress
    if progress is not True and progress is not False:
        progress = check_scalar(progress, "progress", "bool")
        usual = False
    alpha = est.alpha
    if not (type(alpha) is float and 0.0 <= alpha < _INF):
        alpha = check_scalar(alpha, "alpha", "float", low=0.0)
        usual = False
    l1_ratio = est.l1_ratio
    if not (type(l1_ratio) is float and 0.0 <= l1_ratio <= 1.0):
        l1_ratio = check_scalar(l1_ratio, "l1_ratio", "float", low=0.0, high=1.0)
        usual = False
    tol = est.tol
    if not (tol is None or (type(tol) is float and -_INF < tol < _INF)):
        tol = check_scalar(tol, "tol", "float")
        usual = False
    mixing = est.mixing
    if type(mixing) is not str or mixing != "uniform":
        mixing = check_mixing(mixing)
        usual = usual and type(mixing) is str
    penalty = est.penalty
    if penalty is not None and not is_one_of(penalty, PENALTIES):
        raise ValueError("penalty must be None, 'l2', 'l1' or 'elasticnet', got "
                         f"{penalty!r}")
    usual = usual and (penalty is None or type(penalty) is str)
    callback = est.callback
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable or None, got {callback!r}")
    batch_size = est.batch_size
    if batch_size is not None:
        batch_size = check_scalar(batch_size, "batch_size", "int", low=1)
        usual = False
        if batch_size == 1:  # one row per batch is the online rule
            batch_size = None
    multiclass = est.multiclass
    if type(multiclass) is not str or multiclass != "ovr":
        if not is_one_of(multiclass, ("ovr", "multinomial")):
            raise ValueError(f"multiclass must be 'ovr' or 'multinomial', got {multiclass!r}")
        usual = usual and type(multiclass) is str
    dtype = est.dtype
    if dtype is not None:
        dtype = check_dtype(dtype)
        usual = False
    if pocket and average:
        raise ValueError("pocket=True and average=True are alternatives: choose one")
    if pocket and batch_size is not None:
        raise ValueError("pocket=True needs the online rule (batch_size=None)")
    p = {"eta": eta, "max_iter": max_iter, "fit_intercept": fit_intercept, "shuffle": shuffle,
         "warm_start": warm_start, "average": average, "pocket": pocket, "margin": margin,
         "early_stopping": early_stopping, "validation_fraction": fraction,
         "n_iter_no_change": n_iter_no_change, "n_threads": n_threads, "verbose": verbose,
         "progress": progress, "alpha": alpha, "l1_ratio": l1_ratio, "tol": tol,
         "mixing": mixing, "penalty": penalty, "batch_size": batch_size,
         "multiclass": multiclass, "class_weight": est.class_weight, "callback": callback,
         "random_state": est.random_state, "dtype": dtype}
    if penalty is not None and pocket:
        check_penalty_combination(p)
    # the values the checks read, in check_params's order, when each is its checked value
    key = ((eta, max_iter, fit_intercept, shuffle, warm_start, average, pocket, margin,
            early_stopping, fraction, n_iter_no_change, n_jobs, verbose, progress, alpha,
            l1_ratio, tol, mixing, penalty, callback, batch_size, multiclass,
            p["class_weight"], p["random_state"], dtype) if usual else None)
    return p, key


def check_penalty_combination(p):
    """Refuse a penalty with the pocket (checked parameters p)."""
    if p["penalty"] is not None and p["pocket"]:
        # Gallant's ratchet compares runs of one weight vector; a penalty
        # moves the weights on every row, so a run has no weights to keep
        raise ValueError(f"penalty={p['penalty']!r} and pocket=True cannot be combined: "
                         "the penalty changes the weights on every row, so there is no "
                         "run of unchanged weights for the pocket to keep")


def loop_params(p, stop_when_converged=True):
    """The compiled loops' parameters (``LoopParams``) of checked parameters p;
    the update rule p names (``update_rule``, ``C``: an estimator built on
    Perceptron that trains by another rule adds them), else the perceptron's."""
    return _checked_loop_params(p, stop_when_converged)


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

"""The fitted attributes of a ``Perceptron``, made and published in one
place: ``fitted_attributes`` (a fit, here or on Dask) and
``chunk_attributes`` (a partial_fit call) make them from the trained
problems, ``publish`` sets them on the estimator."""
import sys
import threading
import warnings
import weakref
from types import FrameType
from typing import Dict, List, Optional

import numpy as np

from perceptron._common.validation import check_feature_names
from perceptron._core.online import divided as _divided
from perceptron.exceptions import ConvergenceWarning, sklearn_compatible
from perceptron.linear._state import C_UPDATES

# the per-epoch counts of a model: (result key, attribute, dtype)
# (dtype objects: comparing an array's dtype with one costs less than with a type)
HISTORIES = (("mistakes", "mistakes_", np.dtype(np.int64)),
             ("updates", "updates_", np.dtype(np.int64)),
             ("loss", "loss_", np.dtype(np.float64)))


def _weights(W, b, dtype):
    """coef_ and intercept_ in the data's dtype, C-ordered (W itself when it is)."""
    return (W if W.dtype == dtype and W.flags.c_contiguous else
            np.ascontiguousarray(W, dtype=dtype)), (b if b.dtype == dtype else b.astype(dtype))


def fitted_attributes(mode, problems, classes, W, b, d, dtype, train_weight):
    """The attributes of a fit whose problems ran (their histories hold the
    results of each call of the loops): W, b the model they make,
    `train_weight` the rows (or their summed weights) trained on."""
    if len(problems) == 1:
        problem = problems[0]
        history = problem.history
        mistakes = history["mistakes"]
        if len(mistakes) == 1:  # one problem, one call: the usual small fit
            state = problem.state
            updates = history["updates"][0]
            mistakes = mistakes[0]
            # (item() gives the Python int that int() of the numpy scalar gives,
            # without making the scalar)
            return {"coef_": W if W.dtype == dtype and W.flags.c_contiguous else
                    np.ascontiguousarray(W, dtype=dtype),
                    "intercept_": b if b.dtype == dtype else b.astype(dtype),
                    "classes_": classes, "n_features_in_": d, "n_iter_": len(mistakes),
                    "mistakes_": mistakes, "updates_": updates,
                    "loss_": _divided(history["loss"][0], train_weight),
                    "t_": state.counters.item(C_UPDATES),
                    "converged_": len(updates) > 0 and updates.item(-1) == 0,
                    "_mode": mode, "_multilabel": mode == "multilabel", "_states": [state]}
    coef, intercept = _weights(W, b, dtype)
    histories = [{k: (v[0] if len(v) == 1 else np.concatenate(v)) if v else np.zeros(0)
                  for k, v in pr.history.items()} for pr in problems]
    n_iter = max(len(h["mistakes"]) for h in histories)

    def total(key):
        if len(histories) == 1:
            return histories[0][key]
        out = np.zeros(n_iter, dtype=histories[0][key].dtype)
        for h in histories:
            out[:len(h[key])] += h[key]
        return out

    return {"coef_": coef, "intercept_": intercept, "classes_": classes, "n_features_in_": d,
            "n_iter_": n_iter, "mistakes_": total("mistakes"), "updates_": total("updates"),
            "loss_": total("loss") / train_weight,
            "t_": sum(pr.state.updates for pr in problems),
            "converged_": all(len(h["updates"]) > 0 and h["updates"][-1] == 0
                              for h in histories),
            "_mode": mode, "_multilabel": mode == "multilabel",
            "_states": [pr.state for pr in problems]}


def chunk_attributes(model, first, mode, problems, classes, W, b, d, dtype, weight, trained):
    """The attributes after a partial_fit call: the model's histories
    (`model`: the estimator's attributes) with this call's counts appended,
    and the model the problems make.  `weight`: the rows (or their summed
    weights) trained on; `trained`: whether any row trained."""
    new: Dict[str, float] = {}
    if len(problems) == 1:  # one problem: its one result
        history = problems[0].history
        if history["mistakes"]:
            # (item(): the Python number, without the numpy scalar; counts of one
            # chunk's rows are exact in a double, as int(float(...)) took them)
            new = {"mistakes": history["mistakes"][0].item(0),
                   "updates": history["updates"][0].item(0),
                   "loss": history["loss"][0].item(0) / weight if weight > 0 else 0.0}
        else:
            new = {"mistakes": 0, "updates": 0, "loss": 0.0}
    else:
        for key in ("mistakes", "updates", "loss"):
            value = sum(float(pr.history[key][0][0]) for pr in problems if pr.history[key])
            if key == "loss":
                new[key] = value / weight if weight > 0 else 0.0
            else:
                new[key] = int(value)
    attrs = appended_histories(model, new, first)
    attrs["coef_"], attrs["intercept_"] = _weights(W, b, dtype)
    attrs["classes_"] = classes
    attrs["n_features_in_"] = d
    attrs["n_iter_"] = len(attrs["mistakes_"])
    if len(problems) == 1:
        state = problems[0].state
        attrs["t_"] = state.counters.item(C_UPDATES)
        states = [state]
    else:
        attrs["t_"] = int(sum(pr.state.updates for pr in problems))
        states = [pr.state for pr in problems]
    attrs["converged_"] = attrs["updates_"].item(-1) == 0 and trained
    attrs["_mode"] = mode
    attrs["_multilabel"] = mode == "multilabel"
    attrs["_states"] = states
    return attrs


_KEEP_NAMES = object()


def publish(est, attrs, names_from=_KEEP_NAMES, after=None):
    """Set the fitted attributes `attrs` on the estimator: the one place a
    fit, a partial_fit call or a Dask fit sets them.  `names_from`: the X
    whose column names become ``feature_names_in_`` (none: the attribute
    goes); not given, the names stay as they are.  `after`: attributes set
    after the names (early stopping's)."""
    fields = est.__dict__
    fields.update(attrs)
    if type(names_from) is np.ndarray:  # no column names: none kept from before
        fields.pop("feature_names_in_", None)
    elif names_from is not _KEEP_NAMES:
        check_feature_names(est, names_from, reset=True)
    if after:
        est.__dict__.update(after)


def appended_histories(model, new, first):
    """The model's histories (``model``: its attributes) with one
    partial_fit call's counts (``new``: key -> value) appended, in amortized
    constant time (``appended``): a stream of many chunks costs the same per
    call at its end as at its start."""
    out = {}
    ndarray = np.ndarray
    with _BUFFER_LOCK:  # the three appends as one step (see ``appended``)
        for key, name, dtype in HISTORIES:
            before = model.get(name) if not first else None
            if before is None:
                before = np.zeros(0, dtype=dtype)
            elif type(before) is not ndarray or before.dtype != dtype:
                before = np.asarray(before, dtype=dtype)
            out[name] = _appended(before if before.ndim == 1 else before.ravel(), new[key],
                                  dtype)
    return out


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
    # the check and the write as one step: two threads appending to arrays
    # of one buffer (estimators copied by copy.copy) would otherwise both
    # see the next slot free and write it
    with _BUFFER_LOCK:
        return _appended(arr, value, dtype)


def _appended(arr, value, dtype):
    """``appended``, with _BUFFER_LOCK held by the caller."""
    n = len(arr)
    base = arr.base
    if type(base) is np.ndarray and len(base) > n:
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


def _import_code(code):
    """Whether warnings passes over a frame of `code` in counting stacklevel
    (a frame of the import machinery)."""
    filename = code.co_filename
    return "_bootstrap" in filename and "importlib" in filename


def _ignored(category, frame, fit_code):
    """Whether the warnings filters ignore a warning of `category` raised
    from `frame`, the caller of a frame of `fit_code`, decided as
    ``warnings.warn`` decides it (the first filter whose category, module
    and line match names the action; none: ``warnings.defaultaction``), for
    a caller that would build the message only to have it dropped.  A filter that reads the text and ignores is
    passed over (matching or not, the warning is ignored if what follows
    ignores it); False whenever the answer needs the message (a filter that
    reads the text and does not ignore) or the filters are of another
    shape, or when warnings would pass over one of the two frames (the
    import machinery's) in counting its stacklevel: then the warning is
    made and warnings decides.  An ignored warning leaves no trace in
    warnings' registries, so not making it is the same as making it."""
    if _CONTEXT_AWARE:
        return False  # (the filters then live in a context variable)
    module = frame.f_globals.get("__name__", "<string>")
    code = frame.f_code
    lasti = frame.f_lasti
    filters = warnings.filters
    default = getattr(warnings, "defaultaction", None)
    # the last answer holds for the same category, module, codes (hence the
    # same import-machinery test), instruction of the caller's code (hence
    # the same line: frame.f_lineno decodes the code's line table, the
    # dearest step here) and default action, and filters equal to the last
    # ones (a list's == passes over the very same entries at C speed): the
    # scan of a dozen filters cost more than the message
    last = _LAST_ANSWER[0]
    if last is not None and last[0] is category and last[1] is code and last[2] == lasti \
            and last[3] is fit_code and last[4] == module and last[5] == default \
            and last[6] == filters:
        return last[7]
    snapshot = list(filters)
    answer = (not (_import_code(fit_code) or _import_code(code))
              and _scan(snapshot, category, module, frame.f_lineno, default))
    _LAST_ANSWER[0] = (category, code, lasti, fit_code, module, default, snapshot, answer)
    return answer


# sys.flags is fixed at start-up: read once
_CONTEXT_AWARE = bool(getattr(sys.flags, "context_aware_warnings", False))
# the last answer of _ignored: (category, the caller's code, its instruction,
# the code it called, module, default action, the filters, ignored)
_LAST_ANSWER: List[Optional[tuple]] = [None]


def _scan(filters, category, module, lineno, default):
    """_ignored's answer, from the filters."""
    try:
        for action, msg, cat, mod, ln in filters:
            if not issubclass(category, cat) or (ln != 0 and ln != lineno):
                continue
            if mod is not None and not (mod == module if type(mod) is str else
                                        mod.match(module)):
                continue
            if msg is None:
                return action == "ignore"
            if action != "ignore":
                return False  # whether it applies depends on the text
            # an "ignore" filter that reads the text (numpy's and scipy's, at
            # their import): ignored if it matches, else what follows decides
    except (TypeError, ValueError, AttributeError):
        return False
    return default == "ignore"


def warn_not_converged(est, p):
    """The ConvergenceWarning of a fit that ran max_iter epochs without
    converging, attributed to the caller of ``fit``; its message is made
    only when the filters would not ignore it (a small fit under
    ``simplefilter("ignore")`` otherwise spends a good share of its fixed
    cost making a message nobody sees)."""
    category = sklearn_compatible(ConvergenceWarning)
    # the caller of fit, where stacklevel=3 points: two frames up, unless
    # warnings would pass over a frame of the import machinery on the way
    fit_frame = sys._getframe(1)
    frame: Optional[FrameType] = fit_frame.f_back
    if frame is not None and _ignored(category, frame, fit_frame.f_code):
        return
    warnings.warn(
        f"{type(est).__name__} did not converge: {int(est.mistakes_[-1])} mistakes in the "
        f"last of {est.n_iter_} epochs (max_iter={p['max_iter']}); the data may not "
        "be linearly separable", category, stacklevel=3)

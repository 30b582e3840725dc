"""Distributed training on Dask: iterative parameter mixing.

``fit(estimator, X, y, client=...)`` trains a ``perceptron.Perceptron`` on a
``dask.array`` or a dask DataFrame held by a ``distributed`` cluster, with
iterative parameter mixing (McDonald, Hall and Mann 2010, "Distributed
Training Strategies for the Structured Perceptron", NAACL, Figure 3):

- the rows are cut into S shards, each kept in the memory of a worker for the
  whole fit;
- in epoch n every shard i runs ONE epoch of the compiled loop on its rows,
  starting from the shared weights ``w^(n-1)``, which gives ``w_i``;
- the shared weights become the mixture ``w^(n) = sum_i mu_i w_i`` and are
  sent back for the next epoch; ``mu_i = 1/S`` (``mixing="uniform"``) or
  ``mu_i = k_i / sum_j k_j`` with ``k_i`` the updates shard i made in the
  epoch (``mixing="mistakes"``, the paper's ``mu_{i,n} = k_{i,n} / k_n``);
- the fit stops after an epoch without an update on any shard (converged:
  on separable data McDonald et al. bound the mistakes made over all
  epochs, as Novikoff's theorem does on one machine) or after ``max_iter``
  epochs.

Per epoch, only the weights travel (to every shard, and back with the
shard's counts); the shard's rows, labels and its row order stay on its
worker.  predict / decision_function of a fitted model on a dask array give
a dask array (``map_blocks`` with the local estimator).

dask and distributed are optional: ``pip install perceptron-family[dask]``.
"""
import operator
import time
import warnings

import numpy as np

try:
    import dask
    import dask.array as da
    import distributed
except ImportError as _err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "perceptron.dask needs dask and distributed, which are not installed: "
        "pip install perceptron-family[dask]") from _err

from perceptron._core import online as _online
from perceptron.linear._fitted import fitted_attributes, publish
from perceptron.linear._mixing import (mix, mix_into, mixing_coefficients,
                                       ovr_shard_epoch, shard_epoch, shard_seeds)
from perceptron.linear._state import C_EPOCHS, C_STEPS, OnlineState
from perceptron.linear._params import check_mixing, loop_params
from perceptron.linear._problem import Problem, class_signs, effective
from perceptron.linear._stopping import StopRule, rule_loss_key
from perceptron.linear._training import fused_ovr_covers
from perceptron._common.validation import (check_feature_names, check_labels, check_random_seed,
                                           check_scalar, check_X, is_narrow, is_sparse,
                                           label_signs, mix64, model_dtype,
                                           require_two_classes, unique_labels)
from perceptron.exceptions import ConvergenceWarning, sklearn_compatible
from perceptron.linear._perceptron import Perceptron
from perceptron.sequence._structured import (MAX_LABELS, StructuredPerceptron, check_fit_memory,
                                             check_lengths)
from perceptron.sequence import _dask as _ds

__all__ = ["fit", "predict", "decision_function", "mix", "mixing_coefficients"]

# ------------------------------------------------------------ worker side

class _Shard:
    """A shard's rows and the labels of each training problem, on a worker."""

    def __init__(self, index, X, labels, shared_order=False, sqnorm=None):
        self.index = index
        self.X = X
        self.labels = labels
        # one-vs-rest: the classes visit the rows in one order, shuffled
        # once an epoch by the first class's generator (as Perceptron.fit)
        self.shared_order = shared_order
        # the squared norms of the rows, once for the fit, when the update
        # rule reads them (the passive-aggressive step), else None
        self.sqnorm = sqnorm


def _gather_shard(index, dtype, n_blocks, *blocks):
    """A shard's rows and raw labels: its X blocks (the first n_blocks) and y blocks.

    Dense blocks become one C-contiguous array; scipy.sparse blocks one CSR
    matrix, checked once as Perceptron.fit checks sparse X (check_X), in the
    dtype of the dense case."""
    xs, ys = blocks[:n_blocks], blocks[n_blocks:]
    if is_sparse(xs[0]):
        import scipy.sparse as sp

        stacked = sp.vstack(xs, format="csr") if len(xs) > 1 else xs[0]
        X = check_X(stacked.astype(dtype), "X", accept_sparse=True)
    else:
        X = np.ascontiguousarray(np.concatenate(xs) if len(xs) > 1 else xs[0], dtype=dtype)
    y = np.concatenate([np.asarray(v).ravel() for v in ys])
    if len(X.shape) != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"shard {index}: X has shape {X.shape} but y has {y.shape[0]} labels")
    return index, X, y


def _shard_labels(raw):
    """The distinct labels of a shard (from which classes_ is decided once)."""
    return np.unique(raw[2])


def _encode_shard(raw, classes, mode, loop_params, dtype=None):
    """The shard the epochs use: its rows (not copied), each problem's labels
    and, when the update rule of `loop_params` reads them, the rows' squared
    norms (one pass over the shard for the whole fit)."""
    index, X, y = raw
    index_y = np.searchsorted(classes, y)
    inside = index_y < len(classes)
    if not inside.all() or not (classes[index_y[inside]] == y[inside]).all():
        raise ValueError(f"shard {index}: y holds labels that are not in classes_")
    index_y = index_y.astype(np.int32)
    if mode == "multinomial":
        labels = [index_y]
    elif mode == "binary":
        labels = [label_signs(index_y == 1)]
    else:  # made when a class's loop needs them (k arrays of n: O(n*k) memory)
        labels = [class_signs(index_y, j) for j in range(len(classes))]
    sqnorm = None
    if _online.needs_norms(loop_params):
        # the norms the weights (of `dtype`) read: narrow rows meeting float64
        # weights give those of the same rows in float64
        sqnorm = (_online.squared_norms(X) if dtype is None or dtype == model_dtype(X.dtype)
                  else _online.squared_norms(X, dtype))
    return _Shard(index, X, labels, shared_order=mode == "ovr", sqnorm=sqnorm)


def _first_carry(shard, seeds):
    """The row order and generator of each problem of a shard (they stay on its
    worker), in the shape of an epoch's output: (carry, no summary)."""
    n = shard.X.shape[0]
    return [{"rows": np.arange(n, dtype=np.intp), "rng": np.array([s], dtype=np.uint64)}
            for s in seeds], None


def _shard_epoch(shard, previous, messages, loop_params, average, epoch):
    """One epoch of every active problem of a shard, from the shared weights.

    ``previous`` is the output of the shard's previous epoch (or of
    ``_first_carry``), whose carry (row orders and generators) it continues.
    Returns (the new carry, which stays on the worker; the summary that
    travels back: weights, accumulators, counts).  Inputs are not modified,
    so a recomputation after a failure repeats the epoch exactly.
    """
    started = time.perf_counter()
    carry = previous[0]
    new_carry: list = []
    results: list = []
    order_rng = None
    if shard.shared_order:
        shared_rows, order_rng = carry[0]["rows"].copy(), carry[0]["rng"].copy()
        given = loop_params._asdict()
        if given["shuffle"]:
            _online.shuffle_rows(order_rng, shared_rows)
        loop_params = _online.LoopParams(**{**given, "keep_order": True})
        carry = [{"rows": shared_rows, "rng": order_rng}] + \
            [{"rows": shared_rows, "rng": c["rng"]} for c in carry[1:]]
    problems, at = [], []
    for pos, (labels, c, m) in enumerate(zip(shard.labels, carry, messages)):
        new_carry.append(c)  # this problem has converged (m is None): it sits out
        results.append(None)
        if m is None:
            continue
        k, d = m["W"].shape
        dtype = np.asarray(m["W"]).dtype  # the weights' (float64 ones may meet narrow rows)
        state = OnlineState(k, d, dtype, multinomial=m["multinomial"], average=average,
                            pocket=False, batch_size=None, seed=0, W0=m["W"], b0=m["b"])
        if average:
            state.U = np.array(m["U"], dtype=np.float64)
            state.ub = np.array(m["ub"], dtype=np.float64)
        state.counters[C_STEPS] = m["steps"]
        state.counters[C_EPOCHS] = epoch - 1
        # a shared order is not modified by the loops (keep_order): no copy
        state.rows = c["rows"] if shard.shared_order else c["rows"].copy()
        state.rng_state = c["rng"].copy()
        problem = Problem(state, labels)
        problem.sqnorm = shard.sqnorm
        problems.append(problem)
        at.append(pos)
    where = f"shard {shard.index}"
    if shard.shared_order and problems and fused_ovr_covers(shard.X, problems, loop_params):
        # one-vs-rest over dense rows: each row read once for all the classes
        summaries = ovr_shard_epoch(shard.X, problems, problems[0].state.rows, loop_params,
                                    where)
    else:
        summaries = [shard_epoch(pr.state, shard.X, pr.labels, None, loop_params, where=where,
                                 sqnorm=shard.sqnorm) for pr in problems]
    for pos, pr, summary in zip(at, problems, summaries):
        results[pos] = summary
        new_carry[pos] = {"rows": pr.state.rows, "rng": pr.state.rng_state}
    return new_carry, {"shard": shard.index, "epoch": epoch, "problems": results,
                       "order_rng": order_rng, "seconds": time.perf_counter() - started}


# ------------------------------------------------------------- driver side

def _as_dask(X, y):
    """(X as a 2-D dask array with one column chunk, y as a 1-D dask array
    chunked like X's rows, the source of feature names)."""
    names_source = None
    if hasattr(X, "to_dask_array") and hasattr(X, "columns"):
        names_source = X._meta
        X = X.to_dask_array(lengths=True)
    if not isinstance(X, da.Array):
        raise TypeError(f"X must be a dask.array.Array or a dask DataFrame, got "
                        f"{type(X).__name__}; for a numpy array use Perceptron.fit")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got {X.ndim} dimensions")
    if any(np.isnan(c) for c in X.chunks[0]):
        raise ValueError("X has chunks of unknown size; call X.compute_chunk_sizes() first")
    if X.dtype.kind not in "biuf" and not is_narrow(X.dtype):
        raise TypeError(f"X must hold numbers, got dtype {X.dtype}")
    if not (isinstance(X._meta, np.ndarray) or is_sparse(X._meta)):
        raise TypeError(f"X has chunks of type {type(X._meta).__name__}; perceptron.dask "
                        "takes numpy or scipy.sparse chunks")
    if X.numblocks[1] > 1:
        X = X.rechunk({1: -1})
    if hasattr(y, "to_dask_array"):
        y = y.to_dask_array(lengths=True)
    elif not isinstance(y, da.Array):
        y = check_labels(y, X.shape[0])
        y = da.from_array(y, chunks=(X.chunks[0],))
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D (multi-label y is not supported by "
                         f"perceptron.dask), got shape {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} samples but y has {y.shape[0]}; they must match")
    if y.chunks[0] != X.chunks[0]:
        y = y.rechunk((X.chunks[0],))
    return X, y, names_source


def _check_estimator(estimator):
    if not isinstance(estimator, Perceptron):
        raise TypeError(f"estimator must be a perceptron.Perceptron, got "
                        f"{type(estimator).__name__}")
    p = estimator._check_params()  # a subclass adds its rule (update_rule, C)
    unsupported = [(p["pocket"], "pocket=True"), (p["batch_size"] is not None, "batch_size"),
                   (p["early_stopping"], "early_stopping=True"),
                   (p["warm_start"], "warm_start=True"),
                   (p["penalty"] is not None, f"penalty={p['penalty']!r}"),
                   (estimator.class_weight is not None, "class_weight"),
                   (estimator.callback is not None or p["verbose"] or p["progress"],
                    "callback, verbose or progress (use perceptron.dask.fit's callback)")]
    for bad, name in unsupported:
        if bad:
            raise ValueError(f"estimator: {name} is not supported by perceptron.dask.fit "
                             "(iterative parameter mixing of the online rule)")
    return p


def _shard_groups(n_blocks, n_shards):
    """Contiguous groups of row blocks, one per shard."""
    return [g.tolist() for g in np.array_split(np.arange(n_blocks), n_shards) if len(g)]


def fit(estimator, X, y, *, client=None, mixing="uniform", max_iter=None, n_shards=None,
        callback=None, lengths=None):
    """Train ``estimator`` on dask data by iterative parameter mixing.

    Each of ``n_shards`` shards of the rows lives on a worker; every epoch
    each shard runs one epoch of the compiled loop from the shared weights
    and the weights are mixed, ``w <- sum_i mu_i w_i`` (McDonald, Hall and
    Mann 2010, Figure 3; see ``mix`` for the averaged perceptron).

    Parameters
    ----------
    estimator : perceptron.Perceptron
        Its parameters (eta0, max_iter, tol, n_iter_no_change,
        fit_intercept, shuffle, random_state, average, margin, multiclass)
        are used (the rule of ``tol`` reads the loss summed over shards); it
        is fitted in place and gets the attributes of a local fit: ``coef_``, ``intercept_``, ``classes_``,
        ``n_features_in_``, ``n_iter_``, ``converged_``, ``mistakes_``,
        ``updates_``, ``loss_`` (summed over shards per epoch) and ``t_``.
        pocket, mini-batches, early stopping, warm start and class weights
        are not supported (ValueError).
    X : dask.array.Array of shape (n_samples, n_features), or dask DataFrame
        Dense chunks.  float32 stays float32, other numbers become float64.
    y : dask.array.Array, dask Series or array-like of shape (n_samples,)
        The labels; ``classes_`` is decided once, from all of them.
    client : distributed.Client, optional
        Default: the current client (``distributed.get_client()``).
    mixing : {"uniform", "mistakes"}, default="uniform"
        ``mu_i = 1/S``, or ``mu_i`` proportional to the updates shard i made
        in the epoch.
    max_iter : int, optional
        Maximum number of epochs; default: ``estimator.max_iter``.
    n_shards : int, optional
        Default: the number of workers.  Shards are contiguous groups of
        X's row blocks (X is re-chunked when it has fewer blocks).  With one
        shard and ``shuffle=False`` (or the same ``random_state``) the fit
        equals ``estimator.fit`` on the computed arrays exactly.
    callback : callable, optional
        ``callback(epoch, info)`` after each epoch, ``info`` being a dict
        holding the epoch's ``mistakes``, ``updates``, ``coef``,
        ``intercept`` (the mixed weights) and ``shard_seconds`` (the time
        each shard's task took on its worker, a list); returning True stops
        the fit.

    lengths : array-like of int, optional
        For a ``perceptron.StructuredPerceptron`` (and only then): the
        number of tokens of each sequence, as its ``fit`` takes them.  The
        shards are cut between sequences (a sequence is never split); each
        runs one epoch of the structured perceptron from the mixed
        parameters (emission weights, biases, transitions, start and end
        scores, and the averaging accumulators), mixed as above.  early
        stopping is not supported; ``tol`` reads the loss summed over
        shards.

    Returns
    -------
    estimator

    Raises
    ------
    RuntimeError
        When a shard's result of an epoch is missing (a worker died and
        Dask could not recompute it): the message names the epoch.  A fit
        never returns a model some shard did not take part in.

    Notes
    -----
    Recovery: epoch n's task of a shard takes the shard, the output of its
    epoch n-1 (the row order and generator, on the same worker) and the
    weights of epoch n as an argument, so a lost worker's epochs are
    recomputed from the graph exactly as they first ran.  The price: until
    the fit ends the scheduler keeps every epoch's task, with the weights it
    was sent (up to 16 bytes per weight, per shard and epoch, with averaging;
    8 without: small for ``d`` in the hundreds, to be kept in mind for very
    wide models and many epochs).
    """
    structured = isinstance(estimator, StructuredPerceptron)
    if lengths is not None and not structured:
        raise ValueError("lengths is for a StructuredPerceptron only")
    p = estimator._check_params() if structured else _check_estimator(estimator)
    check_mixing(mixing)
    max_iter = p["max_iter"] if max_iter is None else check_scalar(max_iter, "max_iter", "int",
                                                                   low=1)
    if n_shards is not None:
        n_shards = check_scalar(n_shards, "n_shards", "int", low=1)
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable or None, got {callback!r}")
    if client is None:
        try:
            client = distributed.get_client()
        except ValueError as err:
            raise ValueError("client: no distributed.Client is running; create one "
                             "(distributed.Client(...)) or pass client=") from err
    if structured:
        return _fit_structured(estimator, p, X, y, lengths, client, mixing, max_iter, n_shards,
                               callback)
    X, y, names_source = _as_dask(X, y)
    n, d = X.shape
    if n == 0 or d == 0:
        raise ValueError(f"X has shape {X.shape}; it needs at least one sample and one feature")
    if n_shards is None:
        n_shards = max(1, len(client.nthreads()))
    n_shards = check_scalar(n_shards, "n_shards", "int", low=1)
    n_shards = min(n_shards, n)
    if X.numblocks[0] < n_shards:
        X = X.rechunk({0: -(-n // n_shards)})
        y = y.rechunk((X.chunks[0],))
    dtype = np.dtype(np.float32) if X.dtype == np.float32 else np.dtype(np.float64)
    # dense float16, bfloat16, int8 and uint8 blocks stay as stored (csrc/ptn_narrow.h):
    # float32 weights
    x_dtype = dtype
    if is_narrow(X.dtype) and not is_sparse(getattr(X, "_meta", None)) and \
            getattr(estimator, "_narrow_rows", False):
        x_dtype, dtype = X.dtype, model_dtype(X.dtype)
    if p["dtype"] is not None:
        # float64 weights asked for: narrow blocks still as stored (each row
        # widened as it is read), float32 ones converted on the workers
        x_dtype = p["dtype"] if x_dtype == np.float32 else x_dtype
        dtype = p["dtype"]

    # the shards' rows and labels: built once on the workers (one shard per worker
    # when there are enough) and kept there; classes_ from their distinct labels
    workers = sorted(client.nthreads())
    x_blocks = X.to_delayed().ravel()
    y_blocks = y.to_delayed().ravel()
    raws, sizes = [], []
    for i, group in enumerate(_shard_groups(len(x_blocks), n_shards)):
        gather = dask.delayed(_gather_shard, pure=False)(
            i, x_dtype, len(group), *[x_blocks[b] for b in group], *[y_blocks[b] for b in group])
        pin = {"workers": [workers[i % len(workers)]], "allow_other_workers": True} \
            if workers else {}
        raws.append(client.compute(gather, **pin))
        sizes.append(sum(X.chunks[0][b] for b in group))
    seen = client.gather([client.submit(_shard_labels, raw, pure=False) for raw in raws])
    classes = unique_labels(np.concatenate(seen))
    require_two_classes(classes)
    k = len(classes)
    if k == 2:  # as a local fit: two classes are one binary problem, whatever multiclass
        mode = "binary"
    elif estimator.multiclass == "multinomial":
        mode = "multinomial"
    else:
        mode = "ovr"
    seed = check_random_seed(estimator.random_state)
    if mode == "ovr":
        # the first class's generator shuffles the classes' shared order (as a fit's)
        problem_seeds = [seed] + [mix64(seed ^ (j + 1)) for j in range(1, k)]
        shapes = [(1, False)] * k
    else:
        problem_seeds = [seed]
        shapes = [(k, True)] if mode == "multinomial" else [(1, False)]
    loop = loop_params(p)
    shards, carries = [], []
    for i, raw in enumerate(raws):
        # shard 0 shuffles as a local fit would; the others from seeds of their own
        seeds = [shard_seeds(s, i + 1)[i] for s in problem_seeds]
        shard = client.submit(_encode_shard, raw, classes, mode, loop, dtype, pure=False)
        shards.append(shard)
        carries.append(client.submit(_first_carry, shard, seeds, pure=False))
    del raws  # the shards hold the rows; the raw labels can go
    distributed.wait(shards)

    states = [OnlineState(rows_k, d, dtype, multinomial=multi, average=p["average"],
                          pocket=False, batch_size=None, seed=s)
              for (rows_k, multi), s in zip(shapes, problem_seeds)]
    problems = [Problem(state, None) for state in states]
    active = [True] * len(problems)
    # each problem stops on its own: at an epoch without an update, or by the
    # rule on its loss summed over the shards (tol, n_iter_no_change)
    rules = [StopRule(p["tol"], p["n_iter_no_change"], n) for _ in problems]
    key = rule_loss_key(mode, p)
    stopped = False
    for epoch in range(1, max_iter + 1):
        messages = [None if not a else
                    {"W": st.W, "b": st.b, "U": st.U, "ub": st.ub, "steps": st.steps,
                     "multinomial": st.multinomial}
                    for st, a in zip(states, active)]
        # the epoch's output stays on the shard's worker (the next epoch reads its
        # carry there); only its summary is gathered
        carries = [client.submit(_shard_epoch, shard, carry, messages, loop, p["average"],
                                 epoch, pure=False) for shard, carry in zip(shards, carries)]
        summaries = [client.submit(operator.itemgetter(1), out, pure=False) for out in carries]
        results = _gather_epoch(client, summaries, epoch, len(shards))
        epoch_mistakes = epoch_updates = 0
        if results[0]["order_rng"] is not None:
            # the shared order's generator moves on even when the first class sits out
            states[0].rng_state = results[0]["order_rng"].copy()
        for j, (pr, st) in enumerate(zip(problems, states)):
            if not active[j]:
                continue
            parts = [r["problems"][j] for r in results]
            _check_problem(parts, sizes, epoch, j)
            res = mix_into(st, parts, mixing, p["average"])
            for name in ("mistakes", "updates", "loss"):
                pr.history[name].append(res[name])
            updates = int(res["updates"][0])
            epoch_mistakes += int(res["mistakes"][0])
            epoch_updates += updates
            if updates == 0 or rules[j].observe(float(res[key][0])):
                active[j] = False  # converged on every shard, or stopped: it sits out
        if callback is not None:
            W, b = effective(mode, problems, p)
            if callback(epoch, {"mistakes": epoch_mistakes, "updates": epoch_updates,
                                "coef": W, "intercept": b,
                                "shard_seconds": [r["seconds"] for r in results]}):
                stopped = True
                break
        if not any(active):
            break

    W, b = effective(mode, problems, p)
    publish(estimator, fitted_attributes(mode, problems, classes, W, b, d, dtype, float(n)),
            names_source)
    if not estimator.converged_ and not stopped and estimator.n_iter_ >= max_iter:
        warnings.warn(
            f"{type(estimator).__name__} did not converge on dask: {estimator.mistakes_[-1]} "
            f"mistakes in the last of {estimator.n_iter_} epochs (max_iter={max_iter}); the "
            "data may not be linearly separable", sklearn_compatible(ConvergenceWarning),
            stacklevel=2)
    return estimator


def _fit_structured(estimator, p, X, y, lengths, client, mixing, max_iter, n_shards, callback):
    """``fit`` for a StructuredPerceptron: iterative parameter mixing over
    shards of whole sequences (perceptron.sequence._dask)."""
    if p["early_stopping"]:
        raise ValueError("estimator: early_stopping=True is not supported by perceptron.dask.fit")
    if estimator.constraints is not None:
        # parameter mixing averages the heads, whose forbidden entries are
        # minus infinity: a shard weighted 0 would make them NaN
        raise ValueError("estimator: constraints are not supported by perceptron.dask.fit; "
                         "fit on one machine")
    X, y, names_source = _as_dask(X, y)
    n, d = X.shape
    if n == 0 or d == 0:
        raise ValueError(f"X has shape {X.shape}; it needs at least one sample and one feature")
    offsets = check_lengths(lengths, n)
    if n_shards is None:
        n_shards = max(1, len(client.nthreads()))
    n_shards = check_scalar(n_shards, "n_shards", "int", low=1)
    cuts = _ds.shard_cuts(offsets, n_shards)
    first, stop = _ds.shard_sequences(offsets, cuts)
    sizes = tuple(int(v) for v in np.diff(cuts))
    X = X.rechunk({0: sizes})
    y = y.rechunk((sizes,))
    dtype = np.dtype(np.float32) if X.dtype == np.float32 else np.dtype(np.float64)
    workers = sorted(client.nthreads())
    raws = []
    for i, (xb, yb) in enumerate(zip(X.to_delayed().ravel(), y.to_delayed().ravel())):
        local = offsets[first[i]:stop[i] + 1] - offsets[first[i]]
        build = dask.delayed(_ds.build_shard, pure=False)(i, dtype, xb, yb, local)
        pin = {"workers": [workers[i % len(workers)]], "allow_other_workers": True} \
            if workers else {}
        raws.append(client.compute(build, **pin))
    seen = client.gather([client.submit(_ds.shard_labels, raw, pure=False) for raw in raws])
    classes = unique_labels(np.concatenate(seen))
    require_two_classes(classes)
    k = len(classes)
    if k > MAX_LABELS:
        raise ValueError(f"y has {k} distinct labels; a StructuredPerceptron takes at most "
                         f"{MAX_LABELS}")
    # the driver and every worker hold the weights: checked before any is made
    check_fit_memory(k, d, dtype.itemsize, p["average"], int(np.max(np.diff(offsets))))
    seed = check_random_seed(estimator.random_state)
    shards = [client.submit(_ds.encode_shard, raw, classes, pure=False) for raw in raws]
    del raws
    # shard 0 shuffles as a local fit would; the others from seeds of their own
    carries = [client.submit(_ds.first_carry, shard, seed if i == 0 else mix64(seed ^ (0x51A2D0 + i)),
                             pure=False) for i, shard in enumerate(shards)]
    m = k * k + 3 * k
    state: dict = {"W": np.zeros((k, d), dtype=dtype), "b": np.zeros(m), "steps": 0,
             "U": np.zeros((k, d)) if p["average"] else None,
             "ub": np.zeros(m) if p["average"] else None}
    rule = StopRule(p["tol"], p["n_iter_no_change"], len(offsets) - 1)
    mistakes, rng = [], np.array([seed], dtype=np.uint64)
    for epoch in range(1, max_iter + 1):
        carries = [client.submit(_ds.shard_epoch, shard, carry, state, p["eta0"], p["shuffle"],
                                 epoch, pure=False) for shard, carry in zip(shards, carries)]
        summaries = [client.submit(operator.itemgetter(1), out, pure=False) for out in carries]
        results = _gather_epoch(client, summaries, epoch, len(shards))
        state = mix(state, results, mixing, p["average"])
        if not p["average"]:
            state["U"] = state["ub"] = None
        rng = results[0]["rng"].copy()
        wrong = sum(r["mistakes"] for r in results)
        mistakes.append(wrong)
        stop = wrong == 0 or rule.observe(sum(r["loss"] for r in results))
        if callback is not None and callback(epoch, {"mistakes": wrong, "coef": state["W"],
                                                     "shard_seconds": [r["seconds"] for r in results]}):
            stop = True
        if stop:
            break
    estimator._set_state(classes, "dense", state["W"], state["U"], state["b"], state["ub"],
                         float(state["steps"]), rng)
    estimator.n_iter_ = len(mistakes)
    estimator.mistakes_ = np.asarray(mistakes, dtype=np.int64)
    check_feature_names(estimator, names_source, reset=True)
    return estimator


def _gather_epoch(client, summaries, epoch, n_shards):
    """Every shard's summary of this epoch, or a RuntimeError naming the epoch."""
    try:
        results = client.gather(summaries)
    except (distributed.scheduler.KilledWorker, distributed.client.FutureCancelledError,
            distributed.comm.CommClosedError, OSError) as err:
        raise RuntimeError(
            f"perceptron.dask.fit: epoch {epoch}: a shard's result is missing (a worker was "
            f"lost and Dask could not recompute the shard: {type(err).__name__}: {err}); "
            "no model is returned") from err
    _check_epoch(results, epoch, n_shards)
    return results


def _check_epoch(results, epoch, n_shards):
    """Every shard answered this epoch, once: otherwise the mixture would be wrong."""
    got = sorted(r["shard"] for r in results if r is not None and r.get("epoch") == epoch)
    if got != list(range(n_shards)):
        missing = sorted(set(range(n_shards)) - set(got))
        raise RuntimeError(f"perceptron.dask.fit: epoch {epoch}: results of shards {missing} "
                           f"are missing (got {got}); no model is returned")


def _check_problem(parts, sizes, epoch, j):
    for i, (part, size) in enumerate(zip(parts, sizes)):
        if part is None or part["n"] != size:
            raise RuntimeError(f"perceptron.dask.fit: epoch {epoch}: shard {i} did not run "
                               f"problem {j} over its {size} rows; no model is returned")


# ---------------------------------------------------------------- scoring

def decision_function(estimator, X):
    """``estimator.decision_function`` of each block of a dask array X (a dask array).

    Shape (n_samples,) for two classes, else (n_samples, n_classes).
    """
    X = _scoring_input(estimator, X)
    k = estimator.coef_.shape[0]
    if k == 1:
        return X.map_blocks(estimator.decision_function, drop_axis=1, dtype=np.float64)
    return X.map_blocks(estimator.decision_function, chunks=(X.chunks[0], (k,)),
                        dtype=np.float64)


def predict(estimator, X):
    """``estimator.predict`` of each block of a dask array X: a dask array of labels."""
    X = _scoring_input(estimator, X)
    return X.map_blocks(estimator.predict, drop_axis=1, dtype=estimator.classes_.dtype)


def _scoring_input(estimator, X):
    if hasattr(X, "to_dask_array") and hasattr(X, "columns"):
        raise TypeError("X: pass a dask array (X.to_dask_array(lengths=True)); scoring a "
                        "dask DataFrame block by block is not supported")
    if not isinstance(X, da.Array) or X.ndim != 2:
        raise TypeError(f"X must be a 2-D dask.array.Array, got {type(X).__name__}")
    if not hasattr(estimator, "coef_"):
        estimator.decision_function(np.zeros((1, X.shape[1])))  # raises NotFittedError
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but the model was fitted with "
                         f"{estimator.n_features_in_}")
    return X.rechunk({1: -1}) if X.numblocks[1] > 1 else X

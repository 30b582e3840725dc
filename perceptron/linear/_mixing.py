"""Iterative parameter mixing (McDonald, Hall and Mann 2010, "Distributed
Training Strategies for the Structured Perceptron", NAACL, Figure 3): one
implementation, two transports.

Every epoch, each of S shards of the rows runs ONE epoch of the compiled loop
from the same shared weights ``w^(n-1)``, which gives ``w_i``; the shared
weights become ``w^(n) = sum_i mu_i w_i``.  ``perceptron.dask`` runs the
shards on the workers of a cluster; ``Perceptron(n_jobs=k)`` runs them on
k threads of this process (``ThreadMixing``), for a fit of one problem (a
binary or a multinomial one).  Both call ``shard_epoch`` for a shard's epoch
and ``mix_into`` for the mixture.

On threads the shards are contiguous ranges of the training rows (each
thread streams its own part of X; nothing is copied but the row indices),
each shuffled within itself by a generator of its own.  Shard 0 shuffles as
the sequential fit would, so that one shard is the sequential fit, bit for
bit.
"""
import numpy as np

from perceptron._core import online as _online
from perceptron._common.parallel import map_threads
from perceptron.linear._state import C_EPOCHS, C_STEPS, C_UPDATES
from perceptron.linear._training import fused_ovr_epoch, raise_for_status
from perceptron._common.validation import CSRData, mix64

# Below this many scalar operations per epoch the shards run one after the
# other on the calling thread: the result is the same, threads would cost
# more than they save.
THREAD_MIN_WORK = 1 << 18


def mixing_coefficients(updates, mixing):
    """The mixing coefficients ``mu_i`` of one epoch.

    ``uniform``: ``mu_i = 1/S``; ``mistakes``: ``mu_i = k_i / sum_j k_j``,
    ``k_i`` being the updates shard i made in the epoch (McDonald, Hall and
    Mann 2010, Figure 3).  When no shard made an update, every shard
    returns the weights it was given and the coefficients are uniform.
    """
    k = np.asarray(updates, dtype=np.float64)
    total = k.sum()
    if mixing == "uniform" or total == 0:
        return np.full(len(k), 1.0 / len(k))
    return k / total


def mix(start, shards, mixing, average):
    """Mix the shards' end-of-epoch states into the next shared state.

    Parameters
    ----------
    start : dict
        The shared state every shard started the epoch from: ``W`` (k, d),
        ``b`` (k,), ``steps`` (the averaging clock c), and with ``average``
        the accumulators ``U`` (k, d) and ``ub`` (k,) of the lazy trick.
    shards : list of dict
        Each shard's state after its epoch: ``W``, ``b``, ``U``, ``ub``, the
        rows it visited ``n`` and the updates it made ``updates``.
    mixing : {"uniform", "mistakes"}
    average : bool

    Returns
    -------
    dict with the mixed ``W`` (in the dtype of ``start["W"]``), ``b``,
    ``steps``, and with ``average`` ``U`` and ``ub``.

    Notes
    -----
    Weights: ``w = sum_i mu_i w_i`` (McDonald et al. 2010, Figure 3).

    Averaging: the lazy trick keeps ``U`` such that ``c*W - U`` is the sum of
    the weights after each of the c steps so far (Daume III, ch. 3).  The
    shards start from ``(W, U, c)`` and visit ``n_i`` rows, so
    ``S_i = (c + n_i) W_i - U_i - (c W - U)`` is the sum of shard i's weights
    over its epoch.  The epoch adds ``N * sum_i mu_i S_i / n_i`` to the
    running sum (``N = sum_i n_i``): the mixture of the shards' epoch
    averages, with the same coefficients as the weights, counted for the N
    rows visited.  The clock becomes ``c + N`` and ``U`` is set so that
    ``(c + N) W_mixed - U_mixed`` is the new sum, which expands to
    ``U_mixed = sum_i nu_i U_i + sum_i ((c+N) mu_i - nu_i (c+n_i)) W_i
    + (sum_i nu_i - 1)(c W - U)`` with ``nu_i = mu_i N / n_i``.  The averaged
    model ``W - U/c`` is then the mean over epochs of the mixed epoch
    averages, each epoch weighted by its rows; with one shard every
    coefficient is 1 or 0 and the result is the local averaged perceptron,
    bit for bit.
    """
    mu = mixing_coefficients([s["updates"] for s in shards], mixing)
    dtype = start["W"].dtype
    W = np.zeros(start["W"].shape)
    b = np.zeros(start["b"].shape)
    for m, s in zip(mu, shards):
        W += m * s["W"].astype(np.float64)
        b += m * s["b"]
    out: dict = {"W": W.astype(dtype), "b": b}
    n = np.array([s["n"] for s in shards], dtype=np.float64)
    N = n.sum()
    c = float(start["steps"])
    out["steps"] = int(start["steps"]) + int(N)
    if average:
        nu = mu * N / n
        W0 = start["W"].astype(np.float64)
        past_W = c * W0 - start["U"]
        past_b = c * start["b"] - start["ub"]
        U = np.zeros(W.shape)
        ub = np.zeros(b.shape)
        for m, v, n_i, s in zip(mu, nu, n, shards):
            U += v * s["U"]
            ub += v * s["ub"]
            coef = (c + N) * m - v * (c + n_i)
            U += coef * s["W"].astype(np.float64)
            ub += coef * s["b"]
        rest = nu.sum() - 1.0
        U += rest * past_W
        ub += rest * past_b
        out["U"] = U
        out["ub"] = ub
    return out


def shard_seeds(seed, n_shards):
    """The generator seed of each shard: shard 0 shuffles as the sequential
    fit would (seed itself), the others from seeds of their own."""
    return [seed if i == 0 else mix64(seed ^ (0x51A2D0 + i)) for i in range(n_shards)]


def shard_epoch(state, X, labels, sample_weight, loop_params, stop=None, where=None,
                sqnorm=None):
    """One epoch of a shard's state (which holds the shared weights), in place.

    Returns the summary ``mix`` and ``mix_into`` read: the weights and
    accumulators (the state's own arrays), the rows visited ``n``, the
    epoch's counts and the generator.  ``where`` (e.g. "shard 2") prefixes
    the message of a ValueError or FloatingPointError; ``sqnorm``: the
    squared norms of X's rows (computed once for the fit) when the rule
    reads them, else None."""
    start = state.steps
    res = _online.run_epochs(state, X, labels, sample_weight, loop_params, 1, stop, None, sqnorm)
    return _shard_summary(state, res, start, where)


def ovr_shard_epoch(X, problems, rows, loop_params, where=None):
    """``shard_epoch`` of every one-vs-rest problem of a shard at once, in
    their shared order ``rows``, each row read once for all of them (the
    fused epoch: ``fused_ovr_covers`` must hold; the rows' squared norms are
    the problems' ``sqnorm``).  The same summaries."""
    starts = [pr.state.steps for pr in problems]
    results = fused_ovr_epoch(X, problems, None, rows, loop_params, None)
    return [_shard_summary(pr.state, res, start, where)
            for pr, res, start in zip(problems, results, starts)]


def _shard_summary(state, res, start, where):
    try:
        raise_for_status(res, state)
    except (ValueError, FloatingPointError) as err:
        if where is None:
            raise
        raise type(err)(f"{where}: {err}") from None
    return {"W": state.W, "b": state.b, "U": state.U, "ub": state.ub,
            "n": state.steps - start, "mistakes": int(res["mistakes"][0]),
            "updates": int(res["updates"][0]), "loss": float(res["loss"][0]),
            "raw_loss": float(res["raw_loss"][0]), "rng": state.rng_state}


def mix_into(state, parts, mixing, average):
    """Replace the shared state's weights by the mixture of the shards'
    (``parts``: the summaries of ``shard_epoch``), and advance its counters
    by the epoch.  Returns the epoch's counts summed over the shards, in the
    form of one epoch of ``run_epochs`` (arrays of length 1)."""
    start = {"W": state.W, "b": state.b, "U": state.U, "ub": state.ub, "steps": state.steps}
    mixed = mix(start, parts, mixing, average)
    state.W = mixed["W"]
    state.b = mixed["b"]
    if average:
        state.U, state.ub = mixed["U"], mixed["ub"]
    updates = sum(r["updates"] for r in parts)
    state.counters[C_STEPS] = mixed["steps"]
    state.counters[C_UPDATES] += updates
    state.counters[C_EPOCHS] += 1
    # a later partial_fit shuffles on from shard 0's generator (the sequential one)
    state.rng_state = parts[0]["rng"].copy()
    return {"epochs": 1, "status": _online.STATUS_OK, "bad_row": -1,
            "mistakes": np.array([sum(r["mistakes"] for r in parts)], dtype=np.int64),
            "updates": np.array([updates], dtype=np.int64),
            "loss": np.array([sum(r["loss"] for r in parts)]),
            "raw_loss": np.array([sum(r["raw_loss"] for r in parts)])}


class ThreadMixing:
    """Iterative parameter mixing of one problem on threads: the epochs of
    ``Perceptron.fit`` with ``n_jobs=k > 1`` (``mixing_runner``).

    Called as the sequential trainer ``perceptron.linear._training.run``
    is (``fit_epochwise`` takes it in its place): each call runs epochs of
    the given problems, each epoch being one epoch of every shard from the
    shared weights and their mixture.

    Parameters
    ----------
    X : ndarray or CSRData
        The training data; shards read their rows in place.
    problems : list of Problem
        Their states hold the shared weights; ``state.rows`` the training
        rows (sorted), which are cut into ``n_shards`` contiguous ranges.
    n_shards : int
    mixing : {"uniform", "mistakes"}
    average : bool
    """

    def __init__(self, X, problems, n_shards, mixing, average):
        self.mixing = mixing
        self.average = average
        self.shards: dict = {}
        for pr in problems:
            st = pr.state
            rows = st.rows  # sorted: fit makes them so
            n_shards = max(1, min(n_shards, len(rows)))
            bounds = [len(rows) * i // n_shards for i in range(n_shards + 1)]
            seeds = shard_seeds(int(st.rng_state[0]), n_shards)
            states = []
            st.rows = None  # not copied with the rest of the state
            for i in range(n_shards):
                sh = st.copy()
                sh.rows = rows[bounds[i]:bounds[i + 1]].copy()
                sh.rng_state = np.array([seeds[i]], dtype=np.uint64)
                states.append(sh)
            st.rows = rows
            self.shards[id(pr)] = states
        if isinstance(X, CSRData):
            work = int(X.indptr[-1]) + X.shape[0]
        else:
            work = X.shape[0] * X.shape[1]
        self.n_threads = n_shards if work * len(problems) >= THREAD_MIN_WORK else 1

    def _load(self, shard, state):
        """The shard starts the epoch from the shared state."""
        shard.W[...] = state.W
        shard.b[...] = state.b
        if self.average:
            shard.U[...] = state.U
            shard.ub[...] = state.ub
        shard.counters[C_STEPS] = state.counters[C_STEPS]
        shard.counters[C_EPOCHS] = state.counters[C_EPOCHS]

    def __call__(self, X, problems, sample_weight, loop_params, n_epochs, n_threads, stop):
        results: list = []
        for _ in range(n_epochs):
            jobs = []
            for pr in problems:
                for shard in self.shards[id(pr)]:
                    self._load(shard, pr.state)
                    jobs.append((shard, pr.labels, pr.sqnorm))

            def job(shard, labels, sqnorm):
                return shard_epoch(shard, X, labels, sample_weight, loop_params, stop,
                                   sqnorm=sqnorm)

            try:
                parts = map_threads(job, jobs, self.n_threads)
            except BaseException:
                stop[0] = 1  # tell the other threads' loops to return
                raise
            results = []
            for pr in problems:
                mine, parts = parts[:len(self.shards[id(pr)])], parts[len(self.shards[id(pr)]):]
                res = mix_into(pr.state, mine, self.mixing, self.average)
                for key in ("mistakes", "updates", "loss"):
                    pr.history[key].append(res[key])
                results.append(res)
        return results


def mixing_runner(X, problems, p):
    """The runner of a fit's epochs when ``n_jobs`` asks for parameter mixing
    (one problem, more than one thread, neither the pocket nor a penalty),
    else None: the sequential algorithm, or one-vs-rest problems side by
    side.  A penalty's state (the lazy scale and the cumulative L1 penalty of
    Tsuruoka et al. 2009) is a per-row schedule that shards cannot share, so
    a penalized fit stays sequential."""
    if len(problems) != 1 or p["n_threads"] < 2 or p["pocket"] or p["penalty"] is not None:
        return None
    if min(p["n_threads"], len(problems[0].state.rows)) < 2:
        return None
    return ThreadMixing(X, problems, p["n_threads"], p["mixing"], p["average"])

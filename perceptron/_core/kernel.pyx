# cython: language_level=3
"""The dual training loop of the kernel perceptron, without the GIL.

Its parts live beside it: the kernel values in perceptron/_core/kernel_values.pxd,
the Gram cache in perceptron/_core/gram_cache.pxd, scoring (decision_dual,
decision_precomputed, kernel_matrix, re-exported here) in
perceptron/_core/kernel_scoring.pyx.

The dual perceptron (Aizerman, Braverman and Rozonoer 1964; Freund and
Schapire 1999, section 2) keeps a mistake count ``alpha_j`` per training row
and scores ``x`` by ``f(x) = sum_j c_j K(x_j, x) + b`` with
``c_j = eta * alpha_j * y_j``.  Visiting row ``i``, it updates when
``y_i f(x_i) <= 0``: ``alpha_i += 1`` and ``b += eta * y_i``.

How the loop keeps the activations (the design, and why):

- ``F[i] = sum_j c_j K(x_j, x_i)`` is kept for every training row, so a visit
  costs O(1) and a mistake at ``j`` costs one pass ``F += c K(., x_j)`` over
  the column ``K(., x_j)`` of the Gram matrix (an axpy).  This is the
  cheapest form when columns are reused: a row that is a mistake in several
  epochs needs its column computed once.
- Columns live in a cache of at most ``capacity`` columns (the memory
  budget), a segmented LRU (Karedla, Love and Wherry 1994): a column enters
  on probation and is protected once used again, so the rows that keep
  being mistakes keep their columns while the many rows that are mistakes
  once pass through.  When the whole Gram matrix fits, nothing is ever
  evicted.
- A mistake whose column is not cached is not applied to ``F`` at once: it
  waits in a small *pending* block (at most ``block`` rows), and every visit
  adds the pending terms ``c_p K(x_p, x_i)`` directly (the pending rows are
  few and stay in the CPU cache).  When the block is full, its columns are
  computed together, in one pass over the rows of X (each row of X read once
  for the whole block, instead of once per column), stored in the cache and
  applied to ``F``.  Computing one column at a time would stream all of X per
  mistake and be bound by memory bandwidth; a block makes it bound by
  arithmetic, and splits among threads by rows.
- A block of columns is a matrix product: the tile's rows against the
  block's rows, by the ``dot_block`` SIMD kernel (all FMAs, no horizontal
  sums).  The rbf kernel takes the squared distance as
  ``||a||^2 + ||b||^2 - 2 a.b`` on data shifted by its mean (translation
  changes no distance, and removes the loss of digits an offset would
  cause), clipped at 0, then its exp (the ``rbf_block`` SIMD kernel).  A
  pending term's value is computed directly (``sqdist``/``dot`` of the
  pair), so it may differ from the same entry of a computed column in the
  last bits; for a given data set and parameters the fit is deterministic,
  and on integer-valued data (linear and polynomial kernels) every sum is
  exact.

Budget (``max_support_vectors``): when a mistake would add a support vector
beyond the budget, the oldest support vector (the one that entered the set
first) is removed first, with its whole term ``c_j (K(x_j, .) + 1)`` (the
``+ 1`` being the bias, the weight of a constant feature): the removal step
of the Forgetron (Dekel, Shalev-Shwartz and Singer 2008), without its
shrinking.  It is applied like a mistake with the coefficient ``-c_j``.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport uint64_t, int64_t
from libc.stddef cimport ptrdiff_t
from cpython.exc cimport PyErr_CheckSignals

from perceptron.simd cimport ptn_simd, active_simd, kdot, ksqdist, ptn_rng, ptn_rng_seed
from perceptron._core.prefetch cimport ptn_prefetch_write_range
from perceptron._core.kernel_values cimport (KernelSpec, _spec, _finish, _pack, _row_norms,
                                             _block_values, _KIND_LINEAR, _KIND_POLY, _KIND_RBF,
                                             _KIND_SIGMOID, _KIND_PRECOMPUTED)
from perceptron._core.gram_cache cimport (GramCache, PROBATION, PROTECTED, _cache_init,
                                          _cache_touch, _cache_acquire)
# scoring lives in its own module; its functions are part of this one's API
from perceptron._core.kernel_scoring import decision_dual, decision_precomputed, kernel_matrix

KIND_LINEAR = _KIND_LINEAR
KIND_POLY = _KIND_POLY
KIND_RBF = _KIND_RBF
KIND_SIGMOID = _KIND_SIGMOID
KIND_PRECOMPUTED = _KIND_PRECOMPUTED

# Status codes of a fit, turned into exceptions by the Python layer.
cdef enum:
    _STATUS_OK = 0
    _STATUS_OVERFLOW = 2        # an activation stopped being finite

STATUS_OK = _STATUS_OK
STATUS_OVERFLOW = _STATUS_OVERFLOW

cdef enum:
    # most columns computed together in one pass over X
    BLOCK_MAX = 64
    # bytes of one tile of a block computation: its rows of X and the m
    # segments of columns they produce, meant to stay in the L1 cache
    TILE_BYTES = 32768
    TILE_DOUBLES = 4096
    # units of work (about a nanosecond each) between two checks for Ctrl-C
    SIGNAL_CHECK_WORK = 4000000

BLOCK_SIZE = BLOCK_MAX


cdef struct Block:
    # a block of Gram columns being computed
    Py_ssize_t m
    const Py_ssize_t *cols      # (m,) the rows of X whose columns these are
    double **out                # (m,) where the columns go (cache slots)
    const double *coefs         # (m,) their coefficients in F
    const double *BT            # (d, m) those rows, shifted and transposed
    const double *nb            # (m,) their shifted norms (rbf)
    const double *na            # (n,) every row's shifted norm (rbf)
    const double *shift         # (d,)
    double *F


cdef void _compute_rows(const ptn_simd *K, const KernelSpec *ks, const floating[:, ::1] X,
                        const Block *blk, Py_ssize_t k0, Py_ssize_t k1) noexcept nogil:
    """Rows [k0, k1) of the block's columns: out[q][k] = K(x_k, x_cols[q]),
    and F[k] += sum_q coefs[q] * out[q][k].

    Tile by tile (a few rows of X), the values are computed into a small
    buffer (rows x m, contiguous), finished and applied to F there while in
    the L1 cache, then stored into the columns.  (Working in the columns
    themselves, n doubles apart, made the whole fit up to 1.5x slower for
    some n: their segments collide in the cache's sets.)  A row's values and
    its update of F do not depend on [k0, k1), so splitting the rows among
    threads changes nothing.  Precomputed: read from the given matrix.
    """
    cdef Py_ssize_t d = X.shape[1], m = blk.m
    cdef Py_ssize_t tile = TILE_BYTES // (d * <Py_ssize_t>sizeof(floating) + m * 8)
    cdef Py_ssize_t t0, t1, r, q, rows
    cdef double buf[TILE_DOUBLES]
    cdef double *o
    # a multiple of 8 rows where there is room; the buffer holds
    # tile * m <= TILE_DOUBLES values
    tile = tile - tile % 8 if tile >= 8 else max(1, tile)
    t0 = k0
    while t0 < k1:
        t1 = min(k1, t0 + tile)
        rows = t1 - t0
        # the columns' lines are far apart and rarely cached: ask for them now,
        # so that they arrive while the tile is computed, not when stored to
        for q in range(m):
            ptn_prefetch_write_range(blk.out[q] + t0, rows * sizeof(double))
        if ks.kind == _KIND_PRECOMPUTED:
            for r in range(rows):
                for q in range(m):
                    buf[r * m + q] = X[t0 + r, blk.cols[q]]
        else:
            _block_values(K, ks, rows, d, &X[t0, 0], blk.shift, m, blk.BT, blk.na + t0,
                          blk.nb, buf)
        for r in range(rows):
            blk.F[t0 + r] += K.dot_f64(<size_t>m, buf + r * m, blk.coefs)
        for q in range(m):
            o = blk.out[q] + t0
            for r in range(rows):
                o[r] = buf[r * m + q]
        t0 = t1


cdef class _BlockJob:
    """A block of Gram columns for threads: ``run(k0, k1)`` computes and
    applies rows [k0, k1) without the GIL (``_compute_rows``)."""
    cdef const float[:, ::1] Xf
    cdef const double[:, ::1] Xd
    cdef bint is_f32
    cdef KernelSpec ks
    cdef Block blk
    cdef object runner          # runner(run, n_rows, work_per_row): the caller's threads

    def run(self, Py_ssize_t k0, Py_ssize_t k1):
        cdef const ptn_simd *K = active_simd()
        with nogil:
            if self.is_f32:
                _compute_rows(K, &self.ks, self.Xf, &self.blk, k0, k1)
            else:
                _compute_rows(K, &self.ks, self.Xd, &self.blk, k0, k1)


# ------------------------------------------------------------ the training loop

cdef struct DualFit:
    # parameters
    double eta
    bint fit_intercept
    bint shuffle
    Py_ssize_t max_iter
    Py_ssize_t max_sv           # 0: no budget
    Py_ssize_t block            # pending columns computed together, <= BLOCK_MAX
    int n_threads               # threads for a block (> 1: through s.job and the caller's runner)
    void *job                   # the _BlockJob of this fit (borrowed)
    void *on_epoch              # on_epoch(epoch, mistakes) after each epoch, or NULL (borrowed)
    double *BT                  # (d, block) the pending rows packed for dot_block
    double *nb                  # (block,)
    double *na                  # (n,) shifted norms of every row (rbf)
    double *shift               # (d,) the mean of X (rbf), else zeros
    # state
    double b
    double *F                   # (n,) sum_j c_j K(x_j, x_i) over applied terms
    int64_t *alpha              # (n,) mistake counts
    Py_ssize_t *pend_idx        # (block,) rows with a pending term
    double *pend_coef           # (block,)
    Py_ssize_t *pend_pos        # (n,) position in the pending block, -1 if none
    Py_ssize_t n_pend
    double pend_work            # pair evaluations spent on pending terms since the last flush
    Py_ssize_t *fifo            # (max_sv,) support vectors in order of entry (budget only)
    Py_ssize_t fifo_head
    Py_ssize_t n_sv
    double work                 # since the last check for Ctrl-C
    # results
    Py_ssize_t n_epochs
    Py_ssize_t n_updates
    Py_ssize_t n_removed
    bint converged
    int status
    Py_ssize_t bad_epoch


cdef int _run_block_on_threads(DualFit *s, const Block *blk, Py_ssize_t n,
                               Py_ssize_t d) except -1:
    cdef _BlockJob job = <_BlockJob>s.job
    job.blk = blk[0]
    job.runner(job.run, n, blk.m * (d + 2))
    return 0


cdef int _flush(const ptn_simd *K, const KernelSpec *ks, const floating[:, ::1] X,
                DualFit *s, GramCache *c) except -1 nogil:
    """Compute the pending columns together, cache them, apply them to F;
    on s.n_threads threads when there is enough work."""
    cdef Py_ssize_t n = X.shape[0], p, m = s.n_pend
    cdef double *cols[BLOCK_MAX]
    cdef Block blk
    if m == 0:
        return 0
    # the m <= capacity columns of this round must not evict one another
    c.round += 1
    for p in range(m):
        cols[p] = c.data + _cache_acquire(c, s.pend_idx[p]) * n
    if ks.kind != _KIND_PRECOMPUTED:
        _pack(ks, X, s.pend_idx, 0, m, s.shift, s.BT, s.nb)
    blk.m = m
    blk.cols = s.pend_idx
    blk.out = cols
    blk.coefs = s.pend_coef
    blk.BT = s.BT
    blk.nb = s.nb
    blk.na = s.na
    blk.shift = s.shift
    blk.F = s.F
    if s.n_threads > 1:
        with gil:
            _run_block_on_threads(s, &blk, n, X.shape[1])
    else:
        _compute_rows(K, ks, X, &blk, 0, n)
    for p in range(m):
        s.pend_pos[s.pend_idx[p]] = -1
    c.computed += m
    s.work += <double>m * n * (X.shape[1] + 2)
    s.n_pend = 0
    s.pend_work = 0.0
    return 0


cdef int _add_term(const ptn_simd *K, const KernelSpec *ks, const floating[:, ::1] X,
                   DualFit *s, GramCache *c, Py_ssize_t j, double coef) except -1 nogil:
    """Add coef * K(x_j, .) to the activations: at once from a cached column,
    else through the pending block."""
    cdef Py_ssize_t n = X.shape[0], slot = c.slot_of[j], p
    if slot >= 0:
        K.axpy_f64(<size_t>n, coef, c.data + slot * n, s.F)
        _cache_touch(c, slot)
        c.reused += 1
        s.work += n
        return 0
    p = s.pend_pos[j]
    if p >= 0:
        s.pend_coef[p] += coef
        return 0
    p = s.n_pend
    s.pend_idx[p] = j
    s.pend_coef[p] = coef
    s.pend_pos[j] = p
    s.n_pend += 1
    if s.n_pend == s.block:
        _flush(K, ks, X, s, c)
    return 0


cdef inline double _activation(const ptn_simd *K, const KernelSpec *ks,
                               const floating[:, ::1] X, DualFit *s, Py_ssize_t i) noexcept nogil:
    """F[i] + b + the pending terms, computed directly for row i."""
    cdef double a = s.F[i]
    cdef double v[BLOCK_MAX]
    cdef Py_ssize_t p, d = X.shape[1], m = s.n_pend
    if ks.kind == _KIND_PRECOMPUTED:
        for p in range(m):
            a += s.pend_coef[p] * X[i, s.pend_idx[p]]
    elif ks.kind == _KIND_RBF:
        # the distances first, then one exp over all of them (v[0] is set
        # only so that the compiler sees the buffer written when m is 0)
        v[0] = 0.0
        for p in range(m):
            v[p] = ks.neg_gamma * ksqdist(K, d, &X[i, 0], &X[s.pend_idx[p], 0])
        if m:
            K.exp_f64(<size_t>m, v, v)
        for p in range(m):
            a += s.pend_coef[p] * v[p]
    else:
        for p in range(m):
            a += s.pend_coef[p] * _finish(ks, kdot(K, d, &X[i, 0], &X[s.pend_idx[p], 0]))
    return a + s.b


cdef int _fit_dual(const floating[:, ::1] X, const signed char *y, const KernelSpec *ks,
                   DualFit *s, GramCache *c, ptrdiff_t *order, ptn_rng *rng,
                   int64_t *mistakes, double *loss) except -1 nogil:
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1]
    cdef Py_ssize_t epoch, k, i, j, m
    cdef double a, ya, step, removed, epoch_loss
    cdef double pair_cost = 1.0 if ks.kind == _KIND_PRECOMPUTED else <double>(d + 2)

    for epoch in range(s.max_iter):
        if s.shuffle:
            active_simd().shuffle(rng, order, <size_t>n)
        m = 0
        epoch_loss = 0.0
        for k in range(n):
            i = order[k]
            a = _activation(K, ks, X, s, i)
            s.pend_work += s.n_pend * pair_cost
            s.work += 1.0 + s.n_pend * pair_cost
            ya = y[i] * a
            # one test for "mistake" and "not finite": NaN and +inf fail it
            if not (0.0 < ya < HUGE_VAL):
                if not isfinite(a):
                    s.n_epochs = epoch + 1
                    s.status = _STATUS_OVERFLOW
                    s.bad_epoch = epoch
                    return 0
                if s.alpha[i] == 0:
                    if s.max_sv > 0 and s.n_sv == s.max_sv:
                        # over budget: the oldest support vector leaves first
                        j = s.fifo[s.fifo_head]
                        removed = s.eta * <double>s.alpha[j] * y[j]
                        _add_term(K, ks, X, s, c, j, -removed)
                        if s.fit_intercept:
                            s.b -= removed
                        s.alpha[j] = 0
                        s.fifo[s.fifo_head] = i
                        s.fifo_head = (s.fifo_head + 1) % s.max_sv
                        s.n_removed += 1
                    else:
                        if s.max_sv > 0:
                            s.fifo[(s.fifo_head + s.n_sv) % s.max_sv] = i
                        s.n_sv += 1
                step = s.eta * y[i]
                _add_term(K, ks, X, s, c, i, step)
                s.alpha[i] += 1
                if s.fit_intercept:
                    s.b += step
                epoch_loss -= ya
                m += 1
            # pending terms cost a pair evaluation per visit; once they have
            # cost as much as computing their columns would, compute them
            if s.n_pend and s.pend_work >= s.n_pend * n * pair_cost:
                _flush(K, ks, X, s, c)
            if s.work >= SIGNAL_CHECK_WORK:
                s.work = 0.0
                with gil:
                    PyErr_CheckSignals()
        mistakes[epoch] = m
        loss[epoch] = epoch_loss
        s.n_updates += m
        s.n_epochs = epoch + 1
        if s.on_epoch != NULL:  # the estimator's progress bar
            with gil:
                (<object>s.on_epoch)(epoch + 1, m)
        if not isfinite(s.b):
            s.status = _STATUS_OVERFLOW
            s.bad_epoch = epoch
            return 0
        if m == 0:
            s.converged = True
            break
    return 0


def fit_dual(const floating[:, ::1] X, const signed char[::1] y, *, int kind, double gamma,
             double coef0, int degree, double eta, bint fit_intercept, bint shuffle,
             Py_ssize_t max_iter, uint64_t seed, Py_ssize_t cache_columns,
             Py_ssize_t max_support_vectors=0, Py_ssize_t block=BLOCK_MAX, int n_threads=1,
             object runner=None, object on_epoch=None):
    """Train the dual perceptron on X (n, d) (precomputed: the Gram matrix
    (n, n)) with labels y in {-1, +1}.

    Epoch e visits the rows in the order of e + 1 successive Fisher-Yates
    shuffles of 0..n-1 drawn from SplitMix64(seed) when `shuffle`, else
    0..n-1 (the order ``perceptron.Perceptron`` uses for the same seed).
    `cache_columns` is the capacity of the Gram cache in columns (clamped to
    [1, n]); `block` the most pending columns computed together (clamped to
    [1, min(BLOCK_SIZE, capacity)]); `n_threads` the threads that compute a
    block, through `runner(run, n_rows, work_per_row)`, the caller's thread
    pool, which splits rows [0, n_rows) into chunks and calls run(k0, k1) on
    each (required when n_threads > 1; the loops take no threads of their
    own, so the pool stays the estimator's).  `on_epoch`, when given, is
    called with (epoch, mistakes) after each epoch, with the GIL.  Inputs are
    trusted: the caller validates shapes, values and labels.

    Returns a dict: the mistake counts ``alpha`` (n,), ``intercept``, epochs
    run, mistakes and summed perceptron loss per epoch, updates, support
    vectors removed by the budget, whether an epoch had no mistake, cache
    statistics, and a status.
    """
    cdef Py_ssize_t n = X.shape[0]
    if n == 0 or X.shape[1] == 0 or max_iter < 1 or y.shape[0] != n:
        raise ValueError("fit_dual: empty or inconsistent input, or max_iter < 1")
    if kind == _KIND_PRECOMPUTED and X.shape[1] != n:
        raise ValueError("fit_dual: a precomputed Gram matrix must be square")
    if kind < _KIND_LINEAR or kind > _KIND_PRECOMPUTED or max_support_vectors < 0:
        raise ValueError("fit_dual: bad kernel kind or budget")
    cdef Py_ssize_t capacity = max(1, min(cache_columns, n))
    block = max(1, min(block, BLOCK_MAX, capacity))
    cdef KernelSpec ks = _spec(kind, gamma, coef0, degree)

    # the cache: capacity * n doubles, the memory the caller budgeted
    data = np.empty(capacity * n, dtype=np.float64)
    slot_of = np.full(n, -1, dtype=np.intp)
    slots = np.full((5, capacity), -1, dtype=np.intp)
    cdef double[::1] data_v = data
    cdef Py_ssize_t[::1] slot_of_v = slot_of
    cdef Py_ssize_t[:, ::1] slots_v = slots
    cdef GramCache c
    _cache_init(&c, &data_v[0], n, capacity, &slot_of_v[0], &slots_v[0, 0])

    F = np.zeros(n, dtype=np.float64)
    alpha = np.zeros(n, dtype=np.int64)
    pend_idx = np.zeros(BLOCK_MAX, dtype=np.intp)
    pend_coef = np.zeros(BLOCK_MAX, dtype=np.float64)
    pend_pos = np.full(n, -1, dtype=np.intp)
    fifo = np.zeros(max(1, max_support_vectors), dtype=np.intp)
    cdef double[::1] F_v = F
    cdef int64_t[::1] alpha_v = alpha
    cdef Py_ssize_t[::1] pend_idx_v = pend_idx, pend_pos_v = pend_pos, fifo_v = fifo
    cdef double[::1] pend_coef_v = pend_coef
    cdef DualFit s
    s.eta = eta
    s.fit_intercept = fit_intercept
    s.shuffle = shuffle
    s.max_iter = max_iter
    s.max_sv = max_support_vectors
    s.block = block
    if n_threads > 1 and runner is None:
        raise ValueError("fit_dual: n_threads > 1 needs a runner")
    s.n_threads = max(1, n_threads)
    job = _BlockJob()
    job.runner = runner
    job.is_f32 = floating is float
    if floating is float:
        job.Xf = X
    else:
        job.Xd = X
    job.ks = ks
    s.job = <void *>job
    s.on_epoch = NULL if on_epoch is None else <void *>on_epoch
    # the block's packing space, and for rbf the mean of X and every row's
    # norm about it (the squared distances of a block are taken from them)
    d = X.shape[1]
    BT = np.zeros(d * BLOCK_MAX, dtype=np.float64)
    nb = np.zeros(BLOCK_MAX, dtype=np.float64)
    shift = (np.asarray(X).mean(axis=0, dtype=np.float64) if kind == _KIND_RBF
             else np.zeros(d, dtype=np.float64))
    na = np.zeros(n if kind == _KIND_RBF else 1, dtype=np.float64)
    cdef double[::1] BT_v = BT, nb_v = nb, shift_v = shift, na_v = na
    s.BT = &BT_v[0]
    s.nb = &nb_v[0]
    s.shift = &shift_v[0]
    s.na = &na_v[0]
    if kind == _KIND_RBF:
        with nogil:
            _row_norms(X, 0, n, s.shift, s.na)
    s.b = 0.0
    s.F = &F_v[0]
    s.alpha = &alpha_v[0]
    s.pend_idx = &pend_idx_v[0]
    s.pend_coef = &pend_coef_v[0]
    s.pend_pos = &pend_pos_v[0]
    s.n_pend = 0
    s.pend_work = 0.0
    s.fifo = &fifo_v[0]
    s.fifo_head = 0
    s.n_sv = 0
    s.work = 0.0
    s.n_epochs = 0
    s.n_updates = 0
    s.n_removed = 0
    s.converged = False
    s.status = _STATUS_OK
    s.bad_epoch = -1

    cdef ptn_rng rng
    cdef ptrdiff_t[::1] order = np.arange(n, dtype=np.intp)
    cdef int64_t[::1] mistakes = np.zeros(max_iter, dtype=np.int64)
    cdef double[::1] loss = np.zeros(max_iter, dtype=np.float64)
    ptn_rng_seed(&rng, seed)
    with nogil:
        _fit_dual(X, &y[0], &ks, &s, &c, &order[0], &rng, &mistakes[0], &loss[0])
    return {
        "alpha": alpha,
        "intercept": s.b,
        "n_epochs": s.n_epochs,
        "n_updates": s.n_updates,
        "n_removed": s.n_removed,
        "converged": bool(s.converged),
        "mistakes": np.asarray(mistakes[:s.n_epochs]).copy(),
        "loss": np.asarray(loss[:s.n_epochs]).copy(),
        "status": s.status,
        "bad_epoch": s.bad_epoch,
        "cache_capacity": capacity,
        "columns_computed": int(c.computed),
        "columns_reused": int(c.reused),
        "block": block,
    }


def _lru_trace(Py_ssize_t n, Py_ssize_t capacity, accesses):
    """Replay column requests through the Gram cache, one round each; return,
    for each, whether it was a hit, and the cached columns, protected then on
    probation, each from most to least recent.  For tests of the cache."""
    slot_of = np.full(n, -1, dtype=np.intp)
    slots = np.full((5, capacity), -1, dtype=np.intp)
    cdef Py_ssize_t[::1] so = slot_of
    cdef Py_ssize_t[:, ::1] sv = slots
    cdef GramCache c
    cdef Py_ssize_t j, s, g
    if capacity < 1 or n < 1:
        raise ValueError("n and capacity must be positive")
    _cache_init(&c, NULL, n, capacity, &so[0], &sv[0, 0])
    hits = []
    for j in accesses:
        if not 0 <= j < n:
            raise ValueError("column out of range")
        c.round += 1
        s = c.slot_of[j]
        if s >= 0:
            _cache_touch(&c, s)
            hits.append(True)
        else:
            _cache_acquire(&c, j)
            hits.append(False)
    order = []
    for g in (PROTECTED, PROBATION):
        s = c.head[g]
        while s >= 0:
            order.append(c.column_of[s])
            s = c.next[s]
    return hits, order

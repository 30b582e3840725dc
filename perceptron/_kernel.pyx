# cython: language_level=3
"""Typed loops of the kernel perceptron: kernel values, the Gram cache, the
dual training loop and scoring, all without the GIL.

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
- Columns live in an LRU cache of at most ``capacity`` columns (the memory
  budget).  When the whole Gram matrix fits, nothing is ever evicted.
- A mistake whose column is not cached is not applied to ``F`` at once: it
  waits in a small *pending* block (at most ``block`` rows), and every visit
  adds the pending terms ``c_p K(x_p, x_i)`` directly (the pending rows are
  few and stay in the CPU cache).  When the block is full, its columns are
  computed together, in one pass over the rows of X (each row of X read once
  for the whole block, instead of once per column), stored in the cache and
  applied to ``F``.  Computing one column at a time would stream all of X per
  mistake and be bound by memory bandwidth; a block makes it bound by
  arithmetic.
- The kernel value of a pair is computed by one code path everywhere (the
  SIMD kernels of ``perceptron._simd``: dot product, squared distance, exp),
  so a value does not depend on whether it came from the cache, a pending
  term or a fresh column; only the order of the sums in ``F`` does.

Budget (``max_support_vectors``): when a mistake would add a support vector
beyond the budget, the oldest support vector (the one that entered the set
first) is removed first, with its whole term ``c_j (K(x_j, .) + 1)`` (the
``+ 1`` being the bias, the weight of a constant feature): the removal step
of the Forgetron (Dekel, Shalev-Shwartz and Singer 2008), without its
shrinking.  It is applied like a mistake with the coefficient ``-c_j``.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite, tanh, HUGE_VAL
from libc.stdint cimport uint64_t, int64_t
from libc.stddef cimport ptrdiff_t
from cpython.exc cimport PyErr_CheckSignals

from perceptron._simd cimport ptn_kernels, active_kernels, kdot_rows, ksqdist_rows

cdef extern from "ptn_rng.h" nogil:
    ctypedef struct ptn_rng:
        uint64_t state
    void ptn_rng_seed(ptn_rng *r, uint64_t seed)
    void ptn_shuffle(ptn_rng *r, ptrdiff_t *order, size_t n)

cdef enum:
    _KIND_LINEAR = 0
    _KIND_POLY = 1
    _KIND_RBF = 2
    _KIND_SIGMOID = 3
    _KIND_PRECOMPUTED = 4

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
    # bytes of X rows in one tile of a block computation (stays in L1/L2)
    TILE_BYTES = 32768
    # units of work (about a nanosecond each) between two checks for Ctrl-C
    SIGNAL_CHECK_WORK = 4000000

BLOCK_SIZE = BLOCK_MAX


cdef struct KernelSpec:
    int kind
    double gamma
    double neg_gamma
    double coef0
    int degree


cdef KernelSpec _spec(int kind, double gamma, double coef0, int degree):
    cdef KernelSpec ks
    ks.kind = kind
    ks.gamma = gamma
    ks.neg_gamma = -gamma
    ks.coef0 = coef0
    ks.degree = degree
    return ks


cdef inline double _ipow(double v, int degree) noexcept nogil:
    """v**degree by repeated squaring: exact whenever the powers are (integers)."""
    cdef double result = 1.0
    while degree > 0:
        if degree & 1:
            result *= v
        degree >>= 1
        if degree:
            v *= v
    return result


cdef double _finish(const KernelSpec *ks, double v) noexcept nogil:
    """Kernel value from the pair's dot product (poly, sigmoid; linear: as is)."""
    if ks.kind == _KIND_POLY:
        return _ipow(ks.gamma * v + ks.coef0, ks.degree)
    if ks.kind == _KIND_SIGMOID:
        return tanh(ks.gamma * v + ks.coef0)
    return v


cdef inline void _base_rows(const ptn_kernels *K, const KernelSpec *ks, Py_ssize_t m,
                           Py_ssize_t d, const floating *A, Py_ssize_t lda, const floating *x,
                           double *out) noexcept nogil:
    """out[k]: the squared distance (rbf) or dot product (the others) of row k
    of A and x, for k < m.  The _rows kernels give a pair the same value
    whatever the rows around it, and the value is symmetric in the pair
    ((a - b)^2 and a*b are exact under exchange), so K(x_i, x_j) is one
    number wherever it is computed."""
    if ks.kind == _KIND_RBF:
        ksqdist_rows(K, m, d, A, lda, x, out)
    else:
        kdot_rows(K, m, d, A, lda, x, out)


cdef void _finish_values(const ptn_kernels *K, const KernelSpec *ks, Py_ssize_t n,
                         double *v) noexcept nogil:
    """Turn n base values into kernel values in place; rbf: exp(-gamma d2) by
    the SIMD exp kernel over the whole run, which gives each element the value
    a run of one would."""
    cdef Py_ssize_t k
    cdef double neg_gamma = ks.neg_gamma  # a local: v cannot alias it, so the loop vectorises
    if ks.kind == _KIND_RBF:
        for k in range(n):
            v[k] = neg_gamma * v[k]
        K.exp_f64(<size_t>n, v, v)
    elif ks.kind == _KIND_POLY or ks.kind == _KIND_SIGMOID:
        for k in range(n):
            v[k] = _finish(ks, v[k])


cdef inline double _pair(const ptn_kernels *K, const KernelSpec *ks, Py_ssize_t d,
                         const floating *x, const floating *z) noexcept nogil:
    cdef double v
    _base_rows(K, ks, 1, d, x, d, z, &v)
    _finish_values(K, ks, 1, &v)
    return v


# ------------------------------------------------------------ the Gram cache

cdef struct GramCache:
    double *data            # capacity columns of n values each
    Py_ssize_t n
    Py_ssize_t capacity
    Py_ssize_t used
    Py_ssize_t *slot_of     # (n,) slot of a column, -1 when not cached
    Py_ssize_t *column_of   # (capacity,) column held by a slot
    Py_ssize_t *prev        # (capacity,) LRU list, head = most recently used
    Py_ssize_t *next
    Py_ssize_t head
    Py_ssize_t tail
    int64_t computed        # columns computed (cache misses)
    int64_t reused          # updates served from a cached column (hits)


cdef inline void _lru_unlink(GramCache *c, Py_ssize_t s) noexcept nogil:
    if c.prev[s] >= 0:
        c.next[c.prev[s]] = c.next[s]
    else:
        c.head = c.next[s]
    if c.next[s] >= 0:
        c.prev[c.next[s]] = c.prev[s]
    else:
        c.tail = c.prev[s]


cdef inline void _lru_push_front(GramCache *c, Py_ssize_t s) noexcept nogil:
    c.prev[s] = -1
    c.next[s] = c.head
    if c.head >= 0:
        c.prev[c.head] = s
    c.head = s
    if c.tail < 0:
        c.tail = s


cdef inline void _cache_touch(GramCache *c, Py_ssize_t s) noexcept nogil:
    if c.head != s:
        _lru_unlink(c, s)
        _lru_push_front(c, s)


cdef Py_ssize_t _cache_acquire(GramCache *c, Py_ssize_t j) noexcept nogil:
    """A slot for column j (not cached): a free one, else the least recently
    used column's.  The caller fills it."""
    cdef Py_ssize_t s
    if c.used < c.capacity:
        s = c.used
        c.used += 1
    else:
        s = c.tail
        c.slot_of[c.column_of[s]] = -1
        _lru_unlink(c, s)
    c.column_of[s] = j
    c.slot_of[j] = s
    _lru_push_front(c, s)
    return s


cdef void _compute_columns(const ptn_kernels *K, const KernelSpec *ks,
                           const floating[:, ::1] X, const Py_ssize_t *cols,
                           double **out, Py_ssize_t m) noexcept nogil:
    """out[p][k] = K(x_k, x_cols[p]) for every row k and p < m, in one pass
    over X by tiles of rows (precomputed: the columns of the given matrix)."""
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1]
    cdef Py_ssize_t tile = max(8, TILE_BYTES // max(1, d * <Py_ssize_t>sizeof(floating)))
    cdef Py_ssize_t k0, k1, k, p
    cdef double *o
    if ks.kind == _KIND_PRECOMPUTED:
        for p in range(m):
            o = out[p]
            for k in range(n):
                o[k] = X[k, cols[p]]
        return
    k0 = 0
    while k0 < n:
        k1 = min(n, k0 + tile)
        for p in range(m):
            _base_rows(K, ks, k1 - k0, d, &X[k0, 0], d, &X[cols[p], 0], out[p] + k0)
        k0 = k1
    for p in range(m):
        _finish_values(K, ks, n, out[p])


# ------------------------------------------------------------ the training loop

cdef struct DualFit:
    # parameters
    double eta
    bint fit_intercept
    bint shuffle
    Py_ssize_t max_iter
    Py_ssize_t max_sv           # 0: no budget
    Py_ssize_t block            # pending columns computed together, <= BLOCK_MAX
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


cdef int _flush(const ptn_kernels *K, const KernelSpec *ks, const floating[:, ::1] X,
                DualFit *s, GramCache *c) except -1 nogil:
    """Compute the pending columns together, cache them, apply them to F."""
    cdef Py_ssize_t n = X.shape[0], p, m = s.n_pend
    cdef double *cols[BLOCK_MAX]
    if m == 0:
        return 0
    for p in range(m):
        cols[p] = c.data + _cache_acquire(c, s.pend_idx[p]) * n
    _compute_columns(K, ks, X, s.pend_idx, cols, m)
    for p in range(m):
        K.axpy_f64(<size_t>n, s.pend_coef[p], cols[p], s.F)
        s.pend_pos[s.pend_idx[p]] = -1
    c.computed += m
    s.work += <double>m * n * (X.shape[1] + 2)
    s.n_pend = 0
    s.pend_work = 0.0
    return 0


cdef int _add_term(const ptn_kernels *K, const KernelSpec *ks, const floating[:, ::1] X,
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


cdef inline double _activation(const ptn_kernels *K, const KernelSpec *ks,
                               const floating[:, ::1] X, DualFit *s, Py_ssize_t i) noexcept nogil:
    cdef double a = s.F[i]
    cdef Py_ssize_t p, d = X.shape[1]
    if ks.kind == _KIND_PRECOMPUTED:
        for p in range(s.n_pend):
            a += s.pend_coef[p] * X[i, s.pend_idx[p]]
    else:
        for p in range(s.n_pend):
            a += s.pend_coef[p] * _pair(K, ks, d, &X[i, 0], &X[s.pend_idx[p], 0])
    return a + s.b


cdef int _fit_dual(const floating[:, ::1] X, const signed char *y, const KernelSpec *ks,
                   DualFit *s, GramCache *c, ptrdiff_t *order, ptn_rng *rng,
                   int64_t *mistakes, double *loss) except -1 nogil:
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1]
    cdef Py_ssize_t epoch, k, i, j, m
    cdef double a, ya, step, removed, epoch_loss
    cdef double pair_cost = 1.0 if ks.kind == _KIND_PRECOMPUTED else <double>(d + 2)

    for epoch in range(s.max_iter):
        if s.shuffle:
            ptn_shuffle(rng, order, <size_t>n)
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
             Py_ssize_t max_support_vectors=0, Py_ssize_t block=BLOCK_MAX):
    """Train the dual perceptron on X (n, d) (precomputed: the Gram matrix
    (n, n)) with labels y in {-1, +1}.

    Epoch e visits the rows in the order of e + 1 successive Fisher-Yates
    shuffles of 0..n-1 drawn from SplitMix64(seed) when `shuffle`, else
    0..n-1 (the order ``perceptron.Perceptron`` uses for the same seed).
    `cache_columns` is the capacity of the Gram cache in columns (clamped to
    [1, n]); `block` the most pending columns computed together (clamped to
    [1, min(BLOCK_SIZE, capacity)]).  Inputs are trusted: the caller
    validates shapes, values and labels.

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
    lru = np.full((3, capacity), -1, dtype=np.intp)
    cdef double[::1] data_v = data
    cdef Py_ssize_t[::1] slot_of_v = slot_of
    cdef Py_ssize_t[:, ::1] lru_v = lru
    cdef GramCache c
    c.data = &data_v[0]
    c.n = n
    c.capacity = capacity
    c.used = 0
    c.slot_of = &slot_of_v[0]
    c.column_of = &lru_v[0, 0]
    c.prev = &lru_v[1, 0]
    c.next = &lru_v[2, 0]
    c.head = -1
    c.tail = -1
    c.computed = 0
    c.reused = 0

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


# ------------------------------------------------------------------ scoring

def decision_dual(const floating[:, ::1] X, const floating[:, ::1] SV, const double[:, ::1] coef,
                  const double[::1] intercept, double[:, ::1] out, *, int kind, double gamma,
                  double coef0, int degree):
    """out[t, e] = sum_j coef[e, j] K(SV[j], X[t]) + intercept[e] (shapes trusted).

    For each row the kernel values against every support vector are computed
    into a buffer (squared distances or dot products by the SIMD kernels, then
    exp or the polynomial over the whole buffer), and each class's score is
    one dot product with its coefficients.
    """
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t m = X.shape[0], d = X.shape[1], n_sv = SV.shape[0], n_est = coef.shape[0]
    cdef Py_ssize_t t, e
    cdef KernelSpec ks = _spec(kind, gamma, coef0, degree)
    if (SV.shape[1] != d or coef.shape[1] != n_sv or intercept.shape[0] != n_est
            or out.shape[0] != m or out.shape[1] != n_est or kind == _KIND_PRECOMPUTED):
        raise ValueError("decision_dual: inconsistent shapes or kernel")
    if m == 0:
        return
    if n_sv == 0:
        for t in range(m):
            for e in range(n_est):
                out[t, e] = intercept[e]
        return
    kbuf = np.empty(n_sv, dtype=np.float64)
    cdef double[::1] kb = kbuf
    with nogil:
        for t in range(m):
            _base_rows(K, &ks, n_sv, d, &SV[0, 0], d, &X[t, 0], &kb[0])
            _finish_values(K, &ks, n_sv, &kb[0])
            for e in range(n_est):
                out[t, e] = K.dot_f64(<size_t>n_sv, &coef[e, 0], &kb[0]) + intercept[e]


def decision_precomputed(const floating[:, ::1] G, const Py_ssize_t[::1] columns,
                         const double[:, ::1] coef, const double[::1] intercept,
                         double[:, ::1] out):
    """out[t, e] = sum_j coef[e, j] G[t, columns[j]] + intercept[e], summed in
    double (G: kernel values against the training rows; shapes trusted,
    columns in range)."""
    cdef Py_ssize_t m = G.shape[0], n_sv = columns.shape[0], n_est = coef.shape[0]
    cdef Py_ssize_t t, j, e
    cdef double acc
    if coef.shape[1] != n_sv or intercept.shape[0] != n_est or out.shape[0] != m \
            or out.shape[1] != n_est:
        raise ValueError("decision_precomputed: inconsistent shapes")
    for j in range(n_sv):
        if columns[j] < 0 or columns[j] >= G.shape[1]:
            raise ValueError("decision_precomputed: column index out of range")
    with nogil:
        for t in range(m):
            for e in range(n_est):
                acc = 0.0
                for j in range(n_sv):
                    acc += coef[e, j] * G[t, columns[j]]
                out[t, e] = acc + intercept[e]


def kernel_matrix(const floating[:, ::1] X, const floating[:, ::1] Y, *, int kind,
                  double gamma, double coef0, int degree):
    """The kernel matrix K[a, b] = K(X[a], Y[b]) (n_X, n_Y), float64, by the
    same code path as training and scoring (for tests and for users who want
    the Gram matrix of a kernel)."""
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t nx = X.shape[0], ny = Y.shape[0], d = X.shape[1], a
    cdef KernelSpec ks = _spec(kind, gamma, coef0, degree)
    if Y.shape[1] != d or kind == _KIND_PRECOMPUTED:
        raise ValueError("kernel_matrix: X and Y need the same number of columns")
    out = np.empty((nx, ny), dtype=np.float64)
    cdef double[:, ::1] o = out
    if nx == 0 or ny == 0:
        return out
    with nogil:
        for a in range(nx):
            _base_rows(K, &ks, ny, d, &Y[0, 0], d, &X[a, 0], &o[a, 0])
            _finish_values(K, &ks, ny, &o[a, 0])
    return out


def _lru_trace(Py_ssize_t n, Py_ssize_t capacity, accesses):
    """Replay column requests through the Gram cache; return, for each, whether
    it was a hit, and the cached columns from most to least recently used.
    For tests of the cache on its own."""
    data_slot_of = np.full(n, -1, dtype=np.intp)
    lru = np.full((3, capacity), -1, dtype=np.intp)
    cdef Py_ssize_t[::1] so = data_slot_of
    cdef Py_ssize_t[:, ::1] lv = lru
    cdef GramCache c
    cdef Py_ssize_t j, s
    c.data = NULL
    c.n = n
    c.capacity = capacity
    c.used = 0
    c.slot_of = &so[0]
    c.column_of = &lv[0, 0]
    c.prev = &lv[1, 0]
    c.next = &lv[2, 0]
    c.head = -1
    c.tail = -1
    hits = []
    for j in accesses:
        if not 0 <= j < n:
            raise ValueError("column out of range")
        s = c.slot_of[j]
        if s >= 0:
            _cache_touch(&c, s)
            hits.append(True)
        else:
            _cache_acquire(&c, j)
            hits.append(False)
    order = []
    s = c.head
    while s >= 0:
        order.append(c.column_of[s])
        s = c.next[s]
    return hits, order

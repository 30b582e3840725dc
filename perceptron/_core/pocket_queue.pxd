# Gallant's (1990) pocket with ratchet for the binary online epoch, its
# rescorings batched.
#
# The ratchet counts the training rows the current weights get right each
# time their run of right rows first outlasts the pocket's, and takes them
# into the pocket when the count beats the pocket's.  Each count is a read
# of X; over data larger than the caches, that read is the whole cost of a
# pocket fit (2,138 counts in 10 epochs of 200,000 x 100 float64 rows).
#
# The perceptron's own weights never depend on the pocket, so the counts can
# wait.  The queue keeps the weights that may need one: those whose run
# outlasted the pocket's run as it stood at the last decision.  A pending
# acceptance only raises the pocket's run, so the weights kept are a
# superset of those the ratchet would count.  Up to `cap` of them are
# counted together, in one read of X (the level's dots kernel scores each
# row against all of them, with the bits of the scan's activation), and
# then the ratchet decides on each, in their order, exactly as it would
# have one at a time: whether the run outlasted the pocket's run as it now
# is, at which run length, and whether the count beats the pocket's.  The
# queue is emptied before every return of the epoch, so the counts read the
# rows in the epoch's order, as the one-at-a-time counts did (a weighted
# count is a sum in that order).  Each count still stops once it cannot
# beat the pocket's count as it stood, which is never more than the
# pocket's count when the ratchet decides.

from cython cimport floating
from libc.stdint cimport int64_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport malloc
from libc.string cimport memcpy

from perceptron.simd cimport ptn_simd
from perceptron._core.rows cimport (Rows, DenseRows, row_dot, row_prefetch, row_prefetch_start,
                                    rows_xkind)
from perceptron._core cimport loop
from perceptron._core.loop cimport Model, Data, _weight, _ahead

cdef enum:
    # the most weights counted in one read of X
    POCKET_QUEUE_MAX = 32
    # X's bytes (as an epoch reads them) above which the queue counts
    # POCKET_BLOCK weights in one read of X.  Below, X stays in the caches,
    # a count costs its arithmetic alone, and weights counted as they come
    # by the scan's inlined loop (no queue: the ratchet as it always ran)
    # are never counted in vain.
    POCKET_CACHE_BYTES = 4194304
    POCKET_BLOCK = 16
    # the most bytes the queue's copies of the weights take when it is
    # sized by X (16 vectors of 131,072 float64 weights)
    POCKET_COPY_BYTES = 16777216


cdef struct QueuedRuns:
    # what the ratchet reads of the weights kept, the binary pocket's
    # (PocketQueue) or the multiclass one's (multinomial_pocket.pxd)
    Py_ssize_t cap              # weights counted together (1: one at a time, as it comes)
    Py_ssize_t count            # weights kept
    Py_ssize_t current          # the entry of the current weights, or -1
    int64_t run_init[POCKET_QUEUE_MAX]  # the run when they were kept
    int64_t run_end[POCKET_QUEUE_MAX]   # the run they reached (the current one still grows)
    double score[POCKET_QUEUE_MAX]      # their counts, once counted


cdef struct PocketQueue:
    QueuedRuns runs
    void *W                     # (cap, d) the weights kept, in their dtype
    double b[POCKET_QUEUE_MAX]
    double acts[POCKET_QUEUE_MAX]


cdef inline Py_ssize_t _queue_run(QueuedRuns *Q, Model *M, Py_ssize_t c) noexcept nogil:
    """c right rows in a row for the current weights: the run counters moved
    on, and the entry for the caller to fill with the current weights when
    their run first outlasts the pocket's (as it stood at the last
    decision), else -1."""
    cdef int64_t run0 = M.counters[loop.C_RUN]
    cdef Py_ssize_t q = -1
    if Q.current >= 0:
        Q.run_end[Q.current] = run0 + c
    elif not M.counters[loop.C_POCKET_CHECKED] and run0 + c > M.counters[loop.C_POCKET_RUN]:
        q = Q.count
        Q.run_init[q] = run0
        Q.run_end[q] = run0 + c
        Q.current = q
        Q.count += 1
    M.counters[loop.C_RUN] = run0 + c
    return q


cdef inline Py_ssize_t _queue_ratchet(QueuedRuns *Q, Model *M) noexcept nogil:
    """The ratchet on each entry counted, in their order, as the count of
    one weights at a time would have decided on it when it came: the
    pocket's count and run moved on for each entry that beats them (its
    run outlasted the pocket's run as it now is), the current weights
    marked as checked.  Returns the last entry taken into the pocket (the
    one whose weights the pocket ends with: the caller copies them), or -1;
    the queue is emptied."""
    cdef Py_ssize_t q, last = -1
    cdef int64_t pocket_run
    for q in range(Q.count):
        pocket_run = M.counters[loop.C_POCKET_RUN]
        if Q.run_end[q] <= pocket_run:
            continue  # its run never outlasted the pocket's: no count
        if Q.score[q] > M.pocket_score[0]:
            last = q
            M.pocket_score[0] = Q.score[q]
            # the run at the row where it first outlasted the pocket's
            M.counters[loop.C_POCKET_RUN] = max(Q.run_init[q] + 1, pocket_run + 1)
        if q == Q.current:
            M.counters[loop.C_POCKET_CHECKED] = 1
    Q.count = 0
    Q.current = -1
    return last


cdef inline void _queue_update(QueuedRuns *Q) noexcept nogil:
    """The weights changed: the entry kept for them, if any, has its whole run."""
    Q.current = -1


cdef inline void _queue_start(QueuedRuns *Q, Py_ssize_t cap) noexcept nogil:
    Q.cap = cap
    Q.count = 0
    Q.current = -1


cdef inline void _pocket_queue_count(const Rows *R, const floating *Wq, const Data *D,
                                     PocketQueue *Q, const ptn_simd *K,
                                     double bound) noexcept nogil:
    """Q.runs.score[c]: the weighted count of D.rows that entry c gets right (y*a
    > 0), the rows read once for all the entries, in D.rows' order.
    Unweighted, an entry's count stops (at a value <= bound) once the rows
    it got wrong leave at most `bound` rows that could be right, and the
    entry leaves the dot products; the read stops when every count has.
    Dense rows in the weights' dtype are scored by the level's dots kernel,
    each activation with the bits of the level's dot product (and so of the
    scan's); narrow rows and CSR rows by row_dot, one weight vector at a
    time, from the row the first one brought into the cache.

    Unweighted, a row adds one to the wrong count of each entry that gets
    it wrong, without a branch, and the counts are compared with the bound
    only when one of them may have reached it: each row adds at most one,
    so none can before `gap` more rows, the fewest any entry still needs.
    An entry that reaches the bound a few rows before it is tested has
    counted those rows in vain, no more; its score (the rows it got right,
    at most `bound`) only ever loses to the pocket's, whose count is at
    least `bound`.  An entry read to the end got right every row it did
    not get wrong."""
    cdef Py_ssize_t n = D.n_rows, k, c, j, live = Q.runs.count
    cdef Py_ssize_t ahead = _ahead(R, D, Wq)
    cdef Py_ssize_t entry[POCKET_QUEUE_MAX]     # the entries still counting
    cdef const floating *w[POCKET_QUEUE_MAX]    # and their weights,
    cdef double bias[POCKET_QUEUE_MAX]          # biases
    cdef Py_ssize_t wrong[POCKET_QUEUE_MAX]     # and rows wrong so far (unweighted)
    cdef Py_ssize_t need, gap, check = 0
    # the wrong rows that leave an entry no more than `bound` right ones
    cdef Py_ssize_t fatal = n + 1
    cdef ptrdiff_t i
    cdef double yi, s
    if ahead >= n:
        ahead = 0
    if D.sw == NULL and bound >= 0.0:
        fatal = n - <Py_ssize_t>bound   # n - wrong <= bound  <=>  wrong >= n - floor(bound)
    for c in range(Q.runs.count):
        Q.runs.score[c] = 0.0
        entry[c] = c
        w[c] = Wq + c * D.d
        bias[c] = Q.b[c]
        wrong[c] = 0
    for k in range(n):
        i = D.rows[k]
        if ahead and k + ahead < n:
            if k + 2 * ahead < n:
                row_prefetch_start(R, D.rows[k + 2 * ahead])
            row_prefetch(R, D.rows[k + ahead], Wq)
        if Rows is DenseRows and rows_xkind(R) == 0:
            if floating is float:
                K.dots_f32(<size_t>D.d, <const float *>R.X + i * D.d, <const float *const *>w,
                           <size_t>live, Q.acts)
            else:
                K.dots_f64(<size_t>D.d, <const double *>R.X + i * D.d, <const double *const *>w,
                           <size_t>live, Q.acts)
        else:
            for j in range(live):
                Q.acts[j] = row_dot(R, K, i, w[j])
        yi = D.y[i]
        if D.sw != NULL:
            s = D.sw[i]
            for j in range(live):
                if yi * (Q.acts[j] + bias[j]) > 0.0:
                    Q.runs.score[entry[j]] += s
            continue
        for j in range(live):
            # not (y*a > 0): NaN activations are wrong, as in the scan
            wrong[j] += not (yi * (Q.acts[j] + bias[j]) > 0.0)
        if k < check:
            continue
        # some entry may have reached the bound: drop those that have, and
        # find how many rows the others still need
        gap = n
        j = 0
        while j < live:
            need = fatal - wrong[j]
            if need <= 0:
                # it cannot beat the pocket: out of the dot products
                Q.runs.score[entry[j]] = <double>(k + 1 - wrong[j])
                live -= 1
                entry[j] = entry[live]
                w[j] = w[live]
                bias[j] = bias[live]
                wrong[j] = wrong[live]
                continue
            gap = min(gap, need)
            j += 1
        if live == 0:
            break
        check = k + gap
    if D.sw == NULL:
        for j in range(live):
            Q.runs.score[entry[j]] = <double>(n - wrong[j])


cdef inline void _pocket_queue_decide(const Rows *R, const floating *w, const Data *D, Model *M,
                                      PocketQueue *Q, const ptn_simd *K) noexcept nogil:
    """Count the weights kept, then the ratchet on each in order: as
    loop._pocket_correct_run would have decided on it when it came."""
    cdef Py_ssize_t q, d = M.d
    cdef const floating *Wq = <const floating *>Q.W
    if Q.runs.count == 0:
        return
    _pocket_queue_count(R, Wq, D, Q, K, M.pocket_score[0])
    q = _queue_ratchet(&Q.runs, M)
    if q >= 0:
        memcpy(M.PW, Wq + q * d, <size_t>d * sizeof(floating))
        M.pb[0] = Q.b[q]


cdef inline void _pocket_queue_run(const Rows *R, const floating *w, const Data *D, Model *M,
                                   PocketQueue *Q, Py_ssize_t c,
                                   const ptn_simd *K) noexcept nogil:
    """c right rows in a row for the current weights w: kept when their run
    outlasts the pocket's (as it stood at the last decision), counted when
    the queue is full."""
    cdef Py_ssize_t q = _queue_run(&Q.runs, M, c)
    if q >= 0:
        memcpy(<floating *>Q.W + q * M.d, w, <size_t>M.d * sizeof(floating))
        Q.b[q] = M.b[0]
    if Q.runs.count >= Q.runs.cap:
        _pocket_queue_decide(R, w, D, M, Q, K)


cdef inline Py_ssize_t pocket_queue_size(pocket_block, size_t x_bytes,
                                         size_t w_bytes) except -1:
    """How many candidate weights to count in one read of X: `pocket_block`
    when given (0 to POCKET_QUEUE_MAX), else 1 when X is no larger than
    POCKET_CACHE_BYTES, and POCKET_BLOCK when it is, or fewer when their
    copies would take more than POCKET_COPY_BYTES (wide weight vectors).
    0 or 1: no queue, each candidate counted as it comes by the scan
    (loop._pocket_correct_run)."""
    cdef Py_ssize_t cap
    if pocket_block is None:
        if x_bytes <= POCKET_CACHE_BYTES:
            return 1
        return min(<Py_ssize_t>POCKET_BLOCK, <Py_ssize_t>(POCKET_COPY_BYTES // max(w_bytes, 1)))
    cap = pocket_block
    if not 0 <= cap <= POCKET_QUEUE_MAX:
        raise ValueError(f"run_epochs: pocket_block must be in [0, {POCKET_QUEUE_MAX}], got {cap}")
    return cap


cdef inline PocketQueue *pocket_queue_start(PocketQueue *Q, Py_ssize_t cap,
                                            size_t w_bytes) except NULL:
    """Q made empty for `cap` weights, its room for them allocated (the
    caller frees Q.W)."""
    _queue_start(&Q.runs, cap)
    Q.W = malloc(<size_t>cap * w_bytes)
    if Q.W == NULL:
        raise MemoryError("run_epochs: no memory for the pocket's candidate weights")
    return Q

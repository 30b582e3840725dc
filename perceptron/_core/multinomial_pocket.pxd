# Gallant's (1990) pocket with ratchet for the multiclass online epoch
# (multinomial_epoch.pxd), its counts batched as the binary pocket's are
# (pocket_queue.pxd).
#
# A count asks, for every training row, whether its true class strictly
# beats every other class (k dot products a row); each is a read of X.  The
# multiclass weights never depend on the pocket, so the weights that may
# need a count (their run of right rows outlasted the pocket's run as it
# stood at the last decision: a superset of those the ratchet counts) are
# kept, up to `cap` of them, and counted in one read of X: each row is
# scored against every class of every weights kept (dense rows by one call
# of the level's dots kernel, which loads the row once for all of them),
# each activation with the bits of row_dot, and the class chosen in the
# order of the count of one weights at a time (loop._training_score_multi).
# Then
# the ratchet decides on each, in their order, as it would have when they
# came: whether the run outlasted the pocket's run as it now is, at which
# run length, and whether the count beats the pocket's.  The queue is
# emptied before every return of the epoch, so the counts read the rows in
# the epoch's order.  Each count stops once it cannot beat the pocket's
# count as it stood, which is never more than the pocket's when the ratchet
# decides.

from cython cimport floating
from libc.math cimport HUGE_VAL
from libc.stdint cimport int32_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from perceptron.simd cimport ptn_simd
from perceptron._core.rows cimport (Rows, DenseRows, rows_xkind, row_dot, row_prefetch,
                                    row_prefetch_start)
from perceptron._core.loop cimport Model, Data, _weight, _ahead
from perceptron._core.pocket_queue cimport (POCKET_QUEUE_MAX, QueuedRuns, _queue_run,
                                            _queue_ratchet, _queue_start)


cdef struct MultiPocketQueue:
    QueuedRuns runs             # the ratchet's view of the weights kept (pocket_queue.pxd)
    Py_ssize_t k                # classes: each entry is k x d weights and k biases
    void *W                     # (cap, k, d) the weights kept, in their dtype
    double *B                   # (cap, k) their biases
    Py_ssize_t wrong[POCKET_QUEUE_MAX]  # rows wrong so far


cdef inline void _multi_queue_count(const Rows *R, const floating *Wq, const Data *D,
                                    MultiPocketQueue *Q, const ptn_simd *K,
                                    double bound) noexcept nogil:
    """Q.runs.score[c]: the weighted count of D.rows whose true class entry c
    makes strictly win, the rows read once for all the entries, in D.rows'
    order.  Unweighted, an entry's count stops (at a value <= bound) once
    the rows it got wrong leave at most `bound` rows that could be right;
    the read stops when every count has.  Dense rows in the weights' dtype
    are scored against every class of every entry by one call of the
    level's dots kernel (each activation with the bits of the level's dot
    product, and so of row_dot); narrow and CSR rows by row_dot, from the
    row the first one brought into the cache."""
    cdef Py_ssize_t n = D.n_rows, kc = Q.k, d = D.d, r, c, j, m, live = Q.runs.count
    cdef Py_ssize_t ahead = _ahead(R, D, Wq)
    cdef Py_ssize_t entry[POCKET_QUEUE_MAX]     # the entries still counting
    # the class rows of the entries still counting, kc a entry, in entry's
    # order, and their activations (dense rows in the weights' dtype)
    cdef const floating **wp = NULL
    cdef double *acts = NULL
    cdef bint shared = False
    cdef const floating *w
    cdef const double *b
    cdef ptrdiff_t i
    cdef int32_t t
    cdef double at, best
    if ahead >= n:
        ahead = 0
    if Rows is DenseRows:
        if rows_xkind(R) == 0:
            wp = <const floating **>malloc(<size_t>(Q.runs.count * kc) * sizeof(floating *))
            acts = <double *>malloc(<size_t>(Q.runs.count * kc) * sizeof(double))
            shared = wp != NULL and acts != NULL
    for c in range(Q.runs.count):
        Q.runs.score[c] = 0.0
        Q.wrong[c] = 0
        entry[c] = c
        if shared:
            for m in range(kc):
                wp[c * kc + m] = Wq + (c * kc + m) * d
    for r in range(n):
        i = D.rows[r]
        if ahead and r + ahead < n:
            if r + 2 * ahead < n:
                row_prefetch_start(R, D.rows[r + 2 * ahead])
            row_prefetch(R, D.rows[r + ahead], Wq)
        t = D.t[i]
        if Rows is DenseRows:
            if shared:
                if floating is float:
                    K.dots_f32(<size_t>d, <const float *>R.X + i * d, <const float *const *>wp,
                               <size_t>(live * kc), acts)
                else:
                    K.dots_f64(<size_t>d, <const double *>R.X + i * d,
                               <const double *const *>wp, <size_t>(live * kc), acts)
        j = 0
        while j < live:
            c = entry[j]
            w = Wq + c * kc * d
            b = Q.B + c * kc
            # loop._training_score_multi's operations, in its order
            if shared:
                at = acts[j * kc + t] + b[t]
                best = -HUGE_VAL
                for m in range(kc):
                    if m != t:
                        best = max(best, acts[j * kc + m] + b[m])
            else:
                at = row_dot(R, K, i, w + t * d) + b[t]
                best = -HUGE_VAL
                for m in range(kc):
                    if m != t:
                        best = max(best, row_dot(R, K, i, w + m * d) + b[m])
            if at > best:
                Q.runs.score[c] += _weight(D, i)
            else:
                Q.wrong[c] += 1
                if D.sw == NULL and <double>(n - Q.wrong[c]) <= bound:
                    # it cannot beat the pocket: out of the count (the last
                    # entry takes its place, and its class rows theirs)
                    live -= 1
                    entry[j] = entry[live]
                    if shared:
                        for m in range(kc):
                            wp[j * kc + m] = wp[live * kc + m]
                            acts[j * kc + m] = acts[live * kc + m]
                    continue
            j += 1
        if live == 0:
            break
    free(wp)
    free(acts)


cdef inline void _multi_queue_decide(const Rows *R, const floating *W, const Data *D, Model *M,
                                     MultiPocketQueue *Q, const ptn_simd *K) noexcept nogil:
    """Count the weights kept, then the ratchet on each in order: as
    loop._pocket_step_correct would have decided on it when it came."""
    cdef Py_ssize_t q, size = Q.k * M.d
    cdef const floating *Wq = <const floating *>Q.W
    if Q.runs.count == 0:
        return
    _multi_queue_count(R, Wq, D, Q, K, M.pocket_score[0])
    q = _queue_ratchet(&Q.runs, M)
    if q >= 0:
        memcpy(M.PW, Wq + q * size, <size_t>size * sizeof(floating))
        memcpy(M.pb, Q.B + q * Q.k, <size_t>Q.k * sizeof(double))


cdef inline void _multi_queue_correct(const Rows *R, const floating *W, const Data *D, Model *M,
                                      MultiPocketQueue *Q, const ptn_simd *K) noexcept nogil:
    """A right row for the current weights W: kept when their run outlasts
    the pocket's (as it stood at the last decision), counted when the queue
    is full."""
    cdef Py_ssize_t size = Q.k * M.d
    cdef Py_ssize_t q = _queue_run(&Q.runs, M, 1)
    if q >= 0:
        memcpy(<floating *>Q.W + q * size, W, <size_t>size * sizeof(floating))
        memcpy(Q.B + q * Q.k, M.b, <size_t>Q.k * sizeof(double))
    if Q.runs.count >= Q.runs.cap:
        _multi_queue_decide(R, W, D, M, Q, K)


cdef inline MultiPocketQueue *multi_queue_start(MultiPocketQueue *Q, Py_ssize_t cap,
                                                Py_ssize_t k, size_t w_bytes) except NULL:
    """Q made empty for `cap` weights of k classes, `w_bytes` each (k x d
    weights), its room for them allocated (the caller frees Q.W and Q.B)."""
    _queue_start(&Q.runs, cap)
    Q.k = k
    Q.W = malloc(<size_t>cap * w_bytes)
    Q.B = <double *>malloc(<size_t>(cap * k) * sizeof(double))
    if Q.W == NULL or Q.B == NULL:
        raise MemoryError("run_epochs: no memory for the pocket's candidate weights")
    return Q

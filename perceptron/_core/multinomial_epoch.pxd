# The online epoch of the multiclass perceptron (Collins 2002; Crammer and
# Singer 2003): each row is scored against every class, and on a mistake
# (or a margin violation) the true class's weights move toward the row and
# the best-scoring other class's away from it.

from cython cimport floating
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport int32_t
from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport ptn_simd, active_simd
from perceptron._core.rows cimport (Rows, DenseRows, dense_row, dense_itemsize, row_dots,
                                    row_axpy, row_axpy_acc, row_prefetch, row_prefetch_start)
from perceptron._core.loop cimport (Params, Model, Epoch, Data, C_STEPS, STATUS_STOPPED,
                                    ptn_pair, ptn_rule_acts, ptn_rule_count, ptn_rule_multiclass,
                                    _set_nonfinite, _weight, _sqnorm,
                                    _check_signals, _ahead, _after_update_pocket,
                                    _pocket_step_correct)
from perceptron._core.prefetch cimport (ptn_prefetch_range_l1, PTN_PREFETCH_NEAR_ROWS,
                                        PTN_PREFETCH_NEAR_MAX_ROW_BYTES,
                                        OVR_L1_ONLY_MAX_ROW_BYTES)
from perceptron._core.multinomial_pocket cimport (MultiPocketQueue, _multi_queue_correct,
                                                  _multi_queue_decide)
from perceptron._core.pocket_queue cimport _queue_update


cdef inline int _epoch_multinomial(const Rows *R, floating *W, const Data *D, Model *M,
                                   const Params *P, Epoch *E, Py_ssize_t *countdown,
                                   Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the multiclass perceptron over D.rows; with the
    pocket's queue (multinomial_pocket.pxd), the weights it kept are
    counted and decided on before the epoch returns, whatever it returns
    (the next epoch reads the rows in another order)."""
    cdef int status
    if M.queue == NULL:
        return _epoch_multinomial_rows(R, W, D, M, P, E, countdown, check_every)
    try:
        status = _epoch_multinomial_rows(R, W, D, M, P, E, countdown, check_every)
    finally:
        _multi_queue_decide(R, W, D, M, <MultiPocketQueue *>M.queue, active_simd())
    return status


cdef inline int _epoch_multinomial_rows(const Rows *R, floating *W, const Data *D, Model *M,
                                        const Params *P, Epoch *E, Py_ssize_t *countdown,
                                        Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the multiclass perceptron over D.rows.

    A row takes k dot products, as in the one-vs-rest epoch
    (perceptron/_core/ovr_epoch.pyx), and its dense rows are asked for the
    same way when shuffled (perceptron/_core/prefetch.pxd): small ones into
    L1 alone a few rows ahead, larger ones into L2 far ahead and L1 near.
    Into L2 alone, 100,000 x 100 float64 rows, 10 classes, shuffled, took
    104-110 ms for 5 epochs; into L2 and L1, 77-93 ms (in order: 58-63 ms).
    The dense rows' k activations come from the level's dots_<type>, which
    reads the row once for all the classes (rows.pxd, row_dots)."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t d = D.d, n = D.n_rows, kc = M.k, k, j, r
    cdef Py_ssize_t ahead = _ahead(R, D, W)
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    if Rows is DenseRows:
        row_bytes = <size_t>d * dense_itemsize(R, sizeof(floating))
    cdef bint l1_only = (Rows is DenseRows and ahead < n and
                         row_bytes < OVR_L1_ONLY_MAX_ROW_BYTES)
    cdef bint near = (Rows is DenseRows and not l1_only and
                      row_bytes <= PTN_PREFETCH_NEAR_MAX_ROW_BYTES and
                      PTN_PREFETCH_NEAR_ROWS < ahead < n)
    cdef ptrdiff_t i
    cdef int32_t t
    cdef double best, diff, s, c
    cdef ptn_pair step
    cdef bint take
    if l1_only:
        ahead = min(ahead, <Py_ssize_t>PTN_PREFETCH_NEAR_ROWS)
    for k in range(n):
        i = D.rows[k]
        if k + ahead < n:
            if Rows is DenseRows and l1_only:
                ptn_prefetch_range_l1(dense_row(R, D.rows[k + ahead], sizeof(floating)),
                                      row_bytes)
            else:
                if k + 2 * ahead < n:
                    row_prefetch_start(R, D.rows[k + 2 * ahead])
                row_prefetch(R, D.rows[k + ahead], W)
                if Rows is DenseRows and near:
                    ptn_prefetch_range_l1(
                        dense_row(R, D.rows[k + PTN_PREFETCH_NEAR_ROWS], sizeof(floating)),
                        row_bytes)
        t = D.t[i]
        r = -1
        best = -HUGE_VAL
        row_dots(R, K, i, W, kc, M.b, M.acts)
        for j in range(kc):
            # the first other class of the largest activation
            take = j != t and (r < 0 or M.acts[j] > best)
            best = M.acts[j] if take else best
            r = j if take else r
        diff = M.acts[t] - best
        if ptn_rule_acts(&P.rule, diff):
            if not (isfinite(M.acts[t]) and isfinite(best)):
                _set_nonfinite(R, i, W, E)
                return 0
            s = _weight(D, i)
            ptn_rule_count(&P.rule, diff, s, &E.mistakes, &E.loss, &E.raw_loss)
            step = ptn_rule_multiclass(&P.rule, diff, _sqnorm(D, i), s)
            row_axpy(R, K, i, step.t, W + t * d)
            row_axpy(R, K, i, step.r, W + r * d)
            if P.fit_intercept:
                M.b[t] += step.t
                M.b[r] += step.r
            if P.average:
                c = <double>M.counters[C_STEPS]
                row_axpy_acc(R, K, i, step.t * c, M.U + t * d, W)
                row_axpy_acc(R, K, i, step.r * c, M.U + r * d, W)
                if P.fit_intercept:
                    M.ub[t] += step.t * c
                    M.ub[r] += step.r * c
            E.updates += 1
            if P.pocket:
                _after_update_pocket(M)
                if M.queue != NULL:
                    _queue_update(&(<MultiPocketQueue *>M.queue).runs)
        elif M.queue != NULL:
            _multi_queue_correct(R, W, D, M, <MultiPocketQueue *>M.queue, K)
        elif P.pocket:
            _pocket_step_correct(R, W, D, M, True, K)
        M.counters[C_STEPS] += 1
        if _check_signals(countdown, check_every, D):
            E.status = STATUS_STOPPED
            return 0
    return 0

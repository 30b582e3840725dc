# The binary online epoch over dense rows (and over CSR rows with the
# pocket): the kernels' scan (csrc/ptn_scan.h) runs through the rows the
# weights already get right, and the rule (csrc/ptn_update.h) acts on the
# rows it stops at; over dense rows without averaging, pocket or sample
# weights the scan makes the updates itself (scan_plain).  Over CSR rows
# without the pocket the whole epoch is csr_epoch.pxd's.

from cython cimport floating
from libc.math cimport isfinite
from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport ptn_simd, ptn_scan, ptn_plain, active_simd, sparse_dot_kernels
from perceptron._core.rows cimport (Rows, DenseRows, rows_xkind, row_dot, row_axpy, row_axpy_acc,
                                    row_prefetch, row_prefetch_start)
from perceptron._core cimport loop
from perceptron._core.loop cimport (Params, Model, Epoch, Data, ptn_step, ptn_rule_acts,
                                    ptn_binary_update, _sqnorm, _set_nonfinite, _weight,
                                    _check_signals, _ahead, _after_update_pocket,
                                    _pocket_correct_run, fast_path, PATH_PLAIN)
from perceptron._core.csr_epoch cimport _epoch_binary_csr, csr_epoch_reads
from perceptron._core.pocket_queue cimport (PocketQueue, _pocket_queue_run, _queue_update,
                                            _pocket_queue_decide)


cdef inline Py_ssize_t _scan(const Rows *R, floating *w, const Data *D, Model *M, const Params *P,
                             ptn_scan *S, const ptn_simd *K, Py_ssize_t k, Py_ssize_t stop,
                             Py_ssize_t ahead, double *act) noexcept nogil:
    """The first position in [k, stop) whose row needs an update (its
    activation in act[0]), or stop: the kernels' scan for dense rows
    (csrc/ptn_scan.h), the same test over sparse rows and over narrow rows
    meeting float64 weights (each widened as it is read) here."""
    cdef Py_ssize_t j
    cdef ptrdiff_t i
    cdef double a, ya
    if Rows is DenseRows:
        S.b = M.b[0]
        if floating is float:
            if rows_xkind(R):
                return <Py_ssize_t>K.nscan(rows_xkind(R), S, <size_t>k, <size_t>stop, act)
            return <Py_ssize_t>K.scan_f32(S, <size_t>k, <size_t>stop, act)
        else:
            if not rows_xkind(R):
                return <Py_ssize_t>K.scan_f64(S, <size_t>k, <size_t>stop, act)
    for j in range(k, stop):
        i = D.rows[j]
        if Rows is not DenseRows:
            if ahead and j + ahead < D.n_rows:
                if j + 2 * ahead < D.n_rows:
                    row_prefetch_start(R, D.rows[j + 2 * ahead])
                row_prefetch(R, D.rows[j + ahead], w)
        a = row_dot(R, K, i, w) + M.b[0]
        ya = D.y[i] * a
        if ptn_rule_acts(&P.rule, ya):
            act[0] = a
            return j
    return stop



cdef inline int _epoch_binary(const Rows *R, floating *w, const Data *D, Model *M, const Params *P,
                       Epoch *E, Py_ssize_t *countdown, Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary rule over D.rows; with the pocket's
    queue (pocket_queue.pxd), the weights it kept are counted and decided
    on before the epoch returns, whatever it returns (the next epoch reads
    the rows in another order)."""
    cdef int status
    if M.queue == NULL:
        return _epoch_binary_rows(R, w, D, M, P, E, countdown, check_every)
    try:
        status = _epoch_binary_rows(R, w, D, M, P, E, countdown, check_every)
    finally:
        _pocket_queue_decide(R, w, D, M, <PocketQueue *>M.queue, active_simd())
    return status


cdef inline int _epoch_binary_rows(const Rows *R, floating *w, const Data *D, Model *M,
                                   const Params *P, Epoch *E, Py_ssize_t *countdown,
                                   Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary rule over D.rows: CSR rows without the
    pocket in csr_epoch.pxd's loop, except binary rows with 16-bit indices
    beyond its plain loops (csr_epoch_reads), which this module's loop runs
    with the dot product that loop would take (the inline scalar one for
    rows it prefetches), for the same bits."""
    cdef const ptn_simd *dotk
    cdef Py_ssize_t ahead
    cdef int status
    if Rows is not DenseRows:
        if not P.pocket:
            ahead = _ahead(R, D, w) if P.shuffle else D.n_rows
            if csr_epoch_reads(R, D, P):
                return _epoch_binary_csr(R, w, D, M, P, E, countdown, check_every)
            if 0 < ahead < D.n_rows:
                dotk = R.dotk
                (<Rows *>R).dotk = sparse_dot_kernels(0)
                try:
                    status = _epoch_binary_scan(R, w, D, M, P, E, countdown, check_every)
                finally:
                    (<Rows *>R).dotk = dotk
                return status
    return _epoch_binary_scan(R, w, D, M, P, E, countdown, check_every)


cdef inline int _epoch_binary_scan(const Rows *R, floating *w, const Data *D, Model *M,
                                   const Params *P, Epoch *E, Py_ssize_t *countdown,
                                   Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary rule over D.rows, by the scan.

    The scan runs through the rows the weights already get right, up to the
    next row that needs an update; this loop handles that row and scans on.
    Stretches are cut at `countdown` rows so that Ctrl-C is checked as often
    as before."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t n = D.n_rows, k, j, stop
    # a shuffled order defeats the hardware prefetchers; in order they still
    # leave gaps on some CPUs (dense rows named a few KB ahead read 8-15%
    # faster in order on an Intel Xeon) and none on others (_ahead decides)
    cdef Py_ssize_t ahead = _ahead(R, D, w) if P.shuffle else n
    cdef ptrdiff_t i
    cdef double a = 0.0, ya
    cdef ptn_step st
    cdef ptn_scan S
    cdef ptn_plain plain
    # the plain rule over dense rows: the kernels' scan makes the updates
    # itself (csrc/ptn_scan.h, scan_plain), the same bits as the loop below
    cdef bint in_kernel = Rows is DenseRows and fast_path(P, D.sw != NULL) == PATH_PLAIN
    if floating is double:
        # narrow rows meeting float64 weights: the loop below, a row widened at a time
        in_kernel = in_kernel and not rows_xkind(R)
    if Rows is DenseRows:
        ahead = _ahead(R, D, w)
    if ahead >= n:
        ahead = 0
    if Rows is DenseRows:
        S.X = R.X
        S.d = <size_t>D.d
        S.rows = D.rows
        S.n_rows = <size_t>n
        S.ahead = <size_t>ahead
        # a step that reads the row's squared norm reads it at the row's
        # index, as scattered as the row in a shuffled order: prefetched
        # with the row (in order the hardware's prefetchers have it)
        S.by_row = D.sqnorm if in_kernel and P.shuffle else NULL
        S.y = D.y
        S.w = w
        S.margin = P.rule.margin
        plain.rule, plain.sqnorm, plain.fit_intercept = P.rule, D.sqnorm, P.fit_intercept
    k = 0
    while k < n:
        stop = min(n, k + max(countdown[0], 1))
        if in_kernel:
            S.b = M.b[0]
            plain.mistakes, plain.updates, plain.loss, plain.raw_loss = (E.mistakes, E.updates,
                                                                         E.loss, E.raw_loss)
            if floating is float:
                if rows_xkind(R):
                    j = <Py_ssize_t>K.nscan_plain(rows_xkind(R), &S, <size_t>k, <size_t>stop, &a,
                                                  &plain)
                else:
                    j = <Py_ssize_t>K.scan_plain_f32(&S, <size_t>k, <size_t>stop, &a, &plain)
            else:
                j = <Py_ssize_t>K.scan_plain_f64(&S, <size_t>k, <size_t>stop, &a, &plain)
            M.b[0] = plain.b
            E.mistakes, E.updates, E.loss, E.raw_loss = (plain.mistakes, plain.updates,
                                                         plain.loss, plain.raw_loss)
            # [k, j): steps, right or updated; j: a non-finite activation
            M.counters[loop.C_STEPS] += j - k
            countdown[0] -= j - k
            if j < stop:
                _set_nonfinite(R, D.rows[j], w, E)
                return 0
            k = j
        else:
            j = _scan(R, w, D, M, P, &S, K, k, stop, ahead, &a)
        if j > k:
            # the rows of [k, j) were right: steps for the averaging clock
            # and the pocket's run
            M.counters[loop.C_STEPS] += j - k
            if M.queue != NULL:
                _pocket_queue_run(R, w, D, M, <PocketQueue *>M.queue, j - k, K)
            elif P.pocket:
                _pocket_correct_run(R, w, D, M, j - k, False, K)
            countdown[0] -= j - k
        if j < stop:
            i = D.rows[j]
            ya = D.y[i] * a
            if not isfinite(a):
                _set_nonfinite(R, i, w, E)
                return 0
            st = ptn_binary_update(&P.rule, P.fit_intercept, P.average, ya, _weight(D, i),
                                   D.y[i], _sqnorm(D, i), <double>M.counters[loop.C_STEPS],
                                   M.b, M.ub, &E.mistakes, &E.updates, &E.loss, &E.raw_loss)
            row_axpy(R, K, i, st.step, w)
            if P.average:
                row_axpy_acc(R, K, i, st.acc, M.U, w)
            if P.pocket:
                _after_update_pocket(M)
                if M.queue != NULL:
                    _queue_update(&(<PocketQueue *>M.queue).runs)
            M.counters[loop.C_STEPS] += 1
            countdown[0] -= 1
            j += 1
        k = j
        if countdown[0] <= 0:
            countdown[0] = 1
            if _check_signals(countdown, check_every, D):
                E.status = loop.STATUS_STOPPED
                return 0
    return 0

# The binary online epoch over CSR rows without a pocket: the whole rule runs
# in C (csrc/ptn_csr_online.h, over the step of csrc/ptn_update.h), cut
# into stretches so that Ctrl-C is checked as usual.

from cython cimport floating
from libc.stdint cimport int64_t
from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport (ptn_simd, sparse_dot_kernels, ptn_sdot_f32_i32_fn,
                               ptn_sdot_f32_i64_fn, ptn_sdot_f64_i32_fn, ptn_sdot_f64_i64_fn)
from perceptron._core.rows cimport Rows, DenseRows, CsrRows32, CsrRows64
from perceptron._core.loop cimport (Params, Model, Epoch, Data, C_STEPS, STATUS_STOPPED, _ahead,
                                    _check_signals, _set_nonfinite)

cdef extern from "ptn_csr_online.h" nogil:
    ctypedef struct ptn_csr_online:
        const void *val
        const void *idx
        const void *ptr
        const ptrdiff_t *rows
        size_t n_rows
        size_t ahead
        const signed char *y
        const double *sw
        void *w
        double *b
        double *U
        double *ub
        double eta
        double margin
        int fit_intercept
        ptn_sdot_f32_i32_fn dot_f32_i32
        ptn_sdot_f32_i64_fn dot_f32_i64
        ptn_sdot_f64_i32_fn dot_f64_i32
        ptn_sdot_f64_i64_fn dot_f64_i64
        int64_t steps
        int64_t mistakes
        int64_t updates
        double loss
        double raw_loss
    size_t ptn_csr_online_f32_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_f32_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_f64_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_f64_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f32_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f32_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f64_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f64_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_ordered_f32_i32(ptn_csr_online *s, size_t start, size_t stop,
                                                double *act)
    size_t ptn_csr_online_plain_ordered_f32_i64(ptn_csr_online *s, size_t start, size_t stop,
                                                double *act)
    size_t ptn_csr_online_plain_ordered_f64_i32(ptn_csr_online *s, size_t start, size_t stop,
                                                double *act)
    size_t ptn_csr_online_plain_ordered_f64_i64(ptn_csr_online *s, size_t start, size_t stop,
                                                double *act)
    bint ptn_rows_identity(const ptrdiff_t *rows, size_t n)


cdef inline size_t _csr_online(const Rows *R, ptn_csr_online *C, const floating *w, size_t k,
                               size_t stop, double *act, bint plain, bint ordered) noexcept nogil:
    """ptn_csr_online[_plain[_ordered]]_<type>_<index> (csrc/ptn_csr_online.h)
    for these rows; the plain one when C has no sample weights, no averaging
    and no gathering dot product, and its ordered one for rows not
    prefetched that are 0, 1, 2, ... (it does not read rows[])."""
    if Rows is CsrRows32:
        if floating is float:
            if plain and ordered:
                return ptn_csr_online_plain_ordered_f32_i32(C, k, stop, act)
            if plain:
                return ptn_csr_online_plain_f32_i32(C, k, stop, act)
            return ptn_csr_online_f32_i32(C, k, stop, act)
        else:
            if plain and ordered:
                return ptn_csr_online_plain_ordered_f64_i32(C, k, stop, act)
            if plain:
                return ptn_csr_online_plain_f64_i32(C, k, stop, act)
            return ptn_csr_online_f64_i32(C, k, stop, act)
    elif Rows is CsrRows64:
        if floating is float:
            if plain and ordered:
                return ptn_csr_online_plain_ordered_f32_i64(C, k, stop, act)
            if plain:
                return ptn_csr_online_plain_f32_i64(C, k, stop, act)
            return ptn_csr_online_f32_i64(C, k, stop, act)
        else:
            if plain and ordered:
                return ptn_csr_online_plain_ordered_f64_i64(C, k, stop, act)
            if plain:
                return ptn_csr_online_plain_f64_i64(C, k, stop, act)
            return ptn_csr_online_f64_i64(C, k, stop, act)
    else:
        return stop


cdef inline int _epoch_binary_csr(const Rows *R, floating *w, const Data *D, Model *M, const Params *P,
                           Epoch *E, Py_ssize_t *countdown, Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary rule over CSR rows, without a pocket:
    the whole rule runs in ptn_csr_online (its updates included), cut into
    stretches of `countdown` rows so that Ctrl-C is checked as usual."""
    cdef Py_ssize_t n = D.n_rows, k, j, stop
    cdef Py_ssize_t ahead = _ahead(R, D, w) if P.shuffle else n
    cdef ptrdiff_t i
    cdef double a = 0.0
    cdef ptn_csr_online C
    cdef const ptn_simd *scalar = sparse_dot_kernels(0)
    cdef bint gather, plain, ordered
    if Rows is DenseRows:
        return 0
    else:
        if ahead >= n:
            ahead = 0
        C.val = R.val
        C.idx = R.idx
        C.ptr = R.ptr
        C.rows = D.rows
        C.n_rows = <size_t>n
        C.ahead = <size_t>ahead
        C.y = D.y
        C.sw = D.sw
        C.w = w
        C.b = M.b
        C.U = M.U if P.average else NULL
        C.ub = M.ub
        C.eta = P.eta
        C.margin = P.margin
        C.fit_intercept = P.fit_intercept
        # the inline scalar dot unless the rows' table is a gathering level's
        # and the rows come in order: rows prefetched in random order (ahead
        # > 0) arrive in L2, where a gather waits for its whole row before
        # the next can start, and the scalar loop overlaps them (synthetic
        # 500,000 x 2^18, 50 non-zeros a row, shuffled: 94 -> 56 ms an epoch)
        gather = R.dotk != scalar and ahead == 0
        C.dot_f32_i32 = R.dotk.sdot_f32_i32 if gather else NULL
        C.dot_f32_i64 = R.dotk.sdot_f32_i64 if gather else NULL
        C.dot_f64_i32 = R.dotk.sdot_f64_i32 if gather else NULL
        C.dot_f64_i64 = R.dotk.sdot_f64_i64 if gather else NULL
        plain = not gather and C.sw == NULL and C.U == NULL
        # rows that this call does not permute are most often 0, 1, 2, ...:
        # the ordered kernel then reads row k itself, without rows[k] in the
        # chain of loads that follows a mistake (one pass checks the order)
        ordered = D.in_order and ahead == 0 and ptn_rows_identity(D.rows, <size_t>n)
        k = 0
        while k < n:
            stop = min(n, k + max(countdown[0], 1))
            C.steps = M.counters[C_STEPS]
            C.mistakes = 0
            C.updates = 0
            C.loss = 0.0
            C.raw_loss = 0.0
            j = <Py_ssize_t>_csr_online(R, &C, w, <size_t>k, <size_t>stop, &a, plain, ordered)
            M.counters[C_STEPS] = C.steps
            E.mistakes += C.mistakes
            E.updates += C.updates
            E.loss += C.loss
            E.raw_loss += C.raw_loss
            countdown[0] -= j - k
            if j < stop:
                i = D.rows[j]
                _set_nonfinite(R, i, w, E)
                return 0
            k = j
            if countdown[0] <= 0:
                countdown[0] = 1
                if _check_signals(countdown, check_every, D):
                    E.status = STATUS_STOPPED
                    return 0
        return 0

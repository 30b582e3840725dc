# The binary online epoch over CSR rows without a pocket: the whole rule runs
# in C (csrc/ptn_csr_online.h, over the step of csrc/ptn_update.h), cut
# into stretches so that Ctrl-C is checked as usual.

from cython cimport floating
from libc.stdint cimport int64_t
from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport (ptn_simd, ptn_rule, sparse_dot_kernels, ptn_sdot_f32_i32_fn,
                               ptn_sdot_f32_i64_fn, ptn_sdot_f64_i32_fn, ptn_sdot_f64_i64_fn)
from perceptron._core.rows cimport Rows, DenseRows, CsrRows32, CsrRows64
from perceptron._core.loop cimport (Params, Model, Epoch, Data, C_STEPS, STATUS_STOPPED, _ahead,
                                    _check_signals, _set_nonfinite, fast_path, PATH_PLAIN)

cdef extern from "ptn_csr_online.h" nogil:
    ctypedef struct ptn_csr_online:
        const void *val
        size_t vstep
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
        ptn_rule rule
        const double *sqnorm
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
    size_t ptn_csr_online_f32_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_f32_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_f64_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_f64_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_f32_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_f32_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_f64_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_f64_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_ordered_f32_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_ordered_f32_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_ordered_f64_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_plain_ordered_f64_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f32_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f32_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f64_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f64_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f32_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f32_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f64_i32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f64_i64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f32_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f32_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f64_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_f64_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f32_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f32_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f64_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_ordered_f64_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_f32_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_f32_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_f64_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_f64_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_ordered_f32_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_ordered_f32_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_ordered_f64_u16_p32(ptn_csr_online *, size_t, size_t, double *)
    size_t ptn_csr_online_ones_gather_ordered_f64_u16_p64(ptn_csr_online *, size_t, size_t, double *)
    bint ptn_rows_identity(const ptrdiff_t *rows, size_t n)
    bint ptn_all_ones_f32(const float *v, size_t n)
    bint ptn_all_ones_f64(const double *v, size_t n)


ctypedef size_t (*csr_kernel)(ptn_csr_online *, size_t, size_t, double *) noexcept nogil

# which loop an epoch runs (csrc/ptn_csr_online.h)
cdef enum:
    CSR_ANY = 0         # sample weights, averaging or a gathering dot product
    CSR_PLAIN = 1       # none of these
    CSR_ONES = 2        # plain over values that are all 1.0


cdef inline csr_kernel _pick(int kind, bint ordered, csr_kernel any_, csr_kernel plain,
                             csr_kernel plain_ordered, csr_kernel ones,
                             csr_kernel ones_ordered) noexcept nogil:
    if kind == CSR_ONES:
        return ones_ordered if ordered else ones
    if kind == CSR_PLAIN:
        return plain_ordered if ordered else plain
    return any_


cdef inline csr_kernel _csr_kernel(const Rows *R, const floating *w, int kind,
                                   bint ordered) noexcept nogil:
    """ptn_csr_online[_plain|_ones][_ordered]_<type>_<index> for
    these rows and weights: `kind` as above, `ordered` for rows not
    prefetched that are 0, 1, 2, ... (those loops do not read rows[])."""
    if Rows is CsrRows32:
        if floating is float:
            return _pick(kind, ordered, ptn_csr_online_f32_i32, ptn_csr_online_plain_f32_i32,
                         ptn_csr_online_plain_ordered_f32_i32,
                         ptn_csr_online_ones_f32_i32, ptn_csr_online_ones_ordered_f32_i32)
        else:
            return _pick(kind, ordered, ptn_csr_online_f64_i32, ptn_csr_online_plain_f64_i32,
                         ptn_csr_online_plain_ordered_f64_i32,
                         ptn_csr_online_ones_f64_i32, ptn_csr_online_ones_ordered_f64_i32)
    elif Rows is CsrRows64:
        if floating is float:
            return _pick(kind, ordered, ptn_csr_online_f32_i64, ptn_csr_online_plain_f32_i64,
                         ptn_csr_online_plain_ordered_f32_i64,
                         ptn_csr_online_ones_f32_i64, ptn_csr_online_ones_ordered_f32_i64)
        else:
            return _pick(kind, ordered, ptn_csr_online_f64_i64, ptn_csr_online_plain_f64_i64,
                         ptn_csr_online_plain_ordered_f64_i64,
                         ptn_csr_online_ones_f64_i64, ptn_csr_online_ones_ordered_f64_i64)
    else:
        return NULL


cdef inline csr_kernel _pick16(bint gather, bint ordered, csr_kernel any_order,
                              csr_kernel in_order, csr_kernel gathering,
                              csr_kernel gathering_in_order) noexcept nogil:
    if gather:
        return gathering_in_order if ordered else gathering
    return in_order if ordered else any_order


cdef inline csr_kernel _csr_kernel16(const Rows *R, const floating *w, bint ordered,
                                     bint gather) noexcept nogil:
    """ptn_csr_online_ones[_gather][_ordered]_<type>_u16_p<pointers>: the
    plain rule over binary rows with 16-bit indices (the only loops that
    read them); _gather where the level's gathering dot product sums the
    rows (in order, weights beyond L1: the C.dot_* fields set)."""
    if Rows is CsrRows32:
        if floating is float:
            return _pick16(gather, ordered, ptn_csr_online_ones_f32_u16_p32,
                           ptn_csr_online_ones_ordered_f32_u16_p32,
                           ptn_csr_online_ones_gather_f32_u16_p32,
                           ptn_csr_online_ones_gather_ordered_f32_u16_p32)
        else:
            return _pick16(gather, ordered, ptn_csr_online_ones_f64_u16_p32,
                           ptn_csr_online_ones_ordered_f64_u16_p32,
                           ptn_csr_online_ones_gather_f64_u16_p32,
                           ptn_csr_online_ones_gather_ordered_f64_u16_p32)
    elif Rows is CsrRows64:
        if floating is float:
            return _pick16(gather, ordered, ptn_csr_online_ones_f32_u16_p64,
                           ptn_csr_online_ones_ordered_f32_u16_p64,
                           ptn_csr_online_ones_gather_f32_u16_p64,
                           ptn_csr_online_ones_gather_ordered_f32_u16_p64)
        else:
            return _pick16(gather, ordered, ptn_csr_online_ones_f64_u16_p64,
                           ptn_csr_online_ones_ordered_f64_u16_p64,
                           ptn_csr_online_ones_gather_f64_u16_p64,
                           ptn_csr_online_ones_gather_ordered_f64_u16_p64)
    else:
        return NULL


cdef inline bint csr_epoch_reads(const Rows *R, const Data *D, const Params *P) noexcept nogil:
    """Whether _epoch_binary_csr runs these rows: every CSR row but binary
    rows with 16-bit indices, which it runs under the plain rule alone (in
    any order, at any level); the scan loop of binary_epoch.pxd takes the
    others."""
    if Rows is DenseRows:
        return False
    else:
        if R.idx16 == NULL:
            return True
        return fast_path(P, D.sw != NULL) == PATH_PLAIN


cdef inline bint _values_all_one(const Rows *R, const floating *w, Py_ssize_t n) noexcept nogil:
    """Whether every value of the n rows of R is 1.0 (w only names the type)."""
    if Rows is DenseRows:
        return False
    elif R.vstep == 0:  # binary rows: their values are not stored, all ones
        return True
    elif floating is float:
        return ptn_all_ones_f32(<const float *>R.val, <size_t>R.ptr[n])
    else:
        return ptn_all_ones_f64(<const double *>R.val, <size_t>R.ptr[n])


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
    cdef int kind
    cdef csr_kernel kernel
    if Rows is DenseRows:
        return 0
    else:
        if ahead >= n:
            ahead = 0
        C.val = R.val
        C.vstep = <size_t>R.vstep
        C.idx = R.idx if R.idx16 == NULL else <const void *>R.idx16
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
        C.rule = P.rule
        C.sqnorm = D.sqnorm
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
        plain = not gather and fast_path(P, C.sw != NULL) == PATH_PLAIN
        # rows that this call does not permute are most often 0, 1, 2, ...:
        # the ordered kernel then reads row k itself, without rows[k] in the
        # chain of loads that follows a mistake (one pass checks the order)
        ordered = D.in_order and ahead == 0 and ptn_rows_identity(D.rows, <size_t>n)
        # indicator features (every value 1.0) take the loops that do not
        # read the values, asked once for the rows of a call of two epochs or
        # more (R.ones -1; 0 in other calls): one pass, 88 us inside an a9a
        # fit, then 60 us less an epoch; other data is most often found out
        # in its first values
        if plain and R.ones < 0:
            (<Rows *>R).ones = _values_all_one(R, w, D.n)
        kind = (CSR_ONES if R.ones == 1 else CSR_PLAIN) if plain else CSR_ANY
        kernel = _csr_kernel(R, w, kind, ordered) if R.idx16 == NULL else \
            _csr_kernel16(R, w, ordered, gather)
        k = 0
        while k < n:
            stop = min(n, k + max(countdown[0], 1))
            C.steps = M.counters[C_STEPS]
            C.mistakes = 0
            C.updates = 0
            C.loss = 0.0
            C.raw_loss = 0.0
            j = <Py_ssize_t>kernel(&C, <size_t>k, <size_t>stop, &a)
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

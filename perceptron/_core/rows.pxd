# Row access for the training and scoring loops: one loop body serves dense
# rows and CSR rows (int32 or int64 indices), chosen at compile time through
# the fused type `Rows`, in float32 or float64 through `floating`.
#
# Dense rows go to the dense kernels (kdot, kaxpy); CSR rows to the sparse
# ones (csrc/ptn_simd.h: sdot, saxpy).  Dense rows stored narrower than
# their float32 weights (float16, bfloat16, int8, uint8: DenseRows.xkind)
# go to the narrow kernels (csrc/ptn_narrow.h: ndot, naxpy, ...), which
# read them as stored and give the bits of the float32 kernels on the rows
# converted.  Narrow rows meeting float64 weights (asked for by the
# estimator's `dtype`) are widened a row at a time, as each is read, into a
# float64 row of scratch (DenseRows.wide, O(d)), which the float64 kernels
# then read: every narrow value is a float64 exactly, so the bits are those
# of the float64 kernels on the rows converted, and X is never copied.
# The loops trust their inputs: the
# Python layer checked that every index is in [0, d), that the row pointers
# rise from 0 to nnz and that no row repeats a column.
#
# Binary CSR rows (every stored value 1: one-hot categories, hashed presence
# features) are stored as their indices alone.  The loops read them through
# the same CSR row types with `vstep` 0: every row's values are then the
# first values of one short array of ones, as long as the longest row (O(d)
# memory, in L1 for rows of tens of non-zeros), so that every kernel sums
# and updates exactly as it does over the rows with their values stored,
# and gives the same bits, while the epochs read half the bytes or less.

from cython cimport floating
from libc.math cimport isfinite
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int32_t, int64_t, uint16_t
from libc.stdlib cimport malloc, free
from libc.math cimport NAN

from perceptron.simd cimport (ptn_simd, kdot, kaxpy, kaxpy_acc, sparse_dot_kernels, PTN_X_F16,
                              PTN_X_BF16, PTN_X_I8, PTN_X_U8)
from perceptron._core.buffers cimport buffer_data, BUF_FLOAT, BUF_UNSIGNED
from perceptron._core.prefetch cimport (ptn_prefetch_range, PREFETCH_MAX_ROWS,
                                   PREFETCH_MAX_CSR_ROWS)


cdef struct DenseRows:
    const void *X               # (n, d), C order, in the data's dtype
    Py_ssize_t d
    int xkind                   # 0: X in the weights' dtype; else PTN_X_F16, ... (float32 weights,
                                # or float64 ones with `wide`)
    double *wide                # float64 weights over narrow rows: d doubles of scratch
                                # (wide_row); else NULL


cdef inline int narrow_kind(dtype) except -1:
    """The narrow kind (PTN_X_F16, ...) of a dtype whose rows the narrow
    kernels read as stored, or 0: float16, bfloat16 (ml_dtypes), int8,
    uint8."""
    if dtype.itemsize > 2:  # float32 and float64 rows answer before dtype.name,
        return 0            # a property that builds its string on every call
    name = dtype.name
    if name == "float16":
        return PTN_X_F16
    if name == "bfloat16" and dtype.itemsize == 2:
        return PTN_X_BF16
    if name == "int8":
        return PTN_X_I8
    if name == "uint8":
        return PTN_X_U8
    return 0


cdef inline int dense_rows(DenseRows *R, X, Py_ssize_t *shape) except -1:
    """R over the C-contiguous 2-D array X (its shape into shape[0:2]);
    returns the bytes of the weights' items: 8 for float64, 4 for float32
    and for the narrow dtypes (whose weights are float32: the bytes are
    read through an unsigned view of X, which shares its memory)."""
    cdef int kind = narrow_kind(X.dtype)
    if kind:
        R.X = buffer_data(X.view("u%d" % X.dtype.itemsize), BUF_UNSIGNED, X.dtype.itemsize, 2,
                          False, shape, "X")
    else:
        R.X = buffer_data(X, BUF_FLOAT, 4 if X.dtype.itemsize == 4 else 8, 2, False, shape, "X")
    R.xkind = kind
    R.d = shape[1]
    R.wide = NULL
    return 8 if kind == 0 and X.dtype.itemsize == 8 else 4


cdef inline size_t dense_itemsize(const DenseRows *R, size_t weight_size) noexcept nogil:
    """Bytes of one element of R's rows: the weights' (weight_size), or the
    narrow kind's."""
    # float64 weights read float64 rows (narrow rows meeting them are read
    # through wide_row, whose addresses are dense_row(R, i, 4)'s): a
    # constant once inlined, so the float64 loops never read R.xkind here.
    # Read at run time there, it made shuffled one-vs-rest and multinomial
    # float64 epochs 15-20% slower.
    if weight_size == 8 or R.xkind == 0:
        return weight_size
    return 2 if R.xkind == PTN_X_F16 or R.xkind == PTN_X_BF16 else 1


cdef inline const void *dense_row(const DenseRows *R, ptrdiff_t i, size_t weight_size) noexcept nogil:
    """The address of row i of R."""
    return <const char *>R.X + <size_t>i * <size_t>R.d * dense_itemsize(R, weight_size)


cdef inline int dense_rows_for(DenseRows *R, X, Py_ssize_t *shape,
                               size_t weight_bytes) except -1:
    """dense_rows for weights of `weight_bytes` (4 or 8) a number: narrow
    rows meeting float64 weights get R.wide, the float64 row of scratch
    (d doubles) wide_row fills (the caller frees it: free(R.wide)), and 8 is returned."""
    cdef int size = dense_rows(R, X, shape)
    if R.xkind and weight_bytes == 8:
        R.wide = <double *>malloc(<size_t>max(R.d, 1) * sizeof(double))
        if R.wide == NULL:
            raise MemoryError()
        return 8
    return size


cdef extern from *:
    """
    /* Narrow row x of `kind` into the float64 row out: -0.0 + 1.0 * x_j by
     * the level's naxpy_f64 (its conversion to float32, exact for every
     * narrow kind, then a float64 multiply-add, exact: -0.0 is the sum's
     * identity, so x_j's bits come out, zeros' signs included).  Out of
     * line: inlined into every float64 row operation, it made the float64
     * rows' multinomial epochs slower. */
    #if defined(_MSC_VER) && !defined(__clang__)
    static __declspec(noinline) void
    #else
    static __attribute__((noinline, unused)) void
    #endif
    ptn_widen_row(const ptn_simd *K, int kind, size_t d, const void *x, double *out)
    {
        size_t j;
        for (j = 0; j < d; j++) {
            out[j] = -0.0;
        }
        K->naxpy_f64(kind, d, 1.0, x, out);
    }
    """
    void ptn_widen_row(const ptn_simd *K, int kind, size_t d, const void *x,
                       double *out) noexcept nogil


cdef inline const double *wide_row(const DenseRows *R, const ptn_simd *K,
                                   ptrdiff_t i) noexcept nogil:
    """Row i of narrow rows R (R.wide set) in float64, in R.wide
    (ptn_widen_row)."""
    ptn_widen_row(K, R.xkind, <size_t>R.d, dense_row(R, i, 4), R.wide)
    return R.wide

cdef struct CsrRows32:
    const void *val             # nnz values, in the data's dtype
    const int32_t *idx          # their columns
    const int32_t *ptr          # row i is [ptr[i], ptr[i + 1])
    Py_ssize_t d
    const ptn_simd *dotk     # the table whose sdot reads the weights (see row_kernels)
    int ones                    # every value is 1.0: 1; not, or not to be asked: 0; not yet known: -1
    Py_ssize_t vstep            # row i's values start at val + ptr[i] * vstep: 1, or 0 for binary rows
    const uint16_t *idx16       # 16-bit column indices (binary rows; idx unused), or NULL


cdef struct CsrRows64:
    const void *val
    const int64_t *idx
    const int64_t *ptr
    Py_ssize_t d
    const ptn_simd *dotk
    int ones
    Py_ssize_t vstep
    const uint16_t *idx16


cdef inline void csr_rows32(CsrRows32 *R, const void *val, const int32_t[::1] indices,
                            const int32_t[::1] indptr, Py_ssize_t d, size_t weight_bytes) noexcept:
    """R from checked CSR arrays with int32 indices: `val` the values (NULL
    when there are none), weights of `weight_bytes` (which sdot reads them,
    ptn_simd.h).  A matrix without stored values has no value or index to
    point at: the row pointers stand in, an address the loops never read
    through (every row is empty)."""
    R.val = val if val != NULL else <const void *>&indptr[0]
    R.idx = &indices[0] if indices.shape[0] else &indptr[0]
    R.ptr = &indptr[0]
    R.d = d
    R.dotk = sparse_dot_kernels(weight_bytes)
    R.ones = -1
    R.vstep = 1
    R.idx16 = NULL


cdef inline void csr_rows64(CsrRows64 *R, const void *val, const int64_t[::1] indices,
                            const int64_t[::1] indptr, Py_ssize_t d, size_t weight_bytes) noexcept:
    """As csr_rows32, with int64 indices."""
    R.val = val if val != NULL else <const void *>&indptr[0]
    R.idx = &indices[0] if indices.shape[0] else &indptr[0]
    R.ptr = &indptr[0]
    R.d = d
    R.dotk = sparse_dot_kernels(weight_bytes)
    R.ones = -1
    R.vstep = 1
    R.idx16 = NULL


cdef enum:
    # the longest row whose 16-bit indices the loops widen on the stack (8 KB
    # at most); the Python layer gives longer rows int32 indices instead
    ROW_IDX16_MAX = 1024


cdef inline Py_ssize_t longest_row(indptr) except -1:
    """The most values a row of the CSR row pointers `indptr` holds."""
    cdef const int32_t[::1] p32
    cdef const int64_t[::1] p64
    cdef Py_ssize_t i, m = 0
    if indptr.dtype.itemsize == 4:
        p32 = indptr
        with nogil:
            for i in range(p32.shape[0] - 1):
                m = max(m, <Py_ssize_t>(p32[i + 1] - p32[i]))
    else:
        p64 = indptr
        with nogil:
            for i in range(p64.shape[0] - 1):
                m = max(m, <Py_ssize_t>(p64[i + 1] - p64[i]))
    return m


cdef inline bint csr_rows(CsrRows32 *R32, CsrRows64 *R64, const void *val, indices, indptr,
                          Py_ssize_t d, size_t weight_bytes, Py_ssize_t binary_values=-1) except -1:
    """The one dispatch on a CSR matrix's index type: fills R32 and returns
    True for int32 indices and row pointers, fills R64 and returns False for
    int64 ones (the only two the Python layer lets through).  The caller
    passes &R32 or &R64 on to a loop instantiated for both.

    Binary rows (their values not stored): `binary_values` >= 0 is the
    length of the array of ones at `val` that stands for every row's values
    (perceptron._core.csr.loop_values makes it); refused when some row is
    longer."""
    cdef const uint16_t[::1] i16
    cdef Py_ssize_t longest = longest_row(indptr) if binary_values >= 0 else 0
    if binary_values >= 0 and longest > binary_values:
        raise ValueError("binary CSR rows: the array of ones is shorter than the longest row")
    if indices.dtype.itemsize == 2:
        # 16-bit indices: binary rows of at most ROW_IDX16_MAX values (the
        # Python layer keeps them so), widened a row at a time (row_indices)
        if binary_values < 0 or longest > ROW_IDX16_MAX or indices.dtype.kind != "u":
            raise ValueError("CSR rows with 16-bit indices must be binary, of at most "
                             f"{ROW_IDX16_MAX} values a row")
        i16 = indices
        if indptr.dtype.itemsize == 4:
            csr_rows32(R32, val, indptr[:0], indptr, d, weight_bytes)
            R32.idx16 = &i16[0] if i16.shape[0] else NULL
            R32.vstep, R32.ones = 0, 1
            return True
        csr_rows64(R64, val, indptr[:0], indptr, d, weight_bytes)
        R64.idx16 = &i16[0] if i16.shape[0] else NULL
        R64.vstep, R64.ones = 0, 1
        return False
    if indices.dtype.itemsize == 4:
        csr_rows32(R32, val, indices, indptr, d, weight_bytes)
        if binary_values >= 0:
            R32.vstep = 0
            R32.ones = 1
        return True
    csr_rows64(R64, val, indices, indptr, d, weight_bytes)
    if binary_values >= 0:
        R64.vstep = 0
        R64.ones = 1
    return False


ctypedef fused Rows:
    DenseRows
    CsrRows32
    CsrRows64


cdef inline const void *row_values(const Rows *R, Py_ssize_t lo, size_t itemsize) noexcept nogil:
    """The address of the values of the CSR row that starts at lo."""
    if Rows is DenseRows:
        return R.X
    else:
        return <const char *>R.val + <size_t>(lo * R.vstep) * itemsize


cdef inline const void *row_indices(const Rows *R, Py_ssize_t lo, Py_ssize_t hi,
                                    int64_t *buf) noexcept nogil:
    """The column indices of the CSR row [lo, hi), of R's index type: R's
    own, or its 16-bit ones widened into buf (ROW_IDX16_MAX of R's index
    type), so that every kernel reads the indices it reads for the same rows
    stored wider, and gives the same bits."""
    cdef Py_ssize_t j
    cdef int32_t *b32
    if Rows is DenseRows:
        return NULL
    else:
        if R.idx16 == NULL:
            return R.idx + lo
        if Rows is CsrRows32:
            b32 = <int32_t *>buf
            for j in range(hi - lo):
                b32[j] = R.idx16[lo + j]
        else:
            for j in range(hi - lo):
                buf[j] = R.idx16[lo + j]
        return buf


cdef inline int rows_xkind(const Rows *R) noexcept nogil:
    """R's narrow kind (DenseRows.xkind), 0 for CSR rows."""
    if Rows is DenseRows:
        return R.xkind
    else:
        return 0


cdef inline double row_dot(const Rows *R, const ptn_simd *K, ptrdiff_t i,
                           const floating *w) noexcept nogil:
    """x_i . w, summed in double."""
    cdef Py_ssize_t lo, hi
    cdef const void *v
    cdef const void *ix
    cdef int64_t buf[ROW_IDX16_MAX]
    if Rows is DenseRows:
        if floating is float:
            if R.xkind:
                return K.ndot(R.xkind, <size_t>R.d, dense_row(R, i, 4), w)
        else:
            if R.xkind:
                return kdot(K, R.d, wide_row(R, K, i), w)
        return kdot(K, R.d, <const floating *>R.X + i * R.d, w)
    else:
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        v = row_values(R, lo, sizeof(floating))
        ix = row_indices(R, lo, hi, buf)
        if floating is float:
            if Rows is CsrRows32:
                return R.dotk.sdot_f32_i32(<size_t>(hi - lo), <const float *>v, <const int32_t *>ix, w)
            else:
                return R.dotk.sdot_f32_i64(<size_t>(hi - lo), <const float *>v, <const int64_t *>ix, w)
        else:
            if Rows is CsrRows32:
                return R.dotk.sdot_f64_i32(<size_t>(hi - lo), <const double *>v, <const int32_t *>ix, w)
            else:
                return R.dotk.sdot_f64_i64(<size_t>(hi - lo), <const double *>v, <const int64_t *>ix, w)


cdef enum:
    # the most weight vectors row_dots scores with the level's dots_<type>;
    # a model of more classes takes them one dot product at a time
    ROW_DOTS_MAX = 64


cdef inline void row_dots(const Rows *R, const ptn_simd *K, ptrdiff_t i, const floating *W,
                          Py_ssize_t k, const double *b, double *out) noexcept nogil:
    """out[j] = x_i . W[j] + b[j] for the k rows of W (k x R.d), each with
    the bits of row_dot.  Dense rows go through the level's dots_<type>,
    which reads the row once for all of them and shares its loads: the
    multiclass fit of 100,000 x 100 float64 rows, 10 classes, 5 epochs in
    order, 80-81 ms with a dot product a class, 60-61 ms this way."""
    cdef const floating *w[ROW_DOTS_MAX]
    cdef Py_ssize_t j
    if Rows is DenseRows and k <= ROW_DOTS_MAX and rows_xkind(R) == 0:
        for j in range(k):
            w[j] = W + j * R.d
        if floating is float:
            K.dots_f32(<size_t>R.d, <const float *>R.X + i * R.d, w, <size_t>k, out)
        else:
            K.dots_f64(<size_t>R.d, <const double *>R.X + i * R.d, w, <size_t>k, out)
        for j in range(k):
            out[j] += b[j]
    else:
        for j in range(k):
            out[j] = row_dot(R, K, i, W + j * R.d) + b[j]


cdef inline void row_axpy(const Rows *R, const ptn_simd *K, ptrdiff_t i, double a,
                          floating *w) noexcept nogil:
    """w += a * x_i in the weights' dtype."""
    cdef Py_ssize_t lo, hi
    cdef const void *v
    cdef const void *ix
    cdef int64_t buf[ROW_IDX16_MAX]
    if Rows is DenseRows:
        if floating is float:
            if R.xkind:
                K.naxpy(R.xkind, <size_t>R.d, <float>a, dense_row(R, i, 4), w)
                return
        else:
            if R.xkind:
                kaxpy(K, R.d, a, wide_row(R, K, i), w)
                return
        kaxpy(K, R.d, a, <const floating *>R.X + i * R.d, w)
    else:
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        v = row_values(R, lo, sizeof(floating))
        ix = row_indices(R, lo, hi, buf)
        if floating is float:
            if Rows is CsrRows32:
                K.saxpy_f32_i32(<size_t>(hi - lo), <float>a, <const float *>v, <const int32_t *>ix, w)
            else:
                K.saxpy_f32_i64(<size_t>(hi - lo), <float>a, <const float *>v, <const int64_t *>ix, w)
        else:
            if Rows is CsrRows32:
                K.saxpy_f64_i32(<size_t>(hi - lo), a, <const double *>v, <const int32_t *>ix, w)
            else:
                K.saxpy_f64_i64(<size_t>(hi - lo), a, <const double *>v, <const int64_t *>ix, w)


cdef inline void row_axpy_acc(const Rows *R, const ptn_simd *K, ptrdiff_t i, double a,
                              double *u, const floating *dtype_of_x) noexcept nogil:
    """u += a * x_i into float64 accumulators (dtype_of_x only names X's dtype)."""
    cdef Py_ssize_t lo, hi
    cdef const void *v
    cdef const void *ix
    cdef int64_t buf[ROW_IDX16_MAX]
    if Rows is DenseRows:
        if R.xkind:
            if floating is double:
                kaxpy_acc(K, R.d, a, wide_row(R, K, i), u)
            else:
                K.naxpy_f64(R.xkind, <size_t>R.d, a, dense_row(R, i, 4), u)
            return
        kaxpy_acc(K, R.d, a, <const floating *>R.X + i * R.d, u)
    else:
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        v = row_values(R, lo, sizeof(floating))
        ix = row_indices(R, lo, hi, buf)
        if floating is float:
            if Rows is CsrRows32:
                K.saxpy_f32_f64_i32(<size_t>(hi - lo), a, <const float *>v, <const int32_t *>ix, u)
            else:
                K.saxpy_f32_f64_i64(<size_t>(hi - lo), a, <const float *>v, <const int64_t *>ix, u)
        else:
            if Rows is CsrRows32:
                K.saxpy_f64_i32(<size_t>(hi - lo), a, <const double *>v, <const int32_t *>ix, u)
            else:
                K.saxpy_f64_i64(<size_t>(hi - lo), a, <const double *>v, <const int64_t *>ix, u)


cdef inline void row_sqnorms(const Rows *R, const ptn_simd *K, const ptrdiff_t *rows,
                             Py_ssize_t n_rows, const floating *dtype_of_x,
                             double *out) noexcept nogil:
    """out[i] = ||x_i||^2 for each row i of rows[:n_rows], in double: a dense
    row's dot product with itself at the level (the activations' sum), a
    CSR row's stored values squared and summed in order."""
    cdef Py_ssize_t k, j, lo, hi
    cdef ptrdiff_t i
    cdef const floating *x
    cdef double sq, v
    cdef float *buf = NULL
    if Rows is DenseRows:
        if floating is float:
            if R.xkind:
                # narrow rows: each converted to float32 first (an O(d)
                # buffer), then the float32 rows' dot product, their bits
                buf = <float *>malloc(<size_t>max(R.d, 1) * sizeof(float))
                for k in range(n_rows):
                    i = rows[k]
                    if buf == NULL:
                        out[i] = NAN
                        continue
                    K.nconvert(R.xkind, <size_t>R.d, dense_row(R, i, 4), buf)
                    out[i] = K.dot_f32(<size_t>R.d, buf, buf)
                free(buf)
                return
        else:
            if R.xkind:
                # narrow rows meeting float64 weights: the float64 rows' bits
                for k in range(n_rows):
                    i = rows[k]
                    x = wide_row(R, K, i)
                    out[i] = kdot(K, R.d, x, x)
                return
    for k in range(n_rows):
        i = rows[k]
        if Rows is DenseRows:
            x = <const floating *>R.X + i * R.d
            out[i] = kdot(K, R.d, x, x)
        else:
            lo = <Py_ssize_t>R.ptr[i]
            hi = <Py_ssize_t>R.ptr[i + 1]
            x = <const floating *>row_values(R, lo, sizeof(floating))
            sq = 0.0
            for j in range(hi - lo):
                v = x[j]
                sq += v * v
            out[i] = sq


cdef inline bint row_finite(const Rows *R, ptrdiff_t i, const floating *dtype_of_x) noexcept nogil:
    """Whether every stored value of row i is finite."""
    cdef Py_ssize_t j, lo, hi
    cdef const floating *x
    cdef const uint16_t *h
    cdef uint16_t e
    if Rows is DenseRows:
        if R.xkind == PTN_X_F16 or R.xkind == PTN_X_BF16:
            # a half (bfloat16) is not finite when its exponent is all ones
            e = 0x7C00 if R.xkind == PTN_X_F16 else 0x7F80
            h = <const uint16_t *>dense_row(R, i, 4)
            for j in range(R.d):
                if (h[j] & e) == e:
                    return False
            return True
        if R.xkind:
            return True
        x = <const floating *>R.X + i * R.d
        lo = 0
        hi = R.d
    else:
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        x = <const floating *>row_values(R, lo, sizeof(floating))
        hi -= lo
        lo = 0
    for j in range(lo, hi):
        if not isfinite(x[j]):
            return False
    return True


cdef inline void row_prefetch(const Rows *R, ptrdiff_t i, const floating *dtype_of_x) noexcept nogil:
    """Ask for row i's bytes ahead of its use (rows visited out of order)."""
    cdef Py_ssize_t lo, hi
    if Rows is DenseRows:
        ptn_prefetch_range(dense_row(R, i, sizeof(floating)),
                           <size_t>R.d * dense_itemsize(R, sizeof(floating)))
    else:
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        if R.vstep:
            ptn_prefetch_range(<const floating *>R.val + lo, <size_t>(hi - lo) * sizeof(floating))
        if R.idx16 != NULL:
            ptn_prefetch_range(R.idx16 + lo, <size_t>(hi - lo) * sizeof(uint16_t))
        else:
            ptn_prefetch_range(R.idx + lo, <size_t>(hi - lo) * sizeof(R.idx[0]))


cdef inline void row_prefetch_start(const Rows *R, ptrdiff_t i) noexcept nogil:
    """Ask for row i's row pointers (CSR rows; nothing for dense ones).

    row_prefetch must read them to find the row, and in a shuffled order they
    miss the cache too: asked for twice as far ahead, they are there when
    row_prefetch needs them, and its loads do not stall the loop."""
    if Rows is not DenseRows:
        ptn_prefetch_range(R.ptr + i, 2 * sizeof(R.ptr[0]))


cdef inline Py_ssize_t max_ahead(const Rows *R) noexcept nogil:
    """The most rows a loop over R prefetches ahead (perceptron/_core/prefetch.pxd)."""
    if Rows is DenseRows:
        return PREFETCH_MAX_ROWS
    else:
        return PREFETCH_MAX_CSR_ROWS


cdef inline size_t row_bytes(const Rows *R, Py_ssize_t n, const floating *dtype_of_x) noexcept nogil:
    """Average bytes a row of n rows occupies (for the prefetch distance).
    Binary rows (values not stored, or 16-bit indices) count as the same
    rows stored with values and R's index type: the distance, and so which
    dot product the CSR epoch takes (csr_epoch.pxd), is then theirs, and so
    are the bits."""
    if Rows is DenseRows:
        return <size_t>R.d * dense_itemsize(R, sizeof(floating))
    else:
        if n <= 0:
            return 0
        return <size_t>((R.ptr[n] - R.ptr[0]) * <Py_ssize_t>(sizeof(floating) + sizeof(R.idx[0])) // n)

# The C-level API of the kernels: the dispatch table of csrc/ptn_simd.h
# and typed wrappers that other Cython modules (this package's, or a user's)
# can cimport.  Every function here is nogil and cannot raise.

from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef extern from "ptn_rng.h" nogil:
    # the generator of the training loops: a fit's randomness is its seed
    ctypedef struct ptn_rng:
        uint64_t state
    void ptn_rng_seed(ptn_rng *r, uint64_t seed)
    # the scalar Fisher-Yates shuffle; the levels' `shuffle` give the same
    void ptn_shuffle(ptn_rng *r, ptrdiff_t *order, size_t n)

cdef extern from "ptn_update.h" nogil:
    # an update rule of the linear family (csrc/ptn_update.h documents it;
    # perceptron/_core/loop.pxd declares its functions)
    enum:
        PTN_RULE_PERCEPTRON
        PTN_RULE_PA1
        PTN_RULE_PA2
        PTN_RULE_COUNT
    ctypedef struct ptn_rule:
        int kind
        double eta
        double margin
        double C
    ptn_rule ptn_rule_make(int kind, double eta, double margin, double C)

cdef extern from "ptn_simd.h" nogil:
    ctypedef double (*ptn_dot_f32_fn)(size_t n, const float *x, const float *y) noexcept nogil
    ctypedef double (*ptn_dot_f64_fn)(size_t n, const double *x, const double *y) noexcept nogil
    ctypedef void (*ptn_axpy_f32_fn)(size_t n, float a, const float *x, float *y) noexcept nogil
    ctypedef void (*ptn_axpy_f64_fn)(size_t n, double a, const double *x, double *y) noexcept nogil
    ctypedef void (*ptn_axpy_f32_f64_fn)(size_t n, double a, const float *x, double *y) noexcept nogil
    ctypedef double (*ptn_sqdist_f32_fn)(size_t n, const float *x, const float *y) noexcept nogil
    ctypedef double (*ptn_sqdist_f64_fn)(size_t n, const double *x, const double *y) noexcept nogil
    ctypedef void (*ptn_exp_f64_fn)(size_t n, const double *x, double *y) noexcept nogil
    ctypedef void (*ptn_block_f32_fn)(size_t m, size_t d, const float *A, size_t lda,
                                      const double *shift, size_t p, const double *BT,
                                      double *out) noexcept nogil
    ctypedef void (*ptn_block_f64_fn)(size_t m, size_t d, const double *A, size_t lda,
                                      const double *shift, size_t p, const double *BT,
                                      double *out) noexcept nogil
    ctypedef void (*ptn_rbf_block_f64_fn)(size_t m, size_t p, const double *na, const double *nb,
                                          double gamma, double *buf) noexcept nogil

    ctypedef struct ptn_scan:
        const void *X
        size_t d
        const ptrdiff_t *rows
        size_t n_rows
        size_t ahead
        const double *by_row
        const signed char *y
        const void *w
        double b
        double margin
    ctypedef size_t (*ptn_scan_fn)(const ptn_scan *s, size_t start, size_t stop,
                                   double *act) noexcept nogil
    ctypedef struct ptn_plain:
        ptn_rule rule
        const double *sqnorm
        int fit_intercept
        double b
        int64_t mistakes
        int64_t updates
        double loss
        double raw_loss
    ctypedef size_t (*ptn_scan_plain_fn)(const ptn_scan *s, size_t start, size_t stop,
                                         double *act, ptn_plain *plain) noexcept nogil

    ctypedef double (*ptn_sdot_f32_i32_fn)(size_t nnz, const float *val, const int32_t *idx,
                                           const float *w) noexcept nogil
    ctypedef double (*ptn_sdot_f32_i64_fn)(size_t nnz, const float *val, const int64_t *idx,
                                           const float *w) noexcept nogil
    ctypedef double (*ptn_sdot_f64_i32_fn)(size_t nnz, const double *val, const int32_t *idx,
                                           const double *w) noexcept nogil
    ctypedef double (*ptn_sdot_f64_i64_fn)(size_t nnz, const double *val, const int64_t *idx,
                                           const double *w) noexcept nogil
    ctypedef void (*ptn_saxpy_f32_i32_fn)(size_t nnz, float a, const float *val, const int32_t *idx,
                                          float *w) noexcept nogil
    ctypedef void (*ptn_saxpy_f32_i64_fn)(size_t nnz, float a, const float *val, const int64_t *idx,
                                          float *w) noexcept nogil
    ctypedef void (*ptn_saxpy_f64_i32_fn)(size_t nnz, double a, const double *val,
                                          const int32_t *idx, double *w) noexcept nogil
    ctypedef void (*ptn_saxpy_f64_i64_fn)(size_t nnz, double a, const double *val,
                                          const int64_t *idx, double *w) noexcept nogil
    ctypedef void (*ptn_saxpy_f32_f64_i32_fn)(size_t nnz, double a, const float *val,
                                              const int32_t *idx, double *w) noexcept nogil
    ctypedef void (*ptn_saxpy_f32_f64_i64_fn)(size_t nnz, double a, const float *val,
                                              const int64_t *idx, double *w) noexcept nogil
    ctypedef size_t (*ptn_descents_i32_fn)(size_t n, const int32_t *a, int strict, int32_t *lo,
                                           int32_t *hi) noexcept nogil
    ctypedef size_t (*ptn_descents_i64_fn)(size_t n, const int64_t *a, int strict, int64_t *lo,
                                           int64_t *hi) noexcept nogil
    enum: PTN_SPARSE_GATHER_MIN_BYTES

    ctypedef void (*ptn_draws_fn)(ptn_rng *r, size_t top, size_t count,
                                  uint32_t *out) noexcept nogil
    ctypedef void (*ptn_shuffle_fn)(ptn_rng *r, ptrdiff_t *order, size_t n) noexcept nogil
    ctypedef void (*ptn_dots_f32_fn)(size_t n, const float *x, const float *const *w, size_t m,
                                     double *out) noexcept nogil
    ctypedef void (*ptn_dots_f64_fn)(size_t n, const double *x, const double *const *w, size_t m,
                                     double *out) noexcept nogil
    ctypedef void (*ptn_dots_f32_tails_fn)(size_t n, const float *x, const float *const *w,
                                           const double *const *wt, size_t m,
                                           double *out) noexcept nogil
    enum: PTN_F32_TAIL_MAX
    size_t PTN_F32_TAIL_AT(size_t n) noexcept nogil
    void ptn_f32_tail_to_double(size_t n, const float *w, double *wt) noexcept nogil

    # narrow rows against float32 weights (csrc/ptn_narrow.h)
    enum:
        PTN_X_F16
        PTN_X_BF16
        PTN_X_I8
        PTN_X_U8
    ctypedef double (*ptn_ndot_fn)(int kind, size_t n, const void *x, const float *w) noexcept nogil
    ctypedef void (*ptn_naxpy_fn)(int kind, size_t n, float a, const void *x,
                                  float *y) noexcept nogil
    ctypedef void (*ptn_naxpy_f64_fn)(int kind, size_t n, double a, const void *x,
                                      double *y) noexcept nogil
    ctypedef size_t (*ptn_nscan_fn)(int kind, const ptn_scan *s, size_t start, size_t stop,
                                    double *act) noexcept nogil
    ctypedef size_t (*ptn_nscan_plain_fn)(int kind, const ptn_scan *s, size_t start, size_t stop,
                                          double *act, ptn_plain *plain) noexcept nogil
    ctypedef void (*ptn_nconvert_fn)(int kind, size_t n, const void *x, float *out) noexcept nogil

    ctypedef struct ptn_simd:
        int level
        const char *name
        ptn_dot_f32_fn dot_f32
        ptn_dot_f64_fn dot_f64
        ptn_axpy_f32_fn axpy_f32
        ptn_axpy_f64_fn axpy_f64
        ptn_axpy_f32_f64_fn axpy_f32_f64
        ptn_sqdist_f32_fn sqdist_f32
        ptn_sqdist_f64_fn sqdist_f64
        ptn_exp_f64_fn exp_f64
        ptn_block_f32_fn dot_block_f32
        ptn_block_f64_fn dot_block_f64
        ptn_rbf_block_f64_fn rbf_block_f64
        ptn_scan_fn scan_f32
        ptn_scan_fn scan_f64
        ptn_sdot_f32_i32_fn sdot_f32_i32
        ptn_sdot_f32_i64_fn sdot_f32_i64
        ptn_sdot_f64_i32_fn sdot_f64_i32
        ptn_sdot_f64_i64_fn sdot_f64_i64
        ptn_saxpy_f32_i32_fn saxpy_f32_i32
        ptn_saxpy_f32_i64_fn saxpy_f32_i64
        ptn_saxpy_f64_i32_fn saxpy_f64_i32
        ptn_saxpy_f64_i64_fn saxpy_f64_i64
        ptn_saxpy_f32_f64_i32_fn saxpy_f32_f64_i32
        ptn_saxpy_f32_f64_i64_fn saxpy_f32_f64_i64
        ptn_descents_i32_fn descents_i32
        ptn_descents_i64_fn descents_i64
        ptn_draws_fn draws
        ptn_shuffle_fn shuffle
        ptn_dots_f32_fn dots_f32
        ptn_dots_f64_fn dots_f64
        ptn_dots_f32_tails_fn dots_f32_tails
        ptn_scan_plain_fn scan_plain_f32
        ptn_scan_plain_fn scan_plain_f64
        ptn_ndot_fn ndot
        ptn_naxpy_fn naxpy
        ptn_naxpy_f64_fn naxpy_f64
        ptn_nscan_fn nscan
        ptn_nscan_plain_fn nscan_plain
        ptn_nconvert_fn nconvert

from cython cimport floating

cdef extern from "ptn_simd.h" nogil:
    # the layout version of ptn_simd and ptn_linear_model (csrc/ptn_simd.h)
    enum: PTN_SIMD_ABI_VERSION

# The accessors of the table, exported under names that carry its ABI
# version (PTN_SIMD_ABI_VERSION): a module that cimports them is bound to
# this layout, and fails to import ("perceptron.simd does not export
# expected C function active_simd_abi1") on a package whose table differs.
# Rebuild such a module against the installed package.
cdef const ptn_simd *active_simd_abi1() noexcept nogil
cdef const ptn_simd *sparse_dot_kernels_abi1(size_t weight_bytes) noexcept nogil


# The kernel table chosen at import (PERCEPTRON_SIMD or the best level).
cdef inline const ptn_simd *active_simd() noexcept nogil:
    return active_simd_abi1()

# Whether rows read in rising order (0, 1, 2, ...) are prefetched in
# software too, as shuffled rows always are: chosen at import from the CPU
# (perceptron._core.prefetch.order_ahead reads it).
cdef bint prefetch_sequential() noexcept nogil

# The table whose sparse dot products (sdot) suit a weight vector of this
# many bytes: the active one's vector gathers beyond L1, the scalar loop
# within it (csrc/ptn_simd.h, PTN_SPARSE_GATHER_MIN_BYTES).
cdef inline const ptn_simd *sparse_dot_kernels(size_t weight_bytes) noexcept nogil:
    return sparse_dot_kernels_abi1(weight_bytes)

# Dot product x . y of n elements; float32 products are summed in double.
cdef double dot_f32(Py_ssize_t n, const float *x, const float *y) noexcept nogil
cdef double dot_f64(Py_ssize_t n, const double *x, const double *y) noexcept nogil

# y += a * x over n elements.
cdef void axpy_f32(Py_ssize_t n, float a, const float *x, float *y) noexcept nogil
cdef void axpy_f64(Py_ssize_t n, double a, const double *x, double *y) noexcept nogil

# y += a * x with float32 x and float64 y (accumulators in double).
cdef void axpy_f32_f64(Py_ssize_t n, double a, const float *x, double *y) noexcept nogil

# A sparse row (CSR: nnz values and their column indices) against dense
# weights: sum val[j] * w[idx[j]] in double, and w[idx[j]] += a * val[j].
# Indices must lie in [0, len(w)) (and not repeat, for the update); the
# functions trust them.  The dot gathers with vector instructions for weight
# vectors beyond L1 (csrc/ptn_simd.h).
ctypedef fused csr_index:
    int32_t
    int64_t


cdef inline double sparse_dot(Py_ssize_t nnz, const floating *val, const csr_index *idx,
                              const floating *w, Py_ssize_t n_weights) noexcept nogil:
    cdef const ptn_simd *k = sparse_dot_kernels(<size_t>n_weights * sizeof(floating))
    if floating is float:
        if csr_index is int32_t:
            return k.sdot_f32_i32(<size_t>nnz, val, idx, w)
        else:
            return k.sdot_f32_i64(<size_t>nnz, val, idx, w)
    else:
        if csr_index is int32_t:
            return k.sdot_f64_i32(<size_t>nnz, val, idx, w)
        else:
            return k.sdot_f64_i64(<size_t>nnz, val, idx, w)


cdef inline void sparse_axpy(Py_ssize_t nnz, double a, const floating *val, const csr_index *idx,
                             floating *w) noexcept nogil:
    cdef const ptn_simd *k = active_simd()
    if floating is float:
        if csr_index is int32_t:
            k.saxpy_f32_i32(<size_t>nnz, <float>a, val, idx, w)
        else:
            k.saxpy_f32_i64(<size_t>nnz, <float>a, val, idx, w)
    else:
        if csr_index is int32_t:
            k.saxpy_f64_i32(<size_t>nnz, a, val, idx, w)
        else:
            k.saxpy_f64_i64(<size_t>nnz, a, val, idx, w)


# Fused-type forms for loops written once for float32 and float64; they take
# the table so that a loop reads the active table once, not per call.
cdef inline double kdot(const ptn_simd *k, Py_ssize_t n, const floating *x,
                        const floating *y) noexcept nogil:
    if floating is float:
        return k.dot_f32(<size_t>n, x, y)
    else:
        return k.dot_f64(<size_t>n, x, y)


cdef inline void kaxpy(const ptn_simd *k, Py_ssize_t n, double a, const floating *x,
                       floating *y) noexcept nogil:
    if floating is float:
        k.axpy_f32(<size_t>n, <float>a, x, y)
    else:
        k.axpy_f64(<size_t>n, a, x, y)


cdef inline void kaxpy_acc(const ptn_simd *k, Py_ssize_t n, double a, const floating *x,
                           double *y) noexcept nogil:
    """y += a * x into float64 accumulators, whatever the data's dtype."""
    if floating is float:
        k.axpy_f32_f64(<size_t>n, a, x, y)
    else:
        k.axpy_f64(<size_t>n, a, x, y)


# Squared Euclidean distance sum (x[i] - y[i])^2, summed in double.
cdef inline double ksqdist(const ptn_simd *k, Py_ssize_t n, const floating *x,
                           const floating *y) noexcept nogil:
    if floating is float:
        return k.sqdist_f32(<size_t>n, x, y)
    else:
        return k.sqdist_f64(<size_t>n, x, y)


# out[k*p + q] = (A[k] - shift) . B[q] (in double) for k < m, q < p, with the
# p vectors B given transposed (BT, d x p); see csrc/ptn_simd.h.
cdef inline void kdot_block(const ptn_simd *k, Py_ssize_t m, Py_ssize_t d, const floating *A,
                            Py_ssize_t lda, const double *shift, Py_ssize_t p, const double *BT,
                            double *out) noexcept nogil:
    if floating is float:
        k.dot_block_f32(<size_t>m, <size_t>d, A, <size_t>lda, shift, <size_t>p, BT, out)
    else:
        k.dot_block_f64(<size_t>m, <size_t>d, A, <size_t>lda, shift, <size_t>p, BT, out)

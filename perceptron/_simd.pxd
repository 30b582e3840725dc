# The C-level API of the kernels: the dispatch table of csrc/ptn_kernels.h
# and typed wrappers that other Cython modules (this package's, or a user's)
# can cimport.  Every function here is nogil and cannot raise.

cdef extern from "ptn_kernels.h" nogil:
    ctypedef double (*ptn_dot_f32_fn)(size_t n, const float *x, const float *y) noexcept nogil
    ctypedef double (*ptn_dot_f64_fn)(size_t n, const double *x, const double *y) noexcept nogil
    ctypedef void (*ptn_axpy_f32_fn)(size_t n, float a, const float *x, float *y) noexcept nogil
    ctypedef void (*ptn_axpy_f64_fn)(size_t n, double a, const double *x, double *y) noexcept nogil
    ctypedef void (*ptn_axpy_f32_f64_fn)(size_t n, double a, const float *x, double *y) noexcept nogil

    ctypedef struct ptn_kernels:
        int level
        const char *name
        ptn_dot_f32_fn dot_f32
        ptn_dot_f64_fn dot_f64
        ptn_axpy_f32_fn axpy_f32
        ptn_axpy_f64_fn axpy_f64
        ptn_axpy_f32_f64_fn axpy_f32_f64

from cython cimport floating

# The kernel table chosen at import (PERCEPTRON_SIMD or the best level).
cdef const ptn_kernels *active_kernels() noexcept nogil

# Dot product x . y of n elements; float32 products are summed in double.
cdef double dot_f32(Py_ssize_t n, const float *x, const float *y) noexcept nogil
cdef double dot_f64(Py_ssize_t n, const double *x, const double *y) noexcept nogil

# y += a * x over n elements.
cdef void axpy_f32(Py_ssize_t n, float a, const float *x, float *y) noexcept nogil
cdef void axpy_f64(Py_ssize_t n, double a, const double *x, double *y) noexcept nogil

# y += a * x with float32 x and float64 y (accumulators in double).
cdef void axpy_f32_f64(Py_ssize_t n, double a, const float *x, double *y) noexcept nogil


# Fused-type forms for loops written once for float32 and float64; they take
# the table so that a loop reads the active table once, not per call.
cdef inline double kdot(const ptn_kernels *k, Py_ssize_t n, const floating *x,
                        const floating *y) noexcept nogil:
    if floating is float:
        return k.dot_f32(<size_t>n, x, y)
    else:
        return k.dot_f64(<size_t>n, x, y)


cdef inline void kaxpy(const ptn_kernels *k, Py_ssize_t n, double a, const floating *x,
                       floating *y) noexcept nogil:
    if floating is float:
        k.axpy_f32(<size_t>n, <float>a, x, y)
    else:
        k.axpy_f64(<size_t>n, a, x, y)


cdef inline void kaxpy_acc(const ptn_kernels *k, Py_ssize_t n, double a, const floating *x,
                           double *y) noexcept nogil:
    """y += a * x into float64 accumulators, whatever the data's dtype."""
    if floating is float:
        k.axpy_f32_f64(<size_t>n, a, x, y)
    else:
        k.axpy_f64(<size_t>n, a, x, y)

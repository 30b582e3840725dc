# cython: language_level=3
"""Typed loop of the centroid method: the weighted sum of each class's rows."""
from cython cimport floating
from libc.stdint cimport int32_t

from perceptron._simd cimport ptn_kernels, active_kernels, kaxpy_acc
from perceptron._prefetch cimport ptn_prefetch_range, rows_ahead


def class_sums(const floating[:, ::1] X, const int32_t[::1] t, const double[::1] sw,
               double[:, ::1] sums, double[::1] totals):
    """sums[t_i] += s_i x_i and totals[t_i] += s_i over the rows of X.

    Accumulated in float64 whatever X's dtype; `sw` may be None (all ones).
    Shapes and class indices are trusted.
    """
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], i
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    cdef Py_ssize_t ahead = rows_ahead(n, row_bytes)
    cdef bint weighted = sw is not None
    cdef double s
    if sums.shape[1] != d or t.shape[0] != n or (weighted and sw.shape[0] != n):
        raise ValueError("class_sums: inconsistent shapes")
    if n == 0 or d == 0:
        return
    with nogil:
        for i in range(n):
            if i + ahead < n:
                ptn_prefetch_range(&X[i + ahead, 0], row_bytes)
            s = sw[i] if weighted else 1.0
            kaxpy_acc(K, d, s, &X[i, 0], &sums[t[i], 0])
            totals[t[i]] += s

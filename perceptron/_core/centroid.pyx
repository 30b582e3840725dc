# cython: language_level=3
"""Typed loop of the centroid method: the weighted sum of each class's rows.

Written once over the fused row type of perceptron/_core/rows.pxd: dense rows and
CSR rows (int32 or int64 indices), float32 or float64 values, summed in
float64.
"""
import numpy as np

from cython cimport floating
from libc.stdint cimport int32_t, int64_t

from perceptron.simd cimport ptn_simd, active_simd
from perceptron._core.prefetch cimport order_ahead
from perceptron._core.rows cimport (Rows, DenseRows, CsrRows32, CsrRows64, csr_rows, row_axpy_acc,
                                    row_prefetch, row_bytes, max_ahead)


cdef void _sums(const Rows *R, const floating *dtype_of_x, Py_ssize_t n, Py_ssize_t d,
                const int32_t *t, const double *sw, double *sums, double *totals) noexcept nogil:
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t ahead = order_ahead(NULL, n, row_bytes(R, n, dtype_of_x), max_ahead(R)), i
    cdef double s
    for i in range(n):
        if i + ahead < n:
            row_prefetch(R, i + ahead, dtype_of_x)
        s = sw[i] if sw != NULL else 1.0
        row_axpy_acc(R, K, i, s, sums + t[i] * d, dtype_of_x)
        totals[t[i]] += s




def class_sums(X, const int32_t[::1] t, const double[::1] sw, double[:, ::1] sums,
               double[::1] totals):
    """sums[t_i] += s_i x_i and totals[t_i] += s_i over the rows of X.

    X: a C-contiguous float32/float64 array, or checked CSR data (``data``,
    ``indices``, ``indptr``, ``shape``; see perceptron._common.validation.CsrInput).
    Accumulated in float64 whatever X's dtype; `sw` may be None (all ones).
    Shapes are checked; class indices are trusted.
    """
    n, d = X.shape
    if sums.shape[1] != d or t.shape[0] != n or (sw is not None and sw.shape[0] != n):
        raise ValueError("class_sums: inconsistent shapes")
    if n == 0 or d == 0:
        return
    if isinstance(X, np.ndarray):
        _sums_dense(X, t, sw, sums, totals)
    else:
        _sums_csr(X.data, X.indices, X.indptr, d, t, sw, sums, totals)


def _sums_dense(const floating[:, ::1] X, const int32_t[::1] t, const double[::1] sw,
                double[:, ::1] sums, double[::1] totals):
    cdef DenseRows R
    cdef const double *w = NULL
    if sw is not None:
        w = &sw[0]
    R.X = &X[0, 0]
    R.xkind = 0
    R.wide = NULL
    R.d = X.shape[1]
    with nogil:
        _sums(&R, &X[0, 0], X.shape[0], R.d, &t[0], w, &sums[0, 0], &totals[0])


def _sums_csr(const floating[::1] data, indices, indptr, Py_ssize_t d, const int32_t[::1] t,
              const double[::1] sw, double[:, ::1] sums, double[::1] totals):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const floating *val = NULL
    cdef const double *w = NULL
    cdef Py_ssize_t n = indptr.shape[0] - 1
    if sw is not None:
        w = &sw[0]
    if data.shape[0]:
        val = &data[0]
    if csr_rows(&R32, &R64, val, indices, indptr, d, <size_t>d * sizeof(floating)):
        with nogil:
            _sums(&R32, val, n, d, &t[0], w, &sums[0, 0], &totals[0])
    else:
        with nogil:
            _sums(&R64, val, n, d, &t[0], w, &sums[0, 0], &totals[0])

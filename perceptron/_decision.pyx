# cython: language_level=3
"""Typed scoring loops: the activation w.x + b of each row, without the GIL.

A row is read once and dotted with the weights by the SIMD kernels; the
caller may split the rows among threads (each call touches only its own
slice of the output), which is how prediction uses several cores.
"""
from cython cimport floating

from perceptron._simd cimport ptn_kernels, active_kernels, kdot
from perceptron._prefetch cimport ptn_prefetch_range, rows_ahead


def decision_binary_dense(const floating[:, ::1] X, const floating[::1] w, double b,
                          double[::1] out):
    """out[i] = X[i] . w + b for every row of X (shapes trusted)."""
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], i
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    cdef Py_ssize_t ahead = rows_ahead(n, row_bytes)
    if w.shape[0] != d or out.shape[0] != n:
        raise ValueError("decision_binary_dense: inconsistent shapes")
    if d == 0:
        out[:] = b
        return
    with nogil:
        for i in range(n):
            if i + ahead < n:
                ptn_prefetch_range(&X[i + ahead, 0], row_bytes)
            out[i] = kdot(K, d, &X[i, 0], &w[0]) + b

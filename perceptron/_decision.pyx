# cython: language_level=3
"""Typed scoring loops: the activations w_j.x + b_j of each row, without the GIL.

A row is read once and dotted with each row of weights by the SIMD kernels
(the weights stay in cache); the caller may split the rows among threads,
each call writing only its own rows of the output, which is how prediction
uses several cores.
"""
from cython cimport floating
from libc.stddef cimport ptrdiff_t

from perceptron._simd cimport ptn_kernels, active_kernels, kdot
from perceptron._prefetch cimport ptn_prefetch_range, rows_ahead


def decision_dense(const floating[:, ::1] X, const floating[:, ::1] W, const double[::1] b,
                   double[:, ::1] out, const ptrdiff_t[::1] rows=None):
    """out[r, j] = X[i] . W[j] + b[j] for the rows i of X (all, or `rows`).

    Shapes are trusted: W (k, d), b (k,), out (n_rows, k).
    """
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t n = X.shape[0] if rows is None else rows.shape[0]
    cdef Py_ssize_t d = X.shape[1], k = W.shape[0], r, j
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    cdef Py_ssize_t ahead = rows_ahead(n, row_bytes)
    cdef ptrdiff_t i
    cdef const floating *x
    if W.shape[1] != d or b.shape[0] != k or out.shape[0] != n or out.shape[1] != k:
        raise ValueError("decision_dense: inconsistent shapes")
    if n == 0:
        return
    if d == 0:
        raise ValueError("decision_dense: X has no features")
    with nogil:
        for r in range(n):
            i = r if rows is None else rows[r]
            if r + ahead < n:
                ptn_prefetch_range(&X[r + ahead if rows is None else rows[r + ahead], 0], row_bytes)
            x = &X[i, 0]
            for j in range(k):
                out[r, j] = kdot(K, d, x, &W[j, 0]) + b[j]

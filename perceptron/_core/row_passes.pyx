# cython: language_level=3
"""What the epochs of perceptron._core.online read beside the rows' values:
their orders (the shuffles of an epoch, replayable) and their squared norms
(the passive-aggressive step's ||x_i||^2, Crammer et al. 2006, section 3).
"""
import numpy as np
from perceptron._core.csr import loop_values

from cython cimport floating
from libc.stdint cimport uint64_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport free

from perceptron.simd cimport ptn_rng, ptn_rng_seed, active_simd
from perceptron._core.rows cimport (Rows, DenseRows, CsrRows32, CsrRows64, csr_rows,
                                    dense_rows_for, row_sqnorms)

_zeros = np.zeros
_F64 = np.dtype(np.float64)


def shuffled_orders(Py_ssize_t n, Py_ssize_t n_epochs, uint64_t seed):
    """The row orders a shuffled fit with this seed visits, one row per epoch.

    Epoch e visits the rows in the order of e + 1 successive Fisher-Yates
    shuffles of 0..n-1 drawn from SplitMix64(seed).  Exposed so that tests
    (and anyone reproducing a fit) can replay the compiled loop's order.
    """
    cdef ptn_rng rng
    cdef Py_ssize_t e
    orders = np.empty((n_epochs, n), dtype=np.intp)
    cdef ptrdiff_t[::1] order = np.arange(n, dtype=np.intp)
    ptn_rng_seed(&rng, seed)
    for e in range(n_epochs):
        if n:
            active_simd().shuffle(&rng, &order[0], <size_t>n)
        orders[e] = np.asarray(order)
    return orders


def shuffle_rows(uint64_t[::1] rng_state, ptrdiff_t[::1] rows):
    """Shuffle `rows` in place as an epoch of run_epochs does, with the
    generator state rng_state[0] (advanced): one order for several problems
    that run with keep_order (one-vs-rest)."""
    cdef ptn_rng rng
    if rng_state.shape[0] != 1:
        raise ValueError("shuffle_rows: rng_state must hold one state")
    if rows.shape[0] == 0:
        return
    rng.state = rng_state[0]
    with nogil:
        active_simd().shuffle(&rng, &rows[0], <size_t>rows.shape[0])
    rng_state[0] = rng.state


def squared_norms(X, dtype=None):
    """||x_i||^2 of every row of X (as run_epochs takes it), float64: what a
    rule whose step reads the norms sees, computed once for a fit of many
    calls (run_epochs' ``sqnorm``).  `dtype`: the weights' (None: the
    rows' own, float32 for narrow rows); narrow rows meeting float64
    weights give the norms of the same rows in float64."""
    cdef DenseRows R
    cdef Py_ssize_t shape[2]
    cdef size_t weight_bytes = 4 if dtype is None else np.dtype(dtype).itemsize
    if isinstance(X, np.ndarray):
        if dense_rows_for(&R, X, shape, weight_bytes) == 4:
            return _norms_dense(&R, <const float *>R.X, shape[0])
        try:
            return _norms_dense(&R, <const double *>R.X, shape[0])
        finally:
            free(R.wide)
    values, binary = loop_values(X.data, X.indptr)
    return _norms_csr(values, X.indices, X.indptr, X.shape[1], binary)


cdef object _norms_dense(const Rows *R, const floating *dtype_of_x, Py_ssize_t n):
    out = _zeros(n, _F64)
    cdef double[::1] o = out
    rows = np.arange(n, dtype=np.intp)
    cdef const ptrdiff_t[::1] r = rows
    if n and R.d:
        with nogil:
            row_sqnorms(R, active_simd(), &r[0], n, dtype_of_x, &o[0])
    return out


def _norms_csr(const floating[::1] data, indices, indptr, Py_ssize_t n_features,
               Py_ssize_t binary):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef Py_ssize_t n = indptr.shape[0] - 1
    cdef const floating *val = NULL
    out = _zeros(n, _F64)
    cdef double[::1] o = out
    rows = np.arange(n, dtype=np.intp)
    cdef const ptrdiff_t[::1] r = rows
    if data.shape[0] == 0 or n == 0:
        return out
    val = &data[0]
    if csr_rows(&R32, &R64, val, indices, indptr, n_features,
                <size_t>n_features * sizeof(floating), binary):
        with nogil:
            row_sqnorms(&R32, active_simd(), &r[0], n, val, &o[0])
    else:
        with nogil:
            row_sqnorms(&R64, active_simd(), &r[0], n, val, &o[0])
    return out


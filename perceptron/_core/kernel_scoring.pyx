# cython: language_level=3
"""Scoring by a fitted kernel perceptron, and kernel matrices, without the GIL.

The support vectors are packed once (transposed, for rbf shifted by their
mean: translation changes no distance and removes the loss of digits an
offset would cause); each tile of rows then meets each block of support
vectors in one dot_block call, the values are finished in that small buffer
(perceptron/_core/kernel_values.pxd) and dotted with each class's
coefficients.  The dual fit is perceptron/_core/kernel.pyx.
"""
import numpy as np

from cython cimport floating

from perceptron.simd cimport ptn_simd, active_simd
from perceptron._core.kernel_values cimport (KernelSpec, _spec, _pack, _row_norms, _block_values,
                                             _KIND_RBF, _KIND_PRECOMPUTED)


cdef enum:
    # support vectors per block of a score computation (a multiple of the 64
    # outputs dot_block computes at once with AVX-512), and rows per tile: the
    # packed block (d x 64) and the tile's values (64 x 64) stay in L1/L2;
    # 256 x 16 ran 1.5-2x slower
    SCORE_BLOCK = 64
    SCORE_TILE = 64


cdef class _Packed:
    """Rows of a matrix packed for dot_block in blocks of SCORE_BLOCK (each
    (d, p) transposed and shifted), with their shifted norms."""
    cdef object BT
    cdef object nb
    cdef object shift
    cdef Py_ssize_t n
    cdef Py_ssize_t d


cdef _Packed _pack_rows(const floating[:, ::1] Y, const KernelSpec *ks):
    cdef _Packed pk = _Packed()
    cdef Py_ssize_t n = Y.shape[0], d = Y.shape[1], start, p
    pk.n, pk.d = n, d
    pk.shift = (np.asarray(Y).mean(axis=0, dtype=np.float64) if ks.kind == _KIND_RBF and n
                else np.zeros(d, dtype=np.float64))
    pk.BT = np.zeros(max(1, n * d), dtype=np.float64)
    pk.nb = np.zeros(max(1, n), dtype=np.float64)
    cdef double[::1] BT = pk.BT, nb = pk.nb, shift = pk.shift
    with nogil:
        start = 0
        while start < n:
            p = min(SCORE_BLOCK, n - start)
            # block b starts at start * d in BT: its (d, p) matrix
            _pack(ks, Y, NULL, start, p, &shift[0], &BT[start * d], &nb[start])
            start += p
    return pk


cdef void _score_rows(const ptn_simd *K, const KernelSpec *ks, const floating[:, ::1] X,
                      const double *BT, const double *nb, const double *shift, Py_ssize_t n_sv,
                      const double[:, ::1] coef, const double[::1] intercept,
                      double[:, ::1] out, double[:, ::1] values) noexcept nogil:
    """out[t, e] = sum_j coef[e, j] K(x_t, sv_j) + intercept[e] for every row
    t of X, or values[t, j] = K(x_t, sv_j) when `values` has rows; tile by
    tile of rows, block by block of support vectors."""
    cdef Py_ssize_t m = X.shape[0], d = X.shape[1], n_est = coef.shape[0]
    cdef Py_ssize_t t0, rows, start, p, r, e, q
    cdef double buf[SCORE_TILE * SCORE_BLOCK]
    cdef double na[SCORE_TILE]
    cdef bint want_values = values.shape[0] > 0
    t0 = 0
    while t0 < m:
        rows = min(SCORE_TILE, m - t0)
        if ks.kind == _KIND_RBF:
            _row_norms(X, t0, rows, shift, na)
        if not want_values:
            for r in range(rows):
                for e in range(n_est):
                    out[t0 + r, e] = intercept[e]
        start = 0
        while start < n_sv:
            p = min(SCORE_BLOCK, n_sv - start)
            _block_values(K, ks, rows, d, &X[t0, 0], shift, p, BT + start * d, na, nb + start,
                          buf)
            for r in range(rows):
                if want_values:
                    for q in range(p):
                        values[t0 + r, start + q] = buf[r * p + q]
                else:
                    for e in range(n_est):
                        out[t0 + r, e] += K.dot_f64(<size_t>p, buf + r * p, &coef[e, start])
            start += p
        t0 += rows


def decision_dual(const floating[:, ::1] X, const floating[:, ::1] SV, const double[:, ::1] coef,
                  const double[::1] intercept, double[:, ::1] out, *, int kind, double gamma,
                  double coef0, int degree):
    """out[t, e] = sum_j coef[e, j] K(SV[j], X[t]) + intercept[e] (shapes trusted).

    The support vectors are packed once (transposed, and for rbf shifted by
    their mean), then each tile of rows meets each block of support vectors
    in one dot_block call; the kernel values are finished (exp or the
    polynomial) in that small buffer and dotted with each class's
    coefficients.
    """
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t m = X.shape[0], d = X.shape[1], n_sv = SV.shape[0], n_est = coef.shape[0]
    cdef KernelSpec ks = _spec(kind, gamma, coef0, degree)
    if (SV.shape[1] != d or coef.shape[1] != n_sv or intercept.shape[0] != n_est
            or out.shape[0] != m or out.shape[1] != n_est or kind == _KIND_PRECOMPUTED):
        raise ValueError("decision_dual: inconsistent shapes or kernel")
    if m == 0:
        return
    cdef _Packed pk = _pack_rows(SV, &ks)
    cdef double[::1] BT = pk.BT, nb = pk.nb, shift = pk.shift
    cdef double[:, ::1] no_values = np.empty((0, 1), dtype=np.float64)
    with nogil:
        _score_rows(K, &ks, X, &BT[0], &nb[0], &shift[0], n_sv, coef, intercept, out, no_values)


def decision_precomputed(const floating[:, ::1] G, const Py_ssize_t[::1] columns,
                         const double[:, ::1] coef, const double[::1] intercept,
                         double[:, ::1] out):
    """out[t, e] = sum_j coef[e, j] G[t, columns[j]] + intercept[e], summed in
    double (G: kernel values against the training rows; shapes trusted,
    columns in range)."""
    cdef Py_ssize_t m = G.shape[0], n_sv = columns.shape[0], n_est = coef.shape[0]
    cdef Py_ssize_t t, j, e
    cdef double acc
    if coef.shape[1] != n_sv or intercept.shape[0] != n_est or out.shape[0] != m \
            or out.shape[1] != n_est:
        raise ValueError("decision_precomputed: inconsistent shapes")
    for j in range(n_sv):
        if columns[j] < 0 or columns[j] >= G.shape[1]:
            raise ValueError("decision_precomputed: column index out of range")
    with nogil:
        for t in range(m):
            for e in range(n_est):
                acc = 0.0
                for j in range(n_sv):
                    acc += coef[e, j] * G[t, columns[j]]
                out[t, e] = acc + intercept[e]


def kernel_matrix(const floating[:, ::1] X, const floating[:, ::1] Y, *, int kind,
                  double gamma, double coef0, int degree):
    """The kernel matrix K[a, b] = K(X[a], Y[b]) (n_X, n_Y), float64, by the
    blocked code path of scoring (for tests, and for users who want the Gram
    matrix of a kernel)."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t nx = X.shape[0], ny = Y.shape[0], d = X.shape[1]
    cdef KernelSpec ks = _spec(kind, gamma, coef0, degree)
    if Y.shape[1] != d or kind == _KIND_PRECOMPUTED:
        raise ValueError("kernel_matrix: X and Y need the same number of columns")
    out = np.empty((nx, ny), dtype=np.float64)
    if nx == 0 or ny == 0:
        return out
    cdef _Packed pk = _pack_rows(Y, &ks)
    cdef double[::1] BT = pk.BT, nb = pk.nb, shift = pk.shift
    cdef double[:, ::1] values = out
    cdef double[:, ::1] no_coef = np.empty((0, 1), dtype=np.float64)
    cdef double[::1] no_intercept = np.empty(0, dtype=np.float64)
    with nogil:
        _score_rows(K, &ks, X, &BT[0], &nb[0], &shift[0], ny, no_coef, no_intercept, values,
                    values)
    return out

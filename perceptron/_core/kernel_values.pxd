# Kernel values for the kernel perceptron's loops (perceptron/_core/kernel.pyx,
# the dual fit; perceptron/_core/kernel_scoring.pyx, scoring): the kernel's
# parameters, and blocks of values K(a_r, b_q) computed as a matrix product by
# the dot_block SIMD kernel, then finished (rbf: exp of the clipped squared
# distance; poly, sigmoid: of the dot product).

from cython cimport floating
from libc.math cimport tanh

from perceptron.simd cimport ptn_simd, kdot_block

cdef enum:
    _KIND_LINEAR = 0
    _KIND_POLY = 1
    _KIND_RBF = 2
    _KIND_SIGMOID = 3
    _KIND_PRECOMPUTED = 4


cdef struct KernelSpec:
    int kind
    double gamma
    double neg_gamma
    double coef0
    int degree


cdef inline KernelSpec _spec(int kind, double gamma, double coef0, int degree):
    cdef KernelSpec ks
    ks.kind = kind
    ks.gamma = gamma
    ks.neg_gamma = -gamma
    ks.coef0 = coef0
    ks.degree = degree
    return ks


cdef inline double _ipow(double v, int degree) noexcept nogil:
    """v**degree by repeated squaring: exact whenever the powers are (integers)."""
    cdef double result = 1.0
    while degree > 0:
        if degree & 1:
            result *= v
        degree >>= 1
        if degree:
            v *= v
    return result


cdef inline double _finish(const KernelSpec *ks, double v) noexcept nogil:
    """Kernel value from the pair's dot product (poly, sigmoid; linear: as is)."""
    if ks.kind == _KIND_POLY:
        return _ipow(ks.gamma * v + ks.coef0, ks.degree)
    if ks.kind == _KIND_SIGMOID:
        return tanh(ks.gamma * v + ks.coef0)
    return v


cdef inline void _pack(const KernelSpec *ks, const floating[:, ::1] X, const Py_ssize_t *rows,
                Py_ssize_t first, Py_ssize_t p, const double *shift, double *BT,
                double *nb) noexcept nogil:
    """BT (d, p) = the rows (rows[q], or first + q when rows is NULL) of X
    minus shift, transposed, for dot_block; rbf: nb[q] = ||row_q - shift||^2."""
    cdef Py_ssize_t d = X.shape[1], q, i, r
    cdef double v, acc
    for q in range(p):
        r = rows[q] if rows != NULL else first + q
        acc = 0.0
        for i in range(d):
            v = X[r, i] - shift[i]
            BT[i * p + q] = v
            acc += v * v
        nb[q] = acc


cdef inline void _row_norms(const floating[:, ::1] X, Py_ssize_t first, Py_ssize_t m,
                     const double *shift, double *na) noexcept nogil:
    """na[r] = ||X[first + r] - shift||^2."""
    cdef Py_ssize_t d = X.shape[1], r, i
    cdef double v, acc
    for r in range(m):
        acc = 0.0
        for i in range(d):
            v = X[first + r, i] - shift[i]
            acc += v * v
        na[r] = acc


cdef inline void _block_values(const ptn_simd *K, const KernelSpec *ks, Py_ssize_t rows,
                        Py_ssize_t d, const floating *A, const double *shift, Py_ssize_t p,
                        const double *BT, const double *na, const double *nb,
                        double *buf) noexcept nogil:
    """buf[r*p + q] = K(A_r, B_q) for r < rows, q < p: A's rows contiguous
    (d apart), B packed by _pack, na the norms of A's shifted rows (rbf)."""
    cdef Py_ssize_t i
    kdot_block(K, rows, d, A, d, shift, p, BT, buf)
    if ks.kind == _KIND_RBF:
        # the squared distances from the norms, clipped at 0 (rounding can
        # leave a tiny negative for nearly equal points), and their exp
        K.rbf_block_f64(<size_t>rows, <size_t>p, na, nb, ks.gamma, buf)
    elif ks.kind == _KIND_POLY or ks.kind == _KIND_SIGMOID:
        for i in range(rows * p):
            buf[i] = _finish(ks, buf[i])

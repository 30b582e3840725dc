# cython: language_level=3
"""Typed scoring loops: the activations w_j.x + b_j of each row, without the GIL.

A row is read once and dotted with each row of weights by the SIMD kernels
(the weights stay in cache); the caller may split the rows among threads,
each call writing only its own rows of the output, which is how prediction
uses several cores.  Dense rows (decision_dense) and CSR rows
(decision_csr, over the fused row type of perceptron/_core/rows.pxd) each have
their loop.
"""
import numpy as np

from cython cimport floating
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int32_t, int64_t
from libc.string cimport memcpy

from perceptron.simd cimport ptn_simd, active_simd, kdot
from perceptron._core.rows cimport (Rows, DenseRows, CsrRows32, CsrRows64, csr_rows, row_dot,
                                    row_prefetch, dense_rows, dense_row, dense_itemsize,
                                    row_bytes as csr_row_bytes)
from perceptron._core.prefetch cimport ptn_prefetch_range, order_ahead, PREFETCH_MAX_CSR_ROWS


def decision_dense(const floating[:, ::1] X, const floating[:, ::1] W, const double[::1] b,
                   double[:, ::1] out, const ptrdiff_t[::1] rows=None):
    """out[r, j] = X[i] . W[j] + b[j] for the rows i of X (all, or `rows`).

    Shapes are trusted: W (k, d), b (k,), out (n_rows, k).
    """
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t n = X.shape[0] if rows is None else rows.shape[0]
    cdef Py_ssize_t d = X.shape[1], k = W.shape[0], r, j
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    cdef Py_ssize_t ahead
    cdef ptrdiff_t i
    cdef const floating *x
    if W.shape[1] != d or b.shape[0] != k or out.shape[0] != n or out.shape[1] != k:
        raise ValueError("decision_dense: inconsistent shapes")
    if n == 0:
        return
    ahead = order_ahead(NULL if rows is None else &rows[0], n, row_bytes)
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


def decision_narrow(X, const float[:, ::1] W, const double[::1] b, double[:, ::1] out,
                    const ptrdiff_t[::1] rows=None):
    """decision_dense over rows stored narrower than the float32 weights W
    (float16, bfloat16, int8, uint8: perceptron._core.rows.narrow_kind),
    read as stored by the narrow kernels (csrc/ptn_narrow.h): each
    activation has the bits decision_dense gives on X converted to float32.
    """
    cdef const ptn_simd *K = active_simd()
    cdef DenseRows R
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t n, d, k = W.shape[0], r, j, ahead
    cdef ptrdiff_t i
    cdef size_t row_bytes
    dense_rows(&R, X, shape)
    if R.xkind == 0:
        raise TypeError(f"decision_narrow: X has dtype {X.dtype}, not a narrow one")
    n = shape[0] if rows is None else rows.shape[0]
    d = shape[1]
    if W.shape[1] != d or b.shape[0] != k or out.shape[0] != n or out.shape[1] != k:
        raise ValueError("decision_narrow: inconsistent shapes")
    if n == 0:
        return
    row_bytes = <size_t>d * dense_itemsize(&R, 4)
    ahead = order_ahead(NULL if rows is None else &rows[0], n, row_bytes)
    with nogil:
        for r in range(n):
            i = r if rows is None else rows[r]
            if r + ahead < n:
                ptn_prefetch_range(dense_row(&R, r + ahead if rows is None else rows[r + ahead],
                                             4), row_bytes)
            for j in range(k):
                out[r, j] = row_dot(&R, K, i, &W[j, 0]) + b[j]


cdef void _decision_rows(const Rows *R, const floating *W, const double *b, Py_ssize_t k,
                         Py_ssize_t d, Py_ssize_t start, Py_ssize_t n, const ptrdiff_t *rows,
                         Py_ssize_t ahead, double *out) noexcept nogil:
    """out[r, j] = x_i . W[j] + b[j] for i = start + r, or rows[r] when given."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t r, j
    cdef ptrdiff_t i
    for r in range(n):
        i = start + r if rows == NULL else rows[r]
        if ahead and r + ahead < n:
            row_prefetch(R, rows[r + ahead], W)
        for j in range(k):
            out[r * k + j] = row_dot(R, K, i, W + j * d) + b[j]




def decision_csr(const floating[::1] data, indices, indptr, Py_ssize_t n_features,
                 const floating[:, ::1] W, const double[::1] b, double[:, ::1] out,
                 Py_ssize_t start=0, const ptrdiff_t[::1] rows=None, Py_ssize_t binary=-1):
    """out[r, j] = x_i . W[j] + b[j] for CSR rows i = start + r (or rows[r]).

    data, indices, indptr: CSR arrays checked by the Python layer (indices
    int32 or int64 with indptr of the same dtype, in [0, n_features), no
    column repeated in a row); data in W's dtype.  Binary rows: data and
    `binary` as perceptron._core.csr.loop_values gives them.  The dot products are the
    sparse kernels' (exact double products, summed in double).  out's rows
    are the rows scored, so threads scoring disjoint ranges of rows can
    share one output through slices of it.
    """
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef Py_ssize_t n = out.shape[0], k = W.shape[0], n_rows = indptr.shape[0] - 1
    cdef const floating *val = NULL
    cdef const ptrdiff_t *row_ptr = NULL
    cdef Py_ssize_t ahead = 0
    if W.shape[1] != n_features or b.shape[0] != k or out.shape[1] != k:
        raise ValueError("decision_csr: inconsistent shapes")
    if (rows is None and (start < 0 or start + n > n_rows)) or \
            (rows is not None and rows.shape[0] != n):
        raise ValueError("decision_csr: the rows to score are out of range")
    if n == 0:
        return
    if data.shape[0]:
        val = &data[0]
    if rows is not None:
        row_ptr = &rows[0]
    if csr_rows(&R32, &R64, val, indices, indptr, n_features,
                <size_t>n_features * sizeof(floating), binary):
        if rows is not None:
            ahead = order_ahead(row_ptr, n, csr_row_bytes(&R32, n_rows, &W[0, 0]),
                                PREFETCH_MAX_CSR_ROWS)
            ahead = 0 if ahead >= n else ahead
        with nogil:
            _decision_rows(&R32, &W[0, 0], &b[0], k, n_features, start, n, row_ptr, ahead,
                           &out[0, 0])
    else:
        if rows is not None:
            ahead = order_ahead(row_ptr, n, csr_row_bytes(&R64, n_rows, &W[0, 0]),
                                PREFETCH_MAX_CSR_ROWS)
            ahead = 0 if ahead >= n else ahead
        with nogil:
            _decision_rows(&R64, &W[0, 0], &b[0], k, n_features, start, n, row_ptr, ahead,
                           &out[0, 0])


cdef enum:
    # rows scored, then picked, then their labels copied, a block at a time:
    # stores through unsigned char may alias anything, and interleaved with
    # the scoring (a label a row) they cost a 200,000 x 200 float32 predict
    # with 3-letter labels 16% of its time on one thread
    PICK_BLOCK = 64
    # the most activations a block keeps (16 KB, in L1 beside a row)
    PICK_ACTS = 2048


cdef inline Py_ssize_t _pick(const double *a, Py_ssize_t k, Py_ssize_t stride,
                             Py_ssize_t *nonfinite, Py_ssize_t *nan) noexcept nogil:
    """The class index of one row's activations a[0], a[stride], ...,
    a[(k - 1) * stride], as predict takes it from decision_function's: a[0] >
    0 for one row of weights, else the first largest (numpy's argmax: a NaN,
    the first one, wins).  Counts the non-finite activations and the NaNs,
    for the caller's checks."""
    cdef Py_ssize_t j, best = 0
    cdef double v, top = a[0]
    for j in range(k):
        v = a[j * stride]
        if not (v - v == 0.0):
            nonfinite[0] += 1
            if v != v:
                nan[0] += 1
    if k == 1:
        return <Py_ssize_t>(top > 0.0)
    if top != top:
        return 0
    for j in range(1, k):
        v = a[j * stride]
        if v != v:
            return j
        if v > top:
            top = v
            best = j
    return best


cdef extern from "ptn_pick.h" nogil:
    bint ptn_pick_rows(const double *acts, size_t m, size_t k, size_t stride, ptrdiff_t *picks)
    bint ptn_pick_signs(const double *acts, size_t m, ptrdiff_t *picks)


cdef void _pick_block(const double *acts, Py_ssize_t m, Py_ssize_t k, Py_ssize_t stride,
                      Py_ssize_t *picks, Py_ssize_t *nonfinite, Py_ssize_t *nan) noexcept nogil:
    """picks[q] = _pick of row q of a block of m rows whose activations are
    stored class by class: class j's at acts[j * stride:j * stride + m].

    All the rows at once, without a branch on an activation, checked in
    the same pass (csrc/ptn_pick.h: the measurements).  A block with a
    non-finite activation takes ``_pick`` row by row (the NaN rule, the
    counts)."""
    cdef Py_ssize_t q
    cdef bint bad
    if k == 1:
        bad = ptn_pick_signs(acts, <size_t>m, <ptrdiff_t *>picks)
    else:
        bad = ptn_pick_rows(acts, <size_t>m, <size_t>k, <size_t>stride, <ptrdiff_t *>picks)
    if bad:
        for q in range(m):
            picks[q] = _pick(acts + q, k, stride, nonfinite, nan)


def pick_scratch(Py_ssize_t k):
    """The scratch for predict_dense and predict_csr with k rows of weights:
    the activations of a block of rows (PICK_BLOCK of them, fewer for many
    classes, one at least)."""
    return np.empty(max(1, min(<Py_ssize_t>PICK_BLOCK, PICK_ACTS // max(k, 1))) * max(k, 1))


cdef inline void _copy_labels(const unsigned char *classes, Py_ssize_t size,
                              const Py_ssize_t *picks, Py_ssize_t m,
                              unsigned char *dst) noexcept nogil:
    cdef Py_ssize_t q
    for q in range(m):
        memcpy(dst + q * size, classes + picks[q] * size, <size_t>size)


cdef inline void _put_labels(const unsigned char *classes, Py_ssize_t size,
                             const Py_ssize_t *picks, Py_ssize_t m,
                             unsigned char *dst) noexcept nogil:
    """The labels of the classes picked for m rows to dst, one after the
    other.  The copy is inlined with the common widths as constants, so
    that a label is a move or two, without a test of the width for each
    one.  3-letter str labels (12 bytes), predict of 4,000 x 200 float32
    rows in cache, two classes: 1.12x the time of decision_dense with a
    test of the width a row, 1.08-1.09x with the width's loop chosen
    once."""
    if size == 12:
        _copy_labels(classes, 12, picks, m, dst)
    elif size == 8:
        _copy_labels(classes, 8, picks, m, dst)
    elif size == 4:
        _copy_labels(classes, 4, picks, m, dst)
    elif size == 16:
        _copy_labels(classes, 16, picks, m, dst)
    elif size == 1:
        _copy_labels(classes, 1, picks, m, dst)
    else:
        _copy_labels(classes, size, picks, m, dst)


cdef inline void _label_block(const double *acts, Py_ssize_t m, Py_ssize_t k, Py_ssize_t stride,
                              Py_ssize_t *picks, const unsigned char *cls, Py_ssize_t size,
                              unsigned char *dst, Py_ssize_t *nonfinite,
                              Py_ssize_t *nan) noexcept nogil:
    """The picks of a block of m rows (_pick_block) into picks, and with
    labels (dst not NULL) their labels into dst."""
    _pick_block(acts, m, k, stride, picks, nonfinite, nan)
    if dst != NULL:
        _put_labels(cls, size, picks, m, dst)


cdef int _check_labels(Py_ssize_t n, Py_ssize_t k, index, const unsigned char[:, ::1] classes,
                       unsigned char[:, ::1] labels, name) except -1:
    """index (n,), or classes (one row of bytes a class: 2 for one row of
    weights, else k) and labels (n rows as wide): where the picks go."""
    if classes is None and labels is None:
        if index is None or index.shape[0] != n:
            raise ValueError(f"{name}: inconsistent shapes")
        return 0
    if classes is None or labels is None or labels.shape[0] != n or \
            labels.shape[1] != classes.shape[1] or classes.shape[0] < (2 if k == 1 else k):
        raise ValueError(f"{name}: inconsistent shapes")
    return 0


def predict_dense(const floating[:, ::1] X, const floating[:, ::1] W, const double[::1] b,
                  Py_ssize_t[::1] index, double[::1] scratch,
                  const unsigned char[:, ::1] classes=None, unsigned char[:, ::1] labels=None):
    """index[i] = the class of row i of X (see _pick), from the activations
    decision_dense computes, the same operations in the same order; scratch
    (``pick_scratch(k)``, or any length from k up) holds the activations of
    the rows scored at a time.  With `classes` (the bytes of each class
    label, one row a class) and `labels` (n rows as wide), the label itself
    goes to labels[i] instead, in the same loop (index may be None).
    Returns (non-finite activations, NaNs) for the caller to raise on."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], k = W.shape[0], r, j, r0, q, m, rows
    cdef Py_ssize_t nonfinite = 0, nan = 0, size = 0
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    cdef Py_ssize_t ahead = order_ahead(NULL, n, row_bytes)
    cdef Py_ssize_t block[PICK_BLOCK]
    cdef Py_ssize_t *picks
    cdef double *a
    cdef const floating *x
    cdef const unsigned char *cls = NULL
    cdef unsigned char *lab = NULL
    cdef Py_ssize_t *idx = NULL
    if W.shape[1] != d or b.shape[0] != k or scratch.shape[0] < k:
        raise ValueError("predict_dense: inconsistent shapes")
    _check_labels(n, k, index, classes, labels, "predict_dense")
    if n == 0:
        return 0, 0
    if d == 0:
        raise ValueError("predict_dense: X has no features")
    a = &scratch[0]
    if labels is not None:
        size = labels.shape[1]
        if size == 0:
            return _predict_dense_count(X, W, b, scratch)
        cls = &classes[0, 0]
        lab = &labels[0, 0]
    else:
        idx = &index[0]
    rows = min(<Py_ssize_t>PICK_BLOCK, scratch.shape[0] // k)
    with nogil:
        r0 = 0
        while r0 < n:
            m = min(rows, n - r0)
            for q in range(m):
                r = r0 + q
                if r + ahead < n:
                    ptn_prefetch_range(&X[r + ahead, 0], row_bytes)
                x = &X[r, 0]
                for j in range(k):
                    a[j * rows + q] = kdot(K, d, x, &W[j, 0]) + b[j]
            _label_block(a, m, k, rows, idx + r0 if lab == NULL else &block[0], cls, size,
                         NULL if lab == NULL else lab + r0 * size, &nonfinite, &nan)
            r0 += m
    return nonfinite, nan


def _predict_dense_count(const floating[:, ::1] X, const floating[:, ::1] W, const double[::1] b,
                         double[::1] scratch):
    """Labels of no bytes (dtype 'U0'): nothing to write, the checks still run."""
    cdef Py_ssize_t[::1] index = np.empty(X.shape[0], dtype=np.intp)
    return predict_dense(X, W, b, index, scratch)


cdef void _predict_rows(const Rows *R, const floating *W, const double *b, Py_ssize_t k,
                        Py_ssize_t d, Py_ssize_t start, Py_ssize_t n, double *a,
                        Py_ssize_t rows, Py_ssize_t *index, const unsigned char *cls,
                        Py_ssize_t size, unsigned char *lab, Py_ssize_t *nonfinite,
                        Py_ssize_t *nan) noexcept nogil:
    """predict_dense's loop over CSR rows: `rows` rows scored into a (class
    by class, rows activations each), picked, their labels copied, a block
    at a time."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t r0 = 0, q, j, m
    cdef Py_ssize_t block[PICK_BLOCK]
    cdef Py_ssize_t *picks
    while r0 < n:
        m = min(rows, n - r0)
        for q in range(m):
            for j in range(k):
                a[j * rows + q] = row_dot(R, K, start + r0 + q, W + j * d) + b[j]
        _label_block(a, m, k, rows, index + r0 if lab == NULL else &block[0], cls, size,
                     NULL if lab == NULL else lab + r0 * size, nonfinite, nan)
        r0 += m


def predict_csr(const floating[::1] data, indices, indptr, Py_ssize_t n_features,
                const floating[:, ::1] W, const double[::1] b, Py_ssize_t[::1] index,
                double[::1] scratch, Py_ssize_t start=0,
                const unsigned char[:, ::1] classes=None, unsigned char[:, ::1] labels=None,
                Py_ssize_t binary=-1):
    """predict_dense for the CSR rows start, start + 1, ... (as decision_csr
    scores them); the number of rows is the length of index (of labels when
    classes and labels are given).  `binary` as in decision_csr."""
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef Py_ssize_t n, k = W.shape[0], n_rows = indptr.shape[0] - 1, rows
    cdef Py_ssize_t nonfinite = 0, nan = 0, size = 0
    cdef const floating *val = NULL
    cdef const unsigned char *cls = NULL
    cdef unsigned char *lab = NULL
    cdef Py_ssize_t *idx = NULL
    cdef Py_ssize_t[::1] own
    if labels is not None:
        n = labels.shape[0]
    elif index is not None:
        n = index.shape[0]
    else:
        raise ValueError("predict_csr: inconsistent shapes")
    if W.shape[1] != n_features or b.shape[0] != k or scratch.shape[0] < k:
        raise ValueError("predict_csr: inconsistent shapes")
    _check_labels(n, k, index, classes, labels, "predict_csr")
    if start < 0 or start + n > n_rows:
        raise ValueError("predict_csr: the rows to score are out of range")
    if n == 0:
        return 0, 0
    if data.shape[0]:
        val = &data[0]
    if labels is not None and labels.shape[1] != 0:
        size = labels.shape[1]
        cls = &classes[0, 0]
        lab = &labels[0, 0]
    elif labels is not None:  # labels of no bytes: the picks go nowhere
        own = np.empty(n, dtype=np.intp)
        idx = &own[0]
    else:
        idx = &index[0]
    rows = min(<Py_ssize_t>PICK_BLOCK, scratch.shape[0] // k)
    if csr_rows(&R32, &R64, val, indices, indptr, n_features,
                <size_t>n_features * sizeof(floating), binary):
        with nogil:
            _predict_rows(&R32, &W[0, 0], &b[0], k, n_features, start, n, &scratch[0], rows,
                          idx, cls, size, lab, &nonfinite, &nan)
    else:
        with nogil:
            _predict_rows(&R64, &W[0, 0], &b[0], k, n_features, start, n, &scratch[0], rows,
                          idx, cls, size, lab, &nonfinite, &nan)
    return nonfinite, nan

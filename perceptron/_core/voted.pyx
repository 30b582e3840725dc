# cython: language_level=3
"""Typed loops of the voted perceptron (Freund and Schapire 1999, Figure 1).

Training keeps every weight vector the perceptron passes through together
with its survival count c (1 when it is made, +1 for each example it then
classifies right); prediction is the vote sum_i c_i sign(v_i.x + b_i).  The
vectors live in a C buffer that grows by doubling up to `max_vectors`; past
that the vector with the smallest count gives its place to a newcomer with a
larger count (a newcomer loses ties), so the store holds the
`max_vectors` heaviest voters and memory is bounded by
max_vectors * (d + 2) numbers.

Each vector differs from the one before it by one update, y_i x_i: over
sparse rows the fit can keep the updates instead of the vectors (`sparse`):
the store then holds each kept vector's number of updates, the fit records
the row of every update (8 bytes a mistake), and a vector's activation is
scored by accumulating the updates' dot products in turn,
v_k.x = sum_{t <= k} y_t x_t.x, every vector of a row in one pass over the
updates (``decision_voted_updates``).  On rows of integers the activations
are those of the dense vectors exactly; otherwise they differ from them by
rounding, the dense vectors' coordinates being rounded sums and the
accumulated activations rounded sums of dot products.

The loops are written once over the fused row type of perceptron/_core/rows.pxd:
dense rows and CSR rows (int32 or int64 indices) in float32 or float64.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport uint64_t, int32_t, int64_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals

from perceptron.simd cimport ptn_simd, active_simd, ptn_rng, ptn_rng_seed
from perceptron._core.prefetch cimport order_ahead, rows_ahead
from perceptron._core.rows cimport (Rows, DenseRows, CsrRows32, CsrRows64, csr_rows, row_dot,
                                    row_axpy, row_finite, row_prefetch,
                                    row_prefetch_start, row_bytes, max_ahead)

cdef enum:
    _OK = 0
    _NONFINITE_X = 1
    _OVERFLOW = 2
    _NO_MEMORY = 4
    SIGNAL_CHECK_BYTES = 4194304

STATUS_OK = _OK
STATUS_NONFINITE_X = _NONFINITE_X
STATUS_OVERFLOW = _OVERFLOW
STATUS_NO_MEMORY = _NO_MEMORY


cdef struct Store:
    void *V                  # (capacity, d) vectors, in the data's dtype
    double *b                # (capacity,) biases
    int64_t *c               # (capacity,) survival counts
    Py_ssize_t n
    Py_ssize_t capacity
    Py_ssize_t max_vectors
    Py_ssize_t d
    size_t itemsize
    int64_t evicted          # vectors dropped by the budget


cdef struct Updates:
    int64_t *rows            # the row of each update, in order
    Py_ssize_t n
    Py_ssize_t capacity


cdef int _record(Updates *U, int64_t i) noexcept nogil:
    """Append row i; returns -1 if memory ran out."""
    cdef Py_ssize_t cap
    cdef int64_t *rows
    if U.n == U.capacity:
        cap = max(64, 2 * U.capacity)
        rows = <int64_t *>realloc(U.rows, <size_t>cap * sizeof(int64_t))
        if rows == NULL:
            return -1
        U.rows = rows
        U.capacity = cap
    U.rows[U.n] = i
    U.n += 1
    return 0


cdef int _grow(Store *S) noexcept nogil:
    cdef Py_ssize_t cap = min(max(16, 2 * S.capacity), S.max_vectors)
    cdef void *V = realloc(S.V, <size_t>(cap * S.d) * S.itemsize)
    if V == NULL:
        return -1
    S.V = V
    cdef double *b = <double *>realloc(S.b, <size_t>cap * sizeof(double))
    if b == NULL:
        return -1
    S.b = b
    cdef int64_t *c = <int64_t *>realloc(S.c, <size_t>cap * sizeof(int64_t))
    if c == NULL:
        return -1
    S.c = c
    S.capacity = cap
    return 0


cdef int _push(Store *S, const void *w, double b, int64_t count) noexcept nogil:
    """Store (w, b, count); returns -1 if memory ran out."""
    cdef Py_ssize_t slot, j
    if count <= 0:
        return 0  # a vector that never classified anything right has no vote
    if S.n < S.max_vectors:
        if S.n == S.capacity and _grow(S) != 0:
            return -1
        slot = S.n
        S.n += 1
    else:
        slot = 0
        for j in range(1, S.n):
            if S.c[j] < S.c[slot]:
                slot = j
        S.evicted += 1
        if count <= S.c[slot]:
            return 0  # the newcomer is the lightest voter: it is the one dropped
    memcpy(<char *>S.V + <size_t>(slot * S.d) * S.itemsize, w, <size_t>S.d * S.itemsize)
    S.b[slot] = b
    S.c[slot] = count
    return 0


cdef int _fit(const Rows *R, Py_ssize_t n, const signed char *y, ptrdiff_t *rows,
              Py_ssize_t n_rows, floating *w, double *b, bint fit_intercept, bint shuffle,
              Py_ssize_t max_iter, ptn_rng *rng, Store *S, Updates *U, int64_t *mistakes,
              Py_ssize_t *epochs_done, Py_ssize_t *bad_row, void *on_epoch) except -1 nogil:
    # U: NULL to store the vectors (S holds d values a vector), else the
    # updates (S holds a vector's number of updates, `made`)
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t d = R.d, e, k, j
    cdef size_t bytes_per_row = row_bytes(R, n, w)
    # (a shuffled fit's rows change order each epoch: always prefetched)
    cdef Py_ssize_t ahead = (rows_ahead(n_rows, bytes_per_row) if shuffle
                             else order_ahead(rows, n_rows, bytes_per_row))
    cdef Py_ssize_t check_every = max(1, SIGNAL_CHECK_BYTES // max(<Py_ssize_t>bytes_per_row, 1))
    cdef Py_ssize_t countdown = check_every
    cdef int64_t count = 0, m, made = 0
    # what the store keeps of a vector: its d values, or its number of updates
    cdef const void *item = <const void *>w if U == NULL else <const void *>&made
    cdef ptrdiff_t i
    cdef double a
    for e in range(max_iter):
        if shuffle:
            active_simd().shuffle(rng, rows, <size_t>n_rows)
        m = 0
        for k in range(n_rows):
            i = rows[k]
            if k + ahead < n_rows:
                if k + 2 * ahead < n_rows:
                    row_prefetch_start(R, rows[k + 2 * ahead])
                row_prefetch(R, rows[k + ahead], w)
            a = row_dot(R, K, i, w) + b[0]
            if not (0.0 < y[i] * a < HUGE_VAL):
                if not isfinite(a):
                    if not row_finite(R, i, w):
                        bad_row[0] = i
                        return _NONFINITE_X
                    return _OVERFLOW
                if _push(S, item, b[0], count) != 0:
                    return _NO_MEMORY
                row_axpy(R, K, i, <double>y[i], w)
                if U != NULL:
                    if _record(U, i) != 0:
                        return _NO_MEMORY
                    made += 1
                if fit_intercept:
                    b[0] += y[i]
                count = 1
                m += 1
            else:
                count += 1
            countdown -= 1
            if countdown == 0:
                countdown = check_every
                with gil:
                    PyErr_CheckSignals()
        mistakes[e] = m
        epochs_done[0] = e + 1
        if on_epoch != NULL:  # the estimator's progress bar: (epoch, mistakes)
            with gil:
                (<object>on_epoch)(e + 1, m)
        for j in range(d):
            if not isfinite(w[j]):
                return _OVERFLOW
        if m == 0:
            break
    if _push(S, item, b[0], count) != 0:
        return _NO_MEMORY
    return _OK




def fit_voted(X, y, rows, *, bint fit_intercept, bint shuffle, Py_ssize_t max_iter,
              uint64_t seed, Py_ssize_t max_vectors, on_epoch=None, bint sparse=False):
    """Train the voted perceptron; returns a dict of numpy arrays and counts.

    X is a C-contiguous (n, d) float32 or float64 array, or checked CSR data
    (``data``, ``indices``, ``indptr``, ``shape``: see
    ``perceptron._common.validation.CsrInput``).  Epoch e visits `rows` in the order
    of e + 1 Fisher-Yates shuffles drawn from SplitMix64(seed) when
    `shuffle` (the same orders as the other loops).  `on_epoch`, when
    given, is called with (epoch, mistakes) after each epoch, with the GIL.
    `sparse`: keep the updates, not the vectors: the dict's "vectors" is
    None, "vector_updates" holds each kept vector's number of updates (in the
    order of "counts" and "intercepts") and "update_rows" the row of each
    update.  The caller validated everything.
    """
    args = (y, rows, fit_intercept, shuffle, max_iter, seed, max_vectors, on_epoch, sparse)
    if isinstance(X, np.ndarray):
        return _fit_dense(X, *args)
    return _fit_csr(X.data, X.indices, X.indptr, X.shape[1], *args)


def _fit_dense(const floating[:, ::1] X, const signed char[::1] y, ptrdiff_t[::1] rows,
               bint fit_intercept, bint shuffle, Py_ssize_t max_iter, uint64_t seed,
               Py_ssize_t max_vectors, on_epoch, bint sparse):
    cdef DenseRows R
    R.X = &X[0, 0]
    R.xkind = 0
    R.wide = NULL
    R.d = X.shape[1]
    return _fit_rows(&R, &X[0, 0], X.shape[0], X.shape[1], y, rows, fit_intercept, shuffle,
                     max_iter, seed, max_vectors, on_epoch, sparse)


def _fit_csr(const floating[::1] data, indices, indptr, Py_ssize_t d, const signed char[::1] y,
             ptrdiff_t[::1] rows, bint fit_intercept, bint shuffle, Py_ssize_t max_iter,
             uint64_t seed, Py_ssize_t max_vectors, on_epoch, bint sparse):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const floating *val = NULL
    cdef Py_ssize_t n = indptr.shape[0] - 1
    if data.shape[0]:
        val = &data[0]
    if csr_rows(&R32, &R64, val, indices, indptr, d, <size_t>d * sizeof(floating)):
        return _fit_rows(&R32, val, n, d, y, rows, fit_intercept, shuffle, max_iter, seed,
                         max_vectors, on_epoch, sparse)
    return _fit_rows(&R64, val, n, d, y, rows, fit_intercept, shuffle, max_iter, seed,
                     max_vectors, on_epoch, sparse)


cdef object _fit_rows(const Rows *R, const floating *dtype_of_x, Py_ssize_t n, Py_ssize_t d,
                      const signed char[::1] y, ptrdiff_t[::1] rows, bint fit_intercept,
                      bint shuffle, Py_ssize_t max_iter, uint64_t seed, Py_ssize_t max_vectors,
                      object on_epoch, bint sparse):
    cdef Store S
    cdef Updates U
    cdef void *callback = NULL if on_epoch is None else <void *>on_epoch
    cdef ptn_rng rng
    cdef Py_ssize_t epochs = 0, bad_row = -1, n_rows = rows.shape[0]
    cdef floating[::1] w = np.zeros(d, dtype=np.float32 if floating is float else np.float64)
    cdef double b = 0.0
    cdef int64_t[::1] mistakes = np.zeros(max_iter, dtype=np.int64)
    cdef int status = _OK
    if d == 0 or n_rows == 0 or max_iter < 1 or max_vectors < 1:
        raise ValueError("fit_voted: empty input")
    memset(&S, 0, sizeof(S))
    memset(&U, 0, sizeof(U))
    S.max_vectors = max_vectors
    S.d = 1 if sparse else d
    S.itemsize = sizeof(int64_t) if sparse else sizeof(floating)
    ptn_rng_seed(&rng, seed)
    try:
        with nogil:
            status = _fit(R, n, &y[0], &rows[0], n_rows, &w[0], &b, fit_intercept, shuffle,
                          max_iter, &rng, &S, &U if sparse else NULL, &mistakes[0], &epochs,
                          &bad_row, callback)
        dtype = np.float32 if floating is float else np.float64
        return {
            "status": status,
            "bad_row": bad_row,
            "epochs": epochs,
            "mistakes": np.asarray(mistakes[:epochs]).copy(),
            "vectors": None if sparse else _copy_out(&S, dtype),
            "vector_updates": _copy_out(&S, np.int64).reshape(-1) if sparse else None,
            "update_rows": (np.array(<int64_t[:U.n]>U.rows, dtype=np.int64) if U.n
                            else np.zeros(0, dtype=np.int64)),
            "intercepts": np.array([S.b[j] for j in range(S.n)], dtype=np.float64),
            "counts": np.array([S.c[j] for j in range(S.n)], dtype=np.int64),
            "evicted": S.evicted,
            "final_w": np.asarray(w).copy(),
            "final_b": b,
        }
    finally:
        free(S.V)
        free(S.b)
        free(S.c)
        free(U.rows)


cdef object _copy_out(Store *S, dtype):
    out = np.empty((S.n, S.d), dtype=dtype)
    cdef unsigned char[::1] raw
    if S.n:
        raw = out.reshape(-1).view(np.uint8)
        memcpy(&raw[0], S.V, <size_t>(S.n * S.d) * S.itemsize)
    return out


cdef void _vote(const Rows *R, const floating *V, const double *b, const int64_t *c,
                Py_ssize_t m, Py_ssize_t d, Py_ssize_t start, Py_ssize_t n,
                double *out) noexcept nogil:
    """out[r] = sum_j c_j sign(V_j . x_i + b_j) for i = start + r, sign(0) = -1."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t r, j
    cdef Py_ssize_t ahead = order_ahead(NULL, n, row_bytes(R, n, V), max_ahead(R))
    cdef double vote
    for r in range(n):
        if r + ahead < n:
            row_prefetch(R, start + r + ahead, V)
        vote = 0.0
        for j in range(m):
            if row_dot(R, K, start + r, V + j * d) + b[j] > 0.0:
                vote += <double>c[j]
            else:
                vote -= <double>c[j]
        out[r] = vote


def decision_voted(X, V, const double[::1] b, const int64_t[::1] c, double[::1] out,
                   Py_ssize_t start=0):
    """out[r] = sum_j c_j sign(V_j . x_i + b_j), sign(0) = -1, for the rows
    i = start + r of X (dense, or checked CSR data as fit_voted takes).

    V is C-contiguous in X's dtype; shapes are checked, values trusted.
    """
    if isinstance(X, np.ndarray):
        _decision_dense(X, V, b, c, out, start)
    else:
        _decision_csr(X.data, X.indices, X.indptr, X.shape[1], V, b, c, out, start)


cdef int _check_vote_shapes(Py_ssize_t n_rows, Py_ssize_t d, Py_ssize_t vd, Py_ssize_t m,
                            const double[::1] b, const int64_t[::1] c, double[::1] out,
                            Py_ssize_t start) except -1:
    if vd != d or b.shape[0] != m or c.shape[0] != m or start < 0 or \
            start + out.shape[0] > n_rows:
        raise ValueError("decision_voted: inconsistent shapes")
    return 0


def _decision_dense(const floating[:, ::1] X, const floating[:, ::1] V, const double[::1] b,
                    const int64_t[::1] c, double[::1] out, Py_ssize_t start):
    cdef DenseRows R
    cdef Py_ssize_t n = out.shape[0]
    _check_vote_shapes(X.shape[0], X.shape[1], V.shape[1], V.shape[0], b, c, out, start)
    if n == 0 or V.shape[0] == 0:
        out[:] = 0.0
        return
    R.X = &X[0, 0]
    R.xkind = 0
    R.wide = NULL
    R.d = X.shape[1]
    with nogil:
        _vote(&R, &V[0, 0], &b[0], &c[0], V.shape[0], R.d, start, n, &out[0])


def _decision_csr(const floating[::1] data, indices, indptr, Py_ssize_t d,
                  const floating[:, ::1] V, const double[::1] b, const int64_t[::1] c,
                  double[::1] out, Py_ssize_t start):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const floating *val = NULL
    cdef Py_ssize_t n = out.shape[0], m = V.shape[0]
    _check_vote_shapes(indptr.shape[0] - 1, d, V.shape[1], m, b, c, out, start)
    if n == 0 or m == 0:
        out[:] = 0.0
        return
    if data.shape[0]:
        val = &data[0]
    if csr_rows(&R32, &R64, val, indices, indptr, d, <size_t>d * sizeof(floating)):
        with nogil:
            _vote(&R32, &V[0, 0], &b[0], &c[0], m, d, start, n, &out[0])
    else:
        with nogil:
            _vote(&R64, &V[0, 0], &b[0], &c[0], m, d, start, n, &out[0])


# ------------------------------------------------ the vote of stored updates

cdef inline void _spread(const double *cval, const int64_t *crow, const int64_t *cptr,
                         Py_ssize_t f, double x, double *delta) noexcept nogil:
    """delta[t] += x * (update t)[f] over the updates with a value in column f."""
    cdef Py_ssize_t q
    for q in range(cptr[f], cptr[f + 1]):
        delta[crow[q]] += x * cval[q]


cdef void _vote_updates(const Rows *R, const floating *dtype_of_x, const int64_t *cptr,
                        const int64_t *crow, const double *cval, Py_ssize_t T,
                        const int64_t *upto, const double *b, const int64_t *c, Py_ssize_t m,
                        Py_ssize_t start, Py_ssize_t n, double *delta, double *out) noexcept nogil:
    """out[r] = sum_j c_j sign(a_j + b_j), sign(0) = -1, for i = start + r, where
    a_j = sum_{t < upto[j]} (update t) . x_i: the activations of the kept
    vectors, accumulated in one pass over the updates (upto rising).  The
    updates are read by column (cptr, crow, cval: the CSC form of the T
    updates), so a row costs the updates that share a column with it, not
    all of them: delta[t] (T zeros) gathers each update's dot product with
    the row, and is zeroed again as the pass reads it."""
    cdef Py_ssize_t r, i, j, t, q, lo, hi
    cdef double a, vote, x
    for r in range(n):
        i = start + r
        if Rows is DenseRows:
            for q in range(R.d):
                x = <double>(<const floating *>R.X)[i * R.d + q]
                if x != 0.0:
                    _spread(cval, crow, cptr, q, x, delta)
        else:
            lo = <Py_ssize_t>R.ptr[i]
            hi = <Py_ssize_t>R.ptr[i + 1]
            for q in range(lo, hi):
                _spread(cval, crow, cptr, <Py_ssize_t>R.idx[q],
                        <double>(<const floating *>R.val)[q], delta)
        a = 0.0
        t = 0
        vote = 0.0
        for j in range(m):
            while t < upto[j]:
                a += delta[t]
                delta[t] = 0.0
                t += 1
            if a + b[j] > 0.0:
                vote += <double>c[j]
            else:
                vote -= <double>c[j]
        for t in range(t, T):  # updates past the last voter
            delta[t] = 0.0
        out[r] = vote


def decision_voted_updates(X, const int64_t[::1] ptr, const int64_t[::1] idx,
                           const double[::1] val, const int64_t[::1] upto, const double[::1] b,
                           const int64_t[::1] c, double[::1] out, Py_ssize_t start=0):
    """The vote of ``decision_voted`` for vectors kept as their updates: update
    t is the sparse vector (idx, val)[ptr[t]:ptr[t + 1]] (y_t x_t), vector j
    the sum of the first upto[j] updates (upto rising), b its bias and c its
    count; rows i = start + r of X (dense, or checked CSR data).

    Everything is checked here, in one pass over the updates: the pointers,
    the columns against X's width, the order of `upto`.
    """
    cdef Py_ssize_t n = out.shape[0], m = upto.shape[0], T = ptr.shape[0] - 1, t, j
    cdef Py_ssize_t nnz = idx.shape[0]
    cdef Py_ssize_t d = X.shape[1]
    cdef int64_t bad = 0
    if (T < 0 or val.shape[0] != nnz or b.shape[0] != m or c.shape[0] != m or start < 0
            or start + n > X.shape[0]):
        raise ValueError("decision_voted_updates: inconsistent shapes")
    with nogil:
        bad = ptr[0] != 0 or ptr[T] != nnz
        for t in range(T):
            bad |= ptr[t + 1] < ptr[t]
        for t in range(nnz):
            bad |= idx[t] < 0 or idx[t] >= d
        for j in range(m):
            bad |= upto[j] < 0 or upto[j] > T or (j > 0 and upto[j] < upto[j - 1])
    if bad:
        raise ValueError("decision_voted_updates: the updates are not a valid chain of sparse "
                         "vectors of X's width")
    if n == 0 or m == 0:
        out[:] = 0.0
        return
    # the updates by column (CSC): each entry's update, in rising order
    # within a column (a stable sort), and the columns' pointers
    idx_a = np.asarray(idx)
    order = np.argsort(idx_a, kind="stable")
    crow = np.repeat(np.arange(T, dtype=np.int64), np.diff(np.asarray(ptr)))[order]
    cval = np.asarray(val)[order]
    cptr = np.zeros(d + 1, dtype=np.int64)
    np.cumsum(np.bincount(idx_a, minlength=d), out=cptr[1:])
    delta = np.zeros(max(T, 1), dtype=np.float64)
    if isinstance(X, np.ndarray):
        _updates_dense(X, cptr, crow, cval, T, upto, b, c, delta, out, start)
    else:
        _updates_csr(X.data, X.indices, X.indptr, d, cptr, crow, cval, T, upto, b, c, delta,
                     out, start)


cdef struct Chain:
    const int64_t *cptr
    const int64_t *crow
    const double *cval
    Py_ssize_t T
    const int64_t *upto
    const double *b
    const int64_t *c
    Py_ssize_t m


cdef Chain _chain(const int64_t[::1] cptr, const int64_t[::1] crow, const double[::1] cval,
                  Py_ssize_t T, const int64_t[::1] upto, const double[::1] b,
                  const int64_t[::1] c):
    """Pointers to checked, non-empty chain arrays (m >= 1); with no stored
    value, the column pointers stand in for the values and rows, an address
    the loop never reads through."""
    cdef Chain h
    h.cptr = &cptr[0]
    h.crow = &crow[0] if crow.shape[0] else &cptr[0]
    h.cval = &cval[0] if cval.shape[0] else &b[0]
    h.T = T
    h.upto = &upto[0]
    h.b = &b[0]
    h.c = &c[0]
    h.m = upto.shape[0]
    return h


def _updates_dense(const floating[:, ::1] X, const int64_t[::1] cptr, const int64_t[::1] crow,
                   const double[::1] cval, Py_ssize_t T, const int64_t[::1] upto,
                   const double[::1] b, const int64_t[::1] c, double[::1] delta,
                   double[::1] out, Py_ssize_t start):
    cdef DenseRows R
    cdef Chain h = _chain(cptr, crow, cval, T, upto, b, c)
    R.X = &X[0, 0]
    R.xkind = 0
    R.wide = NULL
    R.d = X.shape[1]
    with nogil:
        _vote_updates(&R, &X[0, 0], h.cptr, h.crow, h.cval, h.T, h.upto, h.b, h.c, h.m, start,
                      out.shape[0], &delta[0], &out[0])


def _updates_csr(const floating[::1] data, indices, indptr, Py_ssize_t d,
                 const int64_t[::1] cptr, const int64_t[::1] crow, const double[::1] cval,
                 Py_ssize_t T, const int64_t[::1] upto, const double[::1] b,
                 const int64_t[::1] c, double[::1] delta, double[::1] out, Py_ssize_t start):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const floating *xv = NULL
    cdef Chain h = _chain(cptr, crow, cval, T, upto, b, c)
    cdef Py_ssize_t n = out.shape[0]
    if data.shape[0]:
        xv = &data[0]
    if csr_rows(&R32, &R64, xv, indices, indptr, d, <size_t>d * sizeof(double)):
        with nogil:
            _vote_updates(&R32, xv, h.cptr, h.crow, h.cval, h.T, h.upto, h.b, h.c, h.m, start,
                          n, &delta[0], &out[0])
    else:
        with nogil:
            _vote_updates(&R64, xv, h.cptr, h.crow, h.cval, h.T, h.upto, h.b, h.c, h.m, start,
                          n, &delta[0], &out[0])

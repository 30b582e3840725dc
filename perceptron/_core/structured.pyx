# cython: language_level=3
"""Typed loops of the structured perceptron (Collins 2002): Viterbi decoding
and the perceptron update over sequences of tokens, without the GIL.

The model (Collins 2002, "Discriminative Training Methods for Hidden Markov
Models", section 2) has, for K labels, emission weights W (one row of d
weights per label) and biases b, giving the emission score of label k at
token t as w_k . x_t + b_k, plus transition scores T[i, j] (label i followed
by label j) and start and end scores.  Apart from W, the parameters are
doubles kept in one vector, the "head":

    head = [b (K) | T (K*K, row-major) | start (K) | end (K)]

W is kept in the data's dtype, in the layout that suits the rows:

- dense rows: W is (K, d), C order; an emission score is a dot product of
  the SIMD kernels (csrc/ptn_simd.h), an update an axpy;
- CSR rows: W is (d, K), C order (the transpose of ``coef_``); a token's K
  emission scores add one row of K weights per stored feature into double
  accumulators (the ``axpy_f32_f64``/``axpy_f64`` kernels for many labels,
  an inline loop for few, see SMALL_K), so a feature's weights for every
  label are one or two cache lines, not K scattered reads.

An epoch visits the sequences in ``order`` (shuffled first when asked, by
the library's generator, csrc/ptn_rng.h), decodes each one with the current
weights (csrc/ptn_viterbi.h) and, when the decoded labels differ from the
gold ones, adds the gold path's features and subtracts the decoded path's
(Collins 2002, figure 1), times eta and the sequence's weight: emissions only
at the tokens whose labels differ, transitions only where either of the two
labels differs, start and end where the first (last) label differs; the
others cancel.  Averaging uses the lazy trick of the binary loops
(csrc/ptn_update.h; Daume III 2006, "Practical Structured Learning
Techniques for Natural Language Processing", PhD thesis): with c the
sequences visited before this one, an update of delta also adds c * delta to
the accumulators U, and the average of the weights after every visit is
w - U / c_total.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int32_t, int64_t, uint16_t, uint64_t
from cpython.exc cimport PyErr_CheckSignals

from perceptron.simd cimport ptn_simd, active_simd, ptn_rng, ptn_rng_seed, kdot, kaxpy, kaxpy_acc
from perceptron._core.rows cimport Rows, DenseRows, CsrRows32, CsrRows64, csr_rows
from perceptron._core.prefetch cimport ptn_prefetch_range

cdef extern from "ptn_viterbi.h" nogil:
    double ptn_viterbi(size_t L, size_t K, const double *E, const double *T, const double *start,
                       const double *end, double *work, uint16_t *back, int32_t *path)
    enum:
        PTN_VITERBI_MAX_K
    double ptn_path_score(size_t L, size_t K, const double *E, const double *T,
                          const double *start, const double *end, const int32_t *z)

STATUS_OK = 0
STATUS_OVERFLOW = 1


cdef struct Stats:
    double clock          # sequences visited before the next one (the averaging clock)
    int64_t mistakes      # sequences decoded wrong
    int64_t token_errors  # tokens decoded wrong
    double loss           # sum of s * (score(decoded) - score(gold)), >= 0
    int status
    int64_t sink          # what the prefetching loops return (see _prefetch_weights)


# Below this many labels a token's emission scores add each feature's K
# weights inline (the compiler vectorises the loop) rather than through the
# axpy kernel: the call and the kernel's set-up and tail cost more than 17
# multiply-adds (UD's 17 tags: 35% of an epoch in the kernel's prologue).
# Both add exact double products (float32 x float32 and float64 x 1.0 or
# integer-valued data), so the choice does not change the sums.
cdef enum:
    SMALL_K = 32


cdef inline void _axpy_small(Py_ssize_t K, double a, const floating *x, double *y) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(K):
        y[k] += a * <double>x[k]


cdef inline void _emissions(const Rows *R, const ptn_simd *Kt, Py_ssize_t i, const floating *W,
                            const double *b, Py_ssize_t K, double *e) noexcept nogil:
    """e[k] = w_k . x_i + b_k for every label k (W in the layout of R)."""
    cdef Py_ssize_t k, j, lo, hi
    cdef const floating *x
    if Rows is DenseRows:
        x = <const floating *>R.X + i * R.d
        for k in range(K):
            e[k] = kdot(Kt, R.d, x, W + k * R.d) + b[k]
    else:
        for k in range(K):
            e[k] = b[k]
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        x = <const floating *>R.val
        if K >= SMALL_K:
            for j in range(lo, hi):
                kaxpy_acc(Kt, K, <double>x[j], W + <Py_ssize_t>R.idx[j] * K, e)
        else:
            for j in range(lo, hi):
                _axpy_small(K, <double>x[j], W + <Py_ssize_t>R.idx[j] * K, e)


cdef inline int64_t _prefetch_weights(const Rows *R, const int64_t *off, Py_ssize_t q,
                                      const floating *W, Py_ssize_t K) noexcept nogil:
    """Ask for the weights the tokens of sequence q read (CSR rows).  The
    weights of a hashed feature space are far larger than the caches and
    each feature's K weights are one or two cache lines anywhere in them:
    asked for a sequence ahead, they arrive while the current sequence is
    decoded and updated (measured with perf on UD EWT, 14 hashed features a
    token, 2^18 columns, 17 tags: the instruction waiting for W took 30% of
    an epoch's cycles with the next token's weights prefetched, 6% with the
    next sequence's).

    Returns the XOR of the columns: gcc 12 deletes a loop whose only effect
    is prefetching when it sits in another loop (dead-code elimination),
    and the caller keeps this value so that the loop stays."""
    cdef Py_ssize_t j
    cdef int64_t seen = 0
    if Rows is not DenseRows:
        for j in range(<Py_ssize_t>R.ptr[off[q]], <Py_ssize_t>R.ptr[off[q + 1]]):
            ptn_prefetch_range(W + <Py_ssize_t>R.idx[j] * K, <size_t>K * sizeof(floating))
            seen ^= <int64_t>R.idx[j]
    return seen


cdef inline void _prefetch_rows(const Rows *R, const int64_t *off, Py_ssize_t q,
                                const floating *dtype_of_x) noexcept nogil:
    """Ask for the stored values and columns of sequence q's tokens (CSR
    rows, visited in a shuffled order), which _prefetch_weights reads a
    sequence later."""
    cdef Py_ssize_t lo, hi
    if Rows is not DenseRows:
        lo = <Py_ssize_t>R.ptr[off[q]]
        hi = <Py_ssize_t>R.ptr[off[q + 1]]
        ptn_prefetch_range(<const floating *>R.val + lo, <size_t>(hi - lo) * sizeof(floating))
        ptn_prefetch_range(R.idx + lo, <size_t>(hi - lo) * sizeof(R.idx[0]))


cdef inline void _move(const Rows *R, const ptn_simd *Kt, Py_ssize_t i, Py_ssize_t k, double a,
                       double ac, floating *W, double *U, Py_ssize_t K) noexcept nogil:
    """w_k += a * x_i, and u_k += ac * x_i when U is not NULL (averaging)."""
    cdef Py_ssize_t j, lo, hi, c
    cdef const floating *x
    cdef floating af = <floating>a
    if Rows is DenseRows:
        x = <const floating *>R.X + i * R.d
        kaxpy(Kt, R.d, a, x, W + k * R.d)
        if U != NULL:
            kaxpy_acc(Kt, R.d, ac, x, U + k * R.d)
    else:
        lo = <Py_ssize_t>R.ptr[i]
        hi = <Py_ssize_t>R.ptr[i + 1]
        x = <const floating *>R.val
        for j in range(lo, hi):
            c = <Py_ssize_t>R.idx[j] * K + k
            W[c] += af * x[j]
        if U != NULL:
            for j in range(lo, hi):
                c = <Py_ssize_t>R.idx[j] * K + k
                U[c] += ac * <double>x[j]


cdef inline void _head_move(double *head, double *acc, Py_ssize_t pos, double a,
                            double ac) noexcept nogil:
    head[pos] += a
    if acc != NULL:
        acc[pos] += ac


# Ctrl-C is looked for between sequences, once this many label-pair scores
# (K*K a token) and emissions have been computed since the last look: about
# a millisecond of work, so a long epoch stops promptly and a short sequence
# pays no more than a cheap counter.
cdef enum:
    SIGNAL_WORK = 1 << 20


cdef int _epoch(const Rows *R, floating *W, double *U, double *head, double *acc,
                const int32_t *y, const int64_t *off, const ptrdiff_t *order, Py_ssize_t n_seq,
                const double *sw, Py_ssize_t K, double eta, double *E, double *delta,
                uint16_t *back, int32_t *path, Stats *st) except -1 nogil:
    cdef const ptn_simd *Kt = active_simd()
    cdef const double *T = head + K
    cdef const double *start = head + K + K * K
    cdef const double *end = head + 2 * K + K * K
    cdef Py_ssize_t n, q, lo, L, t, errors, g, p
    cdef double score, s, a, ac
    cdef const int32_t *gold
    cdef Py_ssize_t work = 0
    for n in range(n_seq):
        if work >= SIGNAL_WORK:
            work = 0
            with gil:
                PyErr_CheckSignals()
        q = order[n]
        if n + 2 < n_seq:
            _prefetch_rows(R, off, order[n + 2], W)
        if n + 1 < n_seq:
            st.sink ^= _prefetch_weights(R, off, order[n + 1], W, K)
        lo = <Py_ssize_t>off[q]
        L = <Py_ssize_t>(off[q + 1] - off[q])
        if L == 0:
            st.clock += 1.0
            continue
        work += L * K * (K + 1)
        for t in range(L):
            _emissions(R, Kt, lo + t, W, head, K, E + t * K)
        score = ptn_viterbi(<size_t>L, <size_t>K, E, T, start, end, delta, back, path)
        if not isfinite(score):
            st.status = 1
            return 0
        gold = y + lo
        errors = 0
        for t in range(L):
            if gold[t] != path[t]:
                errors += 1
        if errors:
            s = sw[q] if sw != NULL else 1.0
            st.mistakes += 1
            st.token_errors += errors
            st.loss += s * (score - ptn_path_score(<size_t>L, <size_t>K, E, T, start, end, gold))
            a = eta * s
            ac = a * st.clock
            if a != 0.0:
                # Phi(gold) - Phi(decoded): only the parts that differ
                for t in range(L):
                    g = gold[t]
                    p = path[t]
                    if g != p:
                        _move(R, Kt, lo + t, g, a, ac, W, U, K)
                        _move(R, Kt, lo + t, p, -a, -ac, W, U, K)
                        _head_move(head, acc, g, a, ac)
                        _head_move(head, acc, p, -a, -ac)
                for t in range(1, L):
                    if gold[t - 1] != path[t - 1] or gold[t] != path[t]:
                        _head_move(head, acc, K + gold[t - 1] * K + gold[t], a, ac)
                        _head_move(head, acc, K + path[t - 1] * K + path[t], -a, -ac)
                if gold[0] != path[0]:
                    _head_move(head, acc, K + K * K + gold[0], a, ac)
                    _head_move(head, acc, K + K * K + path[0], -a, -ac)
                if gold[L - 1] != path[L - 1]:
                    _head_move(head, acc, 2 * K + K * K + gold[L - 1], a, ac)
                    _head_move(head, acc, 2 * K + K * K + path[L - 1], -a, -ac)
        st.clock += 1.0
    return 0


cdef int _decode(const Rows *R, const floating *W, const double *head, const int64_t *off,
                 const ptrdiff_t *seqs, Py_ssize_t n_seq, Py_ssize_t K, double *E, double *delta,
                 uint16_t *back, int32_t *out, int64_t *sink) noexcept nogil:
    """Viterbi labels of the sequences seqs[0 .. n_seq) (every sequence when
    seqs is NULL) into out (by token); 1 if a score is not finite."""
    cdef const ptn_simd *Kt = active_simd()
    cdef Py_ssize_t n, q, lo, L, t
    cdef double score
    for n in range(n_seq):
        q = seqs[n] if seqs != NULL else n
        if n + 1 < n_seq:
            sink[0] ^= _prefetch_weights(R, off, seqs[n + 1] if seqs != NULL else n + 1, W, K)
        lo = <Py_ssize_t>off[q]
        L = <Py_ssize_t>(off[q + 1] - off[q])
        if L == 0:
            continue
        for t in range(L):
            _emissions(R, Kt, lo + t, W, head, K, E + t * K)
        score = ptn_viterbi(<size_t>L, <size_t>K, E, head + K, head + K + K * K,
                            head + 2 * K + K * K, delta, back, out + lo)
        if not isfinite(score):
            return 1
    return 0


cdef void _scores(const Rows *R, const floating *W, const double *b, Py_ssize_t n,
                  Py_ssize_t K, double *out) noexcept nogil:
    cdef const ptn_simd *Kt = active_simd()
    cdef Py_ssize_t i
    for i in range(n):
        _emissions(R, Kt, i, W, b, K, out + i * K)


# ------------------------------------------------------------ Python entry points

cdef inline double *_ptr2(double[:, ::1] a) noexcept:
    return &a[0, 0] if a is not None and a.shape[0] and a.shape[1] else NULL


cdef inline double *_ptr1(double[::1] a) noexcept:
    return &a[0] if a is not None and a.shape[0] else NULL


def _max_length(const int64_t[::1] off):
    cdef Py_ssize_t q, m = 0
    for q in range(off.shape[0] - 1):
        if off[q + 1] - off[q] > m:
            m = off[q + 1] - off[q]
    return m


def epoch(X, floating[:, ::1] W, double[:, ::1] U, double[::1] head, double[::1] acc,
          const int32_t[::1] y, const int64_t[::1] offsets, ptrdiff_t[::1] order,
          const double[::1] sw, double eta, double clock, bint shuffle,
          uint64_t[::1] rng_state):
    """One epoch over the sequences of X (rows: tokens; sequence q is rows
    offsets[q] .. offsets[q+1]) listed in ``order`` (all of them or a
    subset, every index trusted to be in [0, n_sequences); shuffled in place first when
    ``shuffle``, the generator's state read from and written back to
    ``rng_state[0]``), updating W, head and, when not None, the averaging
    accumulators U and acc in place.

    X: a C-contiguous float32/float64 array with W of shape (K, d), or
    checked CSR data (``data``, ``indices``, ``indptr``, ``shape``) with W of
    shape (d, K), W in X's dtype.  y: label indices in [0, K) by token;
    sw: per-sequence weights or None; clock: the sequences visited before
    this epoch.  Shapes are checked here; labels, offsets and CSR indices
    are trusted (checked by the Python layer).

    Returns (status, clock, mistakes, token_errors, loss); status 1: a
    decoded score was not finite (the weights overflowed).
    """
    cdef Py_ssize_t K = head.shape[0]
    cdef Py_ssize_t n_seq = offsets.shape[0] - 1
    cdef Stats st
    cdef ptn_rng rng
    n, d = X.shape
    # K from the head's length K*K + 3K
    K = 1
    while K * K + 3 * K < head.shape[0]:
        K += 1
    if K * K + 3 * K != head.shape[0] or n_seq < 0 or offsets[n_seq] != n or y.shape[0] != n:
        raise ValueError("structured epoch: inconsistent shapes")
    if order.shape[0] > n_seq or (sw is not None and sw.shape[0] != n_seq):
        raise ValueError("structured epoch: inconsistent shapes")
    if K > PTN_VITERBI_MAX_K:
        raise ValueError(f"structured epoch: more than {PTN_VITERBI_MAX_K} labels")
    if (U is None) != (acc is None) or (acc is not None and acc.shape[0] != head.shape[0]):
        raise ValueError("structured epoch: inconsistent accumulators")
    dense = isinstance(X, np.ndarray)
    wshape = (K, d) if dense else (d, K)
    if (W.shape[0], W.shape[1]) != wshape or (U is not None and (U.shape[0], U.shape[1]) != wshape):
        raise ValueError(f"structured epoch: W must have shape {wshape}")
    st.clock = clock
    st.mistakes = 0
    st.token_errors = 0
    st.loss = 0.0
    st.status = 0
    st.sink = 0
    if order.shape[0] == 0:
        return 0, clock, 0, 0, 0.0
    if shuffle:
        ptn_rng_seed(&rng, rng_state[0])
        with nogil:
            active_simd().shuffle(&rng, &order[0], <size_t>order.shape[0])
        rng_state[0] = rng.state
    m = max(_max_length(offsets), 1)
    cdef double[::1] E = np.empty(m * K)
    cdef double[::1] delta = np.empty(3 * K)
    cdef uint16_t[::1] back = np.empty(m * K, dtype=np.uint16)
    cdef int32_t[::1] path = np.empty(m, dtype=np.int32)
    cdef const floating[:, ::1] Xd
    cdef const floating[::1] data
    cdef Py_ssize_t n_features = d
    if dense:
        Xd = X
        _epoch_dense(Xd, W, _ptr2(U), &head[0], _ptr1(acc), &y[0], &offsets[0], &order[0],
                     order.shape[0], sw, K, eta, E, delta, back, path, &st)
    else:
        data = X.data
        _epoch_csr(data, X.indices, X.indptr, n_features, W, _ptr2(U), &head[0], _ptr1(acc), &y[0],
                   &offsets[0], &order[0], order.shape[0], sw, K, eta, E, delta, back, path, &st)
    return st.status, st.clock, st.mistakes, st.token_errors, st.loss


cdef _epoch_dense(const floating[:, ::1] X, floating[:, ::1] W, double *U, double *head,
                  double *acc, const int32_t *y, const int64_t *off, const ptrdiff_t *order,
                  Py_ssize_t n_seq, const double[::1] sw, Py_ssize_t K, double eta,
                  double[::1] E, double[::1] delta, uint16_t[::1] back, int32_t[::1] path,
                  Stats *st):
    cdef DenseRows R
    cdef const double *s = &sw[0] if sw is not None else NULL
    R.X = &X[0, 0]
    R.xkind = 0
    R.wide = NULL
    R.d = X.shape[1]
    with nogil:
        _epoch(&R, &W[0, 0], U, head, acc, y, off, order, n_seq, s, K, eta, &E[0], &delta[0],
               &back[0], &path[0], st)


cdef _epoch_csr(const floating[::1] data, indices, indptr, Py_ssize_t d, floating[:, ::1] W,
                double *U, double *head, double *acc, const int32_t *y, const int64_t *off,
                const ptrdiff_t *order, Py_ssize_t n_seq, const double[::1] sw, Py_ssize_t K,
                double eta, double[::1] E, double[::1] delta, uint16_t[::1] back,
                int32_t[::1] path, Stats *st):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const floating *val = &data[0] if data.shape[0] else NULL
    cdef const double *s = &sw[0] if sw is not None else NULL
    if csr_rows(&R32, &R64, val, indices, indptr, d, <size_t>(d * K) * sizeof(floating)):
        with nogil:
            _epoch(&R32, &W[0, 0], U, head, acc, y, off, order, n_seq, s, K, eta, &E[0],
                   &delta[0], &back[0], &path[0], st)
    else:
        with nogil:
            _epoch(&R64, &W[0, 0], U, head, acc, y, off, order, n_seq, s, K, eta, &E[0],
                   &delta[0], &back[0], &path[0], st)


def decode(X, const floating[:, ::1] W, const double[::1] head, const int64_t[::1] offsets,
           const ptrdiff_t[::1] seqs=None):
    """The Viterbi label indices (int32, by token) of every sequence of X,
    or of the sequences listed in ``seqs`` (indices trusted; the other
    tokens' entries are 0), W and head as for ``epoch``.  Raises
    FloatingPointError when a score is not finite."""
    cdef Py_ssize_t n_seq = offsets.shape[0] - 1
    cdef Py_ssize_t K = 1
    cdef int status = 0
    n, d = X.shape
    while K * K + 3 * K < head.shape[0]:
        K += 1
    dense = isinstance(X, np.ndarray)
    if (K * K + 3 * K != head.shape[0] or n_seq < 0 or offsets[n_seq] != n
            or (W.shape[0], W.shape[1]) != ((K, d) if dense else (d, K))):
        raise ValueError("structured decode: inconsistent shapes")
    if K > PTN_VITERBI_MAX_K:
        raise ValueError(f"structured decode: more than {PTN_VITERBI_MAX_K} labels")
    out = np.zeros(n, dtype=np.int32)
    m = max(_max_length(offsets), 1)
    cdef double[::1] E = np.empty(m * K)
    cdef double[::1] delta = np.empty(3 * K)
    cdef uint16_t[::1] back = np.empty(m * K, dtype=np.uint16)
    cdef int32_t[::1] out_v = out
    if n:
        status = _decode_any(X, W, head, offsets, seqs, n_seq, K, E, delta, back, out_v, dense)
    if status:
        raise FloatingPointError("a sequence's score is not finite: the weights or the data "
                                 "hold values too large for float64")
    return out


cdef int _decode_any(X, const floating[:, ::1] W, const double[::1] head,
                     const int64_t[::1] off, const ptrdiff_t[::1] seqs, Py_ssize_t n_seq, Py_ssize_t K, double[::1] E,
                     double[::1] delta, uint16_t[::1] back, int32_t[::1] out, bint dense):
    cdef DenseRows R
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef int status
    cdef const floating[:, ::1] Xd
    cdef const floating[::1] data
    cdef const floating *val = NULL
    cdef const ptrdiff_t *sq = NULL
    cdef int64_t sink = 0
    if seqs is not None:
        n_seq = seqs.shape[0]
        if n_seq == 0:
            return 0
        sq = &seqs[0]
    if dense:
        Xd = X
        R.X = &Xd[0, 0]
        R.xkind = 0
        R.wide = NULL
        R.d = Xd.shape[1]
        with nogil:
            status = _decode(&R, &W[0, 0], &head[0], &off[0], sq, n_seq, K, &E[0], &delta[0],
                             &back[0], &out[0], &sink)
        return status
    data = X.data
    d = X.shape[1]
    if data.shape[0]:
        val = &data[0]
    if csr_rows(&R32, &R64, val, X.indices, X.indptr, d, <size_t>(d * K) * sizeof(floating)):
        with nogil:
            status = _decode(&R32, &W[0, 0], &head[0], &off[0], sq, n_seq, K, &E[0], &delta[0],
                             &back[0], &out[0], &sink)
    else:
        with nogil:
            status = _decode(&R64, &W[0, 0], &head[0], &off[0], sq, n_seq, K, &E[0], &delta[0],
                             &back[0], &out[0], &sink)
    return status


def emission_scores(X, const floating[:, ::1] W, const double[::1] b):
    """(n_tokens, K) float64: w_k . x_t + b_k (W in the layout of ``epoch``)."""
    cdef Py_ssize_t K = b.shape[0]
    n, d = X.shape
    dense = isinstance(X, np.ndarray)
    if (W.shape[0], W.shape[1]) != ((K, d) if dense else (d, K)):
        raise ValueError("structured emission_scores: inconsistent shapes")
    out = np.zeros((n, K))
    cdef double[:, ::1] out_v = out
    if n and K:
        _scores_any(X, W, b, out_v, dense)
    return out


cdef _scores_any(X, const floating[:, ::1] W, const double[::1] b, double[:, ::1] out,
                 bint dense):
    cdef DenseRows R
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const floating[:, ::1] Xd
    cdef const floating[::1] data
    cdef const floating *val = NULL
    cdef Py_ssize_t n = out.shape[0], K = out.shape[1]
    if dense:
        Xd = X
        R.X = &Xd[0, 0]
        R.xkind = 0
        R.wide = NULL
        R.d = Xd.shape[1]
        with nogil:
            _scores(&R, &W[0, 0], &b[0], n, K, &out[0, 0])
        return
    data = X.data
    d = X.shape[1]
    if data.shape[0]:
        val = &data[0]
    if csr_rows(&R32, &R64, val, X.indices, X.indptr, d, <size_t>(d * K) * sizeof(floating)):
        with nogil:
            _scores(&R32, &W[0, 0], &b[0], n, K, &out[0, 0])
    else:
        with nogil:
            _scores(&R64, &W[0, 0], &b[0], n, K, &out[0, 0])


def averaged(const floating[:, ::1] W, const double[:, ::1] U, double clock):
    """The averaged weights W - U / clock (in double, rounded once to W's
    dtype), as a new array of W's shape and dtype, without a float64
    temporary of the weights' size."""
    out = np.empty((W.shape[0], W.shape[1]), dtype=np.float32 if floating is float else np.float64)
    cdef floating[:, ::1] o = out
    cdef Py_ssize_t i, n = W.shape[0] * W.shape[1]
    cdef const floating *w
    cdef const double *u
    cdef floating *r
    if U.shape[0] != W.shape[0] or U.shape[1] != W.shape[1] or not clock > 0:
        raise ValueError("structured averaged: inconsistent shapes or clock")
    if n == 0:
        return out
    w = &W[0, 0]
    u = &U[0, 0]
    r = &o[0, 0]
    with nogil:
        for i in range(n):
            r[i] = <floating>(<double>w[i] - u[i] / clock)
    return out

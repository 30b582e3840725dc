# cython: language_level=3
"""The multiclass perceptron over candidate labels: each row (a token)
belongs to a group (its part of speech) and only the labels of its group's
candidate list compete for it, in training as in prediction.

A label set of hundreds (the feature strings or lemma edit scripts of a
treebank) is mostly ruled out by the token's part of speech: a tag
dictionary (Ratnaparkhi 1996, section 4.2, which restricts a known word to
the tags it was seen with) keyed by the part of speech instead of the word.
A token then costs its stored features times its group's candidates, not
times every label.

The update is the multiclass perceptron's (Collins 2002, figure 1, with
sequences of one token): when the best-scoring candidate p is not the gold
label g, w_g += eta * x and w_p -= eta * x, b_g += eta and b_p -= eta.
Averaging is the lazy one of the structured loops (Daume III 2006): with c
the rows visited before this one, an update of delta also adds c * delta to
the accumulators U, and the averaged weights are w - U / c_total
(``perceptron._core.structured.averaged``).

Rows are CSR: float32 values, int64 columns, int64 row pointers; W is
(d, K) float32, C order, so a feature's weights of every label are one
stretch of memory.  Scores are summed in double; the first of equal scores
in the candidate list wins.  The Python layer checks every index.
"""
import numpy as np

from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int32_t, int64_t, uint64_t
from cpython.exc cimport PyErr_CheckSignals

from perceptron.simd cimport active_simd, ptn_rng, ptn_rng_seed
from perceptron._core.prefetch cimport ptn_prefetch_range

# what the prefetching loops return, kept here so that the compiler keeps
# them (gcc 12 deletes a loop whose only effect is prefetching; see
# _prefetch_weights in structured.pyx)
cdef int64_t _sink = 0


cdef inline Py_ssize_t _best(const float *val, const int64_t *idx, Py_ssize_t lo, Py_ssize_t hi,
                             const float *W, const double *b, Py_ssize_t K,
                             const int32_t *cand, Py_ssize_t m, double *e) noexcept nogil:
    """e[c] = w_cand[c] . x + b_cand[c] for the m candidates; the position
    in cand of the first highest."""
    cdef Py_ssize_t c, j, best = 0
    cdef const float *row
    cdef double a
    for c in range(m):
        e[c] = b[cand[c]]
    for j in range(lo, hi):
        row = W + idx[j] * K
        a = <double>val[j]
        for c in range(m):
            e[c] += a * <double>row[cand[c]]
    for c in range(1, m):
        if e[c] > e[best]:
            best = c
    return best


cdef inline int64_t _prefetch(const int64_t *idx, Py_ssize_t lo, Py_ssize_t hi,
                              const float *W, Py_ssize_t K, const int32_t *cand,
                              Py_ssize_t m) noexcept nogil:
    """Ask for the weights of a row's features (the row after the one
    scored), from its first candidate's to its last's.  The weights of a
    hashed feature space are larger than the caches and each feature's are
    anywhere in them: on UD EWT's FEATS (49,152 x 230 float32 weights, 47
    features a token) an epoch took 0.57 s with the weights waited for,
    0.28 s with weights that fit in the caches, 0.33 s with the next
    token's asked for.  Returns the XOR of the features (see _sink)."""
    cdef Py_ssize_t j
    cdef int64_t seen = 0
    cdef size_t span
    if m < 2:
        return 0
    span = <size_t>(cand[m - 1] - cand[0] + 1) * sizeof(float)
    for j in range(lo, hi):
        ptn_prefetch_range(W + idx[j] * K + cand[0], span)
        seen ^= idx[j]
    return seen


cdef inline void _move(const float *val, const int64_t *idx, Py_ssize_t lo, Py_ssize_t hi,
                       float *W, double *U, Py_ssize_t K, Py_ssize_t k, double a,
                       double ac) noexcept nogil:
    """w_k += a * x, and u_k += ac * x when U is not NULL."""
    cdef Py_ssize_t j
    cdef float af = <float>a
    for j in range(lo, hi):
        W[idx[j] * K + k] += af * val[j]
    if U != NULL:
        for j in range(lo, hi):
            U[idx[j] * K + k] += ac * <double>val[j]


def _check(const float[::1] data, const int64_t[::1] indices, const int64_t[::1] indptr,
           Py_ssize_t K, const int32_t[::1] groups, const int64_t[::1] cand_ptr,
           const int32_t[::1] cand):
    n = indptr.shape[0] - 1
    if n < 0 or groups.shape[0] != n or data.shape[0] != indices.shape[0] or \
            indptr[n] != data.shape[0] or cand_ptr.shape[0] < 2 or \
            cand_ptr[cand_ptr.shape[0] - 1] != cand.shape[0]:
        raise ValueError("candidates: inconsistent shapes")
    return n


def epoch(const float[::1] data, const int64_t[::1] indices, const int64_t[::1] indptr,
          float[:, ::1] W, double[:, ::1] U, double[::1] b, double[::1] acc,
          const int32_t[::1] y, const int32_t[::1] groups, const int64_t[::1] cand_ptr,
          const int32_t[::1] cand, ptrdiff_t[::1] order, double eta, double clock,
          bint shuffle, uint64_t[::1] rng_state):
    """One epoch over the rows listed in ``order`` (shuffled in place first
    when ``shuffle``, the generator's state in ``rng_state[0]``), updating
    W (d, K), b (K,) and, when not None, the accumulators U and acc.

    Row i's candidates are cand[cand_ptr[g] : cand_ptr[g + 1]], g =
    groups[i]; its gold label y[i] must be one of them.  Returns (clock,
    mistakes)."""
    cdef Py_ssize_t n = _check(data, indices, indptr, b.shape[0], groups, cand_ptr, cand)
    cdef Py_ssize_t K = b.shape[0], d = W.shape[0], i, q, g, m, p, lo, hi
    cdef Py_ssize_t widest = 0
    cdef int64_t mistakes = 0
    cdef double a, ac
    cdef ptn_rng rng
    if W.shape[1] != K or (U is not None and (U.shape[0] != d or U.shape[1] != K)) or \
            (U is None) != (acc is None) or (acc is not None and acc.shape[0] != K) or \
            y.shape[0] != n or order.shape[0] > n:
        raise ValueError("candidates epoch: inconsistent shapes")
    for g in range(cand_ptr.shape[0] - 1):
        widest = max(widest, <Py_ssize_t>(cand_ptr[g + 1] - cand_ptr[g]))
    if order.shape[0] == 0:
        return clock, 0
    if shuffle:
        ptn_rng_seed(&rng, rng_state[0])
        with nogil:
            active_simd().shuffle(&rng, &order[0], <size_t>order.shape[0])
        rng_state[0] = rng.state
    cdef double[::1] E = np.empty(max(widest, 1))
    cdef const float *val = &data[0] if data.shape[0] else NULL
    cdef const int64_t *idx = &indices[0] if indices.shape[0] else NULL
    cdef double *Up = &U[0, 0] if U is not None and U.shape[0] else NULL
    cdef double *accp = &acc[0] if acc is not None else NULL
    cdef float *Wp = &W[0, 0] if W.shape[0] else NULL
    cdef int64_t seen = 0
    cdef Py_ssize_t nxt
    with nogil:
        for q in range(order.shape[0]):
            if (q & 0xFFFF) == 0xFFFF:
                with gil:
                    PyErr_CheckSignals()
            if q + 1 < order.shape[0]:
                nxt = order[q + 1]
                g = groups[nxt]
                seen ^= _prefetch(idx, indptr[nxt], indptr[nxt + 1], Wp, K, &cand[cand_ptr[g]],
                                  <Py_ssize_t>(cand_ptr[g + 1] - cand_ptr[g]))
            i = order[q]
            g = groups[i]
            m = <Py_ssize_t>(cand_ptr[g + 1] - cand_ptr[g])
            lo = <Py_ssize_t>indptr[i]
            hi = <Py_ssize_t>indptr[i + 1]
            if m > 1:
                p = cand[cand_ptr[g] + _best(val, idx, lo, hi, Wp, &b[0], K,
                                             &cand[cand_ptr[g]], m, &E[0])]
                if p != y[i]:
                    mistakes += 1
                    a = eta
                    ac = a * clock
                    _move(val, idx, lo, hi, Wp, Up, K, y[i], a, ac)
                    _move(val, idx, lo, hi, Wp, Up, K, p, -a, -ac)
                    b[y[i]] += a
                    b[p] -= a
                    if accp != NULL:
                        accp[y[i]] += ac
                        accp[p] -= ac
            clock += 1.0
    global _sink
    _sink ^= seen
    return clock, mistakes


def best(const float[::1] data, const int64_t[::1] indices, const int64_t[::1] indptr,
         const float[:, ::1] W, const double[::1] b, const int32_t[::1] groups,
         const int64_t[::1] cand_ptr, const int32_t[::1] cand):
    """int32 array: each row's highest-scoring candidate label (the first of
    equal scores; a group without candidates gives -1)."""
    return _predict(data, indices, indptr, W, b, groups, cand_ptr, cand, False)


def scores(const float[::1] data, const int64_t[::1] indices, const int64_t[::1] indptr,
           const float[:, ::1] W, const double[::1] b, const int32_t[::1] groups,
           const int64_t[::1] cand_ptr, const int32_t[::1] cand):
    """(n, K) float64: each row's scores of its candidates, minus infinity
    for the other labels."""
    return _predict(data, indices, indptr, W, b, groups, cand_ptr, cand, True)


cdef _predict(const float[::1] data, const int64_t[::1] indices, const int64_t[::1] indptr,
              const float[:, ::1] W, const double[::1] b, const int32_t[::1] groups,
              const int64_t[::1] cand_ptr, const int32_t[::1] cand, bint all_scores):
    cdef Py_ssize_t n = _check(data, indices, indptr, b.shape[0], groups, cand_ptr, cand)
    cdef Py_ssize_t K = b.shape[0], i, g, m, c, p, widest = 0
    if W.shape[1] != K:
        raise ValueError("candidates: W and b disagree on the labels")
    for g in range(cand_ptr.shape[0] - 1):
        widest = max(widest, <Py_ssize_t>(cand_ptr[g + 1] - cand_ptr[g]))
    codes = np.full(n, -1, dtype=np.int32)
    full = np.full((n if all_scores else 0, K), -np.inf)
    cdef int32_t[::1] o = codes
    cdef double[:, ::1] f = full
    cdef double[::1] E = np.empty(max(widest, 1))
    cdef const float *val = &data[0] if data.shape[0] else NULL
    cdef const int64_t *idx = &indices[0] if indices.shape[0] else NULL
    cdef const float *Wp = &W[0, 0] if W.shape[0] else NULL
    with nogil:
        for i in range(n):
            g = groups[i]
            m = <Py_ssize_t>(cand_ptr[g + 1] - cand_ptr[g])
            if m == 0:
                continue
            p = _best(val, idx, indptr[i], indptr[i + 1], Wp, &b[0], K, &cand[cand_ptr[g]], m,
                      &E[0])
            o[i] = cand[cand_ptr[g] + p]
            if all_scores:
                for c in range(m):
                    f[i, cand[cand_ptr[g] + c]] = E[c]
    return full if all_scores else codes

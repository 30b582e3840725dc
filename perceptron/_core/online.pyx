# cython: language_level=3
"""Typed training loops of the perceptron family over dense rows.

One call runs a number of epochs without the GIL; Python only sees the
result.  The model's state (weights, bias, averaging accumulators, pocket,
counters, generator) lives in numpy arrays owned by a Python object (see
``perceptron._state``), so a fit can be driven in one call, epoch by epoch
(early stopping, callbacks), or chunk by chunk (``partial_fit``), and the
result is the same.

Float32 and float64 data share each loop through the ``floating`` fused
type.  The weights are kept in the data's dtype (the update ``w += eta*y*x``
streams the same bytes as the data) while activations are summed in double by
the kernels, and biases, averaging accumulators and mini-batch gradients are
doubles.  For float32 data the kernels add four products per SIMD lane in
float32 before the double sum, so an activation's error stays within a few
float32 roundings of its terms whatever the number of features (the
contract is in csrc/ptn_simd.h), at no cost in memory traffic.

The binary online rule runs on the kernels' scan (csrc/ptn_scan.h): the
stretch of rows the weights already get right is one C loop with the dot
product inlined, and only the rows that update come back here.

The rules (y in {-1, +1}, a = w.x + b):

- online (Rosenblatt 1958; Daume III, A Course in Machine Learning, ch. 3,
  Algorithm 5): if y*a <= margin then w += eta*s*y*x, b += eta*s*y, with s
  the sample weight; margin > 0 is the perceptron with uneven margins
  (PAUM, Li et al. 2002, with equal margins);
- averaged (Daume III, ch. 3, Algorithm 7; Collins 2002): the lazy trick,
  u += c*step*x on an update, c counting the steps; the average of the
  weights after every step is w - u/c;
- pocket with ratchet (Gallant 1990): weights whose run of correct
  predictions outlasts the pocket's replace it if they also classify more
  training rows right;
- mini-batch (seed 003: stochastic subgradient of the perceptron loss): for
  each batch of B rows, w += (eta/B) * sum over its violating rows of s*y*x;
- multinomial (Collins 2002; Crammer and Singer 2003): one row of weights
  per class, a_j = w_j.x + b_j; if the true class t does not beat the best
  other class r by more than the margin, w_t += eta*s*x and w_r -= eta*s*x.

A violation is tested as "not (margin < y*a < inf)", so the same branch also
catches a non-finite activation; a sum that meets NaN or infinity in X is
not finite, which makes the loop the finiteness check of X at no extra cost.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport uint64_t, int64_t, int32_t, uint8_t
from libc.stddef cimport ptrdiff_t
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals

from perceptron.simd cimport (ptn_simd, ptn_scan, active_simd, sparse_dot_kernels,
                               ptn_rng, ptn_rng_seed,
                               ptn_sdot_f32_i32_fn,
                               ptn_sdot_f32_i64_fn, ptn_sdot_f64_i32_fn, ptn_sdot_f64_i64_fn)
from perceptron._core.prefetch cimport rows_ahead
from perceptron._core.rows cimport (Rows, DenseRows, CsrRows32, CsrRows64, csr_rows32, csr_rows64,
                               row_dot, row_axpy, row_axpy_acc, row_finite, row_prefetch,
                               row_prefetch_start, row_bytes, max_ahead)

cdef extern from "ptn_csr_online.h" nogil:
    ctypedef struct ptn_csr_online:
        const void *val
        const void *idx
        const void *ptr
        const ptrdiff_t *rows
        size_t n_rows
        size_t ahead
        const signed char *y
        const double *sw
        void *w
        double *b
        double *U
        double *ub
        double eta
        double margin
        int fit_intercept
        ptn_sdot_f32_i32_fn dot_f32_i32
        ptn_sdot_f32_i64_fn dot_f32_i64
        ptn_sdot_f64_i32_fn dot_f64_i32
        ptn_sdot_f64_i64_fn dot_f64_i64
        int64_t steps
        int64_t mistakes
        int64_t updates
        double loss
    size_t ptn_csr_online_f32_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_f32_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_f64_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_f64_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f32_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f32_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f64_i32(ptn_csr_online *s, size_t start, size_t stop, double *act)
    size_t ptn_csr_online_plain_f64_i64(ptn_csr_online *s, size_t start, size_t stop, double *act)

# Status codes of a call, turned into exceptions by the Python layer.
cdef enum:
    _STATUS_OK = 0
    _STATUS_NONFINITE_X = 1     # a row of X holds NaN or infinity
    _STATUS_OVERFLOW = 2        # the weights stopped being finite
    _STATUS_STOPPED = 3         # the caller's stop flag was raised

STATUS_OK = _STATUS_OK
STATUS_NONFINITE_X = _STATUS_NONFINITE_X
STATUS_OVERFLOW = _STATUS_OVERFLOW
STATUS_STOPPED = _STATUS_STOPPED

# Slots of the int64 counter array of a state (see perceptron/_state.py).
cdef enum:
    C_STEPS = 0          # steps taken (examples, or batches): the averaging clock
    C_UPDATES = 1        # updates made
    C_RUN = 2            # pocket: current run of steps without an update
    C_POCKET_RUN = 3     # pocket: the run length of the pocket weights
    C_POCKET_CHECKED = 4 # pocket: the current run was already checked
    C_EPOCHS = 5         # epochs completed
    N_COUNTERS = 6

cdef enum:
    # bytes of data between two checks for Ctrl-C (about a millisecond of work)
    SIGNAL_CHECK_BYTES = 4194304


cdef struct Params:
    double eta
    double margin
    bint fit_intercept
    bint shuffle
    bint average
    bint pocket
    bint stop_when_converged
    Py_ssize_t batch_size       # 0: online


cdef struct Model:
    # borrowed pointers into the state's arrays
    Py_ssize_t k                # rows of weights
    Py_ssize_t d
    void *W                     # (k, d) in the data's dtype
    double *b                   # (k,)
    double *U                   # (k, d) averaging accumulators, or NULL
    double *ub                  # (k,)
    void *PW                    # (k, d) pocket weights, or NULL
    double *pb                  # (k,)
    double *pocket_score        # weighted count of training rows the pocket gets right
    double *G                   # (k, d) mini-batch gradient scratch, or NULL
    double *gb                  # (k,)
    double *acts                # (k,) activation scratch
    int64_t *counters
    ptn_rng *rng


cdef struct Epoch:
    # what one epoch did, and why a call stopped early
    int64_t mistakes
    int64_t updates
    double loss
    int status
    Py_ssize_t bad_row


cdef struct Data:
    # the rows themselves come apart, as a Rows (perceptron/_rows.pxd)
    Py_ssize_t n
    Py_ssize_t d
    const signed char *y        # binary: labels in {-1, +1}
    const int32_t *t            # multinomial: class index of each row
    const double *sw            # sample weights, or NULL for all ones
    ptrdiff_t *rows             # the rows to visit, permuted in place when shuffling
    Py_ssize_t n_rows
    volatile uint8_t *stop      # raised by another thread to cancel


# ----------------------------------------------------------------- helpers

cdef inline bint _all_finite(const floating *x, Py_ssize_t d) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(d):
        if not isfinite(x[j]):
            return False
    return True


cdef inline bint _all_finite_f64(const double *x, Py_ssize_t d) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(d):
        if not isfinite(x[j]):
            return False
    return True


cdef inline void _add_scaled(floating *w, double s, const double *g, Py_ssize_t d,
                             const ptn_simd *K) noexcept nogil:
    """w += s * g with float64 g (a mini-batch step): O(d), once per batch."""
    cdef Py_ssize_t j
    if floating is double:
        K.axpy_f64(<size_t>d, s, g, w)
    else:
        for j in range(d):
            w[j] = <float>(w[j] + s * g[j])


cdef inline double _weight(const Data *D, ptrdiff_t i) noexcept nogil:
    return 1.0 if D.sw == NULL else D.sw[i]


cdef inline int _check_signals(Py_ssize_t *countdown, Py_ssize_t reset, const Data *D) except -1 nogil:
    """Every `reset` rows: raise KeyboardInterrupt (and any other pending
    signal's exception) in the main thread, and honour the stop flag."""
    countdown[0] -= 1
    if countdown[0] > 0:
        return 0
    countdown[0] = reset
    if D.stop != NULL and D.stop[0]:
        return 1
    with gil:
        PyErr_CheckSignals()
    return 0


cdef inline void _after_update_pocket(Model *M) noexcept nogil:
    M.counters[C_RUN] = 0
    M.counters[C_POCKET_CHECKED] = 0


cdef double _training_score_binary(const Rows *R, const Data *D, const floating *w, double b,
                                   const ptn_simd *K) noexcept nogil:
    """Weighted count of the training rows that w, b classify right (y*a > 0)."""
    cdef Py_ssize_t k
    cdef ptrdiff_t i
    cdef double score = 0.0, a
    for k in range(D.n_rows):
        i = D.rows[k]
        a = row_dot(R, K, i, w) + b
        if D.y[i] * a > 0.0:
            score += _weight(D, i)
    return score


cdef double _training_score_multi(const Rows *R, const Data *D, const floating *W,
                                  const double *b, Py_ssize_t k_classes,
                                  const ptn_simd *K) noexcept nogil:
    """Weighted count of the training rows whose true class strictly wins."""
    cdef Py_ssize_t k, j
    cdef ptrdiff_t i
    cdef double score = 0.0, at, best
    for k in range(D.n_rows):
        i = D.rows[k]
        at = row_dot(R, K, i, W + D.t[i] * D.d) + b[D.t[i]]
        best = -HUGE_VAL
        for j in range(k_classes):
            if j != D.t[i]:
                best = max(best, row_dot(R, K, i, W + j * D.d) + b[j])
        if at > best:
            score += _weight(D, i)
    return score


cdef void _pocket_ratchet(const Rows *R, const floating *W, const Data *D, Model *M,
                          bint multinomial, const ptn_simd *K) noexcept nogil:
    """Gallant's ratchet: weights whose run of correct predictions outlasts the
    pocket's replace it only if they classify more of the training set right."""
    cdef double score
    if multinomial:
        score = _training_score_multi(R, D, W, M.b, M.k, K)
    else:
        score = _training_score_binary(R, D, W, M.b[0], K)
    if score > M.pocket_score[0]:
        memcpy(M.PW, M.W, <size_t>(M.k * M.d) * sizeof(floating))
        memcpy(M.pb, M.b, <size_t>M.k * sizeof(double))
        M.pocket_score[0] = score
        M.counters[C_POCKET_RUN] = M.counters[C_RUN]
    # The weights do not change during a run, so a second check in the same
    # run would find the same score, which is never "more" than itself:
    # Gallant's loop checks on every step of the run; one check is the same.
    M.counters[C_POCKET_CHECKED] = 1


cdef inline void _pocket_correct_run(const Rows *R, const floating *W, const Data *D, Model *M,
                                     Py_ssize_t c, bint multinomial,
                                     const ptn_simd *K) noexcept nogil:
    """c correct rows in a row, as c calls of _pocket_step_correct would see
    them: the weights do not change during the run, so the one check it may
    trigger happens when the run first outlasts the pocket's, and the run
    length the ratchet records is the one at that row."""
    cdef int64_t run0 = M.counters[C_RUN]
    if not M.counters[C_POCKET_CHECKED] and run0 + c > M.counters[C_POCKET_RUN]:
        M.counters[C_RUN] = max(run0 + 1, M.counters[C_POCKET_RUN] + 1)
        _pocket_ratchet(R, W, D, M, multinomial, K)
    M.counters[C_RUN] = run0 + c


cdef inline void _pocket_step_correct(const Rows *R, const floating *W, const Data *D, Model *M,
                                      bint multinomial, const ptn_simd *K) noexcept nogil:
    M.counters[C_RUN] += 1
    if not M.counters[C_POCKET_CHECKED] and M.counters[C_RUN] > M.counters[C_POCKET_RUN]:
        _pocket_ratchet(R, W, D, M, multinomial, K)


cdef inline Py_ssize_t _ahead(const Rows *R, const Data *D, const floating *W) noexcept nogil:
    """How many positions ahead to prefetch a row: n_rows (never) for data
    that stays in cache."""
    return rows_ahead(D.n_rows, row_bytes(R, D.n, W), max_ahead(R))


# ------------------------------------------------------------ online loops

cdef inline Py_ssize_t _scan(const Rows *R, floating *w, const Data *D, Model *M, const Params *P,
                             ptn_scan *S, const ptn_simd *K, Py_ssize_t k, Py_ssize_t stop,
                             Py_ssize_t ahead, double *act) noexcept nogil:
    """The first position in [k, stop) whose row needs an update (its
    activation in act[0]), or stop: the kernels' scan for dense rows
    (csrc/ptn_scan.h), the same test over sparse rows here."""
    cdef Py_ssize_t j
    cdef ptrdiff_t i
    cdef double a, ya
    if Rows is DenseRows:
        S.b = M.b[0]
        if floating is float:
            return <Py_ssize_t>K.scan_f32(S, <size_t>k, <size_t>stop, act)
        else:
            return <Py_ssize_t>K.scan_f64(S, <size_t>k, <size_t>stop, act)
    else:
        for j in range(k, stop):
            i = D.rows[j]
            if ahead and j + ahead < D.n_rows:
                if j + 2 * ahead < D.n_rows:
                    row_prefetch_start(R, D.rows[j + 2 * ahead])
                row_prefetch(R, D.rows[j + ahead], w)
            a = row_dot(R, K, i, w) + M.b[0]
            ya = D.y[i] * a
            if not (P.margin < ya < HUGE_VAL):
                act[0] = a
                return j
        return stop


cdef inline size_t _csr_online(const Rows *R, ptn_csr_online *C, const floating *w, size_t k,
                               size_t stop, double *act, bint plain) noexcept nogil:
    """ptn_csr_online[_plain]_<type>_<index> (csrc/ptn_csr_online.h) for
    these rows; the plain one when C has no sample weights, no averaging
    and no gathering dot product."""
    if Rows is CsrRows32:
        if floating is float:
            if plain:
                return ptn_csr_online_plain_f32_i32(C, k, stop, act)
            return ptn_csr_online_f32_i32(C, k, stop, act)
        else:
            if plain:
                return ptn_csr_online_plain_f64_i32(C, k, stop, act)
            return ptn_csr_online_f64_i32(C, k, stop, act)
    elif Rows is CsrRows64:
        if floating is float:
            if plain:
                return ptn_csr_online_plain_f32_i64(C, k, stop, act)
            return ptn_csr_online_f32_i64(C, k, stop, act)
        else:
            if plain:
                return ptn_csr_online_plain_f64_i64(C, k, stop, act)
            return ptn_csr_online_f64_i64(C, k, stop, act)
    else:
        return stop


cdef int _epoch_binary_csr(const Rows *R, floating *w, const Data *D, Model *M, const Params *P,
                           Epoch *E, Py_ssize_t *countdown, Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary rule over CSR rows, without a pocket:
    the whole rule runs in ptn_csr_online (its updates included), cut into
    stretches of `countdown` rows so that Ctrl-C is checked as usual."""
    cdef Py_ssize_t n = D.n_rows, k, j, stop
    cdef Py_ssize_t ahead = _ahead(R, D, w) if P.shuffle else n
    cdef ptrdiff_t i
    cdef double a = 0.0
    cdef ptn_csr_online C
    cdef const ptn_simd *scalar = sparse_dot_kernels(0)
    cdef bint gather, plain
    if Rows is DenseRows:
        return 0
    else:
        if ahead >= n:
            ahead = 0
        C.val = R.val
        C.idx = R.idx
        C.ptr = R.ptr
        C.rows = D.rows
        C.n_rows = <size_t>n
        C.ahead = <size_t>ahead
        C.y = D.y
        C.sw = D.sw
        C.w = w
        C.b = M.b
        C.U = M.U if P.average else NULL
        C.ub = M.ub
        C.eta = P.eta
        C.margin = P.margin
        C.fit_intercept = P.fit_intercept
        # the inline scalar dot unless the rows' table is a gathering level's
        # and the rows come in order: rows prefetched in random order (ahead
        # > 0) arrive in L2, where a gather waits for its whole row before
        # the next can start, and the scalar loop overlaps them (synthetic
        # 500,000 x 2^18, 50 non-zeros a row, shuffled: 94 -> 56 ms an epoch)
        gather = R.dotk != scalar and ahead == 0
        C.dot_f32_i32 = R.dotk.sdot_f32_i32 if gather else NULL
        C.dot_f32_i64 = R.dotk.sdot_f32_i64 if gather else NULL
        C.dot_f64_i32 = R.dotk.sdot_f64_i32 if gather else NULL
        C.dot_f64_i64 = R.dotk.sdot_f64_i64 if gather else NULL
        plain = not gather and C.sw == NULL and C.U == NULL
        k = 0
        while k < n:
            stop = min(n, k + max(countdown[0], 1))
            C.steps = M.counters[C_STEPS]
            C.mistakes = 0
            C.updates = 0
            C.loss = 0.0
            j = <Py_ssize_t>_csr_online(R, &C, w, <size_t>k, <size_t>stop, &a, plain)
            M.counters[C_STEPS] = C.steps
            E.mistakes += C.mistakes
            E.updates += C.updates
            E.loss += C.loss
            countdown[0] -= j - k
            if j < stop:
                i = D.rows[j]
                if not row_finite(R, i, w):
                    E.status = _STATUS_NONFINITE_X
                    E.bad_row = i
                else:
                    E.status = _STATUS_OVERFLOW
                return 0
            k = j
            if countdown[0] <= 0:
                countdown[0] = 1
                if _check_signals(countdown, check_every, D):
                    E.status = _STATUS_STOPPED
                    return 0
        return 0


cdef int _epoch_binary(const Rows *R, floating *w, const Data *D, Model *M, const Params *P,
                       Epoch *E, Py_ssize_t *countdown, Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary rule over D.rows.

    The scan runs through the rows the weights already get right, up to the
    next row that needs an update; this loop handles that row and scans on.
    Stretches are cut at `countdown` rows so that Ctrl-C is checked as often
    as before."""
    if Rows is not DenseRows:
        if not P.pocket:
            return _epoch_binary_csr(R, w, D, M, P, E, countdown, check_every)
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t n = D.n_rows, k, j, stop
    # a shuffled order defeats the hardware prefetchers; a sorted one does not
    cdef Py_ssize_t ahead = _ahead(R, D, w) if P.shuffle else n
    cdef ptrdiff_t i
    cdef double a = 0.0, ya, step, s
    cdef ptn_scan S
    if ahead >= n:
        ahead = 0
    if Rows is DenseRows:
        S.X = R.X
        S.d = <size_t>D.d
        S.rows = D.rows
        S.n_rows = <size_t>n
        S.ahead = <size_t>ahead
        S.y = D.y
        S.w = w
        S.margin = P.margin
    k = 0
    while k < n:
        stop = min(n, k + max(countdown[0], 1))
        j = _scan(R, w, D, M, P, &S, K, k, stop, ahead, &a)
        if j > k:
            # the rows of [k, j) were right: steps for the averaging clock
            # and the pocket's run
            M.counters[C_STEPS] += j - k
            if P.pocket:
                _pocket_correct_run(R, w, D, M, j - k, False, K)
            countdown[0] -= j - k
        if j < stop:
            i = D.rows[j]
            ya = D.y[i] * a
            if not isfinite(a):
                if not row_finite(R, i, w):
                    E.status = _STATUS_NONFINITE_X
                    E.bad_row = i
                else:
                    E.status = _STATUS_OVERFLOW
                return 0
            s = _weight(D, i)
            if ya <= 0.0:
                E.mistakes += 1
                E.loss -= s * ya
            step = P.eta * s * D.y[i]
            row_axpy(R, K, i, step, w)
            if P.fit_intercept:
                M.b[0] += step
            if P.average:
                row_axpy_acc(R, K, i, step * <double>M.counters[C_STEPS], M.U, w)
                if P.fit_intercept:
                    M.ub[0] += step * <double>M.counters[C_STEPS]
            E.updates += 1
            if P.pocket:
                _after_update_pocket(M)
            M.counters[C_STEPS] += 1
            countdown[0] -= 1
            j += 1
        k = j
        if countdown[0] <= 0:
            countdown[0] = 1
            if _check_signals(countdown, check_every, D):
                E.status = _STATUS_STOPPED
                return 0
    return 0


cdef int _epoch_multinomial(const Rows *R, floating *W, const Data *D, Model *M, const Params *P,
                            Epoch *E, Py_ssize_t *countdown, Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the multiclass perceptron over D.rows."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t d = D.d, n = D.n_rows, kc = M.k, k, j, r
    cdef Py_ssize_t ahead = _ahead(R, D, W)
    cdef ptrdiff_t i
    cdef int32_t t
    cdef double best, diff, step, s, c
    for k in range(n):
        i = D.rows[k]
        if k + ahead < n:
            if k + 2 * ahead < n:
                row_prefetch_start(R, D.rows[k + 2 * ahead])
            row_prefetch(R, D.rows[k + ahead], W)
        t = D.t[i]
        r = -1
        best = -HUGE_VAL
        for j in range(kc):
            M.acts[j] = row_dot(R, K, i, W + j * d) + M.b[j]
            if j != t and (r < 0 or M.acts[j] > best):
                best = M.acts[j]
                r = j
        diff = M.acts[t] - best
        if not (P.margin < diff < HUGE_VAL):
            if not (isfinite(M.acts[t]) and isfinite(best)):
                if not row_finite(R, i, W):
                    E.status = _STATUS_NONFINITE_X
                    E.bad_row = i
                else:
                    E.status = _STATUS_OVERFLOW
                return 0
            s = _weight(D, i)
            if diff <= 0.0:
                E.mistakes += 1
                E.loss -= s * diff
            step = P.eta * s
            row_axpy(R, K, i, step, W + t * d)
            row_axpy(R, K, i, -step, W + r * d)
            if P.fit_intercept:
                M.b[t] += step
                M.b[r] -= step
            if P.average:
                c = <double>M.counters[C_STEPS]
                row_axpy_acc(R, K, i, step * c, M.U + t * d, W)
                row_axpy_acc(R, K, i, -step * c, M.U + r * d, W)
                if P.fit_intercept:
                    M.ub[t] += step * c
                    M.ub[r] -= step * c
            E.updates += 1
            if P.pocket:
                _after_update_pocket(M)
        elif P.pocket:
            _pocket_step_correct(R, W, D, M, True, K)
        M.counters[C_STEPS] += 1
        if _check_signals(countdown, check_every, D):
            E.status = _STATUS_STOPPED
            return 0
    return 0


# -------------------------------------------------------- mini-batch loop

cdef int _epoch_batch(const Rows *R, floating *W, const Data *D, Model *M, const Params *P,
                      bint multinomial, Epoch *E, Py_ssize_t *countdown,
                      Py_ssize_t check_every) except -1 nogil:
    """One epoch of mini-batch subgradient steps on the perceptron loss.

    The rows (shuffled) are cut into consecutive batches of P.batch_size (the
    last may be shorter); within a batch the weights are fixed, the violating
    rows' s*y*x are summed into G, and then w += (eta/B) G with B the batch's
    size.  A batch of all rows is the full gradient step of seed 002."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t d = D.d, n = D.n_rows, kc = M.k, start, stop, bs, k, j, r
    cdef Py_ssize_t ahead = _ahead(R, D, W)
    cdef ptrdiff_t i
    cdef int32_t t
    cdef double a, ya, best, diff, s, scale, c
    cdef bint any_violation
    start = 0
    while start < n:
        stop = min(start + P.batch_size, n)
        bs = stop - start
        memset(M.G, 0, <size_t>(kc * d) * sizeof(double))
        memset(M.gb, 0, <size_t>kc * sizeof(double))
        any_violation = False
        for k in range(start, stop):
            i = D.rows[k]
            if k + ahead < n:
                if k + 2 * ahead < n:
                    row_prefetch_start(R, D.rows[k + 2 * ahead])
                row_prefetch(R, D.rows[k + ahead], W)
            s = _weight(D, i)
            if not multinomial:
                a = row_dot(R, K, i, W) + M.b[0]
                ya = D.y[i] * a
                if not (P.margin < ya < HUGE_VAL):
                    if not isfinite(a):
                        E.status = _STATUS_NONFINITE_X if not row_finite(R, i, W) else _STATUS_OVERFLOW
                        E.bad_row = i
                        return 0
                    if ya <= 0.0:
                        E.mistakes += 1
                        E.loss -= s * ya
                    row_axpy_acc(R, K, i, s * D.y[i], M.G, W)
                    M.gb[0] += s * D.y[i]
                    any_violation = True
            else:
                t = D.t[i]
                r = -1
                best = -HUGE_VAL
                for j in range(kc):
                    M.acts[j] = row_dot(R, K, i, W + j * d) + M.b[j]
                    if j != t and (r < 0 or M.acts[j] > best):
                        best = M.acts[j]
                        r = j
                diff = M.acts[t] - best
                if not (P.margin < diff < HUGE_VAL):
                    if not (isfinite(M.acts[t]) and isfinite(best)):
                        E.status = _STATUS_NONFINITE_X if not row_finite(R, i, W) else _STATUS_OVERFLOW
                        E.bad_row = i
                        return 0
                    if diff <= 0.0:
                        E.mistakes += 1
                        E.loss -= s * diff
                    row_axpy_acc(R, K, i, s, M.G + t * d, W)
                    row_axpy_acc(R, K, i, -s, M.G + r * d, W)
                    M.gb[t] += s
                    M.gb[r] -= s
                    any_violation = True
            if _check_signals(countdown, check_every, D):
                E.status = _STATUS_STOPPED
                return 0
        if any_violation:
            scale = P.eta / <double>bs
            c = <double>M.counters[C_STEPS]
            for j in range(kc):
                _add_scaled(W + j * d, scale, M.G + j * d, d, K)
                if P.average:
                    K.axpy_f64(<size_t>d, scale * c, M.G + j * d, M.U + j * d)
                if P.fit_intercept:
                    M.b[j] += scale * M.gb[j]
                    if P.average:
                        M.ub[j] += scale * c * M.gb[j]
            E.updates += 1
        M.counters[C_STEPS] += 1
        start = stop
    return 0


# --------------------------------------------------------------- driver

cdef int _run(const Rows *R, floating *W, Data *D, Model *M, const Params *P, bint multinomial,
              Py_ssize_t n_epochs, int64_t *mistakes, int64_t *updates, double *loss,
              Epoch *last) except -1 nogil:
    """Up to n_epochs epochs; stops after an epoch without updates when asked."""
    cdef Py_ssize_t e
    cdef size_t bytes_per_row = max(row_bytes(R, D.n, W), <size_t>1)
    cdef Py_ssize_t check_every = max(1, SIGNAL_CHECK_BYTES // <Py_ssize_t>bytes_per_row)
    cdef Py_ssize_t countdown = check_every
    cdef Epoch E
    for e in range(n_epochs):
        E.mistakes = 0
        E.updates = 0
        E.loss = 0.0
        E.status = _STATUS_OK
        E.bad_row = -1
        if P.shuffle:
            active_simd().shuffle(M.rng, D.rows, <size_t>D.n_rows)
        if P.batch_size > 0:
            _epoch_batch(R, W, D, M, P, multinomial, &E, &countdown, check_every)
        elif multinomial:
            _epoch_multinomial(R, W, D, M, P, &E, &countdown, check_every)
        else:
            _epoch_binary(R, W, D, M, P, &E, &countdown, check_every)
        last[0] = E
        if E.status != _STATUS_OK:
            return e
        mistakes[e] = E.mistakes
        updates[e] = E.updates
        loss[e] = E.loss
        M.counters[C_UPDATES] += E.updates
        M.counters[C_EPOCHS] += 1
        if not (_all_finite(W, M.k * D.d) and _all_finite_f64(M.b, M.k)):
            last.status = _STATUS_OVERFLOW
            return e
        if E.updates == 0 and P.stop_when_converged:
            return e + 1
    return n_epochs


cdef Params _params(dict p) except *:
    cdef Params P
    P.eta = p["eta"]
    P.margin = p["margin"]
    P.fit_intercept = p["fit_intercept"]
    P.shuffle = p["shuffle"]
    P.average = p["average"]
    P.pocket = p["pocket"]
    P.stop_when_converged = p["stop_when_converged"]
    P.batch_size = p["batch_size"] or 0
    return P


cdef dict _execute(state, const Rows *R, const floating *dtype_of_x, Py_ssize_t n, Py_ssize_t d,
                   labels, sample_weight, dict params, Py_ssize_t n_epochs, stop_flag):
    """run_epochs on rows R (n rows of d features) of dtype `floating`."""
    cdef Params P = _params(params)
    cdef bint multinomial = state.multinomial
    cdef Model M
    cdef Data D
    cdef Epoch last
    cdef Py_ssize_t done
    cdef floating[:, ::1] W = state.W
    cdef double[::1] b = state.b
    cdef double[:, ::1] U
    cdef double[::1] ub
    cdef floating[:, ::1] PW
    cdef double[::1] pb, pocket_score = state.pocket_score
    cdef double[:, ::1] G
    cdef double[::1] gb, acts = state.acts
    cdef int64_t[::1] counters = state.counters
    cdef uint64_t[::1] rng_state = state.rng_state
    cdef ptrdiff_t[::1] rows = state.rows
    cdef const signed char[::1] y
    cdef const int32_t[::1] t
    cdef const double[::1] sw
    cdef uint8_t[::1] stop
    cdef ptn_rng rng
    cdef int64_t[::1] mistakes = np.zeros(n_epochs, dtype=np.int64)
    cdef int64_t[::1] updates = np.zeros(n_epochs, dtype=np.int64)
    cdef double[::1] loss = np.zeros(n_epochs, dtype=np.float64)

    if W.shape[1] != d or counters.shape[0] < N_COUNTERS or rng_state.shape[0] != 1:
        raise ValueError("run_epochs: the state does not match X")
    if n_epochs < 1 or rows.shape[0] == 0 or d == 0:
        raise ValueError("run_epochs: nothing to do")
    # the arrays the parameters need must exist (a state made for other parameters)
    if (P.average and (state.U is None or state.ub is None)) or \
            (P.pocket and (state.PW is None or state.pb is None)) or \
            (P.batch_size > 0 and (state.G is None or state.gb is None)):
        raise ValueError("run_epochs: the state was made without the arrays that average, "
                         "pocket or batch_size need")
    M.k = W.shape[0]
    M.d = W.shape[1]
    M.W = &W[0, 0]
    M.b = &b[0]
    M.U = NULL
    M.ub = NULL
    M.PW = NULL
    M.pb = NULL
    M.G = NULL
    M.gb = NULL
    M.acts = &acts[0]
    M.pocket_score = &pocket_score[0]
    M.counters = &counters[0]
    if P.average:
        U = state.U
        ub = state.ub
        M.U = &U[0, 0]
        M.ub = &ub[0]
    if P.pocket:
        PW = state.PW
        pb = state.pb
        M.PW = &PW[0, 0]
        M.pb = &pb[0]
    if P.batch_size > 0:
        G = state.G
        gb = state.gb
        M.G = &G[0, 0]
        M.gb = &gb[0]
    D.n = n
    D.d = d
    D.y = NULL
    D.t = NULL
    if multinomial:
        t = labels
        D.t = &t[0]
    else:
        y = labels
        D.y = &y[0]
    D.sw = NULL
    if sample_weight is not None:
        sw = sample_weight
        D.sw = &sw[0]
    D.rows = &rows[0]
    D.n_rows = rows.shape[0]
    D.stop = NULL
    if stop_flag is not None:
        stop = stop_flag
        D.stop = &stop[0]
    rng.state = rng_state[0]
    M.rng = &rng
    last.status = _STATUS_OK
    last.bad_row = -1
    try:
        with nogil:
            done = _run(R, &W[0, 0], &D, &M, &P, multinomial, n_epochs,
                        &mistakes[0], &updates[0], &loss[0], &last)
    finally:
        rng_state[0] = rng.state
    return {
        "epochs": done,
        "mistakes": np.asarray(mistakes[:done]).copy(),
        "updates": np.asarray(updates[:done]).copy(),
        "loss": np.asarray(loss[:done]).copy(),
        "status": last.status,
        "bad_row": last.bad_row,
    }



def run_epochs(state, X, labels, sample_weight, dict params, Py_ssize_t n_epochs, stop_flag=None):
    """Run up to `n_epochs` epochs of the state's model on X, in place.

    X is a C-contiguous (n, d) float32 or float64 array, or CSR data (an
    object with `data`, `indices`, `indptr` and `shape`: a scipy CSR matrix
    or ``perceptron._validation.CsrData``) with float32/float64 values and
    int32/int64 indices, validated by the Python layer (indices in range,
    no column repeated in a row).  `state` is a perceptron._state.OnlineState
    whose arrays match X's dtype and width; `labels` are int8 signs (binary
    state) or int32 class indices (multinomial state); `sample_weight` is a
    float64 array or None.  Inputs are trusted.

    Returns a dict: epochs completed, mistakes / updates / summed weighted
    loss of each, the status and the offending row when it is not OK.
    """
    if isinstance(X, np.ndarray):
        return _run_dense(state, X, labels, sample_weight, params, n_epochs, stop_flag)
    return _run_csr(state, X.data, X.indices, X.indptr, X.shape[1], labels, sample_weight,
                    params, n_epochs, stop_flag)


def _run_dense(state, const floating[:, ::1] X, labels, sample_weight, dict params,
               Py_ssize_t n_epochs, stop_flag):
    cdef DenseRows R
    R.X = &X[0, 0]
    R.d = X.shape[1]
    return _execute(state, &R, &X[0, 0], X.shape[0], X.shape[1], labels, sample_weight, params,
                    n_epochs, stop_flag)


def _run_csr(state, const floating[::1] data, indices, indptr, Py_ssize_t n_features, labels,
             sample_weight, dict params, Py_ssize_t n_epochs, stop_flag):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const int32_t[::1] i32, p32
    cdef const int64_t[::1] i64, p64
    cdef Py_ssize_t n = indptr.shape[0] - 1
    cdef const floating *val = NULL
    if data.shape[0]:
        val = &data[0]
    if indices.dtype == np.int32:
        i32 = indices
        p32 = indptr
        csr_rows32(&R32, val, i32, p32, n_features, <size_t>n_features * sizeof(floating))
        return _execute(state, &R32, val, n, n_features, labels, sample_weight, params,
                        n_epochs, stop_flag)
    i64 = indices
    p64 = indptr
    csr_rows64(&R64, val, i64, p64, n_features, <size_t>n_features * sizeof(floating))
    return _execute(state, &R64, val, n, n_features, labels, sample_weight, params, n_epochs,
                    stop_flag)


cdef double _score(state, const Rows *R, const floating *dtype_of_x, Py_ssize_t n, Py_ssize_t d,
                   labels, sample_weight, bint pocket) except? -1.0:
    cdef Data D
    cdef floating[:, ::1] W = state.PW if pocket else state.W
    cdef double[::1] b = state.pb if pocket else state.b
    cdef ptrdiff_t[::1] rows = state.rows
    cdef const signed char[::1] y
    cdef const int32_t[::1] t
    cdef const double[::1] sw
    cdef double score
    cdef const ptn_simd *K = active_simd()
    D.n = n
    D.d = d
    D.rows = &rows[0]
    D.n_rows = rows.shape[0]
    D.sw = NULL
    D.y = NULL
    D.t = NULL
    if sample_weight is not None:
        sw = sample_weight
        D.sw = &sw[0]
    if state.multinomial:
        t = labels
        D.t = &t[0]
        with nogil:
            score = _training_score_multi(R, &D, &W[0, 0], &b[0], W.shape[0], K)
    else:
        y = labels
        D.y = &y[0]
        with nogil:
            score = _training_score_binary(R, &D, &W[0, 0], b[0], K)
    return score


def training_score(state, X, labels, sample_weight, bint pocket=False):
    """Weighted count of the state's rows that its current weights (or its
    pocket weights) get right: y*a > 0, or the true class strictly winning.
    X as in run_epochs."""
    if isinstance(X, np.ndarray):
        return _score_dense(state, X, labels, sample_weight, pocket)
    return _score_csr(state, X.data, X.indices, X.indptr, X.shape[1], labels, sample_weight,
                      pocket)


def _score_dense(state, const floating[:, ::1] X, labels, sample_weight, bint pocket):
    cdef DenseRows R
    R.X = &X[0, 0]
    R.d = X.shape[1]
    return _score(state, &R, &X[0, 0], X.shape[0], X.shape[1], labels, sample_weight, pocket)


def _score_csr(state, const floating[::1] data, indices, indptr, Py_ssize_t n_features, labels,
               sample_weight, bint pocket):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef const int32_t[::1] i32, p32
    cdef const int64_t[::1] i64, p64
    cdef Py_ssize_t n = indptr.shape[0] - 1
    cdef const floating *val = NULL
    if data.shape[0]:
        val = &data[0]
    if indices.dtype == np.int32:
        i32 = indices
        p32 = indptr
        csr_rows32(&R32, val, i32, p32, n_features, <size_t>n_features * sizeof(floating))
        return _score(state, &R32, val, n, n_features, labels, sample_weight, pocket)
    i64 = indices
    p64 = indptr
    csr_rows64(&R64, val, i64, p64, n_features, <size_t>n_features * sizeof(floating))
    return _score(state, &R64, val, n, n_features, labels, sample_weight, pocket)


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

# Shared declarations of the online loops (perceptron/_core/online.pyx and the
# epochs it cimports: csr_epoch.pxd, batch_epoch.pxd): the update rule
# (csrc/ptn_update.h), the status codes and counter slots (the only
# definition: perceptron/linear/_state.py reads them from perceptron._core.online),
# the loop's parameters and state as C structs, and the helpers every epoch
# uses (sample weights, Ctrl-C, the pocket's ratchet).

from cython cimport floating
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport int64_t, int32_t, uint8_t
from libc.stddef cimport ptrdiff_t
from libc.string cimport memcpy
from cpython.exc cimport PyErr_CheckSignals

from perceptron.simd cimport ptn_simd, ptn_rng, ptn_scan, ptn_rule
from perceptron._core.prefetch cimport order_ahead
from perceptron._core.rows cimport (Rows, DenseRows, rows_xkind, row_dot, row_bytes, row_finite,
                                    max_ahead)

cdef extern from "ptn_update.h" nogil:
    # the rule (csrc/ptn_update.h documents it)
    ctypedef struct ptn_step:
        double step             # w += step * x
        double acc              # U += acc * x (averaging)
    ctypedef struct ptn_pair:
        double t                # w_t += t * x (the true class)
        double r                # w_r += r * x (the best-scoring other class)
    bint ptn_must_update(double margin, double ya)
    bint ptn_rule_needs_norm(const ptn_rule *r)
    bint ptn_rule_acts(const ptn_rule *r, double ya)
    void ptn_rule_count(const ptn_rule *r, double ya, double s, int64_t *mistakes, double *loss,
                        double *raw)
    double ptn_rule_step(const ptn_rule *r, double y, double ya, double sqnorm, double s)
    ptn_pair ptn_rule_multiclass(const ptn_rule *r, double lead, double sqnorm, double s)
    ptn_step ptn_binary_update(const ptn_rule *rule, int fit_intercept, int average, double ya,
                               double s, double y, double sqnorm, double c, double *b,
                               double *ub, int64_t *mistakes, int64_t *updates, double *loss,
                               double *raw)
    # the penalties
    enum:
        PTN_PENALTY_NONE
        PTN_PENALTY_L2
        PTN_PENALTY_L1
        PTN_PENALTY_ELASTICNET
    double PTN_SCALE_FLOOR
    double ptn_l2_factor(double eta, double alpha, double l1_ratio)
    double ptn_penalty_term(double alpha, double l1_ratio, double sq, double l1)
    double ptn_l1_truncate(double z, double q, double u, double scale)

# Status codes of a call, turned into exceptions by the Python layer.
cdef enum:
    STATUS_OK = 0
    STATUS_NONFINITE_X = 1     # a row of X holds NaN or infinity
    STATUS_OVERFLOW = 2        # the weights stopped being finite
    STATUS_STOPPED = 3         # the caller's stop flag was raised


# Slots of the int64 counter array of a state (perceptron/linear/_state.py), exposed
# to Python by perceptron._core.online.
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
    ptn_rule rule               # the update rule, its step size and trigger (csrc/ptn_update.h)
    bint fit_intercept
    bint shuffle
    bint average
    bint pocket
    bint stop_when_converged
    Py_ssize_t batch_size       # 0: online
    int penalty                 # PTN_PENALTY_* (csrc/ptn_update.h)
    double alpha                # strength of the penalty
    double l1_ratio             # L1 share of the elastic net
    bint keep_order             # shuffle: the caller shuffled the rows (an order shared by
                                # several problems); visit them as they are


# Which fast path the loops may take: the one answer, from the rule's
# parameters and whether rows carry sample weights.  The compiled epochs ask
# it (the dense scan that updates in the kernels, the CSR epoch's plain
# loops), and Python asks it through ``perceptron._core.online.fast_path``
# (the fused one-vs-rest epoch, the state a fit starts from).
cdef enum:
    PATH_ROWS = 0       # pocket, mini-batches or a penalty: row by row in Cython
    PATH_ONLINE = 1     # the online rule, with averaging or sample weights: the
                        # CSR epoch in C, the fused one-vs-rest epoch
    PATH_PLAIN = 2      # the online rule and nothing else: the kernels run it
                        # whole (csrc/ptn_scan.h scan_plain, CSR plain loops)


cdef inline int fast_path(const Params *P, bint weighted) noexcept nogil:
    if P.pocket or P.batch_size > 0 or P.penalty != PTN_PENALTY_NONE:
        return PATH_ROWS
    if P.average or weighted:
        return PATH_ONLINE
    return PATH_PLAIN


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
    double *scale               # (k,) penalties: the weights' scale within an epoch
    double *q                   # (k, d) L1: the penalty each weight took, or NULL
    double *u                   # L1: the cumulative penalty
    double *norms               # (k, 2) penalties: ||w||^2 and ||w||_1 as last computed
    int64_t *counters
    ptn_rng *rng
    void *queue                 # binary pocket: its PocketQueue (pocket_queue.pxd), or NULL


cdef struct Epoch:
    # what one epoch did, and why a call stopped early
    int64_t mistakes
    int64_t updates
    double loss
    double raw_loss  # the loss unweighted (scikit-learn's stopping rule reads it)
    double penalty_loss  # the penalty terms of the stopping rule's objective
    int status
    Py_ssize_t bad_row


cdef struct Data:
    # the rows themselves come apart, as a Rows (perceptron/_core/rows.pxd)
    Py_ssize_t n
    Py_ssize_t d
    const signed char *y        # binary: labels in {-1, +1}
    const int32_t *t            # multinomial: class index of each row
    const double *sw            # sample weights, or NULL for all ones
    const double *sqnorm        # ||x_i||^2 by row when the rule reads it, else NULL
    ptrdiff_t *rows             # the rows to visit, permuted in place when shuffling
    Py_ssize_t n_rows
    bint in_order               # the call does not permute rows (often 0, 1, 2, ...)
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


cdef inline void _set_nonfinite(const Rows *R, ptrdiff_t i, const floating *w,
                                Epoch *E) noexcept nogil:
    """Row i's activation is not finite: NaN or infinity in the row
    (STATUS_NONFINITE_X, bad_row i), or else weights that overflowed."""
    if not row_finite(R, i, w):
        E.status = STATUS_NONFINITE_X
        E.bad_row = i
    else:
        E.status = STATUS_OVERFLOW


cdef inline double _weight(const Data *D, ptrdiff_t i) noexcept nogil:
    return 1.0 if D.sw == NULL else D.sw[i]


cdef inline double _sqnorm(const Data *D, ptrdiff_t i) noexcept nogil:
    """Row i's squared norm for the rule (0 for a rule that does not read it)."""
    return 0.0 if D.sqnorm == NULL else D.sqnorm[i]


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


cdef inline Py_ssize_t _ahead(const Rows *R, const Data *D, const floating *W) noexcept nogil:
    """How many positions ahead to prefetch a row: n_rows (never) for data
    that stays in cache, or rows read in rising order where the CPU's own
    prefetchers do better alone."""
    if Rows is DenseRows:
        if floating is double:
            if R.xkind:
                # narrow rows widened as read (rows.pxd, wide_row): the float64
                # loops' row addresses are not theirs, so none are asked for
                return D.n_rows
    return order_ahead(D.rows, D.n_rows, row_bytes(R, D.n, W), max_ahead(R))


cdef inline double _training_score_binary(const Rows *R, const Data *D, const floating *w, double b,
                                          const ptn_simd *K, double bound) noexcept nogil:
    """Weighted count of the training rows that w, b classify right (y*a > 0).

    Unweighted (D.sw NULL), the count stops as soon as the rows found wrong
    leave at most `bound` rows that could still be right, and returns the
    rows right so far (<= bound): the ratchet only asks whether the count
    beats the pocket's, and integer counts in double are exact, so the
    answer is the same (-HUGE_VAL: always the whole count).  Dense rows are
    read by the level's scan (csrc/ptn_scan.h, with margin 0: it stops at
    each row with y*a <= 0 or not finite), inlined dot product and prefetch
    included; the rows it stops at are tested again here as before, so an
    activation of +inf with y = +1 still counts as right."""
    cdef Py_ssize_t n = D.n_rows, k = 0, j, r, wrong = 0
    cdef Py_ssize_t ahead
    cdef ptrdiff_t i
    cdef double score = 0.0, a = 0.0
    cdef ptn_scan S
    cdef bint scan = True
    if floating is double:
        scan = not rows_xkind(R)  # narrow rows meeting float64 weights: widened, below
    if Rows is DenseRows:
        if scan:
            ahead = _ahead(R, D, w)
            S.X = R.X
            S.d = <size_t>D.d
            S.rows = D.rows
            S.n_rows = <size_t>n
            S.ahead = 0 if ahead >= n else <size_t>ahead
            S.by_row = NULL
            S.y = D.y
            S.w = w
            S.b = b
            S.margin = 0.0
            while k < n:
                if floating is float:
                    if rows_xkind(R):
                        j = <Py_ssize_t>K.nscan(rows_xkind(R), &S, <size_t>k, <size_t>n, &a)
                    else:
                        j = <Py_ssize_t>K.scan_f32(&S, <size_t>k, <size_t>n, &a)
                else:
                    j = <Py_ssize_t>K.scan_f64(&S, <size_t>k, <size_t>n, &a)
                if D.sw == NULL:
                    score += <double>(j - k)
                else:
                    for r in range(k, j):
                        score += D.sw[D.rows[r]]
                if j >= n:
                    break
                i = D.rows[j]
                if D.y[i] * a > 0.0:
                    score += _weight(D, i)
                else:
                    wrong += 1
                    if D.sw == NULL and <double>(n - wrong) <= bound:
                        return score
                k = j + 1
            return score
    for k in range(n):
        i = D.rows[k]
        a = row_dot(R, K, i, w) + b
        if D.y[i] * a > 0.0:
            score += _weight(D, i)
        else:
            wrong += 1
            if D.sw == NULL and <double>(n - wrong) <= bound:
                return score
    return score


cdef inline double _training_score_multi(const Rows *R, const Data *D, const floating *W,
                                         const double *b, Py_ssize_t k_classes,
                                         const ptn_simd *K, double bound) noexcept nogil:
    """Weighted count of the training rows whose true class strictly wins;
    stops early as _training_score_binary does (unweighted, once `bound`
    cannot be beaten)."""
    cdef Py_ssize_t k, j, wrong = 0
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
        else:
            wrong += 1
            if D.sw == NULL and <double>(D.n_rows - wrong) <= bound:
                return score
    return score


cdef inline void _pocket_ratchet(const Rows *R, const floating *W, const Data *D, Model *M,
                          bint multinomial, const ptn_simd *K) noexcept nogil:
    """Gallant's ratchet: weights whose run of correct predictions outlasts the
    pocket's replace it only if they classify more of the training set right."""
    cdef double score
    if multinomial:
        score = _training_score_multi(R, D, W, M.b, M.k, K, M.pocket_score[0])
    else:
        score = _training_score_binary(R, D, W, M.b[0], K, M.pocket_score[0])
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



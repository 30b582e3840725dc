# cython: language_level=3
"""The one-vs-rest epoch over dense rows, fused: each row read once for
all its classes.

One-vs-rest trains k binary perceptrons, class c on the signs
y_c = +1 where the row's class is c, -1 elsewhere (Rifkin and Klautau 2004,
"In Defense of One-Vs-All Classification"), every class visiting the rows
in one order shared by all of them (perceptron.linear._problem.SharedOrder).
Run one class after the other, an epoch reads X k times; here each row is
read once, scored against every class still training by the kernels'
``dots`` (csrc/ptn_simd.h: the level's own dot product once per class,
while the row sits in L1), and each class whose y_c*a_c <= margin takes
its binary step (csrc/ptn_update.h, ``ptn_rule_acts`` and
``ptn_binary_update``, the trigger and the step every binary loop takes).

The classes do not interact: a class's update moves only its own weights,
and the activations are the bits of the binary loop's (the same kernel at
the same level), so each class ends the epoch with exactly the weights,
bias, averaging accumulators, counters and tallies its own binary loop
(``perceptron._core.online.run_epochs`` with ``keep_order``) gives over
the same order.  The Python layer (perceptron.linear._training) chooses this
epoch where it applies and the per-class loops elsewhere.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite
from libc.stdint cimport int64_t, int32_t, uint8_t
from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport (ptn_simd, active_simd, PTN_F32_TAIL_MAX, ptn_f32_tail_to_double,
                               ptn_rule, ptn_rule_make)
from perceptron._core.prefetch cimport (ptn_prefetch_range_l1, OVR_L1_ONLY_MAX_ROW_BYTES,
                                        PTN_PREFETCH_NEAR_ROWS, PTN_PREFETCH_NEAR_MAX_ROW_BYTES)
from perceptron._core.rows cimport DenseRows, row_axpy, row_axpy_acc, row_prefetch, row_sqnorms
from perceptron._core cimport loop
from perceptron._core.loop cimport (Data, Epoch, ptn_step, ptn_rule_acts, ptn_rule_needs_norm,
                                    ptn_binary_update, _all_finite, _all_finite_f64,
                                    _set_nonfinite, _weight, _sqnorm, _check_signals, _ahead)
from perceptron._core.online import PATH_ROWS, RULES, fast_path


cdef struct Classes:
    # the classes of one fused epoch, m of them, each a binary state's arrays
    Py_ssize_t m
    const void *const *w        # (m,) weight rows, in the data's dtype
    double *const *wt           # (m,) float32: each row's last d % 64 weights in double
    double *const *b            # (m,) biases
    double *const *U            # (m,) averaging accumulators (average), else unused
    double *const *ub           # (m,)
    int64_t *const *counters    # (m,) counter arrays
    const int32_t *cls          # (m,) the class index each one is +1 for
    Epoch *E                    # (m,) the epoch's tallies and status
    double *acts                # (m,) activation scratch
    double *bias                # (m,) the biases during the epoch
    int64_t *steps              # (m,) the averaging clocks at its start


cdef struct Rule:
    ptn_rule rule               # the update rule (csrc/ptn_update.h)
    bint fit_intercept
    bint average


cdef int _epoch_ovr(const DenseRows *R, const floating *dtype_of_x, const Data *D,
                    const int32_t *t, Classes *C, const Rule *P, Py_ssize_t check_every,
                    Py_ssize_t *countdown) except -1 nogil:
    """One epoch of every class of C over D.rows, each row read once.

    Every class takes one step a row, so class c's averaging clock at
    position k is its count before the epoch plus k: the counters are
    written once, at the end, and the biases live in C.bias meanwhile."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t n = D.n_rows, d = D.d, m = C.m, k = 0, c
    cdef Py_ssize_t ahead = _ahead(R, D, dtype_of_x)
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    # how the rows are asked for (perceptron/_core/prefetch.pxd)
    cdef bint l1_only = ahead < n and row_bytes < OVR_L1_ONLY_MAX_ROW_BYTES
    cdef bint near = (not l1_only and row_bytes <= PTN_PREFETCH_NEAR_MAX_ROW_BYTES and
                      PTN_PREFETCH_NEAR_ROWS < ahead < n)
    cdef ptrdiff_t i
    cdef int32_t ti
    cdef const floating *x
    cdef floating *w
    cdef double a, ya, y
    cdef ptn_step st
    cdef int status = loop.STATUS_OK
    cdef Py_ssize_t bad_row = -1
    if ahead >= n:
        ahead = 0
    elif l1_only:
        ahead = min(ahead, <Py_ssize_t>PTN_PREFETCH_NEAR_ROWS)
    for c in range(m):
        C.bias[c] = C.b[c][0]
        C.steps[c] = C.counters[c][loop.C_STEPS]
        if floating is float:
            # the weights of the float32 dot product's exact tail, converted
            # here (into zeroed rows) and after each update of the class
            # instead of on every row for every class (csrc/ptn_simd.h,
            # dots_f32_tails)
            ptn_f32_tail_to_double(<size_t>d, <const float *>C.w[c], C.wt[c])
    while k < n:
        i = D.rows[k]
        if ahead and k + ahead < n:
            if l1_only:
                ptn_prefetch_range_l1(<const floating *>R.X + D.rows[k + ahead] * d, row_bytes)
            else:
                row_prefetch(R, D.rows[k + ahead], dtype_of_x)
                if near:
                    ptn_prefetch_range_l1(
                        <const floating *>R.X + D.rows[k + PTN_PREFETCH_NEAR_ROWS] * d, row_bytes)
            # and its class, a load the row's tests wait for
            ptn_prefetch_range_l1(&t[D.rows[k + ahead]], sizeof(int32_t))
        x = <const floating *>R.X + i * d
        if floating is float:
            K.dots_f32_tails(<size_t>d, x, <const float *const *>C.w,
                             <const double *const *>C.wt, <size_t>m, C.acts)
        else:
            K.dots_f64(<size_t>d, x, <const double *const *>C.w, <size_t>m, C.acts)
        ti = t[i]
        for c in range(m):
            # the binary loops' activation and trigger (csrc/ptn_scan.h)
            a = C.acts[c] + C.bias[c]
            y = 1.0 if ti == C.cls[c] else -1.0
            ya = y * a
            if ptn_rule_acts(&P.rule, ya):
                w = <floating *>C.w[c]
                if not isfinite(a):
                    _set_nonfinite(R, i, w, &C.E[c])
                    status = C.E[c].status
                    bad_row = C.E[c].bad_row
                    break
                st = ptn_binary_update(&P.rule, P.fit_intercept, P.average, ya, _weight(D, i),
                                       y, _sqnorm(D, i), <double>(C.steps[c] + k),
                                       &C.bias[c], C.ub[c], &C.E[c].mistakes,
                                       &C.E[c].updates, &C.E[c].loss, &C.E[c].raw_loss)
                row_axpy(R, K, i, st.step, w)
                if floating is float:
                    ptn_f32_tail_to_double(<size_t>d, <const float *>w, C.wt[c])
                if P.average:
                    row_axpy_acc(R, K, i, st.acc, C.U[c], w)
        if status != loop.STATUS_OK:
            break
        k += 1
        if _check_signals(countdown, check_every, D):
            status = loop.STATUS_STOPPED
            break
    for c in range(m):
        C.b[c][0] = C.bias[c]
        C.counters[c][loop.C_STEPS] = C.steps[c] + k
        if status != loop.STATUS_OK:  # the whole group stops: every class says why
            C.E[c].status = status
            C.E[c].bad_row = bad_row
    return 0


cdef list _execute(list states, const floating[:, ::1] X, const int32_t[::1] target,
                   const int32_t[::1] classes, sample_weight, const ptrdiff_t[::1] rows,
                   Rule rule, stop_flag, sqnorm):
    cdef Py_ssize_t m = len(states), n = X.shape[0], d = X.shape[1], c
    cdef DenseRows R
    cdef Data D
    cdef Classes C
    cdef const double[::1] sw
    cdef uint8_t[::1] stop
    cdef floating[:, ::1] Wc
    cdef double[::1] bc, ubc
    cdef double[:, ::1] Uc
    cdef int64_t[::1] cc
    # the classes' pointers, in arrays that outlive the loop
    ptrs = np.zeros((6, max(m, 1)), dtype=np.uintp)
    cdef double[:, ::1] tails = np.zeros((max(m, 1), PTN_F32_TAIL_MAX))
    cdef size_t[:, ::1] p = ptrs
    epochs = np.zeros(max(m, 1) * sizeof(Epoch), dtype=np.uint8)
    cdef uint8_t[::1] e_bytes = epochs
    cdef double[::1] acts = np.zeros(max(m, 1))
    cdef double[::1] bias = np.zeros(max(m, 1))
    cdef int64_t[::1] steps = np.zeros(max(m, 1), dtype=np.int64)
    cdef Py_ssize_t bytes_per_row = max(1, d * <Py_ssize_t>sizeof(floating) * max(m, 1))
    cdef Py_ssize_t check_every = max(1, loop.SIGNAL_CHECK_BYTES // bytes_per_row)
    cdef Py_ssize_t countdown = check_every
    if target.shape[0] != n or classes.shape[0] != m or rows.shape[0] == 0 or d == 0:
        raise ValueError("run_ovr_epoch: the arguments do not match X")
    for c in range(m):
        st = states[c]
        Wc = st.W
        bc = st.b
        cc = st.counters
        if Wc.shape[0] != 1 or Wc.shape[1] != d or bc.shape[0] != 1 or \
                cc.shape[0] < loop.N_COUNTERS or st.multinomial:
            raise ValueError("run_ovr_epoch: a state is not a binary state of X's width")
        p[0, c] = <size_t>&Wc[0, 0]
        p[1, c] = <size_t>&bc[0]
        p[2, c] = <size_t>&cc[0]
        p[5, c] = <size_t>&tails[c, 0]
        if rule.average:
            if st.U is None or st.ub is None:
                raise ValueError("run_ovr_epoch: average needs the states' accumulators")
            Uc = st.U
            ubc = st.ub
            if Uc.shape[1] != d:
                raise ValueError("run_ovr_epoch: a state's accumulators do not match X")
            p[3, c] = <size_t>&Uc[0, 0]
            p[4, c] = <size_t>&ubc[0]
    C.m = m
    C.w = <const void *const *>&p[0, 0]
    C.b = <double *const *>&p[1, 0]
    C.counters = <int64_t *const *>&p[2, 0]
    C.U = <double *const *>&p[3, 0]
    C.ub = <double *const *>&p[4, 0]
    C.wt = <double *const *>&p[5, 0]
    C.cls = &classes[0] if m else NULL
    C.E = <Epoch *>&e_bytes[0]
    C.acts = &acts[0]
    C.bias = &bias[0]
    C.steps = &steps[0]
    for c in range(m):
        C.E[c].mistakes = 0
        C.E[c].updates = 0
        C.E[c].loss = 0.0
        C.E[c].raw_loss = 0.0
        C.E[c].penalty_loss = 0.0
        C.E[c].status = loop.STATUS_OK
        C.E[c].bad_row = -1
    R.X = &X[0, 0]
    R.xkind = 0
    R.wide = NULL
    R.d = d
    D.n = n
    D.d = d
    D.y = NULL
    D.t = &target[0]
    D.sw = NULL
    if sample_weight is not None:
        sw = sample_weight
        if sw.shape[0] != n:
            raise ValueError("run_ovr_epoch: sample_weight does not match X")
        D.sw = &sw[0]
    D.rows = <ptrdiff_t *>&rows[0]  # read, never written
    D.n_rows = rows.shape[0]
    # the rows' squared norms for a rule that reads them (run_epochs' sqnorm)
    cdef double[::1] sq
    D.sqnorm = NULL
    if ptn_rule_needs_norm(&rule.rule):
        if sqnorm is None:
            sqnorm = np.zeros(n)
            sq = sqnorm
            with nogil:
                row_sqnorms(&R, active_simd(), D.rows, D.n_rows, &X[0, 0], &sq[0])
        sq = sqnorm
        if sq.shape[0] < n:
            raise ValueError("run_ovr_epoch: sqnorm does not match X")
        D.sqnorm = &sq[0]
    D.in_order = False
    D.stop = NULL
    if stop_flag is not None:
        stop = stop_flag
        D.stop = &stop[0]
    if m:
        with nogil:
            _epoch_ovr(&R, &X[0, 0], &D, &target[0], &C, &rule, check_every, &countdown)
            # the end of an epoch, as run_epochs ends each class's
            for c in range(m):
                if C.E[c].status != loop.STATUS_OK:
                    continue
                C.counters[c][loop.C_UPDATES] += C.E[c].updates
                C.counters[c][loop.C_EPOCHS] += 1
                if not (_all_finite(<const floating *>C.w[c], d) and
                        _all_finite_f64(C.b[c], 1)):
                    C.E[c].status = loop.STATUS_OVERFLOW
    results = []
    for c in range(m):
        done = 1 if C.E[c].status == loop.STATUS_OK else 0
        results.append({
            "epochs": done,
            "mistakes": np.full(done, C.E[c].mistakes, dtype=np.int64),
            "updates": np.full(done, C.E[c].updates, dtype=np.int64),
            "loss": np.full(done, C.E[c].loss, dtype=np.float64),
            "raw_loss": np.full(done, C.E[c].raw_loss, dtype=np.float64),
            "status": C.E[c].status,
            "bad_row": C.E[c].bad_row,
        })
    return results


def run_ovr_epoch(states, X, target, classes, sample_weight, rows, params, stop_flag=None,
                  sqnorm=None):
    """One epoch of the one-vs-rest classes `states` over the dense rows X
    (C-contiguous float32 or float64), in the order `rows` (not modified),
    each row read once for all of them.

    states[c] is a binary perceptron.linear._state.OnlineState of X's dtype and
    width, trained on the signs +1 where ``target == classes[c]`` (target:
    int32 class index of each row of X), -1 elsewhere; `sample_weight` a
    float64 array or None; `params` a LoopParams of the online rule without
    pocket, penalty or mini-batches.  Inputs are trusted.

    Returns, for each class, the dict ``run_epochs(state, X, signs,
    sample_weight, params, 1)`` returns for that one epoch (with
    ``keep_order``): the same model and the same tallies, bit for bit.
    `sqnorm` as run_epochs takes it.
    """
    given = params._asdict()
    if fast_path(params, sample_weight is not None) == PATH_ROWS:
        raise ValueError("run_ovr_epoch: the fused epoch is the online rule without pocket, "
                         "penalty or mini-batches")
    cdef Rule rule
    rule.rule = ptn_rule_make(RULES[given["update_rule"]], given["eta"], given["margin"],
                              given["C"])
    rule.fit_intercept = given["fit_intercept"]
    rule.average = given["average"]
    states = list(states)
    classes = np.ascontiguousarray(classes, dtype=np.int32)
    target = np.ascontiguousarray(target, dtype=np.int32)
    if X.dtype == np.float32:
        return _execute[float](states, X, target, classes, sample_weight, rows, rule, stop_flag,
                               sqnorm)
    return _execute[double](states, X, target, classes, sample_weight, rows, rule, stop_flag,
                            sqnorm)

# The online epoch with a penalty (L2, L1 or the elastic net), binary and
# multinomial, over dense and CSR rows alike.
#
# scikit-learn's SGD with a constant rate (its Perceptron) steps the penalty
# on every row, right or wrong, so there is no stretch of rows to skip: this
# loop visits each row in turn, in the order of scikit-learn's _plain_sgd:
#
#   a = scale*(w.x) + b                    the activation
#   objective += alpha*((1-l1_ratio)*||w||^2/2 + l1_ratio*||w||_1)
#                                          the stopping rule's term, from the
#                                          norms as last computed
#   scale *= max(0, 1 - (1-l1_ratio)*eta*alpha)     L2 (Bottou 2012, 5.1)
#   if y*a <= margin: w += (step/scale)*x, b += step, recompute the norms
#   average: U += scale*w, ub += b         the explicit sum of the effective
#                                          weights after the row
#   u += l1_ratio*eta*alpha; each weight takes what it still owes, clipped
#                                          at zero (Tsuruoka, Tsujii and
#                                          Ananiadou 2009, section 3.2)
#
# The L1 step and the averaging touch every weight (scikit-learn's dense
# rows list every feature), so an epoch costs O(d) a row on CSR rows as
# well: sparse and dense input give the same model.  The scale is folded
# into the weights (w *= scale) when it falls below 1e-9, as scikit-learn
# folds it; it lives in the state between calls (the effective weights are
# scale*W), so that calls cut anywhere (epochs, partial_fit's chunks) give
# the bits of one call.
# The rule's scalar parts are in csrc/ptn_update.h.

from cython cimport floating
from libc.math cimport isfinite, fabs, HUGE_VAL
from libc.stdint cimport int64_t, int32_t
from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport ptn_simd, active_simd
from perceptron._core.rows cimport Rows, row_dot, row_axpy, row_prefetch, row_prefetch_start
from perceptron._core.loop cimport (Params, Model, Epoch, Data, C_STEPS, STATUS_STOPPED,
                                    PTN_PENALTY_L2, PTN_PENALTY_L1, PTN_PENALTY_ELASTICNET,
                                    PTN_SCALE_FLOOR, ptn_pair, ptn_rule_acts, ptn_rule_count,
                                    ptn_rule_step, ptn_rule_multiclass, ptn_l2_factor,
                                    ptn_penalty_term, ptn_l1_truncate, _ahead, _check_signals,
                                    _set_nonfinite, _weight, _sqnorm)


cdef inline double _l1_ratio(const Params *P) noexcept nogil:
    """The L1 share the rule uses: 0 for L2, 1 for L1 (as scikit-learn)."""
    if P.penalty == PTN_PENALTY_L2:
        return 0.0
    if P.penalty == PTN_PENALTY_L1:
        return 1.0
    return P.l1_ratio


cdef inline void _fold(floating *w, Py_ssize_t d, double *scale) noexcept nogil:
    """w <- scale*w in the weights' dtype, scale <- 1."""
    cdef Py_ssize_t f
    cdef double sc = scale[0]
    if sc != 1.0:
        for f in range(d):
            w[f] = <floating>(w[f] * sc)
        scale[0] = 1.0


cdef inline void _norms(const floating *w, Py_ssize_t d, double scale,
                        double *norms) noexcept nogil:
    """||scale*w||^2 and ||scale*w||_1, summed in order."""
    cdef Py_ssize_t f
    cdef double sq = 0.0, l1 = 0.0, v
    for f in range(d):
        v = w[f]
        sq += v * v
        l1 += fabs(v)
    norms[0] = sq * (scale * scale)
    norms[1] = l1 * scale


cdef inline void _l1_step(floating *w, double *q, Py_ssize_t d, double u,
                          double scale) noexcept nogil:
    """Tsuruoka, Tsujii and Ananiadou (2009), section 3.2, on every weight."""
    cdef Py_ssize_t f
    cdef double z
    cdef floating nw
    for f in range(d):
        z = w[f]
        nw = <floating>ptn_l1_truncate(z, q[f], u, scale)
        w[f] = nw
        q[f] += scale * (<double>nw - z)


cdef inline void _accumulate(const floating *w, Py_ssize_t d, double scale,
                             double *U) noexcept nogil:
    cdef Py_ssize_t f
    for f in range(d):
        U[f] += scale * <double>w[f]


cdef inline int _epoch_penalized(const Rows *R, floating *W, const Data *D, Model *M, const Params *P,
                          bint multinomial, Epoch *E, Py_ssize_t *countdown,
                          Py_ssize_t check_every) except -1 nogil:
    """One online epoch of the binary (k = 1) or multinomial rule with the
    penalty P.penalty, over D.rows."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t d = D.d, n = D.n_rows, kc = M.k, k, j, r
    cdef Py_ssize_t ahead = _ahead(R, D, W)
    cdef ptrdiff_t i
    cdef int32_t t = 0
    cdef double l1r = _l1_ratio(P)
    cdef bint l2 = P.penalty != PTN_PENALTY_L1
    cdef bint l1 = P.penalty == PTN_PENALTY_L1 or P.penalty == PTN_PENALTY_ELASTICNET
    cdef double f2 = ptn_l2_factor(P.rule.eta, P.alpha, l1r)
    cdef double du = l1r * P.rule.eta * P.alpha
    cdef double a, ya, s, step, best, sq, l1n
    cdef ptn_pair steps
    cdef bint update
    for k in range(n):
        i = D.rows[k]
        if k + ahead < n:
            if k + 2 * ahead < n:
                row_prefetch_start(R, D.rows[k + 2 * ahead])
            row_prefetch(R, D.rows[k + ahead], W)
        s = _weight(D, i)
        r = -1
        if not multinomial:
            a = M.scale[0] * row_dot(R, K, i, W) + M.b[0]
            ya = D.y[i] * a
            best = 0.0
        else:
            t = D.t[i]
            best = -HUGE_VAL
            for j in range(kc):
                M.acts[j] = M.scale[j] * row_dot(R, K, i, W + j * d) + M.b[j]
                if j != t and (r < 0 or M.acts[j] > best):
                    best = M.acts[j]
                    r = j
            a = M.acts[t]
            ya = a - best
        update = ptn_rule_acts(&P.rule, ya)
        if update:
            if not (isfinite(a) and isfinite(best)):
                _set_nonfinite(R, i, W, E)
                return 0
            ptn_rule_count(&P.rule, ya, s, &E.mistakes, &E.loss, &E.raw_loss)
        # the objective's penalty term, with the weights the row was scored by
        sq = 0.0
        l1n = 0.0
        for j in range(kc):
            sq += M.norms[2 * j]
            l1n += M.norms[2 * j + 1]
        E.penalty_loss += ptn_penalty_term(P.alpha, l1r, sq, l1n)
        if l2:
            for j in range(kc):
                M.scale[j] *= f2
                M.norms[2 * j] *= f2 * f2
                M.norms[2 * j + 1] *= fabs(f2)
                if M.scale[j] < PTN_SCALE_FLOOR:
                    _fold(W + j * d, d, &M.scale[j])
        if update:
            if not multinomial:
                step = ptn_rule_step(&P.rule, D.y[i], ya, _sqnorm(D, i), s)
                row_axpy(R, K, i, step / M.scale[0], W)
                _norms(W, d, M.scale[0], M.norms)
                if P.fit_intercept:
                    M.b[0] += step
            else:
                steps = ptn_rule_multiclass(&P.rule, ya, _sqnorm(D, i), s)
                row_axpy(R, K, i, steps.t / M.scale[t], W + t * d)
                row_axpy(R, K, i, steps.r / M.scale[r], W + r * d)
                _norms(W + t * d, d, M.scale[t], M.norms + 2 * t)
                _norms(W + r * d, d, M.scale[r], M.norms + 2 * r)
                if P.fit_intercept:
                    M.b[t] += steps.t
                    M.b[r] += steps.r
            E.updates += 1
        if l1:
            M.u[0] += du
            for j in range(kc):
                _l1_step(W + j * d, M.q + j * d, d, M.u[0], M.scale[j])
        if P.average:
            for j in range(kc):
                _accumulate(W + j * d, d, M.scale[j], M.U + j * d)
                M.ub[j] += M.b[j]
        M.counters[C_STEPS] += 1
        if _check_signals(countdown, check_every, D):
            E.status = STATUS_STOPPED
            return 0
    return 0

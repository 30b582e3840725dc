# The mini-batch epoch: stochastic subgradient steps on the perceptron loss
# max(0, margin - y*a) (the perceptron criterion of Duda, Hart & Stork 2001,
# ch. 5.5, averaged over a batch of rows), binary or multiclass.  With a
# penalty, each batch is one step of it, as each row is one step in the
# online epoch (perceptron/_core/penalty_epoch.pxd): every row of the batch
# adds the penalty term of the (fixed) weights to the stopping rule's
# objective; at the batch's end the weights shrink by the L2 factor (at
# once: the step is O(d) anyway), take the batch's step, then the L1 step of
# Tsuruoka, Tsujii and Ananiadou (2009), and averaging sums the weights.

from cython cimport floating
from libc.math cimport isfinite, fabs, HUGE_VAL
from libc.stdint cimport int32_t
from libc.stddef cimport ptrdiff_t
from libc.string cimport memset

from perceptron.simd cimport ptn_simd, active_simd
from perceptron._core.rows cimport (Rows, row_dot, row_axpy_acc, row_finite, row_prefetch,
                                    row_prefetch_start)
from perceptron.simd cimport ptn_rule
from perceptron._core.loop cimport (Params, Model, Epoch, Data, C_STEPS, STATUS_NONFINITE_X,
                                    STATUS_OVERFLOW, STATUS_STOPPED, _weight, _sqnorm, _ahead,
                                    _check_signals, ptn_pair, ptn_rule_acts, ptn_rule_count,
                                    ptn_rule_step, ptn_rule_multiclass,
                                    PTN_PENALTY_NONE, PTN_PENALTY_L1, ptn_l2_factor,
                                    ptn_penalty_term)
from perceptron._core.penalty_epoch cimport _l1_ratio, _norms, _l1_step, _accumulate

cdef inline void _add_scaled(floating *w, double s, const double *g, Py_ssize_t d,
                             const ptn_simd *K) noexcept nogil:
    """w += s * g with float64 g (a mini-batch step): O(d), once per batch."""
    cdef Py_ssize_t j
    if floating is double:
        K.axpy_f64(<size_t>d, s, g, w)
    else:
        for j in range(d):
            w[j] = <float>(w[j] + s * g[j])


cdef inline int _epoch_batch(const Rows *R, floating *W, const Data *D, Model *M, const Params *P,
                      bint multinomial, Epoch *E, Py_ssize_t *countdown,
                      Py_ssize_t check_every) except -1 nogil:
    """One epoch of mini-batch subgradient steps on the perceptron loss.

    The rows (shuffled) are cut into consecutive batches of P.batch_size (the
    last may be shorter); within a batch the weights are fixed, the violating
    rows' s*y*x are summed into G, and then w += (eta/B) G with B the batch's
    size.  A batch of all rows is the full gradient step of the
    batch perceptron (Duda, Hart & Stork 2001, section 5.5.1)."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t d = D.d, n = D.n_rows, kc = M.k, start, stop, bs, k, j, r
    cdef Py_ssize_t ahead = _ahead(R, D, W)
    cdef ptrdiff_t i
    cdef int32_t t
    cdef double a, ya, best, diff, s, scale, c, term = 0.0, sq, l1n, g
    cdef ptn_pair gp
    # the rule with a unit step: a batch sums the rows' steps and moves by
    # eta/B times the sum (the rule's eta*s*y with eta = 1 is s*y)
    cdef ptn_rule unit = P.rule
    unit.eta = 1.0
    cdef bint any_violation
    cdef Py_ssize_t f
    cdef bint pen = P.penalty != PTN_PENALTY_NONE
    cdef double l1r = _l1_ratio(P)
    cdef bint l2 = pen and P.penalty != PTN_PENALTY_L1
    cdef bint l1 = P.penalty >= PTN_PENALTY_L1
    cdef double f2 = ptn_l2_factor(P.rule.eta, P.alpha, l1r)
    start = 0
    while start < n:
        stop = min(start + P.batch_size, n)
        bs = stop - start
        memset(M.G, 0, <size_t>(kc * d) * sizeof(double))
        memset(M.gb, 0, <size_t>kc * sizeof(double))
        any_violation = False
        if pen:
            sq = 0.0
            l1n = 0.0
            for j in range(kc):
                sq += M.norms[2 * j]
                l1n += M.norms[2 * j + 1]
            term = ptn_penalty_term(P.alpha, l1r, sq, l1n)
        for k in range(start, stop):
            i = D.rows[k]
            if k + ahead < n:
                if k + 2 * ahead < n:
                    row_prefetch_start(R, D.rows[k + 2 * ahead])
                row_prefetch(R, D.rows[k + ahead], W)
            s = _weight(D, i)
            if pen:
                E.penalty_loss += term
            if not multinomial:
                a = row_dot(R, K, i, W) + M.b[0]
                ya = D.y[i] * a
                if ptn_rule_acts(&unit, ya):
                    if not isfinite(a):
                        E.status = STATUS_NONFINITE_X if not row_finite(R, i, W) else STATUS_OVERFLOW
                        E.bad_row = i
                        return 0
                    ptn_rule_count(&unit, ya, s, &E.mistakes, &E.loss, &E.raw_loss)
                    g = ptn_rule_step(&unit, D.y[i], ya, _sqnorm(D, i), s)
                    row_axpy_acc(R, K, i, g, M.G, W)
                    M.gb[0] += g
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
                if ptn_rule_acts(&unit, diff):
                    if not (isfinite(M.acts[t]) and isfinite(best)):
                        E.status = STATUS_NONFINITE_X if not row_finite(R, i, W) else STATUS_OVERFLOW
                        E.bad_row = i
                        return 0
                    ptn_rule_count(&unit, diff, s, &E.mistakes, &E.loss, &E.raw_loss)
                    gp = ptn_rule_multiclass(&unit, diff, _sqnorm(D, i), s)
                    row_axpy_acc(R, K, i, gp.t, M.G + t * d, W)
                    row_axpy_acc(R, K, i, gp.r, M.G + r * d, W)
                    M.gb[t] += gp.t
                    M.gb[r] += gp.r
                    any_violation = True
            if _check_signals(countdown, check_every, D):
                E.status = STATUS_STOPPED
                return 0
        if l2:
            for j in range(kc):
                for f in range(d):
                    W[j * d + f] = <floating>(W[j * d + f] * f2)
                M.norms[2 * j] *= f2 * f2
                M.norms[2 * j + 1] *= fabs(f2)
        if any_violation:
            scale = P.rule.eta / <double>bs
            c = <double>M.counters[C_STEPS]
            for j in range(kc):
                _add_scaled(W + j * d, scale, M.G + j * d, d, K)
                if P.average and not pen:
                    K.axpy_f64(<size_t>d, scale * c, M.G + j * d, M.U + j * d)
                if P.fit_intercept:
                    M.b[j] += scale * M.gb[j]
                    if P.average and not pen:
                        M.ub[j] += scale * c * M.gb[j]
                if pen:
                    _norms(W + j * d, d, 1.0, M.norms + 2 * j)
            E.updates += 1
        if l1:
            M.u[0] += l1r * P.rule.eta * P.alpha
            for j in range(kc):
                _l1_step(W + j * d, M.q + j * d, d, M.u[0], 1.0)
        if pen and P.average:
            for j in range(kc):
                _accumulate(W + j * d, d, 1.0, M.U + j * d)
                M.ub[j] += M.b[j]
        M.counters[C_STEPS] += 1
        start = stop
    return 0

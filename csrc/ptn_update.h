/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_update.h - the update rules of the linear family, each in one place.
 *
 * Every online loop (the dense epoch of perceptron/_core/binary_epoch.pxd,
 * the CSR epoch of ptn_csr_online.h, the scans of ptn_scan.h, the
 * one-vs-rest, multinomial, penalty and mini-batch epochs) decides and
 * makes its updates through the ptn_rule functions below, at float32 and
 * float64 alike; only the way a row is read and added (dense kernels,
 * sparse inline loops) differs between them.  A rule is a kind of
 * ptn_rule: its trigger (ptn_rule_make sets the margin), its tallies
 * (ptn_rule_count), its binary step (ptn_rule_step) and its multiclass
 * steps (ptn_rule_multiclass); a rule whose step reads ||x||^2 says so in
 * ptn_rule_needs_norm, and the loops then pass the rows' squared norms.
 *
 * With y in {-1, +1}, a = w.x + b the row's activation, s its sample weight:
 *
 * - the trigger (Rosenblatt 1958; Daume III, "A Course in Machine Learning",
 *   ch. 4, Algorithm 5): act when y*a <= margin.  It is tested as
 *   "not (margin < y*a < +inf)" so that the same branch catches a
 *   non-finite activation (NaN or infinity in x, or overflowed weights),
 *   which makes the loops the finiteness check of X at no extra cost.
 *   margin > 0 is the perceptron with margins (Krauth & Mezard 1987;
 *   Li et al. 2002, PAUM with equal margins);
 * - the accounting: y*a <= 0 is a mistake, and its loss is -s*y*a (and
 *   -y*a unweighted, the sum scikit-learn's stopping rule reads); a
 *   margin violation with y*a > 0 updates without being a mistake;
 * - the binary step: w += step*x, b += step (fit_intercept), step = eta*s*y;
 * - the passive-aggressive rules PA-I and PA-II (Crammer, Dekel, Keshet,
 *   Shalev-Shwartz and Singer 2006, "Online Passive-Aggressive
 *   Algorithms", JMLR 7, sections 3 and 8): act while the hinge loss
 *   l = 1 - y*a is positive, step = tau*y*s with tau = min(C, l/||x||^2)
 *   (PA-I) or l/(||x||^2 + 1/(2C)) (PA-II), the bias not in the norm, as
 *   scikit-learn's SGDClassifier(learning_rate="pa1"/"pa2") steps them;
 *   multiclass, the max-loss update of section 7; their loss is the hinge
 *   loss of every row they act on;
 * - averaging (Freund & Schapire 1999; Collins 2002; Daume III, ch. 4,
 *   Algorithm 7) by the lazy trick: with c the number of steps taken before
 *   this one, U += c*step*x and ub += c*step; the average of the weights
 *   after every step is then w - U/c.
 *
 * - the penalties (scikit-learn's SGD with a constant rate, which its
 *   Perceptron is), applied on every row, right or wrong, after the
 *   activation was taken: the L2 part multiplies the weights by
 *   max(0, 1 - (1 - l1_ratio)*eta*alpha) through a scale (w_eff = scale*w,
 *   Bottou 2012, "Stochastic Gradient Descent Tricks", section 5.1), folded
 *   into w when it falls below 1e-9; the step is then added as
 *   w += (step/scale)*x (the scale stays with the training state between
 *   calls); the L1 part is the cumulative penalty with
 *   truncation of Tsuruoka, Tsujii and Ananiadou 2009 (section 3.2,
 *   "ApplyPenalty"): u += l1_ratio*eta*alpha, and each weight moves towards
 *   zero by what it still owes, u + q_j, without crossing it, q_j keeping
 *   what it was moved.
 *
 * The order of the floating-point operations is the loops' historical one,
 * so that results are the same bits wherever the rule runs.
 */
#ifndef PTN_UPDATE_H
#define PTN_UPDATE_H

#include <math.h>
#include <stdint.h>

#include "ptn_config.h"

/* The coefficients of an update's row: w += step * x, U += acc * x. */
typedef struct ptn_step {
    double step;
    double acc;
} ptn_step;

/* The multiclass steps of a row: w_t += t * x for its true class t, and
 * w_r += r * x for the best-scoring other class r. */
typedef struct ptn_pair {
    double t;
    double r;
} ptn_pair;

/* Whether a row whose y*a (or, multiclass, the true class's lead over the
 * best other) is ya fails the test margin < ya < +inf: a mistake, a margin
 * violation or a non-finite activation.  The rules' trigger, and the test
 * the scans (ptn_scan.h) make with the rule's margin. */
PTN_ALWAYS_INLINE int ptn_must_update(double margin, double ya)
{
    return !(margin < ya && ya < HUGE_VAL);
}

/* Counts a row the perceptron acts on: a mistake (with its loss -s*ya, and
 * -ya unweighted in raw) when ya <= 0, nothing for a margin violation. */
PTN_ALWAYS_INLINE void ptn_count_mistake(double ya, double s, int64_t *mistakes, double *loss,
                                  double *raw)
{
    if (ya <= 0.0) {
        *mistakes += 1;
        *loss -= s * ya;
        *raw -= ya;
    }
}

/*
 * The update rules of the linear family (ptn_rule.kind).  A rule is the
 * four functions below; every loop (the dense and CSR scans, the dense
 * epoch of perceptron/_core/online.pyx, the penalties, the mini-batch,
 * multinomial and one-vs-rest epochs, and so the mixing shards) asks them,
 * and nothing else, when to act and by how much.
 */
enum { PTN_RULE_PERCEPTRON = 0, PTN_RULE_PA1 = 1, PTN_RULE_PA2 = 2, PTN_RULE_COUNT };

typedef struct ptn_rule {
    int kind;       /* PTN_RULE_* */
    double eta;     /* the perceptron's step size */
    double margin;  /* the trigger: the rule acts when y*a <= margin */
    double C;       /* the aggressiveness of a rule that bounds its step */
} ptn_rule;

/* The rule of the given kind and parameters, its trigger included: the
 * passive-aggressive rules act while the hinge loss 1 - y*a is positive,
 * y*a < 1, which for doubles is y*a <= the largest double below 1. */
PTN_INLINE ptn_rule ptn_rule_make(int kind, double eta, double margin, double C)
{
    ptn_rule r;
    r.kind = kind;
    r.eta = eta;
    r.margin = kind == PTN_RULE_PERCEPTRON ? margin : nextafter(1.0, 0.0);
    r.C = C;
    return r;
}

/* Whether the rule's step reads the row's squared norm ||x||^2 (the
 * loops then have the norms of the rows at hand; otherwise they pass 0). */
PTN_INLINE int ptn_rule_needs_norm(const ptn_rule *r)
{
    return r->kind != PTN_RULE_PERCEPTRON;
}

/* The trigger: whether the rule acts on a row whose y*a (multiclass: the
 * true class's lead) is ya, or whose activation is not finite. */
PTN_ALWAYS_INLINE int ptn_rule_acts(const ptn_rule *r, double ya)
{
    return ptn_must_update(r->margin, ya);
}

/* Counts a row the rule acts on into the epoch's tallies: mistakes (ya <=
 * 0), the weighted loss and the unweighted one scikit-learn's stopping rule
 * reads. */
PTN_ALWAYS_INLINE void ptn_rule_count(const ptn_rule *r, double ya, double s, int64_t *mistakes,
                               double *loss, double *raw)
{
    if (r->kind == PTN_RULE_PERCEPTRON) {
        ptn_count_mistake(ya, s, mistakes, loss, raw);
        return;
    }
    /* the hinge loss 1 - ya of a row the rule acts on (ya < 1) */
    if (ya <= 0.0) {
        *mistakes += 1;
    }
    *loss += s * (1.0 - ya);
    *raw += 1.0 - ya;
}

/*
 * The step size tau of the passive-aggressive rules (Crammer, Dekel,
 * Keshet, Shalev-Shwartz and Singer 2006, "Online Passive-Aggressive
 * Algorithms", JMLR 7, sections 3 and 8) on a row of hinge loss `loss` whose
 * update direction has squared norm q: PA-I min(C, loss/q) (0 for q = 0,
 * where scikit-learn's pa1 passes over the row), PA-II loss/(q + 1/(2C)).
 * The bias moves with the weights and is not in q, as in scikit-learn.
 */
PTN_ALWAYS_INLINE double ptn_pa_tau(const ptn_rule *r, double loss, double q)
{
    double tau;
    if (r->kind == PTN_RULE_PA1) {
        if (q == 0.0) {
            return 0.0;
        }
        tau = loss / q;
        return tau < r->C ? tau : r->C;
    }
    return loss / (q + 0.5 / r->C);
}

/* The binary step on a row the rule acts on: w += step*x, b += step, from
 * its label y, ya = y*a, the squared norm sqnorm of x (without the bias)
 * and the sample weight s. */
PTN_ALWAYS_INLINE double ptn_rule_step(const ptn_rule *r, double y, double ya, double sqnorm,
                                double s)
{
    if (r->kind == PTN_RULE_PERCEPTRON) {
        return r->eta * s * y;
    }
    return ptn_pa_tau(r, 1.0 - ya, sqnorm) * y * s;
}

/* The multiclass steps on a row the rule acts on, from the true class's
 * lead over the best other class (a_t - a_r), the row's squared norm and
 * its sample weight: the true class moves toward the row, the other away
 * from it by as much (Collins 2002; Crammer and Singer 2003).  The
 * passive-aggressive rules take the max-loss update of Crammer et al. 2006,
 * section 7: the hinge loss 1 - lead, and the update direction (x for the
 * true class, -x for the other) of squared norm 2||x||^2. */
PTN_ALWAYS_INLINE ptn_pair ptn_rule_multiclass(const ptn_rule *r, double lead, double sqnorm, double s)
{
    ptn_pair p;
    if (r->kind == PTN_RULE_PERCEPTRON) {
        p.t = r->eta * s;
    } else {
        p.t = ptn_pa_tau(r, 1.0 - lead, 2.0 * sqnorm) * s;
    }
    p.r = -p.t;
    return p;
}

/*
 * The binary rule on a row it acts on (ptn_rule_acts was true and the
 * activation is finite): counts the row and the update, moves the bias
 * (fit_intercept) and its averaging accumulator (average; ub is not read
 * otherwise), and returns the coefficients by which the caller adds the row
 * to the weights (step) and, when averaging, to U (acc).  c is the
 * averaging clock: the steps taken before this one.
 */
PTN_ALWAYS_INLINE ptn_step ptn_binary_update(const ptn_rule *rule, int fit_intercept, int average,
                                             double ya, double s, double y, double sqnorm,
                                             double c, double *b, double *ub, int64_t *mistakes,
                                             int64_t *updates, double *loss, double *raw)
{
    ptn_step r;
    ptn_rule_count(rule, ya, s, mistakes, loss, raw);
    r.step = ptn_rule_step(rule, y, ya, sqnorm, s);
    r.acc = r.step * c;
    if (fit_intercept) {
        *b += r.step;
    }
    if (average && fit_intercept) {
        *ub += r.acc;
    }
    *updates += 1;
    return r;
}

/* Penalty kinds (Params.penalty). */
enum { PTN_PENALTY_NONE = 0, PTN_PENALTY_L2 = 1, PTN_PENALTY_L1 = 2, PTN_PENALTY_ELASTICNET = 3 };

/* The L2 factor of a row: the scale is multiplied by it on every row.  Not
 * below 0: a step eta*alpha too large zeroes the weights instead of
 * flipping their sign. */
PTN_INLINE double ptn_l2_factor(double eta, double alpha, double l1_ratio)
{
    double f = 1.0 - (1.0 - l1_ratio) * eta * alpha;
    return f > 0.0 ? f : 0.0;
}

/* Below this scale the weights take it in (w *= scale, scale = 1) before
 * they lose precision. */
#define PTN_SCALE_FLOOR 1e-9

/* The penalty term a row adds to the stopping rule's objective, from the
 * norms of the effective weights (sq = ||w||^2, l1 = ||w||_1 as last
 * computed): alpha*((1 - l1_ratio)*||w||^2/2 + l1_ratio*||w||_1). */
PTN_INLINE double ptn_penalty_term(double alpha, double l1_ratio, double sq, double l1)
{
    double nrm = sqrt(sq);
    return alpha * ((1.0 - l1_ratio) * 0.5 * (nrm * nrm) + l1_ratio * l1);
}

/* Tsuruoka, Tsujii and Ananiadou (2009), section 3.2: the weight z (stored,
 * its effective value scale*z) after taking the cumulative penalty u it
 * may owe beyond what q (the penalty it already took, <= 0 for positive
 * weights) says, clipped at zero.  The caller stores the result in the
 * weights' dtype and then adds scale*(stored - z) to q. */
PTN_INLINE double ptn_l1_truncate(double z, double q, double u, double scale)
{
    double t;
    if (scale * z > 0.0) {
        t = z - (u + q) / scale;
        return t > 0.0 ? t : 0.0;
    }
    if (scale * z < 0.0) {
        t = z + (u - q) / scale;
        return t < 0.0 ? t : 0.0;
    }
    return z;
}

#endif /* PTN_UPDATE_H */

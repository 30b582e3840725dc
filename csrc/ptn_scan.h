/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_scan.h - the body of the perceptron's scan, shared by every level.
 *
 * size_t ptn_scan_<type>_<level>(const ptn_scan *s, size_t start, size_t stop, double *act)
 *
 * For k = start, start + 1, ... < stop, with i = s->rows[k] and
 * a = s->w . x_i + s->b (the level's dot product, summed in double), returns
 * the first k where the perceptron must act (ptn_must_update of
 * ptn_update.h: y_i*a <= margin, or a non-finite activation, which the
 * caller tells apart as NaN or infinity in x_i or overflowed weights).
 * *act receives that a.  Returns stop, with *act untouched, when every
 * row of the stretch is right.
 *
 * The weights are read, never written: the caller updates them and scans
 * on from k + 1.  When s->ahead > 0 the row at position k + ahead (if
 * < s->n_rows) is prefetched before row k is read: a shuffled order defeats
 * the hardware prefetchers, a sequential one does not need the help (the
 * caller passes 0).
 *
 * Each level instantiates the body with its inlined dot product:
 *   PTN_SCAN_BODY(float, ptn_dot_f32_avx2_inline)
 */
#ifndef PTN_SCAN_H
#define PTN_SCAN_H

#include <math.h>

#include "ptn_prefetch.h"
#include "ptn_simd.h"
#include "ptn_update.h"

/* the prefetch of the row `ahead` positions on (into L2), of small rows
 * also PTN_PREFETCH_NEAR_ROWS on (into L1), and the loops' locals */
#define PTN_SCAN_PREFETCH(T)                                                         \
    if (ahead_ != 0 && k_ + ahead_ < n_rows_) {                                      \
        ptn_prefetch_range(X_ + (size_t)rows_[k_ + ahead_] * d_, d_ * sizeof(T));    \
        if (by_row_ != NULL) {                                                       \
            PTN_PREFETCH_LINE(by_row_ + rows_[k_ + ahead_]);                         \
        }                                                                            \
        if (near_ != 0) {                                                            \
            ptn_prefetch_range_l1(X_ + (size_t)rows_[k_ + near_] * d_, d_ * sizeof(T)); \
        }                                                                            \
    }

#define PTN_SCAN_LOCALS(T)                                                           \
    const T *X_ = (const T *)s->X;                                                   \
    const size_t d_ = s->d, ahead_ = s->ahead, n_rows_ = s->n_rows;                  \
    const size_t near_ = ahead_ > PTN_PREFETCH_NEAR_ROWS &&                          \
                                 d_ * sizeof(T) <= PTN_PREFETCH_NEAR_MAX_ROW_BYTES   \
                             ? PTN_PREFETCH_NEAR_ROWS                                \
                             : 0;                                                    \
    const ptrdiff_t *rows_ = s->rows;                                                \
    const double *const by_row_ = s->by_row;                                         \
    const signed char *y_ = s->y;                                                    \
    const double margin_ = s->margin;                                                \
    double b_ = s->b;                                                                \
    size_t k_;

/*
 * One row of a scan: row IDX (at position k_), its activation from ROWDOT,
 * an expression of the row x_ (and d_, the row's length); ON_ACT runs when
 * the row needs an update (PTN_SCAN_RETURN: return k_ from the scan).
 */
#define PTN_SCAN_ROW(T, IDX, ROWDOT, ON_ACT)                                         \
    {                                                                                \
        const size_t i_ = (IDX);                                                     \
        const T *x_ = X_ + i_ * d_;                                                  \
        double a_, ya_;                                                              \
        PTN_SCAN_PREFETCH(T)                                                         \
        a_ = (ROWDOT) + b_;                                                          \
        ya_ = (double)y_[i_] * a_;                                                   \
        if (ptn_must_update(margin_, ya_)) {                                         \
            ON_ACT                                                                   \
        }                                                                            \
    }

/*
 * The loop, with the activation's dot product given as ROWDOT: PTN_SCAN_BODY
 * below passes the level's dot product; the short-row scans (simd_avx2.c,
 * simd_avx512.c) pass one whose weights were loaded into registers before
 * the loop.  ON_ACT is what a row that needs an update does, END how the
 * loop ends (the plain rule's kernels below act and go on).
 *
 * The rows of a fit that does not shuffle are 0, 1, 2, ...: while
 * rows[k] == k the row's address comes from k itself, so its loads do not
 * wait for the load of rows[k] (the comparison is off the critical path and
 * always predicted); the first other entry hands over to the general loop
 * (the timing that decided it is on the performance page).
 * PTN_SCAN_LOOP_F32_BLOCKS below does the same.
 */
#define PTN_SCAN_LOOP_ACT(T, ROWDOT, ON_ACT, END)                                    \
    PTN_SCAN_LOCALS(T)                                                               \
    for (k_ = start; k_ < stop && (size_t)rows_[k_] == k_; k_++) {                   \
        PTN_SCAN_ROW(T, k_, ROWDOT, ON_ACT)                                          \
    }                                                                                \
    for (; k_ < stop; k_++) {                                                        \
        PTN_SCAN_ROW(T, (size_t)rows_[k_], ROWDOT, ON_ACT)                           \
    }                                                                                \
    END

/* the scan's action and end: hand the row to the caller, or stop */
#define PTN_SCAN_RETURN                                                              \
    *act = a_;                                                                       \
    return k_;
#define PTN_SCAN_END return stop;

#define PTN_SCAN_LOOP(T, ROWDOT) PTN_SCAN_LOOP_ACT(T, ROWDOT, PTN_SCAN_RETURN, PTN_SCAN_END)

/*
 * The loop for the float32 dot products in blocks (ptn_simd.h, dot_f32):
 * BLOCKED is the blocked sum r before its range check, EXACT the sum with
 * exact products that replaces it when PTN_F32_BLOCKS_REDO(r, d) holds: the
 * same activations and stops as PTN_SCAN_LOOP over the checked dot product.
 * The range check and ptn_must_update are evaluated without short-circuits
 * into one condition that only the rare row needing either meets, its code
 * laid out away from the loop (PTN_UNLIKELY: without the hint the same loop
 * measured no faster).  It shortens shuffled float32 epochs at AVX-512; the
 * AVX2 float32 scan measured the same with it and keeps PTN_SCAN_LOOP (the
 * figures are on the performance page).
 */
#define PTN_SCAN_ROW_F32_BLOCKS(T, IDX, BLOCKED, EXACT, ON_ACT)                      \
    {                                                                                \
        const size_t i_ = (IDX);                                                     \
        const T *x_ = X_ + i_ * d_;                                                  \
        double r_, ar_, a_, ya_;                                                     \
        PTN_SCAN_PREFETCH(T)                                                         \
        r_ = (BLOCKED);                                                              \
        ar_ = fabs(r_);                                                              \
        a_ = r_ + b_;                                                                \
        ya_ = (double)y_[i_] * a_;                                                   \
        if (PTN_UNLIKELY(!((ar_ >= lo_) & (ar_ < HUGE_VAL) & (margin_ < ya_) &      \
                           (ya_ < HUGE_VAL)))) {                                     \
            if (PTN_F32_BLOCKS_REDO(r_, d_)) {                                       \
                a_ = (EXACT) + b_;                                                   \
                ya_ = (double)y_[i_] * a_;                                           \
            }                                                                        \
            if (ptn_must_update(margin_, ya_)) {                                     \
                ON_ACT                                                               \
            }                                                                        \
        }                                                                            \
    }

#define PTN_SCAN_LOOP_F32_BLOCKS_ACT(BLOCKED, EXACT, ON_ACT, END)                    \
    PTN_SCAN_LOOP_BLOCKS_OF_ACT(float, BLOCKED, EXACT, ON_ACT, END)

/* the same over rows of T (ptn_narrow.h: rows narrower than their float32
 * weights, whose dot products keep the float32 blocks) */
#define PTN_SCAN_LOOP_BLOCKS_OF_ACT(T, BLOCKED, EXACT, ON_ACT, END)                  \
    PTN_SCAN_LOCALS(T)                                                               \
    const double lo_ = (double)d_ * PTN_F32_BLOCK_FLOOR;                             \
    for (k_ = start; k_ < stop && (size_t)rows_[k_] == k_; k_++) {                   \
        PTN_SCAN_ROW_F32_BLOCKS(T, k_, BLOCKED, EXACT, ON_ACT)                       \
    }                                                                                \
    for (; k_ < stop; k_++) {                                                        \
        PTN_SCAN_ROW_F32_BLOCKS(T, (size_t)rows_[k_], BLOCKED, EXACT, ON_ACT)        \
    }                                                                                \
    END

#define PTN_SCAN_LOOP_F32_BLOCKS(BLOCKED, EXACT)                                     \
    PTN_SCAN_LOOP_F32_BLOCKS_ACT(BLOCKED, EXACT, PTN_SCAN_RETURN, PTN_SCAN_END)

#define PTN_SCAN_BODY(T, DOT)                                                        \
    const T *w_ = (const T *)s->w;                                                   \
    PTN_SCAN_LOOP(T, DOT(d_, x_, w_))

/*
 * The plain binary rule inside the scan (scan_plain_<type>, ptn_simd.h):
 * where the scan would hand a row with a finite activation to its caller,
 * the row is counted and the weights updated as the caller's binary loop
 * does with a sample weight of 1 (ptn_binary_update and its row_axpy, the
 * same operations in the same order, so the same bits), then REFRESH
 * brings what the level keeps of the weights elsewhere (registers, a tail
 * in double) up to date, and the scan goes on; a non-finite activation is
 * handed to the caller as the scan does.  The bias starts from s->b, lives
 * in b_ meanwhile and goes to plain_->b when the kernel returns.
 * AXPY(n, a, x, w) is the level's update of w.
 *
 * A mistake is a branch no predictor gets right: the rows the processor had
 * started on are thrown away either way, but leaving the loop at each one,
 * as the scan does, also leaves and re-enters the kernel, and at AVX-512
 * the next row's loads of the weights wait for the update's masked stores
 * (simd_avx512_plain.inc); benchmarks/bench_scan_in_process.py measures
 * the two forms against each other (the performance page has the figures).
 */
#define PTN_PLAIN_ACT(T, AXPY, REFRESH)                                              \
    {                                                                                \
        ptn_step st_;                                                                \
        if (!isfinite(a_)) {                                                         \
            *act = a_;                                                               \
            PTN_PLAIN_SAVE                                                           \
            return k_;                                                               \
        }                                                                            \
        st_ = ptn_binary_update(&rule_, fit_intercept_, 0, ya_, 1.0, (double)y_[i_],  \
                                sqn_ != NULL ? sqn_[i_] : 0.0, 0.0, &b_, NULL,        \
                                &mistakes_, &updates_, &loss_, &raw_);               \
        AXPY(d_, (T)st_.step, x_, wm_);                                              \
        REFRESH;                                                                     \
    }

/* the counts kept in locals during the loop, and where they go */
#define PTN_PLAIN_SAVE                                                               \
    plain_->b = b_;                                                                  \
    plain_->mistakes = mistakes_;                                                    \
    plain_->updates = updates_;                                                      \
    plain_->loss = loss_;                                                            \
    plain_->raw_loss = raw_;

#define PTN_PLAIN_END                                                                \
    PTN_PLAIN_SAVE                                                                   \
    return stop;

/* The plain kernels' rule with its kind given: a constant kind lets the
 * compiler fold the rule's dispatch (ptn_update.h) out of the loop. */
PTN_INLINE ptn_rule ptn_rule_of_kind(const ptn_rule *r, int kind)
{
    ptn_rule k = *r;
    k.kind = kind;
    return k;
}

/* wm_: the weights the plain kernels write, w_ the same as the dot reads
 * them; the rule (of kind KIND) and the counts in locals */
#define PTN_PLAIN_WEIGHTS_OF(T, KIND)                                                \
    T *const wm_ = (T *)s->w;                                                        \
    const T *const w_ = wm_;                                                         \
    const ptn_rule rule_ = ptn_rule_of_kind(&plain_->rule, (KIND));                  \
    const double *const sqn_ = plain_->sqnorm;                                       \
    const int fit_intercept_ = plain_->fit_intercept;                                \
    int64_t mistakes_ = plain_->mistakes, updates_ = plain_->updates;                \
    double loss_ = plain_->loss, raw_ = plain_->raw_loss;

#define PTN_PLAIN_WEIGHTS(T) PTN_PLAIN_WEIGHTS_OF(T, plain_->rule.kind)

/*
 * The plain scans below run one of two copies of their loop: the
 * perceptron's, where the rule's kind is a constant, so that an update's
 * step folds to eta*y (no dispatch on the kind, no squared norm read, and
 * the rule's other fields need not be held through the rows), and the
 * other rules'.  Both copies make their updates through ptn_binary_update:
 * the same operations in the same order, so the same bits.  Each copy
 * returns, so the second runs only for a rule other than the perceptron's.
 */

/* the plain scan over short rows whose weights the level holds apart
 * (registers): a SHORT, loaded by INIT(&p, n, w), read by DOT(x, &p) */
#define PTN_SCAN_PLAIN_SHORT(T, SHORT, INIT, DOT, AXPY)                              \
    if (plain_->rule.kind == PTN_RULE_PERCEPTRON) {                                  \
        PTN_SCAN_PLAIN_SHORT_OF(T, SHORT, INIT, DOT, AXPY, PTN_RULE_PERCEPTRON)      \
    }                                                                                \
    {                                                                                \
        PTN_SCAN_PLAIN_SHORT_OF(T, SHORT, INIT, DOT, AXPY, plain_->rule.kind)        \
    }
#define PTN_SCAN_PLAIN_SHORT_OF(T, SHORT, INIT, DOT, AXPY, KIND)                     \
    SHORT p_;                                                                        \
    PTN_PLAIN_WEIGHTS_OF(T, KIND)                                                    \
    INIT(&p_, s->d, w_);                                                             \
    {                                                                                \
        PTN_SCAN_LOOP_ACT(T, DOT(x_, &p_), PTN_PLAIN_ACT(T, AXPY, INIT(&p_, d_, w_)),  \
                          PTN_PLAIN_END)                                             \
    }

#define PTN_SCAN_PLAIN_BODY(T, DOT, AXPY)                                            \
    if (plain_->rule.kind == PTN_RULE_PERCEPTRON) {                                  \
        PTN_SCAN_PLAIN_BODY_OF(T, DOT, AXPY, PTN_RULE_PERCEPTRON)                    \
    }                                                                                \
    {                                                                                \
        PTN_SCAN_PLAIN_BODY_OF(T, DOT, AXPY, plain_->rule.kind)                      \
    }
#define PTN_SCAN_PLAIN_BODY_OF(T, DOT, AXPY, KIND)                                   \
    PTN_PLAIN_WEIGHTS_OF(T, KIND)                                                    \
    PTN_SCAN_LOOP_ACT(T, DOT(d_, x_, w_), PTN_PLAIN_ACT(T, AXPY, (void)0), PTN_PLAIN_END)

#endif /* PTN_SCAN_H */

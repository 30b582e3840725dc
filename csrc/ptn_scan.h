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
#include "ptn_update.h"

/*
 * The loop, with the activation's dot product given as an expression of the
 * row x_ (and d_, the row's length): PTN_SCAN_BODY below passes the level's
 * dot product; the short-row scans (simd_avx2.c, simd_avx512.c) pass one whose weights
 * were loaded into registers before the loop.
 */
#define PTN_SCAN_LOOP(T, ROWDOT)                                                     \
    const T *X_ = (const T *)s->X;                                                   \
    const size_t d_ = s->d, ahead_ = s->ahead, n_rows_ = s->n_rows;                  \
    const ptrdiff_t *rows_ = s->rows;                                                \
    const signed char *y_ = s->y;                                                    \
    const double b_ = s->b, margin_ = s->margin;                                     \
    size_t k_ = start;                                                               \
    /* The rows of a fit that does not shuffle are 0, 1, 2, ...: while           */ \
    /* rows[k] == k the row's address comes from k itself, so its loads do not   */ \
    /* wait for the load of rows[k] (the comparison is off the critical path and */ \
    /* always predicted); the first other entry hands over to the general loop.  */ \
    for (; k_ < stop && (size_t)rows_[k_] == k_; k_++) {                             \
        const T *x_ = X_ + k_ * d_;                                                  \
        double a_, ya_;                                                              \
        if (ahead_ != 0 && k_ + ahead_ < n_rows_) {                                  \
            ptn_prefetch_range(X_ + (size_t)rows_[k_ + ahead_] * d_, d_ * sizeof(T)); \
        }                                                                            \
        a_ = (ROWDOT) + b_;                                                          \
        ya_ = (double)y_[k_] * a_;                                                   \
        if (ptn_must_update(margin_, ya_)) {                                         \
            *act = a_;                                                               \
            return k_;                                                               \
        }                                                                            \
    }                                                                                \
    for (; k_ < stop; k_++) {                                                        \
        const size_t i_ = (size_t)rows_[k_];                                         \
        const T *x_ = X_ + i_ * d_;                                                  \
        double a_, ya_;                                                              \
        if (ahead_ != 0 && k_ + ahead_ < n_rows_) {                                  \
            ptn_prefetch_range(X_ + (size_t)rows_[k_ + ahead_] * d_, d_ * sizeof(T)); \
        }                                                                            \
        a_ = (ROWDOT) + b_;                                                          \
        ya_ = (double)y_[i_] * a_;                                                   \
        if (ptn_must_update(margin_, ya_)) {                                         \
            *act = a_;                                                               \
            return k_;                                                               \
        }                                                                            \
    }                                                                                \
    return stop;

#define PTN_SCAN_BODY(T, DOT)                                                        \
    const T *w_ = (const T *)s->w;                                                   \
    PTN_SCAN_LOOP(T, DOT(d_, x_, w_))

#endif /* PTN_SCAN_H */

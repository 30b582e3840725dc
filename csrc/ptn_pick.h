/*
 * ptn_pick.h - predict's choice of each row's class, for a block of rows
 * at once.
 *
 * predict scores a block of rows into their activations, stored class by
 * class (class j's for the block's rows side by side), then picks each
 * row's class from them here, class after class for all the rows, without a
 * branch on an activation.  Which class wins is as hard to foresee for the
 * processor as for the model: a pick made row by row with branches
 * mispredicts about once a row, and each misprediction also throws away the
 * loads of the rows ahead that the scoring loop had started.
 *
 * At the x86-64 baseline (SSE2) gcc 12 does not vectorize a comparison of
 * doubles whose result selects doubles or 64-bit integers, so the selects
 * are written with SSE2 intrinsics; elsewhere the loops are plain C.
 */
#ifndef PTN_PICK_H
#define PTN_PICK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptn_config.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define PTN_PICK_SSE2 1
#else
#define PTN_PICK_SSE2 0
#endif

/* Whether one of a[0:n] is infinite or NaN: its exponent bits all set.
 * Integer operations on the bits, a loop compilers vectorize: adding one
 * to the largest exponent carries into the sign bit, and only to it. */
PTN_INLINE int ptn_any_nonfinite(const double *a, size_t n)
{
    uint64_t carry = 0;
    size_t q;
    for (q = 0; q < n; q++) {
        uint64_t bits;
        memcpy(&bits, a + q, sizeof bits);
        carry |= (bits & 0x7ff0000000000000ULL) + 0x0010000000000000ULL;
    }
    return (int)(carry >> 63);
}

/* For q < m: where col[q] > top[q], top[q] = col[q] and best[q] = j.
 * Over finite activations, started from class 0's (top) and zeros (best)
 * and called for j = 1, 2, ..., best[q] ends as the first class of the
 * largest activation (a later tie does not win), numpy's argmax. */
PTN_INLINE void ptn_pick_column(const double *col, size_t m, double j, double *top,
                                double *best)
{
    size_t q = 0;
#if PTN_PICK_SSE2
    const __m128d vj = _mm_set1_pd(j);
    for (; q + 2 <= m; q += 2) {
        const __m128d v = _mm_loadu_pd(col + q), t = _mm_loadu_pd(top + q);
        const __m128d gt = _mm_cmpgt_pd(v, t);
        /* maxpd(v, t) is v > t ? v : t, lane by lane */
        _mm_storeu_pd(top + q, _mm_max_pd(v, t));
        _mm_storeu_pd(best + q, _mm_or_pd(_mm_and_pd(gt, vj),
                                          _mm_andnot_pd(gt, _mm_loadu_pd(best + q))));
    }
#endif
    for (; q < m; q++) {
        const int gt = col[q] > top[q];
        top[q] = gt ? col[q] : top[q];
        best[q] = gt ? j : best[q];
    }
}

#endif /* PTN_PICK_H */

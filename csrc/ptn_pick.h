/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_pick.h - predict's choice of each row's class, for a block of rows
 * at once.
 *
 * predict scores a block of rows into their activations, stored class by
 * class (class j's for the block's rows side by side), then picks each
 * row's class from them here, two rows at a time over the classes, without a
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

/* picks[q] = the first largest of row q's k >= 2 activations in a block of
 * m rows stored class by class (class j's at acts[j * stride + q]), numpy's
 * argmax over finite values; returns 1, with picks unspecified, when one of
 * them is infinite or NaN (the caller then picks row by row, with the NaN
 * rule and the counts).  Two rows at a time with their running top and
 * index in registers over the k classes, which checks the activations as
 * it goes: x - x is +0 for a finite x (every bit 0) and NaN otherwise, so
 * the bits of all those differences or-ed together are 0 only when every
 * activation is finite.  One pass over the activations where the check,
 * the first column's copy, each column's pick and the indices' conversion
 * took one each: one pass reads the activations once. */
PTN_INLINE int ptn_pick_rows(const double *acts, size_t m, size_t k, size_t stride,
                             ptrdiff_t *picks)
{
    size_t q = 0, j;
    uint64_t bits = 0;
#if PTN_PICK_SSE2
    if (sizeof(ptrdiff_t) == 8) {
        __m128i bad = _mm_setzero_si128();
        uint64_t lanes[2];
        for (; q + 2 <= m; q += 2) {
            __m128d top = _mm_loadu_pd(acts + q);
            __m128i best = _mm_setzero_si128();
            bad = _mm_or_si128(bad, _mm_castpd_si128(_mm_sub_pd(top, top)));
            for (j = 1; j < k; j++) {
                const __m128d v = _mm_loadu_pd(acts + j * stride + q);
                const __m128i gt = _mm_castpd_si128(_mm_cmpgt_pd(v, top));
                bad = _mm_or_si128(bad, _mm_castpd_si128(_mm_sub_pd(v, v)));
                /* maxpd(v, top) is v > top ? v : top, lane by lane */
                top = _mm_max_pd(v, top);
                best = _mm_or_si128(_mm_and_si128(gt, _mm_set1_epi64x((long long)j)),
                                    _mm_andnot_si128(gt, best));
            }
            _mm_storeu_si128((__m128i *)(void *)(picks + q), best);
        }
        _mm_storeu_si128((__m128i *)(void *)lanes, bad);
        bits = lanes[0] | lanes[1];
    }
#endif
    for (; q < m; q++) {
        double top = acts[q], d = top - top;
        ptrdiff_t best = 0;
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        bits |= b;
        for (j = 1; j < k; j++) {
            const double v = acts[j * stride + q];
            d = v - v;
            memcpy(&b, &d, sizeof b);
            bits |= b;
            best = v > top ? (ptrdiff_t)j : best;
            top = v > top ? v : top;
        }
        picks[q] = best;
    }
    return bits != 0;
}

/* picks[q] = acts[q] > 0 for a block of m rows of one activation each (one
 * row of weights), checked as ptn_pick_rows checks them, in one pass;
 * returns 1, with picks unspecified, when one is infinite or NaN.  Where a
 * pass of its own checked the block and another picked: one pass reads the
 * activations once. */
PTN_INLINE int ptn_pick_signs(const double *acts, size_t m, ptrdiff_t *picks)
{
    size_t q = 0;
    uint64_t bits = 0;
#if PTN_PICK_SSE2
    if (sizeof(ptrdiff_t) == 8) {
        const __m128d zero = _mm_setzero_pd();
        const __m128i one = _mm_set1_epi64x(1);
        __m128i bad = _mm_setzero_si128();
        uint64_t lanes[2];
        for (; q + 2 <= m; q += 2) {
            const __m128d v = _mm_loadu_pd(acts + q);
            bad = _mm_or_si128(bad, _mm_castpd_si128(_mm_sub_pd(v, v)));
            _mm_storeu_si128((__m128i *)(void *)(picks + q),
                             _mm_and_si128(_mm_castpd_si128(_mm_cmpgt_pd(v, zero)), one));
        }
        _mm_storeu_si128((__m128i *)(void *)lanes, bad);
        bits = lanes[0] | lanes[1];
    }
#endif
    for (; q < m; q++) {
        const double v = acts[q], d = v - v;
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        bits |= b;
        picks[q] = v > 0.0;
    }
    return bits != 0;
}

#endif /* PTN_PICK_H */

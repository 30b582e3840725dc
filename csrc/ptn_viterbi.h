/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_viterbi.h - first-order Viterbi decoding and path scores for the
 * structured perceptron (header only, plain C99 on doubles).
 *
 * The model of Collins (2002, "Discriminative Training Methods for Hidden
 * Markov Models: Theory and Experiments with Perceptron Algorithms",
 * section 2) with K labels scores a label sequence z_0 .. z_{L-1} of a
 * sequence of L tokens as
 *
 *     start[z_0] + sum_t E[t, z_t] + sum_{t>=1} T[z_{t-1}, z_t] + end[z_{L-1}]
 *
 * with E[t, k] the emission score of label k at token t (w_k . x_t + b_k),
 * T (K x K, row-major, T[i*K + j] for i -> j) the transition scores.  The
 * Viterbi recursion (Viterbi 1967; Rabiner 1989, section III.B) finds the
 * highest-scoring sequence in O(L K^2):
 *
 *     delta[0, k] = start[k] + E[0, k]
 *     delta[t, k] = max_j (delta[t-1, j] + T[j, k]) + E[t, k]
 *
 * and the best final label maximises delta[L-1, k] + end[k].  Ties go to the
 * smallest label index (the first maximum, as numpy's argmax), so the path
 * is a function of the scores alone; the reference in the tests breaks them
 * the same way.  The inner loop runs over j outside and k inside, so that T
 * is read by rows (contiguous) and the K running maxima vectorise.
 */
#ifndef PTN_VITERBI_H
#define PTN_VITERBI_H

#include <stddef.h>
#include <stdint.h>

#include "ptn_config.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

/*
 * One predecessor j of the recursion: cur[k] = max(cur[k], dj + Tj[k]),
 * bt[k] = jj where it wins (strictly, so the first maximum stays).  Selects,
 * not branches, over arrays that do not overlap: the compiler turns the loop
 * into vector compares and blends (the back-pointers are doubles so that
 * both selects have the lanes of the scores).
 */
PTN_INLINE void ptn_viterbi_relax(size_t K, double dj, double jj, const double *PTN_RESTRICT Tj,
                                  double *PTN_RESTRICT cur, double *PTN_RESTRICT bt)
{
    size_t k = 0;
#if defined(__SSE2__) || defined(_M_X64)
    /* SSE2 (every x86-64 CPU) has no blend: the maximum is maxpd, whose
     * result is its first operand exactly when that is greater (else the
     * second: ties and NaN keep cur), and the back-pointer select is done
     * with the compare's mask */
    const __m128d vd = _mm_set1_pd(dj);
    const __m128d vj = _mm_set1_pd(jj);
    for (; k + 2 <= K; k += 2) {
        const __m128d v = _mm_add_pd(vd, _mm_loadu_pd(Tj + k));
        const __m128d c = _mm_loadu_pd(cur + k);
        const __m128d up = _mm_cmpgt_pd(v, c);
        _mm_storeu_pd(cur + k, _mm_max_pd(v, c));
        _mm_storeu_pd(bt + k, _mm_or_pd(_mm_and_pd(up, vj),
                                        _mm_andnot_pd(up, _mm_loadu_pd(bt + k))));
    }
#endif
    for (; k < K; k++) {
        const double v = dj + Tj[k];
        const double c = cur[k];
        const double b = bt[k];
        cur[k] = v > c ? v : c;
        bt[k] = v > c ? jj : b;
    }
}

/*
 * Decodes one sequence of L >= 1 tokens, 1 <= K <= PTN_VITERBI_MAX_K labels.
 * E: L x K emission scores; work: 3 x K doubles (the previous and the
 * current row of delta, and the back-pointers of the current row as
 * doubles, for the vector selects of ptn_viterbi_relax); back: L x K work
 * space of 16-bit label indices (row t holds the best previous label of
 * each label at t; a quarter of doubles' memory, which a long sentence
 * with many labels makes the largest buffer); path: the L labels found.
 * Returns the path's score.
 */
#define PTN_VITERBI_MAX_K 65536

PTN_INLINE double ptn_viterbi(size_t L, size_t K, const double *E, const double *T,
                              const double *start, const double *end, double *work,
                              uint16_t *back, int32_t *path)
{
    size_t t, j, k, best_k = 0;
    double best;
    double *prev = work, *cur = work + K, *bt = work + 2 * K;
    for (k = 0; k < K; k++) {
        prev[k] = start[k] + E[k];
    }
    for (t = 1; t < L; t++) {
        uint16_t *row = back + t * K;
        for (k = 0; k < K; k++) {
            cur[k] = prev[0] + T[k];
            bt[k] = 0.0;
        }
        for (j = 1; j < K; j++) {
            ptn_viterbi_relax(K, prev[j], (double)j, T + j * K, cur, bt);
        }
        for (k = 0; k < K; k++) {
            cur[k] += E[t * K + k];
            row[k] = (uint16_t)bt[k];
        }
        {
            double *swap = prev;
            prev = cur;
            cur = swap;
        }
    }
    {
        const double *last = prev;
        best = last[0] + end[0];
        for (k = 1; k < K; k++) {
            const double v = last[k] + end[k];
            if (v > best) {
                best = v;
                best_k = k;
            }
        }
    }
    path[L - 1] = (int32_t)best_k;
    for (t = L - 1; t > 0; t--) {
        path[t - 1] = (int32_t)back[t * K + (size_t)path[t]];  /* < K: fits */
    }
    return best;
}

/* The score of the label sequence z (L >= 1 labels in [0, K)) under the
 * same model, summed in the order of the recursion above. */
PTN_INLINE double ptn_path_score(size_t L, size_t K, const double *E, const double *T,
                                 const double *start, const double *end, const int32_t *z)
{
    size_t t;
    double s = start[z[0]] + E[z[0]];
    for (t = 1; t < L; t++) {
        s = (s + T[(size_t)z[t - 1] * K + (size_t)z[t]]) + E[t * K + (size_t)z[t]];
    }
    return s + end[z[L - 1]];
}

#endif /* PTN_VITERBI_H */

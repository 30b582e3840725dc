/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_x86_narrow.h - the narrow rows' kernels of the two x86 levels
 * (ptn_narrow.h, ptn_simd.h: ndot, naxpy, ...), as templates over
 * ptn_x86.h's vocabulary and the level's loads of narrow elements:
 *
 *   ptn_lf_<K>_<L>(p)   VF_W elements of kind K at p as a float vector
 *   ptn_lh_<K>_<L>(p)   VD_W of them as a half vector (VH), where the
 *                       level's float32 sums use halves (AVX2)
 *
 * The float32 dot product of a level, ptn_dot_f32_inline_<L>, is its blocks
 * (PTN_X86_DOT_F32) and its exact sum (PTN_X86_SUM with PTN_X86_BLOCK_F32
 * and the level's rest): the narrow dot product here runs the same
 * operations in the same order with each load of x replaced by a narrow
 * load, so its bits are those of the float32 one on the converted row.
 * The tails that the float32 kernels load masked (fewer than a vector) are
 * converted into a zeroed buffer and loaded whole: the masked lanes read as
 * +0 there too.  The update y += a * x converts in registers too, one fused
 * multiply-add an element as axpy_f32 (its scalar tail, fmaf, rounds once
 * as the masked vector does).
 *
 * Included by simd_avx2.c and simd_avx512.c after their vocabulary and
 * loads; PTN_X86_TARGET must enable what the loads use (F16C at AVX2).
 */
#ifndef PTN_X86_NARROW_H
#define PTN_X86_NARROW_H

#include "ptn_x86.h"
#include "ptn_narrow.h"

#if PTN_HAVE_X86_SIMD

/* what follows the blocks of 4 * VD_W elements in the exact sum: the rest
 * as PTN_X86_REST_F32_WHOLE (AVX-512) or PTN_X86_REST_F32_HALVES (AVX2)
 * does it */
#define PTN_X86_NREST_WHOLE(K, L)                                                            \
    for (; i + VF_W <= n; i += VF_W) {                                                       \
        VF xa = ptn_lf_##K##_##L(x + i), ya = VF_LOADU(y + i);                               \
        PTN_X86_F32_PAIR(PTN_X86_OP_DOT, a0, a1, xa, ya)                                     \
    }                                                                                        \
    if (i < n) {                                                                             \
        VF_MASK m = VF_TAIL(n - i);                                                          \
        VF xt = ptn_lft_##K##_##L(x + i, n - i), yt = VF_MASKLOAD(m, y + i);                 \
        PTN_X86_F32_PAIR(PTN_X86_OP_DOT, a2, a3, xt, yt)                                     \
    }
#define PTN_X86_NREST_HALVES(K, L)                                                           \
    for (; i + VD_W <= n; i += VD_W) {                                                       \
        PTN_X86_OP_DOT(a0, VD_CVTPS(ptn_lh_##K##_##L(x + i)), VD_CVTPS(VH_LOADU(y + i)))     \
    }                                                                                        \
    if (i < n) {                                                                             \
        VH_MASK m = VH_TAIL(n - i);                                                          \
        PTN_X86_OP_DOT(a1, VD_CVTPS(ptn_lht_##K##_##L(x + i, n - i)),                        \
                       VD_CVTPS(VH_MASKLOAD(m, y + i)))                                      \
    }

/* NAME(p, r): the r < W elements of kind K at p converted into a vector
 * V of W floats (LOADU), the others +0 */
#define PTN_X86_TAIL_LOAD(NAME, K, T, V, W, LOADU)                                           \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline V NAME(const T *p, size_t r)                                               \
    {                                                                                        \
        float b[W];                                                                          \
        size_t j;                                                                            \
        for (j = 0; j < (W); j++) {                                                          \
            b[j] = j < r ? ptn_##K##_to_f32(p[j]) : 0.0f;                                    \
        }                                                                                    \
        return LOADU(b);                                                                     \
    }

/* Kind K (elements of T) at level L whose exact sums end by REST: the
 * tails' loads, the conversion, the exact sum, the blocks and the dot
 * product, then ptn_narrow.h's elementwise kernels and scans. */
#define PTN_X86_NARROW(L, K, T, REST)                                                        \
    PTN_X86_TAIL_LOAD(ptn_lft_##K##_##L, K, T, VF, VF_W, VF_LOADU)                           \
    PTN_X86_TAIL_LOAD(ptn_lht_##K##_##L, K, T, VH, VD_W, VH_LOADU)                           \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline void ptn_nconv_##K##_##L(size_t n, const T *x, float *out)                 \
    {                                                                                        \
        size_t i = 0;                                                                        \
        for (; i + VF_W <= n; i += VF_W) {                                                   \
            VF_STOREU(out + i, ptn_lf_##K##_##L(x + i));                                     \
        }                                                                                    \
        ptn_nconv_##K##_scalar(n - i, x + i, out + i);                                       \
    }                                                                                        \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline double ptn_ndot_##K##_exact_##L(size_t n, const T *x, const float *y)      \
    {                                                                                        \
        VD a0 = VD_ZERO(), a1 = VD_ZERO(), a2 = VD_ZERO(), a3 = VD_ZERO();                   \
        size_t i = 0;                                                                        \
        for (; i + 4 * VD_W <= n; i += 4 * VD_W) {                                           \
            VF xa = ptn_lf_##K##_##L(x + i), ya = VF_LOADU(y + i);                           \
            VF xb = ptn_lf_##K##_##L(x + i + VF_W), yb = VF_LOADU(y + i + VF_W);             \
            PTN_X86_F32_PAIR(PTN_X86_OP_DOT, a0, a1, xa, ya)                                 \
            PTN_X86_F32_PAIR(PTN_X86_OP_DOT, a2, a3, xb, yb)                                 \
        }                                                                                    \
        REST(K, L)                                                                           \
        return VD_HSUM(VD_ADD(VD_ADD(a0, a1), VD_ADD(a2, a3)));                              \
    }                                                                                        \
    PTN_X86_DOT_F32_OF(ptn_ndot_##K##_blocks_##L, ptn_ndot_##K##_inline_##L,                 \
                       ptn_ndot_##K##_exact_##L, T, ptn_lf_##K##_##L)                        \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static void ptn_naxpy_##K##_##L(size_t n, float a, const T *x, float *y)                 \
    {                                                                                        \
        const VF av = VF_SET1(a);                                                            \
        size_t i = 0;                                                                        \
        for (; i + VF_W <= n; i += VF_W) {                                                   \
            VF_STOREU(y + i, VF_FMADD(av, ptn_lf_##K##_##L(x + i), VF_LOADU(y + i)));        \
        }                                                                                    \
        for (; i < n; i++) {                                                                 \
            y[i] = fmaf(a, ptn_##K##_to_f32(x[i]), y[i]);                                    \
        }                                                                                    \
    }                                                                                        \
    PTN_NARROW_AXPY_F64_KIND(PTN_TARGET(PTN_X86_TARGET), L, K, T)                            \
    PTN_X86_NSCANS(L, K, T)

/* The scans of kind K at level L (ptn_narrow.h's, by the dot product's
 * parts): the blocks' sum checked for float32's range and the row's test
 * in one condition (ptn_scan.h, PTN_SCAN_LOOP_BLOCKS_OF_ACT), as the
 * AVX-512 float32 scan does, instead of a branch each; rows of whole
 * blocks (256 features, ...) without the exact sum of an empty rest, whose
 * +0 leaves the blocks' sum as it is (it is never -0).  The activations,
 * the stops and the updates are those of the loop over
 * ptn_ndot_<K>_inline_<L>. */
#define PTN_X86_NSCAN_BODY(L, K, T, ON_ACT, END)                                             \
    const size_t nb_ = s->d - s->d % (4 * VF_W);                                             \
    if (nb_ == 0) {                                                                          \
        PTN_SCAN_LOOP_ACT(T, ptn_ndot_##K##_exact_##L(d_, x_, w_), ON_ACT, END)              \
    }                                                                                        \
    if (nb_ == s->d) {                                                                       \
        PTN_SCAN_LOOP_BLOCKS_OF_ACT(T, ptn_ndot_##K##_blocks_##L(nb_, x_, w_),               \
                                    ptn_ndot_##K##_exact_##L(d_, x_, w_), ON_ACT, END)       \
    }                                                                                        \
    {                                                                                        \
        PTN_SCAN_LOOP_BLOCKS_OF_ACT(T, ptn_ndot_##K##_blocks_##L(nb_, x_, w_) +              \
                                           ptn_ndot_##K##_exact_##L(d_ - nb_, x_ + nb_,      \
                                                                    w_ + nb_),               \
                                    ptn_ndot_##K##_exact_##L(d_, x_, w_), ON_ACT, END)       \
    }
#define PTN_X86_NSCANS(L, K, T)                                                              \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static size_t ptn_nscan_##K##_##L(const ptn_scan *s, size_t start, size_t stop,          \
                                      double *act)                                           \
    {                                                                                        \
        const float *w_ = (const float *)s->w;                                               \
        PTN_X86_NSCAN_BODY(L, K, T, PTN_SCAN_RETURN, PTN_SCAN_END)                           \
    }                                                                                        \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static size_t ptn_nscan_plain_##K##_##L(const ptn_scan *s, size_t start, size_t stop,    \
                                            double *act, ptn_plain *plain_)                  \
    {                                                                                        \
        PTN_PLAIN_WEIGHTS(float)                                                             \
        PTN_X86_NSCAN_BODY(L, K, T, PTN_PLAIN_ACT(float, ptn_naxpy_##K##_##L, (void)0),      \
                           PTN_PLAIN_END)                                                    \
    }                                                                                        \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static double ptn_ndot_##K##_##L(size_t n, const T *x, const float *w)                   \
    {                                                                                        \
        return ptn_ndot_##K##_inline_##L(n, x, w);                                           \
    }

#endif /* PTN_HAVE_X86_SIMD */

#endif /* PTN_X86_NARROW_H */

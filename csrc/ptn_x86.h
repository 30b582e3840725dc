/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_x86.h - what the AVX2 and the AVX-512 kernels share (simd_avx2.c,
 * simd_avx512.c): the kernels that differ between the two only in the
 * vector width, written once here as templates over a small vocabulary.
 *
 * Each of the two files defines, before it instantiates a template:
 *   PTN_X86_TARGET         the target attribute's string ("avx2,fma", "avx512f")
 *   VD, VD_W               the vector of doubles and its lanes (VF, VF_W: floats)
 *   VD_ZERO() VD_SET1(a) VD_LOADU(p) VD_STOREU(p, v) VD_ADD VD_SUB VD_MUL
 *   VD_MAX VD_FMADD(a, b, c) VD_FNMADD(a, b, c)   (the same for VF where used)
 *   VD_HSUM(v)             the sum of the lanes
 *   VD_MASK, VD_TAIL(r)    a mask of the first r < VD_W lanes, and its type
 *   VD_MASKLOAD(m, p)      a load of the masked lanes (the others read as 0)
 *   VD_MASKSTORE(p, m, v)  a store of the masked lanes only
 *   VD_MIN VD_ROUND(v) VD_FLOOR(v)   rounding to the nearest integer and down
 *   VD_EXPONENT(v)         the bits of v shifted into the exponent field
 *   VD_NAN_TO(y, x)        y, with x in the lanes where x is NaN
 *   VD_EXP(v)              exp of every lane: ptn_exp_pd_<level>, PTN_X86_EXP_PD
 *   VH                     half a float vector: the floats of one VD
 *   VF_LO(v) VF_HI(v)      the low and the high half of a float vector
 *   VD_CVTPS(h)            a half converted to a vector of doubles
 *   VH_LOADU(p), VH_MASK, VH_TAIL(r), VH_MASKLOAD(m, p)   as for VD, on a half
 * A template runs the same sequence of operations per lane at both levels:
 * only the number of lanes differs.
 *
 * Included only by the two x86 kernel files, compiled for the baseline: the
 * functions the templates define carry PTN_TARGET(PTN_X86_TARGET).
 */
#ifndef PTN_X86_H
#define PTN_X86_H

#include "ptn_simd.h"
#include "ptn_scan.h"

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "the x86 kernels must be compiled for the baseline instruction set; the AVX code is enabled per function"
#endif

#if PTN_HAVE_X86_SIMD

#include <immintrin.h>
#include <math.h>

#include "ptn_exp.h"

/* y[i] += a * x[i] over the vector family V (VD or VF) of element type T:
 * blocks of four vectors, then single vectors, then TAIL for the rest
 * (from i); LINKAGE empty for a kernel of the table, static inline for one
 * a loop of the level inlines. */
#define PTN_X86_AXPY_WITH(LINKAGE, NAME, T, V, TAIL)                                         \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    LINKAGE void NAME(size_t n, T a, const T *x, T *y)                                       \
    {                                                                                        \
        const V av = V##_SET1(a);                                                            \
        size_t i = 0;                                                                        \
        for (; i + 4 * V##_W <= n; i += 4 * V##_W) {                                         \
            V y0 = V##_FMADD(av, V##_LOADU(x + i), V##_LOADU(y + i));                        \
            V y1 = V##_FMADD(av, V##_LOADU(x + i + V##_W), V##_LOADU(y + i + V##_W));        \
            V y2 = V##_FMADD(av, V##_LOADU(x + i + 2 * V##_W), V##_LOADU(y + i + 2 * V##_W)); \
            V y3 = V##_FMADD(av, V##_LOADU(x + i + 3 * V##_W), V##_LOADU(y + i + 3 * V##_W)); \
            V##_STOREU(y + i, y0);                                                           \
            V##_STOREU(y + i + V##_W, y1);                                                   \
            V##_STOREU(y + i + 2 * V##_W, y2);                                               \
            V##_STOREU(y + i + 3 * V##_W, y3);                                               \
        }                                                                                    \
        for (; i + V##_W <= n; i += V##_W) {                                                 \
            V##_STOREU(y + i, V##_FMADD(av, V##_LOADU(x + i), V##_LOADU(y + i)));            \
        }                                                                                    \
        TAIL                                                                                 \
    }

/* the tail as one masked vector */
#define PTN_X86_MASKED_TAIL(V)                                                               \
    if (i < n) {                                                                             \
        V##_MASK m = V##_TAIL(n - i);                                                        \
        V##_MASKSTORE(y + i, m, V##_FMADD(av, V##_MASKLOAD(m, x + i), V##_MASKLOAD(m, y + i))); \
    }

/* the tail one fused multiply-add at a time (FMA: fmaf or fma): the same
 * bits as the masked vector, in stores that later loads can be served from
 * at once (simd_avx512_plain.inc) */
#define PTN_X86_SCALAR_TAIL(FMA)                                                             \
    for (; i < n; i++) {                                                                     \
        y[i] = FMA(a, x[i], y[i]);                                                           \
    }


/*
 * Sums over a row of two vectors x, y of T, four accumulators a0..a3 of
 * doubles (the contracts are in ptn_simd.h: dot_f64, dot_f32, sqdist_*).
 * OP(a, u, v) adds what the vectors of doubles u and v give into a:
 * PTN_X86_OP_DOT their products, PTN_X86_OP_SQDIST their squared
 * differences.  Float32 elements are converted to double (exactly) half a
 * float vector at a time.
 *
 * PTN_X86_SUM(LINKAGE, NAME, T, OP, BLOCK, REST): blocks of 4 * VD_W
 * elements by BLOCK into a0..a3 in turn, what is left by REST, then the sum
 * of a0..a3.  The blocks (T's) and the rests (a level's shape: the results
 * of two rests are not the same sums):
 *   PTN_X86_BLOCK_F64, PTN_X86_BLOCK_F32   four vectors of doubles, or two
 *                                          float vectors in their halves
 *   PTN_X86_REST_F64         single vectors into a0, the masked last into a1
 *   PTN_X86_REST_F32_HALVES  the same by halves of float vectors (AVX2: up to
 *                            three of 4 floats)
 *   PTN_X86_REST_F32_WHOLE   a whole float vector into a0 and a1, the masked
 *                            last one into a2 and a3 (AVX-512: at most one
 *                            vector of 16 before the masked one)
 */
#define PTN_X86_OP_DOT(a, u, v) a = VD_FMADD(u, v, a);
#define PTN_X86_OP_SQDIST(a, u, v)                                                           \
    {                                                                                        \
        const VD d_ = VD_SUB(u, v);                                                          \
        a = VD_FMADD(d_, d_, a);                                                             \
    }

#define PTN_X86_SUM(LINKAGE, NAME, T, OP, BLOCK, REST)                                       \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    LINKAGE double NAME(size_t n, const T *x, const T *y)                                    \
    {                                                                                        \
        VD a0 = VD_ZERO(), a1 = VD_ZERO(), a2 = VD_ZERO(), a3 = VD_ZERO();                   \
        size_t i = 0;                                                                        \
        for (; i + 4 * VD_W <= n; i += 4 * VD_W) {                                           \
            BLOCK(OP)                                                                        \
        }                                                                                    \
        REST(OP)                                                                             \
        return VD_HSUM(VD_ADD(VD_ADD(a0, a1), VD_ADD(a2, a3)));                              \
    }

#define PTN_X86_BLOCK_F64(OP)                                                                \
    OP(a0, VD_LOADU(x + i), VD_LOADU(y + i))                                                 \
    OP(a1, VD_LOADU(x + i + VD_W), VD_LOADU(y + i + VD_W))                                   \
    OP(a2, VD_LOADU(x + i + 2 * VD_W), VD_LOADU(y + i + 2 * VD_W))                           \
    OP(a3, VD_LOADU(x + i + 3 * VD_W), VD_LOADU(y + i + 3 * VD_W))

/* OP over the low halves of the float vectors xv, yv into A, the high into B */
#define PTN_X86_F32_PAIR(OP, A, B, xv, yv)                                                   \
    OP(A, VD_CVTPS(VF_LO(xv)), VD_CVTPS(VF_LO(yv)))                                          \
    OP(B, VD_CVTPS(VF_HI(xv)), VD_CVTPS(VF_HI(yv)))

#define PTN_X86_BLOCK_F32(OP)                                                                \
    VF xa = VF_LOADU(x + i), ya = VF_LOADU(y + i);                                           \
    VF xb = VF_LOADU(x + i + VF_W), yb = VF_LOADU(y + i + VF_W);                             \
    PTN_X86_F32_PAIR(OP, a0, a1, xa, ya)                                                     \
    PTN_X86_F32_PAIR(OP, a2, a3, xb, yb)

/* VD_W elements of doubles (U = VD) or of floats (U = VH) as doubles */
#define PTN_X86_AS_PD_VD(v) (v)
#define PTN_X86_AS_PD_VH(v) VD_CVTPS(v)

#define PTN_X86_REST_SINGLES(OP, U)                                                          \
    for (; i + VD_W <= n; i += VD_W) {                                                       \
        OP(a0, PTN_X86_AS_PD_##U(U##_LOADU(x + i)), PTN_X86_AS_PD_##U(U##_LOADU(y + i)))     \
    }                                                                                        \
    if (i < n) {                                                                             \
        U##_MASK m = U##_TAIL(n - i);                                                        \
        OP(a1, PTN_X86_AS_PD_##U(U##_MASKLOAD(m, x + i)),                                    \
           PTN_X86_AS_PD_##U(U##_MASKLOAD(m, y + i)))                                        \
    }
#define PTN_X86_REST_F64(OP) PTN_X86_REST_SINGLES(OP, VD)
#define PTN_X86_REST_F32_HALVES(OP) PTN_X86_REST_SINGLES(OP, VH)

#define PTN_X86_REST_F32_WHOLE(OP)                                                           \
    for (; i + VF_W <= n; i += VF_W) {                                                       \
        VF xa = VF_LOADU(x + i), ya = VF_LOADU(y + i);                                       \
        PTN_X86_F32_PAIR(OP, a0, a1, xa, ya)                                                 \
    }                                                                                        \
    if (i < n) {                                                                             \
        VF_MASK m = VF_TAIL(n - i);                                                          \
        VF xt = VF_MASKLOAD(m, x + i), yt = VF_MASKLOAD(m, y + i);                           \
        PTN_X86_F32_PAIR(OP, a2, a3, xt, yt)                                                 \
    }

/* The float32 dot product's blocks (dot_f32 in ptn_simd.h): NAME(nb, x, y)
 * sums the blocks of 4 * VF_W elements of x[0, nb), nb a multiple of that,
 * with four products per lane in float32 and the blocks summed in double;
 * 0 when nb is 0.  INLINE(n, x, y) is the dot product: those blocks, the
 * rest by EXACT (exact products), all of it by EXACT again where
 * PTN_F32_BLOCKS_REDO says so. */
#define PTN_X86_DOT_F32(NAME, INLINE, EXACT) PTN_X86_DOT_F32_OF(NAME, INLINE, EXACT, float, VF_LOADU)

/* The same over rows of TX whose VF_W elements at p LX(p) loads as a float
 * vector (ptn_x86_narrow.h: rows narrower than float32, converted as
 * loaded). */
#define PTN_X86_DOT_F32_OF(NAME, INLINE, EXACT, TX, LX)                                      \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline double NAME(size_t nb, const TX *x, const float *y)                        \
    {                                                                                        \
        VD a0 = VD_ZERO(), a1 = VD_ZERO();                                                   \
        size_t i = 0;                                                                        \
        for (; i < nb; i += 4 * VF_W) {                                                      \
            VF p = VF_MUL(LX(x + i), VF_LOADU(y + i));                                       \
            p = VF_FMADD(LX(x + i + VF_W), VF_LOADU(y + i + VF_W), p);                       \
            p = VF_FMADD(LX(x + i + 2 * VF_W), VF_LOADU(y + i + 2 * VF_W), p);               \
            p = VF_FMADD(LX(x + i + 3 * VF_W), VF_LOADU(y + i + 3 * VF_W), p);               \
            a0 = VD_ADD(a0, VD_CVTPS(VF_LO(p)));                                             \
            a1 = VD_ADD(a1, VD_CVTPS(VF_HI(p)));                                             \
        }                                                                                    \
        return VD_HSUM(VD_ADD(a0, a1));                                                      \
    }                                                                                        \
                                                                                             \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    PTN_INLINE double INLINE(size_t n, const TX *x, const float *y)                          \
    {                                                                                        \
        const size_t nb = n - n % (4 * VF_W);                                                \
        double r;                                                                            \
        if (nb == 0) {                                                                       \
            return EXACT(n, x, y);                                                           \
        }                                                                                    \
        /* whole blocks only: the rest would add +0, leaving r as it is (the   \
         * blocks' sum is never -0: simd_avx512.c, ptn_scan_f32_avx512) */     \
        r = NAME(nb, x, y) + (nb == n ? 0.0 : EXACT(n - nb, x + nb, y + nb));                \
        if (PTN_F32_BLOCKS_REDO(r, n)) {                                                     \
            return EXACT(n, x, y);                                                           \
        }                                                                                    \
        return r;                                                                            \
    }

/* exp of every lane (ptn_exp.h's method); the NaN lanes of x come back as
 * they are. */
#define PTN_X86_EXP_PD(NAME)                                                                 \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline VD NAME(VD x)                                                              \
    {                                                                                        \
        /* max returns its second operand when the first is NaN: xc is finite */             \
        VD xc = VD_MIN(VD_MAX(x, VD_SET1(PTN_EXP_LO)), VD_SET1(PTN_EXP_HI));                 \
        VD k = VD_ROUND(VD_MUL(xc, VD_SET1(PTN_LOG2E)));                                     \
        VD r = VD_FNMADD(k, VD_SET1(PTN_LN2_HI), xc);                                        \
        VD p, k1, k2, s1, s2, y;                                                             \
        r = VD_FNMADD(k, VD_SET1(PTN_LN2_LO), r);                                            \
        PTN_EXP_POLY(VD_FMADD, VD_SET1, p, r);                                               \
        k1 = VD_FLOOR(VD_MUL(k, VD_SET1(0.5)));                                              \
        k2 = VD_SUB(k, k1);                                                                  \
        s1 = VD_EXPONENT(VD_ADD(k1, VD_SET1(PTN_EXP_BIAS)));                                 \
        s2 = VD_EXPONENT(VD_ADD(k2, VD_SET1(PTN_EXP_BIAS)));                                 \
        y = VD_MUL(VD_MUL(p, s1), s2);                                                       \
        return VD_NAN_TO(y, x);                                                              \
    }

/* y[i] += a * x[i], x float32 and y float64: blocks of 16 floats (two
 * float vectors at AVX2, one at AVX-512), then halves, then the masked last
 * half.  Every element gets one fused multiply-add whatever the block. */
#define PTN_X86_AXPY_F32_F64(NAME)                                                           \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    void NAME(size_t n, double a, const float *x, double *y)                                 \
    {                                                                                        \
        const VD av = VD_SET1(a);                                                            \
        size_t i = 0, h;                                                                     \
        for (; i + 16 <= n; i += 16) {                                                       \
            VD yv[32 / VF_W];                                                                \
            for (h = 0; h < 16 / VF_W; h++) {                                                \
                VF xv = VF_LOADU(x + i + h * VF_W);                                          \
                yv[2 * h] = VD_FMADD(av, VD_CVTPS(VF_LO(xv)), VD_LOADU(y + i + h * VF_W));   \
                yv[2 * h + 1] =                                                              \
                    VD_FMADD(av, VD_CVTPS(VF_HI(xv)), VD_LOADU(y + i + h * VF_W + VD_W));    \
            }                                                                                \
            for (h = 0; h < 32 / VF_W; h++) {                                                \
                VD_STOREU(y + i + h * VD_W, yv[h]);                                          \
            }                                                                                \
        }                                                                                    \
        for (; i + VD_W <= n; i += VD_W) {                                                   \
            VD_STOREU(y + i, VD_FMADD(av, VD_CVTPS(VH_LOADU(x + i)), VD_LOADU(y + i)));      \
        }                                                                                    \
        if (i < n) {                                                                         \
            VH_MASK mh = VH_TAIL(n - i);                                                     \
            VD_MASK md = VD_TAIL(n - i);                                                     \
            VD_MASKSTORE(y + i, md,                                                          \
                         VD_FMADD(av, VD_CVTPS(VH_MASKLOAD(mh, x + i)), VD_MASKLOAD(md, y + i))); \
        }                                                                                    \
    }

/* y[i] = exp(x[i]): two vectors at a time, then one, then the masked tail. */
#define PTN_X86_EXP_F64(NAME)                                                                \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    void NAME(size_t n, const double *x, double *y)                                          \
    {                                                                                        \
        size_t i = 0;                                                                        \
        for (; i + 2 * VD_W <= n; i += 2 * VD_W) {                                           \
            VD a = VD_EXP(VD_LOADU(x + i));                                                  \
            VD b = VD_EXP(VD_LOADU(x + i + VD_W));                                           \
            VD_STOREU(y + i, a);                                                             \
            VD_STOREU(y + i + VD_W, b);                                                      \
        }                                                                                    \
        for (; i + VD_W <= n; i += VD_W) {                                                   \
            VD_STOREU(y + i, VD_EXP(VD_LOADU(x + i)));                                       \
        }                                                                                    \
        if (i < n) {                                                                         \
            VD_MASK m = VD_TAIL(n - i);                                                      \
            VD_MASKSTORE(y + i, m, VD_EXP(VD_MASKLOAD(m, x + i)));                           \
        }                                                                                    \
    }

/* out[k*p + q] = sum_i (A[k*lda + i] - shift[i]) * BT[i*p + q].  For each row,
 * eight vectors of outputs at a time are eight accumulators fed by one
 * broadcast of the shifted A[k, i] per i: eight independent FMA chains, no
 * horizontal sums.  Leftover outputs go one vector at a time, then masked;
 * every output lane runs the same sequence of FMAs, so its value does not
 * depend on where it falls.  `f32` selects the type of A (ptn_block_a,
 * ptn_simd.h). */
#define PTN_X86_DOT_BLOCK(NAME)                                                              \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline void NAME(int f32, size_t m, size_t d, const void *A, size_t lda,          \
                            const double *shift, size_t p, const double *BT, double *out)    \
    {                                                                                        \
        const VD_MASK tm = VD_TAIL(p % VD_W);                                                \
        size_t k, i, q;                                                                      \
        for (k = 0; k < m; k++) {                                                            \
            double *o = out + k * p;                                                         \
            const size_t row = k * lda;                                                      \
            for (q = 0; q + 8 * VD_W <= p; q += 8 * VD_W) {                                  \
                VD c0 = VD_ZERO(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0,     \
                   c7 = c0;                                                                  \
                for (i = 0; i < d; i++) {                                                    \
                    const VD a = VD_SET1(ptn_block_a(f32, A, row + i) - shift[i]);           \
                    const double *b = BT + i * p + q;                                        \
                    c0 = VD_FMADD(a, VD_LOADU(b), c0);                                       \
                    c1 = VD_FMADD(a, VD_LOADU(b + VD_W), c1);                                \
                    c2 = VD_FMADD(a, VD_LOADU(b + 2 * VD_W), c2);                            \
                    c3 = VD_FMADD(a, VD_LOADU(b + 3 * VD_W), c3);                            \
                    c4 = VD_FMADD(a, VD_LOADU(b + 4 * VD_W), c4);                            \
                    c5 = VD_FMADD(a, VD_LOADU(b + 5 * VD_W), c5);                            \
                    c6 = VD_FMADD(a, VD_LOADU(b + 6 * VD_W), c6);                            \
                    c7 = VD_FMADD(a, VD_LOADU(b + 7 * VD_W), c7);                            \
                }                                                                            \
                VD_STOREU(o + q, c0);                                                        \
                VD_STOREU(o + q + VD_W, c1);                                                 \
                VD_STOREU(o + q + 2 * VD_W, c2);                                             \
                VD_STOREU(o + q + 3 * VD_W, c3);                                             \
                VD_STOREU(o + q + 4 * VD_W, c4);                                             \
                VD_STOREU(o + q + 5 * VD_W, c5);                                             \
                VD_STOREU(o + q + 6 * VD_W, c6);                                             \
                VD_STOREU(o + q + 7 * VD_W, c7);                                             \
            }                                                                                \
            for (; q + VD_W <= p; q += VD_W) {                                               \
                VD c0 = VD_ZERO();                                                           \
                for (i = 0; i < d; i++) {                                                    \
                    c0 = VD_FMADD(VD_SET1(ptn_block_a(f32, A, row + i) - shift[i]),          \
                                  VD_LOADU(BT + i * p + q), c0);                             \
                }                                                                            \
                VD_STOREU(o + q, c0);                                                        \
            }                                                                                \
            if (q < p) {                                                                     \
                VD c0 = VD_ZERO();                                                           \
                for (i = 0; i < d; i++) {                                                    \
                    c0 = VD_FMADD(VD_SET1(ptn_block_a(f32, A, row + i) - shift[i]),          \
                                  VD_MASKLOAD(tm, BT + i * p + q), c0);                      \
                }                                                                            \
                VD_MASKSTORE(o + q, tm, c0);                                                 \
            }                                                                                \
        }                                                                                    \
    }

/* buf[r*p + q] = exp(-gamma * max(na[r] + nb[q] - 2 buf[r*p + q], 0)); the
 * squared distance from the norms and the dot product, clipped at 0 (max
 * returns its second operand, 0, for a NaN, which finite data cannot make),
 * then the vectorised exp, in one pass.  RBF names the helper of one vector. */
#define PTN_X86_RBF_BLOCK_F64(NAME, RBF)                                                     \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline VD RBF(VD nr, VD nbv, VD dot, VD neg_gamma)                                \
    {                                                                                        \
        VD v = VD_FNMADD(VD_SET1(2.0), dot, VD_ADD(nr, nbv));                                \
        return VD_EXP(VD_MUL(neg_gamma, VD_MAX(v, VD_ZERO())));                              \
    }                                                                                        \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    void NAME(size_t m, size_t p, const double *na, const double *nb, double gamma,          \
              double *buf)                                                                   \
    {                                                                                        \
        const VD ng = VD_SET1(-gamma);                                                       \
        const VD_MASK tm = VD_TAIL(p % VD_W);                                                \
        size_t r, q;                                                                         \
        for (r = 0; r < m; r++) {                                                            \
            const VD nr = VD_SET1(na[r]);                                                    \
            double *o = buf + r * p;                                                         \
            for (q = 0; q + VD_W <= p; q += VD_W) {                                          \
                VD_STOREU(o + q, RBF(nr, VD_LOADU(nb + q), VD_LOADU(o + q), ng));            \
            }                                                                                \
            if (q < p) {                                                                     \
                VD_MASKSTORE(o + q, tm, RBF(nr, VD_MASKLOAD(tm, nb + q),                     \
                                            VD_MASKLOAD(tm, o + q), ng));                    \
            }                                                                                \
        }                                                                                    \
    }

/* The public kernel NAME of a level over its inlined INLINE (the scans
 * inline the dot products; the table holds these). */
#define PTN_X86_DOT_PUBLIC(NAME, INLINE, T)                                                  \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    double NAME(size_t n, const T *x, const T *y)                                            \
    {                                                                                        \
        return INLINE(n, x, y);                                                              \
    }

/*
 * Short rows.  A scan over rows of a few vectors spends most of its time on
 * what the dot product does per call besides the products: loading the
 * weights, the loops' control, the tail's mask.  None of it changes from
 * row to row (the weights do not change during a scan), so the short-row
 * scans load the weights, converted to double where the dot product
 * converts them, into registers once, and each row runs the same sequence
 * of products and additions as ptn_dot_<type>_inline_<level> would for a
 * row of that length: the same bits (tested).
 *
 * PTN_X86_SHORT_F64 is the float64 one, for rows of fewer than 32
 * elements: the block of four vectors (where four vectors are fewer than
 * 32 elements and the row has them) into a0..a3, up to three single
 * vectors into a0, the masked tail into a1, as ptn_dot_f64_inline_<level>
 * (PTN_X86_SUM with PTN_X86_REST_F64) runs them.
 * Where four vectors are 32 elements the block's code folds away.
 */
#define PTN_X86_SHORT_BLOCK (4 * VD_W < 32)

#define PTN_X86_SHORT_F64(SHORT, INIT, DOT)                                                  \
    typedef struct SHORT {                                                                   \
        VD w4[4], w1[3], wt;                                                                 \
        VD_MASK tm;                                                                          \
        size_t block, groups, tail;                                                          \
    } SHORT;                                                                                 \
                                                                                             \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline void INIT(SHORT *p, size_t n, const double *w)                             \
    {                                                                                        \
        size_t g, i;                                                                         \
        p->block = PTN_X86_SHORT_BLOCK && n >= 4 * VD_W;                                     \
        for (g = 0; g < 4; g++) {                                                            \
            p->w4[g] = p->block ? VD_LOADU(w + VD_W * g) : VD_ZERO();                        \
        }                                                                                    \
        i = p->block ? 4 * VD_W : 0;                                                         \
        p->groups = (n - i) / VD_W;                                                          \
        for (g = 0; g < 3; g++) {                                                            \
            p->w1[g] = g < p->groups ? VD_LOADU(w + i + VD_W * g) : VD_ZERO();               \
        }                                                                                    \
        i += VD_W * p->groups;                                                               \
        p->tail = n - i;                                                                     \
        p->tm = VD_TAIL(p->tail);                                                            \
        p->wt = p->tail ? VD_MASKLOAD(p->tm, w + i) : VD_ZERO();                             \
    }                                                                                        \
                                                                                             \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    static inline double DOT(const double *x, const SHORT *p)                                \
    {                                                                                        \
        const VD z = VD_ZERO();                                                              \
        VD a0 = z, a1 = z, a2 = z, a3 = z;                                                   \
        size_t i = 0;                                                                        \
        if (PTN_X86_SHORT_BLOCK && p->block) {                                               \
            a0 = VD_FMADD(VD_LOADU(x), p->w4[0], a0);                                        \
            a1 = VD_FMADD(VD_LOADU(x + VD_W), p->w4[1], a1);                                 \
            a2 = VD_FMADD(VD_LOADU(x + 2 * VD_W), p->w4[2], a2);                             \
            a3 = VD_FMADD(VD_LOADU(x + 3 * VD_W), p->w4[3], a3);                             \
            i = 4 * VD_W;                                                                    \
        }                                                                                    \
        if (p->groups > 0) {                                                                 \
            a0 = VD_FMADD(VD_LOADU(x + i), p->w1[0], a0);                                    \
        }                                                                                    \
        if (p->groups > 1) {                                                                 \
            a0 = VD_FMADD(VD_LOADU(x + i + VD_W), p->w1[1], a0);                             \
        }                                                                                    \
        if (p->groups > 2) {                                                                 \
            a0 = VD_FMADD(VD_LOADU(x + i + 2 * VD_W), p->w1[2], a0);                         \
        }                                                                                    \
        if (p->tail) {                                                                       \
            a1 = VD_FMADD(VD_MASKLOAD(p->tm, x + i + VD_W * p->groups), p->wt, a1);          \
        }                                                                                    \
        return VD_HSUM(VD_ADD(VD_ADD(a0, a1), VD_ADD(a2, a3)));                              \
    }

/* The scan (ptn_scan.h) of rows of T: rows of fewer than SHORT_MAX
 * elements through the short rows' DOTSHORT over a SHORT loaded by INIT,
 * longer ones through the inlined dot product DOT. */
#define PTN_X86_SCAN(NAME, T, SHORT_MAX, SHORT, INIT, DOTSHORT, DOT)                         \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    size_t NAME(const ptn_scan *s, size_t start, size_t stop, double *act)                   \
    {                                                                                        \
        if (s->d < (SHORT_MAX)) {                                                            \
            SHORT p;                                                                         \
            INIT(&p, s->d, (const T *)s->w);                                                 \
            {                                                                                \
                PTN_SCAN_LOOP(T, DOTSHORT(x_, &p))                                           \
            }                                                                                \
        }                                                                                    \
        {                                                                                    \
            PTN_SCAN_BODY(T, DOT)                                                            \
        }                                                                                    \
    }

/* scan_plain_<type> (ptn_scan.h): the scan above with the plain rule's
 * updates, by AXPY, inside it; the short rows' registers are loaded again
 * after each update. */
#define PTN_X86_SCAN_PLAIN(NAME, T, SHORT_MAX, SHORT, INIT, DOTSHORT, DOT, AXPY)             \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    size_t NAME(const ptn_scan *s, size_t start, size_t stop, double *act,                   \
                ptn_plain *plain_)                                                           \
    {                                                                                        \
        if (s->d < (SHORT_MAX)) {                                                            \
            PTN_SCAN_PLAIN_SHORT(T, SHORT, INIT, DOTSHORT, AXPY)                             \
        }                                                                                    \
        {                                                                                    \
            PTN_SCAN_PLAIN_BODY(T, DOT, AXPY)                                                \
        }                                                                                    \
    }

/* The dots_<type> (ptn_simd.h) of a level that scores G weight vectors at
 * a time with GROUP(n, x, w, out) and a vector left over with the inlined
 * dot product DOT. */
#define PTN_X86_DOTS(NAME, T, G, GROUP, DOT)                                                 \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    void NAME(size_t n, const T *x, const T *const *w, size_t m, double *out)                \
    {                                                                                        \
        size_t c = 0;                                                                        \
        for (; c + (G) <= m; c += (G)) {                                                     \
            GROUP(n, x, w + c, out + c);                                                     \
        }                                                                                    \
        for (; c < m; c++) {                                                                 \
            out[c] = DOT(n, x, w[c]);                                                        \
        }                                                                                    \
    }

/* sum_j val[j] * w[idx[j]] over a CSR row with the weights fetched by
 * gathers (ptn_simd.h, sdot), TV the values' type and TI the indices':
 * BLOCK elements at a time by BODY into a0 (and a1), then what the level
 * does with the rest of a block (LEFT, which may be empty), the last
 * values one at a time with exact double products; SUM is the vector
 * summed, VD_ADD(a0, a1) or a0 where BODY uses a0 alone. */
#define PTN_X86_SDOT(NAME, TARGET, TV, TI, BLOCK, BODY, LEFT, SUM)                           \
    PTN_TARGET(TARGET)                                                                       \
    double NAME(size_t nnz, const TV *val, const TI *idx, const TV *w)                       \
    {                                                                                        \
        VD a0 = VD_ZERO(), a1 = VD_ZERO();                                                   \
        double s = 0.0;                                                                      \
        size_t j = 0;                                                                        \
        for (; j + (BLOCK) <= nnz; j += (BLOCK)) {                                           \
            BODY                                                                             \
        }                                                                                    \
        LEFT                                                                                 \
        for (; j < nnz; j++) {                                                               \
            s += (double)val[j] * (double)w[idx[j]];                                         \
        }                                                                                    \
        (void)a1;                                                                            \
        return VD_HSUM(SUM) + s;                                                             \
    }

/* The kernels both levels make from the templates above, for level L
 * (avx2, avx512) whose float32 sums go on by F32_REST (PTN_X86_SUM).
 * Instantiated after the level's vocabulary and the helpers it names. */
#define PTN_X86_KERNELS(L, F32_REST)                                                         \
    PTN_X86_EXP_PD(ptn_exp_pd_##L)                                                           \
    PTN_X86_SUM(PTN_INLINE, ptn_dot_f32_exact_##L, float, PTN_X86_OP_DOT, PTN_X86_BLOCK_F32, \
                F32_REST)                                                                    \
    PTN_X86_DOT_F32(ptn_dot_f32_blocks_##L, ptn_dot_f32_inline_##L, ptn_dot_f32_exact_##L)   \
    PTN_X86_DOT_PUBLIC(ptn_dot_f32_##L, ptn_dot_f32_inline_##L, float)                       \
    PTN_X86_SUM(PTN_INLINE, ptn_dot_f64_inline_##L, double, PTN_X86_OP_DOT,                  \
                PTN_X86_BLOCK_F64, PTN_X86_REST_F64)                                         \
    PTN_X86_DOT_PUBLIC(ptn_dot_f64_##L, ptn_dot_f64_inline_##L, double)                      \
    PTN_X86_AXPY_WITH(, ptn_axpy_f32_##L, float, VF, PTN_X86_MASKED_TAIL(VF))                \
    PTN_X86_AXPY_WITH(, ptn_axpy_f64_##L, double, VD, PTN_X86_MASKED_TAIL(VD))               \
    PTN_X86_AXPY_F32_F64(ptn_axpy_f32_f64_##L)                                               \
    PTN_X86_SUM(, ptn_sqdist_f32_##L, float, PTN_X86_OP_SQDIST, PTN_X86_BLOCK_F32, F32_REST) \
    PTN_X86_SUM(, ptn_sqdist_f64_##L, double, PTN_X86_OP_SQDIST, PTN_X86_BLOCK_F64,          \
                PTN_X86_REST_F64)                                                            \
    PTN_X86_EXP_F64(ptn_exp_f64_##L)                                                         \
    PTN_X86_DOT_BLOCK(ptn_dot_block_##L)                                                     \
    PTN_DOT_BLOCK_F32_F64(PTN_TARGET(PTN_X86_TARGET), ptn_dot_block_f32_##L,                 \
                          ptn_dot_block_f64_##L, ptn_dot_block_##L)                          \
    PTN_X86_RBF_BLOCK_F64(ptn_rbf_block_f64_##L, ptn_rbf_pd_##L)                             \
    PTN_X86_SHORT_F64(ptn_short_f64_##L, ptn_short_f64_init_##L, ptn_dot_short_f64_##L)

#endif /* PTN_HAVE_X86_SIMD */

#endif /* PTN_X86_H */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * simd_neon.c - the kernels of the neon level: Advanced SIMD for 64-bit
 * ARM.  What each kernel computes, and its guarantees, is in ptn_simd.h.
 *
 * NEON is part of every ARMv8-A core, so on aarch64 these need no run-time
 * check and no compiler flag.  On other architectures the file is empty.
 */
#include "ptn_simd.h"
#include "ptn_scan.h"

#if PTN_HAVE_NEON_SIMD

#include <arm_neon.h>
#include <math.h>

#include "ptn_exp.h"

/* Sums over a row of two vectors of T: blocks of 8 elements by BLOCK into
 * four accumulators of doubles a0..a3, what is left by REST, their sum,
 * then the last elements one at a time in scalar code by SOP
 * (PTN_SCALAR_OP_DOT or PTN_SCALAR_OP_SQDIST, ptn_scalar_sum.h).  OP(a, u, v)
 * adds what the vectors of doubles u and v give into a. */
#define PTN_NEON_OP_DOT(a, u, v) a = vfmaq_f64(a, u, v);
#define PTN_NEON_OP_SQDIST(a, u, v)                 \
    {                                               \
        const float64x2_t d_ = vsubq_f64(u, v);     \
        a = vfmaq_f64(a, d_, d_);                   \
    }

#define PTN_NEON_SUM(LINKAGE, NAME, T, OP, SOP, BLOCK, REST)                          \
    PTN_NEON_SUM_OF(LINKAGE, NAME, T, T, , vld1q_f32, OP, SOP, BLOCK, REST)

/* the same over x of TX (narrow rows, simd_neon_narrow.inc), its elements
 * read as CONV(x[i]) one at a time and as LX(p) four at a time */
#define PTN_NEON_SUM_OF(LINKAGE, NAME, TX, T, CONV, LX, OP, SOP, BLOCK, REST)         \
    LINKAGE double NAME(size_t n, const TX *x, const T *y)                            \
    {                                                                                 \
        float64x2_t a0 = vdupq_n_f64(0.0), a1 = vdupq_n_f64(0.0);                     \
        float64x2_t a2 = vdupq_n_f64(0.0), a3 = vdupq_n_f64(0.0);                     \
        double s;                                                                     \
        size_t i = 0;                                                                 \
        for (; i + 8 <= n; i += 8) {                                                  \
            BLOCK(OP, LX)                                                             \
        }                                                                             \
        REST(OP)                                                                      \
        s = vaddvq_f64(vaddq_f64(vaddq_f64(a0, a1), vaddq_f64(a2, a3)));              \
        for (; i < n; i++) {                                                          \
            SOP(s, (double)CONV(x[i]), (double)y[i])                                  \
        }                                                                             \
        return s;                                                                     \
    }

/* float32: two float vectors in their halves (converted exactly) into
 * a0..a3, nothing left for vectors; a float product is exact in double, so
 * the scalar end rounds like the fused body */
#define PTN_NEON_BLOCK_F32(OP, LX)                                                     \
    float32x4_t xa = LX(x + i), ya = vld1q_f32(y + i);                                \
    float32x4_t xb = LX(x + i + 4), yb = vld1q_f32(y + i + 4);                        \
    OP(a0, vcvt_f64_f32(vget_low_f32(xa)), vcvt_f64_f32(vget_low_f32(ya)))            \
    OP(a1, vcvt_high_f64_f32(xa), vcvt_high_f64_f32(ya))                              \
    OP(a2, vcvt_f64_f32(vget_low_f32(xb)), vcvt_f64_f32(vget_low_f32(yb)))            \
    OP(a3, vcvt_high_f64_f32(xb), vcvt_high_f64_f32(yb))
#define PTN_NEON_REST_F32(OP)

/* float64: four vectors into a0..a3, then pairs into a0 (one element is
 * left at most) */
#define PTN_NEON_BLOCK_F64(OP, LX)                                                     \
    OP(a0, vld1q_f64(x + i), vld1q_f64(y + i))                                        \
    OP(a1, vld1q_f64(x + i + 2), vld1q_f64(y + i + 2))                                \
    OP(a2, vld1q_f64(x + i + 4), vld1q_f64(y + i + 4))                                \
    OP(a3, vld1q_f64(x + i + 6), vld1q_f64(y + i + 6))
#define PTN_NEON_REST_F64(OP)                                                          \
    for (; i + 2 <= n; i += 2) {                                                      \
        OP(a0, vld1q_f64(x + i), vld1q_f64(y + i))                                    \
    }

PTN_NEON_SUM(PTN_INLINE, ptn_dot_f32_exact_neon, float, PTN_NEON_OP_DOT, PTN_SCALAR_OP_DOT,
             PTN_NEON_BLOCK_F32, PTN_NEON_REST_F32)
PTN_NEON_SUM(PTN_INLINE, ptn_dot_f64_inline_neon, double, PTN_NEON_OP_DOT, PTN_SCALAR_OP_DOT,
             PTN_NEON_BLOCK_F64, PTN_NEON_REST_F64)
PTN_NEON_SUM(, ptn_sqdist_f32_neon, float, PTN_NEON_OP_SQDIST, PTN_SCALAR_OP_SQDIST,
             PTN_NEON_BLOCK_F32, PTN_NEON_REST_F32)
PTN_NEON_SUM(, ptn_sqdist_f64_neon, double, PTN_NEON_OP_SQDIST, PTN_SCALAR_OP_SQDIST,
             PTN_NEON_BLOCK_F64, PTN_NEON_REST_F64)

/* The float32 dot product over x of TX, four elements loaded by LX(p):
 * blocks of 16, four products per lane in float32, the block in double
 * (the precision contract is in ptn_simd.h), the rest by EXACT. */
#define PTN_NEON_DOT_F32(NAME, EXACT, TX, LX)                                         \
    PTN_INLINE double NAME(size_t n, const TX *x, const float *y)                     \
    {                                                                                 \
        float64x2_t a0 = vdupq_n_f64(0.0), a1 = vdupq_n_f64(0.0);                     \
        size_t i = 0;                                                                 \
        double r;                                                                     \
        for (; i + 16 <= n; i += 16) {                                                \
            float32x4_t p = vmulq_f32(LX(x + i), vld1q_f32(y + i));                   \
            p = vfmaq_f32(p, LX(x + i + 4), vld1q_f32(y + i + 4));                    \
            p = vfmaq_f32(p, LX(x + i + 8), vld1q_f32(y + i + 8));                    \
            p = vfmaq_f32(p, LX(x + i + 12), vld1q_f32(y + i + 12));                  \
            a0 = vaddq_f64(a0, vcvt_f64_f32(vget_low_f32(p)));                        \
            a1 = vaddq_f64(a1, vcvt_high_f64_f32(p));                                 \
        }                                                                             \
        if (i == 0) {                                                                 \
            return EXACT(n, x, y);                                                    \
        }                                                                             \
        r = vaddvq_f64(vaddq_f64(a0, a1)) + EXACT(n - i, x + i, y + i);               \
        if (PTN_F32_BLOCKS_REDO(r, n)) {                                              \
            return EXACT(n, x, y);                                                    \
        }                                                                             \
        return r;                                                                     \
    }

PTN_NEON_DOT_F32(ptn_dot_f32_inline_neon, ptn_dot_f32_exact_neon, float, vld1q_f32)

/* y[i] += a * x[i] over vectors V of W elements of T, whose intrinsics
 * end in S: blocks of four vectors, then single vectors, then one element
 * at a time through lane 0 of a vector (the same fused multiply-add) */
#define PTN_NEON_AXPY(NAME, T, V, W, S)                                               \
    void NAME(size_t n, T a, const T *x, T *y)                                        \
    {                                                                                 \
        const V av = vdupq_n_##S(a);                                                  \
        size_t i = 0;                                                                 \
        for (; i + 4 * (W) <= n; i += 4 * (W)) {                                      \
            V y0 = vfmaq_##S(vld1q_##S(y + i), av, vld1q_##S(x + i));                 \
            V y1 = vfmaq_##S(vld1q_##S(y + i + (W)), av, vld1q_##S(x + i + (W)));     \
            V y2 = vfmaq_##S(vld1q_##S(y + i + 2 * (W)), av, vld1q_##S(x + i + 2 * (W))); \
            V y3 = vfmaq_##S(vld1q_##S(y + i + 3 * (W)), av, vld1q_##S(x + i + 3 * (W))); \
            vst1q_##S(y + i, y0);                                                     \
            vst1q_##S(y + i + (W), y1);                                               \
            vst1q_##S(y + i + 2 * (W), y2);                                           \
            vst1q_##S(y + i + 3 * (W), y3);                                           \
        }                                                                             \
        for (; i + (W) <= n; i += (W)) {                                              \
            vst1q_##S(y + i, vfmaq_##S(vld1q_##S(y + i), av, vld1q_##S(x + i)));      \
        }                                                                             \
        for (; i < n; i++) {                                                          \
            y[i] = vgetq_lane_##S(vfmaq_##S(vdupq_n_##S(y[i]), av, vdupq_n_##S(x[i])), 0); \
        }                                                                             \
    }

PTN_NEON_AXPY(ptn_axpy_f32_neon, float, float32x4_t, 4, f32)
PTN_NEON_AXPY(ptn_axpy_f64_neon, double, float64x2_t, 2, f64)

void ptn_axpy_f32_f64_neon(size_t n, double a, const float *x, double *y)
{
    const float64x2_t av = vdupq_n_f64(a);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float32x4_t xa = vld1q_f32(x + i), xb = vld1q_f32(x + i + 4);
        float64x2_t y0 = vfmaq_f64(vld1q_f64(y + i), av, vcvt_f64_f32(vget_low_f32(xa)));
        float64x2_t y1 = vfmaq_f64(vld1q_f64(y + i + 2), av, vcvt_high_f64_f32(xa));
        float64x2_t y2 = vfmaq_f64(vld1q_f64(y + i + 4), av, vcvt_f64_f32(vget_low_f32(xb)));
        float64x2_t y3 = vfmaq_f64(vld1q_f64(y + i + 6), av, vcvt_high_f64_f32(xb));
        vst1q_f64(y + i, y0);
        vst1q_f64(y + i + 2, y1);
        vst1q_f64(y + i + 4, y2);
        vst1q_f64(y + i + 6, y3);
    }
    for (; i < n; i++) {
        y[i] = vgetq_lane_f64(vfmaq_f64(vdupq_n_f64(y[i]), av, vdupq_n_f64((double)x[i])), 0);
    }
}

/* the public dot products, scans, plain scans, dots (ptn_simd.h) */
PTN_KERNELS_FROM_DOTS(neon)

/* a*b + c, in the argument order of PTN_EXP_POLY */
#define PTN_NEON_FMA(a, b, c) vfmaq_f64((c), (a), (b))

/* See ptn_exp.h.  Unlike x86 max, NEON's propagates NaN into xc; the lanes
 * computed from it are replaced by the input NaN at the end. */
static inline float64x2_t ptn_exp_neon(float64x2_t x)
{
    float64x2_t xc = vminq_f64(vmaxq_f64(x, vdupq_n_f64(PTN_EXP_LO)), vdupq_n_f64(PTN_EXP_HI));
    float64x2_t k = vrndnq_f64(vmulq_f64(xc, vdupq_n_f64(PTN_LOG2E)));
    float64x2_t r = vfmsq_f64(xc, k, vdupq_n_f64(PTN_LN2_HI));
    float64x2_t p, k1, k2, s1, s2, y;
    r = vfmsq_f64(r, k, vdupq_n_f64(PTN_LN2_LO));
    PTN_EXP_POLY(PTN_NEON_FMA, vdupq_n_f64, p, r);
    k1 = vrndmq_f64(vmulq_f64(k, vdupq_n_f64(0.5)));
    k2 = vsubq_f64(k, k1);
    s1 = vreinterpretq_f64_u64(vshlq_n_u64(vreinterpretq_u64_f64(vaddq_f64(k1, vdupq_n_f64(PTN_EXP_BIAS))), 52));
    s2 = vreinterpretq_f64_u64(vshlq_n_u64(vreinterpretq_u64_f64(vaddq_f64(k2, vdupq_n_f64(PTN_EXP_BIAS))), 52));
    y = vmulq_f64(vmulq_f64(p, s1), s2);
    return vbslq_f64(vceqq_f64(x, x), y, x);
}

void ptn_exp_f64_neon(size_t n, const double *x, double *y)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        float64x2_t a = ptn_exp_neon(vld1q_f64(x + i));
        float64x2_t b = ptn_exp_neon(vld1q_f64(x + i + 2));
        vst1q_f64(y + i, a);
        vst1q_f64(y + i + 2, b);
    }
    for (; i + 2 <= n; i += 2) {
        vst1q_f64(y + i, ptn_exp_neon(vld1q_f64(x + i)));
    }
    if (i < n) {
        y[i] = vgetq_lane_f64(ptn_exp_neon(vdupq_n_f64(x[i])), 0);
    }
}

/* ------------------------------------------------ blocks of dot products */

/* See ptn_x86.h: 16 outputs at a time in eight accumulators, then two,
 * then a last odd one in lane 0 of a vector (the same FMA as every lane). */
static inline void ptn_dot_block_neon(int f32, size_t m, size_t d, const void *A, size_t lda,
                                      const double *shift, size_t p, const double *BT, double *out)
{
    size_t k, i, q;
    for (k = 0; k < m; k++) {
        double *o = out + k * p;
        const size_t row = k * lda;
        for (q = 0; q + 16 <= p; q += 16) {
            float64x2_t c0 = vdupq_n_f64(0.0), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
            for (i = 0; i < d; i++) {
                const float64x2_t a = vdupq_n_f64(ptn_block_a(f32, A, row + i) - shift[i]);
                const double *b = BT + i * p + q;
                c0 = vfmaq_f64(c0, a, vld1q_f64(b));
                c1 = vfmaq_f64(c1, a, vld1q_f64(b + 2));
                c2 = vfmaq_f64(c2, a, vld1q_f64(b + 4));
                c3 = vfmaq_f64(c3, a, vld1q_f64(b + 6));
                c4 = vfmaq_f64(c4, a, vld1q_f64(b + 8));
                c5 = vfmaq_f64(c5, a, vld1q_f64(b + 10));
                c6 = vfmaq_f64(c6, a, vld1q_f64(b + 12));
                c7 = vfmaq_f64(c7, a, vld1q_f64(b + 14));
            }
            vst1q_f64(o + q, c0);
            vst1q_f64(o + q + 2, c1);
            vst1q_f64(o + q + 4, c2);
            vst1q_f64(o + q + 6, c3);
            vst1q_f64(o + q + 8, c4);
            vst1q_f64(o + q + 10, c5);
            vst1q_f64(o + q + 12, c6);
            vst1q_f64(o + q + 14, c7);
        }
        for (; q + 2 <= p; q += 2) {
            float64x2_t c0 = vdupq_n_f64(0.0);
            for (i = 0; i < d; i++) {
                c0 = vfmaq_f64(c0, vdupq_n_f64(ptn_block_a(f32, A, row + i) - shift[i]),
                               vld1q_f64(BT + i * p + q));
            }
            vst1q_f64(o + q, c0);
        }
        if (q < p) {
            float64x2_t c0 = vdupq_n_f64(0.0);
            for (i = 0; i < d; i++) {
                c0 = vfmaq_f64(c0, vdupq_n_f64(ptn_block_a(f32, A, row + i) - shift[i]),
                               vsetq_lane_f64(BT[i * p + q], vdupq_n_f64(0.0), 0));
            }
            o[q] = vgetq_lane_f64(c0, 0);
        }
    }
}

PTN_DOT_BLOCK_F32_F64(, ptn_dot_block_f32_neon, ptn_dot_block_f64_neon, ptn_dot_block_neon)

/* ------------------------------------------- Gaussian values of a block */

/* See ptn_x86.h; a last odd value goes through lane 0 of a vector. */
static inline float64x2_t ptn_rbf_neon(float64x2_t nr, float64x2_t nbv, float64x2_t dot,
                                       float64x2_t neg_gamma)
{
    float64x2_t v = vfmsq_f64(vaddq_f64(nr, nbv), vdupq_n_f64(2.0), dot);
    return ptn_exp_neon(vmulq_f64(neg_gamma, vmaxq_f64(v, vdupq_n_f64(0.0))));
}

void ptn_rbf_block_f64_neon(size_t m, size_t p, const double *na, const double *nb, double gamma,
                            double *buf)
{
    const float64x2_t ng = vdupq_n_f64(-gamma);
    size_t r, q;
    for (r = 0; r < m; r++) {
        const float64x2_t nr = vdupq_n_f64(na[r]);
        double *o = buf + r * p;
        for (q = 0; q + 2 <= p; q += 2) {
            vst1q_f64(o + q, ptn_rbf_neon(nr, vld1q_f64(nb + q), vld1q_f64(o + q), ng));
        }
        if (q < p) {
            o[q] = vgetq_lane_f64(ptn_rbf_neon(nr, vdupq_n_f64(nb[q]), vdupq_n_f64(o[q]), ng), 0);
        }
    }
}

/* narrow rows: ndot, naxpy, naxpy_f64, nscan, nscan_plain */
#include "simd_neon_narrow.inc"

#else
typedef int ptn_simd_neon_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_NEON_SIMD */

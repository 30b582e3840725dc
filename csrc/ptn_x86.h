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
 *   VD_EXP(v)              exp of every lane (ptn_exp.h's method)
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


/* sum (x[i] - y[i])^2 over doubles: four accumulators over blocks of four
 * vectors, single vectors into the first, the masked tail into the second. */
#define PTN_X86_SQDIST_F64(NAME)                                                             \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    double NAME(size_t n, const double *x, const double *y)                                  \
    {                                                                                        \
        VD a0 = VD_ZERO(), a1 = VD_ZERO(), a2 = VD_ZERO(), a3 = VD_ZERO();                   \
        VD d0, d1, d2, d3;                                                                   \
        size_t i = 0;                                                                        \
        for (; i + 4 * VD_W <= n; i += 4 * VD_W) {                                           \
            d0 = VD_SUB(VD_LOADU(x + i), VD_LOADU(y + i));                                   \
            d1 = VD_SUB(VD_LOADU(x + i + VD_W), VD_LOADU(y + i + VD_W));                     \
            d2 = VD_SUB(VD_LOADU(x + i + 2 * VD_W), VD_LOADU(y + i + 2 * VD_W));             \
            d3 = VD_SUB(VD_LOADU(x + i + 3 * VD_W), VD_LOADU(y + i + 3 * VD_W));             \
            a0 = VD_FMADD(d0, d0, a0);                                                       \
            a1 = VD_FMADD(d1, d1, a1);                                                       \
            a2 = VD_FMADD(d2, d2, a2);                                                       \
            a3 = VD_FMADD(d3, d3, a3);                                                       \
        }                                                                                    \
        for (; i + VD_W <= n; i += VD_W) {                                                   \
            d0 = VD_SUB(VD_LOADU(x + i), VD_LOADU(y + i));                                   \
            a0 = VD_FMADD(d0, d0, a0);                                                       \
        }                                                                                    \
        if (i < n) {                                                                         \
            VD_MASK m = VD_TAIL(n - i);                                                      \
            d0 = VD_SUB(VD_MASKLOAD(m, x + i), VD_MASKLOAD(m, y + i));                       \
            a1 = VD_FMADD(d0, d0, a1);                                                       \
        }                                                                                    \
        return VD_HSUM(VD_ADD(VD_ADD(a0, a1), VD_ADD(a2, a3)));                              \
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
 * depend on where it falls.  `f32` selects the type of A (the public
 * functions pass a constant, which the compiler folds). */
static inline double ptn_block_a(int f32, const void *A, size_t idx)
{
    return f32 ? (double)((const float *)A)[idx] : ((const double *)A)[idx];
}

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

/* The two public block functions of a level, over its PTN_X86_DOT_BLOCK. */
#define PTN_X86_DOT_BLOCK_F32_F64(NAME_F32, NAME_F64, BLOCK)                                 \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    void NAME_F32(size_t m, size_t d, const float *A, size_t lda, const double *shift,       \
                  size_t p, const double *BT, double *out)                                   \
    {                                                                                        \
        BLOCK(1, m, d, A, lda, shift, p, BT, out);                                           \
    }                                                                                        \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    void NAME_F64(size_t m, size_t d, const double *A, size_t lda, const double *shift,      \
                  size_t p, const double *BT, double *out)                                   \
    {                                                                                        \
        BLOCK(0, m, d, A, lda, shift, p, BT, out);                                           \
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

#endif /* PTN_HAVE_X86_SIMD */

#endif /* PTN_X86_H */

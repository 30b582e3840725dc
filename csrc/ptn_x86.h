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

/* The public kernel NAME of a level over its inlined INLINE (the scans
 * inline the dot products; the table holds these). */
#define PTN_X86_DOT_PUBLIC(NAME, INLINE, T)                                                  \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    double NAME(size_t n, const T *x, const T *y)                                            \
    {                                                                                        \
        return INLINE(n, x, y);                                                              \
    }

/* sum x[i] * y[i] over doubles: four accumulators over blocks of four
 * vectors, single vectors into the first, the masked tail into the second
 * (the contract is in ptn_simd.h, dot_f64). */
#define PTN_X86_DOT_F64(INLINE)                                                              \
    PTN_TARGET(PTN_X86_TARGET)                                                               \
    PTN_INLINE double INLINE(size_t n, const double *x, const double *y)                     \
    {                                                                                        \
        VD a0 = VD_ZERO(), a1 = VD_ZERO(), a2 = VD_ZERO(), a3 = VD_ZERO();                   \
        size_t i = 0;                                                                        \
        for (; i + 4 * VD_W <= n; i += 4 * VD_W) {                                           \
            a0 = VD_FMADD(VD_LOADU(x + i), VD_LOADU(y + i), a0);                             \
            a1 = VD_FMADD(VD_LOADU(x + i + VD_W), VD_LOADU(y + i + VD_W), a1);               \
            a2 = VD_FMADD(VD_LOADU(x + i + 2 * VD_W), VD_LOADU(y + i + 2 * VD_W), a2);       \
            a3 = VD_FMADD(VD_LOADU(x + i + 3 * VD_W), VD_LOADU(y + i + 3 * VD_W), a3);       \
        }                                                                                    \
        for (; i + VD_W <= n; i += VD_W) {                                                   \
            a0 = VD_FMADD(VD_LOADU(x + i), VD_LOADU(y + i), a0);                             \
        }                                                                                    \
        if (i < n) {                                                                         \
            VD_MASK m = VD_TAIL(n - i);                                                      \
            a1 = VD_FMADD(VD_MASKLOAD(m, x + i), VD_MASKLOAD(m, y + i), a1);                 \
        }                                                                                    \
        return VD_HSUM(VD_ADD(VD_ADD(a0, a1), VD_ADD(a2, a3)));                              \
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
 * vectors into a0, the masked tail into a1, as PTN_X86_DOT_F64 runs them.
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

#endif /* PTN_HAVE_X86_SIMD */

#endif /* PTN_X86_H */

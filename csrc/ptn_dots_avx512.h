/*
 * ptn_dots_avx512.h - dots_f32 and dots_f64 of the AVX-512 level (the
 * contract is in ptn_simd.h): one row against m weight vectors.
 *
 * Included once, by simd_avx512.c, after its dot products: four weight
 * vectors at a time share every load of x (and, for float32, every
 * conversion of x to double), each with its own accumulators, which run
 * exactly the operations ptn_dot_<type>_inline_avx512 runs on that vector:
 * the same blocks, the same fused multiply-adds into the same accumulators
 * in the same order, the same reduction, the same float32 fallback to exact
 * products.  So each result has the bits of the level's dot product.  The
 * one to three vectors left over go through the dot product itself.
 */
#ifndef PTN_DOTS_AVX512_H
#define PTN_DOTS_AVX512_H

/* a[c] = x . w[c] + a[c] over the float64 lanes of one block of 8, c < 4 */
#define PTN_D4_FMA(a, xv, off)                                              \
    a##0 = _mm512_fmadd_pd(xv, _mm512_loadu_pd(w0 + (off)), a##0);          \
    a##1 = _mm512_fmadd_pd(xv, _mm512_loadu_pd(w1 + (off)), a##1);          \
    a##2 = _mm512_fmadd_pd(xv, _mm512_loadu_pd(w2 + (off)), a##2);          \
    a##3 = _mm512_fmadd_pd(xv, _mm512_loadu_pd(w3 + (off)), a##3)

#define PTN_D4_MASKED_FMA(a, xv, m, off)                                                \
    a##0 = _mm512_fmadd_pd(xv, _mm512_maskz_loadu_pd(m, w0 + (off)), a##0);             \
    a##1 = _mm512_fmadd_pd(xv, _mm512_maskz_loadu_pd(m, w1 + (off)), a##1);             \
    a##2 = _mm512_fmadd_pd(xv, _mm512_maskz_loadu_pd(m, w2 + (off)), a##2);             \
    a##3 = _mm512_fmadd_pd(xv, _mm512_maskz_loadu_pd(m, w3 + (off)), a##3)

/* ptn_dot_f64_inline_avx512 of x with w[0..3]: blocks of 32 into four
 * accumulators, single vectors into the first, the masked tail into the
 * second. */
PTN_TARGET("avx512f")
static inline void ptn_dots4_f64_avx512(size_t n, const double *x, const double *const *w,
                                        double *out)
{
    const double *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];
    const __m512d z = _mm512_setzero_pd();
    __m512d p0 = z, p1 = z, p2 = z, p3 = z; /* accumulator a0 of each vector */
    __m512d q0 = z, q1 = z, q2 = z, q3 = z; /* a1 */
    __m512d r0 = z, r1 = z, r2 = z, r3 = z; /* a2 */
    __m512d s0 = z, s1 = z, s2 = z, s3 = z; /* a3 */
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512d x0 = _mm512_loadu_pd(x + i), x1 = _mm512_loadu_pd(x + i + 8);
        const __m512d x2 = _mm512_loadu_pd(x + i + 16), x3 = _mm512_loadu_pd(x + i + 24);
        PTN_D4_FMA(p, x0, i);
        PTN_D4_FMA(q, x1, i + 8);
        PTN_D4_FMA(r, x2, i + 16);
        PTN_D4_FMA(s, x3, i + 24);
    }
    for (; i + 8 <= n; i += 8) {
        const __m512d x0 = _mm512_loadu_pd(x + i);
        PTN_D4_FMA(p, x0, i);
    }
    if (i < n) {
        const __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        const __m512d xt = _mm512_maskz_loadu_pd(m, x + i);
        PTN_D4_MASKED_FMA(q, xt, m, i);
    }
    out[0] = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(p0, q0), _mm512_add_pd(r0, s0)));
    out[1] = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(p1, q1), _mm512_add_pd(r1, s1)));
    out[2] = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(p2, q2), _mm512_add_pd(r2, s2)));
    out[3] = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(p3, q3), _mm512_add_pd(r3, s3)));
}

/* The float32 vectors of w[c] + off at lane j as two halves in double. */
#define PTN_LO_PD(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define PTN_HI_PD(v) _mm512_cvtps_pd(ptn_high_ps_avx512(v))

/* ptn_dot_f32_exact_avx512 of x + off with w[0..3] + off, for n elements:
 * exact double products, blocks of 32 into four accumulators, one of 16
 * into the first two, the masked tail into the last two. */
PTN_TARGET("avx512f")
static inline void ptn_exact4_f32_avx512(size_t n, const float *x, const float *const *w,
                                         size_t off, double *out)
{
    const float *w0 = w[0] + off, *w1 = w[1] + off, *w2 = w[2] + off, *w3 = w[3] + off;
    const __m512d z = _mm512_setzero_pd();
    __m512d acc[4][4];
    size_t i = 0, c;
    for (c = 0; c < 4; c++) {
        acc[c][0] = acc[c][1] = acc[c][2] = acc[c][3] = z;
    }
    x += off;
    for (; i + 32 <= n; i += 32) {
        const __m512 xa = _mm512_loadu_ps(x + i), xb = _mm512_loadu_ps(x + i + 16);
        const __m512d xal = PTN_LO_PD(xa), xah = PTN_HI_PD(xa);
        const __m512d xbl = PTN_LO_PD(xb), xbh = PTN_HI_PD(xb);
        const float *wc[4] = {w0 + i, w1 + i, w2 + i, w3 + i};
        for (c = 0; c < 4; c++) {
            const __m512 ya = _mm512_loadu_ps(wc[c]), yb = _mm512_loadu_ps(wc[c] + 16);
            acc[c][0] = _mm512_fmadd_pd(xal, PTN_LO_PD(ya), acc[c][0]);
            acc[c][1] = _mm512_fmadd_pd(xah, PTN_HI_PD(ya), acc[c][1]);
            acc[c][2] = _mm512_fmadd_pd(xbl, PTN_LO_PD(yb), acc[c][2]);
            acc[c][3] = _mm512_fmadd_pd(xbh, PTN_HI_PD(yb), acc[c][3]);
        }
    }
    for (; i + 16 <= n; i += 16) {
        const __m512 xa = _mm512_loadu_ps(x + i);
        const __m512d xal = PTN_LO_PD(xa), xah = PTN_HI_PD(xa);
        const float *wc[4] = {w0 + i, w1 + i, w2 + i, w3 + i};
        for (c = 0; c < 4; c++) {
            const __m512 ya = _mm512_loadu_ps(wc[c]);
            acc[c][0] = _mm512_fmadd_pd(xal, PTN_LO_PD(ya), acc[c][0]);
            acc[c][1] = _mm512_fmadd_pd(xah, PTN_HI_PD(ya), acc[c][1]);
        }
    }
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        const __m512 xt = _mm512_maskz_loadu_ps(m, x + i);
        const __m512d xtl = PTN_LO_PD(xt), xth = PTN_HI_PD(xt);
        const float *wc[4] = {w0 + i, w1 + i, w2 + i, w3 + i};
        for (c = 0; c < 4; c++) {
            const __m512 yt = _mm512_maskz_loadu_ps(m, wc[c]);
            acc[c][2] = _mm512_fmadd_pd(xtl, PTN_LO_PD(yt), acc[c][2]);
            acc[c][3] = _mm512_fmadd_pd(xth, PTN_HI_PD(yt), acc[c][3]);
        }
    }
    for (c = 0; c < 4; c++) {
        out[c] = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(acc[c][0], acc[c][1]),
                                                    _mm512_add_pd(acc[c][2], acc[c][3])));
    }
}

/* The blocks of 64 of x[0, nb) against w[0..3] (nb a multiple of 64, not
 * 0), each summed in double as ptn_dot_f32_blocks_avx512 sums them, the
 * four sharing every load of x. */
PTN_TARGET("avx512f")
static inline void ptn_blocks4_f32_avx512(size_t nb, const float *x, const float *const *w,
                                          double *out)
{
    const __m512d z = _mm512_setzero_pd();
    __m512d lo[4] = {z, z, z, z}, hi[4] = {z, z, z, z};
    size_t i, c;
    for (i = 0; i < nb; i += 64) {
        const __m512 x0 = _mm512_loadu_ps(x + i), x1 = _mm512_loadu_ps(x + i + 16);
        const __m512 x2 = _mm512_loadu_ps(x + i + 32), x3 = _mm512_loadu_ps(x + i + 48);
        for (c = 0; c < 4; c++) {
            const float *y = w[c] + i;
            __m512 p = _mm512_mul_ps(x0, _mm512_loadu_ps(y));
            p = _mm512_fmadd_ps(x1, _mm512_loadu_ps(y + 16), p);
            p = _mm512_fmadd_ps(x2, _mm512_loadu_ps(y + 32), p);
            p = _mm512_fmadd_ps(x3, _mm512_loadu_ps(y + 48), p);
            lo[c] = _mm512_add_pd(lo[c], PTN_LO_PD(p));
            hi[c] = _mm512_add_pd(hi[c], PTN_HI_PD(p));
        }
    }
    for (c = 0; c < 4; c++) {
        out[c] = _mm512_reduce_add_pd(_mm512_add_pd(lo[c], hi[c]));
    }
}

/* ptn_dot_f32_inline_avx512 of x with w[0..3]: blocks of 64 whose lanes add
 * four products in float32, the blocks in double; the rest exact; the whole
 * again exactly when the blocks' sum is out of float32's range. */
PTN_TARGET("avx512f")
static inline void ptn_dots4_f32_avx512(size_t n, const float *x, const float *const *w,
                                        double *out)
{
    const size_t nb = n & ~(size_t)63;
    double blocks[4], tail[4];
    size_t c;
    if (nb == 0) {
        ptn_exact4_f32_avx512(n, x, w, 0, out);
        return;
    }
    ptn_blocks4_f32_avx512(nb, x, w, blocks);
    ptn_exact4_f32_avx512(n - nb, x, w, nb, tail);
    for (c = 0; c < 4; c++) {
        const double r = blocks[c] + tail[c];
        out[c] = PTN_F32_BLOCKS_REDO(r, n) ? ptn_dot_f32_exact_avx512(n, x, w[c]) : r;
    }
}

PTN_TARGET("avx512f")
void ptn_dots_f32_avx512(size_t n, const float *x, const float *const *w, size_t m, double *out)
{
    size_t c = 0;
    for (; c + 4 <= m; c += 4) {
        ptn_dots4_f32_avx512(n, x, w + c, out + c);
    }
    for (; c < m; c++) {
        out[c] = ptn_dot_f32_inline_avx512(n, x, w[c]);
    }
}

/* A row's exact tail (its last len = n % 64 elements, all of them below
 * 64) converted to double once for every weight vector it is scored
 * against, in the groups of ptn_dot_f32_exact_avx512's loops: one of 32
 * (x32), one of 16 (x16), the masked rest (xr).  The flags are the same on
 * every row of an array, so always predicted. */
typedef struct ptn_xtail_avx512 {
    __m512d x32[4], x16[2], xr[2];
    size_t at16, at_rem;
    int has32, has16, has_rem, rem_hi;
} ptn_xtail_avx512;

PTN_TARGET("avx512f")
static inline void ptn_xtail_init_avx512(ptn_xtail_avx512 *t, size_t len, const float *x)
{
    const __m512d z = _mm512_setzero_pd();
    t->has32 = len >= 32;
    t->at16 = t->has32 ? 32 : 0;
    t->has16 = len - t->at16 >= 16;
    t->at_rem = t->at16 + (t->has16 ? 16 : 0);
    t->has_rem = t->at_rem < len;
    t->rem_hi = len - t->at_rem > 8;
    t->x32[0] = t->x32[1] = t->x32[2] = t->x32[3] = z;
    t->x16[0] = t->x16[1] = t->xr[0] = t->xr[1] = z;
    if (t->has32) {
        t->x32[0] = PTN_CVT8(x);
        t->x32[1] = PTN_CVT8(x + 8);
        t->x32[2] = PTN_CVT8(x + 16);
        t->x32[3] = PTN_CVT8(x + 24);
    }
    if (t->has16) {
        t->x16[0] = PTN_CVT8(x + t->at16);
        t->x16[1] = PTN_CVT8(x + t->at16 + 8);
    }
    if (t->has_rem) {
        const __m512 r = _mm512_maskz_loadu_ps((__mmask16)((1u << (len - t->at_rem)) - 1u),
                                               x + t->at_rem);
        t->xr[0] = PTN_LO_PD(r);
        t->xr[1] = PTN_HI_PD(r);
    }
}

/* ptn_dot_f32_exact_avx512's lanes (before their sum) over the tail t
 * against weights wt given
 * in double (zeros past the tail): the same lanes, products, accumulators
 * and order, so the same bits (a product of two floats is exact in double,
 * converted before or after).  The groups that are absent, and the high
 * half of a rest of 8 or fewer, add only +0 products to lanes that are
 * never -0 (they start at +0, and an exact zero sum rounds to +0), so
 * skipping them changes no bit. */
PTN_TARGET("avx512f")
static inline __m512d ptn_xtail_acc_avx512(const ptn_xtail_avx512 *t, const double *wt)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
    if (t->has32) {
        a0 = _mm512_fmadd_pd(t->x32[0], _mm512_loadu_pd(wt), a0);
        a1 = _mm512_fmadd_pd(t->x32[1], _mm512_loadu_pd(wt + 8), a1);
        a2 = _mm512_fmadd_pd(t->x32[2], _mm512_loadu_pd(wt + 16), a2);
        a3 = _mm512_fmadd_pd(t->x32[3], _mm512_loadu_pd(wt + 24), a3);
    }
    if (t->has16) {
        a0 = _mm512_fmadd_pd(t->x16[0], _mm512_loadu_pd(wt + t->at16), a0);
        a1 = _mm512_fmadd_pd(t->x16[1], _mm512_loadu_pd(wt + t->at16 + 8), a1);
    }
    if (t->has_rem) {
        a2 = _mm512_fmadd_pd(t->xr[0], _mm512_loadu_pd(wt + t->at_rem), a2);
        if (t->rem_hi) {
            a3 = _mm512_fmadd_pd(t->xr[1], _mm512_loadu_pd(wt + t->at_rem + 8), a3);
        }
    }
    return _mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3));
}

/* dots_f32 with the tails' weights in double: the row's tail converted
 * once for all m vectors, each vector's blocks as ptn_dot_f32_inline_avx512
 * sums them (four vectors sharing the loads of x), the same fallback. */
PTN_TARGET("avx512f")
void ptn_dots_f32_tails_avx512(size_t n, const float *x, const float *const *w,
                               const double *const *wt, size_t m, double *out)
{
    const size_t nb = PTN_F32_TAIL_AT(n);
    ptn_xtail_avx512 t;
    size_t c = 0, q;
    ptn_xtail_init_avx512(&t, n - nb, x + nb);
    if (nb == 0) {
        for (; c < m; c++) {
            out[c] = _mm512_reduce_add_pd(ptn_xtail_acc_avx512(&t, wt[c]));
        }
        return;
    }
    for (; c < m; c += 4) {
        double blocks[4];
        const size_t g = m - c < 4 ? m - c : 4;
        if (g == 4) {
            ptn_blocks4_f32_avx512(nb, x, w + c, blocks);
        } else {
            for (q = 0; q < g; q++) {
                blocks[q] = ptn_dot_f32_blocks_avx512(nb, x, w[c + q]);
            }
        }
        for (q = 0; q < g; q++) {
            const double r = blocks[q] + _mm512_reduce_add_pd(ptn_xtail_acc_avx512(&t, wt[c + q]));
            out[c + q] = PTN_F32_BLOCKS_REDO(r, n) ? ptn_dot_f32_exact_avx512(n, x, w[c + q]) : r;
        }
    }
}

PTN_TARGET("avx512f")
void ptn_dots_f64_avx512(size_t n, const double *x, const double *const *w, size_t m,
                         double *out)
{
    size_t c = 0;
    for (; c + 4 <= m; c += 4) {
        ptn_dots4_f64_avx512(n, x, w + c, out + c);
    }
    for (; c < m; c++) {
        out[c] = ptn_dot_f64_inline_avx512(n, x, w[c]);
    }
}

#undef PTN_D4_FMA
#undef PTN_D4_MASKED_FMA
#undef PTN_LO_PD
#undef PTN_HI_PD

#endif /* PTN_DOTS_AVX512_H */

/*
 * ptn_dots_avx2.h - dots_f32 and dots_f64 of the AVX2 level (the contract
 * is in ptn_simd.h): one row against m weight vectors.
 *
 * Included once, by simd_avx2.c, after its dot products.  As at AVX-512
 * (ptn_dots_avx512.h), several weight vectors share every load of x (and,
 * for float32, every conversion of x to double), each with its own
 * accumulators running exactly the operations of ptn_dot_<type>_inline_avx2
 * on that vector, so each result has the bits of the level's dot product.
 * Two vectors at a time: four accumulators each and the vectors of x fill
 * the sixteen registers.  A vector left over goes through the dot product
 * itself.
 */
#ifndef PTN_DOTS_AVX2_H
#define PTN_DOTS_AVX2_H

#define PTN_DOTS2 2

/* ptn_dot_f64_inline_avx2 of x with w[0..1]: blocks of 16 into four
 * accumulators, single vectors into the first, the masked tail into the
 * second. */
PTN_TARGET("avx2,fma")
static inline void ptn_dots2_f64_avx2(size_t n, const double *x, const double *const *w,
                                      double *out)
{
    const __m256d z = _mm256_setzero_pd();
    __m256d a[PTN_DOTS2][4];
    size_t i = 0, c;
    for (c = 0; c < PTN_DOTS2; c++) {
        a[c][0] = a[c][1] = a[c][2] = a[c][3] = z;
    }
    for (; i + 16 <= n; i += 16) {
        const __m256d x0 = _mm256_loadu_pd(x + i), x1 = _mm256_loadu_pd(x + i + 4);
        const __m256d x2 = _mm256_loadu_pd(x + i + 8), x3 = _mm256_loadu_pd(x + i + 12);
        for (c = 0; c < PTN_DOTS2; c++) {
            const double *y = w[c] + i;
            a[c][0] = _mm256_fmadd_pd(x0, _mm256_loadu_pd(y), a[c][0]);
            a[c][1] = _mm256_fmadd_pd(x1, _mm256_loadu_pd(y + 4), a[c][1]);
            a[c][2] = _mm256_fmadd_pd(x2, _mm256_loadu_pd(y + 8), a[c][2]);
            a[c][3] = _mm256_fmadd_pd(x3, _mm256_loadu_pd(y + 12), a[c][3]);
        }
    }
    for (; i + 4 <= n; i += 4) {
        const __m256d x0 = _mm256_loadu_pd(x + i);
        for (c = 0; c < PTN_DOTS2; c++) {
            a[c][0] = _mm256_fmadd_pd(x0, _mm256_loadu_pd(w[c] + i), a[c][0]);
        }
    }
    if (i < n) {
        const __m256i m = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (n - i)));
        const __m256d xt = _mm256_maskload_pd(x + i, m);
        for (c = 0; c < PTN_DOTS2; c++) {
            a[c][1] = _mm256_fmadd_pd(xt, _mm256_maskload_pd(w[c] + i, m), a[c][1]);
        }
    }
    for (c = 0; c < PTN_DOTS2; c++) {
        out[c] = ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a[c][0], a[c][1]),
                                                _mm256_add_pd(a[c][2], a[c][3])));
    }
}

#define PTN_LO_PD(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define PTN_HI_PD(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))

/* ptn_dot_f32_exact_avx2 of x + off with w[0..1] + off, for n elements:
 * exact double products, blocks of 16 into four accumulators, groups of 4
 * into the first, the masked tail into the second. */
PTN_TARGET("avx2,fma")
static inline void ptn_exact2_f32_avx2(size_t n, const float *x, const float *const *w,
                                       size_t off, double *out)
{
    const __m256d z = _mm256_setzero_pd();
    const float *wc[PTN_DOTS2];
    __m256d a[PTN_DOTS2][4];
    size_t i = 0, c;
    for (c = 0; c < PTN_DOTS2; c++) {
        a[c][0] = a[c][1] = a[c][2] = a[c][3] = z;
        wc[c] = w[c] + off;
    }
    x += off;
    for (; i + 16 <= n; i += 16) {
        const __m256 xa = _mm256_loadu_ps(x + i), xb = _mm256_loadu_ps(x + i + 8);
        const __m256d xal = PTN_LO_PD(xa), xah = PTN_HI_PD(xa);
        const __m256d xbl = PTN_LO_PD(xb), xbh = PTN_HI_PD(xb);
        for (c = 0; c < PTN_DOTS2; c++) {
            const __m256 ya = _mm256_loadu_ps(wc[c] + i), yb = _mm256_loadu_ps(wc[c] + i + 8);
            a[c][0] = _mm256_fmadd_pd(xal, PTN_LO_PD(ya), a[c][0]);
            a[c][1] = _mm256_fmadd_pd(xah, PTN_HI_PD(ya), a[c][1]);
            a[c][2] = _mm256_fmadd_pd(xbl, PTN_LO_PD(yb), a[c][2]);
            a[c][3] = _mm256_fmadd_pd(xbh, PTN_HI_PD(yb), a[c][3]);
        }
    }
    for (; i + 4 <= n; i += 4) {
        const __m256d xv = _mm256_cvtps_pd(_mm_loadu_ps(x + i));
        for (c = 0; c < PTN_DOTS2; c++) {
            a[c][0] = _mm256_fmadd_pd(xv, _mm256_cvtps_pd(_mm_loadu_ps(wc[c] + i)), a[c][0]);
        }
    }
    if (i < n) {
        const __m128i m = _mm_loadu_si128((const __m128i *)(ptn_tail_mask32 + 8 - (n - i)));
        const __m256d xt = _mm256_cvtps_pd(_mm_maskload_ps(x + i, m));
        for (c = 0; c < PTN_DOTS2; c++) {
            a[c][1] = _mm256_fmadd_pd(xt, _mm256_cvtps_pd(_mm_maskload_ps(wc[c] + i, m)),
                                      a[c][1]);
        }
    }
    for (c = 0; c < PTN_DOTS2; c++) {
        out[c] = ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a[c][0], a[c][1]),
                                                _mm256_add_pd(a[c][2], a[c][3])));
    }
}

/* ptn_dot_f32_inline_avx2 of x with w[0..1]: blocks of 32 whose lanes add
 * four products in float32, the blocks in double; the rest exact; the whole
 * again exactly when the blocks' sum is out of float32's range. */
PTN_TARGET("avx2,fma")
static inline void ptn_dots2_f32_avx2(size_t n, const float *x, const float *const *w,
                                      double *out)
{
    const size_t nb = n & ~(size_t)31;
    const __m256d z = _mm256_setzero_pd();
    __m256d lo[PTN_DOTS2], hi[PTN_DOTS2];
    double tail[PTN_DOTS2];
    size_t i, c;
    if (nb == 0) {
        ptn_exact2_f32_avx2(n, x, w, 0, out);
        return;
    }
    for (c = 0; c < PTN_DOTS2; c++) {
        lo[c] = hi[c] = z;
    }
    for (i = 0; i < nb; i += 32) {
        const __m256 x0 = _mm256_loadu_ps(x + i), x1 = _mm256_loadu_ps(x + i + 8);
        const __m256 x2 = _mm256_loadu_ps(x + i + 16), x3 = _mm256_loadu_ps(x + i + 24);
        for (c = 0; c < PTN_DOTS2; c++) {
            const float *y = w[c] + i;
            __m256 p = _mm256_mul_ps(x0, _mm256_loadu_ps(y));
            p = _mm256_fmadd_ps(x1, _mm256_loadu_ps(y + 8), p);
            p = _mm256_fmadd_ps(x2, _mm256_loadu_ps(y + 16), p);
            p = _mm256_fmadd_ps(x3, _mm256_loadu_ps(y + 24), p);
            lo[c] = _mm256_add_pd(lo[c], PTN_LO_PD(p));
            hi[c] = _mm256_add_pd(hi[c], PTN_HI_PD(p));
        }
    }
    ptn_exact2_f32_avx2(n - nb, x, w, nb, tail);
    for (c = 0; c < PTN_DOTS2; c++) {
        const double r = ptn_hsum_pd_avx2(_mm256_add_pd(lo[c], hi[c])) + tail[c];
        out[c] = PTN_F32_BLOCKS_REDO(r, n) ? ptn_dot_f32_exact_avx2(n, x, w[c]) : r;
    }
}

PTN_TARGET("avx2,fma")
void ptn_dots_f32_avx2(size_t n, const float *x, const float *const *w, size_t m, double *out)
{
    size_t c = 0;
    for (; c + PTN_DOTS2 <= m; c += PTN_DOTS2) {
        ptn_dots2_f32_avx2(n, x, w + c, out + c);
    }
    for (; c < m; c++) {
        out[c] = ptn_dot_f32_inline_avx2(n, x, w[c]);
    }
}

PTN_TARGET("avx2,fma")
void ptn_dots_f64_avx2(size_t n, const double *x, const double *const *w, size_t m,
                       double *out)
{
    size_t c = 0;
    for (; c + PTN_DOTS2 <= m; c += PTN_DOTS2) {
        ptn_dots2_f64_avx2(n, x, w + c, out + c);
    }
    for (; c < m; c++) {
        out[c] = ptn_dot_f64_inline_avx2(n, x, w[c]);
    }
}

#undef PTN_DOTS2
#undef PTN_LO_PD
#undef PTN_HI_PD

#endif /* PTN_DOTS_AVX2_H */

/*
 * kernels_x86.c - AVX2+FMA and AVX-512F kernels.
 *
 * This file is compiled for the baseline x86 instruction set like every other
 * file; each function below enables its instruction set with PTN_TARGET, and
 * is only ever called through the dispatch table after the CPU check
 * (cpu.c).  Tails use masked loads and stores instead of scalar loops, so
 * every element goes through the same fused arithmetic.
 */
#include "ptn_kernels.h"

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "kernels_x86.c must be compiled for the baseline instruction set; the AVX code is enabled per function"
#endif

#if PTN_HAVE_X86_KERNELS

#include <immintrin.h>

#include "ptn_exp.h"

/* Loading 8 int32 (or 4 int64) starting at offset 8 - r (4 - r) yields a mask
 * whose first r lanes are set. */
static const int32_t ptn_tail_mask32[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
static const int64_t ptn_tail_mask64[8] = {-1, -1, -1, -1, 0, 0, 0, 0};

/* ------------------------------------------------------------------ AVX2 */

PTN_TARGET("avx2,fma")
static inline double ptn_hsum_pd_avx2(__m256d v)
{
    __m128d lo = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
}

PTN_TARGET("avx2,fma")
double ptn_dot_f32_avx2(size_t n, const float *x, const float *y)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 xa = _mm256_loadu_ps(x + i), ya = _mm256_loadu_ps(y + i);
        __m256 xb = _mm256_loadu_ps(x + i + 8), yb = _mm256_loadu_ps(y + i + 8);
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xa)),
                             _mm256_cvtps_pd(_mm256_castps256_ps128(ya)), a0);
        a1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xa, 1)),
                             _mm256_cvtps_pd(_mm256_extractf128_ps(ya, 1)), a1);
        a2 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xb)),
                             _mm256_cvtps_pd(_mm256_castps256_ps128(yb)), a2);
        a3 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xb, 1)),
                             _mm256_cvtps_pd(_mm256_extractf128_ps(yb, 1)), a3);
    }
    for (; i + 4 <= n; i += 4) {
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)),
                             _mm256_cvtps_pd(_mm_loadu_ps(y + i)), a0);
    }
    if (i < n) {
        __m128i m = _mm_loadu_si128((const __m128i *)(ptn_tail_mask32 + 8 - (n - i)));
        a1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_maskload_ps(x + i, m)),
                             _mm256_cvtps_pd(_mm_maskload_ps(y + i, m)), a1);
    }
    return ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

PTN_TARGET("avx2,fma")
double ptn_dot_f64_avx2(size_t n, const double *x, const double *y)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        a0 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), a0);
        a1 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(y + i + 4), a1);
        a2 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 8), _mm256_loadu_pd(y + i + 8), a2);
        a3 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 12), _mm256_loadu_pd(y + i + 12), a3);
    }
    for (; i + 4 <= n; i += 4) {
        a0 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), a0);
    }
    if (i < n) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (n - i)));
        a1 = _mm256_fmadd_pd(_mm256_maskload_pd(x + i, m), _mm256_maskload_pd(y + i, m), a1);
    }
    return ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

PTN_TARGET("avx2,fma")
void ptn_axpy_f32_avx2(size_t n, float a, const float *x, float *y)
{
    const __m256 av = _mm256_set1_ps(a);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256 y0 = _mm256_fmadd_ps(av, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i));
        __m256 y1 = _mm256_fmadd_ps(av, _mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8));
        __m256 y2 = _mm256_fmadd_ps(av, _mm256_loadu_ps(x + i + 16), _mm256_loadu_ps(y + i + 16));
        __m256 y3 = _mm256_fmadd_ps(av, _mm256_loadu_ps(x + i + 24), _mm256_loadu_ps(y + i + 24));
        _mm256_storeu_ps(y + i, y0);
        _mm256_storeu_ps(y + i + 8, y1);
        _mm256_storeu_ps(y + i + 16, y2);
        _mm256_storeu_ps(y + i + 24, y3);
    }
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(av, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
    }
    if (i < n) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask32 + 8 - (n - i)));
        _mm256_maskstore_ps(y + i, m, _mm256_fmadd_ps(av, _mm256_maskload_ps(x + i, m),
                                                      _mm256_maskload_ps(y + i, m)));
    }
}

PTN_TARGET("avx2,fma")
void ptn_axpy_f64_avx2(size_t n, double a, const double *x, double *y)
{
    const __m256d av = _mm256_set1_pd(a);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256d y0 = _mm256_fmadd_pd(av, _mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i));
        __m256d y1 = _mm256_fmadd_pd(av, _mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(y + i + 4));
        __m256d y2 = _mm256_fmadd_pd(av, _mm256_loadu_pd(x + i + 8), _mm256_loadu_pd(y + i + 8));
        __m256d y3 = _mm256_fmadd_pd(av, _mm256_loadu_pd(x + i + 12), _mm256_loadu_pd(y + i + 12));
        _mm256_storeu_pd(y + i, y0);
        _mm256_storeu_pd(y + i + 4, y1);
        _mm256_storeu_pd(y + i + 8, y2);
        _mm256_storeu_pd(y + i + 12, y3);
    }
    for (; i + 4 <= n; i += 4) {
        _mm256_storeu_pd(y + i, _mm256_fmadd_pd(av, _mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i)));
    }
    if (i < n) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (n - i)));
        _mm256_maskstore_pd(y + i, m, _mm256_fmadd_pd(av, _mm256_maskload_pd(x + i, m),
                                                      _mm256_maskload_pd(y + i, m)));
    }
}

/* --------------------------------------------------------------- AVX-512F */

/* The upper eight floats of a 16-float register, using AVX-512F only (the
 * 32x8 extract would need AVX-512DQ). */
PTN_TARGET("avx512f")
static inline __m256 ptn_high_ps_avx512(__m512 v)
{
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

PTN_TARGET("avx512f")
double ptn_dot_f32_avx512(size_t n, const float *x, const float *y)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512 xa = _mm512_loadu_ps(x + i), ya = _mm512_loadu_ps(y + i);
        __m512 xb = _mm512_loadu_ps(x + i + 16), yb = _mm512_loadu_ps(y + i + 16);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xa)),
                             _mm512_cvtps_pd(_mm512_castps512_ps256(ya)), a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xa)),
                             _mm512_cvtps_pd(ptn_high_ps_avx512(ya)), a1);
        a2 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xb)),
                             _mm512_cvtps_pd(_mm512_castps512_ps256(yb)), a2);
        a3 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xb)),
                             _mm512_cvtps_pd(ptn_high_ps_avx512(yb)), a3);
    }
    for (; i + 16 <= n; i += 16) {
        __m512 xa = _mm512_loadu_ps(x + i), ya = _mm512_loadu_ps(y + i);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xa)),
                             _mm512_cvtps_pd(_mm512_castps512_ps256(ya)), a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xa)),
                             _mm512_cvtps_pd(ptn_high_ps_avx512(ya)), a1);
    }
    if (i < n) {
        __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        __m512 xt = _mm512_maskz_loadu_ps(m, x + i), yt = _mm512_maskz_loadu_ps(m, y + i);
        a2 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xt)),
                             _mm512_cvtps_pd(_mm512_castps512_ps256(yt)), a2);
        a3 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xt)),
                             _mm512_cvtps_pd(ptn_high_ps_avx512(yt)), a3);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

PTN_TARGET("avx512f")
double ptn_dot_f64_avx512(size_t n, const double *x, const double *y)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), a0);
        a1 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(y + i + 8), a1);
        a2 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 16), _mm512_loadu_pd(y + i + 16), a2);
        a3 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 24), _mm512_loadu_pd(y + i + 24), a3);
    }
    for (; i + 8 <= n; i += 8) {
        a0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), a0);
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        a1 = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, x + i), _mm512_maskz_loadu_pd(m, y + i), a1);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

PTN_TARGET("avx512f")
void ptn_axpy_f32_avx512(size_t n, float a, const float *x, float *y)
{
    const __m512 av = _mm512_set1_ps(a);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512 y0 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i));
        __m512 y1 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(y + i + 16));
        __m512 y2 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + i + 32), _mm512_loadu_ps(y + i + 32));
        __m512 y3 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + i + 48), _mm512_loadu_ps(y + i + 48));
        _mm512_storeu_ps(y + i, y0);
        _mm512_storeu_ps(y + i + 16, y1);
        _mm512_storeu_ps(y + i + 32, y2);
        _mm512_storeu_ps(y + i + 48, y3);
    }
    for (; i + 16 <= n; i += 16) {
        _mm512_storeu_ps(y + i, _mm512_fmadd_ps(av, _mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i)));
    }
    if (i < n) {
        __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(y + i, m, _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m, x + i),
                                                         _mm512_maskz_loadu_ps(m, y + i)));
    }
}

PTN_TARGET("avx512f")
void ptn_axpy_f64_avx512(size_t n, double a, const double *x, double *y)
{
    const __m512d av = _mm512_set1_pd(a);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512d y0 = _mm512_fmadd_pd(av, _mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i));
        __m512d y1 = _mm512_fmadd_pd(av, _mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(y + i + 8));
        __m512d y2 = _mm512_fmadd_pd(av, _mm512_loadu_pd(x + i + 16), _mm512_loadu_pd(y + i + 16));
        __m512d y3 = _mm512_fmadd_pd(av, _mm512_loadu_pd(x + i + 24), _mm512_loadu_pd(y + i + 24));
        _mm512_storeu_pd(y + i, y0);
        _mm512_storeu_pd(y + i + 8, y1);
        _mm512_storeu_pd(y + i + 16, y2);
        _mm512_storeu_pd(y + i + 24, y3);
    }
    for (; i + 8 <= n; i += 8) {
        _mm512_storeu_pd(y + i, _mm512_fmadd_pd(av, _mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i)));
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_pd(y + i, m, _mm512_fmadd_pd(av, _mm512_maskz_loadu_pd(m, x + i),
                                                         _mm512_maskz_loadu_pd(m, y + i)));
    }
}


/* ----------------------------------------- squared distances and exp (AVX2) */

PTN_TARGET("avx2,fma")
double ptn_sqdist_f32_avx2(size_t n, const float *x, const float *y)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    __m256d d;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 xa = _mm256_loadu_ps(x + i), ya = _mm256_loadu_ps(y + i);
        __m256 xb = _mm256_loadu_ps(x + i + 8), yb = _mm256_loadu_ps(y + i + 8);
        d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xa)),
                          _mm256_cvtps_pd(_mm256_castps256_ps128(ya)));
        a0 = _mm256_fmadd_pd(d, d, a0);
        d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xa, 1)),
                          _mm256_cvtps_pd(_mm256_extractf128_ps(ya, 1)));
        a1 = _mm256_fmadd_pd(d, d, a1);
        d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xb)),
                          _mm256_cvtps_pd(_mm256_castps256_ps128(yb)));
        a2 = _mm256_fmadd_pd(d, d, a2);
        d = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xb, 1)),
                          _mm256_cvtps_pd(_mm256_extractf128_ps(yb, 1)));
        a3 = _mm256_fmadd_pd(d, d, a3);
    }
    for (; i + 4 <= n; i += 4) {
        d = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), _mm256_cvtps_pd(_mm_loadu_ps(y + i)));
        a0 = _mm256_fmadd_pd(d, d, a0);
    }
    if (i < n) {
        __m128i m = _mm_loadu_si128((const __m128i *)(ptn_tail_mask32 + 8 - (n - i)));
        d = _mm256_sub_pd(_mm256_cvtps_pd(_mm_maskload_ps(x + i, m)),
                          _mm256_cvtps_pd(_mm_maskload_ps(y + i, m)));
        a1 = _mm256_fmadd_pd(d, d, a1);
    }
    return ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

PTN_TARGET("avx2,fma")
double ptn_sqdist_f64_avx2(size_t n, const double *x, const double *y)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    __m256d d0, d1, d2, d3;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        d0 = _mm256_sub_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i));
        d1 = _mm256_sub_pd(_mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(y + i + 4));
        d2 = _mm256_sub_pd(_mm256_loadu_pd(x + i + 8), _mm256_loadu_pd(y + i + 8));
        d3 = _mm256_sub_pd(_mm256_loadu_pd(x + i + 12), _mm256_loadu_pd(y + i + 12));
        a0 = _mm256_fmadd_pd(d0, d0, a0);
        a1 = _mm256_fmadd_pd(d1, d1, a1);
        a2 = _mm256_fmadd_pd(d2, d2, a2);
        a3 = _mm256_fmadd_pd(d3, d3, a3);
    }
    for (; i + 4 <= n; i += 4) {
        d0 = _mm256_sub_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i));
        a0 = _mm256_fmadd_pd(d0, d0, a0);
    }
    if (i < n) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (n - i)));
        d0 = _mm256_sub_pd(_mm256_maskload_pd(x + i, m), _mm256_maskload_pd(y + i, m));
        a1 = _mm256_fmadd_pd(d0, d0, a1);
    }
    return ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

/* exp: the method and its constants are in ptn_exp.h */
PTN_TARGET("avx2,fma")
static inline __m256d ptn_exp_pd_avx2(__m256d x)
{
    /* max returns its second operand when the first is NaN: xc is finite */
    __m256d xc = _mm256_min_pd(_mm256_max_pd(x, _mm256_set1_pd(PTN_EXP_LO)), _mm256_set1_pd(PTN_EXP_HI));
    __m256d k = _mm256_round_pd(_mm256_mul_pd(xc, _mm256_set1_pd(PTN_LOG2E)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(PTN_LN2_HI), xc);
    __m256d p, k1, k2, s1, s2, y;
    r = _mm256_fnmadd_pd(k, _mm256_set1_pd(PTN_LN2_LO), r);
    PTN_EXP_POLY(_mm256_fmadd_pd, _mm256_set1_pd, p, r);
    k1 = _mm256_floor_pd(_mm256_mul_pd(k, _mm256_set1_pd(0.5)));
    k2 = _mm256_sub_pd(k, k1);
    s1 = _mm256_castsi256_pd(_mm256_slli_epi64(
        _mm256_castpd_si256(_mm256_add_pd(k1, _mm256_set1_pd(PTN_EXP_BIAS))), 52));
    s2 = _mm256_castsi256_pd(_mm256_slli_epi64(
        _mm256_castpd_si256(_mm256_add_pd(k2, _mm256_set1_pd(PTN_EXP_BIAS))), 52));
    y = _mm256_mul_pd(_mm256_mul_pd(p, s1), s2);
    return _mm256_blendv_pd(y, x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
}

PTN_TARGET("avx2,fma")
void ptn_exp_f64_avx2(size_t n, const double *x, double *y)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256d a = ptn_exp_pd_avx2(_mm256_loadu_pd(x + i));
        __m256d b = ptn_exp_pd_avx2(_mm256_loadu_pd(x + i + 4));
        _mm256_storeu_pd(y + i, a);
        _mm256_storeu_pd(y + i + 4, b);
    }
    for (; i + 4 <= n; i += 4) {
        _mm256_storeu_pd(y + i, ptn_exp_pd_avx2(_mm256_loadu_pd(x + i)));
    }
    if (i < n) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (n - i)));
        _mm256_maskstore_pd(y + i, m, ptn_exp_pd_avx2(_mm256_maskload_pd(x + i, m)));
    }
}

/* -------------------------------------- squared distances and exp (AVX-512F) */

PTN_TARGET("avx512f")
double ptn_sqdist_f32_avx512(size_t n, const float *x, const float *y)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
    __m512d d;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512 xa = _mm512_loadu_ps(x + i), ya = _mm512_loadu_ps(y + i);
        __m512 xb = _mm512_loadu_ps(x + i + 16), yb = _mm512_loadu_ps(y + i + 16);
        d = _mm512_sub_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xa)),
                          _mm512_cvtps_pd(_mm512_castps512_ps256(ya)));
        a0 = _mm512_fmadd_pd(d, d, a0);
        d = _mm512_sub_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xa)), _mm512_cvtps_pd(ptn_high_ps_avx512(ya)));
        a1 = _mm512_fmadd_pd(d, d, a1);
        d = _mm512_sub_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xb)),
                          _mm512_cvtps_pd(_mm512_castps512_ps256(yb)));
        a2 = _mm512_fmadd_pd(d, d, a2);
        d = _mm512_sub_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xb)), _mm512_cvtps_pd(ptn_high_ps_avx512(yb)));
        a3 = _mm512_fmadd_pd(d, d, a3);
    }
    for (; i + 16 <= n; i += 16) {
        __m512 xa = _mm512_loadu_ps(x + i), ya = _mm512_loadu_ps(y + i);
        d = _mm512_sub_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xa)),
                          _mm512_cvtps_pd(_mm512_castps512_ps256(ya)));
        a0 = _mm512_fmadd_pd(d, d, a0);
        d = _mm512_sub_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xa)), _mm512_cvtps_pd(ptn_high_ps_avx512(ya)));
        a1 = _mm512_fmadd_pd(d, d, a1);
    }
    if (i < n) {
        __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        __m512 xt = _mm512_maskz_loadu_ps(m, x + i), yt = _mm512_maskz_loadu_ps(m, y + i);
        d = _mm512_sub_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xt)),
                          _mm512_cvtps_pd(_mm512_castps512_ps256(yt)));
        a2 = _mm512_fmadd_pd(d, d, a2);
        d = _mm512_sub_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xt)), _mm512_cvtps_pd(ptn_high_ps_avx512(yt)));
        a3 = _mm512_fmadd_pd(d, d, a3);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

PTN_TARGET("avx512f")
double ptn_sqdist_f64_avx512(size_t n, const double *x, const double *y)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
    __m512d d0, d1, d2, d3;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        d0 = _mm512_sub_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i));
        d1 = _mm512_sub_pd(_mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(y + i + 8));
        d2 = _mm512_sub_pd(_mm512_loadu_pd(x + i + 16), _mm512_loadu_pd(y + i + 16));
        d3 = _mm512_sub_pd(_mm512_loadu_pd(x + i + 24), _mm512_loadu_pd(y + i + 24));
        a0 = _mm512_fmadd_pd(d0, d0, a0);
        a1 = _mm512_fmadd_pd(d1, d1, a1);
        a2 = _mm512_fmadd_pd(d2, d2, a2);
        a3 = _mm512_fmadd_pd(d3, d3, a3);
    }
    for (; i + 8 <= n; i += 8) {
        d0 = _mm512_sub_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i));
        a0 = _mm512_fmadd_pd(d0, d0, a0);
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        d0 = _mm512_sub_pd(_mm512_maskz_loadu_pd(m, x + i), _mm512_maskz_loadu_pd(m, y + i));
        a1 = _mm512_fmadd_pd(d0, d0, a1);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

PTN_TARGET("avx512f")
static inline __m512d ptn_exp_pd_avx512(__m512d x)
{
    /* same method as ptn_exp_pd_avx2; roundscale immediates: 8 = nearest, 9 = floor,
     * both with exceptions suppressed */
    __m512d xc = _mm512_min_pd(_mm512_max_pd(x, _mm512_set1_pd(PTN_EXP_LO)), _mm512_set1_pd(PTN_EXP_HI));
    __m512d k = _mm512_roundscale_pd(_mm512_mul_pd(xc, _mm512_set1_pd(PTN_LOG2E)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(PTN_LN2_HI), xc);
    __m512d p, k1, k2, s1, s2, y;
    r = _mm512_fnmadd_pd(k, _mm512_set1_pd(PTN_LN2_LO), r);
    PTN_EXP_POLY(_mm512_fmadd_pd, _mm512_set1_pd, p, r);
    k1 = _mm512_roundscale_pd(_mm512_mul_pd(k, _mm512_set1_pd(0.5)),
                              _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    k2 = _mm512_sub_pd(k, k1);
    s1 = _mm512_castsi512_pd(_mm512_slli_epi64(
        _mm512_castpd_si512(_mm512_add_pd(k1, _mm512_set1_pd(PTN_EXP_BIAS))), 52));
    s2 = _mm512_castsi512_pd(_mm512_slli_epi64(
        _mm512_castpd_si512(_mm512_add_pd(k2, _mm512_set1_pd(PTN_EXP_BIAS))), 52));
    y = _mm512_mul_pd(_mm512_mul_pd(p, s1), s2);
    return _mm512_mask_mov_pd(y, _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q), x);
}

PTN_TARGET("avx512f")
void ptn_exp_f64_avx512(size_t n, const double *x, double *y)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512d a = ptn_exp_pd_avx512(_mm512_loadu_pd(x + i));
        __m512d b = ptn_exp_pd_avx512(_mm512_loadu_pd(x + i + 8));
        _mm512_storeu_pd(y + i, a);
        _mm512_storeu_pd(y + i + 8, b);
    }
    for (; i + 8 <= n; i += 8) {
        _mm512_storeu_pd(y + i, ptn_exp_pd_avx512(_mm512_loadu_pd(x + i)));
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_pd(y + i, m, ptn_exp_pd_avx512(_mm512_maskz_loadu_pd(m, x + i)));
    }
}

/* ------------------------------------------ many rows against one vector */

/* The _rows kernels: out[k] = dot(A_k, x) (sq == 0) or sqdist(A_k, x)
 * (sq != 0).  Four rows at a time share each load of x and run four
 * independent chains of additions; a row left over runs the same arithmetic
 * alone, so its value does not depend on where it falls.  Each public
 * function passes a constant `sq`, which the compiler folds. */

PTN_TARGET("avx2,fma")
static inline __m256d ptn_step_pd256(int sq, __m256d acc, __m256d a, __m256d x)
{
    if (sq) {
        __m256d t = _mm256_sub_pd(a, x);
        return _mm256_fmadd_pd(t, t, acc);
    }
    return _mm256_fmadd_pd(a, x, acc);
}

PTN_TARGET("avx2,fma")
static inline void ptn_rows_f64_avx2(int sq, size_t m, size_t d, const double *A, size_t lda,
                                     const double *x, double *out)
{
    const size_t full = d - d % 4;
    const __m256i tm = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - d % 4));
    size_t k = 0, i;
    for (; k + 4 <= m; k += 4) {
        const double *a0 = A + k * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, xv;
        for (i = 0; i < full; i += 4) {
            xv = _mm256_loadu_pd(x + i);
            s0 = ptn_step_pd256(sq, s0, _mm256_loadu_pd(a0 + i), xv);
            s1 = ptn_step_pd256(sq, s1, _mm256_loadu_pd(a1 + i), xv);
            s2 = ptn_step_pd256(sq, s2, _mm256_loadu_pd(a2 + i), xv);
            s3 = ptn_step_pd256(sq, s3, _mm256_loadu_pd(a3 + i), xv);
        }
        if (full < d) {
            xv = _mm256_maskload_pd(x + full, tm);
            s0 = ptn_step_pd256(sq, s0, _mm256_maskload_pd(a0 + full, tm), xv);
            s1 = ptn_step_pd256(sq, s1, _mm256_maskload_pd(a1 + full, tm), xv);
            s2 = ptn_step_pd256(sq, s2, _mm256_maskload_pd(a2 + full, tm), xv);
            s3 = ptn_step_pd256(sq, s3, _mm256_maskload_pd(a3 + full, tm), xv);
        }
        out[k] = ptn_hsum_pd_avx2(s0);
        out[k + 1] = ptn_hsum_pd_avx2(s1);
        out[k + 2] = ptn_hsum_pd_avx2(s2);
        out[k + 3] = ptn_hsum_pd_avx2(s3);
    }
    for (; k < m; k++) {
        const double *a0 = A + k * lda;
        __m256d s0 = _mm256_setzero_pd();
        for (i = 0; i < full; i += 4) {
            s0 = ptn_step_pd256(sq, s0, _mm256_loadu_pd(a0 + i), _mm256_loadu_pd(x + i));
        }
        if (full < d) {
            s0 = ptn_step_pd256(sq, s0, _mm256_maskload_pd(a0 + full, tm), _mm256_maskload_pd(x + full, tm));
        }
        out[k] = ptn_hsum_pd_avx2(s0);
    }
}

/* float32 rows: 8 floats become two vectors of 4 doubles, each with its own
 * accumulator (lo, hi), added at the end. */
PTN_TARGET("avx2,fma")
static inline void ptn_step_ps256(int sq, __m256d *lo, __m256d *hi, __m256 a, __m256d xl, __m256d xh)
{
    *lo = ptn_step_pd256(sq, *lo, _mm256_cvtps_pd(_mm256_castps256_ps128(a)), xl);
    *hi = ptn_step_pd256(sq, *hi, _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)), xh);
}

PTN_TARGET("avx2,fma")
static inline void ptn_rows_f32_avx2(int sq, size_t m, size_t d, const float *A, size_t lda,
                                     const float *x, double *out)
{
    const size_t full = d - d % 8;
    const __m256i tm = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask32 + 8 - d % 8));
    size_t k = 0, i;
    __m256 xs;
    __m256d xl, xh;
    for (; k + 4 <= m; k += 4) {
        const float *a0 = A + k * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        __m256d l0 = _mm256_setzero_pd(), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
        for (i = 0; i < full; i += 8) {
            xs = _mm256_loadu_ps(x + i);
            xl = _mm256_cvtps_pd(_mm256_castps256_ps128(xs));
            xh = _mm256_cvtps_pd(_mm256_extractf128_ps(xs, 1));
            ptn_step_ps256(sq, &l0, &h0, _mm256_loadu_ps(a0 + i), xl, xh);
            ptn_step_ps256(sq, &l1, &h1, _mm256_loadu_ps(a1 + i), xl, xh);
            ptn_step_ps256(sq, &l2, &h2, _mm256_loadu_ps(a2 + i), xl, xh);
            ptn_step_ps256(sq, &l3, &h3, _mm256_loadu_ps(a3 + i), xl, xh);
        }
        if (full < d) {
            xs = _mm256_maskload_ps(x + full, tm);
            xl = _mm256_cvtps_pd(_mm256_castps256_ps128(xs));
            xh = _mm256_cvtps_pd(_mm256_extractf128_ps(xs, 1));
            ptn_step_ps256(sq, &l0, &h0, _mm256_maskload_ps(a0 + full, tm), xl, xh);
            ptn_step_ps256(sq, &l1, &h1, _mm256_maskload_ps(a1 + full, tm), xl, xh);
            ptn_step_ps256(sq, &l2, &h2, _mm256_maskload_ps(a2 + full, tm), xl, xh);
            ptn_step_ps256(sq, &l3, &h3, _mm256_maskload_ps(a3 + full, tm), xl, xh);
        }
        out[k] = ptn_hsum_pd_avx2(_mm256_add_pd(l0, h0));
        out[k + 1] = ptn_hsum_pd_avx2(_mm256_add_pd(l1, h1));
        out[k + 2] = ptn_hsum_pd_avx2(_mm256_add_pd(l2, h2));
        out[k + 3] = ptn_hsum_pd_avx2(_mm256_add_pd(l3, h3));
    }
    for (; k < m; k++) {
        const float *a0 = A + k * lda;
        __m256d l0 = _mm256_setzero_pd(), h0 = l0;
        for (i = 0; i < full; i += 8) {
            xs = _mm256_loadu_ps(x + i);
            xl = _mm256_cvtps_pd(_mm256_castps256_ps128(xs));
            xh = _mm256_cvtps_pd(_mm256_extractf128_ps(xs, 1));
            ptn_step_ps256(sq, &l0, &h0, _mm256_loadu_ps(a0 + i), xl, xh);
        }
        if (full < d) {
            xs = _mm256_maskload_ps(x + full, tm);
            xl = _mm256_cvtps_pd(_mm256_castps256_ps128(xs));
            xh = _mm256_cvtps_pd(_mm256_extractf128_ps(xs, 1));
            ptn_step_ps256(sq, &l0, &h0, _mm256_maskload_ps(a0 + full, tm), xl, xh);
        }
        out[k] = ptn_hsum_pd_avx2(_mm256_add_pd(l0, h0));
    }
}

PTN_TARGET("avx2,fma")
void ptn_dot_rows_f32_avx2(size_t m, size_t d, const float *A, size_t lda, const float *x, double *out)
{
    ptn_rows_f32_avx2(0, m, d, A, lda, x, out);
}

PTN_TARGET("avx2,fma")
void ptn_dot_rows_f64_avx2(size_t m, size_t d, const double *A, size_t lda, const double *x, double *out)
{
    ptn_rows_f64_avx2(0, m, d, A, lda, x, out);
}

PTN_TARGET("avx2,fma")
void ptn_sqdist_rows_f32_avx2(size_t m, size_t d, const float *A, size_t lda, const float *x, double *out)
{
    ptn_rows_f32_avx2(1, m, d, A, lda, x, out);
}

PTN_TARGET("avx2,fma")
void ptn_sqdist_rows_f64_avx2(size_t m, size_t d, const double *A, size_t lda, const double *x, double *out)
{
    ptn_rows_f64_avx2(1, m, d, A, lda, x, out);
}

PTN_TARGET("avx512f")
static inline __m512d ptn_step_pd512(int sq, __m512d acc, __m512d a, __m512d x)
{
    if (sq) {
        __m512d t = _mm512_sub_pd(a, x);
        return _mm512_fmadd_pd(t, t, acc);
    }
    return _mm512_fmadd_pd(a, x, acc);
}

PTN_TARGET("avx512f")
static inline void ptn_rows_f64_avx512(int sq, size_t m, size_t d, const double *A, size_t lda,
                                       const double *x, double *out)
{
    const size_t full = d - d % 8;
    const __mmask8 tm = (__mmask8)((1u << (d % 8)) - 1u);
    size_t k = 0, i;
    for (; k + 4 <= m; k += 4) {
        const double *a0 = A + k * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, xv;
        for (i = 0; i < full; i += 8) {
            xv = _mm512_loadu_pd(x + i);
            s0 = ptn_step_pd512(sq, s0, _mm512_loadu_pd(a0 + i), xv);
            s1 = ptn_step_pd512(sq, s1, _mm512_loadu_pd(a1 + i), xv);
            s2 = ptn_step_pd512(sq, s2, _mm512_loadu_pd(a2 + i), xv);
            s3 = ptn_step_pd512(sq, s3, _mm512_loadu_pd(a3 + i), xv);
        }
        if (tm) {
            xv = _mm512_maskz_loadu_pd(tm, x + full);
            s0 = ptn_step_pd512(sq, s0, _mm512_maskz_loadu_pd(tm, a0 + full), xv);
            s1 = ptn_step_pd512(sq, s1, _mm512_maskz_loadu_pd(tm, a1 + full), xv);
            s2 = ptn_step_pd512(sq, s2, _mm512_maskz_loadu_pd(tm, a2 + full), xv);
            s3 = ptn_step_pd512(sq, s3, _mm512_maskz_loadu_pd(tm, a3 + full), xv);
        }
        out[k] = _mm512_reduce_add_pd(s0);
        out[k + 1] = _mm512_reduce_add_pd(s1);
        out[k + 2] = _mm512_reduce_add_pd(s2);
        out[k + 3] = _mm512_reduce_add_pd(s3);
    }
    for (; k < m; k++) {
        const double *a0 = A + k * lda;
        __m512d s0 = _mm512_setzero_pd();
        for (i = 0; i < full; i += 8) {
            s0 = ptn_step_pd512(sq, s0, _mm512_loadu_pd(a0 + i), _mm512_loadu_pd(x + i));
        }
        if (tm) {
            s0 = ptn_step_pd512(sq, s0, _mm512_maskz_loadu_pd(tm, a0 + full), _mm512_maskz_loadu_pd(tm, x + full));
        }
        out[k] = _mm512_reduce_add_pd(s0);
    }
}

PTN_TARGET("avx512f")
static inline void ptn_step_ps512(int sq, __m512d *lo, __m512d *hi, __m512 a, __m512d xl, __m512d xh)
{
    *lo = ptn_step_pd512(sq, *lo, _mm512_cvtps_pd(_mm512_castps512_ps256(a)), xl);
    *hi = ptn_step_pd512(sq, *hi, _mm512_cvtps_pd(ptn_high_ps_avx512(a)), xh);
}

PTN_TARGET("avx512f")
static inline void ptn_rows_f32_avx512(int sq, size_t m, size_t d, const float *A, size_t lda,
                                       const float *x, double *out)
{
    const size_t full = d - d % 16;
    const __mmask16 tm = (__mmask16)((1u << (d % 16)) - 1u);
    size_t k = 0, i;
    __m512 xs;
    __m512d xl, xh;
    for (; k + 4 <= m; k += 4) {
        const float *a0 = A + k * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        __m512d l0 = _mm512_setzero_pd(), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
        for (i = 0; i < full; i += 16) {
            xs = _mm512_loadu_ps(x + i);
            xl = _mm512_cvtps_pd(_mm512_castps512_ps256(xs));
            xh = _mm512_cvtps_pd(ptn_high_ps_avx512(xs));
            ptn_step_ps512(sq, &l0, &h0, _mm512_loadu_ps(a0 + i), xl, xh);
            ptn_step_ps512(sq, &l1, &h1, _mm512_loadu_ps(a1 + i), xl, xh);
            ptn_step_ps512(sq, &l2, &h2, _mm512_loadu_ps(a2 + i), xl, xh);
            ptn_step_ps512(sq, &l3, &h3, _mm512_loadu_ps(a3 + i), xl, xh);
        }
        if (tm) {
            xs = _mm512_maskz_loadu_ps(tm, x + full);
            xl = _mm512_cvtps_pd(_mm512_castps512_ps256(xs));
            xh = _mm512_cvtps_pd(ptn_high_ps_avx512(xs));
            ptn_step_ps512(sq, &l0, &h0, _mm512_maskz_loadu_ps(tm, a0 + full), xl, xh);
            ptn_step_ps512(sq, &l1, &h1, _mm512_maskz_loadu_ps(tm, a1 + full), xl, xh);
            ptn_step_ps512(sq, &l2, &h2, _mm512_maskz_loadu_ps(tm, a2 + full), xl, xh);
            ptn_step_ps512(sq, &l3, &h3, _mm512_maskz_loadu_ps(tm, a3 + full), xl, xh);
        }
        out[k] = _mm512_reduce_add_pd(_mm512_add_pd(l0, h0));
        out[k + 1] = _mm512_reduce_add_pd(_mm512_add_pd(l1, h1));
        out[k + 2] = _mm512_reduce_add_pd(_mm512_add_pd(l2, h2));
        out[k + 3] = _mm512_reduce_add_pd(_mm512_add_pd(l3, h3));
    }
    for (; k < m; k++) {
        const float *a0 = A + k * lda;
        __m512d l0 = _mm512_setzero_pd(), h0 = l0;
        for (i = 0; i < full; i += 16) {
            xs = _mm512_loadu_ps(x + i);
            xl = _mm512_cvtps_pd(_mm512_castps512_ps256(xs));
            xh = _mm512_cvtps_pd(ptn_high_ps_avx512(xs));
            ptn_step_ps512(sq, &l0, &h0, _mm512_loadu_ps(a0 + i), xl, xh);
        }
        if (tm) {
            xs = _mm512_maskz_loadu_ps(tm, x + full);
            xl = _mm512_cvtps_pd(_mm512_castps512_ps256(xs));
            xh = _mm512_cvtps_pd(ptn_high_ps_avx512(xs));
            ptn_step_ps512(sq, &l0, &h0, _mm512_maskz_loadu_ps(tm, a0 + full), xl, xh);
        }
        out[k] = _mm512_reduce_add_pd(_mm512_add_pd(l0, h0));
    }
}

PTN_TARGET("avx512f")
void ptn_dot_rows_f32_avx512(size_t m, size_t d, const float *A, size_t lda, const float *x, double *out)
{
    ptn_rows_f32_avx512(0, m, d, A, lda, x, out);
}

PTN_TARGET("avx512f")
void ptn_dot_rows_f64_avx512(size_t m, size_t d, const double *A, size_t lda, const double *x, double *out)
{
    ptn_rows_f64_avx512(0, m, d, A, lda, x, out);
}

PTN_TARGET("avx512f")
void ptn_sqdist_rows_f32_avx512(size_t m, size_t d, const float *A, size_t lda, const float *x, double *out)
{
    ptn_rows_f32_avx512(1, m, d, A, lda, x, out);
}

PTN_TARGET("avx512f")
void ptn_sqdist_rows_f64_avx512(size_t m, size_t d, const double *A, size_t lda, const double *x, double *out)
{
    ptn_rows_f64_avx512(1, m, d, A, lda, x, out);
}

#else
typedef int ptn_kernels_x86_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_X86_KERNELS */

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

PTN_TARGET("avx2,fma")
void ptn_axpy_f32_f64_avx2(size_t n, double a, const float *x, double *y)
{
    const __m256d av = _mm256_set1_pd(a);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 xa = _mm256_loadu_ps(x + i), xb = _mm256_loadu_ps(x + i + 8);
        __m256d y0 = _mm256_fmadd_pd(av, _mm256_cvtps_pd(_mm256_castps256_ps128(xa)), _mm256_loadu_pd(y + i));
        __m256d y1 = _mm256_fmadd_pd(av, _mm256_cvtps_pd(_mm256_extractf128_ps(xa, 1)), _mm256_loadu_pd(y + i + 4));
        __m256d y2 = _mm256_fmadd_pd(av, _mm256_cvtps_pd(_mm256_castps256_ps128(xb)), _mm256_loadu_pd(y + i + 8));
        __m256d y3 = _mm256_fmadd_pd(av, _mm256_cvtps_pd(_mm256_extractf128_ps(xb, 1)), _mm256_loadu_pd(y + i + 12));
        _mm256_storeu_pd(y + i, y0);
        _mm256_storeu_pd(y + i + 4, y1);
        _mm256_storeu_pd(y + i + 8, y2);
        _mm256_storeu_pd(y + i + 12, y3);
    }
    for (; i + 4 <= n; i += 4) {
        _mm256_storeu_pd(y + i, _mm256_fmadd_pd(av, _mm256_cvtps_pd(_mm_loadu_ps(x + i)), _mm256_loadu_pd(y + i)));
    }
    if (i < n) {
        __m128i m32 = _mm_loadu_si128((const __m128i *)(ptn_tail_mask32 + 8 - (n - i)));
        __m256i m64 = _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (n - i)));
        _mm256_maskstore_pd(y + i, m64, _mm256_fmadd_pd(av, _mm256_cvtps_pd(_mm_maskload_ps(x + i, m32)),
                                                        _mm256_maskload_pd(y + i, m64)));
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

PTN_TARGET("avx512f")
void ptn_axpy_f32_f64_avx512(size_t n, double a, const float *x, double *y)
{
    const __m512d av = _mm512_set1_pd(a);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 xv = _mm512_loadu_ps(x + i);
        __m512d y0 = _mm512_fmadd_pd(av, _mm512_cvtps_pd(_mm512_castps512_ps256(xv)), _mm512_loadu_pd(y + i));
        __m512d y1 = _mm512_fmadd_pd(av, _mm512_cvtps_pd(ptn_high_ps_avx512(xv)), _mm512_loadu_pd(y + i + 8));
        _mm512_storeu_pd(y + i, y0);
        _mm512_storeu_pd(y + i + 8, y1);
    }
    for (; i + 8 <= n; i += 8) {
        _mm512_storeu_pd(y + i, _mm512_fmadd_pd(av, _mm512_cvtps_pd(_mm256_loadu_ps(x + i)),
                                                _mm512_loadu_pd(y + i)));
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        __m512 xt = _mm512_maskz_loadu_ps((__mmask16)m, x + i);
        _mm512_mask_storeu_pd(y + i, m, _mm512_fmadd_pd(av, _mm512_cvtps_pd(_mm512_castps512_ps256(xt)),
                                                         _mm512_maskz_loadu_pd(m, y + i)));
    }
}

#else
typedef int ptn_kernels_x86_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_X86_KERNELS */

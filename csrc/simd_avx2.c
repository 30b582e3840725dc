/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * simd_avx2.c - the kernels of the AVX2 level (AVX2 and FMA).
 *
 * What each kernel computes, and its guarantees, is in ptn_simd.h; the
 * kernels that differ from the AVX-512 ones only in the vector width are
 * templates in ptn_x86.h.  This file is compiled for the baseline x86
 * instruction set like every other file; each function enables AVX2 with
 * PTN_TARGET, and is only ever called through the dispatch table after the
 * CPU check (cpu.c).  Tails use masked loads and stores instead of scalar
 * loops, so every element goes through the same fused arithmetic.
 */
#include "ptn_x86.h"

#if PTN_HAVE_X86_SIMD

/* Loading 8 int32 (or 4 int64) starting at offset 8 - r (4 - r) yields a mask
 * whose first r lanes are set. */
static const int32_t ptn_tail_mask32[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
static const int64_t ptn_tail_mask64[8] = {-1, -1, -1, -1, 0, 0, 0, 0};

/* the vocabulary of the templates in ptn_x86.h */
#define PTN_X86_TARGET "avx2,fma"
#define VD __m256d
#define VD_W 4
#define VD_ZERO() _mm256_setzero_pd()
#define VD_SET1(a) _mm256_set1_pd(a)
#define VD_LOADU(p) _mm256_loadu_pd(p)
#define VD_STOREU(p, v) _mm256_storeu_pd(p, v)
#define VD_ADD(a, b) _mm256_add_pd(a, b)
#define VD_SUB(a, b) _mm256_sub_pd(a, b)
#define VD_MUL(a, b) _mm256_mul_pd(a, b)
#define VD_MAX(a, b) _mm256_max_pd(a, b)
#define VD_MIN(a, b) _mm256_min_pd(a, b)
#define VD_ROUND(v) _mm256_round_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define VD_FLOOR(v) _mm256_floor_pd(v)
#define VD_EXPONENT(v) _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(v), 52))
#define VD_NAN_TO(y, x) _mm256_blendv_pd(y, x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q))
#define VD_FMADD(a, b, c) _mm256_fmadd_pd(a, b, c)
#define VD_FNMADD(a, b, c) _mm256_fnmadd_pd(a, b, c)
#define VD_HSUM(v) ptn_hsum_pd_avx2(v)
#define VD_MASK __m256i
#define VD_TAIL(r) _mm256_loadu_si256((const __m256i *)(ptn_tail_mask64 + 4 - (r)))
#define VD_MASKLOAD(m, p) _mm256_maskload_pd(p, m)
#define VD_MASKSTORE(p, m, v) _mm256_maskstore_pd(p, m, v)
#define VD_EXP(v) ptn_exp_pd_avx2(v)
#define VF __m256
#define VF_W 8
#define VF_SET1(a) _mm256_set1_ps(a)
#define VF_LOADU(p) _mm256_loadu_ps(p)
#define VF_STOREU(p, v) _mm256_storeu_ps(p, v)
#define VF_MUL(a, b) _mm256_mul_ps(a, b)
#define VF_FMADD(a, b, c) _mm256_fmadd_ps(a, b, c)
#define VF_MASK __m256i
#define VF_TAIL(r) _mm256_loadu_si256((const __m256i *)(ptn_tail_mask32 + 8 - (r)))
#define VF_MASKLOAD(m, p) _mm256_maskload_ps(p, m)
#define VF_MASKSTORE(p, m, v) _mm256_maskstore_ps(p, m, v)
#define VF_LO(v) _mm256_castps256_ps128(v)
#define VF_HI(v) _mm256_extractf128_ps(v, 1)
#define VD_CVTPS(h) _mm256_cvtps_pd(h)
#define VH __m128
#define VH_LOADU(p) _mm_loadu_ps(p)
#define VH_MASK __m128i
#define VH_TAIL(r) _mm_loadu_si128((const __m128i *)(ptn_tail_mask32 + 8 - (r)))
#define VH_MASKLOAD(m, p) _mm_maskload_ps(p, m)

PTN_TARGET("avx2,fma")
static inline double ptn_hsum_pd_avx2(__m256d v)
{
    __m128d lo = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
}

/* dot products, axpy, squared distances, exp, blocks of dot products,
 * Gaussian values of a block, the float64 short rows of the scans */
PTN_X86_KERNELS(avx2, PTN_X86_REST_F32_HALVES)

/* ------------------------------------------------------------- scans */

/* Short rows (ptn_x86.h): the float64 ones from the template (above); the
 * float32 ones follow this level's exact float32 dot product:
 * ptn_dot_f32_inline_avx2 for n < 32 (its exact path): a block of 16 into
 * a0..a3, groups of 4 into a0, the tail into a1. */
typedef struct ptn_short_f32_avx2 {
    __m256d w16[4], w4[3], wt;
    __m128i tm;
    size_t block, groups, tail;
} ptn_short_f32_avx2;

PTN_TARGET("avx2,fma")
static inline void ptn_short_f32_init_avx2(ptn_short_f32_avx2 *p, size_t n, const float *w)
{
    size_t g, i = 0;
    p->block = n >= 16;
    for (g = 0; g < 4; g++) {
        p->w16[g] = p->block ? _mm256_cvtps_pd(_mm_loadu_ps(w + 4 * g)) : _mm256_setzero_pd();
    }
    i = p->block ? 16 : 0;
    p->groups = (n - i) / 4;
    for (g = 0; g < 3; g++) {
        p->w4[g] = g < p->groups ? _mm256_cvtps_pd(_mm_loadu_ps(w + i + 4 * g))
                                 : _mm256_setzero_pd();
    }
    i += 4 * p->groups;
    p->tail = n - i;
    p->tm = _mm_loadu_si128((const __m128i *)(ptn_tail_mask32 + 8 - p->tail));
    p->wt = p->tail ? _mm256_cvtps_pd(_mm_maskload_ps(w + i, p->tm)) : _mm256_setzero_pd();
}

PTN_TARGET("avx2,fma")
static inline double ptn_dot_short_f32_avx2(const float *x, const ptn_short_f32_avx2 *p)
{
    const __m256d z = _mm256_setzero_pd();
    __m256d a0 = z, a1 = z, a2 = z, a3 = z;
    size_t i = 0;
    if (p->block) {
        __m256 xa = _mm256_loadu_ps(x), xb = _mm256_loadu_ps(x + 8);
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xa)), p->w16[0], a0);
        a1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xa, 1)), p->w16[1], a1);
        a2 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xb)), p->w16[2], a2);
        a3 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xb, 1)), p->w16[3], a3);
        i = 16;
    }
    if (p->groups > 0) {
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), p->w4[0], a0);
    }
    if (p->groups > 1) {
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 4)), p->w4[1], a0);
    }
    if (p->groups > 2) {
        a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 8)), p->w4[2], a0);
    }
    if (p->tail) {
        a1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_maskload_ps(x + i + 4 * p->groups, p->tm)),
                             p->wt, a1);
    }
    return ptn_hsum_pd_avx2(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

PTN_X86_SCAN(ptn_scan_f32_avx2, float, 32, ptn_short_f32_avx2, ptn_short_f32_init_avx2,
             ptn_dot_short_f32_avx2, ptn_dot_f32_inline_avx2)
PTN_X86_SCAN(ptn_scan_f64_avx2, double, 32, ptn_short_f64_avx2, ptn_short_f64_init_avx2,
             ptn_dot_short_f64_avx2, ptn_dot_f64_inline_avx2)

/* axpy_f32 and axpy_f64 of this level (the same template, so the same
 * bits) always inlined into the plain scans below: gcc called the exported
 * ones out of line once an update. */
PTN_X86_AXPY_WITH(PTN_ALWAYS_INLINE, ptn_axpy_f32_inline_avx2, float, VF, PTN_X86_MASKED_TAIL(VF))
PTN_X86_AXPY_WITH(PTN_ALWAYS_INLINE, ptn_axpy_f64_inline_avx2, double, VD, PTN_X86_MASKED_TAIL(VD))

/* scan_plain_f32, scan_plain_f64 (ptn_scan.h) */
PTN_X86_SCAN_PLAIN(ptn_scan_plain_f32_avx2, float, 32, ptn_short_f32_avx2,
                   ptn_short_f32_init_avx2, ptn_dot_short_f32_avx2, ptn_dot_f32_inline_avx2,
                   ptn_axpy_f32_inline_avx2)
PTN_X86_SCAN_PLAIN(ptn_scan_plain_f64_avx2, double, 32, ptn_short_f64_avx2,
                   ptn_short_f64_init_avx2, ptn_dot_short_f64_avx2, ptn_dot_f64_inline_avx2,
                   ptn_axpy_f64_inline_avx2)

/* dots_f32, dots_f64: two weight vectors at a time (see the header) */
#include "simd_avx2_dots.inc"

PTN_DOTS_F32_TAILS_UNUSED(avx2)

/* ------------------------------------ sparse dot products by gathers */

/* The weights of a CSR row's columns fetched by vector gathers (ptn_simd.h
 * says when they pay), by PTN_X86_SDOT: eight int32 indices at a time into
 * two accumulators, four int64 ones into one; the tail (fewer than a
 * gather's lanes) is scalar. */
#define PTN_SDOT_F32_I32_AVX2                                                                \
    __m256 g = _mm256_i32gather_ps(w, _mm256_loadu_si256((const __m256i *)(idx + j)), 4);     \
    __m256 x = _mm256_loadu_ps(val + j);                                                     \
    a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)),                         \
                         _mm256_cvtps_pd(_mm256_castps256_ps128(g)), a0);                    \
    a1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)),                       \
                         _mm256_cvtps_pd(_mm256_extractf128_ps(g, 1)), a1);
#define PTN_SDOT_F64_I32_AVX2(k, a)                                                          \
    a = _mm256_fmadd_pd(_mm256_loadu_pd(val + (k)),                                          \
                        _mm256_i32gather_pd(w, _mm_loadu_si128((const __m128i *)(idx + (k))), 8), a);
#define PTN_SDOT_F32_I64_AVX2                                                                \
    a0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(val + j)),                             \
                         _mm256_cvtps_pd(_mm256_i64gather_ps(                                \
                             w, _mm256_loadu_si256((const __m256i *)(idx + j)), 4)),          \
                         a0);
#define PTN_SDOT_F64_I64_AVX2                                                                \
    a0 = _mm256_fmadd_pd(_mm256_loadu_pd(val + j),                                           \
                         _mm256_i64gather_pd(w, _mm256_loadu_si256((const __m256i *)(idx + j)), 8), \
                         a0);

PTN_X86_SDOT(ptn_sdot_f32_i32_avx2, "avx2,fma", float, int32_t, 8, PTN_SDOT_F32_I32_AVX2, ,
             VD_ADD(a0, a1))
PTN_X86_SDOT(ptn_sdot_f64_i32_avx2, "avx2,fma", double, int32_t, 8,
             PTN_SDOT_F64_I32_AVX2(j, a0) PTN_SDOT_F64_I32_AVX2(j + 4, a1), , VD_ADD(a0, a1))
PTN_X86_SDOT(ptn_sdot_f32_i64_avx2, "avx2,fma", float, int64_t, 4, PTN_SDOT_F32_I64_AVX2, , a0)
PTN_X86_SDOT(ptn_sdot_f64_i64_avx2, "avx2,fma", double, int64_t, 4, PTN_SDOT_F64_I64_AVX2, , a0)

/* -------------------------------------------------------- CSR checks */

/* ptn_descents (ptn_simd.h): each lane compares a[k] with a[k - 1] (two
 * overlapping loads), a true comparison is -1, and lane counters subtract
 * it; the tail and the reductions in scalar code.  AVX2 has no 64-bit
 * min/max: those select by comparison. */
PTN_TARGET("avx2,fma")
static inline __m256i ptn_min_epi64_avx2(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

PTN_TARGET("avx2,fma")
static inline __m256i ptn_max_epi64_avx2(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(b, a));
}

#define PTN_DESCENTS_AVX2(NAME, I, U, LANES, SET1, CMPGT, SUB, MIN, MAX, FIRST)     \
    PTN_TARGET("avx2,fma")                                                           \
    size_t NAME(size_t n, const I *a, int strict, I *lo, I *hi)                      \
    {                                                                                \
        __m256i cnt = _mm256_setzero_si256(), mn, mx;                                \
        I lanes[LANES], m0, m1;                                                      \
        size_t k = 1, count = 0, l;                                                  \
        if (n == 0) {                                                                \
            return 0;                                                                \
        }                                                                            \
        mn = mx = SET1(a[0]);                                                        \
        for (; k + LANES <= n; k += LANES) {                                         \
            __m256i cur = _mm256_loadu_si256((const __m256i *)(a + k));              \
            __m256i prev = _mm256_loadu_si256((const __m256i *)(a + k - 1));         \
            /* strict: prev > cur; otherwise not (cur > prev) */                     \
            __m256i d = strict ? CMPGT(prev, cur)                                    \
                               : _mm256_xor_si256(CMPGT(cur, prev), SET1(-1));       \
            cnt = SUB(cnt, d);                                                       \
            mn = MIN(mn, cur);                                                       \
            mx = MAX(mx, cur);                                                       \
        }                                                                            \
        _mm256_storeu_si256((__m256i *)lanes, cnt);                                  \
        for (l = 0; l < LANES; l++) {                                                \
            count += (U)lanes[l];                                                    \
        }                                                                            \
        /* the least and greatest lanes by shuffles: read back from memory,   \
         * mn and mx were kept there by gcc 12, a store and a load for every  \
         * vector */                                                          \
        mn = MIN(mn, _mm256_permute2x128_si256(mn, mn, 1));                          \
        mx = MAX(mx, _mm256_permute2x128_si256(mx, mx, 1));                          \
        mn = MIN(mn, _mm256_shuffle_epi32(mn, 0x4E));                                \
        mx = MAX(mx, _mm256_shuffle_epi32(mx, 0x4E));                                \
        if (LANES == 8) {                                                            \
            mn = MIN(mn, _mm256_shuffle_epi32(mn, 0xB1));                            \
            mx = MAX(mx, _mm256_shuffle_epi32(mx, 0xB1));                            \
        }                                                                            \
        m0 = (I)FIRST(_mm256_castsi256_si128(mn));                                   \
        m1 = (I)FIRST(_mm256_castsi256_si128(mx));                                   \
        PTN_DESCENTS_FINISH(a, n, k, strict, count, m0, m1, lo, hi)                  \
    }

PTN_DESCENTS_AVX2(ptn_descents_i32_avx2, int32_t, uint32_t, 8, _mm256_set1_epi32,
                  _mm256_cmpgt_epi32, _mm256_sub_epi32, _mm256_min_epi32, _mm256_max_epi32,
                  _mm_cvtsi128_si32)
PTN_DESCENTS_AVX2(ptn_descents_i64_avx2, int64_t, uint64_t, 4, _mm256_set1_epi64x,
                  _mm256_cmpgt_epi64, _mm256_sub_epi64, ptn_min_epi64_avx2, ptn_max_epi64_avx2,
                  _mm_cvtsi128_si64)

/* ------------------------------------------------------- narrow rows */

#undef PTN_X86_TARGET
#define PTN_X86_TARGET "avx2,fma,f16c"
#include "ptn_x86_narrow.h"
#include "simd_avx2_narrow.inc"

#else
typedef int ptn_simd_avx2_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_X86_SIMD */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * simd_avx512.c - the kernels of the AVX-512 level (AVX-512F; the sparse
 * gathers also use AVX2's 256-bit gathers, the row orders AVX-512DQ's
 * 64-bit products: the level requires all of them, dispatch.c).
 *
 * What each kernel computes, and its guarantees, is in ptn_simd.h; the
 * kernels that differ from the AVX2 ones only in the vector width are
 * templates in ptn_x86.h.  This file is compiled for the baseline x86
 * instruction set like every other file; each function enables AVX-512
 * with PTN_TARGET, and is only ever called through the dispatch table after
 * the CPU check (cpu.c).  Tails use masked loads and stores instead of
 * scalar loops, so every element goes through the same fused arithmetic.
 */
#include "ptn_x86.h"

#if PTN_HAVE_X86_SIMD

/* the vocabulary of the templates in ptn_x86.h */
#define PTN_X86_TARGET "avx512f"
#define VD __m512d
#define VD_W 8
#define VD_ZERO() _mm512_setzero_pd()
#define VD_SET1(a) _mm512_set1_pd(a)
#define VD_LOADU(p) _mm512_loadu_pd(p)
#define VD_STOREU(p, v) _mm512_storeu_pd(p, v)
#define VD_ADD(a, b) _mm512_add_pd(a, b)
#define VD_SUB(a, b) _mm512_sub_pd(a, b)
#define VD_MUL(a, b) _mm512_mul_pd(a, b)
#define VD_MAX(a, b) _mm512_max_pd(a, b)
#define VD_MIN(a, b) _mm512_min_pd(a, b)
/* roundscale's immediates: 8 = nearest, 9 = floor, both with exceptions
 * suppressed */
#define VD_ROUND(v) _mm512_roundscale_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define VD_FLOOR(v) _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define VD_EXPONENT(v) _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(v), 52))
#define VD_NAN_TO(y, x) _mm512_mask_mov_pd(y, _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q), x)
#define VD_FMADD(a, b, c) _mm512_fmadd_pd(a, b, c)
#define VD_FNMADD(a, b, c) _mm512_fnmadd_pd(a, b, c)
#define VD_HSUM(v) _mm512_reduce_add_pd(v)
#define VD_MASK __mmask8
#define VD_TAIL(r) ((__mmask8)((1u << (r)) - 1u))
#define VD_MASKLOAD(m, p) _mm512_maskz_loadu_pd(m, p)
#define VD_MASKSTORE(p, m, v) _mm512_mask_storeu_pd(p, m, v)
#define VD_EXP(v) ptn_exp_pd_avx512(v)
#define VF __m512
#define VF_W 16
#define VF_SET1(a) _mm512_set1_ps(a)
#define VF_LOADU(p) _mm512_loadu_ps(p)
#define VF_STOREU(p, v) _mm512_storeu_ps(p, v)
#define VF_MUL(a, b) _mm512_mul_ps(a, b)
#define VF_FMADD(a, b, c) _mm512_fmadd_ps(a, b, c)
#define VF_MASK __mmask16
#define VF_TAIL(r) ((__mmask16)((1u << (r)) - 1u))
#define VF_MASKLOAD(m, p) _mm512_maskz_loadu_ps(m, p)
#define VF_MASKSTORE(p, m, v) _mm512_mask_storeu_ps(p, m, v)
#define VF_LO(v) _mm512_castps512_ps256(v)
#define VF_HI(v) ptn_high_ps_avx512(v)
#define VD_CVTPS(h) _mm512_cvtps_pd(h)
#define VH __m256
#define VH_LOADU(p) _mm256_loadu_ps(p)
/* (a masked 256-bit load would need AVX-512VL: the low half of a masked
 * 512-bit one) */
#define VH_MASK __mmask16
#define VH_TAIL(r) ((__mmask16)((1u << (r)) - 1u))
#define VH_MASKLOAD(m, p) _mm512_castps512_ps256(_mm512_maskz_loadu_ps(m, p))

/* The upper eight floats of a 16-float register, using AVX-512F only (the
 * 32x8 extract would need AVX-512DQ). */
PTN_TARGET("avx512f")
static inline __m256 ptn_high_ps_avx512(__m512 v)
{
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

/* dot products, axpy, squared distances, exp, blocks of dot products,
 * Gaussian values of a block, the float64 short rows of the scans (no block
 * of four vectors below 32 elements here) */
PTN_X86_KERNELS(avx512, PTN_X86_REST_F32_WHOLE)

/* ------------------------------------------------------------- scans */

/* Short rows (ptn_x86.h): the float64 ones from the template (above); the
 * float32 ones follow this level's exact float32 dot product:
 * ptn_dot_f32_inline_avx512 for n < 64 (its exact path): a block of 32 into
 * a0..a3, one of 16 into a0 and a1, the tail into a2 and a3. */
typedef struct ptn_short_f32_avx512 {
    __m512d w32[4], w16[2], wt[2];
    __mmask16 tm;
    size_t block32, block16, at16, at_tail;
} ptn_short_f32_avx512;

PTN_TARGET("avx512f")
PTN_ALWAYS_INLINE void ptn_short_f32_init_avx512(ptn_short_f32_avx512 *p, size_t n, const float *w)
{
    const __m512d z = _mm512_setzero_pd();
    size_t i = 0;
    __m512 v;
    p->block32 = n >= 32;
    v = p->block32 ? _mm512_loadu_ps(w) : _mm512_setzero_ps();
    p->w32[0] = p->block32 ? _mm512_cvtps_pd(_mm512_castps512_ps256(v)) : z;
    p->w32[1] = p->block32 ? _mm512_cvtps_pd(ptn_high_ps_avx512(v)) : z;
    v = p->block32 ? _mm512_loadu_ps(w + 16) : _mm512_setzero_ps();
    p->w32[2] = p->block32 ? _mm512_cvtps_pd(_mm512_castps512_ps256(v)) : z;
    p->w32[3] = p->block32 ? _mm512_cvtps_pd(ptn_high_ps_avx512(v)) : z;
    i = p->block32 ? 32 : 0;
    p->block16 = n - i >= 16;
    p->at16 = i;
    v = p->block16 ? _mm512_loadu_ps(w + i) : _mm512_setzero_ps();
    p->w16[0] = p->block16 ? _mm512_cvtps_pd(_mm512_castps512_ps256(v)) : z;
    p->w16[1] = p->block16 ? _mm512_cvtps_pd(ptn_high_ps_avx512(v)) : z;
    i += p->block16 ? 16 : 0;
    p->at_tail = i;
    p->tm = (__mmask16)((1u << (n - i)) - 1u);
    v = _mm512_maskz_loadu_ps(p->tm, w + i);
    p->wt[0] = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
    p->wt[1] = _mm512_cvtps_pd(ptn_high_ps_avx512(v));
}

PTN_TARGET("avx512f")
PTN_ALWAYS_INLINE double ptn_dot_short_f32_avx512(const float *x, const ptn_short_f32_avx512 *p)
{
    const __m512d z = _mm512_setzero_pd();
    __m512d a0 = z, a1 = z, a2 = z, a3 = z;
    if (p->block32) {
        __m512 xa = _mm512_loadu_ps(x), xb = _mm512_loadu_ps(x + 16);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xa)), p->w32[0], a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xa)), p->w32[1], a1);
        a2 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xb)), p->w32[2], a2);
        a3 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xb)), p->w32[3], a3);
    }
    if (p->block16) {
        __m512 xa = _mm512_loadu_ps(x + p->at16);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xa)), p->w16[0], a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xa)), p->w16[1], a1);
    }
    if (p->tm) {
        __m512 xt = _mm512_maskz_loadu_ps(p->tm, x + p->at_tail);
        a2 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xt)), p->wt[0], a2);
        a3 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xt)), p->wt[1], a3);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

#include "simd_avx512_tail.inc"

PTN_TARGET("avx512f")
size_t ptn_scan_f32_avx512(const ptn_scan *s, size_t start, size_t stop, double *act)
{
    if (s->d < 64) {
        ptn_short_f32_avx512 p;
        ptn_short_f32_init_avx512(&p, s->d, (const float *)s->w);
        {
            PTN_SCAN_LOOP(float, ptn_dot_short_f32_avx512(x_, &p))
        }
    }
    {
        ptn_tail_f32_avx512 t;
        ptn_tail_f32_init_avx512(&t, s->d, (const float *)s->w);
        if (t.len == 0) {
            /* whole blocks only (256 features, ...): no tail to add, whose
             * sum would be +0 (the blocks' sum is never -0: its lanes start
             * at +0 and an exact zero sum rounds to +0), so the same bits
             * without the cost of adding it */
            const float *w_ = (const float *)s->w;
            PTN_SCAN_LOOP_F32_BLOCKS(ptn_dot_f32_blocks_avx512(t.at, x_, w_),
                                     ptn_dot_f32_exact_avx512(d_, x_, w_))
        }
        if (t.at == 64) {
            const float *w_ = (const float *)s->w;
            ptn_block_f32_avx512 kb;
            ptn_block_f32_init_avx512(&kb, w_, &t);
            PTN_SCAN_LOOP_F32_BLOCKS(ptn_dot_f32_one_block_avx512(x_, &kb, &t),
                                     ptn_dot_f32_exact_avx512(d_, x_, w_))
        }
        {
            const float *w_ = (const float *)s->w;
            PTN_SCAN_LOOP_F32_BLOCKS(ptn_dot_f32_blocks_avx512(t.at, x_, w_) +
                                         ptn_dot_f32_tail_avx512(x_ + t.at, &t),
                                     ptn_dot_f32_exact_avx512(d_, x_, w_))
        }
    }
}

PTN_X86_SCAN(ptn_scan_f64_avx512, double, 32, ptn_short_f64_avx512, ptn_short_f64_init_avx512,
             ptn_dot_short_f64_avx512, ptn_dot_f64_inline_avx512)

/* scan_plain_f32, scan_plain_f64: the scans with the plain rule inside */
#include "simd_avx512_plain.inc"

/* dots_f32, dots_f64: four weight vectors at a time (see the header) */
#include "simd_avx512_dots.inc"

/* ------------------------------------ sparse dot products by gathers */

/* The weights of a CSR row's columns fetched by vector gathers: many loads in
 * flight at once, which pays when the weights miss L1 (ptn_simd.h).  Exact
 * double products as in the scalar kernel; the tail (fewer than 8 values) is
 * scalar.
 *
 * At AVX-512 the gathers are 8 wide, in blocks of 16 into two accumulators,
 * and none is masked: on some cores (AMD's Zen 4) a gather costs its full
 * width whatever its mask, and 16 float32 weights cost more as one 512-bit
 * gather than as two 256-bit (AVX2) ones. */
/* one gather of 8 weights (4-byte indices: AVX2's 256-bit gather of floats,
 * AVX-512's of doubles; 8-byte ones: AVX-512's) at k into the accumulator a */
#define PTN_SDOT_F32_I32_AVX512(k, a)                                                        \
    a = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(val + (k))),                         \
                        _mm512_cvtps_pd(_mm256_i32gather_ps(                                 \
                            w, _mm256_loadu_si256((const __m256i *)(idx + (k))), 4)),         \
                        a);
#define PTN_SDOT_F64_I32_AVX512(k, a)                                                        \
    a = _mm512_fmadd_pd(_mm512_loadu_pd(val + (k)),                                          \
                        _mm512_i32gather_pd(_mm256_loadu_si256((const __m256i *)(idx + (k))), \
                                            w, 8),                                           \
                        a);
#define PTN_SDOT_F32_I64_AVX512(k, a)                                                        \
    a = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(val + (k))),                         \
                        _mm512_cvtps_pd(_mm512_i64gather_ps(_mm512_loadu_si512(idx + (k)), w, 4)), \
                        a);
#define PTN_SDOT_F64_I64_AVX512(k, a)                                                        \
    a = _mm512_fmadd_pd(_mm512_loadu_pd(val + (k)),                                          \
                        _mm512_i64gather_pd(_mm512_loadu_si512(idx + (k)), w, 8), a);
/* blocks of 16 into a0 and a1, then a block of 8 into a0 */
#define PTN_SDOT_AVX512(NAME, TARGET, TV, TI, ONE)                                           \
    PTN_X86_SDOT(NAME, TARGET, TV, TI, 16, ONE(j, a0) ONE(j + 8, a1),                        \
                 if (j + 8 <= nnz) {                                                         \
                     ONE(j, a0)                                                              \
                     j += 8;                                                                 \
                 },                                                                          \
                 VD_ADD(a0, a1))

PTN_SDOT_AVX512(ptn_sdot_f32_i32_avx512, "avx512f,avx2,fma", float, int32_t,
                PTN_SDOT_F32_I32_AVX512)
PTN_SDOT_AVX512(ptn_sdot_f64_i32_avx512, "avx512f", double, int32_t, PTN_SDOT_F64_I32_AVX512)
PTN_SDOT_AVX512(ptn_sdot_f32_i64_avx512, "avx512f", float, int64_t, PTN_SDOT_F32_I64_AVX512)
PTN_SDOT_AVX512(ptn_sdot_f64_i64_avx512, "avx512f", double, int64_t, PTN_SDOT_F64_I64_AVX512)

/* -------------------------------------------------------- CSR checks */

/* The sum of a vector of lane counters, in 64 bits (a 32-bit lane holds up
 * to 2^32 - 1: arrays of up to 2^36 elements). */
PTN_TARGET("avx512f")
static inline size_t ptn_count_lanes32_avx512(__m512i c)
{
    __m512i lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(c));
    __m512i hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(c, 1));
    return (size_t)_mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi));
}

PTN_TARGET("avx512f")
static inline size_t ptn_count_lanes64_avx512(__m512i c)
{
    return (size_t)_mm512_reduce_add_epi64(c);
}

/* AVX-512: a comparison mask per vector, lane counters incremented under
 * it. */
#define PTN_DESCENTS_AVX512(NAME, I, S, MASK, LANES)                                 \
    PTN_TARGET("avx512f")                                                            \
    size_t NAME(size_t n, const I *a, int strict, I *lo, I *hi)                      \
    {                                                                                \
        const __m512i one = _mm512_set1_epi##S(1);                                   \
        __m512i cnt = _mm512_setzero_si512(), mn, mx;                                \
        I m0, m1;                                                                    \
        size_t k = 1, count;                                                         \
        if (n == 0) {                                                                \
            return 0;                                                                \
        }                                                                            \
        mn = mx = _mm512_set1_epi##S(a[0]);                                          \
        for (; k + LANES <= n; k += LANES) {                                         \
            __m512i cur = _mm512_loadu_si512((const void *)(a + k));                 \
            __m512i prev = _mm512_loadu_si512((const void *)(a + k - 1));            \
            MASK d = strict ? _mm512_cmplt_epi##S##_mask(cur, prev)                  \
                            : _mm512_cmple_epi##S##_mask(cur, prev);                 \
            cnt = _mm512_mask_add_epi##S(cnt, d, cnt, one);                          \
            mn = _mm512_min_epi##S(mn, cur);                                         \
            mx = _mm512_max_epi##S(mx, cur);                                         \
        }                                                                            \
        count = ptn_count_lanes##S##_avx512(cnt);                                    \
        m0 = (I)_mm512_reduce_min_epi##S(mn);                                        \
        m1 = (I)_mm512_reduce_max_epi##S(mx);                                        \
        PTN_DESCENTS_FINISH(a, n, k, strict, count, m0, m1, lo, hi)                  \
    }

PTN_DESCENTS_AVX512(ptn_descents_i32_avx512, int32_t, 32, __mmask16, 16)
PTN_DESCENTS_AVX512(ptn_descents_i64_avx512, int64_t, 64, __mmask8, 8)

/* -------------------------------------------------------- row orders */

/* Eight of ptn_rng_below's draws at once: the eight SplitMix64 outputs that
 * follow the state (its additive step is the lanes' offsets), then Lemire's
 * product (x >> 32) * bound of each.  A lane whose low half is below its
 * bound may need the rejection test: the lanes before it are kept, the
 * scalar code draws for it (with as many outputs as the test asks), and the
 * vectors start again after it.  With bounds below 2^32 that happens to a
 * draw with odds of bound / 2^32, so the vectors rarely stop. */
PTN_TARGET("avx512f,avx512dq")
void ptn_draws_avx512(ptn_rng *r, size_t top, size_t count, uint32_t *out)
{
    const uint64_t g = 0x9E3779B97F4A7C15ULL;
    const __m512i steps = _mm512_set_epi64((long long)(8 * g), (long long)(7 * g),
                                           (long long)(6 * g), (long long)(5 * g),
                                           (long long)(4 * g), (long long)(3 * g),
                                           (long long)(2 * g), (long long)g);
    const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i m1 = _mm512_set1_epi64((long long)0xBF58476D1CE4E5B9ULL);
    const __m512i m2 = _mm512_set1_epi64((long long)0x94D049BB133111EBULL);
    const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFLL);
    size_t c = 0;
    while (c + 8 <= count) {
        __m512i z = _mm512_add_epi64(_mm512_set1_epi64((long long)r->state), steps);
        __m512i bounds = _mm512_sub_epi64(_mm512_set1_epi64((long long)(top - c)), lanes);
        __m512i m;
        __mmask8 slow;
        unsigned take;
        z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), m1);
        z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), m2);
        z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
        m = _mm512_mul_epu32(_mm512_srli_epi64(z, 32), bounds);
        slow = _mm512_cmplt_epu64_mask(_mm512_and_si512(m, low32), bounds);
        _mm256_storeu_si256((__m256i *)(out + c), _mm512_cvtepi64_epi32(_mm512_srli_epi64(m, 32)));
        for (take = 0; take < 8 && !((slow >> take) & 1u); take++) {
        }
        r->state += (uint64_t)take * g;
        c += take;
        if (slow) {
            out[c] = (uint32_t)ptn_rng_below(r, (uint64_t)(top - c));
            c++;
        }
    }
    ptn_draws_below(r, top - c, count - c, out + c);
}

PTN_TARGET("avx512f,avx512dq")
void ptn_shuffle_avx512(ptn_rng *r, ptrdiff_t *order, size_t n)
{
    ptn_shuffle_by_draws(r, order, n, ptn_draws_avx512);
}

/* ------------------------------------------------------- narrow rows */

#include "ptn_x86_narrow.h"
#include "simd_avx512_narrow.inc"

#else
typedef int ptn_simd_avx512_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_X86_SIMD */

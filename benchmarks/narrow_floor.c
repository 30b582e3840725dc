/*
 * narrow_floor.c - the floor of an epoch over narrow data: plain C passes
 * that read the same narrow arrays an epoch reads and do strictly less work
 * (no update, no bookkeeping).  Compiled by benchmarks/bench_narrow.py at
 * run time with the native instruction set (cc -O3 -march=native) and
 * loaded through ctypes; never part of the package.
 *
 *   narrow_dense_{f16,bf16,i8,u8}(X, n, d, w, b, y, order, ahead, sum)
 *       for each visited row i (in order, or order[k]), a = w.x_i + b with
 *       the row's elements converted to float32 in registers as they are
 *       loaded (F16C / AVX-512F conversions, or AVX2's widening), four
 *       float32 accumulators of fused multiply-adds (less arithmetic than
 *       the library's float32 precision: no block sums in double), and the
 *       perceptron's test y*a <= 0; the row `ahead` positions on prefetched.
 *   narrow_dense_{f16,bf16,i8,u8}_blocks(...)
 *       the same at the library's float32 precision (csrc/ptn_simd.h,
 *       dot_f32): four products a lane in float32 per block of 4 vectors,
 *       the blocks summed in double, the rest with exact double products;
 *       the arithmetic an epoch of ours cannot leave out, without its
 *       updates and bookkeeping.
 *   narrow_dense_{f16,bf16,i8,u8}_blocks8(...)
 *       the same as _blocks with blocks of 8 vectors: eight products a
 *       lane in float32 before the block is summed in double.  Not the
 *       library's order (its bound on a block's rounding would double,
 *       8 * 2^-24 * sum |x_i w_i|): the cost of the other well-defined
 *       order with half the conversions to double, to see whether the
 *       speed-ups would be within reach of it.
 *
 * Each returns the number of rows with y*a <= 0 and stores the sum of the
 * activations in *sum, so that no work can be left out by the compiler.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* prefetch_range, hsum256d/s, FLOOR_DENSE */
#include "floor_common.h"

static inline float f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    uint32_t bits;
    float f;
    if (e == 0x1Fu) {
        bits = sign | 0x7F800000u | (m << 13);
    } else if (e != 0) {
        bits = sign | ((e + 112u) << 23) | (m << 13);
    } else {
        f = (float)m * 5.9604644775390625e-8f;
        return sign ? -f : f;
    }
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline float bf16_to_f32(uint16_t h)
{
    const uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

#define CONV_f16(v) f16_to_f32(v)
#define CONV_bf16(v) bf16_to_f32(v)
#define CONV_i8(v) ((float)(v))
#define CONV_u8(v) ((float)(v))

#if defined(__AVX512F__)
const char narrow_floor_simd[] = "avx512";
#define W 16
typedef __m512 V;
#define ZERO() _mm512_setzero_ps()
#define FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define MUL(a, b) _mm512_mul_ps(a, b)
#define LOADW(p) _mm512_loadu_ps(p)
#define SUM(v) (double)_mm512_reduce_add_ps(v)
typedef __m512d VD;
#define VD_ZERO() _mm512_setzero_pd()
#define VD_ADD(a, b) _mm512_add_pd(a, b)
#define VD_SUM(v) _mm512_reduce_add_pd(v)
#define LO_PD(v) _mm512_cvtps_pd(_mm512_castps512_ps256(v))
#define HI_PD(v) _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)))
#define ADD(a, b) _mm512_add_ps(a, b)
#define LOAD_f16(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define LOAD_bf16(p)                                                                 \
    _mm512_castsi512_ps(_mm512_slli_epi32(                                           \
        _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p))), 16))
#define LOAD_i8(p) _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#define LOAD_u8(p) _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#elif defined(__AVX2__) && defined(__F16C__) && defined(__FMA__)
const char narrow_floor_simd[] = "avx2";
#define W 8
typedef __m256 V;
#define ZERO() _mm256_setzero_ps()
#define FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define MUL(a, b) _mm256_mul_ps(a, b)
#define LOADW(p) _mm256_loadu_ps(p)
#define ADD(a, b) _mm256_add_ps(a, b)
typedef __m256d VD;
#define VD_ZERO() _mm256_setzero_pd()
#define VD_ADD(a, b) _mm256_add_pd(a, b)
#define LO_PD(v) _mm256_cvtps_pd(_mm256_castps256_ps128(v))
#define HI_PD(v) _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))
#define VD_SUM(v) hsum256d(v)
#define SUM(v) hsum256s(v)
#define LOAD_f16(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define LOAD_bf16(p)                                                                 \
    _mm256_castsi256_ps(_mm256_slli_epi32(                                           \
        _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p))), 16))
#define LOAD_i8(p) _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#define LOAD_u8(p) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#else
const char narrow_floor_simd[] = "scalar";
#define W 0
#endif

/* a row of K (elements of T) against float weights */
#if W
#define DOT(K, T)                                                                    \
    static inline double dot_##K(size_t n, const T *x, const float *w)               \
    {                                                                                \
        V a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();                        \
        size_t i = 0;                                                                \
        double s = 0.0;                                                              \
        for (; i + 4 * W <= n; i += 4 * W) {                                         \
            a0 = FMA(LOAD_##K(x + i), LOADW(w + i), a0);                             \
            a1 = FMA(LOAD_##K(x + i + W), LOADW(w + i + W), a1);                     \
            a2 = FMA(LOAD_##K(x + i + 2 * W), LOADW(w + i + 2 * W), a2);             \
            a3 = FMA(LOAD_##K(x + i + 3 * W), LOADW(w + i + 3 * W), a3);             \
        }                                                                            \
        for (; i + W <= n; i += W) {                                                 \
            a0 = FMA(LOAD_##K(x + i), LOADW(w + i), a0);                             \
        }                                                                            \
        for (; i < n; i++) {                                                         \
            s += (double)CONV_##K(x[i]) * w[i];                                      \
        }                                                                            \
        return SUM(ADD(ADD(a0, a1), ADD(a2, a3))) + s;                               \
    }                                                                                \
    static inline double dot_##K##_blocks(size_t n, const T *x, const float *w)      \
    {                                                                                \
        VD a0 = VD_ZERO(), a1 = VD_ZERO();                                           \
        size_t i = 0;                                                                \
        double s = 0.0;                                                              \
        for (; i + 4 * W <= n; i += 4 * W) {                                         \
            V p = MUL(LOAD_##K(x + i), LOADW(w + i));                                \
            p = FMA(LOAD_##K(x + i + W), LOADW(w + i + W), p);                       \
            p = FMA(LOAD_##K(x + i + 2 * W), LOADW(w + i + 2 * W), p);               \
            p = FMA(LOAD_##K(x + i + 3 * W), LOADW(w + i + 3 * W), p);               \
            a0 = VD_ADD(a0, LO_PD(p));                                               \
            a1 = VD_ADD(a1, HI_PD(p));                                               \
        }                                                                            \
        for (; i < n; i++) {                                                         \
            s += (double)CONV_##K(x[i]) * w[i];                                      \
        }                                                                            \
        return VD_SUM(VD_ADD(a0, a1)) + s;                                           \
    }                                                                                \
    static inline double dot_##K##_blocks8(size_t n, const T *x, const float *w)     \
    {                                                                                \
        VD a0 = VD_ZERO(), a1 = VD_ZERO();                                           \
        size_t i = 0, j;                                                             \
        double s = 0.0;                                                              \
        for (; i + 8 * W <= n; i += 8 * W) {                                         \
            V p = MUL(LOAD_##K(x + i), LOADW(w + i));                                \
            for (j = 1; j < 8; j++) {                                                \
                p = FMA(LOAD_##K(x + i + j * W), LOADW(w + i + j * W), p);           \
            }                                                                        \
            a0 = VD_ADD(a0, LO_PD(p));                                               \
            a1 = VD_ADD(a1, HI_PD(p));                                               \
        }                                                                            \
        for (; i < n; i++) {                                                         \
            s += (double)CONV_##K(x[i]) * w[i];                                      \
        }                                                                            \
        return VD_SUM(VD_ADD(a0, a1)) + s;                                           \
    }
#else
#define DOT(K, T)                                                                    \
    static inline double dot_##K(size_t n, const T *x, const float *w)               \
    {                                                                                \
        float a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                        \
        size_t i = 0;                                                                \
        for (; i + 4 <= n; i += 4) {                                                 \
            a0 += CONV_##K(x[i]) * w[i];                                             \
            a1 += CONV_##K(x[i + 1]) * w[i + 1];                                     \
            a2 += CONV_##K(x[i + 2]) * w[i + 2];                                     \
            a3 += CONV_##K(x[i + 3]) * w[i + 3];                                     \
        }                                                                            \
        for (; i < n; i++) {                                                         \
            a0 += CONV_##K(x[i]) * w[i];                                             \
        }                                                                            \
        return (double)((a0 + a1) + (a2 + a3));                                      \
    }                                                                                \
    static inline double dot_##K##_blocks(size_t n, const T *x, const float *w)      \
    {                                                                                \
        double s = 0.0;                                                              \
        size_t i;                                                                    \
        for (i = 0; i < n; i++) {                                                    \
            s += (double)CONV_##K(x[i]) * w[i];                                      \
        }                                                                            \
        return s;                                                                    \
    }                                                                                \
    static inline double dot_##K##_blocks8(size_t n, const T *x, const float *w)     \
    {                                                                                \
        return dot_##K##_blocks(n, x, w);                                            \
    }
#endif

/* the dense passes of kind K (floor_common.h) */
#define DENSE_KIND(K, T)                                                             \
    DOT(K, T)                                                                        \
    FLOOR_DENSE(narrow_dense_##K, T, float, dot_##K, PREFETCH_AHEAD)                 \
    FLOOR_DENSE(narrow_dense_##K##_blocks, T, float, dot_##K##_blocks, PREFETCH_AHEAD) \
    FLOOR_DENSE(narrow_dense_##K##_blocks8, T, float, dot_##K##_blocks8, PREFETCH_AHEAD)
DENSE_KIND(f16, uint16_t)
DENSE_KIND(bf16, uint16_t)
DENSE_KIND(i8, int8_t)
DENSE_KIND(u8, uint8_t)

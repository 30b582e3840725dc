/*
 * floor.c - the machine's floor for an epoch: plain C passes that read the
 * same arrays an epoch reads and do strictly less work (no update, no
 * averaging, no bookkeeping).  Compiled by benchmarks/_common.py at run
 * time with the native instruction set (cc -O3 -march=native) and loaded
 * through ctypes; never part of the package.
 *
 * Every pass computes, for each visited row i, a = w.x_i + b and counts
 * y_i * a <= 0 (the perceptron's test, so the labels are read too), with the
 * widest vectors the compiler was told about (AVX-512, else AVX2 with FMA,
 * else scalar), four independent accumulators over blocks of four vectors.
 *
 *   floor_dense_update_{f32,f64}  the in-order or random-order pass plus the
 *                           perceptron's updates (w += y*x where y*a <= 0)
 *   floor_dense_f32_blocks  floor_dense_f32 at the library's float32 precision
 *                           (block sums in double, below)
 *   floor_dense_{f32,f64}   rows in order (order == NULL), or in the order
 *                           given, each whole row prefetched `ahead` rows
 *                           before it is read (in order: `ahead` rows
 *                           ahead too, 0 for none, the hardware prefetchers'
 *                           job)
 *   floor_ovr_{f32,f64}     every row read once and scored against the k
 *                           rows of W (k classes at once), in order or not
 *   floor_ovr_f32_blocks    floor_ovr_f32 at the library's float32 precision
 *   floor_ovr_update_{f32,f64}  floor_ovr plus the one-vs-rest updates
 *   floor_ovr_update_f32_blocks, floor_dense_update_f32_blocks  the same at
 *                           the library's float32 precision
 *   floor_csr_{f32,f64}     the gathers w[indices] of every CSR row (int32
 *                           indices), in order or not, each row's values and
 *                           indices prefetched `ahead` rows before (and
 *                           into L1 `near` rows before)
 *   floor_csr_update_*      the same pass plus the perceptron's updates
 *                           (w += y*x, b += y on a mistake) and nothing else
 *   floor_pocket_f32        the plain rule with Gallant's ratchet, in C
 *
 * Each returns the number of rows with y*a <= 0 and stores the sum of the
 * activations in *sum, so that no work can be left out by the compiler.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* prefetch_range, prefetch_range_l1, LINE, hsum256d/s, FLOOR_POCKET */
#include "floor_common.h"

/* How the dense loops below prefetch a row they will read out of order:
 * into L2 `ahead` rows before it (far), and, when near > 0, into L1 `near`
 * rows before it as well, or only (far off).  The library asks for small
 * rows both ways in its scan (csrc/ptn_prefetch.h), and rows under 512 B
 * only into L1 in its one-vs-rest epoch (perceptron/_core/prefetch.pxd);
 * the floors try each way and keep the best. */
static size_t near_rows = 0;
static int far_off = 0;

void floor_set_prefetch(size_t near, int far)
{
    near_rows = near;
    far_off = !far;
}

#define PREFETCH_ROW(T, k, ahead, n)                                                 \
    if (ahead != 0 && (k) + ahead < n) {                                             \
        if (!far_off) {                                                              \
            const size_t j_ = order ? (size_t)order[(k) + ahead] : (k) + ahead;      \
            prefetch_range(X + j_ * d, d * sizeof(T));                               \
        }                                                                            \
        if (near_rows != 0) {                                                        \
            const size_t jn_ = order ? (size_t)order[(k) + near_rows] : (k) + near_rows; \
            prefetch_range_l1(X + jn_ * d, d * sizeof(T));                           \
        }                                                                            \
    }

#if defined(__AVX512F__)
const char floor_simd[] = "avx512";

static inline double dot_f64(size_t n, const double *x, const double *w)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(w + i), a0);
        a1 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(w + i + 8), a1);
        a2 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 16), _mm512_loadu_pd(w + i + 16), a2);
        a3 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 24), _mm512_loadu_pd(w + i + 24), a3);
    }
    for (; i + 8 <= n; i += 8) {
        a0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(w + i), a0);
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        a1 = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, x + i), _mm512_maskz_loadu_pd(m, w + i), a1);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

static inline double dot_f32(size_t n, const float *x, const float *w)
{
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
    __m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        a0 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(w + i), a0);
        a1 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(w + i + 16), a1);
        a2 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 32), _mm512_loadu_ps(w + i + 32), a2);
        a3 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 48), _mm512_loadu_ps(w + i + 48), a3);
    }
    for (; i + 16 <= n; i += 16) {
        a0 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(w + i), a0);
    }
    if (i < n) {
        __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        a1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, w + i), a1);
    }
    return (double)_mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

/* Up to four classes against one row: x is loaded once for all of them. */
#define OVR4(T, V, W_, LOADU, MASKZ, FMADD, ZERO, RED, MASKT)                        \
    static inline void dot4_##T(size_t n, const T *x, const T *w, size_t ldw,        \
                                size_t m, double *out)                               \
    {                                                                                \
        V a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();                        \
        const T *w0 = w, *w1 = w + (m > 1 ? ldw : 0);                                \
        const T *w2 = w + (m > 2 ? 2 * ldw : 0), *w3 = w + (m > 3 ? 3 * ldw : 0);    \
        size_t i = 0;                                                                \
        for (; i + W_ <= n; i += W_) {                                               \
            V xv = LOADU(x + i);                                                     \
            a0 = FMADD(xv, LOADU(w0 + i), a0);                                       \
            a1 = FMADD(xv, LOADU(w1 + i), a1);                                       \
            a2 = FMADD(xv, LOADU(w2 + i), a2);                                       \
            a3 = FMADD(xv, LOADU(w3 + i), a3);                                       \
        }                                                                            \
        if (i < n) {                                                                 \
            MASKT k = (MASKT)((1u << (n - i)) - 1u);                                 \
            V xv = MASKZ(k, x + i);                                                  \
            a0 = FMADD(xv, MASKZ(k, w0 + i), a0);                                    \
            a1 = FMADD(xv, MASKZ(k, w1 + i), a1);                                    \
            a2 = FMADD(xv, MASKZ(k, w2 + i), a2);                                    \
            a3 = FMADD(xv, MASKZ(k, w3 + i), a3);                                    \
        }                                                                            \
        out[0] = (double)RED(a0);                                                    \
        if (m > 1) out[1] = (double)RED(a1);                                         \
        if (m > 2) out[2] = (double)RED(a2);                                         \
        if (m > 3) out[3] = (double)RED(a3);                                         \
    }
OVR4(double, __m512d, 8, _mm512_loadu_pd, _mm512_maskz_loadu_pd, _mm512_fmadd_pd,
     _mm512_setzero_pd, _mm512_reduce_add_pd, __mmask8)
OVR4(float, __m512, 16, _mm512_loadu_ps, _mm512_maskz_loadu_ps, _mm512_fmadd_ps,
     _mm512_setzero_ps, _mm512_reduce_add_ps, __mmask16)

#elif defined(__AVX2__) && defined(__FMA__)
const char floor_simd[] = "avx2";

static inline double dot_f64(size_t n, const double *x, const double *w)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    __m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
    size_t i = 0;
    double r = 0.0;
    for (; i + 16 <= n; i += 16) {
        a0 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(w + i), a0);
        a1 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(w + i + 4), a1);
        a2 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 8), _mm256_loadu_pd(w + i + 8), a2);
        a3 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 12), _mm256_loadu_pd(w + i + 12), a3);
    }
    for (; i + 4 <= n; i += 4) {
        a0 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(w + i), a0);
    }
    for (; i < n; i++) {
        r += x[i] * w[i];
    }
    return r + hsum256d(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

static inline double dot_f32(size_t n, const float *x, const float *w)
{
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
    size_t i = 0;
    float r = 0.0f;
    for (; i + 32 <= n; i += 32) {
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(w + i), a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(w + i + 8), a1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 16), _mm256_loadu_ps(w + i + 16), a2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 24), _mm256_loadu_ps(w + i + 24), a3);
    }
    for (; i + 8 <= n; i += 8) {
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(w + i), a0);
    }
    for (; i < n; i++) {
        r += x[i] * w[i];
    }
    return (double)r + hsum256s(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
}

#define OVR4(T, DOT)                                                                 \
    static inline void dot4_##T(size_t n, const T *x, const T *w, size_t ldw,        \
                                size_t m, double *out)                               \
    {                                                                                \
        size_t c;                                                                    \
        for (c = 0; c < m; c++) {                                                    \
            out[c] = DOT(n, x, w + c * ldw);                                         \
        }                                                                            \
    }
OVR4(double, dot_f64)
OVR4(float, dot_f32)

#else
const char floor_simd[] = "scalar";

static inline double dot_f64(size_t n, const double *x, const double *w)
{
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 += x[i] * w[i];
        a1 += x[i + 1] * w[i + 1];
        a2 += x[i + 2] * w[i + 2];
        a3 += x[i + 3] * w[i + 3];
    }
    for (; i < n; i++) {
        a0 += x[i] * w[i];
    }
    return (a0 + a1) + (a2 + a3);
}

static inline double dot_f32(size_t n, const float *x, const float *w)
{
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 += x[i] * w[i];
        a1 += x[i + 1] * w[i + 1];
        a2 += x[i + 2] * w[i + 2];
        a3 += x[i + 3] * w[i + 3];
    }
    for (; i < n; i++) {
        a0 += x[i] * w[i];
    }
    return (double)((a0 + a1) + (a2 + a3));
}

#define OVR4(T, DOT)                                                                 \
    static inline void dot4_##T(size_t n, const T *x, const T *w, size_t ldw,        \
                                size_t m, double *out)                               \
    {                                                                                \
        size_t c;                                                                    \
        for (c = 0; c < m; c++) {                                                    \
            out[c] = DOT(n, x, w + c * ldw);                                         \
        }                                                                            \
    }
OVR4(double, dot_f64)
OVR4(float, dot_f32)
#endif

/* the dense passes (floor_common.h), prefetched as floor_set_prefetch says */
FLOOR_DENSE(floor_dense_f64, double, double, dot_f64, PREFETCH_ROW)
FLOOR_DENSE(floor_dense_f32, float, float, dot_f32, PREFETCH_ROW)

/*
 * float32 at the library's precision (csrc/ptn_simd.h, dot_f32): lanes add
 * the products of a block (64 elements with AVX-512, 32 with AVX2) in
 * float32, the blocks are summed in double, the tail of fewer than a block
 * with exact double products.  Still no update and no bookkeeping: the
 * floor of a float32 epoch that keeps that precision, printed beside the
 * float32-accumulator floor above.
 */
#if defined(__AVX512F__)
/* the high 8 floats, with AVX-512F alone (extractf32x8 needs DQ) */
static inline __m256 hi256(__m512 v)
{
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

static inline double dot_f32_blocks(size_t n, const float *x, const float *w)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d t0 = _mm512_setzero_pd(), t1 = _mm512_setzero_pd();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512 p = _mm512_mul_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(w + i));
        p = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(w + i + 16), p);
        p = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 32), _mm512_loadu_ps(w + i + 32), p);
        p = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 48), _mm512_loadu_ps(w + i + 48), p);
        a0 = _mm512_add_pd(a0, _mm512_cvtps_pd(_mm512_castps512_ps256(p)));
        a1 = _mm512_add_pd(a1, _mm512_cvtps_pd(hi256(p)));
    }
    for (; i + 16 <= n; i += 16) {
        __m512 xv = _mm512_loadu_ps(x + i), wv = _mm512_loadu_ps(w + i);
        t0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xv)),
                             _mm512_cvtps_pd(_mm512_castps512_ps256(wv)), t0);
        t1 = _mm512_fmadd_pd(_mm512_cvtps_pd(hi256(xv)),
                             _mm512_cvtps_pd(hi256(wv)), t1);
    }
    if (i < n) {
        __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        __m512 xv = _mm512_maskz_loadu_ps(m, x + i), wv = _mm512_maskz_loadu_ps(m, w + i);
        t0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xv)),
                             _mm512_cvtps_pd(_mm512_castps512_ps256(wv)), t0);
        t1 = _mm512_fmadd_pd(_mm512_cvtps_pd(hi256(xv)),
                             _mm512_cvtps_pd(hi256(wv)), t1);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(a0, a1)) + _mm512_reduce_add_pd(_mm512_add_pd(t0, t1));
}
#elif defined(__AVX2__) && defined(__FMA__)
static inline double dot_f32_blocks(size_t n, const float *x, const float *w)
{
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    __m256d t0 = _mm256_setzero_pd(), t1 = _mm256_setzero_pd();
    size_t i = 0;
    double r = 0.0;
    for (; i + 32 <= n; i += 32) {
        __m256 p = _mm256_mul_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(w + i));
        p = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(w + i + 8), p);
        p = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 16), _mm256_loadu_ps(w + i + 16), p);
        p = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 24), _mm256_loadu_ps(w + i + 24), p);
        a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm256_castps256_ps128(p)));
        a1 = _mm256_add_pd(a1, _mm256_cvtps_pd(_mm256_extractf128_ps(p, 1)));
    }
    for (; i + 8 <= n; i += 8) {
        __m256 xv = _mm256_loadu_ps(x + i), wv = _mm256_loadu_ps(w + i);
        t0 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(xv)),
                             _mm256_cvtps_pd(_mm256_castps256_ps128(wv)), t0);
        t1 = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(xv, 1)),
                             _mm256_cvtps_pd(_mm256_extractf128_ps(wv, 1)), t1);
    }
    for (; i < n; i++) {
        r += (double)x[i] * (double)w[i];
    }
    return hsum256d(_mm256_add_pd(a0, a1)) + hsum256d(_mm256_add_pd(t0, t1)) + r;
}
#else
static inline double dot_f32_blocks(size_t n, const float *x, const float *w)
{
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 += (double)x[i] * (double)w[i];
        a1 += (double)x[i + 1] * (double)w[i + 1];
        a2 += (double)x[i + 2] * (double)w[i + 2];
        a3 += (double)x[i + 3] * (double)w[i + 3];
    }
    for (; i < n; i++) {
        a0 += (double)x[i] * (double)w[i];
    }
    return (a0 + a1) + (a2 + a3);
}
#endif
#if defined(__AVX512F__)
/* The blocks of 64 of x[0, nb): products in float32 lanes, blocks into the
 * double accumulators *a0 (lanes 0-7) and *a1 (8-15). */
static inline void blocks_f32(size_t nb, const float *x, const float *w, __m512d *a0,
                              __m512d *a1)
{
    size_t q;
    for (q = 0; q < nb; q += 64) {
        __m512 p = _mm512_mul_ps(_mm512_loadu_ps(x + q), _mm512_loadu_ps(w + q));
        p = _mm512_fmadd_ps(_mm512_loadu_ps(x + q + 16), _mm512_loadu_ps(w + q + 16), p);
        p = _mm512_fmadd_ps(_mm512_loadu_ps(x + q + 32), _mm512_loadu_ps(w + q + 32), p);
        p = _mm512_fmadd_ps(_mm512_loadu_ps(x + q + 48), _mm512_loadu_ps(w + q + 48), p);
        *a0 = _mm512_add_pd(*a0, _mm512_cvtps_pd(_mm512_castps512_ps256(p)));
        *a1 = _mm512_add_pd(*a1, _mm512_cvtps_pd(hi256(p)));
    }
}

/* w.x at that precision with w's tail (its last len = d % 64 weights, past
 * nb) given in double as wt: the blocks, then the row's tail converted and
 * its exact products in two accumulators, in any order. */
static inline double act_f32_blocks(size_t nb, size_t len, const float *x, const float *w,
                                    const double *wt)
{
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    size_t j;
    blocks_f32(nb, x, w, &a0, &a1);
    for (j = 0; j + 16 <= len; j += 16) {
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(x + nb + j)),
                             _mm512_loadu_pd(wt + j), a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(x + nb + j + 8)),
                             _mm512_loadu_pd(wt + j + 8), a1);
    }
    for (; j < len; j += 8) {
        const __mmask8 m = (__mmask8)(len - j >= 8 ? 0xFF : (1u << (len - j)) - 1u);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, x + nb + j)),
                             _mm512_loadu_pd(wt + j), a0);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(a0, a1));
}

/* The pass at that precision the cheapest way: w does not change during a
 * pass, so its tail is converted to double once, before it, and only the
 * row's tail on each row. */
size_t floor_dense_f32_blocks(const float *X, size_t n, size_t d, const float *w, double b,
                              const int8_t *y, const intptr_t *order, size_t ahead, double *sum)
{
    const size_t nb = d & ~(size_t)63, len = d - nb;
    double wt[64] = {0};
    size_t k, j, bad = 0;
    double s = 0.0;
    for (j = 0; j < len; j++) {
        wt[j] = (double)w[nb + j];
    }
    for (k = 0; k < n; k++) {
        const size_t i = order ? (size_t)order[k] : k;
        double a;
        PREFETCH_ROW(float, k, ahead, n)
        a = act_f32_blocks(nb, len, X + i * d, w, wt) + b;
        bad += (double)y[i] * a <= 0.0;
        s += a;
    }
    *sum = s;
    return bad;
}

/* floor_dense_update_f32 at that precision: the pass above plus the
 * updates, after each of which the tail of w is converted again (the
 * least an update must add to keep the tail's weights in double). */
size_t floor_dense_update_f32_blocks(const float *X, size_t n, size_t d, float *w, double *b,
                                     const int8_t *y, const intptr_t *order, size_t ahead)
{
    const size_t nb = d & ~(size_t)63, len = d - nb;
    double wt[64] = {0};
    size_t k, j, bad = 0;
    for (j = 0; j < len; j++) {
        wt[j] = (double)w[nb + j];
    }
    for (k = 0; k < n; k++) {
        const size_t i = order ? (size_t)order[k] : k;
        const float *x = X + i * d;
        double a;
        PREFETCH_ROW(float, k, ahead, n)
        a = act_f32_blocks(nb, len, x, w, wt) + *b;
        if ((double)y[i] * a <= 0.0) {
            const float yi = (float)y[i];
            for (j = 0; j < d; j++) {
                w[j] += yi * x[j];
            }
            for (j = 0; j < len; j++) {
                wt[j] = (double)w[nb + j];
            }
            *b += (double)y[i];
            bad++;
        }
    }
    return bad;
}
#else
FLOOR_DENSE(floor_dense_f32_blocks, float, float, dot_f32_blocks, PREFETCH_ROW)
#endif

/*
 * The pass above plus the perceptron's updates and nothing else: where
 * y*a <= 0, w += y*x and b += y (no averaging, no counters, no signal
 * checks, float32 accumulators).  Run for the epochs of a fit from zero
 * weights it makes about the mistakes the fit makes, so it is the floor of
 * an epoch that has to update: each mistake changes the weights the next
 * row is scored with, and the loads the processor had started for the rows
 * after it are thrown away.  w and *b are updated in place; returns the
 * mistakes.
 */
#define DENSE_UPDATE(NAME, T, DOT)                                                   \
    size_t NAME(const T *X, size_t n, size_t d, T *w, double *b, const int8_t *y,   \
                const intptr_t *order, size_t ahead)                                 \
    {                                                                                \
        size_t k, bad = 0, j;                                                        \
        for (k = 0; k < n; k++) {                                                    \
            const size_t i = order ? (size_t)order[k] : k;                           \
            const T *x = X + i * d;                                                  \
            double a;                                                                \
            PREFETCH_ROW(T, k, ahead, n)                                             \
            a = DOT(d, x, w) + *b;                                                   \
            if ((double)y[i] * a <= 0.0) {                                           \
                const T yi = (T)y[i];                                                \
                for (j = 0; j < d; j++) {                                            \
                    w[j] += yi * x[j];                                               \
                }                                                                    \
                *b += (double)y[i];                                                  \
                bad++;                                                               \
            }                                                                        \
        }                                                                            \
        return bad;                                                                  \
    }
DENSE_UPDATE(floor_dense_update_f64, double, dot_f64)
DENSE_UPDATE(floor_dense_update_f32, float, dot_f32)
#if !defined(__AVX512F__)
DENSE_UPDATE(floor_dense_update_f32_blocks, float, dot_f32_blocks)
#endif

/* k classes: row i is read once; y holds class indices (its own class
 * scores +1, the others -1: the one-vs-rest labels, made on the fly).
 * DOT4 scores the row against up to four rows of W at once. */
#define OVR(NAME, T, DOT4)                                                           \
    size_t NAME(const T *X, size_t n, size_t d, const T *W, size_t k,                \
                const double *b, const intptr_t *y, const intptr_t *order,           \
                size_t ahead, double *sum)                                           \
    {                                                                                \
        size_t r, bad = 0;                                                           \
        double s = 0.0, a[4];                                                        \
        for (r = 0; r < n; r++) {                                                    \
            const size_t i = order ? (size_t)order[r] : r;                           \
            const T *x = X + i * d;                                                  \
            size_t c0, c;                                                            \
            PREFETCH_ROW(T, r, ahead, n)                                             \
            for (c0 = 0; c0 < k; c0 += 4) {                                          \
                const size_t m = k - c0 < 4 ? k - c0 : 4;                            \
                DOT4(d, x, W + c0 * d, d, m, a);                                     \
                for (c = 0; c < m; c++) {                                            \
                    const double act = a[c] + b[c0 + c];                             \
                    const double yc = (size_t)y[i] == c0 + c ? 1.0 : -1.0;           \
                    bad += yc * act <= 0.0;                                          \
                    s += act;                                                        \
                }                                                                    \
            }                                                                        \
        }                                                                            \
        *sum = s;                                                                    \
        return bad;                                                                  \
    }
OVR(floor_ovr_f64, double, dot4_double)
OVR(floor_ovr_f32, float, dot4_float)

#if defined(__AVX512F__)
/* The classes' tails in double, k rows of 64 (zeros past len), and a row
 * of 64 after them for the row's tail: NULL when out of memory. */
static double *class_tails(const float *W, size_t k, size_t d)
{
    const size_t nb = d & ~(size_t)63, len = d - nb;
    double *wt = (double *)calloc(k * 64 + 64, sizeof(double));
    size_t c, j;
    if (wt != NULL) {
        for (c = 0; c < k; c++) {
            for (j = 0; j < len; j++) {
                wt[c * 64 + j] = (double)W[c * d + nb + j];
            }
        }
    }
    return wt;
}

/* x's tail (its last len elements, from nb) into xd, in double */
static inline void row_tail(const float *x, size_t nb, size_t len, double *xd)
{
    size_t j;
    for (j = 0; j < len; j += 8) {
        const __mmask8 m = (__mmask8)(len - j >= 8 ? 0xFF : (1u << (len - j)) - 1u);
        _mm512_storeu_pd(xd + j, _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, x + nb + j)));
    }
}

/* w.x from the blocks of x and w and the tails in double, xd and t */
static inline double act_tails(size_t nb, size_t len, const float *x, const float *w,
                               const double *xd, const double *t)
{
    const size_t groups = (len + 7) / 8;
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    size_t g;
    blocks_f32(nb, x, w, &a0, &a1);
    for (g = 0; g < groups; g++) {
        if (g & 1) {
            a1 = _mm512_fmadd_pd(_mm512_loadu_pd(xd + 8 * g), _mm512_loadu_pd(t + 8 * g), a1);
        } else {
            a0 = _mm512_fmadd_pd(_mm512_loadu_pd(xd + 8 * g), _mm512_loadu_pd(t + 8 * g), a0);
        }
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(a0, a1));
}

/* The library's float32 precision (dot_f32_blocks above) against every
 * class, the cheapest way a pass can keep it: W does not change during a
 * pass, so each class's tail (its last d % 64 weights) is converted to
 * double once, before it, and each row's tail once for all the classes;
 * the tail's exact products go into two accumulators in any order (the
 * library keeps an order: this loop need not).  With `update`, the
 * one-vs-rest updates too (W and b in place), after each of which the
 * class's tail is converted to double again. */
static inline size_t ovr_blocks(const float *X, size_t n, size_t d, float *W, size_t k,
                                double *b, const intptr_t *y, const intptr_t *order,
                                size_t ahead, int update, double *sum)
{
    const size_t nb = d & ~(size_t)63, len = d - nb;
    double *wt = class_tails(W, k, d);
    size_t r, c, j, bad = 0;
    double s = 0.0;
    if (wt == NULL) {
        return 0;
    }
    for (r = 0; r < n; r++) {
        const size_t i = order ? (size_t)order[r] : r;
        const float *x = X + i * d;
        PREFETCH_ROW(float, r, ahead, n)
        row_tail(x, nb, len, wt + k * 64);
        for (c = 0; c < k; c++) {
            float *w = W + c * d;
            double *t = wt + c * 64;
            const double act = act_tails(nb, len, x, w, wt + k * 64, t) + b[c];
            const double yc = (size_t)y[i] == c ? 1.0 : -1.0;
            /* counted without a branch: the pass's test must not cost
             * mispredictions the package's loops do not pay */
            bad += yc * act <= 0.0;
            if (update && yc * act <= 0.0) {
                const float yt = (float)yc;
                for (j = 0; j < d; j++) {
                    w[j] += yt * x[j];
                }
                for (j = 0; j < len; j++) {
                    t[j] = (double)w[nb + j];
                }
                b[c] += yc;
            }
            s += act;
        }
    }
    free(wt);
    *sum = s;
    return bad;
}

size_t floor_ovr_f32_blocks(const float *X, size_t n, size_t d, const float *W, size_t k,
                            const double *b, const intptr_t *y, const intptr_t *order,
                            size_t ahead, double *sum)
{
    /* W and b are only read (update is 0) */
    return ovr_blocks(X, n, d, (float *)W, k, (double *)b, y, order, ahead, 0, sum);
}
#else
/* The library's float32 precision (dot_f32_blocks above), one class at a
 * time: the floor of a one-vs-rest float32 epoch that keeps it. */
static inline void dot4_blocks(size_t n, const float *x, const float *w, size_t ldw, size_t m,
                               double *out)
{
    size_t c;
    for (c = 0; c < m; c++) {
        out[c] = dot_f32_blocks(n, x, w + c * ldw);
    }
}
OVR(floor_ovr_f32_blocks, float, dot4_blocks)
#endif

/*
 * The one-vs-rest pass plus the perceptron's updates and nothing else:
 * where class c's y_c*a_c <= 0, w_c += y_c*x and b_c += y_c (no averaging,
 * no counters, no signal checks).  Run for the epochs of a fit from zero
 * weights it makes about the mistakes the fit makes: the floor of a
 * one-vs-rest epoch that has to update.  W and b are updated in place;
 * returns the mistakes.
 */
#define OVR_UPDATE(NAME, T, DOT4)                                                    \
    size_t NAME(const T *X, size_t n, size_t d, T *W, size_t k, double *b,           \
                const intptr_t *y, const intptr_t *order, size_t ahead)              \
    {                                                                                \
        size_t r, bad = 0, j;                                                        \
        double a[4];                                                                 \
        for (r = 0; r < n; r++) {                                                    \
            const size_t i = order ? (size_t)order[r] : r;                           \
            const T *x = X + i * d;                                                  \
            size_t c0, c;                                                            \
            PREFETCH_ROW(T, r, ahead, n)                                             \
            for (c0 = 0; c0 < k; c0 += 4) {                                          \
                const size_t m = k - c0 < 4 ? k - c0 : 4;                            \
                DOT4(d, x, W + c0 * d, d, m, a);                                     \
                for (c = 0; c < m; c++) {                                            \
                    const double yc = (size_t)y[i] == c0 + c ? 1.0 : -1.0;           \
                    if (yc * (a[c] + b[c0 + c]) <= 0.0) {                            \
                        T *w = W + (c0 + c) * d;                                     \
                        const T yt = (T)yc;                                          \
                        for (j = 0; j < d; j++) {                                    \
                            w[j] += yt * x[j];                                       \
                        }                                                            \
                        b[c0 + c] += yc;                                             \
                        bad++;                                                       \
                    }                                                                \
                }                                                                    \
            }                                                                        \
        }                                                                            \
        return bad;                                                                  \
    }
OVR_UPDATE(floor_ovr_update_f64, double, dot4_double)
OVR_UPDATE(floor_ovr_update_f32, float, dot4_float)

#if defined(__AVX512F__)
/* floor_ovr_update_f32 at the library's float32 precision (ovr_blocks) */
size_t floor_ovr_update_f32_blocks(const float *X, size_t n, size_t d, float *W, size_t k,
                                   double *b, const intptr_t *y, const intptr_t *order,
                                   size_t ahead)
{
    double sum;
    return ovr_blocks(X, n, d, W, k, b, y, order, ahead, 1, &sum);
}
#else
OVR_UPDATE(floor_ovr_update_f32_blocks, float, dot4_blocks)
#endif

/* The gathers of a CSR epoch: four scalar accumulators over the row's
 * non-zeros (the compiler vectorizes the gather where the level has one).
 * Shuffled, each row's values and indices are asked for into L2 `ahead`
 * rows before it is read (its row pointers `2 * ahead` rows before: a
 * random row's pointers are a cache miss of their own on large sets), and
 * into L1 `near` rows before (0: not), the best a plain loop found.
 *
 * Written once for rows with values and for binary rows (binary_floor.c:
 * every value 1, the indices alone): TERM(p) is non-zero p's share of the
 * activation, its value times its weight (CSR_TERM) or its weight alone,
 * and VALUES(fetch, lo, hi) asks for a row's values (CSR_VALUES), or for
 * nothing. */
#define CSR_TERM(p) (double)data[p] * (double)w[indices[p]]
#define CSR_VALUES(fetch, lo, hi) fetch(data + lo, (size_t)(hi - lo) * sizeof(*data));

#define ROW_SUM(TERM, lo, hi, out)                                                   \
    do {                                                                             \
        double a0_ = 0, a1_ = 0, a2_ = 0, a3_ = 0;                                   \
        int64_t p_ = lo;                                                             \
        for (; p_ + 4 <= hi; p_ += 4) {                                              \
            a0_ += TERM(p_);                                                         \
            a1_ += TERM(p_ + 1);                                                     \
            a2_ += TERM(p_ + 2);                                                     \
            a3_ += TERM(p_ + 3);                                                     \
        }                                                                            \
        for (; p_ < hi; p_++) {                                                      \
            a0_ += TERM(p_);                                                         \
        }                                                                            \
        out = (a0_ + a1_) + (a2_ + a3_);                                             \
    } while (0)

#define ROWS_PREFETCH(VALUES, I)                                                     \
    if (ahead != 0 && order && r + 2 * ahead < n) {                                  \
        __builtin_prefetch(indptr + order[r + 2 * ahead], 0, 2);                     \
    }                                                                                \
    if (ahead != 0 && r + ahead < n) {                                               \
        const size_t j = order ? (size_t)order[r + ahead] : r + ahead;               \
        const int64_t jl = indptr[j], jh = indptr[j + 1];                            \
        VALUES(prefetch_range, jl, jh)                                               \
        prefetch_range(indices + jl, (size_t)(jh - jl) * sizeof(I));                 \
    }                                                                                \
    if (near != 0 && r + near < n) {                                                 \
        const size_t j = order ? (size_t)order[r + near] : r + near;                 \
        const int64_t jl = indptr[j], jh = indptr[j + 1];                            \
        VALUES(prefetch_range_l1, jl, jh)                                            \
        prefetch_range_l1(indices + jl, (size_t)(jh - jl) * sizeof(I));              \
    }

/* The pass's body: the activation of each visited row and the perceptron's
 * test, over the parameters of CSR below (data apart). */
#define ROWS_PASS(TERM, VALUES, I)                                                   \
    {                                                                                \
        size_t r, bad = 0;                                                           \
        double s = 0.0;                                                              \
        if (order == NULL && ahead == 0 && near == 0) {                              \
            /* in order, the loop without the branches of the general one */        \
            /* (a9a: 0.29 -> 0.26 ms) */                                             \
            for (r = 0; r < n; r++) {                                                \
                double a;                                                            \
                ROW_SUM(TERM, indptr[r], indptr[r + 1], a);                          \
                a += b;                                                              \
                bad += (double)y[r] * a <= 0.0;                                      \
                s += a;                                                              \
            }                                                                        \
            *sum = s;                                                                \
            return bad;                                                              \
        }                                                                            \
        for (r = 0; r < n; r++) {                                                    \
            const size_t i = order ? (size_t)order[r] : r;                           \
            double a;                                                                \
            ROWS_PREFETCH(VALUES, I)                                                 \
            ROW_SUM(TERM, indptr[i], indptr[i + 1], a);                              \
            a += b;                                                                  \
            bad += (double)y[i] * a <= 0.0;                                          \
            s += a;                                                                  \
        }                                                                            \
        *sum = s;                                                                    \
        return bad;                                                                  \
    }

#define CSR(NAME, T)                                                                 \
    size_t NAME(const T *data, const int32_t *indices, const int64_t *indptr,        \
                size_t n, const T *w, double b, const int8_t *y,                     \
                const intptr_t *order, size_t ahead, size_t near, double *sum)       \
    ROWS_PASS(CSR_TERM, CSR_VALUES, int32_t)
CSR(floor_csr_f64, double)
CSR(floor_csr_f32, float)

/* The same pass plus the perceptron's updates, for `epochs` passes over the
 * rows from the weights w and bias *b given (zeros: the fit's start): on
 * y*a <= 0, w[indices] += y * data and b += y, in the weights' type.  Less
 * than an epoch does (no margin, no averaging, no sample weights, no
 * counters but the mistakes, no check of finiteness), so that an epoch's
 * distance to it is the cost of its bookkeeping, and the distance of this
 * loop to the floor above the cost of the updates themselves: a mistake is
 * a branch no processor predicts, and the rows after it wait for the
 * weights it writes. */
#define CSR_STEP(T, i)                                                               \
    {                                                                                \
        const int64_t lo = indptr[i], hi = indptr[i + 1];                            \
        double a;                                                                    \
        ROW_SUM(CSR_TERM, lo, hi, a);                                                \
        a += bias;                                                                   \
        if ((double)y[i] * a <= 0.0) {                                               \
            const T step = (T)y[i];                                                  \
            int64_t p;                                                               \
            for (p = lo; p < hi; p++) {                                              \
                w[indices[p]] += step * data[p];                                     \
            }                                                                        \
            bias += (double)y[i];                                                    \
            bad++;                                                                   \
        }                                                                            \
    }

#define CSR_UPDATE(NAME, T)                                                          \
    size_t NAME(const T *data, const int32_t *indices, const int64_t *indptr,        \
                size_t n, T *w, double *b, const int8_t *y,                          \
                const intptr_t *order, size_t ahead, size_t near, size_t epochs)     \
    {                                                                                \
        size_t e, r, bad = 0;                                                        \
        double bias = *b;                                                            \
        for (e = 0; e < epochs; e++) {                                               \
            if (order == NULL && ahead == 0 && near == 0) {                          \
                for (r = 0; r < n; r++) {                                            \
                    CSR_STEP(T, r)                                                   \
                }                                                                    \
                continue;                                                            \
            }                                                                        \
            for (r = 0; r < n; r++) {                                                \
                const size_t i = order ? (size_t)order[r] : r;                       \
                ROWS_PREFETCH(CSR_VALUES, int32_t)                                   \
                CSR_STEP(T, i)                                                       \
            }                                                                        \
        }                                                                            \
        *b = bias;                                                                   \
        return bad;                                                                  \
    }
CSR_UPDATE(floor_csr_update_f64, double)
CSR_UPDATE(floor_csr_update_f32, float)

/* Gallant's (1990) pocket with ratchet over dense float32 rows, in the
 * order given (NULL: in order): floor_common.h's FLOOR_POCKET, the floor of
 * a pocket fit.  The pocket starts as the start weights w (zeros for a
 * fit), scored once. */
FLOOR_POCKET(pocket_f32, float, dot_f32)

size_t floor_pocket_f32(const float *X, size_t n, size_t d, const int8_t *y,
                        const intptr_t *order, size_t epochs, float *w, double *b,
                        float *pw, double *pb, size_t *rows_scored)
{
    return pocket_f32(X, n, d, y, order, epochs, w, b, pw, pb, rows_scored);
}

/*
 * simd_scalar.c - the kernels of the scalar level: portable C99, the
 * reference level, and the fallback on CPUs (or architectures) without a
 * faster one.  What each kernel computes, and its guarantees, is in
 * ptn_simd.h.
 *
 * Four independent partial sums let the compiler overlap the additions; the
 * code stays plain C so that it builds for the baseline of any target.
 */
#include "ptn_simd.h"
#include "ptn_scan.h"
#include "ptn_sparse_inline.h"

#include <math.h>

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "simd_scalar.c must be compiled for the baseline instruction set"
#endif

PTN_INLINE double ptn_dot_f32_inline_scalar(size_t n, const float *x, const float *y)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += (double)x[i] * (double)y[i];
        s1 += (double)x[i + 1] * (double)y[i + 1];
        s2 += (double)x[i + 2] * (double)y[i + 2];
        s3 += (double)x[i + 3] * (double)y[i + 3];
    }
    for (; i < n; i++) {
        s0 += (double)x[i] * (double)y[i];
    }
    return (s0 + s1) + (s2 + s3);
}

double ptn_dot_f32_scalar(size_t n, const float *x, const float *y)
{
    return ptn_dot_f32_inline_scalar(n, x, y);
}

PTN_INLINE double ptn_dot_f64_inline_scalar(size_t n, const double *x, const double *y)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; i++) {
        s0 += x[i] * y[i];
    }
    return (s0 + s1) + (s2 + s3);
}

double ptn_dot_f64_scalar(size_t n, const double *x, const double *y)
{
    return ptn_dot_f64_inline_scalar(n, x, y);
}

void ptn_axpy_f32_scalar(size_t n, float a, const float *x, float *y)
{
    size_t i;
    for (i = 0; i < n; i++) {
        y[i] += a * x[i];
    }
}

void ptn_axpy_f64_scalar(size_t n, double a, const double *x, double *y)
{
    size_t i;
    for (i = 0; i < n; i++) {
        y[i] += a * x[i];
    }
}

void ptn_axpy_f32_f64_scalar(size_t n, double a, const float *x, double *y)
{
    size_t i;
    for (i = 0; i < n; i++) {
        y[i] += a * (double)x[i];
    }
}

double ptn_sqdist_f32_scalar(size_t n, const float *x, const float *y)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        double d0 = (double)x[i] - (double)y[i], d1 = (double)x[i + 1] - (double)y[i + 1];
        double d2 = (double)x[i + 2] - (double)y[i + 2], d3 = (double)x[i + 3] - (double)y[i + 3];
        s0 += d0 * d0;
        s1 += d1 * d1;
        s2 += d2 * d2;
        s3 += d3 * d3;
    }
    for (; i < n; i++) {
        double d = (double)x[i] - (double)y[i];
        s0 += d * d;
    }
    return (s0 + s1) + (s2 + s3);
}

double ptn_sqdist_f64_scalar(size_t n, const double *x, const double *y)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        double d0 = x[i] - y[i], d1 = x[i + 1] - y[i + 1];
        double d2 = x[i + 2] - y[i + 2], d3 = x[i + 3] - y[i + 3];
        s0 += d0 * d0;
        s1 += d1 * d1;
        s2 += d2 * d2;
        s3 += d3 * d3;
    }
    for (; i < n; i++) {
        double d = x[i] - y[i];
        s0 += d * d;
    }
    return (s0 + s1) + (s2 + s3);
}

/* The C library's exp is the portable reference (correctly rounded or within
 * an ulp on every mainstream libm); the SIMD levels approximate it. */
void ptn_exp_f64_scalar(size_t n, const double *x, double *y)
{
    size_t i;
    for (i = 0; i < n; i++) {
        y[i] = exp(x[i]);
    }
}

/* The q loop innermost, over contiguous BT and out, so that a compiler may
 * vectorise it for the baseline; each out[k*p + q] sums over i in order. */
void ptn_dot_block_f32_scalar(size_t m, size_t d, const float *A, size_t lda, const double *shift,
                              size_t p, const double *BT, double *out)
{
    size_t k, i, q;
    for (k = 0; k < m; k++) {
        double *o = out + k * p;
        for (q = 0; q < p; q++) {
            o[q] = 0.0;
        }
        for (i = 0; i < d; i++) {
            const double a = (double)A[k * lda + i] - shift[i];
            const double *b = BT + i * p;
            for (q = 0; q < p; q++) {
                o[q] += a * b[q];
            }
        }
    }
}

void ptn_dot_block_f64_scalar(size_t m, size_t d, const double *A, size_t lda, const double *shift,
                              size_t p, const double *BT, double *out)
{
    size_t k, i, q;
    for (k = 0; k < m; k++) {
        double *o = out + k * p;
        for (q = 0; q < p; q++) {
            o[q] = 0.0;
        }
        for (i = 0; i < d; i++) {
            const double a = A[k * lda + i] - shift[i];
            const double *b = BT + i * p;
            for (q = 0; q < p; q++) {
                o[q] += a * b[q];
            }
        }
    }
}

void ptn_rbf_block_f64_scalar(size_t m, size_t p, const double *na, const double *nb, double gamma,
                              double *buf)
{
    size_t r, q;
    for (r = 0; r < m; r++) {
        double *o = buf + r * p;
        for (q = 0; q < p; q++) {
            double v = na[r] + nb[q] - 2.0 * o[q];
            o[q] = exp(-gamma * (v > 0.0 ? v : 0.0));
        }
    }
}

/* ------------------------------------------------------------------ scan */

size_t ptn_scan_f32_scalar(const ptn_scan *s, size_t start, size_t stop, double *act)
{
    PTN_SCAN_BODY(float, ptn_dot_f32_inline_scalar)
}

size_t ptn_scan_f64_scalar(const ptn_scan *s, size_t start, size_t stop, double *act)
{
    PTN_SCAN_BODY(double, ptn_dot_f64_inline_scalar)
}

size_t ptn_scan_plain_f32_scalar(const ptn_scan *s, size_t start, size_t stop, double *act,
                               ptn_plain *plain_)
{
    PTN_SCAN_PLAIN_BODY(float, ptn_dot_f32_inline_scalar, ptn_axpy_f32_scalar)
}

size_t ptn_scan_plain_f64_scalar(const ptn_scan *s, size_t start, size_t stop, double *act,
                               ptn_plain *plain_)
{
    PTN_SCAN_PLAIN_BODY(double, ptn_dot_f64_inline_scalar, ptn_axpy_f64_scalar)
}

void ptn_dots_f32_scalar(size_t n, const float *x, const float *const *w, size_t m, double *out)
{
    PTN_DOTS_BODY(ptn_dot_f32_inline_scalar)
}

void ptn_dots_f64_scalar(size_t n, const double *x, const double *const *w, size_t m, double *out)
{
    PTN_DOTS_BODY(ptn_dot_f64_inline_scalar)
}

PTN_DOTS_F32_TAILS_UNUSED(scalar)

/* ------------------------------------------------------------ sparse rows */

/* The exported scalar sparse kernels (ptn_sparse_inline.h has their code,
 * which ptn_csr_online.h inlines too).  These serve every level for the
 * updates and for weights that fit in L1 (ptn_simd.h). */
#define PTN_SDOT_SCALAR(NAME, INLINE, T, I)                                          \
    double NAME(size_t nnz, const T *val, const I *idx, const T *w)                  \
    {                                                                                \
        return INLINE(nnz, val, idx, w);                                             \
    }

#define PTN_SAXPY_SCALAR(NAME, INLINE, T, A, I, W)                                   \
    void NAME(size_t nnz, A a, const T *val, const I *idx, W *w)                     \
    {                                                                                \
        INLINE(nnz, a, val, idx, w);                                                 \
    }

PTN_SDOT_SCALAR(ptn_sdot_f32_i32_scalar, ptn_sdot_f32_i32_inline, float, int32_t)
PTN_SDOT_SCALAR(ptn_sdot_f32_i64_scalar, ptn_sdot_f32_i64_inline, float, int64_t)
PTN_SDOT_SCALAR(ptn_sdot_f64_i32_scalar, ptn_sdot_f64_i32_inline, double, int32_t)
PTN_SDOT_SCALAR(ptn_sdot_f64_i64_scalar, ptn_sdot_f64_i64_inline, double, int64_t)
PTN_SAXPY_SCALAR(ptn_saxpy_f32_i32_scalar, ptn_saxpy_f32_i32_inline, float, float, int32_t, float)
PTN_SAXPY_SCALAR(ptn_saxpy_f32_i64_scalar, ptn_saxpy_f32_i64_inline, float, float, int64_t, float)
PTN_SAXPY_SCALAR(ptn_saxpy_f64_i32_scalar, ptn_saxpy_f64_i32_inline, double, double, int32_t,
                 double)
PTN_SAXPY_SCALAR(ptn_saxpy_f64_i64_scalar, ptn_saxpy_f64_i64_inline, double, double, int64_t,
                 double)
PTN_SAXPY_SCALAR(ptn_saxpy_f32_f64_i32_scalar, ptn_saxpy_f32_f64_i32_inline, float, double,
                 int32_t, double)
PTN_SAXPY_SCALAR(ptn_saxpy_f32_f64_i64_scalar, ptn_saxpy_f32_f64_i64_inline, float, double,
                 int64_t, double)

/* ------------------------------------------------------------ CSR checks */

#define PTN_DESCENTS_SCALAR(NAME, I)                                                 \
    size_t NAME(size_t n, const I *a, int strict, I *lo, I *hi)                      \
    {                                                                                \
        size_t k = 1, count = 0;                                                     \
        I mn, mx;                                                                    \
        if (n == 0) {                                                                \
            return 0;                                                                \
        }                                                                            \
        mn = mx = a[0];                                                              \
        PTN_DESCENTS_FINISH(a, n, k, strict, count, mn, mx, lo, hi)                  \
    }

PTN_DESCENTS_SCALAR(ptn_descents_i32_scalar, int32_t)
PTN_DESCENTS_SCALAR(ptn_descents_i64_scalar, int64_t)

/* ------------------------------------------------------------- row orders */

void ptn_draws_scalar(ptn_rng *r, size_t top, size_t count, uint32_t *out)
{
    ptn_draws_below(r, top, count, out);
}

void ptn_shuffle_scalar(ptn_rng *r, ptrdiff_t *order, size_t n)
{
    ptn_shuffle(r, order, n);
}

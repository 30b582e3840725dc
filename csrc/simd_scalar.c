/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
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
#include "ptn_narrow.h"

#include <math.h>

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "simd_scalar.c must be compiled for the baseline instruction set"
#endif

/* y[i] += a * x[i], the product in TY (TA: a's type) */
#define PTN_SCALAR_AXPY(NAME, TA, TX, TY)                                            \
    void NAME(size_t n, TA a, const TX *x, TY *y)                                    \
    {                                                                                \
        size_t i;                                                                    \
        for (i = 0; i < n; i++) {                                                    \
            y[i] += a * (TY)x[i];                                                    \
        }                                                                            \
    }

PTN_SCALAR_SUM(PTN_INLINE, ptn_dot_f32_inline_scalar, float, PTN_SCALAR_OP_DOT)
PTN_SCALAR_SUM(PTN_INLINE, ptn_dot_f64_inline_scalar, double, PTN_SCALAR_OP_DOT)
PTN_SCALAR_AXPY(ptn_axpy_f32_scalar, float, float, float)
PTN_SCALAR_AXPY(ptn_axpy_f64_scalar, double, double, double)
PTN_SCALAR_AXPY(ptn_axpy_f32_f64_scalar, double, float, double)
PTN_SCALAR_SUM(, ptn_sqdist_f32_scalar, float, PTN_SCALAR_OP_SQDIST)
PTN_SCALAR_SUM(, ptn_sqdist_f64_scalar, double, PTN_SCALAR_OP_SQDIST)

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
static inline void ptn_dot_block_scalar(int f32, size_t m, size_t d, const void *A, size_t lda,
                                        const double *shift, size_t p, const double *BT,
                                        double *out)
{
    size_t k, i, q;
    for (k = 0; k < m; k++) {
        double *o = out + k * p;
        for (q = 0; q < p; q++) {
            o[q] = 0.0;
        }
        for (i = 0; i < d; i++) {
            const double a = ptn_block_a(f32, A, k * lda + i) - shift[i];
            const double *b = BT + i * p;
            for (q = 0; q < p; q++) {
                o[q] += a * b[q];
            }
        }
    }
}

PTN_DOT_BLOCK_F32_F64(, ptn_dot_block_f32_scalar, ptn_dot_block_f64_scalar, ptn_dot_block_scalar)

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

/* the public dot products, scans, plain scans, dots (ptn_simd.h) */
PTN_KERNELS_FROM_DOTS(scalar)

/* ------------------------------------------------------------ narrow rows */

/* ptn_narrow.h: the float32 dot product's sums with each element converted
 * as read, the elementwise kernels and the scans over them */
#define PTN_SCALAR_NARROW(K, T)                                                      \
    PTN_SCALAR_SUM_OF(PTN_INLINE, ptn_ndot_##K##_inline_scalar, T, float,            \
                      ptn_##K##_to_f32, PTN_SCALAR_OP_DOT)                           \
    PTN_NARROW_ELEMENTWISE_KIND(, scalar, K, T)                                      \
    PTN_NARROW_SCANS_KIND(, scalar, K, T)
PTN_NARROW_KINDS(PTN_SCALAR_NARROW)
PTN_NARROW_ENTRIES(, scalar)

void ptn_nconvert_scalar(int kind, size_t n, const void *x, float *out)
{
    PTN_NARROW_DISPATCH(kind, PTN_NCALL_CONVERT, scalar)
}

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

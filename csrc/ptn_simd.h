/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_simd.h - the dense and sparse vector kernels, their contracts, and the
 * dispatch table.
 *
 * Each kernel exists once per instruction-set level:
 *   scalar  portable C99, every CPU (simd_scalar.c)
 *   avx2    x86 with AVX2 and FMA: Haswell, Zen and later (simd_avx2.c)
 *   avx512  x86 with AVX-512F and DQ, AVX2 and FMA: Skylake-SP, Ice Lake,
 *           Zen 4 and later (simd_avx512.c)
 *   neon    64-bit ARM, where Advanced SIMD is part of every ARMv8-A core
 *           (simd_neon.c)
 * A level may hand an operation to the scalar kernel (the list PTN_KERNELS
 * below says which); the contracts below hold for every entry of every table, and the
 * level files do not repeat them.
 *
 * Every kernel:
 *   - takes lengths as element counts; n == 0 (nnz == 0, m == 0, p == 0) is
 *     valid and touches no memory;
 *   - needs no particular alignment of its pointers (a level may read an
 *     unaligned array by aligned lines, never outside the array);
 *   - reads its inputs and writes only its outputs, which must not overlap
 *     the inputs except where an entry below allows it;
 *   - keeps no state between calls, so any number of threads may call it.
 *
 * Results may differ between levels in the last bits of a dot product
 * because the summation order differs; they are exact when every partial
 * sum is representable (integer-valued data), which the tests use.
 *
 * dot_f32(n, x, y), dot_f64(n, x, y)
 *     sum_i x[i] * y[i], returned in double.  float64: fused multiply-adds
 *     into lane accumulators.  float32: in blocks (64 elements with AVX-512,
 *     32 with AVX2, 16 with NEON) whose lanes add their four products in
 *     float32 (fused multiply-adds: one rounding each), the blocks summed
 *     in double.  The error is then a few float32 roundings of the terms of
 *     one block, at most 4 * 2^-24 * sum |x_i y_i| plus the double
 *     summation's, whatever n is (a float32 accumulator's error would grow
 *     with n, and 2^24 + 1 ones would sum to 2^24).  Converting every
 *     product to double instead costs twice the instructions, which a
 *     shuffled epoch cannot hide behind its memory reads.  The tail of
 *     fewer than a block, and the scalar level, use exact double products
 *     (the product of two floats is exact in double), so short vectors
 *     and integer-valued data sum exactly as in float64.
 *     Out of float32's range the blocks are not used: a result that is not
 *     finite, or smaller than n * PTN_F32_BLOCK_FLOOR (2^-102, where
 *     products may have underflowed), is computed again with exact
 *     products, so data scaled by 1e30 or 1e-30 get the same activations as
 *     in float64 up to the rounding above.
 *
 * axpy_f32(n, a, x, y), axpy_f64(n, a, x, y)
 *     y[i] += a * x[i] in the vector's own precision, fused (one rounding)
 *     where the level has FMA.  x and y may be the same array but must not
 *     otherwise overlap.
 * axpy_f32_f64(n, a, x, y)
 *     y[i] += a * (double)x[i]: float32 data into float64 accumulators
 *     (averaged weights, mini-batch gradients and class sums are
 *     accumulated in double for float32 data).
 *
 * sqdist_f32(n, x, y), sqdist_f64(n, x, y)
 *     sum_i (x[i] - y[i])^2, summed in double like the float64 dot product
 *     (float32 inputs converted exactly).  The Gaussian (RBF) kernel needs
 *     it; computing it directly avoids the cancellation of
 *     ||x||^2 + ||y||^2 - 2 x.y when x and y are close.
 *
 * exp_f64(n, x, y)
 *     y[i] = exp(x[i]), within a few ulp of the correctly rounded value over
 *     the whole double range (overflow to +inf, gradual underflow to 0, NaN
 *     propagated); ptn_exp.h holds the method, the same at every level.  y
 *     may be x itself.
 *
 * dot_block_f32(m, d, A, lda, shift, p, BT, out), dot_block_f64(...)
 *     many dot products at once, the way the kernel methods need them (a
 *     tile of rows of X against a block of vectors):
 *       out[k*p + q] = sum_i (A[k*lda + i] - shift[i]) * BT[i*p + q]
 *     for k < m, q < p, i < d, in double, with A's rows (m rows of d values,
 *     lda apart) shifted by `shift` (the data's mean, so that squared
 *     distances taken as ||a||^2 + ||b||^2 - 2 a.b do not lose digits to a
 *     large offset; zeros for no shift) and the p vectors stored transposed
 *     (BT, d x p).  Each output is one accumulator lane summed over i in
 *     order, so a value does not depend on m, p or its position;
 *     vectorising over q needs no horizontal sums, and the inner loop is
 *     nothing but FMAs.  out (m x p) must not overlap the inputs.
 * rbf_block_f64(m, p, na, nb, gamma, buf)
 *     turns such a block of dot products, in place, into Gaussian kernel
 *     values:
 *       buf[r*p + q] = exp(-gamma * max(na[r] + nb[q] - 2 buf[r*p + q], 0))
 *     with na, nb the squared norms of the (shifted) rows: the squared
 *     distance, clipped at 0 against rounding, and its exp in one pass.
 *
 * scan_f32(s, start, stop, act), scan_f64(...)
 *     the perceptron's search for its next update (the loop is in
 *     ptn_scan.h).  For k = start, start + 1, ... < stop, with i =
 *     s->rows[k] and a = s->w . x_i + s->b (the level's dot product, summed
 *     in double), returns the first k where the rule must act: not
 *     (margin < y_i*a < +inf), which is y_i*a <= margin (a mistake, or a
 *     margin violation) or a non-finite activation (the caller tells
 *     which); *act receives that a.  Returns stop, with *act untouched,
 *     when every row of the stretch is right.  The weights are read, never
 *     written.  With s->ahead > 0 the row at position k + ahead (if
 *     < s->n_rows) is prefetched before row k is read.  Between two updates
 *     the weights do not change, so the whole stretch of correct rows runs
 *     here, with the dot product inlined and nothing else per row; the
 *     training loop only sees the rows it updates on.  a has the bits of
 *     the same level's dot_<type>(d, x_i, w) + b (tested).
 * scan_plain_f32(s, start, stop, act, plain), scan_plain_f64(...)
 *     the scan with the plain binary rule applied where it must act (no
 *     averaging, no pocket, sample weights of 1): for each such row with a
 *     finite activation, ptn_binary_update (ptn_update.h) counts the row
 *     into *plain and gives the rule's step, the bias moves by it
 *     (fit_intercept) and w += step * x_i by the level's axpy_<type>, all
 *     in the order and with
 *     the bits of the binary loop that scans and updates itself; then the
 *     scan goes on with the new weights.  Returns stop, or the first k whose
 *     activation is not finite (*act receives it; nothing is counted or
 *     updated for that row).  The bias starts from s->b and ends in
 *     plain->b; s->w is written.
 *
 * dots_f32(n, x, w, m, out), dots_f64(...)
 *     out[c] = dot_<type>(n, x, w[c]) for c < m: one row against m weight
 *     vectors (one-vs-rest scores each row against every class's weights).
 *     Each out[c] has the bits of the same level's dot_<type> (and so of
 *     its scan's activation, less the bias): the same blocks, the same
 *     accumulation order, the same float32 fallback to exact products.
 *     The row is read from memory once and from L1 for the other classes.
 *     w holds m pointers (not necessarily distinct); out must not overlap
 *     the inputs.
 *
 * dots_f32_tails(n, x, w, wt, m, out)
 *     dots_f32, the same bits (tested), given each weight vector's last
 *     n % 64 elements in double as well: wt[c][j] = (double)w[c][n - n % 64
 *     + j] for j < n % 64, and +0.0 up to PTN_F32_TAIL_MAX.  Those elements
 *     are the exact tail of the AVX-512 float32 dot product (all of it below
 *     64), whose weights dots_f32 converts to double on every row; a caller
 *     that scores many rows between two changes of w converts them once
 *     (ptn_f32_tail_to_double), and again for a vector it updates.  Levels
 *     whose blocks are not of 64 ignore wt.
 *
 * sdot_<value>_<index>(nnz, val, idx, w)
 *     sum_j val[j] * w[idx[j]] over a sparse row (CSR: nnz values with
 *     their column indices, int32 or int64 as scipy stores them), in double
 *     with exact double products.  At the AVX2 and AVX-512 levels the
 *     weights are fetched with vector gathers, which keep many loads in
 *     flight and pay when the weights miss L1 and cost when they fit in it
 *     (the performance page of the docs has the timings); so a
 *     loop uses the level's sdot for weight vectors larger than
 *     PTN_SPARSE_GATHER_MIN_BYTES and the scalar one below.
 * saxpy_<value>_<index>(nnz, a, val, idx, w), saxpy_f32_f64_<index>(...)
 *     w[idx[j]] += a * val[j] (float32 values into float64 weights for the
 *     _f32_f64 ones).  Scalar at every level: a scatter must write each
 *     lane on its own, and an update happens only on a mistake.
 *     For both: indices must be valid (0 <= idx < len(w)) and, for saxpy,
 *     distinct within a row; the Python layer checks both.
 *
 * descents_i32(n, a, strict, lo, hi), descents_i64(...)
 *     CSR structure in one pass: over a[0, n), the number of k in [1, n)
 *     with a[k] <= a[k-1] (with strict: a[k] < a[k-1]), and the least and
 *     greatest element (*lo and *hi, untouched when n == 0).  Over indptr
 *     (strict) a count of 0 means the row pointers never decrease; over
 *     indices the count minus the descents at row starts is the number of
 *     columns out of order within rows (perceptron/_core/csr.pyx).  Exact
 *     integers at every level, for int32 arrays of up to 2^36 elements (the
 *     vector levels count in 32-bit lanes).
 *
 * draws(r, top, count, out), shuffle(r, order, n)
 *     an epoch's row order (ptn_rng.h).  draws: out[l] = ptn_rng_below(r,
 *     top - l) for l < count (top < 2^32, top - count + 1 >= 1), the
 *     generator left where those calls would leave it.  shuffle: order[0, n)
 *     permuted in place by the Fisher-Yates shuffle (Durstenfeld 1964;
 *     Knuth, TAOCP vol. 2, 3.4.2, Algorithm P) with those draws, exactly as
 *     ptn_shuffle.  Every level gives the same permutation and leaves the
 *     generator in the same state (the row orders are part of a fit's
 *     result, reproducible from its seed): the AVX-512 level computes eight
 *     draws at once (with AVX-512DQ's 64-bit products) and hands the rare
 *     draw that needs Lemire's rejection test to the scalar code.
 *
 * ndot(kind, n, x, w), naxpy(kind, n, a, x, y), naxpy_f64(kind, n, a, x, u)
 * nscan(kind, s, start, stop, act), nscan_plain(kind, s, start, stop, act, plain)
 *     rows stored narrower than their float32 weights (ptn_narrow.h), x of
 *     `kind`: PTN_X_F16 (IEEE half), PTN_X_BF16 (bfloat16), PTN_X_I8,
 *     PTN_X_U8.  Each has the bits its float32 kernel of the same level
 *     (dot_f32, axpy_f32, axpy_f32_f64, scan_f32, scan_plain_f32) gives on
 *     the row converted to float32 first (every value of those types is a
 *     float32 exactly), while reading the row as stored; s->X holds rows of
 *     `kind` and s->w float32 weights.  The conversions are F16C's at the
 *     AVX2 level, AVX-512F's at AVX-512, the Advanced SIMD ones at NEON.
 * nconvert(kind, n, x, out)
 *     out[i] = x[i] as a float32, exactly.
 */
#ifndef PTN_SIMD_H
#define PTN_SIMD_H

#include "ptn_config.h"
#include "ptn_scalar_sum.h"
#include "ptn_rng.h"
#include "ptn_update.h"

/* 2^-102: a blocked float32 dot product of n terms smaller than n times this
 * is computed again exactly (see dot_f32 above). */
#define PTN_F32_BLOCK_FLOOR 1.9721522630525295e-31

/* True when a blocked float32 dot product r of n terms must be computed again
 * with exact products: out of float32's range (products or lane sums that
 * overflowed, or underflowed far enough to matter: then |r| < n 2^-102, so
 * the lost part, under n 2^-126, is below 2^-24 |r|), or NaN.  For the level
 * files, which include <math.h>. */
#define PTN_F32_BLOCKS_REDO(r, n) \
    (!(fabs(r) >= (double)(n) * PTN_F32_BLOCK_FLOOR) || fabs(r) == HUGE_VAL)

/* The end of a level's descents_<type> (ptn_simd.h, above): the elements of
 * a from k on one at a time into count and the least and greatest so far,
 * m0 and m1; then the results. */
#define PTN_DESCENTS_FINISH(a, n, k, strict, count, m0, m1, lo, hi)   \
    for (; k < n; k++) {                                             \
        count += strict ? a[k] < a[k - 1] : a[k] <= a[k - 1];        \
        m0 = a[k] < m0 ? a[k] : m0;                                  \
        m1 = a[k] > m1 ? a[k] : m1;                                  \
    }                                                                \
    *lo = m0;                                                        \
    *hi = m1;                                                        \
    return count;

/* Sparse dot products gather their weights with vector gathers only when the
 * weight vector is larger than this (see sdot above): smaller ones stay
 * in L1, where the scalar loop is faster. */
#define PTN_SPARSE_GATHER_MIN_BYTES 32768

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptn_level {
    PTN_LEVEL_SCALAR = 0,
    PTN_LEVEL_AVX2 = 1,
    PTN_LEVEL_AVX512 = 2,
    PTN_LEVEL_NEON = 3,
    PTN_LEVEL_COUNT = 4
} ptn_level;

typedef double (*ptn_dot_f32_fn)(size_t n, const float *x, const float *y);
typedef double (*ptn_dot_f64_fn)(size_t n, const double *x, const double *y);
typedef void (*ptn_axpy_f32_fn)(size_t n, float a, const float *x, float *y);
typedef void (*ptn_axpy_f64_fn)(size_t n, double a, const double *x, double *y);
typedef void (*ptn_axpy_f32_f64_fn)(size_t n, double a, const float *x, double *y);
typedef double (*ptn_sqdist_f32_fn)(size_t n, const float *x, const float *y);
typedef double (*ptn_sqdist_f64_fn)(size_t n, const double *x, const double *y);
typedef void (*ptn_exp_f64_fn)(size_t n, const double *x, double *y);
typedef void (*ptn_block_f32_fn)(size_t m, size_t d, const float *A, size_t lda,
                                 const double *shift, size_t p, const double *BT, double *out);
typedef void (*ptn_block_f64_fn)(size_t m, size_t d, const double *A, size_t lda,
                                 const double *shift, size_t p, const double *BT, double *out);
typedef void (*ptn_rbf_block_f64_fn)(size_t m, size_t p, const double *na, const double *nb,
                                     double gamma, double *buf);

/* What a scan reads (see ptn_scan.h). */
typedef struct ptn_scan {
    const void *X;          /* rows of d elements (float or double), row-major */
    size_t d;
    const ptrdiff_t *rows;  /* the epoch's order: rows[k] is the row visited at position k */
    size_t n_rows;          /* entries of rows (prefetching looks past the scanned stretch) */
    size_t ahead;           /* prefetch the row this many positions ahead; 0: never */
    const double *by_row;   /* doubles by row read with the row (the squared norms a
                             * rule's step reads), prefetched with it; or NULL */
    const signed char *y;   /* labels in {-1, +1}, by row */
    const void *w;          /* the weights, in the data's dtype */
    double b;               /* the bias */
    double margin;          /* update when y*a <= margin */
} ptn_scan;

typedef size_t (*ptn_scan_fn)(const ptn_scan *s, size_t start, size_t stop, double *act);

/* The plain binary rule's state for scan_plain_<type>: the rule (its
 * margin is the scan's), the rows' squared norms when the rule reads them
 * (ptn_rule_needs_norm; else NULL) and the intercept flag in, the bias out,
 * the counts added to. */
typedef struct ptn_plain {
    ptn_rule rule;
    const double *sqnorm;   /* by row, or NULL */
    int fit_intercept;
    double b;               /* the bias when the kernel returns */
    int64_t mistakes;       /* added to */
    int64_t updates;        /* added to */
    double loss;            /* added to: the rule's loss (ptn_rule_count) */
    double raw_loss;        /* the same, unweighted (equal here) */
} ptn_plain;

typedef size_t (*ptn_scan_plain_fn)(const ptn_scan *s, size_t start, size_t stop, double *act,
                                    ptn_plain *plain);

typedef void (*ptn_dots_f32_fn)(size_t n, const float *x, const float *const *w, size_t m,
                                double *out);
typedef void (*ptn_dots_f64_fn)(size_t n, const double *x, const double *const *w, size_t m,
                                double *out);

typedef void (*ptn_dots_f32_tails_fn)(size_t n, const float *x, const float *const *w,
                                      const double *const *wt, size_t m, double *out);

/* The length of each wt[c] of dots_f32_tails, and the number of its
 * elements that are w[c]'s: the last n % 64. */
#define PTN_F32_TAIL_MAX 64
#define PTN_F32_TAIL_AT(n) ((n) & ~(size_t)(PTN_F32_TAIL_MAX - 1))

/* wt[0, n % 64) = w's elements from PTN_F32_TAIL_AT(n) to n in double: the
 * tail dots_f32_tails is given, written when w is first scored and again
 * after each change of w.  The rest of wt, up to PTN_F32_TAIL_MAX, is not
 * written: the caller zeroes it once. */
PTN_INLINE void ptn_f32_tail_to_double(size_t n, const float *w, double *wt)
{
    const size_t at = PTN_F32_TAIL_AT(n);
    size_t j;
    for (j = at; j < n; j++) {
        wt[j - at] = (double)w[j];
    }
}

/* dots_f32_tails of a level whose float32 dot product has no use for the
 * tails (blocks of 32 or 16, or none): its dots_f32. */
#define PTN_DOTS_F32_TAILS_UNUSED(level)                                                    \
    void ptn_dots_f32_tails_##level(size_t n, const float *x, const float *const *w,        \
                                    const double *const *wt, size_t m, double *out)         \
    {                                                                                       \
        (void)wt;                                                                           \
        ptn_dots_f32_##level(n, x, w, m, out);                                              \
    }

/* The body of a level's dots_<type>: its inlined dot product DOT, once per
 * weight vector (see dots_f32 above). */
#define PTN_DOTS_BODY(DOT)                  \
    size_t c_;                              \
    for (c_ = 0; c_ < m; c_++) {            \
        out[c_] = DOT(n, x, w[c_]);         \
    }

/* dot_block_f32, dot_block_f64 (above) of a level, over its BLOCK(f32, m,
 * d, A, lda, shift, p, BT, out), in which ptn_block_a(f32, A, idx) reads
 * A[idx] as a double; `f32` is a constant there, which the compiler folds.
 * ATTR: what precedes each function (PTN_TARGET(...) or nothing). */
PTN_INLINE double ptn_block_a(int f32, const void *A, size_t idx)
{
    return f32 ? (double)((const float *)A)[idx] : ((const double *)A)[idx];
}

#define PTN_DOT_BLOCK_F32_F64(ATTR, NAME_F32, NAME_F64, BLOCK)                              \
    ATTR void NAME_F32(size_t m, size_t d, const float *A, size_t lda, const double *shift,  \
                       size_t p, const double *BT, double *out)                             \
    {                                                                                       \
        BLOCK(1, m, d, A, lda, shift, p, BT, out);                                          \
    }                                                                                       \
    ATTR void NAME_F64(size_t m, size_t d, const double *A, size_t lda, const double *shift, \
                       size_t p, const double *BT, double *out)                             \
    {                                                                                       \
        BLOCK(0, m, d, A, lda, shift, p, BT, out);                                          \
    }

/* The kernels a level without short-row scans (scalar, neon) makes from
 * its inlined dot products ptn_dot_<type>_inline_<L> and its axpy
 * ptn_axpy_<type>_<L>: the public dot products, the scans and the plain
 * scans (PTN_SCAN_BODY, PTN_SCAN_PLAIN_BODY: the level file includes
 * ptn_scan.h) and dots. */
#define PTN_KERNELS_FROM_DOTS(L)                                                            \
    PTN_KERNELS_FROM_DOT(L, f32, float)                                                     \
    PTN_KERNELS_FROM_DOT(L, f64, double)                                                    \
    PTN_DOTS_F32_TAILS_UNUSED(L)
#define PTN_KERNELS_FROM_DOT(L, S, T)                                                       \
    double ptn_dot_##S##_##L(size_t n, const T *x, const T *y)                              \
    {                                                                                       \
        return ptn_dot_##S##_inline_##L(n, x, y);                                           \
    }                                                                                       \
    size_t ptn_scan_##S##_##L(const ptn_scan *s, size_t start, size_t stop, double *act)    \
    {                                                                                       \
        PTN_SCAN_BODY(T, ptn_dot_##S##_inline_##L)                                          \
    }                                                                                       \
    size_t ptn_scan_plain_##S##_##L(const ptn_scan *s, size_t start, size_t stop,           \
                                    double *act, ptn_plain *plain_)                         \
    {                                                                                       \
        PTN_SCAN_PLAIN_BODY(T, ptn_dot_##S##_inline_##L, ptn_axpy_##S##_##L)                \
    }                                                                                       \
    void ptn_dots_##S##_##L(size_t n, const T *x, const T *const *w, size_t m, double *out) \
    {                                                                                       \
        PTN_DOTS_BODY(ptn_dot_##S##_inline_##L)                                             \
    }

typedef double (*ptn_sdot_f32_i32_fn)(size_t nnz, const float *val, const int32_t *idx, const float *w);
typedef double (*ptn_sdot_f32_i64_fn)(size_t nnz, const float *val, const int64_t *idx, const float *w);
typedef double (*ptn_sdot_f64_i32_fn)(size_t nnz, const double *val, const int32_t *idx, const double *w);
typedef double (*ptn_sdot_f64_i64_fn)(size_t nnz, const double *val, const int64_t *idx, const double *w);
typedef void (*ptn_saxpy_f32_i32_fn)(size_t nnz, float a, const float *val, const int32_t *idx, float *w);
typedef void (*ptn_saxpy_f32_i64_fn)(size_t nnz, float a, const float *val, const int64_t *idx, float *w);
typedef void (*ptn_saxpy_f64_i32_fn)(size_t nnz, double a, const double *val, const int32_t *idx,
                                     double *w);
typedef void (*ptn_saxpy_f64_i64_fn)(size_t nnz, double a, const double *val, const int64_t *idx,
                                     double *w);
typedef void (*ptn_saxpy_f32_f64_i32_fn)(size_t nnz, double a, const float *val, const int32_t *idx,
                                         double *w);
typedef void (*ptn_saxpy_f32_f64_i64_fn)(size_t nnz, double a, const float *val, const int64_t *idx,
                                         double *w);
typedef size_t (*ptn_descents_i32_fn)(size_t n, const int32_t *a, int strict, int32_t *lo,
                                      int32_t *hi);
typedef size_t (*ptn_descents_i64_fn)(size_t n, const int64_t *a, int strict, int64_t *lo,
                                      int64_t *hi);
typedef void (*ptn_shuffle_fn)(ptn_rng *r, ptrdiff_t *order, size_t n);

/* the kinds of narrow rows (ndot, ...; ptn_narrow.h) */
enum { PTN_X_F16 = 1, PTN_X_BF16 = 2, PTN_X_I8 = 3, PTN_X_U8 = 4 };
typedef double (*ptn_ndot_fn)(int kind, size_t n, const void *x, const float *w);
typedef void (*ptn_naxpy_fn)(int kind, size_t n, float a, const void *x, float *y);
typedef void (*ptn_naxpy_f64_fn)(int kind, size_t n, double a, const void *x, double *y);
typedef size_t (*ptn_nscan_fn)(int kind, const ptn_scan *s, size_t start, size_t stop,
                               double *act);
typedef size_t (*ptn_nscan_plain_fn)(int kind, const ptn_scan *s, size_t start, size_t stop,
                                     double *act, ptn_plain *plain);
typedef void (*ptn_nconvert_fn)(int kind, size_t n, const void *x, float *out);

/*
 * The kernels, one line each: the one list from which the table's fields
 * (struct ptn_simd), each level's prototypes (below) and each level's table
 * (dispatch.c) are expanded, so the three cannot disagree.
 *
 *   X(L, name, type, ret, params, own)
 *
 * L is the level the list is expanded for (scalar, avx2, avx512, neon: the
 * suffix of its kernels' names), `name` the table's field, `type` its
 * function-pointer type, ret and params the signature, and own a flag per
 * level, (scalar, avx2, avx512, neon): 1 where the level has its own kernel
 * ptn_<name>_<level>, 0 where its table holds the scalar one (a scatter
 * writes each lane on its own; the NEON level has no gathers).
 */
#define PTN_KERNELS(X, L)                                                                         \
    X(L, dot_f32, ptn_dot_f32_fn, double, (size_t n, const float *x, const float *y), (1, 1, 1, 1)) \
    X(L, dot_f64, ptn_dot_f64_fn, double, (size_t n, const double *x, const double *y),          \
      (1, 1, 1, 1))                                                                               \
    X(L, axpy_f32, ptn_axpy_f32_fn, void, (size_t n, float a, const float *x, float *y),         \
      (1, 1, 1, 1))                                                                               \
    X(L, axpy_f64, ptn_axpy_f64_fn, void, (size_t n, double a, const double *x, double *y),      \
      (1, 1, 1, 1))                                                                               \
    X(L, axpy_f32_f64, ptn_axpy_f32_f64_fn, void,                                                 \
      (size_t n, double a, const float *x, double *y), (1, 1, 1, 1))                              \
    /* the kernel methods: squared distances, exp, blocks for the RBF kernel */                   \
    X(L, sqdist_f32, ptn_sqdist_f32_fn, double, (size_t n, const float *x, const float *y),      \
      (1, 1, 1, 1))                                                                               \
    X(L, sqdist_f64, ptn_sqdist_f64_fn, double, (size_t n, const double *x, const double *y),    \
      (1, 1, 1, 1))                                                                               \
    X(L, exp_f64, ptn_exp_f64_fn, void, (size_t n, const double *x, double *y), (1, 1, 1, 1))    \
    X(L, dot_block_f32, ptn_block_f32_fn, void,                                                   \
      (size_t m, size_t d, const float *A, size_t lda, const double *shift, size_t p,             \
       const double *BT, double *out),                                                            \
      (1, 1, 1, 1))                                                                               \
    X(L, dot_block_f64, ptn_block_f64_fn, void,                                                   \
      (size_t m, size_t d, const double *A, size_t lda, const double *shift, size_t p,            \
       const double *BT, double *out),                                                            \
      (1, 1, 1, 1))                                                                               \
    X(L, rbf_block_f64, ptn_rbf_block_f64_fn, void,                                               \
      (size_t m, size_t p, const double *na, const double *nb, double gamma, double *buf),        \
      (1, 1, 1, 1))                                                                               \
    /* the perceptron's scan for its next update (ptn_scan.h) */                                  \
    X(L, scan_f32, ptn_scan_fn, size_t,                                                           \
      (const ptn_scan *s, size_t start, size_t stop, double *act), (1, 1, 1, 1))                  \
    X(L, scan_f64, ptn_scan_fn, size_t,                                                           \
      (const ptn_scan *s, size_t start, size_t stop, double *act), (1, 1, 1, 1))                  \
    /* sparse (CSR) rows */                                                                       \
    X(L, sdot_f32_i32, ptn_sdot_f32_i32_fn, double,                                               \
      (size_t nnz, const float *val, const int32_t *idx, const float *w), (1, 1, 1, 0))           \
    X(L, sdot_f32_i64, ptn_sdot_f32_i64_fn, double,                                               \
      (size_t nnz, const float *val, const int64_t *idx, const float *w), (1, 1, 1, 0))           \
    X(L, sdot_f64_i32, ptn_sdot_f64_i32_fn, double,                                               \
      (size_t nnz, const double *val, const int32_t *idx, const double *w), (1, 1, 1, 0))         \
    X(L, sdot_f64_i64, ptn_sdot_f64_i64_fn, double,                                               \
      (size_t nnz, const double *val, const int64_t *idx, const double *w), (1, 1, 1, 0))         \
    X(L, saxpy_f32_i32, ptn_saxpy_f32_i32_fn, void,                                               \
      (size_t nnz, float a, const float *val, const int32_t *idx, float *w), (1, 0, 0, 0))        \
    X(L, saxpy_f32_i64, ptn_saxpy_f32_i64_fn, void,                                               \
      (size_t nnz, float a, const float *val, const int64_t *idx, float *w), (1, 0, 0, 0))        \
    X(L, saxpy_f64_i32, ptn_saxpy_f64_i32_fn, void,                                               \
      (size_t nnz, double a, const double *val, const int32_t *idx, double *w), (1, 0, 0, 0))     \
    X(L, saxpy_f64_i64, ptn_saxpy_f64_i64_fn, void,                                               \
      (size_t nnz, double a, const double *val, const int64_t *idx, double *w), (1, 0, 0, 0))     \
    X(L, saxpy_f32_f64_i32, ptn_saxpy_f32_f64_i32_fn, void,                                       \
      (size_t nnz, double a, const float *val, const int32_t *idx, double *w), (1, 0, 0, 0))      \
    X(L, saxpy_f32_f64_i64, ptn_saxpy_f32_f64_i64_fn, void,                                       \
      (size_t nnz, double a, const float *val, const int64_t *idx, double *w), (1, 0, 0, 0))      \
    /* CSR structure checks */                                                                    \
    X(L, descents_i32, ptn_descents_i32_fn, size_t,                                               \
      (size_t n, const int32_t *a, int strict, int32_t *lo, int32_t *hi), (1, 1, 1, 0))           \
    X(L, descents_i64, ptn_descents_i64_fn, size_t,                                               \
      (size_t n, const int64_t *a, int strict, int64_t *lo, int64_t *hi), (1, 1, 1, 0))           \
    /* an epoch's row order: bounded draws, and the shuffle made with them */                     \
    X(L, draws, ptn_draws_fn, void, (ptn_rng *r, size_t top, size_t count, uint32_t *out),       \
      (1, 0, 1, 0))                                                                               \
    X(L, shuffle, ptn_shuffle_fn, void, (ptn_rng *r, ptrdiff_t *order, size_t n), (1, 0, 1, 0))  \
    /* one row against several weight vectors (one-vs-rest) */                                    \
    X(L, dots_f32, ptn_dots_f32_fn, void,                                                         \
      (size_t n, const float *x, const float *const *w, size_t m, double *out), (1, 1, 1, 1))     \
    X(L, dots_f64, ptn_dots_f64_fn, void,                                                         \
      (size_t n, const double *x, const double *const *w, size_t m, double *out), (1, 1, 1, 1))   \
    X(L, dots_f32_tails, ptn_dots_f32_tails_fn, void,                                             \
      (size_t n, const float *x, const float *const *w, const double *const *wt, size_t m,        \
       double *out),                                                                              \
      (1, 1, 1, 1))                                                                               \
    /* the scan with the plain binary rule's updates inside it */                                 \
    X(L, scan_plain_f32, ptn_scan_plain_fn, size_t,                                               \
      (const ptn_scan *s, size_t start, size_t stop, double *act, ptn_plain *plain),              \
      (1, 1, 1, 1))                                                                               \
    X(L, scan_plain_f64, ptn_scan_plain_fn, size_t,                                               \
      (const ptn_scan *s, size_t start, size_t stop, double *act, ptn_plain *plain),              \
      (1, 1, 1, 1))                                                                               \
    /* narrow rows against float32 weights (ptn_narrow.h) */                                      \
    X(L, ndot, ptn_ndot_fn, double, (int kind, size_t n, const void *x, const float *w),         \
      (1, 1, 1, 1))                                                                               \
    X(L, naxpy, ptn_naxpy_fn, void, (int kind, size_t n, float a, const void *x, float *y),      \
      (1, 1, 1, 1))                                                                               \
    X(L, naxpy_f64, ptn_naxpy_f64_fn, void,                                                       \
      (int kind, size_t n, double a, const void *x, double *y), (1, 1, 1, 1))                     \
    X(L, nscan, ptn_nscan_fn, size_t,                                                             \
      (int kind, const ptn_scan *s, size_t start, size_t stop, double *act), (1, 1, 1, 1))        \
    X(L, nscan_plain, ptn_nscan_plain_fn, size_t,                                                 \
      (int kind, const ptn_scan *s, size_t start, size_t stop, double *act, ptn_plain *plain),    \
      (1, 1, 1, 1))                                                                               \
    X(L, nconvert, ptn_nconvert_fn, void, (int kind, size_t n, const void *x, float *out),       \
      (1, 0, 0, 0))

/* PTN_KERNEL_OWN(L, own): own's flag for level L, 1 or 0 */
#define PTN_KERNEL_OWN(L, own) PTN_KERNEL_OWN_##L own
#define PTN_KERNEL_OWN_scalar(s, a2, a5, n) s
#define PTN_KERNEL_OWN_avx2(s, a2, a5, n) a2
#define PTN_KERNEL_OWN_avx512(s, a2, a5, n) a5
#define PTN_KERNEL_OWN_neon(s, a2, a5, n) n

/* PTN_KERNEL_IF(c, a, b): a when c expands to 1, b when to 0 */
#define PTN_KERNEL_IF(c, a, b) PTN_KERNEL_IF_I(c, a, b)
#define PTN_KERNEL_IF_I(c, a, b) PTN_KERNEL_IF_##c(a, b)
#define PTN_KERNEL_IF_1(a, b) a
#define PTN_KERNEL_IF_0(a, b) b

/* the table's field; level L's prototype of a kernel it has; the table's
 * entry at level L (dispatch.c) */
#define PTN_KERNEL_FIELD(L, name, type, ret, params, own) type name;
#define PTN_KERNEL_PROTOTYPE(L, name, type, ret, params, own) \
    PTN_KERNEL_IF(PTN_KERNEL_OWN(L, own), ret ptn_##name##_##L params;, )
#define PTN_KERNEL_ENTRY(L, name, type, ret, params, own) \
    .name = PTN_KERNEL_IF(PTN_KERNEL_OWN(L, own), ptn_##name##_##L, ptn_##name##_scalar),

/* The ABI version of the table below and of ptn_linear_model (ptn_model.h):
 * raise it whenever a field is added, removed, moved or retyped. Code
 * compiled against these headers indexes the table by its layout here, so
 * perceptron/simd.pxd exports the table's accessors under names carrying
 * this number (active_simd_abi1, ...): a Cython module built against one
 * layout then fails to import, naming the accessor, on a package with
 * another, instead of calling the wrong kernels. */
#define PTN_SIMD_ABI_VERSION 1

/* One row of the dispatch table: every kernel of one instruction-set level. */
typedef struct ptn_simd {
    ptn_level level;
    const char *name;
    PTN_KERNELS(PTN_KERNEL_FIELD, scalar)
} ptn_simd;

/* simd_scalar.c */
PTN_KERNELS(PTN_KERNEL_PROTOTYPE, scalar)

#if PTN_HAVE_X86_SIMD
/* simd_avx2.c */
PTN_KERNELS(PTN_KERNEL_PROTOTYPE, avx2)
/* simd_avx512.c */
PTN_KERNELS(PTN_KERNEL_PROTOTYPE, avx512)
#endif

#if PTN_HAVE_NEON_SIMD
/* simd_neon.c */
PTN_KERNELS(PTN_KERNEL_PROTOTYPE, neon)
#endif

#ifdef __cplusplus
}
#endif

#endif /* PTN_SIMD_H */

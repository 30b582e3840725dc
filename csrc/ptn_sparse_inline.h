/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_sparse_inline.h - the portable sparse-row operations, inline.
 *
 * One CSR row is nnz values and their column indices (int32 or int64, as
 * scipy stores them).  The dot product keeps four partial sums of exact
 * double products, like the dense dot; the update writes one weight per
 * stored value.  simd_scalar.c exports these as the scalar level's
 * sdot/saxpy; ptn_csr_online.h inlines the same code in its loop, so that
 * both give the same bits.
 */
#ifndef PTN_SPARSE_INLINE_H
#define PTN_SPARSE_INLINE_H

#include <stddef.h>
#include <stdint.h>

#include "ptn_config.h"

#define PTN_SDOT_INLINE(NAME, T, I)                                                  \
    PTN_INLINE double NAME(size_t nnz, const T *val, const I *idx, const T *w)       \
    {                                                                                \
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                               \
        size_t j = 0;                                                                \
        for (; j + 4 <= nnz; j += 4) {                                               \
            s0 += (double)val[j] * (double)w[idx[j]];                                \
            s1 += (double)val[j + 1] * (double)w[idx[j + 1]];                        \
            s2 += (double)val[j + 2] * (double)w[idx[j + 2]];                        \
            s3 += (double)val[j + 3] * (double)w[idx[j + 3]];                        \
        }                                                                            \
        for (; j < nnz; j++) {                                                       \
            s0 += (double)val[j] * (double)w[idx[j]];                                \
        }                                                                            \
        return (s0 + s1) + (s2 + s3);                                                \
    }

/* w[idx[j]] += a * val[j], in W (the weights' type) with a of type A. */
#define PTN_SAXPY_INLINE(NAME, T, A, I, W)                                           \
    PTN_INLINE void NAME(size_t nnz, A a, const T *val, const I *idx, W *w)          \
    {                                                                                \
        size_t j;                                                                    \
        for (j = 0; j < nnz; j++) {                                                  \
            w[idx[j]] += a * (W)val[j];                                              \
        }                                                                            \
    }

PTN_SDOT_INLINE(ptn_sdot_f32_i32_inline, float, int32_t)
PTN_SDOT_INLINE(ptn_sdot_f32_i64_inline, float, int64_t)
PTN_SDOT_INLINE(ptn_sdot_f64_i32_inline, double, int32_t)
PTN_SDOT_INLINE(ptn_sdot_f64_i64_inline, double, int64_t)
PTN_SAXPY_INLINE(ptn_saxpy_f32_i32_inline, float, float, int32_t, float)
PTN_SAXPY_INLINE(ptn_saxpy_f32_i64_inline, float, float, int64_t, float)
PTN_SAXPY_INLINE(ptn_saxpy_f64_i32_inline, double, double, int32_t, double)
PTN_SAXPY_INLINE(ptn_saxpy_f64_i64_inline, double, double, int64_t, double)
PTN_SAXPY_INLINE(ptn_saxpy_f32_f64_i32_inline, float, double, int32_t, double)
PTN_SAXPY_INLINE(ptn_saxpy_f32_f64_i64_inline, float, double, int64_t, double)

/* The same two for a row whose values are all 1.0, without reading them:
 * (double)1 * w is w, and a * 1 is a, so the same bits. */
#define PTN_SDOT_ONES_INLINE(NAME, T, I)                                             \
    PTN_INLINE double NAME(size_t nnz, const I *idx, const T *w)                     \
    {                                                                                \
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                               \
        size_t j = 0;                                                                \
        for (; j + 4 <= nnz; j += 4) {                                               \
            s0 += (double)w[idx[j]];                                                 \
            s1 += (double)w[idx[j + 1]];                                             \
            s2 += (double)w[idx[j + 2]];                                             \
            s3 += (double)w[idx[j + 3]];                                             \
        }                                                                            \
        for (; j < nnz; j++) {                                                       \
            s0 += (double)w[idx[j]];                                                 \
        }                                                                            \
        return (s0 + s1) + (s2 + s3);                                                \
    }

#define PTN_SADD_ONES_INLINE(NAME, T, I)                                             \
    PTN_INLINE void NAME(size_t nnz, T a, const I *idx, T *w)                        \
    {                                                                                \
        size_t j;                                                                    \
        for (j = 0; j < nnz; j++) {                                                  \
            w[idx[j]] += a;                                                          \
        }                                                                            \
    }

PTN_SDOT_ONES_INLINE(ptn_sdot_ones_f32_i32_inline, float, int32_t)
PTN_SDOT_ONES_INLINE(ptn_sdot_ones_f32_i64_inline, float, int64_t)
PTN_SDOT_ONES_INLINE(ptn_sdot_ones_f64_i32_inline, double, int32_t)
PTN_SDOT_ONES_INLINE(ptn_sdot_ones_f64_i64_inline, double, int64_t)
PTN_SADD_ONES_INLINE(ptn_sadd_ones_f32_i32_inline, float, int32_t)
PTN_SADD_ONES_INLINE(ptn_sadd_ones_f32_i64_inline, float, int64_t)
PTN_SADD_ONES_INLINE(ptn_sadd_ones_f64_i32_inline, double, int32_t)
PTN_SADD_ONES_INLINE(ptn_sadd_ones_f64_i64_inline, double, int64_t)
/* binary rows with 16-bit indices (ptn_csr_online.h, whose loops over them
 * read no values: the valued forms only complete its template) */
PTN_SDOT_INLINE(ptn_sdot_f32_u16_inline, float, uint16_t)
PTN_SDOT_INLINE(ptn_sdot_f64_u16_inline, double, uint16_t)
PTN_SAXPY_INLINE(ptn_saxpy_f32_u16_inline, float, float, uint16_t, float)
PTN_SAXPY_INLINE(ptn_saxpy_f64_u16_inline, double, double, uint16_t, double)
PTN_SAXPY_INLINE(ptn_saxpy_f32_f64_u16_inline, float, double, uint16_t, double)
PTN_SDOT_ONES_INLINE(ptn_sdot_ones_f32_u16_inline, float, uint16_t)
PTN_SDOT_ONES_INLINE(ptn_sdot_ones_f64_u16_inline, double, uint16_t)
PTN_SADD_ONES_INLINE(ptn_sadd_ones_f32_u16_inline, float, uint16_t)
PTN_SADD_ONES_INLINE(ptn_sadd_ones_f64_u16_inline, double, uint16_t)

#endif /* PTN_SPARSE_INLINE_H */

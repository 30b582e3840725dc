/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_scalar_sum.h - the row sums of scalar code, written once: the scalar
 * level's dot products (simd_scalar.c), the last elements at NEON
 * (simd_neon.c) and the scalar scoring of ptn_model_scalar.h, so that a
 * program scoring in scalar code sums exactly as the package's scalar level
 * does.  Macros only.
 */
#ifndef PTN_SCALAR_SUM_H
#define PTN_SCALAR_SUM_H

#include <stddef.h>

/* One element's part of a row sum in scalar code (the scalar level, and the
 * last elements at NEON): into s, what the doubles u and v give, their
 * product or their squared difference. */
#define PTN_SCALAR_OP_DOT(s, u, v) s += (u) * (v);
#define PTN_SCALAR_OP_SQDIST(s, u, v)  \
    {                                  \
        const double d_ = (u) - (v);   \
        s += d_ * d_;                  \
    }

/* The sums over a row, for T float or double (the contracts in ptn_simd.h):
 * four partial sums s0..s3 over groups of four elements, the rest into s0,
 * each element converted to double (exactly); OP: PTN_SCALAR_OP_DOT or
 * PTN_SCALAR_OP_SQDIST (above). */
#define PTN_SCALAR_SUM(LINKAGE, NAME, T, OP) PTN_SCALAR_SUM_OF(LINKAGE, NAME, T, T, , OP)

/* the same over x of TX, each element read as CONV(x[i]) (narrow rows:
 * ptn_narrow.h) */
#define PTN_SCALAR_SUM_OF(LINKAGE, NAME, TX, T, CONV, OP)                            \
    LINKAGE double NAME(size_t n, const TX *x, const T *y)                           \
    {                                                                                \
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                               \
        size_t i = 0;                                                                \
        for (; i + 4 <= n; i += 4) {                                                 \
            OP(s0, (double)CONV(x[i]), (double)y[i])                                       \
            OP(s1, (double)CONV(x[i + 1]), (double)y[i + 1])                               \
            OP(s2, (double)CONV(x[i + 2]), (double)y[i + 2])                               \
            OP(s3, (double)CONV(x[i + 3]), (double)y[i + 3])                               \
        }                                                                            \
        for (; i < n; i++) {                                                         \
            OP(s0, (double)CONV(x[i]), (double)y[i])                                       \
        }                                                                            \
        return (s0 + s1) + (s2 + s3);                                                \
    }

#endif /* PTN_SCALAR_SUM_H */

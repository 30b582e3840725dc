/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_exp.h - the constants and the polynomial of the vectorised exp kernels
 * (simd_avx2.c, simd_avx512.c, simd_neon.c); header only, no code of its own.
 *
 * The method, the same at every SIMD level:
 *
 * exp(x) = 2^k exp(r), k = round(x / ln 2), r = x - k ln 2 in [-ln2/2, ln2/2]
 * (Cody and Waite 1980: ln 2 split in a high and a low part, each product
 * taken with one rounding by FMA); exp(r) by its Taylor polynomial of degree
 * 13 (truncation error below 1e-17 relative on that interval), in Horner form.
 * 2^k is applied as 2^k1 * 2^k2 with k1 = floor(k/2), so that both factors
 * are normal doubles over the whole range, including results that underflow
 * gradually to subnormals.  x is clamped to [PTN_EXP_LO, PTN_EXP_HI] first:
 * exp overflows to +inf above 709.78 and rounds to 0 below -745.13 anyway,
 * and the clamp keeps k1 and k2 in [-538, 512].  NaN is passed through by a
 * final blend.
 *
 * PTN_EXP_POLY(FMA, SET, p, r) evaluates the polynomial with the level's
 * FMA(a, b, c) = a*b + c and SET(constant) = broadcast.
 */
#ifndef PTN_EXP_H
#define PTN_EXP_H

#define PTN_EXP_LO (-746.0)
#define PTN_EXP_HI 710.0
#define PTN_LOG2E 1.4426950408889634
#define PTN_LN2_HI 0x1.62e42fefa39efp-1
#define PTN_LN2_LO 0x1.abc9e3b39803fp-56
/* adding 2^52 + 1023 to an integer-valued k in [-1023, 1024] leaves k + 1023
 * in the low mantissa bits; shifted left by 52 they are the exponent of 2^k */
#define PTN_EXP_BIAS (4503599627370496.0 + 1023.0)
#define PTN_EXP_POLY(FMA, SET, p, r)                                                           \
    do {                                                                                       \
        p = FMA(SET(1.0 / 6227020800.0), r, SET(1.0 / 479001600.0));                           \
        p = FMA(p, r, SET(1.0 / 39916800.0));                                                  \
        p = FMA(p, r, SET(1.0 / 3628800.0));                                                   \
        p = FMA(p, r, SET(1.0 / 362880.0));                                                    \
        p = FMA(p, r, SET(1.0 / 40320.0));                                                     \
        p = FMA(p, r, SET(1.0 / 5040.0));                                                      \
        p = FMA(p, r, SET(1.0 / 720.0));                                                       \
        p = FMA(p, r, SET(1.0 / 120.0));                                                       \
        p = FMA(p, r, SET(1.0 / 24.0));                                                        \
        p = FMA(p, r, SET(1.0 / 6.0));                                                         \
        p = FMA(p, r, SET(0.5));                                                               \
        p = FMA(p, r, SET(1.0));                                                               \
        p = FMA(p, r, SET(1.0));                                                               \
    } while (0)

#endif /* PTN_EXP_H */

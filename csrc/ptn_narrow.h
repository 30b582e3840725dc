/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_narrow.h - rows stored narrower than the float32 weights they meet:
 * IEEE half precision (float16), bfloat16, int8 and uint8.
 *
 * Every value of these four types is a float32 exactly (float16: 11
 * significant bits and exponents within float32's; bfloat16: the top half
 * of a float32; 8-bit integers: 8 bits).  So a kernel that reads a narrow
 * row converts each element where it loads it and then runs, lane for
 * lane, the float32 kernel's operations: its results have the bits the
 * float32 kernel of the same level gives on the row converted to float32
 * first (ptn_simd.h, ndot and the kernels after it), while the row is read
 * as stored, 2 or 1 bytes an element.
 *
 * What is here serves every level: the kinds, the conversions of one
 * element in portable C, the elementwise kernels (conversion, axpy into
 * float32 and into float64) by chunks converted on the stack and handed to
 * the level's float32 kernel (an element's result does not depend on its
 * neighbours, so chunks give the same bits), and the scans over the
 * level's narrow dot products (ptn_scan.h's loops with the rows' type
 * apart from the weights').
 */
#ifndef PTN_NARROW_H
#define PTN_NARROW_H

#include <string.h>

#include "ptn_simd.h"
#include "ptn_scan.h"

/* half precision to single (IEEE 754-2008 binary16 to binary32): exact.
 * Subnormal halves are m * 2^-24, a float32 product that is exact. */
PTN_INLINE float ptn_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
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

/* bfloat16 to single: the 16 bits are a float32's upper half */
PTN_INLINE float ptn_bf16_to_f32(uint16_t h)
{
    const uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

PTN_INLINE float ptn_i8_to_f32(int8_t v)
{
    return (float)v;
}

PTN_INLINE float ptn_u8_to_f32(uint8_t v)
{
    return (float)v;
}

/* the element types of the kinds (ptn_simd.h: PTN_X_F16, ...) */
typedef uint16_t ptn_f16;
typedef uint16_t ptn_bf16;
typedef int8_t ptn_i8;
typedef uint8_t ptn_u8;

/* X(K, T): every narrow kind, its name in the kernels' names and its
 * element type */
#define PTN_NARROW_KINDS(X) X(f16, ptn_f16) X(bf16, ptn_bf16) X(i8, ptn_i8) X(u8, ptn_u8)

/* the conversion of the first n elements of x into out, one at a time */
#define PTN_NARROW_CONV_SCALAR(K, T)                                                  \
    PTN_INLINE void ptn_nconv_##K##_scalar(size_t n, const T *x, float *out)        \
    {                                                                                 \
        size_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                     \
            out[i] = ptn_##K##_to_f32(x[i]);                                          \
        }                                                                             \
    }
PTN_NARROW_KINDS(PTN_NARROW_CONV_SCALAR)

/* the elements an elementwise kernel converts on the stack at a time */
#define PTN_NARROW_CHUNK 256

/* The elementwise kernels of level L over its conversion
 * ptn_nconv_<K>_<L>: y += a * x by the level's axpy_f32 and axpy_f32_f64
 * on chunks converted to float32 (the bits of those kernels on the
 * converted row).  The x86 levels convert in registers in the float32 one
 * (ptn_x86_narrow.h): the scans' updates. */
#define PTN_NARROW_ELEMENTWISE_KIND(ATTR, L, K, T)                                    \
    PTN_NARROW_AXPY_KIND(ATTR, L, K, T)                                               \
    PTN_NARROW_AXPY_F64_KIND(ATTR, L, K, T)
#define PTN_NARROW_AXPY_KIND(ATTR, L, K, T)                                           \
    PTN_NARROW_CHUNKED(ATTR, ptn_naxpy_##K##_##L, T, float, float,                    \
                       ptn_nconv_##K##_##L, ptn_axpy_f32_##L)
#define PTN_NARROW_AXPY_F64_KIND(ATTR, L, K, T)                                       \
    PTN_NARROW_CHUNKED(ATTR, ptn_naxpy_f64_##K##_##L, T, double, double,              \
                       ptn_nconv_##K##_##L, ptn_axpy_f32_f64_##L)
/* NAME(n, a, x, y): AXPY(c, a, chunk, y + i) over chunks converted by CONV */
#define PTN_NARROW_CHUNKED(ATTR, NAME, T, TA, TY, CONV, AXPY)                         \
    ATTR static void NAME(size_t n, TA a, const T *x, TY *y)                          \
    {                                                                                 \
        float buf[PTN_NARROW_CHUNK];                                                  \
        size_t i, c;                                                                  \
        for (i = 0; i < n; i += c) {                                                  \
            c = n - i < PTN_NARROW_CHUNK ? n - i : PTN_NARROW_CHUNK;                  \
            CONV(c, x + i, buf);                                                      \
            AXPY(c, a, buf, y + i);                                                   \
        }                                                                             \
    }

/* The scans of level L over rows of kind K (ptn_scan.h's loops, the rows of
 * T, the weights float32), by its inlined narrow dot product
 * ptn_ndot_<K>_inline_<L>(n, x, w) and ptn_naxpy_<K>_<L>. */
#define PTN_NARROW_SCANS_KIND(ATTR, L, K, T)                                          \
    ATTR static size_t ptn_nscan_##K##_##L(const ptn_scan *s, size_t start, size_t stop, \
                                           double *act)                               \
    {                                                                                 \
        const float *w_ = (const float *)s->w;                                        \
        PTN_SCAN_LOOP(T, ptn_ndot_##K##_inline_##L(d_, x_, w_))                       \
    }                                                                                 \
    ATTR static size_t ptn_nscan_plain_##K##_##L(const ptn_scan *s, size_t start,     \
                                                 size_t stop, double *act,            \
                                                 ptn_plain *plain_)                   \
    {                                                                                 \
        PTN_PLAIN_WEIGHTS(float)                                                      \
        PTN_SCAN_LOOP_ACT(T, ptn_ndot_##K##_inline_##L(d_, x_, w_),                   \
                          PTN_PLAIN_ACT(float, ptn_naxpy_##K##_##L, (void)0),         \
                          PTN_PLAIN_END)                                              \
    }                                                                                 \
    ATTR static double ptn_ndot_##K##_##L(size_t n, const T *x, const float *w)       \
    {                                                                                 \
        return ptn_ndot_##K##_inline_##L(n, x, w);                                    \
    }

/* a switch on the kind (which the Python layer has checked): CALL(L, K, T)
 * for the kind's name K and element type T, u8 for any other */
#define PTN_NARROW_DISPATCH(kind, CALL, L)                                            \
    switch (kind) {                                                                   \
    case PTN_X_F16:                                                                   \
        CALL(L, f16, ptn_f16)                                                         \
    case PTN_X_BF16:                                                                  \
        CALL(L, bf16, ptn_bf16)                                                       \
    case PTN_X_I8:                                                                    \
        CALL(L, i8, ptn_i8)                                                           \
    default:                                                                          \
        CALL(L, u8, ptn_u8)                                                           \
    }
#define PTN_NCALL_DOT(L, K, T) return ptn_ndot_##K##_##L(n, (const T *)x, w);
#define PTN_NCALL_AXPY(L, K, T)                                                       \
    ptn_naxpy_##K##_##L(n, a, (const T *)x, y);                                       \
    return;
#define PTN_NCALL_AXPY_F64(L, K, T)                                                   \
    ptn_naxpy_f64_##K##_##L(n, a, (const T *)x, y);                                   \
    return;
#define PTN_NCALL_SCAN(L, K, T) return ptn_nscan_##K##_##L(s, start, stop, act);
#define PTN_NCALL_SCAN_PLAIN(L, K, T) return ptn_nscan_plain_##K##_##L(s, start, stop, act, plain);
#define PTN_NCALL_CONVERT(L, K, T)                                                    \
    ptn_nconv_##K##_##L(n, (const T *)x, out);                                        \
    return;

/* The level's table entries (ptn_simd.h: ndot, naxpy, naxpy_f64, nscan,
 * nscan_plain) of level L over its per-kind kernels. */
#define PTN_NARROW_ENTRIES(ATTR, L)                                                   \
    ATTR double ptn_ndot_##L(int kind, size_t n, const void *x, const float *w)       \
    {                                                                                 \
        PTN_NARROW_DISPATCH(kind, PTN_NCALL_DOT, L)                                   \
    }                                                                                 \
    ATTR void ptn_naxpy_##L(int kind, size_t n, float a, const void *x, float *y)     \
    {                                                                                 \
        PTN_NARROW_DISPATCH(kind, PTN_NCALL_AXPY, L)                                  \
    }                                                                                 \
    ATTR void ptn_naxpy_f64_##L(int kind, size_t n, double a, const void *x, double *y) \
    {                                                                                 \
        PTN_NARROW_DISPATCH(kind, PTN_NCALL_AXPY_F64, L)                              \
    }                                                                                 \
    ATTR size_t ptn_nscan_##L(int kind, const ptn_scan *s, size_t start, size_t stop, \
                              double *act)                                            \
    {                                                                                 \
        PTN_NARROW_DISPATCH(kind, PTN_NCALL_SCAN, L)                                  \
    }                                                                                 \
    ATTR size_t ptn_nscan_plain_##L(int kind, const ptn_scan *s, size_t start,        \
                                    size_t stop, double *act, ptn_plain *plain)       \
    {                                                                                 \
        PTN_NARROW_DISPATCH(kind, PTN_NCALL_SCAN_PLAIN, L)                            \
    }

#endif /* PTN_NARROW_H */

/*
 * kernels_neon.c - Advanced SIMD (NEON) kernels for 64-bit ARM.
 *
 * NEON is part of every ARMv8-A core, so on aarch64 these need no run-time
 * check and no compiler flag.  On other architectures the file is empty.
 */
#include "ptn_kernels.h"

#if PTN_HAVE_NEON_KERNELS

#include <arm_neon.h>

double ptn_dot_f32_neon(size_t n, const float *x, const float *y)
{
    float64x2_t a0 = vdupq_n_f64(0.0), a1 = vdupq_n_f64(0.0);
    float64x2_t a2 = vdupq_n_f64(0.0), a3 = vdupq_n_f64(0.0);
    double s;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float32x4_t xa = vld1q_f32(x + i), ya = vld1q_f32(y + i);
        float32x4_t xb = vld1q_f32(x + i + 4), yb = vld1q_f32(y + i + 4);
        a0 = vfmaq_f64(a0, vcvt_f64_f32(vget_low_f32(xa)), vcvt_f64_f32(vget_low_f32(ya)));
        a1 = vfmaq_f64(a1, vcvt_high_f64_f32(xa), vcvt_high_f64_f32(ya));
        a2 = vfmaq_f64(a2, vcvt_f64_f32(vget_low_f32(xb)), vcvt_f64_f32(vget_low_f32(yb)));
        a3 = vfmaq_f64(a3, vcvt_high_f64_f32(xb), vcvt_high_f64_f32(yb));
    }
    s = vaddvq_f64(vaddq_f64(vaddq_f64(a0, a1), vaddq_f64(a2, a3)));
    /* a float product is exact in double, so this tail rounds like the fused body */
    for (; i < n; i++) {
        s += (double)x[i] * (double)y[i];
    }
    return s;
}

double ptn_dot_f64_neon(size_t n, const double *x, const double *y)
{
    float64x2_t a0 = vdupq_n_f64(0.0), a1 = vdupq_n_f64(0.0);
    float64x2_t a2 = vdupq_n_f64(0.0), a3 = vdupq_n_f64(0.0);
    double s;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        a0 = vfmaq_f64(a0, vld1q_f64(x + i), vld1q_f64(y + i));
        a1 = vfmaq_f64(a1, vld1q_f64(x + i + 2), vld1q_f64(y + i + 2));
        a2 = vfmaq_f64(a2, vld1q_f64(x + i + 4), vld1q_f64(y + i + 4));
        a3 = vfmaq_f64(a3, vld1q_f64(x + i + 6), vld1q_f64(y + i + 6));
    }
    for (; i + 2 <= n; i += 2) {
        a0 = vfmaq_f64(a0, vld1q_f64(x + i), vld1q_f64(y + i));
    }
    s = vaddvq_f64(vaddq_f64(vaddq_f64(a0, a1), vaddq_f64(a2, a3)));
    if (i < n) {
        s += x[i] * y[i];
    }
    return s;
}

void ptn_axpy_f32_neon(size_t n, float a, const float *x, float *y)
{
    const float32x4_t av = vdupq_n_f32(a);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        float32x4_t y0 = vfmaq_f32(vld1q_f32(y + i), av, vld1q_f32(x + i));
        float32x4_t y1 = vfmaq_f32(vld1q_f32(y + i + 4), av, vld1q_f32(x + i + 4));
        float32x4_t y2 = vfmaq_f32(vld1q_f32(y + i + 8), av, vld1q_f32(x + i + 8));
        float32x4_t y3 = vfmaq_f32(vld1q_f32(y + i + 12), av, vld1q_f32(x + i + 12));
        vst1q_f32(y + i, y0);
        vst1q_f32(y + i + 4, y1);
        vst1q_f32(y + i + 8, y2);
        vst1q_f32(y + i + 12, y3);
    }
    for (; i + 4 <= n; i += 4) {
        vst1q_f32(y + i, vfmaq_f32(vld1q_f32(y + i), av, vld1q_f32(x + i)));
    }
    for (; i < n; i++) {
        y[i] = vgetq_lane_f32(vfmaq_f32(vdupq_n_f32(y[i]), av, vdupq_n_f32(x[i])), 0);
    }
}

void ptn_axpy_f64_neon(size_t n, double a, const double *x, double *y)
{
    const float64x2_t av = vdupq_n_f64(a);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float64x2_t y0 = vfmaq_f64(vld1q_f64(y + i), av, vld1q_f64(x + i));
        float64x2_t y1 = vfmaq_f64(vld1q_f64(y + i + 2), av, vld1q_f64(x + i + 2));
        float64x2_t y2 = vfmaq_f64(vld1q_f64(y + i + 4), av, vld1q_f64(x + i + 4));
        float64x2_t y3 = vfmaq_f64(vld1q_f64(y + i + 6), av, vld1q_f64(x + i + 6));
        vst1q_f64(y + i, y0);
        vst1q_f64(y + i + 2, y1);
        vst1q_f64(y + i + 4, y2);
        vst1q_f64(y + i + 6, y3);
    }
    for (; i + 2 <= n; i += 2) {
        vst1q_f64(y + i, vfmaq_f64(vld1q_f64(y + i), av, vld1q_f64(x + i)));
    }
    if (i < n) {
        y[i] = vgetq_lane_f64(vfmaq_f64(vdupq_n_f64(y[i]), av, vdupq_n_f64(x[i])), 0);
    }
}

void ptn_axpy_f32_f64_neon(size_t n, double a, const float *x, double *y)
{
    const float64x2_t av = vdupq_n_f64(a);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float32x4_t xa = vld1q_f32(x + i), xb = vld1q_f32(x + i + 4);
        float64x2_t y0 = vfmaq_f64(vld1q_f64(y + i), av, vcvt_f64_f32(vget_low_f32(xa)));
        float64x2_t y1 = vfmaq_f64(vld1q_f64(y + i + 2), av, vcvt_high_f64_f32(xa));
        float64x2_t y2 = vfmaq_f64(vld1q_f64(y + i + 4), av, vcvt_f64_f32(vget_low_f32(xb)));
        float64x2_t y3 = vfmaq_f64(vld1q_f64(y + i + 6), av, vcvt_high_f64_f32(xb));
        vst1q_f64(y + i, y0);
        vst1q_f64(y + i + 2, y1);
        vst1q_f64(y + i + 4, y2);
        vst1q_f64(y + i + 6, y3);
    }
    for (; i < n; i++) {
        y[i] = vgetq_lane_f64(vfmaq_f64(vdupq_n_f64(y[i]), av, vdupq_n_f64((double)x[i])), 0);
    }
}

#else
typedef int ptn_kernels_neon_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_NEON_KERNELS */

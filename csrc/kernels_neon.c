/*
 * kernels_neon.c - Advanced SIMD (NEON) kernels for 64-bit ARM.
 *
 * NEON is part of every ARMv8-A core, so on aarch64 these need no run-time
 * check and no compiler flag.  On other architectures the file is empty.
 */
#include "ptn_kernels.h"

#if PTN_HAVE_NEON_KERNELS

#include <arm_neon.h>

#include "ptn_exp.h"

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

double ptn_sqdist_f32_neon(size_t n, const float *x, const float *y)
{
    float64x2_t a0 = vdupq_n_f64(0.0), a1 = vdupq_n_f64(0.0);
    float64x2_t a2 = vdupq_n_f64(0.0), a3 = vdupq_n_f64(0.0);
    float64x2_t d;
    double s;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float32x4_t xa = vld1q_f32(x + i), ya = vld1q_f32(y + i);
        float32x4_t xb = vld1q_f32(x + i + 4), yb = vld1q_f32(y + i + 4);
        d = vsubq_f64(vcvt_f64_f32(vget_low_f32(xa)), vcvt_f64_f32(vget_low_f32(ya)));
        a0 = vfmaq_f64(a0, d, d);
        d = vsubq_f64(vcvt_high_f64_f32(xa), vcvt_high_f64_f32(ya));
        a1 = vfmaq_f64(a1, d, d);
        d = vsubq_f64(vcvt_f64_f32(vget_low_f32(xb)), vcvt_f64_f32(vget_low_f32(yb)));
        a2 = vfmaq_f64(a2, d, d);
        d = vsubq_f64(vcvt_high_f64_f32(xb), vcvt_high_f64_f32(yb));
        a3 = vfmaq_f64(a3, d, d);
    }
    s = vaddvq_f64(vaddq_f64(vaddq_f64(a0, a1), vaddq_f64(a2, a3)));
    for (; i < n; i++) {
        double t = (double)x[i] - (double)y[i];
        s += t * t;
    }
    return s;
}

double ptn_sqdist_f64_neon(size_t n, const double *x, const double *y)
{
    float64x2_t a0 = vdupq_n_f64(0.0), a1 = vdupq_n_f64(0.0);
    float64x2_t a2 = vdupq_n_f64(0.0), a3 = vdupq_n_f64(0.0);
    float64x2_t d0, d1, d2, d3;
    double s;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        d0 = vsubq_f64(vld1q_f64(x + i), vld1q_f64(y + i));
        d1 = vsubq_f64(vld1q_f64(x + i + 2), vld1q_f64(y + i + 2));
        d2 = vsubq_f64(vld1q_f64(x + i + 4), vld1q_f64(y + i + 4));
        d3 = vsubq_f64(vld1q_f64(x + i + 6), vld1q_f64(y + i + 6));
        a0 = vfmaq_f64(a0, d0, d0);
        a1 = vfmaq_f64(a1, d1, d1);
        a2 = vfmaq_f64(a2, d2, d2);
        a3 = vfmaq_f64(a3, d3, d3);
    }
    for (; i + 2 <= n; i += 2) {
        d0 = vsubq_f64(vld1q_f64(x + i), vld1q_f64(y + i));
        a0 = vfmaq_f64(a0, d0, d0);
    }
    s = vaddvq_f64(vaddq_f64(vaddq_f64(a0, a1), vaddq_f64(a2, a3)));
    if (i < n) {
        double t = x[i] - y[i];
        s += t * t;
    }
    return s;
}

/* a*b + c, in the argument order of PTN_EXP_POLY */
#define PTN_NEON_FMA(a, b, c) vfmaq_f64((c), (a), (b))

/* See ptn_exp.h.  Unlike x86 max, NEON's propagates NaN into xc; the lanes
 * computed from it are replaced by the input NaN at the end. */
static inline float64x2_t ptn_exp_neon(float64x2_t x)
{
    float64x2_t xc = vminq_f64(vmaxq_f64(x, vdupq_n_f64(PTN_EXP_LO)), vdupq_n_f64(PTN_EXP_HI));
    float64x2_t k = vrndnq_f64(vmulq_f64(xc, vdupq_n_f64(PTN_LOG2E)));
    float64x2_t r = vfmsq_f64(xc, k, vdupq_n_f64(PTN_LN2_HI));
    float64x2_t p, k1, k2, s1, s2, y;
    r = vfmsq_f64(r, k, vdupq_n_f64(PTN_LN2_LO));
    PTN_EXP_POLY(PTN_NEON_FMA, vdupq_n_f64, p, r);
    k1 = vrndmq_f64(vmulq_f64(k, vdupq_n_f64(0.5)));
    k2 = vsubq_f64(k, k1);
    s1 = vreinterpretq_f64_u64(vshlq_n_u64(vreinterpretq_u64_f64(vaddq_f64(k1, vdupq_n_f64(PTN_EXP_BIAS))), 52));
    s2 = vreinterpretq_f64_u64(vshlq_n_u64(vreinterpretq_u64_f64(vaddq_f64(k2, vdupq_n_f64(PTN_EXP_BIAS))), 52));
    y = vmulq_f64(vmulq_f64(p, s1), s2);
    return vbslq_f64(vceqq_f64(x, x), y, x);
}

void ptn_exp_f64_neon(size_t n, const double *x, double *y)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        float64x2_t a = ptn_exp_neon(vld1q_f64(x + i));
        float64x2_t b = ptn_exp_neon(vld1q_f64(x + i + 2));
        vst1q_f64(y + i, a);
        vst1q_f64(y + i + 2, b);
    }
    for (; i + 2 <= n; i += 2) {
        vst1q_f64(y + i, ptn_exp_neon(vld1q_f64(x + i)));
    }
    if (i < n) {
        y[i] = vgetq_lane_f64(ptn_exp_neon(vdupq_n_f64(x[i])), 0);
    }
}

/* ------------------------------------------ many rows against one vector */

/* out[k] = dot(A_k, x) (sq == 0) or sqdist(A_k, x); see kernels_x86.c.  An
 * odd last element goes through the same vector step with a zero partner
 * lane, so a row's arithmetic does not depend on its position. */
static inline float64x2_t ptn_step_neon(int sq, float64x2_t acc, float64x2_t a, float64x2_t x)
{
    if (sq) {
        float64x2_t t = vsubq_f64(a, x);
        return vfmaq_f64(acc, t, t);
    }
    return vfmaq_f64(acc, a, x);
}

static inline float64x2_t ptn_load1_f64(const double *p)
{
    return vsetq_lane_f64(*p, vdupq_n_f64(0.0), 0);
}

static inline void ptn_rows_f64_neon(int sq, size_t m, size_t d, const double *A, size_t lda,
                                     const double *x, double *out)
{
    const size_t full = d - d % 2;
    size_t k = 0, i;
    float64x2_t xv;
    for (; k + 4 <= m; k += 4) {
        const double *a0 = A + k * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        float64x2_t s0 = vdupq_n_f64(0.0), s1 = s0, s2 = s0, s3 = s0;
        for (i = 0; i < full; i += 2) {
            xv = vld1q_f64(x + i);
            s0 = ptn_step_neon(sq, s0, vld1q_f64(a0 + i), xv);
            s1 = ptn_step_neon(sq, s1, vld1q_f64(a1 + i), xv);
            s2 = ptn_step_neon(sq, s2, vld1q_f64(a2 + i), xv);
            s3 = ptn_step_neon(sq, s3, vld1q_f64(a3 + i), xv);
        }
        if (full < d) {
            xv = ptn_load1_f64(x + full);
            s0 = ptn_step_neon(sq, s0, ptn_load1_f64(a0 + full), xv);
            s1 = ptn_step_neon(sq, s1, ptn_load1_f64(a1 + full), xv);
            s2 = ptn_step_neon(sq, s2, ptn_load1_f64(a2 + full), xv);
            s3 = ptn_step_neon(sq, s3, ptn_load1_f64(a3 + full), xv);
        }
        out[k] = vaddvq_f64(s0);
        out[k + 1] = vaddvq_f64(s1);
        out[k + 2] = vaddvq_f64(s2);
        out[k + 3] = vaddvq_f64(s3);
    }
    for (; k < m; k++) {
        const double *a0 = A + k * lda;
        float64x2_t s0 = vdupq_n_f64(0.0);
        for (i = 0; i < full; i += 2) {
            s0 = ptn_step_neon(sq, s0, vld1q_f64(a0 + i), vld1q_f64(x + i));
        }
        if (full < d) {
            s0 = ptn_step_neon(sq, s0, ptn_load1_f64(a0 + full), ptn_load1_f64(x + full));
        }
        out[k] = vaddvq_f64(s0);
    }
}

/* Up to three floats, zero-padded to a vector of four. */
static inline float32x4_t ptn_load_tail_f32(const float *p, size_t r)
{
    float buf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    size_t i;
    for (i = 0; i < r; i++) {
        buf[i] = p[i];
    }
    return vld1q_f32(buf);
}

static inline void ptn_step4_neon(int sq, float64x2_t *lo, float64x2_t *hi, float32x4_t a,
                                  float64x2_t xl, float64x2_t xh)
{
    *lo = ptn_step_neon(sq, *lo, vcvt_f64_f32(vget_low_f32(a)), xl);
    *hi = ptn_step_neon(sq, *hi, vcvt_high_f64_f32(a), xh);
}

static inline void ptn_rows_f32_neon(int sq, size_t m, size_t d, const float *A, size_t lda,
                                     const float *x, double *out)
{
    const size_t full = d - d % 4, r = d % 4;
    size_t k = 0, i;
    float32x4_t xs;
    float64x2_t xl, xh;
    for (; k + 4 <= m; k += 4) {
        const float *a0 = A + k * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        float64x2_t l0 = vdupq_n_f64(0.0), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
        for (i = 0; i < full; i += 4) {
            xs = vld1q_f32(x + i);
            xl = vcvt_f64_f32(vget_low_f32(xs));
            xh = vcvt_high_f64_f32(xs);
            ptn_step4_neon(sq, &l0, &h0, vld1q_f32(a0 + i), xl, xh);
            ptn_step4_neon(sq, &l1, &h1, vld1q_f32(a1 + i), xl, xh);
            ptn_step4_neon(sq, &l2, &h2, vld1q_f32(a2 + i), xl, xh);
            ptn_step4_neon(sq, &l3, &h3, vld1q_f32(a3 + i), xl, xh);
        }
        if (r) {
            xs = ptn_load_tail_f32(x + full, r);
            xl = vcvt_f64_f32(vget_low_f32(xs));
            xh = vcvt_high_f64_f32(xs);
            ptn_step4_neon(sq, &l0, &h0, ptn_load_tail_f32(a0 + full, r), xl, xh);
            ptn_step4_neon(sq, &l1, &h1, ptn_load_tail_f32(a1 + full, r), xl, xh);
            ptn_step4_neon(sq, &l2, &h2, ptn_load_tail_f32(a2 + full, r), xl, xh);
            ptn_step4_neon(sq, &l3, &h3, ptn_load_tail_f32(a3 + full, r), xl, xh);
        }
        out[k] = vaddvq_f64(vaddq_f64(l0, h0));
        out[k + 1] = vaddvq_f64(vaddq_f64(l1, h1));
        out[k + 2] = vaddvq_f64(vaddq_f64(l2, h2));
        out[k + 3] = vaddvq_f64(vaddq_f64(l3, h3));
    }
    for (; k < m; k++) {
        const float *a0 = A + k * lda;
        float64x2_t l0 = vdupq_n_f64(0.0), h0 = l0;
        for (i = 0; i < full; i += 4) {
            xs = vld1q_f32(x + i);
            xl = vcvt_f64_f32(vget_low_f32(xs));
            xh = vcvt_high_f64_f32(xs);
            ptn_step4_neon(sq, &l0, &h0, vld1q_f32(a0 + i), xl, xh);
        }
        if (r) {
            xs = ptn_load_tail_f32(x + full, r);
            xl = vcvt_f64_f32(vget_low_f32(xs));
            xh = vcvt_high_f64_f32(xs);
            ptn_step4_neon(sq, &l0, &h0, ptn_load_tail_f32(a0 + full, r), xl, xh);
        }
        out[k] = vaddvq_f64(vaddq_f64(l0, h0));
    }
}

void ptn_dot_rows_f32_neon(size_t m, size_t d, const float *A, size_t lda, const float *x, double *out)
{
    ptn_rows_f32_neon(0, m, d, A, lda, x, out);
}

void ptn_dot_rows_f64_neon(size_t m, size_t d, const double *A, size_t lda, const double *x, double *out)
{
    ptn_rows_f64_neon(0, m, d, A, lda, x, out);
}

void ptn_sqdist_rows_f32_neon(size_t m, size_t d, const float *A, size_t lda, const float *x, double *out)
{
    ptn_rows_f32_neon(1, m, d, A, lda, x, out);
}

void ptn_sqdist_rows_f64_neon(size_t m, size_t d, const double *A, size_t lda, const double *x, double *out)
{
    ptn_rows_f64_neon(1, m, d, A, lda, x, out);
}

#else
typedef int ptn_kernels_neon_not_compiled; /* ISO C: a translation unit may not be empty */
#endif /* PTN_HAVE_NEON_KERNELS */

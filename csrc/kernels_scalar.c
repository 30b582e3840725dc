/*
 * kernels_scalar.c - portable C99 kernels: the reference level, and the
 * fallback on CPUs (or architectures) without a faster one.
 *
 * Four independent partial sums let the compiler overlap the additions; the
 * code stays plain C so that it builds for the baseline of any target.
 */
#include "ptn_kernels.h"

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "kernels_scalar.c must be compiled for the baseline instruction set"
#endif

double ptn_dot_f32_scalar(size_t n, const float *x, const float *y)
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

double ptn_dot_f64_scalar(size_t n, const double *x, const double *y)
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

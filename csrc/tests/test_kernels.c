/*
 * test_kernels.c - stand-alone test of the C layer, no Python involved.
 *
 * For every level this CPU supports, checks each kernel against a plain
 * long-double reference at lengths that hit every main loop and tail, from
 * aligned and misaligned starts, and checks that axpy writes nothing past
 * the end.  Build and run:
 *
 *   cc -std=c99 -O2 -Icsrc csrc/tests/test_kernels.c csrc/kernels_*.c \
 *      csrc/cpu.c csrc/dispatch.c -lm -o test_kernels && ./test_kernels
 *
 * Exit status 0 when every check passes.
 */
#include "ptn_dispatch.h"
#include "ptn_cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const size_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 1536};
#define N_LENGTHS (sizeof(lengths) / sizeof(lengths[0]))
#define MAX_LEN 1536
#define PAD 16
#define GUARD 12345.0

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;
static double uniform(void) /* in [-1, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

static int failures = 0;
static void check(int ok, const char *what, const char *level, size_t n, size_t offset)
{
    if (!ok) {
        printf("FAIL %s level=%s n=%zu offset=%zu\n", what, level, n, offset);
        failures++;
    }
}

int main(void)
{
    static float xf[MAX_LEN + 2 * PAD], yf[MAX_LEN + 2 * PAD];
    static double xd[MAX_LEN + 2 * PAD], yd[MAX_LEN + 2 * PAD];
    int level;
    ptn_cpu_features f;
    ptn_cpu_detect(&f);
    printf("cpu: x86=%d arm64=%d avx2=%d fma=%d avx512f=%d neon=%d best=%s\n", f.x86, f.arm64,
           f.avx2, f.fma, f.avx512f, f.neon, ptn_level_name(ptn_best_level()));

    for (level = 0; level < PTN_LEVEL_COUNT; level++) {
        const ptn_kernels *k = ptn_kernels_for_level(level);
        size_t li, offset, i;
        if (k == NULL) {
            printf("skip %s (not supported here)\n", ptn_level_name(level));
            continue;
        }
        for (li = 0; li < N_LENGTHS; li++) {
            size_t n = lengths[li];
            for (offset = 0; offset < 4; offset++) {
                long double ref32 = 0.0L, ref64 = 0.0L;
                double got, tol;
                float a32 = 0.75f;
                double a64 = -1.25;
                for (i = 0; i < MAX_LEN + 2 * PAD; i++) {
                    xf[i] = (float)uniform();
                    yf[i] = (float)uniform();
                    xd[i] = uniform();
                    yd[i] = uniform();
                }
                for (i = 0; i < n; i++) {
                    ref32 += (long double)xf[offset + i] * (long double)yf[offset + i];
                    ref64 += (long double)xd[offset + i] * (long double)yd[offset + i];
                }
                tol = 1e-12 * (double)(n + 1);
                got = k->dot_f32(n, xf + offset, yf + offset);
                check(fabs(got - (double)ref32) <= tol, "dot_f32", k->name, n, offset);
                got = k->dot_f64(n, xd + offset, yd + offset);
                check(fabs(got - (double)ref64) <= tol, "dot_f64", k->name, n, offset);

                /* axpy: compare with the two-rounding and one-rounding results,
                 * and check the guard elements after the end are untouched */
                for (i = 0; i < PAD; i++) {
                    yf[offset + n + i] = (float)GUARD;
                    yd[offset + n + i] = GUARD;
                }
                {
                    float yf0[MAX_LEN];
                    double yd0[MAX_LEN], ym[MAX_LEN + PAD];
                    for (i = 0; i < n + PAD; i++) {
                        ym[i] = (i < n) ? uniform() : GUARD;
                    }
                    for (i = 0; i < n; i++) {
                        yd0[i] = ym[i];
                    }
                    k->axpy_f32_f64(n, a64, xf + offset, ym);
                    for (i = 0; i < n; i++) {
                        double e = yd0[i] + a64 * (double)xf[offset + i];
                        check(fabs(ym[i] - e) <= 1e-15, "axpy_f32_f64", k->name, n, offset);
                    }
                    for (i = n; i < n + PAD; i++) {
                        check(ym[i] == GUARD, "axpy_f32_f64 guard", k->name, n, offset);
                    }
                    for (i = 0; i < n; i++) {
                        yf0[i] = yf[offset + i];
                        yd0[i] = yd[offset + i];
                    }
                    k->axpy_f32(n, a32, xf + offset, yf + offset);
                    k->axpy_f64(n, a64, xd + offset, yd + offset);
                    for (i = 0; i < n; i++) {
                        double e32 = (double)yf0[i] + (double)a32 * (double)xf[offset + i];
                        double e64 = yd0[i] + a64 * xd[offset + i];
                        check(fabs((double)yf[offset + i] - e32) <= 1e-6, "axpy_f32", k->name, n, offset);
                        check(fabs(yd[offset + i] - e64) <= 1e-15, "axpy_f64", k->name, n, offset);
                    }
                    for (i = 0; i < PAD; i++) {
                        check(yf[offset + n + i] == (float)GUARD, "axpy_f32 guard", k->name, n, offset);
                        check(yd[offset + n + i] == GUARD, "axpy_f64 guard", k->name, n, offset);
                    }
                }
            }
        }
        printf("ok   %s\n", k->name);
    }
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("all kernels pass\n");
    return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * test_kernels.c - stand-alone test of the C layer, no Python involved.
 *
 * For every level this CPU supports, checks each kernel against a plain
 * long-double reference at lengths that hit every main loop and tail, from
 * aligned and misaligned starts, and checks that axpy and exp write nothing
 * past the end (and dot_block past its block); exp and rbf_block are compared with the C library's over its whole range and
 * at its special values (overflow, gradual underflow, infinities, NaN).
 * Build and run:
 *
 *   cc -std=c99 -O2 -Icsrc csrc/tests/test_simd.c csrc/kernels_*.c \
 *      csrc/cpu.c csrc/dispatch.c -lm -o test_kernels && ./test_kernels
 *
 * Exit status 0 when every check passes.
 */
#include "ptn_dispatch.h"
#include "ptn_cpu.h"
#include "ptn_narrow.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Within EXP_ULPS units in the last place of libm's exp (itself within an
 * ulp); subnormal results within EXP_ULPS of the smallest subnormal; the
 * same infinities, zeros and NaNs. */
#define EXP_ULPS 4.0
static int exp_close(double got, double ref)
{
    if (isnan(ref)) {
        return isnan(got);
    }
    if (isinf(ref)) {
        return got == ref;
    }
    if (ref < DBL_MIN) {
        return fabs(got - ref) <= EXP_ULPS * 4.9406564584124654e-324;
    }
    return fabs(got - ref) <= EXP_ULPS * DBL_EPSILON * ref;
}

/* The special values and the edges of exp's range, at every position of a
 * vector (so through the main loop and every tail). */
static void check_exp_specials(const ptn_simd *k)
{
    static const double specials[] = {
        0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 0.5, 709.78, 709.7827128933840, 709.79, 710.0,
        1000.0, -708.39, -708.4, -720.0, -744.0, -745.1, -745.2, -746.0, -1000.0, -1e308, 1e308,
        HUGE_VAL, -HUGE_VAL, NAN, -NAN, 0.34657359027997264, -0.34657359027997264, 88.7, -103.9};
    const size_t count = sizeof(specials) / sizeof(specials[0]);
    double in[64], out[64];
    size_t s, pos, len;
    for (s = 0; s < count; s++) {
        for (len = 1; len <= 19; len += 3) {
            for (pos = 0; pos < len; pos++) {
                size_t i;
                for (i = 0; i < len; i++) {
                    in[i] = (i == pos) ? specials[s] : -0.25 * (double)i;
                }
                k->exp_f64(len, in, out);
                for (i = 0; i < len; i++) {
                    if (!exp_close(out[i], exp(in[i]))) {
                        printf("FAIL exp_f64 special x=%.17g got=%.17g want=%.17g level=%s len=%zu\n",
                               in[i], out[i], exp(in[i]), k->name, len);
                        failures++;
                    }
                }
            }
        }
    }
}

/* The _block kernels: every output against a long-double reference, its
 * value the same whatever the size of the block and its place in it (the
 * vector alone, as a block of one), and nothing written past out[m*p - 1]. */
static void check_block(const ptn_simd *k)
{
    static const size_t ms[] = {0, 1, 2, 5};
    static const size_t ds[] = {1, 7, 50};
    static const size_t ps[] = {1, 3, 4, 5, 8, 9, 17, 31, 32, 33, 63, 64, 65, 130};
    static float af[5 * 60];
    static double ad[5 * 60], shift[60], BT[60 * 130], col[60], out[5 * 130 + 16], one;
    size_t mi, di, pi, i, r, q;
    for (mi = 0; mi < sizeof(ms) / sizeof(ms[0]); mi++) {
        for (di = 0; di < sizeof(ds) / sizeof(ds[0]); di++) {
            for (pi = 0; pi < sizeof(ps) / sizeof(ps[0]); pi++) {
                const size_t m = ms[mi], d = ds[di], p = ps[pi], lda = d + 3;
                int f32;
                for (i = 0; i < 5 * 60; i++) {
                    af[i] = (float)uniform();
                    ad[i] = uniform();
                }
                for (i = 0; i < 60; i++) {
                    shift[i] = 0.5 * uniform();
                }
                for (i = 0; i < 60 * 130; i++) {
                    BT[i] = uniform();
                }
                for (f32 = 0; f32 < 2; f32++) {
                    const char *what = f32 ? "dot_block_f32" : "dot_block_f64";
                    for (i = 0; i < m * p + 16; i++) {
                        out[i] = GUARD;
                    }
                    if (f32) {
                        k->dot_block_f32(m, d, af, lda, shift, p, BT, out);
                    } else {
                        k->dot_block_f64(m, d, ad, lda, shift, p, BT, out);
                    }
                    for (r = 0; r < m; r++) {
                        for (q = 0; q < p; q++) {
                            long double ref = 0.0L;
                            for (i = 0; i < d; i++) {
                                long double a = f32 ? (long double)af[r * lda + i] : (long double)ad[r * lda + i];
                                ref += (a - (long double)shift[i]) * (long double)BT[i * p + q];
                                col[i] = BT[i * p + q];
                            }
                            check(fabs(out[r * p + q] - (double)ref) <= 1e-13 * (double)(d + 1), what,
                                  k->name, d, p);
                            if (f32) {
                                k->dot_block_f32(1, d, af + r * lda, lda, shift, 1, col, &one);
                            } else {
                                k->dot_block_f64(1, d, ad + r * lda, lda, shift, 1, col, &one);
                            }
                            check(one == out[r * p + q], "block: same value alone", k->name, d, p);
                        }
                    }
                    for (i = m * p; i < m * p + 16; i++) {
                        check(out[i] == GUARD, "block guard", k->name, d, p);
                    }
                }
            }
        }
    }
}

/* rbf_block: against exp of the clipped distance by the C library. */
static void check_rbf_block(const ptn_simd *k)
{
    static const size_t ps[] = {1, 3, 4, 7, 8, 9, 16, 17, 64, 65};
    double na[5], nb[65], buf[5 * 65], dot[5 * 65];
    size_t pi, r, q;
    for (pi = 0; pi < sizeof(ps) / sizeof(ps[0]); pi++) {
        const size_t m = 5, p = ps[pi];
        const double gamma = 0.7;
        for (r = 0; r < m; r++) {
            na[r] = 3.0 + uniform();
        }
        for (q = 0; q < p; q++) {
            nb[q] = 3.0 + uniform();
        }
        for (r = 0; r < m * p; r++) {
            /* dot products near the norms, so some distances round below 0 */
            dot[r] = buf[r] = 3.0 + uniform() + (r % 7 == 0 ? 1.0 : 0.0);
        }
        k->rbf_block_f64(m, p, na, nb, gamma, buf);
        for (r = 0; r < m; r++) {
            for (q = 0; q < p; q++) {
                double v = na[r] + nb[q] - 2.0 * dot[r * p + q];
                double want = exp(-gamma * (v > 0.0 ? v : 0.0));
                check(fabs(buf[r * p + q] - want) <= 1e-14 * want, "rbf_block_f64", k->name, p, r);
            }
        }
    }
}

/* Sparse rows: sdot against a long-double reference and saxpy against the
 * same update made densely, for every nnz of `lengths` (gather bodies and
 * tails), int32 and int64 indices, weights small (L1) and large (gathers). */
#define SP_MAX_D 70000
static void check_sparse(const ptn_simd *k)
{
    static float wf[SP_MAX_D], vf[MAX_LEN], wf2[SP_MAX_D];
    static double wd[SP_MAX_D], vd[MAX_LEN], wd2[SP_MAX_D], acc[SP_MAX_D], acc2[SP_MAX_D];
    static int32_t i32[MAX_LEN];
    static int64_t i64[MAX_LEN];
    static unsigned char used[SP_MAX_D];
    static const size_t dims[] = {2000, SP_MAX_D};
    size_t di, li, j;
    for (di = 0; di < sizeof(dims) / sizeof(dims[0]); di++) {
        size_t D = dims[di];
        for (j = 0; j < D; j++) {
            wf[j] = (float)uniform();
            wd[j] = uniform();
            used[j] = 0;
        }
        for (li = 0; li < N_LENGTHS; li++) {
            size_t nnz = lengths[li];
            long double r32 = 0.0L, r64 = 0.0L;
            double tol = 1e-12 * (double)(nnz + 1);
            if (nnz > D) {
                continue;
            }
            for (j = 0; j < nnz; j++) {
                size_t c;
                do {  /* distinct columns, in random order (the kernels need no sorting) */
                    c = (size_t)((uniform() + 1.0) * 0.5 * (double)D) % D;
                } while (used[c]);
                used[c] = 1;
                i32[j] = (int32_t)c;
                i64[j] = (int64_t)c;
                vf[j] = (float)uniform();
                vd[j] = uniform();
                r32 += (long double)vf[j] * (long double)wf[c];
                r64 += (long double)vd[j] * (long double)wd[c];
            }
            check(fabs(k->sdot_f32_i32(nnz, vf, i32, wf) - (double)r32) <= tol, "sdot_f32_i32", k->name, nnz, D);
            check(fabs(k->sdot_f32_i64(nnz, vf, i64, wf) - (double)r32) <= tol, "sdot_f32_i64", k->name, nnz, D);
            check(fabs(k->sdot_f64_i32(nnz, vd, i32, wd) - (double)r64) <= tol, "sdot_f64_i32", k->name, nnz, D);
            check(fabs(k->sdot_f64_i64(nnz, vd, i64, wd) - (double)r64) <= tol, "sdot_f64_i64", k->name, nnz, D);
            /* updates: the same as the dense update at those columns, nothing else written */
            memcpy(wf2, wf, D * sizeof(float));
            memcpy(wd2, wd, D * sizeof(double));
            for (j = 0; j < D; j++) {
                acc[j] = acc2[j] = 0.5;
            }
            k->saxpy_f32_i32(nnz, 0.75f, vf, i32, wf2);
            k->saxpy_f64_i64(nnz, -1.25, vd, i64, wd2);
            k->saxpy_f32_f64_i64(nnz, 3.0, vf, i64, acc);
            k->saxpy_f64_i32(nnz, 2.0, vd, i32, acc2);
            for (j = 0; j < nnz; j++) {
                size_t c = (size_t)i32[j];
                check(wf2[c] == wf[c] + 0.75f * vf[j], "saxpy_f32_i32", k->name, nnz, D);
                check(wd2[c] == wd[c] + -1.25 * vd[j], "saxpy_f64_i64", k->name, nnz, D);
                check(acc[c] == 0.5 + 3.0 * (double)vf[j], "saxpy_f32_f64_i64", k->name, nnz, D);
                check(acc2[c] == 0.5 + 2.0 * vd[j], "saxpy_f64_i32", k->name, nnz, D);
                wf2[c] = wf[c];
                wd2[c] = wd[c];
                acc[c] = acc2[c] = 0.5;
                used[c] = 0;
            }
            for (j = 0; j < D; j++) {
                check(wf2[j] == wf[j] && wd2[j] == wd[j] && acc[j] == 0.5 && acc2[j] == 0.5,
                      "saxpy wrote outside its columns", k->name, nnz, D);
            }
        }
    }
}

/* Each level's shuffle is the scalar Fisher-Yates shuffle, state included;
 * its draws are ptn_rng_below's, also where half of them are rejected
 * (bounds just above 2^31). */
static void check_shuffle(const ptn_simd *k)
{
    static const size_t sizes[] = {0, 1, 2, 9, 255, 256, 257, 264, 1000};
    static ptrdiff_t a[1000], b[1000];
    static uint32_t got[64];
    size_t s, i, l;
    for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        ptn_rng r1, r2;
        size_t n = sizes[s];
        int e;
        for (i = 0; i < n; i++) {
            a[i] = b[i] = (ptrdiff_t)i;
        }
        ptn_rng_seed(&r1, 1000 + n);
        ptn_rng_seed(&r2, 1000 + n);
        for (e = 0; e < 3; e++) {
            ptn_shuffle(&r1, a, n);
            k->shuffle(&r2, b, n);
        }
        for (i = 0; i < n; i++) {
            check(a[i] == b[i], "shuffle", k->name, n, 0);
        }
        check(r1.state == r2.state, "shuffle state", k->name, n, 0);
    }
    for (s = 0; s < 2; s++) {
        const size_t top = s == 0 ? ((size_t)1 << 31) + 7 : 600;
        ptn_rng r1, r2;
        ptn_rng_seed(&r1, 77 + s);
        ptn_rng_seed(&r2, 77 + s);
        k->draws(&r2, top, 64, got);
        for (l = 0; l < 64; l++) {
            check(got[l] == (uint32_t)ptn_rng_below(&r1, (uint64_t)(top - l)), "draws", k->name,
                  top, l);
        }
        check(r1.state == r2.state, "draws state", k->name, top, 0);
    }
}

/* Narrow rows (ptn_narrow.h): each narrow kernel has the bits of its
 * float32 kernel on the rows converted first; the conversion of every
 * half-precision value agrees with the portable one; a few halves whose
 * value is known. */
#define NR_ROWS 7
static float narrow_to_f32(int kind, const unsigned char *x, size_t i)
{
    uint16_t h;
    switch (kind) {
    case PTN_X_F16:
    case PTN_X_BF16:
        memcpy(&h, x + 2 * i, 2);
        return kind == PTN_X_F16 ? ptn_f16_to_f32(h) : ptn_bf16_to_f32(h);
    case PTN_X_I8:
        return (float)(int8_t)x[i];
    default:
        return (float)x[i];
    }
}

static void check_narrow(const ptn_simd *k)
{
    static unsigned char xn[2 * NR_ROWS * MAX_LEN + 64];
    static float xc[NR_ROWS * MAX_LEN], w1[MAX_LEN], w2[MAX_LEN], wa[MAX_LEN], wb[MAX_LEN];
    static double u1[MAX_LEN], u2[MAX_LEN];
    static float all[65536], ref[65536];
    static uint16_t halves[65536];
    static const ptrdiff_t order[NR_ROWS] = {3, 0, 6, 1, 5, 2, 4};
    static const signed char y[NR_ROWS] = {1, -1, -1, 1, 1, -1, 1};
    int kind;
    size_t li, i, r;
    for (i = 0; i < 65536; i++) {
        halves[i] = (uint16_t)i;
        all[i] = 0.0f;
        ref[i] = ptn_f16_to_f32((uint16_t)i);
    }
    k->naxpy(PTN_X_F16, 65536, 1.0f, halves, all);
    for (i = 0; i < 65536; i++) {
        check(all[i] == ref[i] || (all[i] != all[i] && ref[i] != ref[i]), "f16 conversion",
              k->name, i, 0);
    }
    check(ptn_f16_to_f32(0x3C00) == 1.0f && ptn_f16_to_f32(0x0001) == ldexpf(1.0f, -24) &&
              ptn_f16_to_f32(0x7BFF) == 65504.0f && ptn_f16_to_f32(0xFC00) == -HUGE_VALF &&
              ptn_bf16_to_f32(0x3F80) == 1.0f,
          "half values", k->name, 0, 0);
    for (kind = PTN_X_F16; kind <= PTN_X_U8; kind++) {
        const size_t size = kind <= PTN_X_BF16 ? 2 : 1;
        for (li = 0; li < N_LENGTHS; li++) {
            const size_t n = lengths[li];
            ptn_scan s;
            ptn_plain p1, p2;
            double act1 = 0.0, act2 = 0.0;
            size_t stop1, stop2;
            for (i = 0; i < size * NR_ROWS * n; i++) {
                xn[i] = (unsigned char)(rng_state >> 40);
                uniform();
                /* halves and bfloat16 of modest exponents, none infinite */
                if (size == 2 && (i & 1)) {
                    xn[i] = (unsigned char)((xn[i] & 0x83) | (kind == PTN_X_F16 ? 0x34 : 0x3C));
                }
            }
            for (i = 0; i < NR_ROWS * n; i++) {
                xc[i] = narrow_to_f32(kind, xn, i);
            }
            for (i = 0; i < n; i++) {
                w1[i] = w2[i] = (float)uniform();
                u1[i] = u2[i] = uniform();
            }
            for (r = 0; r < NR_ROWS; r++) {
                double a = k->ndot(kind, n, xn + size * r * n, w1);
                double b = k->dot_f32(n, xc + r * n, w1);
                check(memcmp(&a, &b, sizeof a) == 0, "ndot", k->name, n, (size_t)kind);
            }
            k->naxpy(kind, n, -0.375f, xn + size * n, w1);
            k->axpy_f32(n, -0.375f, xc + n, w2);
            k->naxpy_f64(kind, n, 0.625, xn + size * n, u1);
            k->axpy_f32_f64(n, 0.625, xc + n, u2);
            check(memcmp(w1, w2, n * sizeof(float)) == 0, "naxpy", k->name, n, (size_t)kind);
            check(memcmp(u1, u2, n * sizeof(double)) == 0, "naxpy_f64", k->name, n, (size_t)kind);
            s.d = n;
            s.rows = order;
            s.n_rows = NR_ROWS;
            s.ahead = 2;
            s.by_row = NULL;
            s.y = y;
            s.w = w1;
            s.b = 0.125;
            s.margin = 0.0;
            s.X = xn;
            stop1 = k->nscan(kind, &s, 1, NR_ROWS, &act1);
            s.X = xc;
            stop2 = k->scan_f32(&s, 1, NR_ROWS, &act2);
            check(stop1 == stop2 && memcmp(&act1, &act2, sizeof act1) == 0, "nscan", k->name, n,
                  (size_t)kind);
            memcpy(wa, w1, n * sizeof(float));
            memcpy(wb, w1, n * sizeof(float));
            memset(&p1, 0, sizeof p1);
            p1.rule = ptn_rule_make(PTN_RULE_PERCEPTRON, 0.5, 0.0, 1.0);
            p1.fit_intercept = 1;
            p2 = p1;
            s.w = wa;
            s.X = xn;
            stop1 = k->nscan_plain(kind, &s, 0, NR_ROWS, &act1, &p1);
            s.w = wb;
            s.X = xc;
            stop2 = k->scan_plain_f32(&s, 0, NR_ROWS, &act2, &p2);
            check(stop1 == stop2 && memcmp(wa, wb, n * sizeof(float)) == 0 && p1.b == p2.b &&
                      p1.updates == p2.updates && p1.mistakes == p2.mistakes,
                  "nscan_plain", k->name, n, (size_t)kind);
        }
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
        const ptn_simd *k = ptn_simd_for_level(level);
        size_t li, offset, i;
        if (k == NULL) {
            printf("skip %s (not supported here)\n", ptn_level_name(level));
            continue;
        }
        for (li = 0; li < N_LENGTHS; li++) {
            size_t n = lengths[li];
            for (offset = 0; offset < 4; offset++) {
                long double ref32 = 0.0L, ref64 = 0.0L, abs32 = 0.0L;
                double got, tol, tol32;
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
                    abs32 += fabsl((long double)xf[offset + i] * (long double)yf[offset + i]);
                    ref64 += (long double)xd[offset + i] * (long double)yd[offset + i];
                }
                tol = 1e-12 * (double)(n + 1);
                /* the blocks' float32 roundings (ptn_simd.h); none at the scalar level */
                tol32 = tol + (level == PTN_LEVEL_SCALAR ? 0.0 : 4.0 * ldexp(1.0, -24) * (double)abs32);
                got = k->dot_f32(n, xf + offset, yf + offset);
                check(fabs(got - (double)ref32) <= tol32, "dot_f32", k->name, n, offset);
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

                /* squared distance: the differences are at most 2 and their
                 * squares at most 4, hence the scale of the tolerance */
                {
                    long double s32 = 0.0L, s64 = 0.0L;
                    for (i = 0; i < n; i++) {
                        long double d32 = (long double)xf[offset + i] - (long double)yf[offset + i];
                        long double d64 = (long double)xd[offset + i] - (long double)yd[offset + i];
                        s32 += d32 * d32;
                        s64 += d64 * d64;
                    }
                    got = k->sqdist_f32(n, xf + offset, yf + offset);
                    check(fabs(got - (double)s32) <= 4.0 * tol, "sqdist_f32", k->name, n, offset);
                    got = k->sqdist_f64(n, xd + offset, yd + offset);
                    check(fabs(got - (double)s64) <= 4.0 * tol, "sqdist_f64", k->name, n, offset);
                    check(k->sqdist_f64(n, xd + offset, xd + offset) == 0.0, "sqdist_f64 of x and x",
                          k->name, n, offset);
                }

                /* exp over the whole range, out of place and in place */
                {
                    for (i = 0; i < n; i++) {
                        xd[offset + i] = 740.0 * uniform() - 10.0; /* [-750, 730) */
                    }
                    for (i = 0; i < PAD; i++) {
                        yd[offset + n + i] = GUARD;
                    }
                    k->exp_f64(n, xd + offset, yd + offset);
                    for (i = 0; i < n; i++) {
                        check(exp_close(yd[offset + i], exp(xd[offset + i])), "exp_f64", k->name, n, offset);
                    }
                    for (i = 0; i < PAD; i++) {
                        check(yd[offset + n + i] == GUARD, "exp_f64 guard", k->name, n, offset);
                    }
                    k->exp_f64(n, xd + offset, xd + offset);
                    for (i = 0; i < n; i++) {
                        check(xd[offset + i] == yd[offset + i], "exp_f64 in place", k->name, n, offset);
                    }
                }
            }
        }
        check_exp_specials(k);
        check_block(k);
        check_rbf_block(k);
        check_sparse(k);
        check_shuffle(k);
        check_narrow(k);
        printf("ok   %s\n", k->name);
    }
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("all kernels pass\n");
    return 0;
}

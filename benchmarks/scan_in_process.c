/*
 * scan_in_process.c - the package's AVX-512 scan and update kernels against
 * floor.c's loops, in one process, over one array.
 *
 * bench_floor.py times a whole fit against floor.c, each in its own calls;
 * on a machine shared with other virtual machines the two can land on
 * differently loaded moments, and a run-to-run spread of 10-30% hides a
 * gap of 5%.  This program includes the package's AVX-512 kernels
 * (csrc/simd_avx512.c, the same source the package compiles) and calls
 * them as an in-order binary epoch does: the scan (csrc/ptn_scan.h) up to
 * the next row that needs an update, the fused axpy, the scan again.  The
 * variants run one after the other, round after round, on the same array,
 * and each keeps its best round, so that a burst of load weighs on all of
 * them alike.  Built and run by bench_scan_in_process.py.
 *
 * Usage: scan_in_process N D f32|f64 ROUNDS
 * Prints one line "name milliseconds updates" per variant, an epoch each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "simd_avx512.c"

/* floor.c, compiled apart with -march=native */
size_t floor_dense_f32(const float *X, size_t n, size_t d, const float *w, double b,
                       const int8_t *y, const intptr_t *order, size_t ahead, double *sum);
size_t floor_dense_f64(const double *X, size_t n, size_t d, const double *w, double b,
                       const int8_t *y, const intptr_t *order, size_t ahead, double *sum);
size_t floor_dense_f32_blocks(const float *X, size_t n, size_t d, const float *w, double b,
                              const int8_t *y, const intptr_t *order, size_t ahead,
                              double *sum);
size_t floor_dense_update_f32(const float *X, size_t n, size_t d, float *w, double *b,
                              const int8_t *y, const intptr_t *order, size_t ahead);
size_t floor_dense_update_f32_blocks(const float *X, size_t n, size_t d, float *w, double *b,
                                     const int8_t *y, const intptr_t *order, size_t ahead);
size_t floor_dense_update_f64(const double *X, size_t n, size_t d, double *w, double *b,
                              const int8_t *y, const intptr_t *order, size_t ahead);

#define EPOCHS 5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* EPOCHS in-order epochs of the plain rule from zero weights, as the
 * package runs them: scan to the next row to update, update, scan on */
static size_t scan_epochs(int f32, const void *X, size_t n, size_t d, void *w,
                          const signed char *y, const ptrdiff_t *rows)
{
    size_t bad = 0, k;
    double b = 0.0, act;
    int e;
    for (e = 0; e < EPOCHS; e++) {
        ptn_scan s = {X, d, rows, n, 0, y, w, 0.0, 0.0};
        k = 0;
        while (k < n) {
            size_t j;
            s.b = b;
            j = f32 ? ptn_scan_f32_avx512(&s, k, n, &act) : ptn_scan_f64_avx512(&s, k, n, &act);
            if (j < n) {
                if (f32) {
                    ptn_axpy_f32_avx512(d, (float)y[j], (const float *)X + j * d, (float *)w);
                } else {
                    ptn_axpy_f64_avx512(d, (double)y[j], (const double *)X + j * d, (double *)w);
                }
                b += y[j];
                bad++;
                j++;
            }
            k = j;
        }
    }
    return bad;
}

/* EPOCHS in-order epochs as the package runs the plain rule now: the scan
 * makes its updates itself (scan_plain, csrc/ptn_scan.h) */
static size_t plain_epochs(int f32, const void *X, size_t n, size_t d, void *w,
                           const signed char *y, const ptrdiff_t *rows)
{
    double b = 0.0, act;
    int64_t bad = 0;
    int e;
    for (e = 0; e < EPOCHS; e++) {
        ptn_scan s = {X, d, rows, n, 0, y, w, b, 0.0};
        ptn_plain p = {1.0, 1, b, 0, 0, 0.0, 0.0};
        if (f32) {
            ptn_scan_plain_f32_avx512(&s, 0, n, &act, &p);
        } else {
            ptn_scan_plain_f64_avx512(&s, 0, n, &act, &p);
        }
        b = p.b;
        bad += p.updates;
    }
    return (size_t)bad;
}

/* one scan over rows the weights get all right: the scan's pass alone */
static size_t scan_pass(int f32, const void *X, size_t n, size_t d, const void *w,
                        const signed char *y, const ptrdiff_t *rows)
{
    ptn_scan s = {X, d, rows, n, 0, y, w, 0.0, 0.0};
    size_t k = 0, stops = 0;
    double act;
    while (k < n) {
        k = (f32 ? ptn_scan_f32_avx512(&s, k, n, &act) : ptn_scan_f64_avx512(&s, k, n, &act)) + 1;
        stops++;
    }
    return stops - 1;
}

enum { SCAN_PASS, FLOOR_PASS, FLOOR_PASS_BLOCKS, SCAN_EPOCH, FLOOR_UPDATES,
       FLOOR_UPDATES_BLOCKS, PLAIN_EPOCH, N_VARIANTS };
static const char *const NAMES[N_VARIANTS] = {
    "scan_pass", "floor_pass", "floor_pass_blocks", "scan_epoch", "floor_updates",
    "floor_updates_blocks", "plain_epoch"};

int main(int argc, char **argv)
{
    size_t n, d, es, bytes, i, j;
    int f32, rounds, r, v;
    void *X, *w;
    double *w0, best[N_VARIANTS];
    size_t counts[N_VARIANTS];
    signed char *y;
    ptrdiff_t *rows;
    if (argc != 5) {
        fprintf(stderr, "usage: %s N D f32|f64 ROUNDS\n", argv[0]);
        return 2;
    }
    n = (size_t)atol(argv[1]);
    d = (size_t)atol(argv[2]);
    f32 = strcmp(argv[3], "f32") == 0;
    rounds = atoi(argv[4]);
    es = f32 ? 4 : 8;
    /* whole 2 MB pages, asked to be huge ones, as numpy's large arrays are */
    bytes = (n * d * es + 2097151) / 2097152 * 2097152;
    if (posix_memalign(&X, 2097152, bytes) != 0) {
        X = NULL;
    }
    w = malloc(d * 8);
    w0 = malloc(d * sizeof(double));
    y = malloc(n);
    rows = malloc(n * sizeof(ptrdiff_t));
    if (X == NULL || w == NULL || w0 == NULL || y == NULL || rows == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    madvise(X, bytes, MADV_HUGEPAGE);
    srand(1);
    for (i = 0; i < d; i++) {
        w0[i] = rand() / (double)RAND_MAX - 0.5;
    }
    for (i = 0; i < n * d; i++) {
        const double u = rand() / (double)RAND_MAX - 0.5;
        if (f32) {
            ((float *)X)[i] = (float)u;
        } else {
            ((double *)X)[i] = u;
        }
    }
    /* separable labels, from w0 in the data's type */
    for (i = 0; i < n; i++) {
        double a = 0.0;
        for (j = 0; j < d; j++) {
            a += (f32 ? (double)((float *)X)[i * d + j] * (double)(float)w0[j]
                      : ((double *)X)[i * d + j] * w0[j]);
        }
        y[i] = a > 0 ? 1 : -1;
        rows[i] = (ptrdiff_t)i;
    }
    for (v = 0; v < N_VARIANTS; v++) {
        best[v] = HUGE_VAL;
        counts[v] = 0;
    }
    for (r = 0; r < rounds; r++) {
        for (v = 0; v < N_VARIANTS; v++) {
            double b = 0.0, sum = 0.0, t0, t;
            size_t c = 0;
            int e;
            if (v == SCAN_PASS || v == FLOOR_PASS || v == FLOOR_PASS_BLOCKS) {
                /* the weights that label the rows: no update to make */
                for (j = 0; j < d; j++) {
                    if (f32) {
                        ((float *)w)[j] = (float)w0[j];
                    } else {
                        ((double *)w)[j] = w0[j];
                    }
                }
            } else {
                memset(w, 0, d * 8);
            }
            t0 = now();
            switch (v) {
            case SCAN_PASS:
                c = scan_pass(f32, X, n, d, w, y, rows);
                break;
            case FLOOR_PASS:
                c = f32 ? floor_dense_f32(X, n, d, w, 0.0, (const int8_t *)y, NULL, 0, &sum)
                        : floor_dense_f64(X, n, d, w, 0.0, (const int8_t *)y, NULL, 0, &sum);
                break;
            case FLOOR_PASS_BLOCKS:
                c = f32 ? floor_dense_f32_blocks(X, n, d, w, 0.0, (const int8_t *)y, NULL, 0, &sum)
                        : floor_dense_f64(X, n, d, w, 0.0, (const int8_t *)y, NULL, 0, &sum);
                break;
            case SCAN_EPOCH:
                c = scan_epochs(f32, X, n, d, w, y, rows);
                break;
            case PLAIN_EPOCH:
                c = plain_epochs(f32, X, n, d, w, y, rows);
                break;
            default:
                for (e = 0; e < EPOCHS; e++) {
                    if (!f32) {
                        c += floor_dense_update_f64(X, n, d, w, &b, (const int8_t *)y, NULL, 0);
                    } else if (v == FLOOR_UPDATES) {
                        c += floor_dense_update_f32(X, n, d, w, &b, (const int8_t *)y, NULL, 0);
                    } else {
                        c += floor_dense_update_f32_blocks(X, n, d, w, &b, (const int8_t *)y,
                                                           NULL, 0);
                    }
                }
                break;
            }
            t = now() - t0;
            if (v >= SCAN_EPOCH) {
                t /= EPOCHS;
                c /= EPOCHS;
            }
            if (t < best[v]) {
                best[v] = t;
            }
            counts[v] = c;
            if (sum == 1e300) {
                printf("%g\n", sum); /* keeps the floors' sums alive */
            }
        }
    }
    for (v = 0; v < N_VARIANTS; v++) {
        printf("%s %.4f %zu\n", NAMES[v], best[v] * 1e3, counts[v]);
    }
    return 0;
}

/*
 * floor_common.h - what the C floors of the benchmarks share (floor.c,
 * narrow_floor.c, pocket_floor.c): the prefetch of a byte range, the AVX2
 * horizontal sums, the dense pass, and the straightforward exact pocket.  Compiled into
 * each floor by the benchmarks (benchmarks/_common.py, compile_floor);
 * never part of the package.
 */
#ifndef FLOOR_COMMON_H
#define FLOOR_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#define LINE 64

/* every line of [p, p + nbytes), into L2 (locality 2) or L1 (3) */
#define PREFETCH_RANGE(NAME, LOCALITY)                                               \
    static inline void NAME(const void *p, size_t nbytes)                            \
    {                                                                                \
        const char *c = (const char *)p;                                             \
        size_t off;                                                                  \
        for (off = 0; off < nbytes; off += LINE) {                                   \
            __builtin_prefetch(c + off, 0, LOCALITY);                                \
        }                                                                            \
        if (nbytes != 0) {                                                           \
            __builtin_prefetch(c + nbytes - 1, 0, LOCALITY);                         \
        }                                                                            \
    }
PREFETCH_RANGE(prefetch_range, 2)
PREFETCH_RANGE(prefetch_range_l1, 3)

#if defined(__AVX2__)
/* the sum of the lanes of an AVX2 vector, double or float */
static inline double hsum256d(__m256d v)
{
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

static inline double hsum256s(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return (double)_mm_cvtss_f32(s);
}
#endif

/* The row `ahead` positions on (in the order, when there is one) into L2:
 * the simplest prefetch of a dense pass, PREFETCH(T, k, ahead, n) of
 * FLOOR_DENSE. */
#define PREFETCH_AHEAD(T, k, ahead, n)                                               \
    if (ahead != 0 && (k) + ahead < n) {                                             \
        const size_t j_ = order ? (size_t)order[(k) + ahead] : (k) + ahead;          \
        prefetch_range(X + j_ * d, d * sizeof(T));                                   \
    }

/*
 * FLOOR_DENSE(NAME, T, TW, DOT, PREFETCH): the dense pass of a floor over
 * rows of T against weights of TW,
 *
 *   size_t NAME(X, n, d, w, b, y, order, ahead, sum)
 *
 * for each visited row i (in order, or order[k]), a = DOT(d, x_i, w) + b and
 * the perceptron's test y_i * a <= 0, the rows asked for by
 * PREFETCH(T, k, ahead, n) (a macro of X, d, order); returns the number of
 * rows with y*a <= 0 and stores the sum of the activations in *sum, so that
 * no work can be left out by the compiler.
 */
#define FLOOR_DENSE(NAME, T, TW, DOT, PREFETCH)                                      \
    size_t NAME(const T *X, size_t n, size_t d, const TW *w, double b,               \
                const int8_t *y, const intptr_t *order, size_t ahead, double *sum)   \
    {                                                                                \
        size_t k, bad = 0;                                                           \
        double s = 0.0;                                                              \
        for (k = 0; k < n; k++) {                                                    \
            const size_t i = order ? (size_t)order[k] : k;                           \
            double a;                                                                \
            PREFETCH(T, k, ahead, n)                                                 \
            a = DOT(d, X + i * d, w) + b;                                            \
            bad += (double)y[i] * a <= 0.0;                                          \
            s += a;                                                                  \
        }                                                                            \
        *sum = s;                                                                    \
        return bad;                                                                  \
    }

/*
 * FLOOR_POCKET(NAME, T, DOT): the straightforward exact pocket over rows of
 * T, the weights T, with the dot product DOT(d, x, w) (summed in double):
 * Gallant's (1990) pocket with ratchet, eta 1 with an intercept, no sample
 * weights.  The plain rule over `epochs` passes, in order (order NULL) or
 * in the order given; each time the current weights' run of right rows
 * first outlasts the pocket's, one count of the training rows they get
 * right (y*a > 0) in its own read of X, which stops as soon as the pocket
 * can no longer be beaten, and the pocket replaced when the count beats its
 * own.  Weights already counted are not counted again in the same run.  No
 * counters, no loss, no finiteness checks: less work than the package's
 * pocket fit.
 *
 *   size_t NAME(X, n, d, y, order, epochs, w, b, pw, pb, rows_scored)
 *
 * returns the number of counts; *rows_scored gets the rows they read.
 */
#define FLOOR_POCKET(NAME, T, DOT)                                                   \
    static size_t NAME(const T *X, size_t n, size_t d, const int8_t *y,              \
                       const intptr_t *order, size_t epochs, T *w, double *b, T *pw, \
                       double *pb, size_t *rows_scored)                              \
    {                                                                                \
        size_t e, r, q, rescores = 0, scored = 0, run = 0, pocket_run = 0;           \
        size_t checked = 0, pocket_ok = 0, ok, wrong;                                \
        double bias = *b;                                                            \
        for (r = 0; r < n; r++) {                                                    \
            pocket_ok += (double)y[r] * (DOT(d, X + r * d, w) + bias) > 0.0;         \
        }                                                                            \
        for (q = 0; q < d; q++) {                                                    \
            pw[q] = w[q];                                                            \
        }                                                                            \
        *pb = bias;                                                                  \
        for (e = 0; e < epochs; e++) {                                               \
            for (r = 0; r < n; r++) {                                                \
                const size_t i = order ? (size_t)order[r] : r;                       \
                const T *x = X + i * d;                                              \
                const double a = DOT(d, x, w) + bias;                                \
                if ((double)y[i] * a <= 0.0) {                                       \
                    const T step = (T)y[i];                                          \
                    for (q = 0; q < d; q++) {                                        \
                        w[q] += step * x[q];                                         \
                    }                                                                \
                    bias += (double)y[i];                                            \
                    run = 0;                                                         \
                    checked = 0;                                                     \
                    continue;                                                        \
                }                                                                    \
                run++;                                                               \
                if (checked || run <= pocket_run) {                                  \
                    continue;                                                        \
                }                                                                    \
                rescores++;                                                          \
                ok = wrong = 0;                                                      \
                for (q = 0; q < n; q++) {                                            \
                    const size_t j = order ? (size_t)order[q] : q;                   \
                    if ((double)y[j] * (DOT(d, X + j * d, w) + bias) > 0.0) {        \
                        ok++;                                                        \
                    } else if (n - ++wrong <= pocket_ok) {                           \
                        q++;                                                         \
                        break;                                                       \
                    }                                                                \
                }                                                                    \
                scored += q;                                                         \
                if (ok > pocket_ok) {                                                \
                    for (q = 0; q < d; q++) {                                        \
                        pw[q] = w[q];                                                \
                    }                                                                \
                    *pb = bias;                                                      \
                    pocket_ok = ok;                                                  \
                    pocket_run = run;                                                \
                }                                                                    \
                checked = 1;                                                         \
            }                                                                        \
        }                                                                            \
        *b = bias;                                                                   \
        *rows_scored = scored;                                                       \
        return rescores;                                                             \
    }

#endif /* FLOOR_COMMON_H */

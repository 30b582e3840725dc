/*
 * binary_floor.c - the floor of an epoch over binary CSR rows (every stored
 * value 1, kept as the indices alone): floor.c's CSR pass without the
 * values, over the same index arrays an epoch reads.  Compiled by
 * benchmarks/_common.py at run time with the native instruction set
 * (cc -O3 -march=native) and loaded through ctypes; never part of the
 * package.  It includes floor.c for its prefetch helpers (and so carries
 * every floor.c pass as well).
 *
 *   floor_binary_{f32,f64}(indices, indptr, n, w, b, y, order, ahead, near, sum)
 *       for each visited row i (in order, or order[k]), a = the sum of
 *       w[indices[p]] over the row + b, four accumulators in double over
 *       the row's non-zeros (the compiler vectorizes the gathers where the
 *       level has them), and the perceptron's test y*a <= 0; shuffled, the
 *       row's indices asked for `ahead` rows before it is read (its row
 *       pointers 2 * ahead rows before) and into L1 `near` rows before (0:
 *       not), as floor.c's CSR pass asks for its values and indices.
 *       int32 indices.
 *   floor_binary_f32_u16(...)
 *       the same over 16-bit indices.
 *
 * Each returns the number of rows with y*a <= 0 and stores the sum of the
 * activations in *sum, so that no work can be left out by the compiler.
 */
#include "floor.c"

#define BINARY_ROW_SUM(indices, lo, hi, w, out)                                      \
    do {                                                                             \
        double a0_ = 0, a1_ = 0, a2_ = 0, a3_ = 0;                                   \
        int64_t p_ = lo;                                                             \
        for (; p_ + 4 <= hi; p_ += 4) {                                              \
            a0_ += (double)w[indices[p_]];                                           \
            a1_ += (double)w[indices[p_ + 1]];                                       \
            a2_ += (double)w[indices[p_ + 2]];                                       \
            a3_ += (double)w[indices[p_ + 3]];                                       \
        }                                                                            \
        for (; p_ < hi; p_++) {                                                      \
            a0_ += (double)w[indices[p_]];                                           \
        }                                                                            \
        out = (a0_ + a1_) + (a2_ + a3_);                                             \
    } while (0)

#define BINARY_PREFETCH(I)                                                           \
    if (ahead != 0 && order && r + 2 * ahead < n) {                                  \
        __builtin_prefetch(indptr + order[r + 2 * ahead], 0, 2);                     \
    }                                                                                \
    if (ahead != 0 && r + ahead < n) {                                               \
        const size_t j = order ? (size_t)order[r + ahead] : r + ahead;               \
        const int64_t jl = indptr[j], jh = indptr[j + 1];                            \
        prefetch_range(indices + jl, (size_t)(jh - jl) * sizeof(I));                 \
    }                                                                                \
    if (near != 0 && r + near < n) {                                                 \
        const size_t j = order ? (size_t)order[r + near] : r + near;                 \
        const int64_t jl = indptr[j], jh = indptr[j + 1];                            \
        prefetch_range_l1(indices + jl, (size_t)(jh - jl) * sizeof(I));              \
    }

#define BINARY(NAME, T, I)                                                           \
    size_t NAME(const I *indices, const int64_t *indptr, size_t n, const T *w,       \
                double b, const int8_t *y, const intptr_t *order, size_t ahead,      \
                size_t near, double *sum)                                            \
    {                                                                                \
        size_t r, bad = 0;                                                           \
        double s = 0.0;                                                              \
        if (order == NULL && ahead == 0 && near == 0) {                              \
            for (r = 0; r < n; r++) {                                                \
                double a;                                                            \
                BINARY_ROW_SUM(indices, indptr[r], indptr[r + 1], w, a);             \
                a += b;                                                              \
                bad += (double)y[r] * a <= 0.0;                                      \
                s += a;                                                              \
            }                                                                        \
            *sum = s;                                                                \
            return bad;                                                              \
        }                                                                            \
        for (r = 0; r < n; r++) {                                                    \
            const size_t i = order ? (size_t)order[r] : r;                           \
            double a;                                                                \
            BINARY_PREFETCH(I)                                                       \
            BINARY_ROW_SUM(indices, indptr[i], indptr[i + 1], w, a);                 \
            a += b;                                                                  \
            bad += (double)y[i] * a <= 0.0;                                          \
            s += a;                                                                  \
        }                                                                            \
        *sum = s;                                                                    \
        return bad;                                                                  \
    }
BINARY(floor_binary_f32, float, int32_t)
BINARY(floor_binary_f64, double, int32_t)
BINARY(floor_binary_f32_u16, float, uint16_t)

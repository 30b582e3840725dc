/*
 * binary_floor.c - the floor of an epoch over binary CSR rows (every stored
 * value 1, kept as the indices alone): floor.c's CSR pass without the
 * values, over the same index arrays an epoch reads.  Compiled by
 * benchmarks/_common.py at run time with the native instruction set
 * (cc -O3 -march=native) and loaded through ctypes; never part of the
 * package.  It includes floor.c, whose CSR pass (ROWS_PASS) it instantiates
 * without the values (and so carries every floor.c pass as well).
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
 *   floor_binary_f32_gather(indices, indptr, n, w, b, y, sum)
 *       rows in order, each row's weights fetched by AVX2's 8-wide gathers
 *       (vgatherdps) two at a time into two double accumulators, the rest
 *       one at a time: the library's way to fetch them in order (the
 *       products by one left out); without AVX2, the scalar pass.  int32
 *       indices.
 *
 * Each returns the number of rows with y*a <= 0 and stores the sum of the
 * activations in *sum, so that no work can be left out by the compiler.
 */
#include "floor.c"

/* floor.c's CSR pass (ROWS_PASS) with a non-zero's weight alone for its
 * share of the activation, and no values to ask for. */
#define BINARY_TERM(p) (double)w[indices[p]]
#define NO_VALUES(fetch, lo, hi)

#define BINARY(NAME, T, I)                                                           \
    size_t NAME(const I *indices, const int64_t *indptr, size_t n, const T *w,       \
                double b, const int8_t *y, const intptr_t *order, size_t ahead,      \
                size_t near, double *sum)                                            \
    ROWS_PASS(BINARY_TERM, NO_VALUES, I)
BINARY(floor_binary_f32, float, int32_t)
BINARY(floor_binary_f64, double, int32_t)
BINARY(floor_binary_f32_u16, float, uint16_t)

#if defined(__AVX2__)
size_t floor_binary_f32_gather(const int32_t *indices, const int64_t *indptr, size_t n,
                               const float *w, double b, const int8_t *y, double *sum)
{
    size_t r, bad = 0;
    double s = 0.0;
    for (r = 0; r < n; r++) {
        const int64_t lo = indptr[r], hi = indptr[r + 1];
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
        double t = 0.0, a;
        int64_t p = lo;
        for (; p + 16 <= hi; p += 16) {
            const __m256 g0 = _mm256_i32gather_ps(
                w, _mm256_loadu_si256((const __m256i *)(const void *)(indices + p)), 4);
            const __m256 g1 = _mm256_i32gather_ps(
                w, _mm256_loadu_si256((const __m256i *)(const void *)(indices + p + 8)), 4);
            a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm256_castps256_ps128(g0)));
            a1 = _mm256_add_pd(a1, _mm256_cvtps_pd(_mm256_extractf128_ps(g0, 1)));
            a2 = _mm256_add_pd(a2, _mm256_cvtps_pd(_mm256_castps256_ps128(g1)));
            a3 = _mm256_add_pd(a3, _mm256_cvtps_pd(_mm256_extractf128_ps(g1, 1)));
        }
        for (; p < hi; p++) {
            t += (double)w[indices[p]];
        }
        a = hsum256d(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3))) + t + b;
        bad += (double)y[r] * a <= 0.0;
        s += a;
    }
    *sum = s;
    return bad;
}
#else
size_t floor_binary_f32_gather(const int32_t *indices, const int64_t *indptr, size_t n,
                               const float *w, double b, const int8_t *y, double *sum)
{
    return floor_binary_f32(indices, indptr, n, w, b, y, NULL, 0, 0, sum);
}
#endif

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_csr_online.h - the binary perceptron's online epoch over CSR rows.
 *
 * size_t ptn_csr_online_<T>_<I>(ptn_csr_online *s, size_t start, size_t stop, double *act)
 *
 * For k = start, start + 1, ... < stop, with i = s->rows[k] and the row's
 * activation a = w . x_i + b: when the rule's trigger (ptn_rule_acts,
 * ptn_update.h) says so, the rule acts on row i through ptn_binary_update:
 * w += step * x_i, and U += acc * x_i when averaging (s->U not NULL), with
 * c = s->steps, the averaging clock, which counts every row visited.
 * Mistakes, updates and the rule's loss are added to s's counters.
 *
 * Returns stop, or the first k whose activation is not finite (*act gets it;
 * the row is not counted, nothing is updated from it): the caller tells NaN
 * or infinity in x_i from overflowed weights.  The _ordered loops take row
 * k for rows[k] without reading rows: for callers whose rows are 0, 1, 2,
 * ... (ptn_rows_identity says so).
 *
 * The loops come in kinds (the variants at the end of this file): every
 * case; the plain rule; the plain rule over rows 0, 1, 2, ...; and both
 * over rows whose values are all 1.0, which they do not read.
 *
 * The dot product is the scalar sparse dot of ptn_sparse_inline.h (the same
 * bits as the scalar level's sdot), or the level's own sdot through
 * s->dot_* when the caller sets it (weights too large for L1, where the
 * gathers of AVX2 / AVX-512 pay: ptn_simd.h).  The updates are the scalar
 * saxpy's code.  The counterpart of ptn_scan.h for sparse rows: the update
 * happens inside the loop, because on short rows (tens of non-zeros) leaving
 * the loop for every mistake costs as much as the row.
 *
 * Inputs are trusted: indices in [0, len(w)), no column twice in a row,
 * rows[k] < number of rows, ptr rising.
 */
#ifndef PTN_CSR_ONLINE_H
#define PTN_CSR_ONLINE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptn_simd.h"
#include "ptn_prefetch.h"
#include "ptn_sparse_inline.h"
#include "ptn_update.h"

typedef struct ptn_csr_online {
    /* the rows: CSR arrays (ptr and idx of the index type) and the order */
    const void *val;
    size_t vstep;           /* row i's values at val + ptr[i] * vstep: 1, or 0 for binary rows
                             * (indices alone; val then holds ones for the longest row) */
    const void *idx;
    const void *ptr;
    const ptrdiff_t *rows;
    size_t n_rows;          /* entries of rows (prefetching looks past the stretch) */
    size_t ahead;           /* prefetch rows[k + ahead] (and its row pointers at 2 * ahead); 0: never */
    const signed char *y;   /* labels, -1 or +1, by row */
    const double *sw;       /* sample weights by row, or NULL for ones */
    /* the model, updated in place */
    void *w;                /* weights, in the data's type */
    double *b;
    double *U;              /* averaging accumulators (double), or NULL */
    double *ub;
    /* the rule (ptn_update.h), and the rows' squared norms when it reads
     * them (ptn_rule_needs_norm), else NULL */
    ptn_rule rule;
    const double *sqnorm;
    int fit_intercept;
    /* the level's sdot for large weights, or NULL for the inline scalar one */
    ptn_sdot_f32_i32_fn dot_f32_i32;
    ptn_sdot_f32_i64_fn dot_f32_i64;
    ptn_sdot_f64_i32_fn dot_f64_i32;
    ptn_sdot_f64_i64_fn dot_f64_i64;
    /* the loops over 16-bit indices are plain ones, which never call these */
    double (*dot_f32_u16)(size_t, const float *, const uint16_t *, const float *);
    double (*dot_f64_u16)(size_t, const double *, const uint16_t *, const double *);
    /* counters, added to */
    int64_t steps;
    int64_t mistakes;
    int64_t updates;
    double loss;
    double raw_loss;
} ptn_csr_online;

/*
 * In a shuffled epoch (ahead > 0) the row `ahead` positions on is asked for
 * into L2, and the row after next, already there or on its way, into L1.
 * A mistake is a branch the processor could not predict: the rows it had
 * started on are thrown away, and the next row starts from nothing, its
 * loads one after the other (row pointer, indices, weights); from L1 each
 * costs a few cycles, from L2 three times more (two rows ahead measured
 * best; the performance page has the figures).
 */
#define PTN_CSR_NEAR 2

/* Whether rows[k] == k for every k < n: one pass that the compiler
 * vectorizes (no early exit), a few microseconds for 30,000 rows. */
PTN_INLINE int ptn_rows_identity(const ptrdiff_t *rows, size_t n)
{
    ptrdiff_t diff = 0;
    size_t k;
    for (k = 0; k < n; k++) {
        diff |= rows[k] ^ (ptrdiff_t)k;
    }
    return diff == 0;
}

#define PTN_CSR_ONLINE(NAME, T, I, P, DOTFIELD, SDOT, SAXPY, SAXPY_ACC, DOT1, ADD1,     \
                       PLAIN, ORDERED, ONES)                                         \
    PTN_INLINE size_t NAME(ptn_csr_online *s, size_t start, size_t stop, double *act) \
    {                                                                                \
        const T *val = (const T *)s->val;                                            \
        /* binary rows reach the plain rule's loops as ONES ones only */             \
        const size_t vstep = PLAIN ? 1 : s->vstep;                                   \
        const I *idx = (const I *)s->idx;                                            \
        const P *ptr = (const P *)s->ptr;                                            \
        const ptrdiff_t *rows = s->rows;                                             \
        const signed char *y = s->y;                                                 \
        const double *sw = PLAIN ? NULL : s->sw;                                     \
        const size_t n_rows = s->n_rows, ahead = s->ahead;                           \
        const ptn_rule rule = s->rule;                                               \
        const int fit_intercept = s->fit_intercept;                                  \
        T *w = (T *)s->w;                                                            \
        double *U = PLAIN ? NULL : s->U;                                             \
        double b = *s->b;                                                            \
        int64_t steps = s->steps, mistakes = 0, updates = 0;                         \
        double loss = 0.0, raw = 0.0;                                                \
        size_t k;                                                                    \
        for (k = start; k < stop; k++) {                                             \
            const size_t i = ORDERED ? k : (size_t)rows[k];                          \
            const size_t lo = (size_t)ptr[i], m = (size_t)ptr[i + 1] - lo;           \
            double a, ya;                                                            \
            if (!ORDERED && ahead != 0 && k + ahead < n_rows) {                      \
                const size_t r = (size_t)rows[k + ahead];                            \
                const size_t rlo = (size_t)ptr[r], rm = (size_t)ptr[r + 1] - rlo;    \
                if (k + 2 * ahead < n_rows) {                                        \
                    ptn_prefetch_range(ptr + rows[k + 2 * ahead], 2 * sizeof(P));    \
                }                                                                    \
                if (!ONES && vstep) {                                                \
                    ptn_prefetch_range(val + rlo, rm * sizeof(T));                   \
                }                                                                    \
                ptn_prefetch_range(idx + rlo, rm * sizeof(I));                       \
                if (k + PTN_CSR_NEAR < n_rows) {                                     \
                    const size_t q = (size_t)rows[k + PTN_CSR_NEAR];                 \
                    const size_t qlo = (size_t)ptr[q], qm = (size_t)ptr[q + 1] - qlo; \
                    if (!ONES && vstep) {                                            \
                        ptn_prefetch_range_l1(val + qlo, qm * sizeof(T));            \
                    }                                                                \
                    ptn_prefetch_range_l1(idx + qlo, qm * sizeof(I));                \
                }                                                                    \
            }                                                                        \
            a = (!PLAIN && s->DOTFIELD != NULL ? s->DOTFIELD(m, val + lo * vstep, idx + lo, w) \
                 : ONES                        ? DOT1(m, idx + lo, w)                  \
                                               : SDOT(m, val + lo * vstep, idx + lo, w)) + \
                b;                                                                   \
            ya = (double)y[i] * a;                                                   \
            if (PTN_UNLIKELY(ptn_rule_acts(&rule, ya))) {                            \
                ptn_step st;                                                         \
                const double *const sqn = s->sqnorm;                                 \
                if (!isfinite(a)) {                                                  \
                    *act = a;                                                        \
                    break;                                                           \
                }                                                                    \
                st = ptn_binary_update(&rule, fit_intercept, U != NULL, ya,          \
                                       sw == NULL ? 1.0 : sw[i], (double)y[i],       \
                                       sqn == NULL ? 0.0 : sqn[i], (double)steps,    \
                                       &b, s->ub, &mistakes, &updates, &loss, &raw); \
                if (ONES) {                                                          \
                    ADD1(m, (T)st.step, idx + lo, w);                                \
                } else {                                                             \
                    SAXPY(m, (T)st.step, val + lo * vstep, idx + lo, w);             \
                }                                                                    \
                if (U != NULL) {                                                     \
                    SAXPY_ACC(m, st.acc, val + lo * vstep, idx + lo, U);             \
                }                                                                    \
            }                                                                        \
            if (!PLAIN) {                                                            \
                steps++;                                                             \
            }                                                                        \
        }                                                                            \
        if (PLAIN) {                                                                 \
            /* the clock only averaging reads, kept off the loop */                  \
            steps += (int64_t)(k - start);                                           \
        }                                                                            \
        *s->b = b;                                                                   \
        s->steps = steps;                                                            \
        s->mistakes += mistakes;                                                     \
        s->updates += updates;                                                       \
        s->loss += loss;                                                             \
        s->raw_loss += raw;                                                          \
        return k;                                                                    \
    }

#define PTN_CSR_ONLINE_TYPES(SUFFIX, PLAIN, ORDERED, ONES)                           \
    PTN_CSR_ONLINE(ptn_csr_online##SUFFIX##_f32_i32, float, int32_t, int32_t, dot_f32_i32,    \
                   ptn_sdot_f32_i32_inline, ptn_saxpy_f32_i32_inline,                \
                   ptn_saxpy_f32_f64_i32_inline,                                     \
                   ptn_sdot_ones_f32_i32_inline, ptn_sadd_ones_f32_i32_inline,       \
                   PLAIN, ORDERED, ONES)                                             \
    PTN_CSR_ONLINE(ptn_csr_online##SUFFIX##_f32_i64, float, int64_t, int64_t, dot_f32_i64,    \
                   ptn_sdot_f32_i64_inline, ptn_saxpy_f32_i64_inline,                \
                   ptn_saxpy_f32_f64_i64_inline,                                     \
                   ptn_sdot_ones_f32_i64_inline, ptn_sadd_ones_f32_i64_inline,       \
                   PLAIN, ORDERED, ONES)                                             \
    PTN_CSR_ONLINE(ptn_csr_online##SUFFIX##_f64_i32, double, int32_t, int32_t, dot_f64_i32,   \
                   ptn_sdot_f64_i32_inline, ptn_saxpy_f64_i32_inline,                \
                   ptn_saxpy_f64_i32_inline,                                         \
                   ptn_sdot_ones_f64_i32_inline, ptn_sadd_ones_f64_i32_inline,       \
                   PLAIN, ORDERED, ONES)                                             \
    PTN_CSR_ONLINE(ptn_csr_online##SUFFIX##_f64_i64, double, int64_t, int64_t, dot_f64_i64,   \
                   ptn_sdot_f64_i64_inline, ptn_saxpy_f64_i64_inline,                \
                   ptn_saxpy_f64_i64_inline,                                         \
                   ptn_sdot_ones_f64_i64_inline, ptn_sadd_ones_f64_i64_inline,       \
                   PLAIN, ORDERED, ONES)

/* Every case: sample weights, averaging, the level's gathering dot product. */
PTN_CSR_ONLINE_TYPES(, 0, 0, 0)
/* The plain rule, by far the commonest fit: no sample weights (s->sw NULL),
 * no averaging (s->U NULL), the inline dot product (s->dot_* NULL).  The
 * same code with those cases left out, which frees registers the loop
 * otherwise reloads from the stack in the chain of loads that follows a
 * mistake. */
PTN_CSR_ONLINE_TYPES(_plain, 1, 0, 0)
/* The plain rule over rows 0, 1, 2, ... (no prefetching): row k is read
 * without going through rows[k], so that after a mistake the next row's
 * loads start from its row pointers, one load fewer in the chain.  The
 * caller checks the order once, with ptn_rows_identity, rather than the
 * loop on every row: checking rows[k] == k beside the chain, a branch
 * always predicted, still cost a few percent of an epoch. */
PTN_CSR_ONLINE_TYPES(_plain_ordered, 1, 1, 0)

/* The plain rule over rows whose stored values are all 1.0 (indicator
 * features: one-hot categories, words present or not; ptn_all_ones says
 * so): the activation sums the row's weights and a mistake adds the step to
 * them, without reading the values.  1.0 * w is w and step * 1.0 is step,
 * so every sum and weight is the same bits as the plain loops give; the
 * epoch reads the indices alone, a third of a9a's bytes (float64 values,
 * int32 indices). */
PTN_CSR_ONLINE_TYPES(_ones, 1, 0, 1)
PTN_CSR_ONLINE_TYPES(_ones_ordered, 1, 1, 1)

/* The same over binary rows whose column indices are 16-bit (widths up to
 * 65,536: 2 bytes a non-zero), beside int32 (_p32) or int64 (_p64) row
 * pointers: the same sums in the same order, so the same bits. */
#define PTN_CSR_ONLINE_U16(SUFFIX, ORDERED)                                          \
    PTN_CSR_ONLINE(ptn_csr_online_ones##SUFFIX##_f32_u16_p32, float, uint16_t, int32_t, \
                   dot_f32_u16, ptn_sdot_f32_u16_inline, ptn_saxpy_f32_u16_inline,   \
                   ptn_saxpy_f32_f64_u16_inline, ptn_sdot_ones_f32_u16_inline,       \
                   ptn_sadd_ones_f32_u16_inline, 1, ORDERED, 1)                      \
    PTN_CSR_ONLINE(ptn_csr_online_ones##SUFFIX##_f32_u16_p64, float, uint16_t, int64_t, \
                   dot_f32_u16, ptn_sdot_f32_u16_inline, ptn_saxpy_f32_u16_inline,   \
                   ptn_saxpy_f32_f64_u16_inline, ptn_sdot_ones_f32_u16_inline,       \
                   ptn_sadd_ones_f32_u16_inline, 1, ORDERED, 1)                      \
    PTN_CSR_ONLINE(ptn_csr_online_ones##SUFFIX##_f64_u16_p32, double, uint16_t, int32_t, \
                   dot_f64_u16, ptn_sdot_f64_u16_inline, ptn_saxpy_f64_u16_inline,   \
                   ptn_saxpy_f64_u16_inline, ptn_sdot_ones_f64_u16_inline,           \
                   ptn_sadd_ones_f64_u16_inline, 1, ORDERED, 1)                      \
    PTN_CSR_ONLINE(ptn_csr_online_ones##SUFFIX##_f64_u16_p64, double, uint16_t, int64_t, \
                   dot_f64_u16, ptn_sdot_f64_u16_inline, ptn_saxpy_f64_u16_inline,   \
                   ptn_saxpy_f64_u16_inline, ptn_sdot_ones_f64_u16_inline,           \
                   ptn_sadd_ones_f64_u16_inline, 1, ORDERED, 1)
PTN_CSR_ONLINE_U16(, 0)
PTN_CSR_ONLINE_U16(_ordered, 1)

/* Whether every one of the n values is exactly 1.0, compared as bits (1.0
 * has one encoding, and no other value shares it) by XOR and OR, in blocks
 * of 512 values, the first block with another value ending it: other data
 * is most often found out in its first block.  The extension that includes
 * this file is built without the compiler's vectorizer, so the x86-64 form
 * is written with SSE2 (the baseline).  Learning it inside an epoch
 * instead, as the plain loop reads the values, made that epoch longer. */
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define PTN_ALL_ONES_SSE2 1
#else
#define PTN_ALL_ONES_SSE2 0
#endif

/* whether the `bytes` bytes at p (a multiple of 64) are all copies of the
 * 16-byte pattern one */
#if PTN_ALL_ONES_SSE2
PTN_INLINE int ptn_bytes_match(const unsigned char *p, size_t bytes, __m128i one)
{
    __m128i o0 = _mm_setzero_si128(), o1 = o0, o2 = o0, o3 = o0;
    size_t q;
    for (q = 0; q < bytes; q += 64) {
        o0 = _mm_or_si128(o0, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + q)), one));
        o1 = _mm_or_si128(o1, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + q + 16)), one));
        o2 = _mm_or_si128(o2, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + q + 32)), one));
        o3 = _mm_or_si128(o3, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + q + 48)), one));
    }
    o0 = _mm_or_si128(_mm_or_si128(o0, o1), _mm_or_si128(o2, o3));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(o0, _mm_setzero_si128())) == 0xFFFF;
}
#endif

#define PTN_ALL_ONES(NAME, T, U, ONE, SET1)                                          \
    PTN_INLINE int NAME(const T *v, size_t n)                                        \
    {                                                                                \
        size_t j = 0, e, q;                                                          \
        while (j < n) {                                                              \
            U o = 0, bits;                                                           \
            e = n - j < 512 ? n : j + 512;                                           \
            if (PTN_ALL_ONES_SSE2) {                                                 \
                const size_t whole = (e - j) * sizeof(T) / 64 * 64;                  \
                PTN_ALL_ONES_VECTOR(SET1)                                            \
                j += whole / sizeof(T);                                              \
            }                                                                        \
            for (q = j; q < e; q++) {                                                \
                memcpy(&bits, v + q, sizeof bits);                                   \
                o |= bits ^ (U)(ONE);                                                \
            }                                                                        \
            j = e;                                                                   \
            if (o != 0) {                                                            \
                return 0;                                                            \
            }                                                                        \
        }                                                                            \
        return 1;                                                                    \
    }
#if PTN_ALL_ONES_SSE2
#define PTN_ALL_ONES_VECTOR(SET1)                                                    \
    if (!ptn_bytes_match((const unsigned char *)(v + j), whole, SET1)) {             \
        return 0;                                                                    \
    }
#else
#define PTN_ALL_ONES_VECTOR(SET1)
#endif
PTN_ALL_ONES(ptn_all_ones_f32, float, uint32_t, 0x3f800000u, _mm_set1_epi32(0x3f800000))
PTN_ALL_ONES(ptn_all_ones_f64, double, uint64_t, 0x3ff0000000000000u,
             _mm_set1_epi64x(0x3ff0000000000000LL))

/* The longest row of 16-bit indices (the Python layer gives longer rows
 * int32 indices: perceptron/_core/rows.pxd, ROW_IDX16_MAX). */
#define PTN_CSR_ROW16_MAX 1024

/* One index at a time: the portable widening (and the AVX2 one's last
 * m % 8), and the int64 indices beside int64 row pointers (rare). */
#define PTN_WIDEN_U16(NAME, T)                                                       \
    PTN_INLINE void NAME(size_t m, const uint16_t *ix, T *out)                       \
    {                                                                                \
        size_t j;                                                                    \
        for (j = 0; j < m; j++) {                                                    \
            out[j] = (T)ix[j];                                                       \
        }                                                                            \
    }
PTN_WIDEN_U16(ptn_widen_u16_i32, int32_t)
PTN_WIDEN_U16(ptn_widen_u16_i64, int64_t)

/* The m 16-bit indices at ix widened into out, for the gathering dot
 * product that reads them back at once.  At x86 (where only the AVX2 and
 * AVX-512 levels gather, so AVX2 is there) by one 256-bit store per eight
 * indices, which the dot product's loads of eight (or four) indices read
 * back from within: a load that spans two stores cannot take its data from
 * them and waits until both reach the cache (store-to-load forwarding;
 * Agner Fog, The microarchitecture of Intel, AMD and VIA CPUs, AMD Zen 4).
 * Widened by 128-bit stores, 16-bit rows in order were 1.45x slower than
 * the same rows with int32 indices (36 against 25 ms an epoch). */
#if PTN_HAVE_X86_SIMD
#include <immintrin.h>
PTN_TARGET("avx2")
PTN_INLINE void ptn_widen_u16_i32_avx2(size_t m, const uint16_t *ix, int32_t *out)
{
    size_t j = 0;
    for (; j + 8 <= m; j += 8) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(ix + j));
        _mm256_storeu_si256((__m256i *)(void *)(out + j), _mm256_cvtepu16_epi32(v));
    }
    ptn_widen_u16_i32(m - j, ix + j, out + j);
}
#define PTN_WIDEN_U16_I32 ptn_widen_u16_i32_avx2
#else
#define PTN_WIDEN_U16_I32 ptn_widen_u16_i32
#endif

/* The plain rule over binary rows of 16-bit indices in order, where the
 * level gathers (weights beyond L1, s->dot_<type>_<index> set): each row's
 * indices widened on the stack to the type the same rows have on the float
 * path (int32 beside int32 row pointers, int64 beside int64) and summed by
 * that path's own gathering dot product over the array of ones (s->val),
 * so the bits of the rows with int32 or int64 indices (the general row
 * loop, which these rows ran before, widened them too, and more slowly).  A mistake adds the step to the
 * row's weights as the loops above do (step * 1.0 is step). */
#define PTN_U16_GATHER_DOT(NAME, T, WI, FIELD, WIDEN)                               \
    PTN_INLINE double NAME(const ptn_csr_online *s, size_t m, const uint16_t *ix,    \
                           const T *w)                                              \
    {                                                                               \
        WI buf[PTN_CSR_ROW16_MAX];                                                  \
        WIDEN(m, ix, buf);                                                          \
        return s->FIELD(m, (const T *)s->val, buf, w);                              \
    }
PTN_U16_GATHER_DOT(ptn_sdot_gather_f32_u16_p32, float, int32_t, dot_f32_i32, PTN_WIDEN_U16_I32)
PTN_U16_GATHER_DOT(ptn_sdot_gather_f32_u16_p64, float, int64_t, dot_f32_i64, ptn_widen_u16_i64)
PTN_U16_GATHER_DOT(ptn_sdot_gather_f64_u16_p32, double, int32_t, dot_f64_i32, PTN_WIDEN_U16_I32)
PTN_U16_GATHER_DOT(ptn_sdot_gather_f64_u16_p64, double, int64_t, dot_f64_i64, ptn_widen_u16_i64)
/* DOT1 of PTN_CSR_ONLINE, in whose loop `s` is the epoch's state */
#define PTN_U16_GATHER_f32_p32(m, ix, w) ptn_sdot_gather_f32_u16_p32(s, m, ix, w)
#define PTN_U16_GATHER_f32_p64(m, ix, w) ptn_sdot_gather_f32_u16_p64(s, m, ix, w)
#define PTN_U16_GATHER_f64_p32(m, ix, w) ptn_sdot_gather_f64_u16_p32(s, m, ix, w)
#define PTN_U16_GATHER_f64_p64(m, ix, w) ptn_sdot_gather_f64_u16_p64(s, m, ix, w)
#define PTN_CSR_ONLINE_U16_GATHER(T, TN, P, PN, ACC, ORDERED, SUFFIX)                \
    PTN_CSR_ONLINE(ptn_csr_online_ones_gather##SUFFIX##_##TN##_u16_##PN, T, uint16_t, P, \
                   dot_##TN##_u16, ptn_sdot_##TN##_u16_inline, ptn_saxpy_##TN##_u16_inline, \
                   ACC, PTN_U16_GATHER_##TN##_##PN, ptn_sadd_ones_##TN##_u16_inline, 1, \
                   ORDERED, 1)
#define PTN_CSR_ONLINE_U16_GATHERS(ORDERED, SUFFIX)                                  \
    PTN_CSR_ONLINE_U16_GATHER(float, f32, int32_t, p32, ptn_saxpy_f32_f64_u16_inline,    \
                              ORDERED, SUFFIX)                                       \
    PTN_CSR_ONLINE_U16_GATHER(float, f32, int64_t, p64, ptn_saxpy_f32_f64_u16_inline,    \
                              ORDERED, SUFFIX)                                       \
    PTN_CSR_ONLINE_U16_GATHER(double, f64, int32_t, p32, ptn_saxpy_f64_u16_inline,       \
                              ORDERED, SUFFIX)                                       \
    PTN_CSR_ONLINE_U16_GATHER(double, f64, int64_t, p64, ptn_saxpy_f64_u16_inline,       \
                              ORDERED, SUFFIX)
PTN_CSR_ONLINE_U16_GATHERS(0, )
PTN_CSR_ONLINE_U16_GATHERS(1, _ordered)

#endif /* PTN_CSR_ONLINE_H */

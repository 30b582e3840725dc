/*
 * ptn_tail_avx512.h - the weights the AVX-512 float32 scans hold apart
 * through a scan of rows of 64 features or more: the tail past the blocks
 * of 64 converted to double, and for rows of 65-127 features the one
 * block's four vectors in registers, with the dot products that read them
 * (the same bits as ptn_dot_f32_inline_avx512, whose contract is in
 * ptn_simd.h).
 *
 * Included once, by simd_avx512.c, before its scans.
 */
#ifndef PTN_TAIL_AVX512_H
#define PTN_TAIL_AVX512_H

/* Rows of 64 elements or more: ptn_dot_f32_inline_avx512 with the weights of
 * the exact tail (the last n % 64) converted to double once per scan instead
 * of on every row, which took a third of the arithmetic of a 100-element row.
 * The lanes, products and order of the sums are those of
 * ptn_dot_f32_exact_avx512 over the tail (a product of two floats is exact
 * in double, so converting before or after the load gives the same bits). */
typedef struct ptn_tail_f32_avx512 {
    double w[64];  /* the tail's weights in double, zeros past it */
    size_t at, len;
    /* The groups of ptn_dot_f32_exact_avx512's loops over len elements, as
     * flags tested on every row (the same each row, so always predicted):
     * no loop counters, and the last hi is set only when the partial group
     * has more than 8 elements (the other half adds only zero products). */
    size_t at16, at_rem;
    int has32, has16, rem_hi;
    __mmask16 rem;
} ptn_tail_f32_avx512;

PTN_TARGET("avx512f")
static inline void ptn_tail_f32_init_avx512(ptn_tail_f32_avx512 *t, size_t n, const float *w)
{
    /* after every update, so the weights were stored a moment ago: plain
     * vector loads of the whole groups of 16 and scalar ones for the rest,
     * which the processor can serve from the pending stores, where masked
     * loads wait for the stores to reach the cache (AMD EPYC, Zen 4,
     * 200,000 x 100 float32 rows in order, alternating processes: 3.09 ->
     * 2.91 ms an epoch of 3,900 updates).  The rest is gathered into one
     * register and stored, like the groups, as two vectors of 8 doubles
     * where the dot product reads vectors of 8: a vector load is served
     * from a pending store of the same place and size, not from eight
     * scalar ones, which it must wait to reach the cache instead (the same
     * machine, one process, alternated rounds, in-order epochs of 4,088
     * updates: 2.60-2.71 -> 2.57-2.65 ms at 100 columns over seven runs,
     * each 1-4% faster; 2.57-2.67 -> 2.56-2.59 at 90; within the noise at
     * 200). */
    size_t j, q, r;
    __m512 v;
    t->at = n & ~(size_t)63;
    t->len = n - t->at;
    for (j = 0; j + 16 <= t->len; j += 16) {
        v = _mm512_loadu_ps(w + t->at + j);
        _mm512_storeu_pd(t->w + j, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
        _mm512_storeu_pd(t->w + j + 8, _mm512_cvtps_pd(ptn_high_ps_avx512(v)));
    }
    v = _mm512_setzero_ps();
    r = t->len - j;
    for (q = 0; q < r; q++) {
        v = _mm512_mask_broadcastss_ps(v, (__mmask16)(1u << q), _mm_load_ss(w + t->at + j + q));
    }
    /* zeros past the tail, up to its group's end, as the dot product reads */
    _mm512_storeu_pd(t->w + j, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
    _mm512_storeu_pd(t->w + j + 8, _mm512_cvtps_pd(ptn_high_ps_avx512(v)));
    t->has32 = t->len >= 32;
    t->at16 = t->has32 ? 32 : 0;
    t->has16 = t->len - t->at16 >= 16;
    t->at_rem = t->at16 + (t->has16 ? 16 : 0);
    t->rem = (__mmask16)((1u << (t->len - t->at_rem)) - 1u);
    t->rem_hi = t->len - t->at_rem > 8;
}

/* x[i, i + 8) converted to double: VCVTPS2PD from memory, where a 16-float
 * load would need an extract for its upper half */
#define PTN_CVT8(p) _mm512_cvtps_pd(_mm256_loadu_ps(p))

/* Skipping the products of masked-off zeros changes no bit: the lanes are
 * never -0 (an exact zero sum rounds to +0), so adding +0 leaves them as
 * they are.  Fewer instructions and branches a row than the loops over 16
 * floats, though not measurably faster on their own (2-core AMD EPYC, Zen 4,
 * 200,000 x 100 float32 rows, alternating runs: within the noise); the
 * scan's single-branch loop (ptn_scan.h) pays only with this tail.  The
 * tail's lanes, (a0 + a1) + (a2 + a3), before their reduction. */
PTN_TARGET("avx512f")
static inline __m512d ptn_tail_sums_f32_avx512(const float *x, const ptn_tail_f32_avx512 *t)
{
    const double *wd = t->w;
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
    if (t->has32) {
        a0 = _mm512_fmadd_pd(PTN_CVT8(x), _mm512_loadu_pd(wd), a0);
        a1 = _mm512_fmadd_pd(PTN_CVT8(x + 8), _mm512_loadu_pd(wd + 8), a1);
        a2 = _mm512_fmadd_pd(PTN_CVT8(x + 16), _mm512_loadu_pd(wd + 16), a2);
        a3 = _mm512_fmadd_pd(PTN_CVT8(x + 24), _mm512_loadu_pd(wd + 24), a3);
    }
    if (t->has16) {
        a0 = _mm512_fmadd_pd(PTN_CVT8(x + t->at16), _mm512_loadu_pd(wd + t->at16), a0);
        a1 = _mm512_fmadd_pd(PTN_CVT8(x + t->at16 + 8), _mm512_loadu_pd(wd + t->at16 + 8), a1);
    }
    if (t->rem) {
        const __m512 xt = _mm512_maskz_loadu_ps(t->rem, x + t->at_rem);
        a2 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(xt)),
                             _mm512_loadu_pd(wd + t->at_rem), a2);
        if (t->rem_hi) {
            a3 = _mm512_fmadd_pd(_mm512_cvtps_pd(ptn_high_ps_avx512(xt)),
                                 _mm512_loadu_pd(wd + t->at_rem + 8), a3);
        }
    }
    return _mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3));
}

PTN_TARGET("avx512f")
static inline double ptn_dot_f32_tail_avx512(const float *x, const ptn_tail_f32_avx512 *t)
{
    return _mm512_reduce_add_pd(ptn_tail_sums_f32_avx512(x, t));
}

/* reduce(b) + reduce(t), each vector summed as _mm512_reduce_add_pd sums
 * it (lane j plus lane j + 4, then j plus j + 2, then the two left), the
 * two trees in the same instructions: the same bits as the two reductions
 * and the sum, in seven vector operations where those take twelve. */
PTN_TARGET("avx512f")
static inline double ptn_reduce_add_two_pd_avx512(__m512d b, __m512d t)
{
    const __m512d s = _mm512_add_pd(_mm512_shuffle_f64x2(b, t, _MM_SHUFFLE(1, 0, 1, 0)),
                                    _mm512_shuffle_f64x2(b, t, _MM_SHUFFLE(3, 2, 3, 2)));
    const __m512d u = _mm512_add_pd(s, _mm512_shuffle_f64x2(s, s, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m512d v = _mm512_add_pd(u, _mm512_permute_pd(u, 0x55));
    return _mm512_cvtsd_f64(v) + _mm256_cvtsd_f64(_mm512_extractf64x4_pd(v, 1));
}

/* The four vectors of the one block of 64 weights (rows of 65-127 floats),
 * held in registers through a scan, and the block's sum reduced together
 * with the tail's (ptn_reduce_add_two_pd_avx512): 200,000 x 100 float32
 * rows in order on a 2-core AMD EPYC (Zen 4), one process, six alternated
 * rounds (benchmarks/bench_scan_in_process.py): the scan over rows it gets
 * right 2.29-2.38 -> 2.11-2.23 ms; with the updates made from these
 * registers (ptn_update_one_block_f32_avx512) an in-order epoch of 4,088
 * updates 2.42-2.48 -> 2.30-2.42 ms, where floor.c's pass at the same
 * precision plus the updates took 2.23-2.33 ms. */
typedef struct ptn_block_f32_avx512 {
    __m512 w0, w1, w2, w3;
} ptn_block_f32_avx512;

PTN_TARGET("avx512f")
static inline void ptn_block_f32_init_avx512(ptn_block_f32_avx512 *k, const float *w)
{
    k->w0 = _mm512_loadu_ps(w);
    k->w1 = _mm512_loadu_ps(w + 16);
    k->w2 = _mm512_loadu_ps(w + 32);
    k->w3 = _mm512_loadu_ps(w + 48);
}

/* ptn_dot_f32_blocks_avx512(64, x, w) + ptn_dot_f32_tail_avx512(x + 64, t)
 * with the block's weights in k: the same products and sums.  The block's
 * two halves are added without the zeros the blocks' accumulators start
 * from, which could only turn a -0 lane into +0; the tail's sum is never
 * -0 (its lanes start at +0), so the row's sum is the same either way. */
PTN_TARGET("avx512f")
static inline double ptn_dot_f32_one_block_avx512(const float *x, const ptn_block_f32_avx512 *k,
                                                  const ptn_tail_f32_avx512 *t)
{
    __m512 p = _mm512_mul_ps(_mm512_loadu_ps(x), k->w0);
    p = _mm512_fmadd_ps(_mm512_loadu_ps(x + 16), k->w1, p);
    p = _mm512_fmadd_ps(_mm512_loadu_ps(x + 32), k->w2, p);
    p = _mm512_fmadd_ps(_mm512_loadu_ps(x + 48), k->w3, p);
    return ptn_reduce_add_two_pd_avx512(
        _mm512_add_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(p)),
                      _mm512_cvtps_pd(ptn_high_ps_avx512(p))),
        ptn_tail_sums_f32_avx512(x + 64, t));
}

/* w += a x for rows of 65-127 floats (w holding the weights k and t were
 * made from), and k and t brought up to date from the new weights as they
 * are computed: the same fused multiply-add of each weight as the level's
 * axpy, so the same bits, without loading back the weights just stored.
 * The dot product reads only k and t, so the masked store of w's last
 * floats delays no load of the next rows. */
PTN_TARGET("avx512f")
static inline void ptn_update_one_block_f32_avx512(float a, const float *x, float *w,
                                                   ptn_block_f32_avx512 *k,
                                                   ptn_tail_f32_avx512 *t)
{
    const __m512 av = _mm512_set1_ps(a);
    const float *xt = x + 64;
    float *wt = w + 64;
    size_t j;
    __m512 v;
    k->w0 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x), k->w0);
    k->w1 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + 16), k->w1);
    k->w2 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + 32), k->w2);
    k->w3 = _mm512_fmadd_ps(av, _mm512_loadu_ps(x + 48), k->w3);
    _mm512_storeu_ps(w, k->w0);
    _mm512_storeu_ps(w + 16, k->w1);
    _mm512_storeu_ps(w + 32, k->w2);
    _mm512_storeu_ps(w + 48, k->w3);
    for (j = 0; j + 16 <= t->len; j += 16) {
        v = _mm512_fmadd_ps(av, _mm512_loadu_ps(xt + j), _mm512_loadu_ps(wt + j));
        _mm512_storeu_ps(wt + j, v);
        _mm512_storeu_pd(t->w + j, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
        _mm512_storeu_pd(t->w + j + 8, _mm512_cvtps_pd(ptn_high_ps_avx512(v)));
    }
    if (j < t->len) {
        /* the lanes past the tail: a 0 + 0 = +0, the zeros the dot reads */
        const __mmask16 m = (__mmask16)((1u << (t->len - j)) - 1u);
        v = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(m, xt + j), _mm512_maskz_loadu_ps(m, wt + j));
        _mm512_mask_storeu_ps(wt + j, m, v);
        _mm512_storeu_pd(t->w + j, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
        _mm512_storeu_pd(t->w + j + 8, _mm512_cvtps_pd(ptn_high_ps_avx512(v)));
    }
}

#endif /* PTN_TAIL_AVX512_H */

/*
 * ptn_plain_avx512.h - scan_plain_f32 and scan_plain_f64 of the AVX-512
 * level (the contract is in ptn_simd.h, the loop in ptn_scan.h): the scans
 * of simd_avx512.c with the plain binary rule's updates inside them.
 *
 * Included once, by simd_avx512.c, after its scans and the helpers they
 * use (the short rows' registers, the float32 tail in double).
 */
#ifndef PTN_PLAIN_AVX512_H
#define PTN_PLAIN_AVX512_H

/* axpy_f32 and axpy_f64 of this level with the tail (the last n % 16
 * floats or n % 8 doubles) one fused multiply-add at a time instead of a
 * masked vector: the same operations, so the same bits, but loads of those
 * weights right after (the tail's conversion, the next row's dot product)
 * are served from the pending scalar stores, where after a masked store
 * they wait for it to reach the cache.  For the plain scans below, which
 * read the weights again at once: in the in-order float32 epoch of
 * ptn_scan.h's measurement, a loop with the update inside it took
 * 2.63-3.07 ms with the masked tail and 2.41-2.66 ms with this one (the
 * masked tail costs nothing measurable when the scan is left and entered
 * again between: 2.59-2.76 against 2.64-2.90 ms, within the noise). */
PTN_X86_AXPY_WITH(static inline, ptn_axpy_f32_plain_avx512, float, VF, PTN_X86_SCALAR_TAIL(fmaf))
PTN_X86_AXPY_WITH(static inline, ptn_axpy_f64_plain_avx512, double, VD, PTN_X86_SCALAR_TAIL(fma))

/* scan_plain_f32, scan_plain_f64 (ptn_scan.h): the scans above with the
 * plain rule's updates inside them; after each update the weights held
 * apart (the short rows' registers, the float32 tail in double) are
 * brought up to date. */
PTN_TARGET("avx512f")
size_t ptn_scan_plain_f32_avx512(const ptn_scan *s, size_t start, size_t stop, double *act,
                                 ptn_plain *plain_)
{
    if (s->d < 64) {
        PTN_SCAN_PLAIN_SHORT(float, ptn_short_f32_avx512, ptn_short_f32_init_avx512,
                             ptn_dot_short_f32_avx512, ptn_axpy_f32_plain_avx512)
    }
    {
        ptn_tail_f32_avx512 t;
        PTN_PLAIN_WEIGHTS(float)
        ptn_tail_f32_init_avx512(&t, s->d, w_);
        if (t.len == 0) {
            /* whole blocks only: as in ptn_scan_f32_avx512 */
            PTN_SCAN_LOOP_F32_BLOCKS_ACT(ptn_dot_f32_blocks_avx512(t.at, x_, w_),
                                         ptn_dot_f32_exact_avx512(d_, x_, w_),
                                         PTN_PLAIN_ACT(float, ptn_axpy_f32_plain_avx512, (void)0),
                                         PTN_PLAIN_END)
        }
        if (t.at == 64) {
            /* rows of 65-127 floats: the block's weights in registers */
#define PTN_ONE_BLOCK_AXPY(n, a, x, w) ptn_update_one_block_f32_avx512(a, x, w, &kb, &t)
            ptn_block_f32_avx512 kb;
            ptn_block_f32_init_avx512(&kb, w_);
            PTN_SCAN_LOOP_F32_BLOCKS_ACT(ptn_dot_f32_one_block_avx512(x_, &kb, &t),
                                         ptn_dot_f32_exact_avx512(d_, x_, w_),
                                         PTN_PLAIN_ACT(float, PTN_ONE_BLOCK_AXPY, (void)0),
                                         PTN_PLAIN_END)
#undef PTN_ONE_BLOCK_AXPY
        }
        {
            PTN_SCAN_LOOP_F32_BLOCKS_ACT(ptn_dot_f32_blocks_avx512(t.at, x_, w_) +
                                             ptn_dot_f32_tail_avx512(x_ + t.at, &t),
                                         ptn_dot_f32_exact_avx512(d_, x_, w_),
                                         PTN_PLAIN_ACT(float, ptn_axpy_f32_plain_avx512,
                                                       ptn_tail_f32_init_avx512(&t, d_, w_)),
                                         PTN_PLAIN_END)
        }
    }
}

PTN_TARGET("avx512f")
size_t ptn_scan_plain_f64_avx512(const ptn_scan *s, size_t start, size_t stop, double *act,
                                 ptn_plain *plain_)
{
    if (s->d < 32) {
        PTN_SCAN_PLAIN_SHORT(double, ptn_short_f64_avx512, ptn_short_f64_init_avx512,
                             ptn_dot_short_f64_avx512, ptn_axpy_f64_plain_avx512)
    }
    {
        PTN_SCAN_PLAIN_BODY(double, ptn_dot_f64_inline_avx512, ptn_axpy_f64_plain_avx512)
    }
}

#endif /* PTN_PLAIN_AVX512_H */

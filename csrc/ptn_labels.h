/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/* Byte comparisons of fixed-width string labels (numpy's bytes and str
 * items), for the one-pass encoding of a binary target
 * (perceptron/_core/labels.pyx). */
#ifndef PTN_LABELS_H
#define PTN_LABELS_H

#include <stdint.h>
#include <string.h>

#include "ptn_config.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define PTN_LABELS_SSE2 1
#else
#define PTN_LABELS_SSE2 0
#endif

/* Nonzero when the `size` bytes at a and b differ: the OR of their XORs,
 * 16 bytes at a time with SSE2 (the x86-64 baseline), then 8, 4 and 1.
 * numpy's str labels are UCS4, four bytes a character ('malignant' is 36
 * bytes). */
PTN_INLINE uint64_t ptn_bytes_differ(const char *a, const char *b, size_t size)
{
    uint64_t acc = 0, u, v;
    uint32_t u4, v4;
    size_t j = 0;
#if PTN_LABELS_SSE2
    if (size >= 16) {
        __m128i o = _mm_setzero_si128();
        for (; j + 16 <= size; j += 16) {
            o = _mm_or_si128(o, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a + j)),
                                              _mm_loadu_si128((const __m128i *)(b + j))));
        }
        acc = (uint64_t)(_mm_movemask_epi8(_mm_cmpeq_epi8(o, _mm_setzero_si128())) ^ 0xFFFF);
    }
#endif
    for (; j + 8 <= size; j += 8) {
        memcpy(&u, a + j, 8);
        memcpy(&v, b + j, 8);
        acc |= u ^ v;
    }
    if (j + 4 <= size) {
        memcpy(&u4, a + j, 4);
        memcpy(&v4, b + j, 4);
        acc |= u4 ^ v4;
        j += 4;
    }
    for (; j < size; j++) {
        acc |= (uint8_t)(a[j] ^ b[j]);
    }
    return acc;
}

/* Rows first..n-1 of n labels of `size` bytes, `stride` apart: out[i] = hi
 * where the label equals b, lo where it equals a; returns nonzero when one
 * equals neither.  `key` is a byte where a and b differ: it says which of
 * the two a label can be, and the whole label is compared with that one
 * alone, without a branch on the outcome (labels of two alternating
 * values would mispredict one on each change: 213 changes in breast
 * cancer's 569).  Written here rather than in Cython, whose loop kept the
 * flag in memory: a store and a load a label. */
PTN_INLINE int ptn_mark_two_text(const char *base, size_t first, size_t n, size_t stride,
                                 size_t size, const char *a, const char *b, size_t key,
                                 signed char lo, signed char hi, signed char *out)
{
    const char bk = b[key];
    /* the sign of each label picked by a mask, not by ?: (gcc made a
     * branch of that store, mispredicted at each change of label) */
    const unsigned char mix = (unsigned char)(lo ^ hi);
    size_t i;
#if PTN_LABELS_SSE2
    if (size >= 16) {
        /* whole 16-byte pieces, the last one ending at the label's end
         * (overlapping the one before it: for equality a byte compared
         * twice is harmless), so no scalar tail; the differences of every
         * label gathered in one register, looked at once at the end: with
         * the width known only at run time, the tails of bytes and words
         * took three times as long. */
        const size_t last = size - 16;
        /* three registers gather the differences (pieces at even and odd
         * multiples of 16, the last piece): with one, its ORs were a chain
         * of dependent steps, three a label for 36-byte labels (breast
         * cancer's 569 encoded in 1.71 us, 1.62 with three and the mask
         * below) */
        __m128i o0 = _mm_setzero_si128(), o1 = o0, o2 = o0;
        for (i = first; i < n; i++) {
            const char *v = base + i * stride;
            const int is_b = v[key] == bk;
            const char *same = is_b ? b : a;
            size_t j = 0;
            for (; j + 16 < last; j += 32) {
                o0 = _mm_or_si128(o0, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(v + j)),
                                                    _mm_loadu_si128((const __m128i *)(same + j))));
                o1 = _mm_or_si128(o1, _mm_xor_si128(
                    _mm_loadu_si128((const __m128i *)(v + j + 16)),
                    _mm_loadu_si128((const __m128i *)(same + j + 16))));
            }
            if (j < last) {
                o0 = _mm_or_si128(o0, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(v + j)),
                                                    _mm_loadu_si128((const __m128i *)(same + j))));
            }
            o2 = _mm_or_si128(o2, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(v + last)),
                                                _mm_loadu_si128((const __m128i *)(same + last))));
            out[i] = (signed char)((unsigned char)lo ^ (mix & (unsigned char)-is_b));
        }
        o0 = _mm_or_si128(_mm_or_si128(o0, o1), o2);
        return _mm_movemask_epi8(_mm_cmpeq_epi8(o0, _mm_setzero_si128())) != 0xFFFF;
    }
#endif
    {
        uint64_t bad = 0;
        for (i = first; i < n; i++) {
            const char *v = base + i * stride;
            const int is_b = v[key] == bk;
            bad |= ptn_bytes_differ(v, is_b ? b : a, size);
            out[i] = (signed char)((unsigned char)lo ^ (mix & (unsigned char)-is_b));
        }
        return bad != 0;
    }
}

#endif /* PTN_LABELS_H */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_rng.h - the random numbers of the training loops (header only).
 *
 * SplitMix64 (Steele, Lea and Flood 2014) as the generator: one 64-bit word
 * of state, so a fit's randomness is fully given by one seed, and the same
 * seed gives the same permutations on every platform.  Bounded integers use
 * Lemire's multiply-shift rejection (Lemire 2019, "Fast random integer
 * generation in an interval"), unbiased and nearly always division-free.
 */
#ifndef PTN_RNG_H
#define PTN_RNG_H

#include "ptn_config.h"
#include "ptn_prefetch.h"

typedef struct ptn_rng {
    uint64_t state;
} ptn_rng;

PTN_INLINE void ptn_rng_seed(ptn_rng *r, uint64_t seed)
{
    r->state = seed;
}

PTN_INLINE uint64_t ptn_rng_next(ptn_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, bound); bound >= 1. */
PTN_INLINE uint64_t ptn_rng_below(ptn_rng *r, uint64_t bound)
{
    if (bound <= 0xFFFFFFFFULL) {
        uint64_t m = (ptn_rng_next(r) >> 32) * bound;
        uint32_t low = (uint32_t)m;
        if (low < (uint32_t)bound) {
            uint32_t threshold = (uint32_t)(-(uint32_t)bound) % (uint32_t)bound;
            while (low < threshold) {
                m = (ptn_rng_next(r) >> 32) * bound;
                low = (uint32_t)m;
            }
        }
        return m >> 32;
    } else {
        uint64_t threshold = (0 - bound) % bound;
        uint64_t x;
        do {
            x = ptn_rng_next(r);
        } while (x < threshold);
        return x % bound;
    }
}

/* Fisher-Yates shuffle of order[0..n) in place (Knuth, TAOCP vol. 2, 3.4.2 P). */
PTN_INLINE void ptn_shuffle(ptn_rng *r, ptrdiff_t *order, size_t n)
{
    size_t i;
    for (i = n; i > 1; i--) {
        size_t j = (size_t)ptn_rng_below(r, (uint64_t)i);
        ptrdiff_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

/*
 * Bounded draws in bulk: out[l] = ptn_rng_below(r, top - l) for l < count
 * (top - count + 1 >= 1, top < 2^32), the generator left where those calls
 * would leave it.  Each SIMD level has one (ptn_simd.h); they give the
 * same numbers.
 */
typedef void (*ptn_draws_fn)(ptn_rng *r, size_t top, size_t count, uint32_t *out);

PTN_INLINE void ptn_draws_below(ptn_rng *r, size_t top, size_t count, uint32_t *out)
{
    size_t l;
    for (l = 0; l < count; l++) {
        out[l] = (uint32_t)ptn_rng_below(r, (uint64_t)(top - l));
    }
}

#define PTN_SHUFFLE_CHUNK 256
#ifndef PTN_SHUFFLE_AHEAD
#define PTN_SHUFFLE_AHEAD 16
#endif

/*
 * ptn_shuffle's permutation and generator state, its draws made a chunk at a
 * time by `draws` and the swaps done after each chunk (the swaps draw
 * nothing, so the order of the two does not change the result).  Knowing
 * the chunk's places, each swap asks for the one PTN_SHUFFLE_AHEAD swaps
 * on: an order larger than the caches is swapped at random places, one
 * memory latency each when asked for one at a time.
 */
PTN_INLINE void ptn_shuffle_by_draws(ptn_rng *r, ptrdiff_t *order, size_t n, ptn_draws_fn draws)
{
    uint32_t js[PTN_SHUFFLE_CHUNK];
    size_t i = n, l, count;
    for (; i > 0xFFFFFFFFULL; i--) {
        size_t j = (size_t)ptn_rng_below(r, (uint64_t)i);
        ptrdiff_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    while (i > 1) {
        count = i - 1 < PTN_SHUFFLE_CHUNK ? i - 1 : PTN_SHUFFLE_CHUNK;
        draws(r, i, count, js);
        for (l = 0; l < count; l++) {
            const size_t j = js[l];
            if (l + PTN_SHUFFLE_AHEAD < count) {
                PTN_PREFETCH_WRITE_LINE(order + js[l + PTN_SHUFFLE_AHEAD]);
            }
            ptrdiff_t t = order[i - 1 - l];
            order[i - 1 - l] = order[j];
            order[j] = t;
        }
        i -= count;
    }
}

/* Uniform double in [0, 1) with 53 random bits. */
PTN_INLINE double ptn_rng_uniform(ptn_rng *r)
{
    return (double)(ptn_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif /* PTN_RNG_H */

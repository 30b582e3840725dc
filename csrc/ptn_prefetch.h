/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_prefetch.h - asking for memory before it is needed (header only).
 *
 * A shuffled epoch visits rows in random order; the hardware prefetchers
 * cannot guess the next row, so the loop names it a few rows ahead.  The
 * lines are asked for into the L2 cache (x86 PREFETCHT1, ARM PLDL2KEEP), not
 * L1: an L1 request holds one of the core's few L1 miss buffers until the
 * line arrives, which caps the reads in flight; L2 requests do not, so
 * random rows read faster that way (benchmarks/bench_fit_dense.py; the
 * figures are on the performance page of the docs).
 */
#ifndef PTN_PREFETCH_H
#define PTN_PREFETCH_H

#include "ptn_config.h"

#if defined(_MSC_VER) && !defined(__clang__)
#if PTN_ARCH_X86
#include <xmmintrin.h>
#define PTN_PREFETCH_LINE(p) _mm_prefetch((const char *)(p), _MM_HINT_T1)
#elif PTN_ARCH_ARM64
#include <intrin.h>
#define PTN_PREFETCH_LINE(p) __prefetch((const void *)(p))
#else
#define PTN_PREFETCH_LINE(p) ((void)(p))
#endif
#else
#define PTN_PREFETCH_LINE(p) __builtin_prefetch((const void *)(p), 0, 2)
#endif

/* Into L1 (x86 PREFETCHT0, ARM PLDL1KEEP): for the row after next of a
 * shuffled CSR epoch, already on its way to L2 (see ptn_csr_online.h). */
#if defined(_MSC_VER) && !defined(__clang__)
#if PTN_ARCH_X86
#define PTN_PREFETCH_L1_LINE(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define PTN_PREFETCH_L1_LINE(p) PTN_PREFETCH_LINE(p)
#endif
#else
#define PTN_PREFETCH_L1_LINE(p) __builtin_prefetch((const void *)(p), 0, 3)
#endif

/* For writing: the line arrives owned, so the stores that follow do not
 * wait for it (MSVC: a read prefetch, which still brings it close). */
#if defined(_MSC_VER) && !defined(__clang__)
#define PTN_PREFETCH_WRITE_LINE(p) PTN_PREFETCH_LINE(p)
#else
#define PTN_PREFETCH_WRITE_LINE(p) __builtin_prefetch((const void *)(p), 1, 3)
#endif

#define PTN_CACHE_LINE 64

/* A loop that asks for its rows into L2 far ahead (ptn_prefetch_range) asks
 * again for rows of at most PTN_PREFETCH_NEAR_MAX_ROW_BYTES into L1, this
 * many rows ahead: by then they are in L2, and the row's own loads no
 * longer wait for its lines to come up to L1: shuffled epochs over rows of
 * up to 1.6 KB gained, rows of 2 KB lost (the performance page of the docs
 * has the measurements). */
#define PTN_PREFETCH_NEAR_ROWS 4
#define PTN_PREFETCH_NEAR_MAX_ROW_BYTES 1600

/*
 * Every cache line that [p, p + nbytes) touches, for reading.  Lines are
 * asked for at p, p + 64, ... and then at the last byte: when p is not on a
 * line boundary the range touches one line more than nbytes / 64 (numpy
 * aligns arrays to 16 bytes only, so a 1 KiB row usually spans 17 lines),
 * and without the last request the 17th line was left to a demand miss, a
 * whole memory latency on every shuffled row.  The loop's trip count
 * depends on nbytes only, not on where p falls in its line: a count that
 * changed from row to row would be a mispredicted branch per row, which
 * shows on rows of two or three lines (a9a).
 */
#define PTN_PREFETCH_RANGE(NAME, LINE)                                               \
    PTN_ALWAYS_INLINE void NAME(const void *p, size_t nbytes)                               \
    {                                                                                \
        const char *c = (const char *)p;                                             \
        size_t off;                                                                  \
        for (off = 0; off < nbytes; off += PTN_CACHE_LINE) {                         \
            LINE(c + off);                                                           \
        }                                                                            \
        if (nbytes != 0) {                                                           \
            LINE(c + nbytes - 1);                                                    \
        }                                                                            \
    }

PTN_PREFETCH_RANGE(ptn_prefetch_range, PTN_PREFETCH_LINE)
/* The same lines, into L1. */
PTN_PREFETCH_RANGE(ptn_prefetch_range_l1, PTN_PREFETCH_L1_LINE)
/* The same lines, for writing. */
PTN_PREFETCH_RANGE(ptn_prefetch_write_range, PTN_PREFETCH_WRITE_LINE)

#endif /* PTN_PREFETCH_H */

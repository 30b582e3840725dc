/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_dispatch.h - choosing the kernel table once, at start-up.
 *
 * ptn_dispatch_init() is called exactly once, when the Python module that owns
 * the kernels is imported (under the import lock), before any kernel runs.
 * After that the active table never changes, so reading it needs no lock.
 */
#ifndef PTN_DISPATCH_H
#define PTN_DISPATCH_H

#include "ptn_simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Name of a level ("scalar", "avx2", "avx512", "neon"), or NULL if out of range. */
const char *ptn_level_name(int level);

/* Level for a name, or -1 if the name is unknown. */
int ptn_level_from_name(const char *name);

/* 1 if the kernels of `level` were compiled into this binary. */
int ptn_level_compiled(int level);

/* 1 if compiled in and this CPU (and its operating system) can run them. */
int ptn_level_supported(int level);

/* The best level this CPU supports. */
int ptn_best_level(void);

/* The table of `level`, or NULL if that level is not supported here. */
const ptn_simd *ptn_simd_for_level(int level);

/* Select the active table.  requested < 0 selects the best supported level;
 * otherwise `requested` must be supported, else the active table stays the
 * best one.  Returns the level now active. */
int ptn_dispatch_init(int requested);

/* The active table (the scalar one until ptn_dispatch_init has run). */
const ptn_simd *ptn_active_simd(void);

#ifdef __cplusplus
}
#endif

#endif /* PTN_DISPATCH_H */

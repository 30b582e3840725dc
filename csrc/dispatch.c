/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * dispatch.c - one constant table of kernels per instruction-set level, and
 * the choice of the active one (see ptn_dispatch.h).
 *
 * Like the CPU detection this file is compiled for the baseline: it runs on
 * every CPU, and only the function pointers it hands out lead to wider code.
 */
#include "ptn_dispatch.h"
#include "ptn_cpu.h"

#include <string.h>

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "dispatch.c must be compiled for the baseline instruction set (no -mavx/-march flags)"
#endif

/* A level's table, from the one list of kernels (PTN_KERNELS, ptn_simd.h):
 * each field named (designated initializers), each kernel the level's own
 * or, where it has none, the scalar one. */
#define PTN_TABLE(L, LEVEL)                       \
    {                                             \
        .level = LEVEL,                           \
        .name = #L,                               \
        PTN_KERNELS(PTN_KERNEL_ENTRY, L)          \
    }

static const ptn_simd ptn_table_scalar = PTN_TABLE(scalar, PTN_LEVEL_SCALAR);

#if PTN_HAVE_X86_SIMD
static const ptn_simd ptn_table_avx2 = PTN_TABLE(avx2, PTN_LEVEL_AVX2);
static const ptn_simd ptn_table_avx512 = PTN_TABLE(avx512, PTN_LEVEL_AVX512);
#endif

#if PTN_HAVE_NEON_SIMD
static const ptn_simd ptn_table_neon = PTN_TABLE(neon, PTN_LEVEL_NEON);
#endif

static const char *const ptn_level_names[PTN_LEVEL_COUNT] = {"scalar", "avx2", "avx512", "neon"};

/* Set once by ptn_dispatch_init, at module import; read-only afterwards. */
static const ptn_simd *ptn_active = &ptn_table_scalar;

static const ptn_simd *ptn_compiled_table(int level)
{
    switch (level) {
    case PTN_LEVEL_SCALAR:
        return &ptn_table_scalar;
#if PTN_HAVE_X86_SIMD
    case PTN_LEVEL_AVX2:
        return &ptn_table_avx2;
    case PTN_LEVEL_AVX512:
        return &ptn_table_avx512;
#endif
#if PTN_HAVE_NEON_SIMD
    case PTN_LEVEL_NEON:
        return &ptn_table_neon;
#endif
    default:
        return NULL;
    }
}

const char *ptn_level_name(int level)
{
    if (level < 0 || level >= PTN_LEVEL_COUNT) {
        return NULL;
    }
    return ptn_level_names[level];
}

int ptn_level_from_name(const char *name)
{
    int level;
    for (level = 0; level < PTN_LEVEL_COUNT; level++) {
        if (strcmp(name, ptn_level_names[level]) == 0) {
            return level;
        }
    }
    return -1;
}

int ptn_level_compiled(int level)
{
    return ptn_compiled_table(level) != NULL;
}

static int ptn_level_supported_now(int level)
{
    ptn_cpu_features f;
    if (!ptn_level_compiled(level)) {
        return 0;
    }
    if (level == PTN_LEVEL_SCALAR) {
        return 1;
    }
    ptn_cpu_detect(&f);
    switch (level) {
    case PTN_LEVEL_AVX2:
        /* F16C (half-precision rows) came with AVX2 on every CPU that has
         * it; checked all the same */
        return f.avx2 && f.fma && f.f16c;
    case PTN_LEVEL_AVX512:
        /* the level also uses AVX2 instructions (256-bit gathers) and
         * AVX-512DQ (64-bit products), which every AVX-512 CPU but the Xeon
         * Phi has; checked all the same */
        return f.avx512f && f.avx512dq && f.avx2 && f.fma && f.f16c;
    case PTN_LEVEL_NEON:
        return f.neon;
    default:
        return 0;
    }
}

/*
 * Bit `level` set when the level is supported, filled by ptn_dispatch_init
 * (at module import, before any other thread can ask); -1 until then.
 * CPUID is slow under a hypervisor (each one traps: microseconds), so the
 * training loops, which ask for tables on every fit, must not repeat it.
 */
static int ptn_supported_mask = -1;

int ptn_level_supported(int level)
{
    if (level < 0 || level >= PTN_LEVEL_COUNT) {
        return 0;
    }
    if (ptn_supported_mask >= 0) {
        return (ptn_supported_mask >> level) & 1;
    }
    return ptn_level_supported_now(level);
}

int ptn_best_level(void)
{
    static const int preference[] = {PTN_LEVEL_AVX512, PTN_LEVEL_AVX2, PTN_LEVEL_NEON};
    size_t k;
    for (k = 0; k < sizeof(preference) / sizeof(preference[0]); k++) {
        if (ptn_level_supported(preference[k])) {
            return preference[k];
        }
    }
    return PTN_LEVEL_SCALAR;
}

const ptn_simd *ptn_simd_for_level(int level)
{
    return ptn_level_supported(level) ? ptn_compiled_table(level) : NULL;
}

int ptn_dispatch_init(int requested)
{
    int level, mask = 0;
    for (level = 0; level < PTN_LEVEL_COUNT; level++) {
        mask |= ptn_level_supported_now(level) << level;
    }
    ptn_supported_mask = mask;
    level = ptn_best_level();
    if (requested >= 0 && ptn_level_supported(requested)) {
        level = requested;
    }
    ptn_active = ptn_compiled_table(level);
    return level;
}

const ptn_simd *ptn_active_simd(void)
{
    return ptn_active;
}

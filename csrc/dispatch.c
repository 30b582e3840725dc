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

/* The tables name their fields: several kernels share a type (scan_f32 and
 * scan_f64, the sparse updates of one dtype), so a table filled by position
 * would compile with two of them swapped.  A level without its own kernel
 * for an operation names the scalar one (or another level's). */

static const ptn_simd ptn_table_scalar = {
    .level = PTN_LEVEL_SCALAR,
    .name = "scalar",
    .dot_f32 = ptn_dot_f32_scalar,
    .dot_f64 = ptn_dot_f64_scalar,
    .axpy_f32 = ptn_axpy_f32_scalar,
    .axpy_f64 = ptn_axpy_f64_scalar,
    .axpy_f32_f64 = ptn_axpy_f32_f64_scalar,
    .sqdist_f32 = ptn_sqdist_f32_scalar,
    .sqdist_f64 = ptn_sqdist_f64_scalar,
    .exp_f64 = ptn_exp_f64_scalar,
    .dot_block_f32 = ptn_dot_block_f32_scalar,
    .dot_block_f64 = ptn_dot_block_f64_scalar,
    .rbf_block_f64 = ptn_rbf_block_f64_scalar,
    .scan_f32 = ptn_scan_f32_scalar,
    .scan_f64 = ptn_scan_f64_scalar,
    .scan_plain_f32 = ptn_scan_plain_f32_scalar,
    .scan_plain_f64 = ptn_scan_plain_f64_scalar,
    .dots_f32 = ptn_dots_f32_scalar,
    .dots_f64 = ptn_dots_f64_scalar,
    .dots_f32_tails = ptn_dots_f32_tails_scalar,
    .sdot_f32_i32 = ptn_sdot_f32_i32_scalar,
    .sdot_f32_i64 = ptn_sdot_f32_i64_scalar,
    .sdot_f64_i32 = ptn_sdot_f64_i32_scalar,
    .sdot_f64_i64 = ptn_sdot_f64_i64_scalar,
    .saxpy_f32_i32 = ptn_saxpy_f32_i32_scalar,
    .saxpy_f32_i64 = ptn_saxpy_f32_i64_scalar,
    .saxpy_f64_i32 = ptn_saxpy_f64_i32_scalar,
    .saxpy_f64_i64 = ptn_saxpy_f64_i64_scalar,
    .saxpy_f32_f64_i32 = ptn_saxpy_f32_f64_i32_scalar,
    .saxpy_f32_f64_i64 = ptn_saxpy_f32_f64_i64_scalar,
    .descents_i32 = ptn_descents_i32_scalar,
    .descents_i64 = ptn_descents_i64_scalar,
    .draws = ptn_draws_scalar,
    .shuffle = ptn_shuffle_scalar,
};

#if PTN_HAVE_X86_SIMD
static const ptn_simd ptn_table_avx2 = {
    .level = PTN_LEVEL_AVX2,
    .name = "avx2",
    .dot_f32 = ptn_dot_f32_avx2,
    .dot_f64 = ptn_dot_f64_avx2,
    .axpy_f32 = ptn_axpy_f32_avx2,
    .axpy_f64 = ptn_axpy_f64_avx2,
    .axpy_f32_f64 = ptn_axpy_f32_f64_avx2,
    .sqdist_f32 = ptn_sqdist_f32_avx2,
    .sqdist_f64 = ptn_sqdist_f64_avx2,
    .exp_f64 = ptn_exp_f64_avx2,
    .dot_block_f32 = ptn_dot_block_f32_avx2,
    .dot_block_f64 = ptn_dot_block_f64_avx2,
    .rbf_block_f64 = ptn_rbf_block_f64_avx2,
    .scan_f32 = ptn_scan_f32_avx2,
    .scan_f64 = ptn_scan_f64_avx2,
    .scan_plain_f32 = ptn_scan_plain_f32_avx2,
    .scan_plain_f64 = ptn_scan_plain_f64_avx2,
    .dots_f32 = ptn_dots_f32_avx2,
    .dots_f64 = ptn_dots_f64_avx2,
    .dots_f32_tails = ptn_dots_f32_tails_avx2,
    .sdot_f32_i32 = ptn_sdot_f32_i32_avx2,
    .sdot_f32_i64 = ptn_sdot_f32_i64_avx2,
    .sdot_f64_i32 = ptn_sdot_f64_i32_avx2,
    .sdot_f64_i64 = ptn_sdot_f64_i64_avx2,
    .saxpy_f32_i32 = ptn_saxpy_f32_i32_scalar,
    .saxpy_f32_i64 = ptn_saxpy_f32_i64_scalar,
    .saxpy_f64_i32 = ptn_saxpy_f64_i32_scalar,
    .saxpy_f64_i64 = ptn_saxpy_f64_i64_scalar,
    .saxpy_f32_f64_i32 = ptn_saxpy_f32_f64_i32_scalar,
    .saxpy_f32_f64_i64 = ptn_saxpy_f32_f64_i64_scalar,
    .descents_i32 = ptn_descents_i32_avx2,
    .descents_i64 = ptn_descents_i64_avx2,
    .draws = ptn_draws_scalar,
    .shuffle = ptn_shuffle_scalar,
};
static const ptn_simd ptn_table_avx512 = {
    .level = PTN_LEVEL_AVX512,
    .name = "avx512",
    .dot_f32 = ptn_dot_f32_avx512,
    .dot_f64 = ptn_dot_f64_avx512,
    .axpy_f32 = ptn_axpy_f32_avx512,
    .axpy_f64 = ptn_axpy_f64_avx512,
    .axpy_f32_f64 = ptn_axpy_f32_f64_avx512,
    .sqdist_f32 = ptn_sqdist_f32_avx512,
    .sqdist_f64 = ptn_sqdist_f64_avx512,
    .exp_f64 = ptn_exp_f64_avx512,
    .dot_block_f32 = ptn_dot_block_f32_avx512,
    .dot_block_f64 = ptn_dot_block_f64_avx512,
    .rbf_block_f64 = ptn_rbf_block_f64_avx512,
    .scan_f32 = ptn_scan_f32_avx512,
    .scan_f64 = ptn_scan_f64_avx512,
    .scan_plain_f32 = ptn_scan_plain_f32_avx512,
    .scan_plain_f64 = ptn_scan_plain_f64_avx512,
    .dots_f32 = ptn_dots_f32_avx512,
    .dots_f64 = ptn_dots_f64_avx512,
    .dots_f32_tails = ptn_dots_f32_tails_avx512,
    .sdot_f32_i32 = ptn_sdot_f32_i32_avx512,
    .sdot_f32_i64 = ptn_sdot_f32_i64_avx512,
    .sdot_f64_i32 = ptn_sdot_f64_i32_avx512,
    .sdot_f64_i64 = ptn_sdot_f64_i64_avx512,
    .saxpy_f32_i32 = ptn_saxpy_f32_i32_scalar,
    .saxpy_f32_i64 = ptn_saxpy_f32_i64_scalar,
    .saxpy_f64_i32 = ptn_saxpy_f64_i32_scalar,
    .saxpy_f64_i64 = ptn_saxpy_f64_i64_scalar,
    .saxpy_f32_f64_i32 = ptn_saxpy_f32_f64_i32_scalar,
    .saxpy_f32_f64_i64 = ptn_saxpy_f32_f64_i64_scalar,
    .descents_i32 = ptn_descents_i32_avx512,
    .descents_i64 = ptn_descents_i64_avx512,
    .draws = ptn_draws_avx512,
    .shuffle = ptn_shuffle_avx512,
};
#endif

#if PTN_HAVE_NEON_SIMD
static const ptn_simd ptn_table_neon = {
    .level = PTN_LEVEL_NEON,
    .name = "neon",
    .dot_f32 = ptn_dot_f32_neon,
    .dot_f64 = ptn_dot_f64_neon,
    .axpy_f32 = ptn_axpy_f32_neon,
    .axpy_f64 = ptn_axpy_f64_neon,
    .axpy_f32_f64 = ptn_axpy_f32_f64_neon,
    .sqdist_f32 = ptn_sqdist_f32_neon,
    .sqdist_f64 = ptn_sqdist_f64_neon,
    .exp_f64 = ptn_exp_f64_neon,
    .dot_block_f32 = ptn_dot_block_f32_neon,
    .dot_block_f64 = ptn_dot_block_f64_neon,
    .rbf_block_f64 = ptn_rbf_block_f64_neon,
    .scan_f32 = ptn_scan_f32_neon,
    .scan_f64 = ptn_scan_f64_neon,
    .scan_plain_f32 = ptn_scan_plain_f32_neon,
    .scan_plain_f64 = ptn_scan_plain_f64_neon,
    .dots_f32 = ptn_dots_f32_neon,
    .dots_f64 = ptn_dots_f64_neon,
    .dots_f32_tails = ptn_dots_f32_tails_neon,
    .sdot_f32_i32 = ptn_sdot_f32_i32_scalar,
    .sdot_f32_i64 = ptn_sdot_f32_i64_scalar,
    .sdot_f64_i32 = ptn_sdot_f64_i32_scalar,
    .sdot_f64_i64 = ptn_sdot_f64_i64_scalar,
    .saxpy_f32_i32 = ptn_saxpy_f32_i32_scalar,
    .saxpy_f32_i64 = ptn_saxpy_f32_i64_scalar,
    .saxpy_f64_i32 = ptn_saxpy_f64_i32_scalar,
    .saxpy_f64_i64 = ptn_saxpy_f64_i64_scalar,
    .saxpy_f32_f64_i32 = ptn_saxpy_f32_f64_i32_scalar,
    .saxpy_f32_f64_i64 = ptn_saxpy_f32_f64_i64_scalar,
    .descents_i32 = ptn_descents_i32_scalar,
    .descents_i64 = ptn_descents_i64_scalar,
    .draws = ptn_draws_scalar,
    .shuffle = ptn_shuffle_scalar,
};
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
        return f.avx2 && f.fma;
    case PTN_LEVEL_AVX512:
        /* the level also uses AVX2 instructions (256-bit gathers) and
         * AVX-512DQ (64-bit products), which every AVX-512 CPU but the Xeon
         * Phi has; checked all the same */
        return f.avx512f && f.avx512dq && f.avx2 && f.fma;
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

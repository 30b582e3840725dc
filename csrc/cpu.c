/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * cpu.c - CPU feature detection (see ptn_cpu.h).
 *
 * Compiled for the baseline instruction set: it runs before anyone knows
 * whether the CPU has AVX, so it must not contain any.
 */
#include "ptn_cpu.h"

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "cpu.c must be compiled for the baseline instruction set (no -mavx/-march flags)"
#endif

#include <string.h>

#if PTN_ARCH_X86
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#include <immintrin.h>
static void ptn_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    int regs[4];
    __cpuidex(regs, (int)leaf, (int)sub);
    r[0] = (unsigned)regs[0]; r[1] = (unsigned)regs[1];
    r[2] = (unsigned)regs[2]; r[3] = (unsigned)regs[3];
}
static unsigned long long ptn_xgetbv0(void) { return _xgetbv(0); }
#else
#include <cpuid.h>
static void ptn_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    if (!__get_cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3])) {
        r[0] = r[1] = r[2] = r[3] = 0;
    }
}
/* XGETBV by opcode bytes, so no -mxsave flag (and no assembler support) is needed. */
static unsigned long long ptn_xgetbv0(void)
{
    unsigned eax, edx;
    __asm__ __volatile__(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}
#endif

#if defined(__APPLE__)
#include <sys/types.h>
#include <sys/sysctl.h>
/* macOS enables AVX-512 state lazily, on first use, so XCR0 can read as
 * "off" although the kernel supports it; the kernel says so in sysctl. */
static int ptn_macos_avx512(void)
{
    int value = 0;
    size_t size = sizeof(value);
    if (sysctlbyname("hw.optional.avx512f", &value, &size, NULL, 0) != 0) {
        return 0;
    }
    return value != 0;
}
#endif

static void ptn_detect_x86(ptn_cpu_features *f)
{
    unsigned r[4];
    unsigned max_leaf;
    int osxsave;
    unsigned long long xcr0 = 0;

    ptn_cpuid(0, 0, r);
    max_leaf = r[0];
    /* the vendor string is EBX, EDX, ECX: "Auth" "enti" "cAMD", "Hygo" "nGen" "uine" */
    f->amd = (memcmp(&r[1], "Auth", 4) == 0 && memcmp(&r[3], "enti", 4) == 0 &&
              memcmp(&r[2], "cAMD", 4) == 0) ||
             (memcmp(&r[1], "Hygo", 4) == 0 && memcmp(&r[3], "nGen", 4) == 0 &&
              memcmp(&r[2], "uine", 4) == 0);
    if (max_leaf < 1) {
        return;
    }
    ptn_cpuid(1, 0, r);
    f->sse2 = (r[3] >> 26) & 1;
    osxsave = (r[2] >> 27) & 1;
    f->fma = (r[2] >> 12) & 1;
    f->f16c = (r[2] >> 29) & 1;
    f->avx = (r[2] >> 28) & 1;
    if (osxsave) {
        xcr0 = ptn_xgetbv0();
    }
    /* bit 1: SSE state, bit 2: AVX (upper YMM) state */
    f->os_ymm = osxsave && ((xcr0 & 0x6) == 0x6);
    /* bits 5..7: opmask, upper ZMM0-15, ZMM16-31 */
    f->os_zmm = f->os_ymm && ((xcr0 & 0xE0) == 0xE0);
#if defined(__APPLE__)
    if (f->os_ymm && !f->os_zmm) {
        f->os_zmm = ptn_macos_avx512();
    }
#endif
    f->avx = f->avx && f->os_ymm;
    f->fma = f->fma && f->os_ymm;
    f->f16c = f->f16c && f->os_ymm;
    if (max_leaf >= 7) {
        ptn_cpuid(7, 0, r);
        f->avx2 = ((r[1] >> 5) & 1) && f->os_ymm;
        f->avx512f = ((r[1] >> 16) & 1) && f->os_zmm;
        f->avx512dq = ((r[1] >> 17) & 1) && f->os_zmm;
    }
}
#endif /* PTN_ARCH_X86 */

void ptn_cpu_detect(ptn_cpu_features *out)
{
    memset(out, 0, sizeof(*out));
#if PTN_ARCH_X86
    out->x86 = 1;
    ptn_detect_x86(out);
#endif
#if PTN_ARCH_ARM64
    out->arm64 = 1;
    /* Advanced SIMD (NEON) is mandatory in ARMv8-A: every 64-bit ARM core has it. */
    out->neon = 1;
#endif
}

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_cpu.h - what the CPU and its operating system can run.
 *
 * A wide instruction set is usable only if the CPU implements it (CPUID) and
 * the operating system saves the wide registers on a context switch (CPUID's
 * OSXSAVE bit, then XCR0 read with XGETBV).  Both are checked.
 */
#ifndef PTN_CPU_H
#define PTN_CPU_H

#include "ptn_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptn_cpu_features {
    int x86;         /* compiled for x86 / x86-64 */
    int arm64;       /* compiled for 64-bit ARM */
    int sse2;
    int avx;         /* CPU has AVX and the OS saves YMM state */
    int fma;
    int avx2;
    int avx512f;     /* CPU has AVX-512F and the OS saves ZMM and mask state */
    int os_ymm;      /* XCR0 enables SSE and AVX state */
    int os_zmm;      /* XCR0 enables opmask, ZMM_Hi256 and Hi16_ZMM state */
    int neon;
    int avx512dq;    /* CPU has AVX-512DQ (64-bit integer products) and the OS saves ZMM state */
    int f16c;        /* CPU has F16C (half-precision conversions) and the OS saves YMM state */
    int amd;         /* the vendor is AMD (or Hygon, whose cores are AMD's Zen): CPUID's "AuthenticAMD" */
} ptn_cpu_features;

/* Fill *out with this machine's features.  Cheap enough to call once at start-up. */
void ptn_cpu_detect(ptn_cpu_features *out);

#ifdef __cplusplus
}
#endif

#endif /* PTN_CPU_H */

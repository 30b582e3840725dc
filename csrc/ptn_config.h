/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_config.h - compiler and architecture macros shared by the C kernels.
 *
 * Plain C99, no Python headers.  Every SIMD kernel is compiled in a file that
 * is itself built for the baseline instruction set; the wider instruction
 * sets are enabled per function with PTN_TARGET(...), so one binary runs on
 * any CPU of its architecture and picks the fast path at run time.
 */
#ifndef PTN_CONFIG_H
#define PTN_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#define PTN_ARCH_X86 1
#else
#define PTN_ARCH_X86 0
#endif

#if defined(__aarch64__) || defined(_M_ARM64)
#define PTN_ARCH_ARM64 1
#else
#define PTN_ARCH_ARM64 0
#endif

/* GCC and clang need the target attribute to emit AVX instructions in a file
 * compiled for the baseline; MSVC accepts the intrinsics anywhere. */
#if defined(_MSC_VER) && !defined(__clang__)
#define PTN_TARGET(isa)
#define PTN_INLINE static __inline
#define PTN_ALWAYS_INLINE static __forceinline
#define PTN_RESTRICT __restrict
#define PTN_UNLIKELY(c) (c)
#else
#define PTN_TARGET(isa) __attribute__((target(isa)))
#define PTN_INLINE static inline
/* for a small function called in a hot loop that the compiler would
 * otherwise keep out of line once the loop's body is large */
#define PTN_ALWAYS_INLINE static inline __attribute__((always_inline))
#define PTN_RESTRICT __restrict__
/* a branch almost never taken: its code is laid out away from the hot path */
#define PTN_UNLIKELY(c) __builtin_expect(!!(c), 0)
#endif

/* The x86 kernels are compiled when the compiler can emit AVX-512F code. */
#if PTN_ARCH_X86 && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#define PTN_HAVE_X86_SIMD 1
#else
#define PTN_HAVE_X86_SIMD 0
#endif

#if PTN_ARCH_ARM64
#define PTN_HAVE_NEON_SIMD 1
#else
#define PTN_HAVE_NEON_SIMD 0
#endif

#endif /* PTN_CONFIG_H */

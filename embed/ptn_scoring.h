/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_scoring.h - the scoring subset of the perceptron package's C sources, in
 * two files: ptn_scoring.h and ptn_scoring.c.  Made by tools/amalgamate.py
 * from the package's own files of csrc/, each below under its name:
 *   ptn_config.h ptn_model_types.h ptn_scalar_sum.h ptn_model_file.h ptn_model_scalar.h
 * Do not edit: edit those and run the script.
 *
 * Read a model file written by model.save(path) (ptn_model_file_open,
 * ptn_model_file_linear), its labels (ptn_model_file_n_labels,
 * ptn_model_file_label), and score dense rows in scalar C
 * (ptn_scalar_decision, ptn_scalar_decision_all, ptn_scalar_predict).
 * Compile ptn_scoring.c with the program: cc -std=c99 prog.c ptn_scoring.c
 */
#ifndef PTN_SCORING_H
#define PTN_SCORING_H

/* ---- ptn_config.h ---- */

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

/* ---- ptn_model_types.h ---- */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model_types.h - a fitted linear model of the package, and its
 * decision rules, with nothing of the SIMD kernels: what ptn_model.h scores
 * through the kernels, ptn_model_scalar.h scores in plain scalar code, and
 * ptn_model_file.h fills from a model file.
 *
 * A ptn_linear_model describes the weights of a fitted linear estimator
 * (Perceptron in every mode, CentroidClassifier): k rows of d weights and k
 * biases, both in one floating type.  It borrows its arrays: they belong to
 * whoever filled the struct (a Python estimator, a model file read into
 * memory) and must outlive every call that uses it.  Scoring only reads the
 * model, so any number of threads may score with one model at once.
 *
 * The rules are the estimator's:
 *   binary     (k = 1): a = w.x + b; the class is 1 (classes_[1]) if a > 0,
 *              else 0 (sign(0) = -1);
 *   multiclass (k >= 3): a_j = w_j.x + b_j; the class is the first j of the
 *              largest a_j;
 *   multilabel (k labels): label j is on when a_j > 0 (use the "all"
 *              functions: ptn_decision_all, ptn_scalar_decision_all).
 * x holds d values of the model's floating type.  Activations are summed in
 * double precision whatever the type.
 */
#ifndef PTN_MODEL_TYPES_H
#define PTN_MODEL_TYPES_H

#include <stdint.h>


#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptn_model_kind {
    PTN_MODEL_BINARY = 0,
    PTN_MODEL_MULTICLASS = 1,
    PTN_MODEL_MULTILABEL = 2
} ptn_model_kind;

typedef enum ptn_dtype {
    PTN_FLOAT32 = 0,
    PTN_FLOAT64 = 1
} ptn_dtype;

typedef struct ptn_linear_model {
    int32_t kind;           /* a ptn_model_kind */
    int32_t dtype;          /* a ptn_dtype: of coef, intercept and x */
    int64_t n_rows;         /* k */
    int64_t n_features;     /* d */
    const void *coef;       /* k x d, row-major */
    const void *intercept;  /* k */
} ptn_linear_model;

/* 0 if m is well formed (known kind and dtype, k and d >= 1, k = 1 exactly
 * for binary, non-NULL arrays), else -1. */
PTN_INLINE int ptn_linear_model_check(const ptn_linear_model *m)
{
    if (m == NULL || m->coef == NULL || m->intercept == NULL) {
        return -1;
    }
    if (m->dtype != PTN_FLOAT32 && m->dtype != PTN_FLOAT64) {
        return -1;
    }
    if (m->n_features < 1 || m->n_rows < 1) {
        return -1;
    }
    switch (m->kind) {
    case PTN_MODEL_BINARY:
        return m->n_rows == 1 ? 0 : -1;
    case PTN_MODEL_MULTICLASS:
    case PTN_MODEL_MULTILABEL:
        return m->n_rows >= 2 ? 0 : -1;
    default:
        return -1;
    }
}

/* The rules above, written once over ACT(j), an expression giving the
 * activation of row j: the bodies of the decision and predict functions of
 * ptn_model.h (through the SIMD kernels) and of ptn_model_scalar.h (scalar
 * code), which differ only in how they sum a dot product.  M is the model. */

/* the activation of a binary model; the largest of the k activations otherwise */
#define PTN_MODEL_DECISION_BODY(M, ACT)              \
    int64_t j_;                                      \
    double best_ = ACT(0);                           \
    for (j_ = 1; j_ < (M)->n_rows; j_++) {           \
        double a_ = ACT(j_);                         \
        if (a_ > best_) {                            \
            best_ = a_;                              \
        }                                            \
    }                                                \
    return best_;

/* all k activations into scores[0..k) */
#define PTN_MODEL_DECISION_ALL_BODY(M, ACT, SCORES)  \
    int64_t j_;                                      \
    for (j_ = 0; j_ < (M)->n_rows; j_++) {           \
        (SCORES)[j_] = ACT(j_);                      \
    }

/* the class index (0/1 binary, 0..k-1 multiclass); -1 for a multilabel
 * model.  Strictly greater: the first of equal activations wins, as
 * numpy.argmax does in the Python predict. */
#define PTN_MODEL_PREDICT_BODY(M, ACT)               \
    int64_t j_, best_j_ = 0;                         \
    double best_;                                    \
    if ((M)->kind == PTN_MODEL_BINARY) {             \
        return ACT(0) > 0.0 ? 1 : 0;                 \
    }                                                \
    if ((M)->kind != PTN_MODEL_MULTICLASS) {         \
        return -1;                                   \
    }                                                \
    best_ = ACT(0);                                  \
    for (j_ = 1; j_ < (M)->n_rows; j_++) {           \
        double a_ = ACT(j_);                         \
        if (a_ > best_) {                            \
            best_ = a_;                              \
            best_j_ = j_;                            \
        }                                            \
    }                                                \
    return best_j_;

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_TYPES_H */

/* ---- ptn_scalar_sum.h ---- */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_scalar_sum.h - the row sums of scalar code, written once: the scalar
 * level's dot products (simd_scalar.c), the last elements at NEON
 * (simd_neon.c) and the scalar scoring of ptn_model_scalar.h, so that a
 * program scoring in scalar code sums exactly as the package's scalar level
 * does.  Macros only.
 */
#ifndef PTN_SCALAR_SUM_H
#define PTN_SCALAR_SUM_H

#include <stddef.h>

/* One element's part of a row sum in scalar code (the scalar level, and the
 * last elements at NEON): into s, what the doubles u and v give, their
 * product or their squared difference. */
#define PTN_SCALAR_OP_DOT(s, u, v) s += (u) * (v);
#define PTN_SCALAR_OP_SQDIST(s, u, v)  \
    {                                  \
        const double d_ = (u) - (v);   \
        s += d_ * d_;                  \
    }

/* The sums over a row, for T float or double (the contracts in ptn_simd.h):
 * four partial sums s0..s3 over groups of four elements, the rest into s0,
 * each element converted to double (exactly); OP: PTN_SCALAR_OP_DOT or
 * PTN_SCALAR_OP_SQDIST (above). */
#define PTN_SCALAR_SUM(LINKAGE, NAME, T, OP) PTN_SCALAR_SUM_OF(LINKAGE, NAME, T, T, , OP)

/* the same over x of TX, each element read as CONV(x[i]) (narrow rows:
 * ptn_narrow.h) */
#define PTN_SCALAR_SUM_OF(LINKAGE, NAME, TX, T, CONV, OP)                            \
    LINKAGE double NAME(size_t n, const TX *x, const T *y)                           \
    {                                                                                \
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                               \
        size_t i = 0;                                                                \
        for (; i + 4 <= n; i += 4) {                                                 \
            OP(s0, (double)CONV(x[i]), (double)y[i])                                       \
            OP(s1, (double)CONV(x[i + 1]), (double)y[i + 1])                               \
            OP(s2, (double)CONV(x[i + 2]), (double)y[i + 2])                               \
            OP(s3, (double)CONV(x[i + 3]), (double)y[i + 3])                               \
        }                                                                            \
        for (; i < n; i++) {                                                         \
            OP(s0, (double)CONV(x[i]), (double)y[i])                                       \
        }                                                                            \
        return (s0 + s1) + (s2 + s3);                                                \
    }

#endif /* PTN_SCALAR_SUM_H */

/* ---- ptn_model_file.h ---- */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model_file.h - the model file of the package, read in plain C.
 *
 * model.save(path) writes, and perceptron.load(path) reads through this same
 * code, a little-endian binary container: a fixed preamble, a table of
 * arrays, a JSON header (for Python: the estimator's class, parameters and
 * labels), then the arrays' bytes.  A C program needs no JSON parser to
 * score a linear model from it: ptn_model_file_linear() fills the
 * ptn_linear_model of ptn_model.h from the arrays "coef_" and "intercept_"
 * and the kind in the preamble.  Nothing is allocated: the file is read into
 * (or mapped to) memory by the caller, and every pointer handed out is a
 * view into that buffer.
 *
 * Layout (all integers little-endian; offsets from the start of the file):
 *
 *   preamble, 64 bytes
 *     0   8  magic 89 50 54 4E 0D 0A 1A 0A ("\x89PTN\r\n\x1a\n", like PNG's:
 *            a text-mode transfer or a 7-bit channel breaks it visibly)
 *     8   4  u32 format version (1)
 *    12   4  u32 linear kind: 0 not a linear model (voted, kernel), 1 binary,
 *            2 multiclass, 3 multi-label (ptn_model_kind + 1)
 *    16   4  u32 number of arrays n (at most 4096)
 *    20   4  u32 CRC-32 (ISO-HDLC, as zlib.crc32) of the whole file, computed
 *            with these 4 bytes set to zero
 *    24   8  u64 header offset  = 64 + 96 n
 *    32   8  u64 header size (at most 64 MiB), UTF-8 JSON
 *    40   8  u64 data offset    = header offset + header size, rounded up to 64
 *    48   8  u64 file size: the whole file, exactly
 *    56   8  reserved, zero
 *   array table, n entries of 96 bytes
 *     0  32  name: 1 to 31 bytes of [A-Za-z0-9_.], NUL-padded
 *    32   1  dtype code (ptn_mf_dtype)
 *    33   1  ndim, 0 to 4
 *    34   6  reserved, zero
 *    40   8  u64 offset of the data: a multiple of 64, canonical (below)
 *    48   8  u64 size of the data in bytes = product(shape) * itemsize
 *    56  32  u64 shape[4]; dimensions past ndim are zero
 *    88   8  reserved, zero
 *   JSON header, then zero padding to the data offset
 *   the arrays, C order, little-endian, in table order: array i starts at the
 *   first multiple of 64 at or after the end of array i - 1 (array 0 at the
 *   data offset), zero padding between; the file ends with the last array
 *   (or at the data offset when there is none).
 *
 * ptn_model_file_open() checks all of it: magic, version, sizes against the
 * buffer (with overflow checks), the checksum, every table entry (name,
 * dtype, ndim, shape product = size, canonical offset inside the file,
 * reserved bytes zero, names unique) and the padding.  An error returns a
 * negative ptn_mf_status and a sentence in mf->error; no input can make it
 * read outside [buffer, buffer + size).
 *
 * Arrays are 64-byte aligned relative to the start of the file: read the
 * file into a buffer aligned to at least the item size (malloc's is) before
 * dereferencing typed pointers; ptn_model_file_linear checks it.  Big-endian
 * hosts can read the container but not use the arrays in place
 * (ptn_model_file_linear refuses).
 */
#ifndef PTN_MODEL_FILE_H
#define PTN_MODEL_FILE_H

#include <stddef.h>
#include <stdint.h>


#ifdef __cplusplus
extern "C" {
#endif

#define PTN_MODEL_FILE_MAGIC "\x89PTN\r\n\x1a\n"
#define PTN_MODEL_FILE_MAGIC_SIZE 8
#define PTN_MODEL_FILE_VERSION 1u
#define PTN_MODEL_FILE_PREAMBLE_SIZE 64u
#define PTN_MODEL_FILE_ENTRY_SIZE 96u
#define PTN_MODEL_FILE_ALIGN 64u
#define PTN_MODEL_FILE_NAME_SIZE 32u
#define PTN_MODEL_FILE_MAX_NDIM 4
#define PTN_MODEL_FILE_MAX_ARRAYS 4096u
#define PTN_MODEL_FILE_MAX_HEADER ((uint64_t)64 << 20)
#define PTN_MODEL_FILE_ERROR_SIZE 256

typedef enum ptn_mf_dtype {
    PTN_MF_BOOL = 1,
    PTN_MF_INT8 = 2,
    PTN_MF_UINT8 = 3,
    PTN_MF_INT16 = 4,
    PTN_MF_UINT16 = 5,
    PTN_MF_INT32 = 6,
    PTN_MF_UINT32 = 7,
    PTN_MF_INT64 = 8,
    PTN_MF_UINT64 = 9,
    PTN_MF_FLOAT32 = 10,
    PTN_MF_FLOAT64 = 11
} ptn_mf_dtype;

typedef enum ptn_mf_linear_kind {
    PTN_MF_NOT_LINEAR = 0,
    PTN_MF_BINARY = 1,          /* PTN_MODEL_BINARY + 1 */
    PTN_MF_MULTICLASS = 2,      /* PTN_MODEL_MULTICLASS + 1 */
    PTN_MF_MULTILABEL = 3       /* PTN_MODEL_MULTILABEL + 1 */
} ptn_mf_linear_kind;

typedef enum ptn_mf_status {
    PTN_MF_OK = 0,
    PTN_MF_ERR_ARGUMENT = -1,   /* NULL pointers, index out of range */
    PTN_MF_ERR_MAGIC = -2,      /* not a model file */
    PTN_MF_ERR_VERSION = -3,    /* a format version this reader does not know */
    PTN_MF_ERR_TRUNCATED = -4,  /* shorter than the file says */
    PTN_MF_ERR_SIZE = -5,       /* longer than the file says, or sizes out of bounds */
    PTN_MF_ERR_CHECKSUM = -6,   /* the bytes changed since the file was written */
    PTN_MF_ERR_LAYOUT = -7,     /* an inconsistent preamble or table */
    PTN_MF_ERR_MISSING = -8,    /* no array of that name */
    PTN_MF_ERR_NOT_LINEAR = -9, /* not a linear model, or its arrays do not make one */
    PTN_MF_ERR_PLATFORM = -10   /* big-endian host or misaligned buffer */
} ptn_mf_status;

/* One array of the table, decoded. */
typedef struct ptn_mf_array {
    char name[PTN_MODEL_FILE_NAME_SIZE];    /* NUL-terminated */
    int32_t dtype;                          /* a ptn_mf_dtype */
    int32_t ndim;
    uint64_t shape[PTN_MODEL_FILE_MAX_NDIM];
    uint64_t count;                         /* product of the shape */
    uint64_t offset;
    uint64_t nbytes;
    const void *data;                       /* view: buffer + offset */
} ptn_mf_array;

/* An opened model file: views into the caller's buffer. */
typedef struct ptn_model_file {
    const unsigned char *base;
    uint64_t size;
    uint32_t version;
    uint32_t linear_kind;       /* a ptn_mf_linear_kind */
    uint32_t n_arrays;
    const char *header;         /* the JSON header, header_size bytes, not NUL-terminated */
    uint64_t header_size;
    char error[PTN_MODEL_FILE_ERROR_SIZE];
} ptn_model_file;

/* Check buffer[0..size) and open it.  Returns PTN_MF_OK or a negative
 * ptn_mf_status with the reason in mf->error. */
int ptn_model_file_open(ptn_model_file *mf, const void *buffer, size_t size);

/* Array i (0 <= i < n_arrays) of an opened file. */
int ptn_model_file_array(ptn_model_file *mf, uint32_t i, ptn_mf_array *out);

/* The array called `name`; PTN_MF_ERR_MISSING if there is none. */
int ptn_model_file_find(ptn_model_file *mf, const char *name, ptn_mf_array *out);

/* Fill `model` from the file's "coef_" (k x d) and "intercept_" (k) arrays,
 * both float32 or both float64, with the kind of the preamble; the model's
 * pointers are views into the buffer.  Checks the result with
 * ptn_linear_model_check. */
int ptn_model_file_linear(ptn_model_file *mf, ptn_linear_model *model);

/* The number of labels (the estimator's classes_) the file holds, or a
 * negative ptn_mf_status (PTN_MF_ERR_MISSING: the header has none).
 * model_labels.c. */
int64_t ptn_model_file_n_labels(ptn_model_file *mf);

/* Label i, where i is the class index ptn_predict returns (the label index
 * of a multi-label model), as text: a string label's UTF-8 bytes, a number
 * or a boolean as Python's str() writes it (7, 2.5, True).  Writes at most
 * cap - 1 bytes and a NUL to out, and returns the label's full length, as
 * snprintf does (a result >= cap means out was too short); or a negative
 * ptn_mf_status with the reason in mf->error (PTN_MF_ERR_ARGUMENT when i is
 * not below ptn_model_file_n_labels).  The header is read as JSON, never
 * outside it.  model_labels.c. */
int64_t ptn_model_file_label(ptn_model_file *mf, uint64_t i, char *out, size_t cap);

/* Bytes per item of a dtype code, 0 for an unknown code. */
size_t ptn_mf_dtype_size(int dtype);

/* CRC-32 (ISO-HDLC: zlib's, Ethernet's) of data[0..n), continuing from crc
 * (start with 0). */
uint32_t ptn_crc32(uint32_t crc, const void *data, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_FILE_H */

/* ---- ptn_model_scalar.h ---- */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model_scalar.h - scoring a fitted linear model (ptn_model_types.h) on
 * dense rows in portable scalar C, without the SIMD kernels and their
 * dispatch: the scoring of the one-file subset (ptn_scoring.h and
 * ptn_scoring.c, made from this header and the model-file reader by
 * tools/amalgamate.py).
 *
 * The rules are those of ptn_model.h (the same bodies, PTN_MODEL_*_BODY),
 * and the dot products are the package's scalar level's (the same template,
 * ptn_scalar_sum.h): the scores are bit for bit those of the package with
 * PERCEPTRON_SIMD=scalar, and equal the other levels' to rounding.
 *
 *   ptn_scalar_decision(m, x)           the activation of a binary model;
 *                                       the largest of the k otherwise
 *   ptn_scalar_decision_all(m, x, out)  all k activations into out[0..k)
 *   ptn_scalar_predict(m, x)            the class index (0/1 binary, 0..k-1
 *                                       multiclass); -1 for a multilabel model
 *
 * x holds m->n_features values of the model's floating type (float for
 * PTN_FLOAT32, double for PTN_FLOAT64).
 */
#ifndef PTN_MODEL_SCALAR_H
#define PTN_MODEL_SCALAR_H


#ifdef __cplusplus
extern "C" {
#endif

PTN_SCALAR_SUM(PTN_INLINE, ptn_scalar_dot_f32, float, PTN_SCALAR_OP_DOT)
PTN_SCALAR_SUM(PTN_INLINE, ptn_scalar_dot_f64, double, PTN_SCALAR_OP_DOT)

/* w_j.x + b_j, as ptn_row_activation (ptn_model.h) sums it */
PTN_INLINE double ptn_scalar_row_activation(const ptn_linear_model *m, int64_t j, const void *x)
{
    size_t d = (size_t)m->n_features;
    if (m->dtype == PTN_FLOAT32) {
        const float *w = (const float *)m->coef + (size_t)j * d;
        return ptn_scalar_dot_f32(d, (const float *)x, w)
               + (double)((const float *)m->intercept)[j];
    } else {
        const double *w = (const double *)m->coef + (size_t)j * d;
        return ptn_scalar_dot_f64(d, (const double *)x, w) + ((const double *)m->intercept)[j];
    }
}

#define PTN_SCALAR_ACTIVATION_(j) ptn_scalar_row_activation(m, (j), x)

PTN_INLINE double ptn_scalar_decision(const ptn_linear_model *m, const void *x)
{
    PTN_MODEL_DECISION_BODY(m, PTN_SCALAR_ACTIVATION_)
}

PTN_INLINE void ptn_scalar_decision_all(const ptn_linear_model *m, const void *x,
                                        double *scores)
{
    PTN_MODEL_DECISION_ALL_BODY(m, PTN_SCALAR_ACTIVATION_, scores)
}

PTN_INLINE int64_t ptn_scalar_predict(const ptn_linear_model *m, const void *x)
{
    PTN_MODEL_PREDICT_BODY(m, PTN_SCALAR_ACTIVATION_)
}

#undef PTN_SCALAR_ACTIVATION_

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_SCALAR_H */

#endif /* PTN_SCORING_H */

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

#include "ptn_model.h"

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

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_scoring.c - the scoring subset of the perceptron package's C sources, in
 * two files: ptn_scoring.h and ptn_scoring.c.  Made by tools/amalgamate.py
 * from the package's own files of csrc/, each below under its name:
 *   model_file.c model_labels.c
 * Do not edit: edit those and run the script.
 *
 * Read a model file written by model.save(path) (ptn_model_file_open,
 * ptn_model_file_linear), its labels (ptn_model_file_n_labels,
 * ptn_model_file_label), and score dense rows in scalar C
 * (ptn_scalar_decision, ptn_scalar_decision_all, ptn_scalar_predict).
 * Compile ptn_scoring.c with the program: cc -std=c99 prog.c ptn_scoring.c
 */
#include "ptn_scoring.h"

/* ---- model_file.c ---- */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * model_file.c - checking and reading the model file of ptn_model_file.h.
 *
 * Every field is read byte by byte as little-endian (no unaligned loads, no
 * dependence on the host's byte order), every sum and product of sizes is
 * checked for overflow before use, and the layout must be the canonical one
 * the writer makes, so one file has exactly one valid reading.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du
};

uint32_t ptn_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc = crc_table[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
    }
    return ~crc;
}

size_t ptn_mf_dtype_size(int dtype)
{
    switch (dtype) {
    case PTN_MF_BOOL:
    case PTN_MF_INT8:
    case PTN_MF_UINT8:
        return 1;
    case PTN_MF_INT16:
    case PTN_MF_UINT16:
        return 2;
    case PTN_MF_INT32:
    case PTN_MF_UINT32:
    case PTN_MF_FLOAT32:
        return 4;
    case PTN_MF_INT64:
    case PTN_MF_UINT64:
    case PTN_MF_FLOAT64:
        return 8;
    default:
        return 0;
    }
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32);
}

static int fail(ptn_model_file *mf, int code, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(mf->error, sizeof mf->error, fmt, args);
    va_end(args);
    return code;
}

static int all_zero(const unsigned char *p, uint64_t n)
{
    uint64_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != 0) {
            return 0;
        }
    }
    return 1;
}

/* x rounded up to a multiple of the alignment; 0 on overflow (x > 0 never
 * rounds to 0, and the callers treat 0 as impossible). */
static uint64_t align_up(uint64_t x)
{
    uint64_t a = PTN_MODEL_FILE_ALIGN;
    if (x > UINT64_MAX - (a - 1)) {
        return 0;
    }
    return (x + a - 1) / a * a;
}

static int name_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || c == '_' || c == '.';
}

/* Decode table entry i without checks beyond the layout's. */
static void decode_entry(const ptn_model_file *mf, uint32_t i, ptn_mf_array *out)
{
    const unsigned char *e = mf->base + PTN_MODEL_FILE_PREAMBLE_SIZE
                             + (size_t)i * PTN_MODEL_FILE_ENTRY_SIZE;
    int d;
    memcpy(out->name, e, PTN_MODEL_FILE_NAME_SIZE);
    out->name[PTN_MODEL_FILE_NAME_SIZE - 1] = '\0';
    out->dtype = e[32];
    out->ndim = e[33];
    out->offset = rd64(e + 40);
    out->nbytes = rd64(e + 48);
    out->count = 1;
    for (d = 0; d < PTN_MODEL_FILE_MAX_NDIM; d++) {
        out->shape[d] = rd64(e + 56 + 8 * d);
    }
    out->data = NULL;
}

/* Check entry i, whose data must start at `expected` offset. */
static int check_entry(ptn_model_file *mf, uint32_t i, uint64_t expected, ptn_mf_array *a)
{
    const unsigned char *e = mf->base + PTN_MODEL_FILE_PREAMBLE_SIZE
                             + (size_t)i * PTN_MODEL_FILE_ENTRY_SIZE;
    size_t itemsize;
    uint64_t count = 1;
    int d, length = -1;
    for (d = 0; d < (int)PTN_MODEL_FILE_NAME_SIZE; d++) {
        if (e[d] == 0) {
            length = d;
            break;
        }
        if (!name_char(e[d])) {
            return fail(mf, PTN_MF_ERR_LAYOUT, "array %u: its name holds the byte 0x%02x "
                        "(names use A-Z a-z 0-9 _ .)", (unsigned)i, (unsigned)e[d]);
        }
    }
    if (length <= 0) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array %u: its name is %s", (unsigned)i,
                    length == 0 ? "empty" : "not NUL-terminated within 32 bytes");
    }
    if (!all_zero(e + length, PTN_MODEL_FILE_NAME_SIZE - (uint64_t)length)
        || !all_zero(e + 34, 6) || !all_zero(e + 88, 8)) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array %u: nonzero padding or reserved bytes",
                    (unsigned)i);
    }
    decode_entry(mf, i, a);
    itemsize = ptn_mf_dtype_size(a->dtype);
    if (itemsize == 0) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': unknown dtype code %d (object and "
                    "other non-numeric arrays cannot be stored)", a->name, a->dtype);
    }
    if (a->ndim > PTN_MODEL_FILE_MAX_NDIM) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': %d dimensions (at most %d)",
                    a->name, a->ndim, PTN_MODEL_FILE_MAX_NDIM);
    }
    for (d = 0; d < PTN_MODEL_FILE_MAX_NDIM; d++) {
        uint64_t n = a->shape[d];
        if (d >= a->ndim) {
            if (n != 0) {
                return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': dimension %d is past ndim=%d "
                            "but not zero", a->name, d, a->ndim);
            }
            continue;
        }
        if (n > (uint64_t)INT64_MAX) {
            return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': dimension %d is too large",
                        a->name, d);
        }
        if (n != 0 && count > UINT64_MAX / n) {
            return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': its shape overflows", a->name);
        }
        count *= n;
    }
    if (count > UINT64_MAX / itemsize || count * itemsize != a->nbytes) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': its shape does not match its size "
                    "(%llu bytes)", a->name, (unsigned long long)a->nbytes);
    }
    a->count = count;
    if (a->offset != expected) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': its data is at byte %llu, expected %llu",
                    a->name, (unsigned long long)a->offset, (unsigned long long)expected);
    }
    if (a->offset > mf->size || a->nbytes > mf->size - a->offset) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s': its %llu bytes at offset %llu run past "
                    "the end of the file (%llu bytes)", a->name,
                    (unsigned long long)a->nbytes, (unsigned long long)a->offset,
                    (unsigned long long)mf->size);
    }
    a->data = mf->base + a->offset;
    return PTN_MF_OK;
}

int ptn_model_file_open(ptn_model_file *mf, const void *buffer, size_t size)
{
    const unsigned char *b = (const unsigned char *)buffer;
    uint32_t version, kind, n, crc_stored, crc;
    uint64_t header_offset, header_size, data_offset, file_size, expected, end, i;
    static const unsigned char zero4[4] = {0, 0, 0, 0};
    if (mf == NULL) {
        return PTN_MF_ERR_ARGUMENT;
    }
    memset(mf, 0, sizeof *mf);
    if (b == NULL) {
        return fail(mf, PTN_MF_ERR_ARGUMENT, "no buffer");
    }
    if (size < PTN_MODEL_FILE_MAGIC_SIZE
        || memcmp(b, PTN_MODEL_FILE_MAGIC, PTN_MODEL_FILE_MAGIC_SIZE) != 0) {
        if (size < PTN_MODEL_FILE_MAGIC_SIZE
            && memcmp(b, PTN_MODEL_FILE_MAGIC, size) == 0) {
            return fail(mf, PTN_MF_ERR_TRUNCATED, "truncated: %llu bytes, shorter than the "
                        "%u-byte preamble", (unsigned long long)size,
                        (unsigned)PTN_MODEL_FILE_PREAMBLE_SIZE);
        }
        return fail(mf, PTN_MF_ERR_MAGIC, "not a perceptron model file (its first bytes are "
                    "not the magic \\x89PTN\\r\\n\\x1a\\n)");
    }
    if (size < PTN_MODEL_FILE_PREAMBLE_SIZE) {
        return fail(mf, PTN_MF_ERR_TRUNCATED, "truncated: %llu bytes, shorter than the "
                    "%u-byte preamble", (unsigned long long)size,
                    (unsigned)PTN_MODEL_FILE_PREAMBLE_SIZE);
    }
    version = rd32(b + 8);
    kind = rd32(b + 12);
    n = rd32(b + 16);
    crc_stored = rd32(b + 20);
    header_offset = rd64(b + 24);
    header_size = rd64(b + 32);
    data_offset = rd64(b + 40);
    file_size = rd64(b + 48);
    if (version == 0 || version > PTN_MODEL_FILE_VERSION) {
        return fail(mf, PTN_MF_ERR_VERSION, "format version %lu: this reader knows versions "
                    "1 to %u%s", (unsigned long)version, PTN_MODEL_FILE_VERSION,
                    version > PTN_MODEL_FILE_VERSION ? " (the file was written by a newer "
                    "version of the package)" : "");
    }
    if (file_size > (uint64_t)size) {
        return fail(mf, PTN_MF_ERR_TRUNCATED, "truncated: the file should be %llu bytes long, "
                    "it has %llu", (unsigned long long)file_size, (unsigned long long)size);
    }
    if (file_size < (uint64_t)size) {
        return fail(mf, PTN_MF_ERR_SIZE, "%llu bytes past the end of the model (%llu bytes)",
                    (unsigned long long)((uint64_t)size - file_size),
                    (unsigned long long)file_size);
    }
    if (header_size > PTN_MODEL_FILE_MAX_HEADER) {
        return fail(mf, PTN_MF_ERR_SIZE, "the header claims %llu bytes, more than the %llu "
                    "allowed", (unsigned long long)header_size,
                    (unsigned long long)PTN_MODEL_FILE_MAX_HEADER);
    }
    if (n > PTN_MODEL_FILE_MAX_ARRAYS) {
        return fail(mf, PTN_MF_ERR_SIZE, "%lu arrays, more than the %u allowed",
                    (unsigned long)n, PTN_MODEL_FILE_MAX_ARRAYS);
    }
    if (kind > PTN_MF_MULTILABEL) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "unknown linear model kind %lu", (unsigned long)kind);
    }
    if (!all_zero(b + 56, 8)) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "nonzero reserved bytes in the preamble");
    }
    expected = PTN_MODEL_FILE_PREAMBLE_SIZE + (uint64_t)n * PTN_MODEL_FILE_ENTRY_SIZE;
    if (header_offset != expected) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "the header is at byte %llu, expected %llu",
                    (unsigned long long)header_offset, (unsigned long long)expected);
    }
    end = header_offset + header_size;   /* both bounded above: no overflow */
    if (end > file_size) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "the header (%llu bytes at byte %llu) runs past the "
                    "end of the file (%llu bytes)", (unsigned long long)header_size,
                    (unsigned long long)header_offset, (unsigned long long)file_size);
    }
    if (data_offset != align_up(end) || data_offset > file_size) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "the data offset %llu is not the header's end "
                    "rounded up to 64 (%llu) inside the file", (unsigned long long)data_offset,
                    (unsigned long long)align_up(end));
    }
    crc = ptn_crc32(0, b, 20);
    crc = ptn_crc32(crc, zero4, 4);
    crc = ptn_crc32(crc, b + 24, size - 24);
    if (crc != crc_stored) {
        return fail(mf, PTN_MF_ERR_CHECKSUM, "checksum mismatch (CRC-32 %08lx, the file says "
                    "%08lx): the file is corrupt", (unsigned long)crc, (unsigned long)crc_stored);
    }
    mf->base = b;
    mf->size = file_size;
    mf->version = version;
    mf->linear_kind = kind;
    mf->n_arrays = n;
    mf->header = (const char *)(b + header_offset);
    mf->header_size = header_size;
    if (!all_zero(b + end, data_offset - end)) {
        return fail(mf, PTN_MF_ERR_LAYOUT, "nonzero padding after the header");
    }
    expected = data_offset;
    end = data_offset;
    for (i = 0; i < n; i++) {
        ptn_mf_array a, other;
        uint64_t j;
        int r = check_entry(mf, (uint32_t)i, expected, &a);
        if (r != PTN_MF_OK) {
            return r;
        }
        for (j = 0; j < i; j++) {
            decode_entry(mf, (uint32_t)j, &other);
            if (strcmp(other.name, a.name) == 0) {
                return fail(mf, PTN_MF_ERR_LAYOUT, "two arrays are called '%s'", a.name);
            }
        }
        if (!all_zero(b + end, a.offset - end)) {
            return fail(mf, PTN_MF_ERR_LAYOUT, "nonzero padding before array '%s'", a.name);
        }
        end = a.offset + a.nbytes;
        expected = align_up(end);
        if (expected == 0) {
            return fail(mf, PTN_MF_ERR_LAYOUT, "array '%s' ends too far", a.name);
        }
    }
    if (end != file_size) {
        return fail(mf, PTN_MF_ERR_SIZE, "the file has %llu bytes after its last array",
                    (unsigned long long)(file_size - end));
    }
    mf->error[0] = '\0';
    return PTN_MF_OK;
}

int ptn_model_file_array(ptn_model_file *mf, uint32_t i, ptn_mf_array *out)
{
    if (mf == NULL || out == NULL || mf->base == NULL) {
        return PTN_MF_ERR_ARGUMENT;
    }
    if (i >= mf->n_arrays) {
        return fail(mf, PTN_MF_ERR_ARGUMENT, "no array %lu (the file has %lu)",
                    (unsigned long)i, (unsigned long)mf->n_arrays);
    }
    decode_entry(mf, i, out);
    {
        int d;
        for (d = 0; d < out->ndim && d < PTN_MODEL_FILE_MAX_NDIM; d++) {
            out->count *= out->shape[d];
        }
    }
    out->data = mf->base + out->offset;
    return PTN_MF_OK;
}

int ptn_model_file_find(ptn_model_file *mf, const char *name, ptn_mf_array *out)
{
    uint32_t i;
    if (mf == NULL || out == NULL || name == NULL || mf->base == NULL) {
        return PTN_MF_ERR_ARGUMENT;
    }
    for (i = 0; i < mf->n_arrays; i++) {
        ptn_model_file_array(mf, i, out);
        if (strcmp(out->name, name) == 0) {
            return PTN_MF_OK;
        }
    }
    return fail(mf, PTN_MF_ERR_MISSING, "no array '%.40s' in the file", name);
}

static int little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

int ptn_model_file_linear(ptn_model_file *mf, ptn_linear_model *model)
{
    ptn_mf_array coef, intercept;
    size_t itemsize;
    if (mf == NULL || model == NULL || mf->base == NULL) {
        return PTN_MF_ERR_ARGUMENT;
    }
    if (mf->linear_kind == PTN_MF_NOT_LINEAR) {
        return fail(mf, PTN_MF_ERR_NOT_LINEAR, "the file holds a model that is not linear "
                    "(no coef_ and intercept_ to score with)");
    }
    if (ptn_model_file_find(mf, "coef_", &coef) != PTN_MF_OK
        || ptn_model_file_find(mf, "intercept_", &intercept) != PTN_MF_OK) {
        return fail(mf, PTN_MF_ERR_NOT_LINEAR, "a linear model without coef_ or intercept_");
    }
    if ((coef.dtype != PTN_MF_FLOAT32 && coef.dtype != PTN_MF_FLOAT64)
        || intercept.dtype != coef.dtype || coef.ndim != 2 || intercept.ndim != 1
        || intercept.shape[0] != coef.shape[0]) {
        return fail(mf, PTN_MF_ERR_NOT_LINEAR, "coef_ and intercept_ must be float32 or "
                    "float64 arrays (k, d) and (k,) of one dtype");
    }
    if (!little_endian()) {
        return fail(mf, PTN_MF_ERR_PLATFORM, "the arrays are little-endian and this host is not");
    }
    itemsize = ptn_mf_dtype_size(coef.dtype);
    if ((uintptr_t)coef.data % itemsize != 0 || (uintptr_t)intercept.data % itemsize != 0) {
        return fail(mf, PTN_MF_ERR_PLATFORM, "the buffer is not aligned to %u bytes: read the "
                    "file into memory from malloc", (unsigned)itemsize);
    }
    model->kind = (int32_t)mf->linear_kind - 1;
    model->dtype = coef.dtype == PTN_MF_FLOAT32 ? PTN_FLOAT32 : PTN_FLOAT64;
    model->n_rows = (int64_t)coef.shape[0];
    model->n_features = (int64_t)coef.shape[1];
    model->coef = coef.data;
    model->intercept = intercept.data;
    if (ptn_linear_model_check(model) != 0) {
        return fail(mf, PTN_MF_ERR_NOT_LINEAR, "coef_ (%llu x %llu) does not make a valid "
                    "model of kind %lu", (unsigned long long)coef.shape[0],
                    (unsigned long long)coef.shape[1], (unsigned long)mf->linear_kind);
    }
    return PTN_MF_OK;
}

/* ---- model_labels.c ---- */

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * model_labels.c - the labels (classes_) of an opened model file, in plain C
 * (see ptn_model_file.h).
 *
 * The writer keeps numeric labels as an array of the table, named in the
 * JSON header as {"array": NAME}, and text (or mixed) labels in the header
 * itself, as {"text_array": {"dtype": ..., "values": [...]}}, under the
 * header's "fitted" object, key "classes_".  This file reads just enough
 * JSON (RFC 8259) to find them: a scanner that skips any value with
 * bounded nesting, and never reads outside the header.
 */

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct json {
    const char *p;
    const char *end;
    int depth;
} json;

static void ws(json *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) {
        s->p++;
    }
}

static int at(json *s, char c)
{
    ws(s);
    return s->p < s->end && *s->p == c;
}

static int skip_literal(json *s, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0) {
        return -1;
    }
    s->p += n;
    return 0;
}

/* at '"': past the closing quote */
static int skip_string(json *s)
{
    s->p++;
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p++;
        if (c == '"') {
            return 0;
        }
        if (c < 0x20) {
            return -1;
        }
        if (c == '\\') {
            if (s->p >= s->end) {
                return -1;
            }
            s->p++;
        }
    }
    return -1;
}

static int skip_number(json *s)
{
    const char *start = s->p;
    while (s->p < s->end && strchr("+-0123456789.eE", *s->p) != NULL && *s->p != '\0') {
        s->p++;
    }
    return s->p > start ? 0 : -1;
}

static int skip_value(json *s);

/* at '{' or '[': past the matching close */
static int skip_container(json *s)
{
    int object = *s->p == '{';
    char close = object ? '}' : ']';
    if (++s->depth > JSON_MAX_DEPTH) {
        return -1;
    }
    s->p++;
    if (at(s, close)) {
        s->p++;
        s->depth--;
        return 0;
    }
    for (;;) {
        if (object) {
            if (!at(s, '"') || skip_string(s) != 0 || !at(s, ':')) {
                return -1;
            }
            s->p++;
        }
        if (skip_value(s) != 0) {
            return -1;
        }
        if (at(s, ',')) {
            s->p++;
        } else if (at(s, close)) {
            s->p++;
            s->depth--;
            return 0;
        } else {
            return -1;
        }
    }
}

static int skip_value(json *s)
{
    ws(s);
    if (s->p >= s->end) {
        return -1;
    }
    switch (*s->p) {
    case '"':
        return skip_string(s);
    case '{':
    case '[':
        return skip_container(s);
    case 't':
        return skip_literal(s, "true");
    case 'f':
        return skip_literal(s, "false");
    case 'n':
        return skip_literal(s, "null");
    default:
        return skip_number(s);
    }
}

/* At an object: leave s at the value of its member `key` (an unescaped key)
 * and return 0; 1 when it has no such member, -1 when it is not JSON. */
static int member(json *s, const char *key)
{
    size_t n = strlen(key);
    if (!at(s, '{')) {
        return at(s, '[') || s->p < s->end ? 1 : -1;
    }
    s->p++;
    if (at(s, '}')) {
        return 1;
    }
    for (;;) {
        const char *name;
        if (!at(s, '"')) {
            return -1;
        }
        name = s->p + 1;
        if (skip_string(s) != 0 || !at(s, ':')) {
            return -1;
        }
        if ((size_t)(s->p - 1 - name) == n && memcmp(name, key, n) == 0) {
            s->p++;
            ws(s);
            return 0;
        }
        s->p++;
        if (skip_value(s) != 0) {
            return -1;
        }
        if (at(s, ',')) {
            s->p++;
        } else {
            return at(s, '}') ? 1 : -1;
        }
    }
}

/* Append byte c to out[0..cap) at *len (counting what does not fit). */
static void put(char *out, size_t cap, uint64_t *len, char c)
{
    if (*len + 1 < cap) {
        out[*len] = c;
    }
    (*len)++;
}

static int hex4(const char *p, unsigned *v)
{
    int i;
    *v = 0;
    for (i = 0; i < 4; i++) {
        char c = p[i];
        *v <<= 4;
        if (c >= '0' && c <= '9') {
            *v |= (unsigned)(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            *v |= (unsigned)(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
            *v |= (unsigned)(c - 'A' + 10);
        } else {
            return -1;
        }
    }
    return 0;
}

/* At '"': the string's UTF-8 bytes into out; -1 if it is not valid JSON
 * text or holds a lone surrogate. */
static int decode_string(json *s, char *out, size_t cap, uint64_t *len)
{
    s->p++;
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p++;
        unsigned v, low;
        if (c == '"') {
            return 0;
        }
        if (c < 0x20) {
            return -1;
        }
        if (c != '\\') {
            put(out, cap, len, (char)c);
            continue;
        }
        if (s->p >= s->end) {
            return -1;
        }
        c = (unsigned char)*s->p++;
        switch (c) {
        case '"': case '\\': case '/': put(out, cap, len, (char)c); continue;
        case 'b': put(out, cap, len, '\b'); continue;
        case 'f': put(out, cap, len, '\f'); continue;
        case 'n': put(out, cap, len, '\n'); continue;
        case 'r': put(out, cap, len, '\r'); continue;
        case 't': put(out, cap, len, '\t'); continue;
        case 'u': break;
        default: return -1;
        }
        if (s->end - s->p < 4 || hex4(s->p, &v) != 0) {
            return -1;
        }
        s->p += 4;
        if (v >= 0xdc00 && v <= 0xdfff) {
            return -1;
        }
        if (v >= 0xd800 && v <= 0xdbff) {
            if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u'
                || hex4(s->p + 2, &low) != 0 || low < 0xdc00 || low > 0xdfff) {
                return -1;
            }
            s->p += 6;
            v = 0x10000u + ((v - 0xd800u) << 10) + (low - 0xdc00u);
        }
        if (v < 0x80) {
            put(out, cap, len, (char)v);
        } else if (v < 0x800) {
            put(out, cap, len, (char)(0xc0 | (v >> 6)));
            put(out, cap, len, (char)(0x80 | (v & 0x3f)));
        } else if (v < 0x10000) {
            put(out, cap, len, (char)(0xe0 | (v >> 12)));
            put(out, cap, len, (char)(0x80 | ((v >> 6) & 0x3f)));
            put(out, cap, len, (char)(0x80 | (v & 0x3f)));
        } else {
            put(out, cap, len, (char)(0xf0 | (v >> 18)));
            put(out, cap, len, (char)(0x80 | ((v >> 12) & 0x3f)));
            put(out, cap, len, (char)(0x80 | ((v >> 6) & 0x3f)));
            put(out, cap, len, (char)(0x80 | (v & 0x3f)));
        }
    }
    return -1;
}

static void put_text(char *out, size_t cap, uint64_t *len, const char *text)
{
    while (*text) {
        put(out, cap, len, *text++);
    }
}

/* A float as Python's repr writes it: the fewest significant digits that
 * read back as the same value of its type (float32 for `single`), written
 * positionally when the decimal exponent lies in [-4, 16), with ".0" for an
 * integer, else as d.ddde+XX. */
static void put_double(char *out, size_t cap, uint64_t *len, double x, int single)
{
    char buf[40], digits[24];
    int prec, exp10, n = 0, i;
    const char *e;
    if (x != x) {
        put_text(out, cap, len, "nan");
        return;
    }
    if (x > DBL_MAX || x < -DBL_MAX) {
        put_text(out, cap, len, x > 0 ? "inf" : "-inf");
        return;
    }
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, x);
        if (single ? (double)strtof(buf, NULL) == x : strtod(buf, NULL) == x) {
            break;
        }
    }
    /* buf is [-]d[.ddd]e[+-]XX: its digits and exponent */
    for (i = 0; buf[i] != 'e'; i++) {
        if (buf[i] >= '0' && buf[i] <= '9') {
            digits[n++] = buf[i];
        }
    }
    e = buf + i + 1;
    exp10 = atoi(e);
    while (n > 1 && digits[n - 1] == '0') {
        n--;
    }
    if (buf[0] == '-') {
        put(out, cap, len, '-');
    }
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            put_text(out, cap, len, "0.");
            for (i = 0; i < -exp10 - 1; i++) {
                put(out, cap, len, '0');
            }
            for (i = 0; i < n; i++) {
                put(out, cap, len, digits[i]);
            }
        } else {
            for (i = 0; i <= exp10; i++) {
                put(out, cap, len, i < n ? digits[i] : '0');
            }
            put(out, cap, len, '.');
            if (n <= exp10 + 1) {
                put(out, cap, len, '0');
            }
            for (i = exp10 + 1; i < n; i++) {
                put(out, cap, len, digits[i]);
            }
        }
        return;
    }
    put(out, cap, len, digits[0]);
    if (n > 1) {
        put(out, cap, len, '.');
        for (i = 1; i < n; i++) {
            put(out, cap, len, digits[i]);
        }
    }
    snprintf(buf, sizeof buf, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    put_text(out, cap, len, buf);
}

static uint64_t le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    while (n-- > 0) {
        v = (v << 8) | p[n];
    }
    return v;
}

/* Element i of a 1-D numeric array of the table, as text. */
static int array_label(ptn_model_file *mf, const ptn_mf_array *a, uint64_t i, char *out,
                       size_t cap, uint64_t *len)
{
    size_t size = ptn_mf_dtype_size(a->dtype);
    const unsigned char *p = (const unsigned char *)a->data + i * size;
    uint64_t v = le(p, size);
    char buf[32];
    float f;
    double d;
    uint32_t v32 = (uint32_t)v;
    switch (a->dtype) {
    case PTN_MF_BOOL:
        put_text(out, cap, len, v ? "True" : "False");
        return 0;
    case PTN_MF_INT8: case PTN_MF_INT16: case PTN_MF_INT32: case PTN_MF_INT64:
        if (size < 8 && (v >> (8 * size - 1)) & 1) {
            v |= ~(uint64_t)0 << (8 * size);        /* sign-extend */
        }
        snprintf(buf, sizeof buf, "%lld", (long long)(int64_t)v);
        put_text(out, cap, len, buf);
        return 0;
    case PTN_MF_UINT8: case PTN_MF_UINT16: case PTN_MF_UINT32: case PTN_MF_UINT64:
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
        put_text(out, cap, len, buf);
        return 0;
    case PTN_MF_FLOAT32:
        memcpy(&f, &v32, sizeof f);
        put_double(out, cap, len, (double)f, 1);
        return 0;
    case PTN_MF_FLOAT64:
        memcpy(&d, &v, sizeof d);
        put_double(out, cap, len, d, 0);
        return 0;
    default:
        snprintf(mf->error, sizeof mf->error, "the labels array has dtype code %d",
                 (int)a->dtype);
        return PTN_MF_ERR_LAYOUT;
    }
}

/* s at fitted.classes_; on error mf->error says why. */
static int find_labels(ptn_model_file *mf, json *s)
{
    int r;
    s->p = mf->header;
    s->end = mf->header + mf->header_size;
    s->depth = 0;
    r = member(s, "fitted");
    if (r == 0) {
        r = member(s, "classes_");
    }
    if (r == 0) {
        return 0;
    }
    if (r > 0) {
        snprintf(mf->error, sizeof mf->error, "the header has no fitted classes_");
        return PTN_MF_ERR_MISSING;
    }
    snprintf(mf->error, sizeof mf->error, "the header is not valid JSON");
    return PTN_MF_ERR_LAYOUT;
}

static int64_t bad(ptn_model_file *mf, const char *what)
{
    snprintf(mf->error, sizeof mf->error, "the labels in the header: %s", what);
    return PTN_MF_ERR_LAYOUT;
}

int64_t ptn_model_file_label(ptn_model_file *mf, uint64_t i, char *out, size_t cap)
{
    json s, name;
    ptn_mf_array a;
    uint64_t len = 0, n = 0;
    char array_name[PTN_MODEL_FILE_NAME_SIZE];
    int r;
    if (mf == NULL || (out == NULL && cap > 0)) {
        return PTN_MF_ERR_ARGUMENT;
    }
    if ((r = find_labels(mf, &s)) != 0) {
        return r;
    }
    name = s;
    if (member(&name, "array") == 0) {                  /* numeric labels: an array */
        if (!at(&name, '"')) {
            return bad(mf, "the array's name is not a string");
        }
        if (decode_string(&name, array_name, sizeof array_name, &len) != 0
            || len >= sizeof array_name) {
            return bad(mf, "the array's name is not one of the table");
        }
        array_name[len] = '\0';
        len = 0;
        if ((r = ptn_model_file_find(mf, array_name, &a)) != PTN_MF_OK) {
            return r;
        }
        if (a.ndim != 1 || ptn_mf_dtype_size(a.dtype) == 0) {
            return bad(mf, "the labels array is not 1-D and numeric");
        }
        n = a.count;
        if (i >= n) {
            snprintf(mf->error, sizeof mf->error, "label %llu asked of %llu",
                     (unsigned long long)i, (unsigned long long)n);
            return PTN_MF_ERR_ARGUMENT;
        }
        if ((r = array_label(mf, &a, i, out, cap, &len)) != 0) {
            return r;
        }
    } else {                                            /* text or mixed labels */
        if (member(&s, "text_array") != 0 || member(&s, "values") != 0 || !at(&s, '[')) {
            return bad(mf, "classes_ is neither an array nor a text_array with values");
        }
        s.p++;
        if (at(&s, ']')) {
            return bad(mf, "no labels");
        }
        for (n = 0; n < i; n++) {                       /* skip to value i */
            if (skip_value(&s) != 0) {
                return bad(mf, "not valid JSON");
            }
            if (!at(&s, ',')) {
                if (at(&s, ']')) {
                    snprintf(mf->error, sizeof mf->error, "label %llu asked of %llu",
                             (unsigned long long)i, (unsigned long long)(n + 1));
                    return PTN_MF_ERR_ARGUMENT;
                }
                return bad(mf, "not valid JSON");
            }
            s.p++;
        }
        ws(&s);
        if (at(&s, '"')) {
            if (decode_string(&s, out, cap, &len) != 0) {
                return bad(mf, "a label is not valid JSON text (or holds a lone surrogate)");
            }
        } else if (skip_literal(&s, "true") == 0) {
            put_text(out, cap, &len, "True");
        } else if (skip_literal(&s, "false") == 0) {
            put_text(out, cap, &len, "False");
        } else {
            const char *start = s.p;
            if (skip_number(&s) != 0) {
                return bad(mf, "a label is neither text, a number nor a boolean");
            }
            while (start < s.p) {
                put(out, cap, &len, *start++);
            }
        }
    }
    if (cap > 0) {
        out[len < cap ? len : cap - 1] = '\0';
    }
    return (int64_t)len;
}

int64_t ptn_model_file_n_labels(ptn_model_file *mf)
{
    json s, name;
    ptn_mf_array a;
    char array_name[PTN_MODEL_FILE_NAME_SIZE];
    uint64_t len = 0, n = 0;
    int r;
    if (mf == NULL) {
        return PTN_MF_ERR_ARGUMENT;
    }
    if ((r = find_labels(mf, &s)) != 0) {
        return r;
    }
    name = s;
    if (member(&name, "array") == 0) {
        if (!at(&name, '"') || decode_string(&name, array_name, sizeof array_name, &len) != 0
            || len >= sizeof array_name) {
            return bad(mf, "the array's name is not one of the table");
        }
        array_name[len] = '\0';
        if ((r = ptn_model_file_find(mf, array_name, &a)) != PTN_MF_OK) {
            return r;
        }
        return a.ndim == 1 ? (int64_t)a.count : bad(mf, "the labels array is not 1-D");
    }
    if (member(&s, "text_array") != 0 || member(&s, "values") != 0 || !at(&s, '[')) {
        return bad(mf, "classes_ is neither an array nor a text_array with values");
    }
    s.p++;
    if (at(&s, ']')) {
        return 0;
    }
    for (;;) {
        if (skip_value(&s) != 0) {
            return bad(mf, "not valid JSON");
        }
        n++;
        if (at(&s, ']')) {
            return (int64_t)n;
        }
        if (!at(&s, ',')) {
            return bad(mf, "not valid JSON");
        }
        s.p++;
    }
}

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * svmlight_buffers.c - what the svmlight parser's other parts share: the
 * growth of its output arrays (bounded by SIZE_MAX, with a floor) and the
 * recording of an error with the offending text quoted.  svmlight_lines.c
 * (the parsing of a line) and svmlight.c (the parser object and the API)
 * both build on it; it calls neither.
 */
#include "ptn_svmlight_parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ memory */

int ptn_svm_reserve(const ptn_svm_parser *p, void **buf, size_t *cap, size_t need, size_t size,
                    size_t floor)
{
    size_t c = *cap;
    void *q;
    if (need <= c && *buf != NULL) {
        return 0;
    }
    if (c < floor) {
        c = floor;
    }
    while (c < need) {
        if (c > SIZE_MAX / 2) {
            c = need;
            break;
        }
        c *= 2;
    }
    if (c > SIZE_MAX / size) {
        return -1;
    }
    q = p->mem.resize(*buf, c * size);
    if (q == NULL) {
        return -1;
    }
    *buf = q;
    *cap = c;
    return 0;
}

int ptn_svm_grow_nnz(ptn_svm_parser *p, size_t need)
{
    size_t cap = p->nnz_cap;
    void *q;
    if (need <= p->nnz_cap) {
        return 0;
    }
    if (p->binary) {   /* the indices alone */
        return ptn_svm_reserve(p, &p->indices, &p->nnz_cap, need, ptn_svm_index_size(p),
                               INITIAL_NNZ);
    }
    if (ptn_svm_reserve(p, &p->data, &cap, need, ptn_svm_value_size(p), INITIAL_NNZ) != 0
        || cap > SIZE_MAX / ptn_svm_index_size(p)) {
        return -1;
    }
    q = p->mem.resize(p->indices, cap * ptn_svm_index_size(p));
    if (q == NULL) {
        return -1;   /* data is larger than nnz_cap says: harmless */
    }
    p->indices = q;
    p->nnz_cap = cap;
    return 0;
}

int ptn_svm_grow_rows(ptn_svm_parser *p, size_t need)
{
    size_t cap = p->row_cap;
    void *q;
    if (need <= p->row_cap) {
        return 0;
    }
    if (ptn_svm_reserve(p, (void **)&p->labels, &cap, need, sizeof(double), INITIAL_ROWS) != 0
        || cap > SIZE_MAX / ptn_svm_index_size(p) - 1) {
        return -1;
    }
    q = p->mem.resize(p->indptr, (cap + 1) * ptn_svm_index_size(p));
    if (q == NULL) {
        return -1;
    }
    p->indptr = q;
    p->row_cap = cap;
    return 0;
}

/* int32 values of buf (n of them, room for cap) as int64, from the last one
 * back: the int64 at k covers the int32 at 2k and 2k + 1, both read by then. */
static int widen_array(const ptn_svm_parser *p, void **buf, size_t n, size_t cap)
{
    int64_t *q;
    size_t k;
    if (cap > SIZE_MAX / sizeof(int64_t)) {
        return -1;
    }
    q = (int64_t *)p->mem.resize(*buf, cap * sizeof(int64_t));
    if (q == NULL) {
        return -1;
    }
    for (k = n; k-- > 0;) {
        q[k] = ((const int32_t *)q)[k];
    }
    *buf = q;
    return 0;
}

int ptn_svm_widen(ptn_svm_parser *p)
{
    void *indices = p->indices, *indptr = p->indptr;
    if (!ptn_svm_may_widen(p)) {
        return 0;
    }
    /* the row pointers first: if the indices then fail, the int64 row
     * pointers hold the int32 ones' values and are narrowed back */
    if (widen_array(p, &indptr, (size_t)p->n_rows + 1, p->row_cap + 1) != 0) {
        return -1;
    }
    p->indptr = indptr;
    if (widen_array(p, &indices, (size_t)p->nnz, p->nnz_cap > 0 ? p->nnz_cap : 1) != 0) {
        int64_t k;
        for (k = 0; k <= p->n_rows; k++) {
            ((int32_t *)p->indptr)[k] = (int32_t)((int64_t *)p->indptr)[k];
        }
        return -1;
    }
    p->indices = indices;
    p->opt.index_type = PTN_SVM_INT64;
    p->type_max = INT64_MAX;
    p->index_max = INT64_MAX - 1;
    return 0;
}

/* ------------------------------------------------------------------ errors */

/* Copy n bytes of s into dst (capacity cap >= 8), control bytes as \xHH,
 * at most `shown` source bytes, then "..." if s was longer. */
static void escape_into(char *dst, size_t cap, const char *s, size_t n, size_t shown)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, o = 0;
    size_t take = n < shown ? n : shown;
    for (i = 0; i < take; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            if (o + 4 + 4 > cap) {
                break;
            }
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[c >> 4];
            dst[o++] = hex[c & 15];
        } else {
            if (o + 1 + 4 > cap) {
                break;
            }
            dst[o++] = (char)c;
        }
    }
    if (i < n) {
        dst[o++] = '.';
        dst[o++] = '.';
        dst[o++] = '.';
    }
    dst[o] = '\0';
}

int ptn_svm_fail(ptn_svm_parser *p, int code, int64_t line, const char *ls, const char *le,
                 const char *fmt, ...)
{
    va_list args;
    p->status = code;
    p->err.code = code;
    p->err.line = line;
    va_start(args, fmt);
    vsnprintf(p->err.message, sizeof p->err.message, fmt, args);
    va_end(args);
    p->err.text[0] = '\0';
    if (ls != NULL && le != NULL && le >= ls) {
        size_t n = (size_t)(le - ls);
        while (n > 0 && ls[n - 1] == '\r') {
            n--;
        }
        escape_into(p->err.text, sizeof p->err.text, ls, n, PTN_SVM_TEXT_SHOWN);
    }
    return code;
}

void ptn_svm_quote_token(char *dst, size_t cap, const char *s, const char *e)
{
    escape_into(dst, cap, s, (size_t)(e - s), TOKEN_SHOWN);
}

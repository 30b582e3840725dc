/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * svmlight.c - the streaming svmlight / libsvm parser of ptn_svmlight.h: the
 * parser object, its carry buffer and the API; the parsing of a line
 * (numbers and rows) is in svmlight_lines.c, the growth of the output arrays
 * and the error records in svmlight_buffers.c.
 *
 * A line is parsed only when it is complete (up to its '\n', or the end of
 * the input), from the caller's buffer when it lies inside one chunk, else
 * from the parser's carry buffer; so every scan is bounded by an end pointer
 * and no input byte is read twice except for a carried line.  A row goes to
 * the output only once its whole line parsed, so an error leaves the rows
 * before it intact.
 */
#include "ptn_svmlight_parser.h"

#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `need` bytes in the carry, never more than the longest line
 * allowed (so that an endless line costs at most that much memory). */
static int carry_reserve(ptn_svm_parser *p, size_t need)
{
    size_t c = p->carry_cap ? p->carry_cap : 256;
    void *q;
    if (need <= p->carry_cap && p->carry != NULL) {
        return 0;
    }
    while (c < need) {
        c = c > SIZE_MAX / 2 ? need : c * 2;
    }
    if (p->max_line > 0 && (uint64_t)c > (uint64_t)p->max_line) {
        c = need > (size_t)p->max_line ? need : (size_t)p->max_line;
    }
    q = p->mem.resize(p->carry, c);
    if (q == NULL) {
        return -1;
    }
    p->carry = (char *)q;
    p->carry_cap = c;
    return 0;
}

static int too_long(ptn_svm_parser *p, const char *ls, const char *le)
{
    return ptn_svm_fail(p, PTN_SVM_ERR_LINE_TOO_LONG, p->line + 1, ls, le,
                        "the line is longer than %" PRId64 " bytes, the longest line allowed "
                        "(an svmlight file has no such lines: is it text?)", p->max_line);
}

/* The first n bytes of a line that has more: its label may already be
 * refused; else, past the longest line allowed, it is too long. */
static int check_partial(ptn_svm_parser *p, const char *ls, size_t n, size_t *blank, int over)
{
    if (ptn_svm_refused_start(ls, n, blank)) {
        return ptn_svm_process_line(p, ls, ls + n);   /* fails on the label */
    }
    return over ? too_long(p, ls, ls + n) : PTN_SVM_OK;
}

/* Append n bytes of the line being read to the carry, as far as the
 * longest line allowed, then check what the carry holds. */
static int carry_append(ptn_svm_parser *p, const char *s, size_t n)
{
    size_t keep = n;
    int over = 0;
    if (n > SIZE_MAX - p->carry_len) {
        keep = SIZE_MAX - p->carry_len;
        over = 1;
    }
    if (p->max_line > 0 && (uint64_t)(p->carry_len + keep) > (uint64_t)p->max_line) {
        keep = (size_t)p->max_line - p->carry_len;
        over = 1;
    }
    if (carry_reserve(p, p->carry_len + keep) != 0) {
        return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, p->line + 1, NULL, NULL,
                    "out of memory for a line of %zu bytes", p->carry_len + keep);
    }
    memcpy(p->carry + p->carry_len, s, keep);
    p->carry_len += keep;
    return check_partial(p, p->carry, p->carry_len, &p->carry_blank, over);
}

static void carry_clear(ptn_svm_parser *p)
{
    p->carry_len = 0;
    p->carry_blank = 0;
}

/* A complete line [ls, le) of the caller's buffer. */
static int whole_line(ptn_svm_parser *p, const char *ls, const char *le)
{
    size_t n = (size_t)(le - ls), blank = 0;
    if (p->max_line > 0 && (uint64_t)n > (uint64_t)p->max_line) {
        return check_partial(p, ls, (size_t)p->max_line, &blank, 1);
    }
    return ptn_svm_process_line(p, ls, le);
}

/* --------------------------------------------------------------- the API */

static void *default_resize(void *block, size_t bytes)
{
    return realloc(block, bytes);
}

static void default_release(void *block)
{
    free(block);
}

static int new_batch(ptn_svm_parser *p)
{
    void *data = p->binary ? NULL : p->mem.resize(NULL, INITIAL_NNZ * ptn_svm_value_size(p));
    void *indices = p->mem.resize(NULL, INITIAL_NNZ * ptn_svm_index_size(p));
    void *indptr = p->mem.resize(NULL, (INITIAL_ROWS + 1) * ptn_svm_index_size(p));
    double *labels = (double *)p->mem.resize(NULL, INITIAL_ROWS * sizeof(double));
    if ((data == NULL && !p->binary) || indices == NULL || indptr == NULL || labels == NULL) {
        p->mem.release(data);
        p->mem.release(indices);
        p->mem.release(indptr);
        p->mem.release(labels);
        return -1;
    }
    p->data = data;
    p->indices = indices;
    p->indptr = indptr;
    p->labels = labels;
    p->nnz_cap = INITIAL_NNZ;
    p->row_cap = INITIAL_ROWS;
    p->n_rows = 0;
    p->nnz = 0;
    ptn_svm_set_indptr(p, 0, 0);
    return 0;
}

ptn_svm_parser *ptn_svm_new(const ptn_svm_options *options)
{
    return ptn_svm_new_with(options, NULL);
}

ptn_svm_parser *ptn_svm_new_with(const ptn_svm_options *options,
                                 const ptn_svm_allocator *allocator)
{
    ptn_svm_parser *p;
    ptn_svm_allocator mem = {default_resize, default_release};
    const char *dp;
    if (options == NULL
        || (options->value_type != PTN_SVM_FLOAT32 && options->value_type != PTN_SVM_FLOAT64)
        || (options->index_type != PTN_SVM_INT32 && options->index_type != PTN_SVM_INT64)
        || (options->base != PTN_SVM_BASE_AUTO && options->base != PTN_SVM_BASE_ZERO
            && options->base != PTN_SVM_BASE_ONE)
        || options->max_rows < 0
        || (allocator != NULL && (allocator->resize == NULL || allocator->release == NULL))) {
        return NULL;
    }
    if (allocator != NULL) {
        mem = *allocator;
    }
    p = (ptn_svm_parser *)mem.resize(NULL, sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->mem = mem;
    p->opt = *options;
    p->base = options->base;
    p->type_max = options->index_type == PTN_SVM_INT32 ? (int64_t)INT32_MAX : INT64_MAX;
    p->index_max = p->type_max - 1;
    p->max_index = -1;
    p->max_line = PTN_SVM_DEFAULT_MAX_LINE;
    dp = localeconv()->decimal_point;
    if (dp == NULL || dp[0] == '\0' || strlen(dp) >= sizeof p->decimal_point) {
        dp = ".";
    }
    memcpy(p->decimal_point, dp, strlen(dp) + 1);
    if (new_batch(p) != 0) {
        mem.release(p);
        return NULL;
    }
    return p;
}

int ptn_svm_set_widening(ptn_svm_parser *p)
{
    if (p == NULL || p->fed || p->finished || p->opt.index_type != PTN_SVM_INT32) {
        return PTN_SVM_ERR_USAGE;
    }
    p->widen = 1;
    return PTN_SVM_OK;
}

int ptn_svm_current_index_type(const ptn_svm_parser *p)
{
    return p == NULL ? -1 : p->opt.index_type;
}

int ptn_svm_set_binary(ptn_svm_parser *p)
{
    if (p == NULL || p->fed || p->finished) {
        return PTN_SVM_ERR_USAGE;
    }
    if (!p->binary) {   /* the batch is empty: its values go */
        p->mem.release(p->data);
        p->data = NULL;
        p->binary = 1;
    }
    return PTN_SVM_OK;
}

int ptn_svm_set_max_line(ptn_svm_parser *p, int64_t max_bytes)
{
    if (p == NULL || max_bytes < 0 || p->fed || p->finished) {
        return PTN_SVM_ERR_USAGE;
    }
    p->max_line = max_bytes;
    return PTN_SVM_OK;
}

void ptn_svm_free(ptn_svm_parser *p)
{
    if (p == NULL) {
        return;
    }
    p->mem.release(p->data);
    p->mem.release(p->indices);
    p->mem.release(p->indptr);
    p->mem.release(p->labels);
    p->mem.release(p->carry);
    p->mem.release(p->row);
    p->mem.release(p->num);
    p->mem.release(p);
}

int ptn_svm_feed(ptn_svm_parser *p, const char *buf, size_t len, size_t *consumed)
{
    size_t pos = 0;
    int r;
    if (p == NULL || consumed == NULL) {
        return PTN_SVM_ERR_USAGE;
    }
    *consumed = 0;
    p->fed = 1;
    if (p->status < 0) {
        return p->status;
    }
    if (p->finished) {
        return ptn_svm_fail(p, PTN_SVM_ERR_USAGE, 0, NULL, NULL, "ptn_svm_feed after ptn_svm_finish");
    }
    if (buf == NULL && len > 0) {
        return ptn_svm_fail(p, PTN_SVM_ERR_USAGE, 0, NULL, NULL, "ptn_svm_feed of a NULL buffer");
    }
    if (p->opt.max_rows > 0 && p->n_rows >= p->opt.max_rows) {
        return PTN_SVM_FULL;
    }
    if (len == 0) {
        return PTN_SVM_OK;
    }
    if (p->carry_len > 0) {
        const char *nl = (const char *)memchr(buf, '\n', len);
        if (nl == NULL) {
            r = carry_append(p, buf, len);
            if (r == PTN_SVM_OK) {
                *consumed = len;
            }
            return r;
        }
        r = carry_append(p, buf, (size_t)(nl - buf));
        if (r != PTN_SVM_OK) {
            return r;
        }
        pos = (size_t)(nl - buf) + 1;
        r = ptn_svm_process_line(p, p->carry, p->carry + p->carry_len);
        carry_clear(p);
        if (r != PTN_SVM_OK) {
            *consumed = pos;
            return r;
        }
    }
    while (pos < len) {
        const char *start = buf + pos;
        const char *nl = (const char *)memchr(start, '\n', len - pos);
        if (nl == NULL) {
            r = carry_append(p, start, len - pos);
            if (r != PTN_SVM_OK) {
                *consumed = pos;
                return r;
            }
            break;
        }
        r = whole_line(p, start, nl);
        pos = (size_t)(nl - buf) + 1;
        if (r != PTN_SVM_OK) {
            *consumed = pos;
            return r;
        }
    }
    *consumed = len;
    return PTN_SVM_OK;
}

int ptn_svm_finish(ptn_svm_parser *p)
{
    int r = PTN_SVM_OK;
    if (p == NULL) {
        return PTN_SVM_ERR_USAGE;
    }
    if (p->status < 0 || p->finished) {
        return p->status;
    }
    p->finished = 1;
    if (p->carry_len > 0) {
        r = ptn_svm_process_line(p, p->carry, p->carry + p->carry_len);
        carry_clear(p);
    }
    return r;
}

int ptn_svm_resolve_base(ptn_svm_parser *p)
{
    int64_t k;
    if (p == NULL) {
        return PTN_SVM_ERR_USAGE;
    }
    if (p->status < 0) {
        return p->status;
    }
    if (p->base != PTN_SVM_BASE_AUTO) {
        return PTN_SVM_OK;
    }
    if (p->first_zero_line > 0) {
        p->base = PTN_SVM_BASE_ZERO;
        if (p->max_index > p->index_max && ptn_svm_may_widen(p) && ptn_svm_widen(p) != 0) {
            return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, p->max_index_line, NULL, NULL,
                                "out of memory");
        }
        if (p->max_index > p->index_max) {
            return ptn_svm_fail(p, PTN_SVM_ERR_INDEX_RANGE, p->max_index_line, NULL, NULL,
                        "feature index %" PRId64 " is too large for %s column indices "
                        "(at most %" PRId64 " in a zero-based file, so that n_features fits)",
                        p->max_index, p->opt.index_type == PTN_SVM_INT32 ? "int32" : "int64",
                        p->index_max);
        }
        return PTN_SVM_OK;
    }
    p->base = PTN_SVM_BASE_ONE;
    if (p->opt.index_type == PTN_SVM_INT32) {
        int32_t *ix = (int32_t *)p->indices;
        for (k = 0; k < p->nnz; k++) {
            ix[k] -= 1;
        }
    } else {
        int64_t *ix = (int64_t *)p->indices;
        for (k = 0; k < p->nnz; k++) {
            ix[k] -= 1;
        }
    }
    if (p->max_index >= 0) {
        p->max_index -= 1;
    }
    return PTN_SVM_OK;
}

int ptn_svm_current_base(const ptn_svm_parser *p)
{
    return p == NULL ? -1 : p->base;
}

/* Shrink a finished buffer to n elements (at least one); keep it if realloc fails. */
static void *shrink(const ptn_svm_parser *p, void *buf, size_t n, size_t size)
{
    void *q = p->mem.resize(buf, (n > 0 ? n : 1) * size);
    return q != NULL ? q : buf;
}

int ptn_svm_take(ptn_svm_parser *p, ptn_svm_rows *out)
{
    ptn_svm_rows rows;
    if (p == NULL || out == NULL) {
        return PTN_SVM_ERR_USAGE;
    }
    if (p->status < 0) {
        return p->status;
    }
    rows.n_rows = p->n_rows;
    rows.nnz = p->nnz;
    rows.data = p->binary ? NULL : shrink(p, p->data, (size_t)p->nnz, ptn_svm_value_size(p));
    rows.indices = shrink(p, p->indices, (size_t)p->nnz, ptn_svm_index_size(p));
    rows.indptr = shrink(p, p->indptr, (size_t)p->n_rows + 1, ptn_svm_index_size(p));
    rows.labels = (double *)shrink(p, p->labels, (size_t)p->n_rows, sizeof(double));
    p->data = p->indices = p->indptr = NULL;
    p->labels = NULL;
    if (new_batch(p) != 0) {
        /* the batch stays with the parser, which is now in error */
        p->data = rows.data;
        p->indices = rows.indices;
        p->indptr = rows.indptr;
        p->labels = rows.labels;
        p->nnz_cap = (size_t)(p->nnz > 0 ? p->nnz : 1);
        p->row_cap = (size_t)(p->n_rows > 0 ? p->n_rows : 1);
        return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, 0, NULL, NULL, "out of memory");
    }
    *out = rows;
    return PTN_SVM_OK;
}

int64_t ptn_svm_pending_rows(const ptn_svm_parser *p)
{
    return p == NULL ? 0 : p->n_rows;
}

int64_t ptn_svm_max_index(const ptn_svm_parser *p)
{
    return p == NULL ? -1 : p->max_index;
}

int64_t ptn_svm_max_index_line(const ptn_svm_parser *p)
{
    return p == NULL ? 0 : p->max_index_line;
}

int64_t ptn_svm_first_zero_line(const ptn_svm_parser *p)
{
    return p == NULL ? 0 : p->first_zero_line;
}

int64_t ptn_svm_lines(const ptn_svm_parser *p)
{
    return p == NULL ? 0 : p->line;
}

void ptn_svm_label_signs(const ptn_svm_parser *p, int64_t *plus, int64_t *bare)
{
    *plus = p == NULL ? 0 : p->plus_labels;
    *bare = p == NULL ? 0 : p->bare_labels;
}

const ptn_svm_error *ptn_svm_last_error(const ptn_svm_parser *p)
{
    return p == NULL ? NULL : &p->err;
}

void ptn_svm_free_buffer(void *buffer)
{
    free(buffer);
}

void ptn_svm_rows_release(ptn_svm_rows *rows)
{
    if (rows == NULL) {
        return;
    }
    free(rows->data);
    free(rows->indices);
    free(rows->indptr);
    free(rows->labels);
    rows->data = rows->indices = rows->indptr = NULL;
    rows->labels = NULL;
    rows->n_rows = rows->nnz = 0;
}

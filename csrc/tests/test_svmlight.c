/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * test_svmlight.c - stand-alone test of the svmlight parser, no Python.
 *
 * Every input (hand-written edge cases, then pseudo-random byte strings
 * drawn mostly from the format's own characters) is parsed in one piece,
 * byte by byte, cut in two at every position, and in batches of at most a
 * few rows; all readings must agree exactly: the same rows, the same error
 * on the same line.  Built with -fsanitize=address,undefined by
 * tests/test_c_formats.py, this also checks that no input makes the parser
 * read or write out of bounds or hit undefined behaviour.
 *
 *   cc -std=c99 -O2 -Icsrc csrc/tests/test_svmlight.c csrc/svmlight.c -lm \
 *      -o test_svmlight && ./test_svmlight
 *
 * Exit status 0 when every check passes.
 */
#include "ptn_svmlight.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct result {
    int status;             /* 0 or the error code */
    int64_t line;           /* the error's line */
    int base;
    int64_t n_rows, nnz;
    double *labels;         /* n_rows */
    int64_t *indptr;        /* n_rows + 1 */
    int64_t *indices;       /* nnz */
    double *data;           /* nnz, widened */
} result;

static int failures = 0;
static int checks = 0;
static int64_t max_line = -1;   /* the parsers' longest line; -1: their default */

static void check(int ok, const char *what, const char *input)
{
    checks++;
    if (!ok) {
        failures++;
        if (failures <= 20) {
            printf("FAIL %s on input \"", what);
            for (; *input; input++) {
                unsigned char c = (unsigned char)*input;
                if (c >= 32 && c < 127) {
                    putchar(c);
                } else {
                    printf("\\x%02x", c);
                }
            }
            printf("\"\n");
        }
    }
}

static void result_free(result *r)
{
    free(r->labels);
    free(r->indptr);
    free(r->indices);
    free(r->data);
    memset(r, 0, sizeof *r);
}

/* Append a batch taken from the parser to r (rows re-based on r's nnz). */
static void append(result *r, const ptn_svm_rows *rows, const ptn_svm_options *o)
{
    int64_t i;
    size_t n_rows = (size_t)(r->n_rows + rows->n_rows), nnz = (size_t)(r->nnz + rows->nnz);
    r->labels = (double *)realloc(r->labels, (n_rows + 1) * sizeof(double));
    r->indptr = (int64_t *)realloc(r->indptr, (n_rows + 2) * sizeof(int64_t));
    r->indices = (int64_t *)realloc(r->indices, (nnz + 1) * sizeof(int64_t));
    r->data = (double *)realloc(r->data, (nnz + 1) * sizeof(double));
    if (!r->labels || !r->indptr || !r->indices || !r->data) {
        printf("out of memory\n");
        exit(2);
    }
    if (r->n_rows == 0) {
        r->indptr[0] = 0;
    }
    for (i = 0; i < rows->n_rows; i++) {
        int64_t end = o->index_type == PTN_SVM_INT32 ? ((int32_t *)rows->indptr)[i + 1]
                                                     : ((int64_t *)rows->indptr)[i + 1];
        r->labels[r->n_rows + i] = rows->labels[i];
        r->indptr[r->n_rows + i + 1] = r->nnz + end;
    }
    for (i = 0; i < rows->nnz; i++) {
        r->indices[r->nnz + i] = o->index_type == PTN_SVM_INT32 ? ((int32_t *)rows->indices)[i]
                                                                : ((int64_t *)rows->indices)[i];
        r->data[r->nnz + i] = o->value_type == PTN_SVM_FLOAT32 ? ((float *)rows->data)[i]
                                                               : ((double *)rows->data)[i];
    }
    r->n_rows = (int64_t)n_rows;
    r->nnz = (int64_t)nnz;
}

static void take(ptn_svm_parser *p, result *r, const ptn_svm_options *o)
{
    ptn_svm_rows rows;
    /* as perceptron.io.iter_svmlight does: an automatic base is decided
     * from the first batch */
    if (ptn_svm_resolve_base(p) == PTN_SVM_OK && ptn_svm_take(p, &rows) == PTN_SVM_OK) {
        /* the structure the caller relies on: row pointers from 0 to nnz,
         * increasing; indices strictly increasing in each row */
        int64_t i, k, prev = 0;
        int ok = 1;
        for (i = 0; i <= rows.n_rows; i++) {
            int64_t v = o->index_type == PTN_SVM_INT32 ? ((int32_t *)rows.indptr)[i]
                                                       : ((int64_t *)rows.indptr)[i];
            ok &= (i == 0 ? v == 0 : v >= prev);
            if (i > 0) {
                for (k = prev + 1; k < v; k++) {
                    int64_t a = o->index_type == PTN_SVM_INT32 ? ((int32_t *)rows.indices)[k - 1]
                                                               : ((int64_t *)rows.indices)[k - 1];
                    int64_t b = o->index_type == PTN_SVM_INT32 ? ((int32_t *)rows.indices)[k]
                                                               : ((int64_t *)rows.indices)[k];
                    ok &= a < b;
                }
            }
            prev = v;
        }
        ok &= prev == rows.nnz;
        check(ok, "CSR structure of a batch", "");
        append(r, &rows, o);
        ptn_svm_rows_release(&rows);
    }
}

/* Parse input with cuts at the positions cuts[0..n_cuts) (increasing). */
static void parse(const char *input, size_t len, const size_t *cuts, size_t n_cuts,
                  const ptn_svm_options *o, result *r)
{
    ptn_svm_parser *p = ptn_svm_new(o);
    size_t start = 0, c;
    int s = PTN_SVM_OK;
    memset(r, 0, sizeof *r);
    if (p == NULL || (max_line >= 0 && ptn_svm_set_max_line(p, max_line) != PTN_SVM_OK)) {
        printf("ptn_svm_new failed\n");
        exit(2);
    }
    for (c = 0; c <= n_cuts && s >= 0; c++) {
        size_t end = c < n_cuts ? cuts[c] : len;
        while (start < end) {
            size_t used = 0;
            s = ptn_svm_feed(p, input + start, end - start, &used);
            start += used;
            if (s == PTN_SVM_FULL) {
                take(p, r, o);
                continue;
            }
            break;
        }
        if (s < 0) {
            break;
        }
        start = end;
    }
    if (s >= 0) {
        s = ptn_svm_finish(p);
    }
    if (s >= 0) {
        s = ptn_svm_resolve_base(p);
    }
    if (s >= 0) {
        take(p, r, o);
    }
    r->status = s < 0 ? s : 0;
    r->line = s < 0 ? ptn_svm_last_error(p)->line : 0;
    r->base = ptn_svm_current_base(p);
    if (s < 0) {
        const ptn_svm_error *e = ptn_svm_last_error(p);
        check(e->code == s && strlen(e->message) > 0, "error message present", input);
    }
    ptn_svm_free(p);
}

static int same(const result *a, const result *b)
{
    if (a->status != b->status || a->line != b->line) {
        return 0;
    }
    if (a->status != 0) {
        return 1;   /* the rows before an error are not compared */
    }
    if (a->n_rows != b->n_rows || a->nnz != b->nnz || a->base != b->base) {
        return 0;
    }
    if (a->n_rows && (memcmp(a->labels, b->labels, (size_t)a->n_rows * sizeof(double)) != 0
                      || memcmp(a->indptr, b->indptr, (size_t)(a->n_rows + 1) * 8) != 0)) {
        return 0;
    }
    if (a->nnz && (memcmp(a->indices, b->indices, (size_t)a->nnz * 8) != 0
                   || memcmp(a->data, b->data, (size_t)a->nnz * sizeof(double)) != 0)) {
        return 0;
    }
    return 1;
}

/* Every way of cutting the input gives the reading of the whole. */
static void all_readings_agree(const char *input, size_t len, const ptn_svm_options *o)
{
    result whole, other;
    size_t cut, *each = (size_t *)malloc((len + 1) * sizeof(size_t));
    ptn_svm_options batched = *o;
    size_t i;
    if (each == NULL) {
        exit(2);
    }
    parse(input, len, NULL, 0, o, &whole);
    for (cut = 0; cut <= len; cut++) {
        parse(input, len, &cut, 1, o, &other);
        check(same(&whole, &other), "one cut", input);
        result_free(&other);
    }
    for (i = 0; i < len; i++) {
        each[i] = i + 1;
    }
    parse(input, len, each, len, o, &other);
    check(same(&whole, &other), "byte by byte", input);
    result_free(&other);
    /* batches: with an automatic base, the first batch decides it, so only
     * a fixed base must give the whole file's reading (auto runs for the
     * sanitizers) */
    batched.max_rows = 1;
    parse(input, len, each, len, &batched, &other);
    check(o->base == PTN_SVM_BASE_AUTO || same(&whole, &other), "one row per batch, byte by byte",
          input);
    result_free(&other);
    batched.max_rows = 2;
    parse(input, len, NULL, 0, &batched, &other);
    check(o->base == PTN_SVM_BASE_AUTO || same(&whole, &other), "two rows per batch", input);
    result_free(&other);
    result_free(&whole);
    free(each);
}

static void expect(const char *input, int base, int status, int64_t line, int64_t n_rows,
                   int64_t nnz)
{
    ptn_svm_options o = {PTN_SVM_FLOAT64, PTN_SVM_INT64, PTN_SVM_BASE_AUTO, 0};
    result r;
    o.base = base;
    parse(input, strlen(input), NULL, 0, &o, &r);
    check(r.status == status, "expected status", input);
    check(r.line == line, "expected error line", input);
    if (status == 0) {
        check(r.n_rows == n_rows && r.nnz == nnz, "expected shape", input);
    }
    result_free(&r);
}

/* Bounded reading: a line past the longest allowed, or a line that cannot
 * start with a label, fails at once, without the rest of the input. */
static void bounded_reading(void)
{
    static char zeros[1 << 16];
    ptn_svm_options o = {PTN_SVM_FLOAT64, PTN_SVM_INT64, PTN_SVM_BASE_AUTO, 0};
    ptn_svm_parser *p;
    size_t used = 0, k;
    int s = PTN_SVM_OK;
    int64_t plus, bare;

    /* NUL bytes (/dev/zero), a gzip header: refused by the first feed */
    p = ptn_svm_new(&o);
    s = ptn_svm_feed(p, zeros, sizeof zeros, &used);
    check(s == PTN_SVM_ERR_LABEL && ptn_svm_last_error(p)->line == 1, "NUL bytes refused", "");
    ptn_svm_free(p);
    p = ptn_svm_new(&o);
    memcpy(zeros, "  \x1f\x8b\x08", 5);
    s = ptn_svm_feed(p, zeros, 100, &used);
    check(s == PTN_SVM_ERR_LABEL, "binary start refused", "");
    ptn_svm_free(p);
    memset(zeros, 0, 5);

    /* one endless line: an error once it passes the limit, fed in pieces */
    p = ptn_svm_new(&o);
    check(ptn_svm_set_max_line(p, 1000) == PTN_SVM_OK, "set_max_line", "");
    s = PTN_SVM_OK;
    for (k = 0; k < 200 && s >= 0; k++) {
        s = ptn_svm_feed(p, "1 1:1 2:2 ", 10, &used);
    }
    check(s == PTN_SVM_ERR_LINE_TOO_LONG && k == 101 && ptn_svm_last_error(p)->line == 1,
          "endless line refused past the limit", "");
    check(ptn_svm_set_max_line(p, 5) == PTN_SVM_ERR_USAGE, "set_max_line after feed", "");
    ptn_svm_free(p);

    /* within the limit, line by line; the limit counts the bytes before '\n' */
    p = ptn_svm_new(&o);
    ptn_svm_set_max_line(p, 7);
    s = ptn_svm_feed(p, "1 1:1\r\n+2 2:2\n-1 3:1\n+1 1:2345\n", 30, &used);
    check(s == PTN_SVM_ERR_LINE_TOO_LONG && ptn_svm_last_error(p)->line == 4, "limit of 7 bytes",
          "");
    ptn_svm_label_signs(p, &plus, &bare);
    check(plus == 1 && bare == 1, "label signs", "");
    ptn_svm_free(p);
}

/* An allocator that counts the bytes it holds (blocks carry their size). */
static size_t held;

static void *counted_resize(void *block, size_t bytes)
{
    size_t *q, old = block != NULL ? ((size_t *)block)[-1] : 0;
    q = (size_t *)realloc(block != NULL ? (size_t *)block - 1 : NULL, bytes + sizeof(size_t));
    if (q == NULL) {
        return NULL;
    }
    held = held - old + bytes;
    q[0] = bytes;
    return q + 1;
}

static void counted_release(void *block)
{
    if (block != NULL) {
        held -= ((size_t *)block)[-1];
        free((size_t *)block - 1);
    }
}

/* Binary rows: indices alone, no values array; a value other than 1 fails
 * on its line; every block from the allocator given. */
static void binary_rows(void)
{
    ptn_svm_options o = {PTN_SVM_FLOAT32, PTN_SVM_INT32, PTN_SVM_BASE_ONE, 0};
    ptn_svm_allocator counted = {counted_resize, counted_release};
    ptn_svm_parser *p;
    ptn_svm_rows rows;
    size_t used = 0;
    int s;
    const char *ok = "1 1:1 3:1.0\n-1 2:+1e0 4:1.0000000001\n";

    p = ptn_svm_new_with(&o, &counted);
    check(p != NULL && held > 0, "allocator used", "");
    check(ptn_svm_set_binary(p) == PTN_SVM_OK, "set_binary", "");
    s = ptn_svm_feed(p, ok, strlen(ok), &used);
    check(s == PTN_SVM_OK && ptn_svm_finish(p) == PTN_SVM_OK, "binary rows parse", "");
    check(ptn_svm_take(p, &rows) == PTN_SVM_OK && rows.data == NULL && rows.nnz == 4
          && ((int32_t *)rows.indices)[3] == 3 && ((int32_t *)rows.indptr)[2] == 4,
          "binary rows without values", "");
    counted_release(rows.indices);
    counted_release(rows.indptr);
    counted_release(rows.labels);
    check(ptn_svm_set_binary(p) == PTN_SVM_ERR_USAGE, "set_binary after feed", "");
    ptn_svm_free(p);
    check(held == 0, "every block released", "");

    o.value_type = PTN_SVM_FLOAT64;   /* 1.0000000001 is not 1 as a double */
    p = ptn_svm_new(&o);
    ptn_svm_set_binary(p);
    s = ptn_svm_feed(p, ok, strlen(ok), &used);
    check(s == PTN_SVM_ERR_NOT_BINARY && ptn_svm_last_error(p)->line == 2,
          "a value other than 1 refused on its line", ptn_svm_last_error(p)->message);
    ptn_svm_free(p);
    p = ptn_svm_new(&o);
    ptn_svm_set_binary(p);
    s = ptn_svm_feed(p, "1 1:1\n1 2:0\n", 12, &used);
    check(s == PTN_SVM_ERR_NOT_BINARY && ptn_svm_last_error(p)->line == 2, "a zero refused", "");
    ptn_svm_free(p);
}

/* A widening parser: int32 indices until the input needs int64 ones, then
 * the rows of an int64 parser. */
static void widening(void)
{
    static const char *inputs[] = {
        "1 1:1 3:2\n-1 2147483648:1\n1 5:1\n",          /* 2**31 - 1: no room for n_features */
        "1 1:1\n-1 2147483649:1 2:1\n1 7:3\n",           /* one-based: 2**31 */
        "1 2147483647:1\n1 0:1\n",                       /* zero-based once resolved */
        "1 3:1\n2 4:1\n",                                /* fits: stays int32 */
    };
    static const int bases[] = {PTN_SVM_BASE_AUTO, PTN_SVM_BASE_ONE, PTN_SVM_BASE_ZERO};
    size_t c, b, k, used;
    for (c = 0; c < sizeof inputs / sizeof inputs[0]; c++) {
        for (b = 0; b < 3; b++) {
            ptn_svm_options o = {PTN_SVM_FLOAT64, PTN_SVM_INT32, bases[b], 0};
            ptn_svm_options o64 = {PTN_SVM_FLOAT64, PTN_SVM_INT64, bases[b], 0};
            ptn_svm_parser *p = ptn_svm_new(&o), *q = ptn_svm_new(&o64);
            ptn_svm_rows a, r;
            int sa, sq, same;
            const char *text = inputs[c];
            check(ptn_svm_set_widening(p) == PTN_SVM_OK, "set_widening", text);
            sa = ptn_svm_feed(p, text, strlen(text), &used);
            sq = ptn_svm_feed(q, text, strlen(text), &used);
            if (sa == PTN_SVM_OK && sq == PTN_SVM_OK) {
                sa = ptn_svm_finish(p) < 0 ? -1 : ptn_svm_resolve_base(p);
                sq = ptn_svm_finish(q) < 0 ? -1 : ptn_svm_resolve_base(q);
            }
            check((sa < 0) == (sq < 0), "widening fails where int64 fails", text);
            if (sa < 0 || sq < 0) {
                ptn_svm_free(p);
                ptn_svm_free(q);
                continue;
            }
            ptn_svm_take(p, &a);
            ptn_svm_take(q, &r);
            same = a.n_rows == r.n_rows && a.nnz == r.nnz;
            for (k = 0; same && k < (size_t)a.nnz; k++) {
                int64_t ia = ptn_svm_current_index_type(p) == PTN_SVM_INT32 ? ((int32_t *)a.indices)[k]
                                                                   : ((int64_t *)a.indices)[k];
                same = ia == ((int64_t *)r.indices)[k]
                       && ((double *)a.data)[k] == ((double *)r.data)[k];
            }
            for (k = 0; same && k <= (size_t)a.n_rows; k++) {
                int64_t pa = ptn_svm_current_index_type(p) == PTN_SVM_INT32 ? ((int32_t *)a.indptr)[k]
                                                                   : ((int64_t *)a.indptr)[k];
                same = pa == ((int64_t *)r.indptr)[k];
            }
            check(same, "widened rows are the int64 parser's", text);
            check((ptn_svm_current_index_type(p) == PTN_SVM_INT32) == (c == 3),
                  "widened exactly when needed", text);
            ptn_svm_rows_release(&a);
            ptn_svm_rows_release(&r);
            ptn_svm_free(p);
            ptn_svm_free(q);
        }
    }
    {
        ptn_svm_options o = {PTN_SVM_FLOAT64, PTN_SVM_INT64, PTN_SVM_BASE_AUTO, 0};
        ptn_svm_parser *p = ptn_svm_new(&o);
        check(ptn_svm_set_widening(p) == PTN_SVM_ERR_USAGE, "widening needs int32", "");
        ptn_svm_free(p);
    }
}

static const char *cases[] = {
    "",
    "\n",
    "1",
    "1 1:2",
    "+1 3:1 1:2.5 # comment\n-1 qid:3 2:1e-3\n\n  +1 5:nan 7:inf",
    "# header\n\n1 1:1\r\n-1 2:2 \r\n",
    "1 2:0.1 1:0.2 3:0.3\n0 10:1 9:1 8:1 7:1 6:1 5:1 4:1 3:1 2:1 1:1\n",
    "1 0:1\n1 1:1\n",
    "1 1:1 1:2\n",
    "1 2:1 1:1 2:3\n",
    "x 1:1\n",
    "1 a:1\n",
    "1 1\n",
    "1 1:\n",
    "1 :1\n",
    "1 1:1e\n",
    "1 1:--1\n",
    "1 qid:1 qid:2 1:1\n",
    "1 qid: 1:1\n",
    "1 -1:1\n",
    "1 99999999999999999999:1\n",
    "1 9223372036854775807:1\n",
    "1 9223372036854775806:1\n",
    "1 2147483647:1 2147483648:1\n",
    "1\t2:3\v4:5\f6:7\n",
    "1 1:1#c\n#\n#\n1 2:2",
    "1 1:1\n\x00 1:1\n",
    "1 1:0x1p3\n",
    "1e400 1:1e-400 2:-0 3:4.9406564584124654e-324 4:1.7976931348623157e308\n",
    "1 1:123456789012345678901234567890 2:.5 3:5. 4:-.5e+3 5:0000000000001\n",
    "1 1:0.1000000000000000055511151231257827021181583404541015625\n",
    "-inf 1:INF 2:-Infinity 3:NaN 4:-nan\n",
    "1 1:1 # 2:2\n2 2:2",
    "1 1:1\n\x01\x02\x03 and more bytes than the eighty shown of a line, "
    "to be refused before its end\n",
    "  \x7f\x45\x4c\x46 more and more bytes, more than eighty of them, "
    "a binary file's start, no newline",
    "1 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9 10:10 11:11 12:12 13:13 14:14 15:15 16:16\n1",
};

int main(void)
{
    static const int value_types[] = {PTN_SVM_FLOAT64, PTN_SVM_FLOAT32};
    static const int index_types[] = {PTN_SVM_INT64, PTN_SVM_INT32};
    static const int bases[] = {PTN_SVM_BASE_AUTO, PTN_SVM_BASE_ZERO, PTN_SVM_BASE_ONE};
    static const char alphabet[] = "0123456789:.-+e #\n\r\tqidnaf:1 1:";
    unsigned long long state = 0x9E3779B97F4A7C15ULL;
    const size_t n_cases = sizeof cases / sizeof cases[0];
    size_t c, v, i, b;
    char buf[96];

    /* outcomes worked out by hand */
    expect("", PTN_SVM_BASE_AUTO, 0, 0, 0, 0);
    expect("1 3:1 1:2\n-1\n", PTN_SVM_BASE_AUTO, 0, 0, 2, 2);
    expect("# c\n\n1 1:1\r\n\n1 x:1\n", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_INDEX, 5, 0, 0);
    expect("1 1:1\n1 0:1\n", PTN_SVM_BASE_ONE, PTN_SVM_ERR_ZERO_INDEX, 2, 0, 0);
    expect("1 2:1 1:1 2:3\n", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_DUPLICATE, 1, 0, 0);
    expect("1 1:1\nx\n", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_LABEL, 2, 0, 0);
    expect("1 1\n", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_FEATURE, 1, 0, 0);
    expect("1 1:a\n", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_VALUE, 1, 0, 0);
    expect("1 qid:x 1:1\n", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_QID, 1, 0, 0);
    expect("1 9223372036854775807:1\n", PTN_SVM_BASE_ZERO, PTN_SVM_ERR_INDEX_RANGE, 1, 0, 0);
    expect("1 9223372036854775807:1\n", PTN_SVM_BASE_ONE, 0, 0, 1, 1);
    expect("1 9223372036854775807:1\n1 0:1", PTN_SVM_BASE_AUTO, PTN_SVM_ERR_INDEX_RANGE, 1, 0, 0);
    expect("1 1:1 # 2:2\n2 2:2", PTN_SVM_BASE_AUTO, 0, 0, 2, 2);
    bounded_reading();
    binary_rows();
    widening();

    /* every case again with lines of at most 12 and 90 bytes: the same
     * outcome however the input is cut */
    for (c = 0; c < 3 * n_cases; c++) {
        max_line = c < n_cases ? -1 : c < 2 * n_cases ? 12 : 90;
        for (v = 0; v < 2; v++) {
            for (i = 0; i < 2; i++) {
                for (b = 0; b < 3; b++) {
                    ptn_svm_options o;
                    o.value_type = value_types[v];
                    o.index_type = index_types[i];
                    o.base = bases[b];
                    o.max_rows = 0;
                    all_readings_agree(cases[c % n_cases], strlen(cases[c % n_cases]), &o);
                }
            }
        }
    }
    for (c = 0; c < 3000; c++) {
        size_t len, k;
        ptn_svm_options o = {PTN_SVM_FLOAT64, PTN_SVM_INT64, PTN_SVM_BASE_AUTO, 0};
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        len = (size_t)(state % 80);
        for (k = 0; k < len; k++) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            /* mostly the format's characters, now and then any byte */
            buf[k] = (state >> 32) % 8 == 0 ? (char)(state >> 40)
                                            : alphabet[(state >> 20) % (sizeof alphabet - 1)];
        }
        buf[len] = '\0';
        o.index_type = c % 2 ? PTN_SVM_INT32 : PTN_SVM_INT64;
        o.value_type = c % 3 ? PTN_SVM_FLOAT64 : PTN_SVM_FLOAT32;
        o.base = bases[c % 3];
        max_line = c % 4 == 0 ? (int64_t)(c / 4 % 20) : -1;
        all_readings_agree(buf, len, &o);
    }
    if (failures) {
        printf("%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("svmlight parser: all %d checks pass\n", checks);
    return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * svmlight_lines.c - the parsing of one complete line of svmlight / libsvm
 * text into a row of the parser (ptn_svmlight_parser.h): its numbers, its
 * features, the checks of its indices.
 *
 * Numbers: Clinger's fast path (1990, "How to read floating point numbers
 * accurately") when the decimal significand has at most 19 digits, fits in
 * 53 bits and the power of ten is exact (|e| <= 22): one correctly rounded
 * multiplication or division.  Anything else goes to the C library's strtod
 * (correctly rounded in glibc, musl, macOS and the UCRT) on a NUL-terminated
 * copy whose '.' is replaced by the locale's decimal point, so the result
 * does not depend on LC_NUMERIC.
 */
#include "ptn_svmlight_parser.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double exact_powers_of_ten[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* ----------------------------------------------------------------- numbers */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

int ptn_svm_refused_start(const char *s, size_t n, size_t *blank)
{
    size_t i = *blank;
    unsigned char c;
    while (i < n && is_space(s[i])) {
        i++;
    }
    *blank = i;
    if (i == n) {
        return 0;
    }
    c = (unsigned char)s[i];
    /* a number's first byte ([+-.0-9], inf, nan) or a comment's */
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == '#'
        || lower((char)c) == 'i' || lower((char)c) == 'n') {
        return 0;
    }
    return n - i > PTN_SVM_TEXT_SHOWN;
}

/* [s, e) equals the lower-case word w, ignoring case. */
static int word_is(const char *s, const char *e, const char *w)
{
    size_t n = strlen(w);
    size_t i;
    if ((size_t)(e - s) != n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (lower(s[i]) != w[i]) {
            return 0;
        }
    }
    return 1;
}

/* strtod on a NUL-terminated copy of [s, e), '.' replaced by the locale's
 * decimal point.  The text has been checked against the grammar. */
static int slow_double(ptn_svm_parser *p, const char *s, const char *e, double *out)
{
    size_t n = (size_t)(e - s);
    size_t dp = strlen(p->decimal_point);
    size_t i, o = 0;
    char *end;
    int saved_errno;
    double v;
    if (n > (SIZE_MAX - 1) / (dp + 1)) {
        return -1;
    }
    if (ptn_svm_reserve(p, (void **)&p->num, &p->num_cap, n * (dp + 1) + 1, 1, 64) != 0) {
        return -2;
    }
    for (i = 0; i < n; i++) {
        if (s[i] == '.') {
            memcpy(p->num + o, p->decimal_point, dp);
            o += dp;
        } else {
            p->num[o++] = s[i];
        }
    }
    p->num[o] = '\0';
    saved_errno = errno;
    v = strtod(p->num, &end);
    errno = saved_errno;    /* ERANGE: the result is already +-inf or a subnormal/0 */
    if (end != p->num + o) {
        return -1;
    }
    *out = v;
    return 0;
}

static const char *token_end(const char *q, const char *e)
{
    while (q < e && !is_space(*q)) {
        q++;
    }
    return q;
}

/* The number that starts at s and must end at e or at a space: its value
 * in *out and its end in *stop.  0 on success, -1 if the token is not a
 * number, -2 if memory ran out. */
static int parse_number(ptn_svm_parser *p, const char *s, const char *e, double *out,
                        const char **stop)
{
    const char *q = s;
    int negative = 0, any_digit = 0, inexact = 0, digits = 0;
    uint64_t mantissa = 0;
    int64_t exp10 = 0, exp_value = 0;
    if (q < e && (*q == '+' || *q == '-')) {
        negative = *q == '-';
        q++;
    }
    if (q == e) {
        return -1;
    }
    if (!((*q >= '0' && *q <= '9') || *q == '.')) {
        const char *t = token_end(q, e);
        *stop = t;
        if (word_is(q, t, "inf") || word_is(q, t, "infinity")) {
            *out = negative ? -HUGE_VAL : HUGE_VAL;
            return 0;
        }
        if (word_is(q, t, "nan")) {
            *out = negative ? -NAN : NAN;
            return 0;
        }
        return -1;
    }
    for (; q < e && *q >= '0' && *q <= '9'; q++) {
        int d = *q - '0';
        any_digit = 1;
        if (mantissa == 0 && d == 0) {
            continue;
        }
        if (digits < 19) {
            mantissa = mantissa * 10 + (uint64_t)d;
            digits++;
        } else {
            exp10++;
            inexact |= d != 0;
        }
    }
    if (q < e && *q == '.') {
        for (q++; q < e && *q >= '0' && *q <= '9'; q++) {
            int d = *q - '0';
            any_digit = 1;
            if (mantissa == 0 && d == 0) {
                exp10--;
                continue;
            }
            if (digits < 19) {
                mantissa = mantissa * 10 + (uint64_t)d;
                digits++;
                exp10--;
            } else {
                inexact |= d != 0;
            }
        }
    }
    if (!any_digit) {
        return -1;
    }
    if (q < e && (*q == 'e' || *q == 'E')) {
        int exp_negative = 0, exp_digits = 0;
        q++;
        if (q < e && (*q == '+' || *q == '-')) {
            exp_negative = *q == '-';
            q++;
        }
        for (; q < e && *q >= '0' && *q <= '9'; q++) {
            exp_digits = 1;
            if (exp_value < 100000000) {   /* saturate: far beyond any double */
                exp_value = exp_value * 10 + (*q - '0');
            }
        }
        if (!exp_digits) {
            return -1;
        }
        exp10 += exp_negative ? -exp_value : exp_value;
    }
    if (q != e && !is_space(*q)) {
        return -1;
    }
    *stop = q;
    if (mantissa == 0) {
        *out = negative ? -0.0 : 0.0;
        return 0;
    }
#if PTN_SVM_FAST_PATH
    if (!inexact && mantissa <= ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22) {
        double v = (double)mantissa;
        v = exp10 >= 0 ? v * exact_powers_of_ten[exp10] : v / exact_powers_of_ten[-exp10];
        *out = negative ? -v : v;
        return 0;
    }
#else
    (void)inexact;
    (void)exact_powers_of_ten;
#endif
    return slow_double(p, s, q, out);
}

/* A double rounded to float without undefined behaviour: beyond FLT_MAX
 * (by half an ulp or more) the result is an infinity, as IEEE rounding gives. */
static float to_float(double v)
{
    if (v > FLT_MAX || v < -FLT_MAX) {
        double limit = (double)FLT_MAX + ldexp(1.0, 103);   /* FLT_MAX + ulp/2 */
        double a = v < 0 ? -v : v;
        float r = a < limit ? FLT_MAX : (float)HUGE_VAL;
        return v < 0 ? -r : r;
    }
    return (float)v;
}

/* The feature index that starts at s, up to the first non-digit, in *out
 * and its end in *stop.  0: digits (at most limit); 1: no digits; 2: more
 * than limit; 3: a '-' and digits. */
static int scan_index(const char *s, const char *e, int64_t limit, int64_t *out,
                      const char **stop)
{
    const char *q = s;
    int64_t v = 0;
    int too_large = 0, negative = 0;
    if (q < e && (*q == '+' || *q == '-')) {
        negative = *q == '-';
        q++;
    }
    if (q == e || *q < '0' || *q > '9') {
        *stop = q;
        return 1;
    }
    for (; q < e && *q >= '0' && *q <= '9'; q++) {
        int d = *q - '0';
        if (!too_large) {
            if (v > (limit - d) / 10) {
                too_large = 1;
            } else {
                v = v * 10 + d;
            }
        }
    }
    *stop = q;
    if (negative) {
        return 3;
    }
    if (too_large) {
        return 2;
    }
    *out = v;
    return 0;
}

/* A signed 64-bit integer [s, e). */
static int parse_int64(const char *s, const char *e)
{
    const char *q = s;
    uint64_t v = 0, limit = (uint64_t)INT64_MAX;
    if (q < e && (*q == '+' || *q == '-')) {
        if (*q == '-') {
            limit += 1;
        }
        q++;
    }
    if (q == e) {
        return -1;
    }
    for (; q < e; q++) {
        unsigned d;
        if (*q < '0' || *q > '9') {
            return -1;
        }
        d = (unsigned)(*q - '0');
        if (v > (limit - d) / 10) {
            return -1;
        }
        v = v * 10 + d;
    }
    return 0;
}

/* ------------------------------------------------------------------- rows */

static int cmp_pair(const void *a, const void *b)
{
    int64_t x = ((const pair *)a)->index, y = ((const pair *)b)->index;
    return (x > y) - (x < y);
}

static void sort_row(pair *row, size_t n)
{
    size_t i, j;
    if (n > SMALL_SORT) {
        qsort(row, n, sizeof(pair), cmp_pair);
        return;
    }
    for (i = 1; i < n; i++) {
        pair t = row[i];
        for (j = i; j > 0 && row[j - 1].index > t.index; j--) {
            row[j] = row[j - 1];
        }
        row[j] = t;
    }
}

static int64_t raw_index(const ptn_svm_parser *p, int64_t column)
{
    return p->base == PTN_SVM_BASE_ONE ? column + 1 : column;
}

/* Append the parsed row (p->row) with its label. */
static int emit_row(ptn_svm_parser *p, double label, int64_t line, int unsorted,
                    const char *ls, const char *le)
{
    size_t n = p->row_len, i;
    uint64_t total;
    if (unsorted) {
        sort_row(p->row, n);
        for (i = 1; i < n; i++) {
            if (p->row[i].index == p->row[i - 1].index) {
                return ptn_svm_fail(p, PTN_SVM_ERR_DUPLICATE, line, ls, le,
                            "feature index %" PRId64 " appears more than once",
                            raw_index(p, p->row[i].index));
            }
        }
    }
    total = (uint64_t)p->nnz + (uint64_t)n;
    /* a widening parser turns int64 before an index or a count past int32's */
    if (PTN_UNLIKELY((n > 0 && p->row[n - 1].index > p->index_max)
                     || total > (uint64_t)p->type_max)
        && ptn_svm_may_widen(p) && ptn_svm_widen(p) != 0) {
        return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
    }
    if (total > (uint64_t)p->type_max || total > (uint64_t)SIZE_MAX) {
        return ptn_svm_fail(p, PTN_SVM_ERR_TOO_MANY, line, ls, le,
                    "more than %" PRId64 " non-zero values: too many for %s row pointers",
                    p->type_max, p->opt.index_type == PTN_SVM_INT32 ? "int32" : "int64");
    }
    /* the capacities checked here: a call into svmlight.c only to grow */
    if (((size_t)total > p->nnz_cap && ptn_svm_grow_nnz(p, (size_t)total) != 0)
        || ((size_t)p->n_rows + 1 > p->row_cap
            && ptn_svm_grow_rows(p, (size_t)p->n_rows + 1) != 0)) {
        return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
    }
    if (p->binary) {
        /* no values: each was checked to be 1 */
    } else if (p->opt.value_type == PTN_SVM_FLOAT32) {
        float *dst = (float *)p->data + p->nnz;
        for (i = 0; i < n; i++) {
            dst[i] = to_float(p->row[i].value);
        }
    } else {
        double *dst = (double *)p->data + p->nnz;
        for (i = 0; i < n; i++) {
            dst[i] = p->row[i].value;
        }
    }
    if (p->opt.index_type == PTN_SVM_INT32) {
        int32_t *dst = (int32_t *)p->indices + p->nnz;
        for (i = 0; i < n; i++) {
            dst[i] = (int32_t)p->row[i].index;
        }
    } else {
        int64_t *dst = (int64_t *)p->indices + p->nnz;
        for (i = 0; i < n; i++) {
            dst[i] = p->row[i].index;
        }
    }
    if (n > 0) {
        if (p->row[n - 1].index > p->max_index) {
            p->max_index = p->row[n - 1].index;
            p->max_index_line = line;
        }
        if (p->row[0].index == 0 && p->base != PTN_SVM_BASE_ONE && p->first_zero_line == 0) {
            p->first_zero_line = line;
        }
    }
    p->labels[p->n_rows] = label;
    p->nnz = (int64_t)total;
    p->n_rows++;
    ptn_svm_set_indptr(p, p->n_rows, p->nnz);
    return PTN_SVM_OK;
}

/* Parse one complete line [ls, le) (without its '\n'): 1 if it made a row,
 * 0 if it was blank, or an error code. */
static int parse_line(ptn_svm_parser *p, const char *ls, const char *le, int64_t line)
{
    const char *q = ls, *e = le, *t;
    const char *hash = (const char *)memchr(ls, '#', (size_t)(le - ls));
    char token[TOKEN_SHOWN * 4 + 8];
    double label;
    int unsorted = 0, qid_seen = 0, r;
    int64_t last = -1;
    int64_t raw_limit;
    const int binary = p->binary;
    /* the index type's limit (int64's while a widening parser may widen) */
    const int64_t type_max = ptn_svm_may_widen(p) ? INT64_MAX : p->type_max;
    if (hash != NULL) {
        e = hash;
    }
    while (q < e && is_space(*q)) {
        q++;
    }
    if (q == e) {
        return 0;
    }
    r = parse_number(p, q, e, &label, &t);
    if (r != 0) {
        if (r == -2) {
            return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
        }
        ptn_svm_quote_token(token, sizeof token, q, token_end(q, e));
        return ptn_svm_fail(p, PTN_SVM_ERR_LABEL, line, ls, le,
                    "the label '%s' is not a number (each line starts with its label)", token);
    }
    if (label > 0) {
        if (*q == '+') {
            p->plus_labels++;
        } else {
            p->bare_labels++;
        }
    }
    q = t;
    p->row_len = 0;
    /* the largest index as written that the base in force lets through */
    raw_limit = p->base == PTN_SVM_BASE_ZERO ? type_max - 1 : type_max;
    for (;;) {
        const char *start;
        int64_t index = 0;
        double value;
        while (q < e && is_space(*q)) {
            q++;
        }
        if (q == e) {
            break;
        }
        start = q;
        if (!qid_seen && p->row_len == 0 && e - q >= 4 && memcmp(q, "qid:", 4) == 0) {
            t = token_end(q, e);
            if (parse_int64(q + 4, t) != 0) {
                ptn_svm_quote_token(token, sizeof token, q, t);
                return ptn_svm_fail(p, PTN_SVM_ERR_QID, line, ls, le,
                            "'%s': the query id must be a 64-bit integer", token);
            }
            qid_seen = 1;   /* one qid, and only before the features */
            q = t;
            continue;
        }
        r = scan_index(q, e, raw_limit, &index, &q);
        if (r != 0 || q == e || *q != ':') {
            const char *colon;
            t = token_end(start, e);
            colon = (const char *)memchr(start, ':', (size_t)(t - start));
            if (colon == NULL) {
                ptn_svm_quote_token(token, sizeof token, start, t);
                return ptn_svm_fail(p, PTN_SVM_ERR_FEATURE, line, ls, le,
                            "'%s' is not a feature (expected index:value)", token);
            }
            if (q == colon && r == 2) {
                ptn_svm_quote_token(token, sizeof token, start, colon);
                return ptn_svm_fail(p, PTN_SVM_ERR_INDEX_RANGE, line, ls, le,
                            "feature index %s is too large for %s column indices (at most "
                            "%" PRId64 " as written in a %s-based file, so that n_features fits)",
                            token, type_max == INT32_MAX ? "int32" : "int64", raw_limit, p->base == PTN_SVM_BASE_ZERO ? "zero" : "one");
            }
            if (q == colon && r == 3) {
                ptn_svm_quote_token(token, sizeof token, start, colon);
                return ptn_svm_fail(p, PTN_SVM_ERR_INDEX, line, ls, le,
                            "feature index %s is negative", token);
            }
            ptn_svm_quote_token(token, sizeof token, start, t);
            return ptn_svm_fail(p, PTN_SVM_ERR_INDEX, line, ls, le,
                        "'%s': the feature index is not a non-negative integer", token);
        }
        if (p->base == PTN_SVM_BASE_ONE) {
            if (index == 0) {
                return ptn_svm_fail(p, PTN_SVM_ERR_ZERO_INDEX, line, ls, le,
                            "feature index 0 in a file read as one-based (indices start at 1)");
            }
            index -= 1;
        }
        r = parse_number(p, q + 1, e, &value, &t);
        if (r != 0) {
            if (r == -2) {
                return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
            }
            ptn_svm_quote_token(token, sizeof token, start, token_end(start, e));
            return ptn_svm_fail(p, PTN_SVM_ERR_VALUE, line, ls, le,
                        "'%s': the feature value is not a number", token);
        }
        if (PTN_UNLIKELY(binary) && !(p->opt.value_type == PTN_SVM_FLOAT32
                                      ? to_float(value) == 1.0f : value == 1.0)) {
            ptn_svm_quote_token(token, sizeof token, start, token_end(start, e));
            return ptn_svm_fail(p, PTN_SVM_ERR_NOT_BINARY, line, ls, le,
                        "'%s': a value other than 1 in binary rows", token);
        }
        if (p->row_len > 0) {
            if (index == last) {
                return ptn_svm_fail(p, PTN_SVM_ERR_DUPLICATE, line, ls, le,
                            "feature index %" PRId64 " appears more than once",
                            raw_index(p, index));
            }
            unsorted |= index < last;
        }
        if (p->row_len == p->pair_cap
            && ptn_svm_reserve(p, (void **)&p->row, &p->pair_cap, p->row_len + 1, sizeof(pair), 64) != 0) {
            return ptn_svm_fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
        }
        p->row[p->row_len].index = index;
        p->row[p->row_len].value = value;
        p->row_len++;
        last = index;
        q = t;
    }
    r = emit_row(p, label, line, unsorted, ls, le);
    return r < 0 ? r : 1;
}

int ptn_svm_process_line(ptn_svm_parser *p, const char *ls, const char *le)
{
    int64_t line = p->line + 1;
    int r = parse_line(p, ls, le, line);
    p->line = line;
    if (r < 0) {
        return r;
    }
    if (r == 1 && p->opt.max_rows > 0 && p->n_rows >= p->opt.max_rows) {
        return PTN_SVM_FULL;
    }
    return PTN_SVM_OK;
}

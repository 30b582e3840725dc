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
#include "ptn_model_file.h"

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

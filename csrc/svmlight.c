/*
 * svmlight.c - the streaming svmlight / libsvm parser of ptn_svmlight.h.
 *
 * A line is parsed only when it is complete (up to its '\n', or the end of
 * the input), from the caller's buffer when it lies inside one chunk, else
 * from the parser's carry buffer; so every scan is bounded by an end pointer
 * and no input byte is read twice except for a carried line.  A row goes to
 * the output only once its whole line parsed, so an error leaves the rows
 * before it intact.
 *
 * Numbers: Clinger's fast path (1990, "How to read floating point numbers
 * accurately") when the decimal significand has at most 19 digits, fits in
 * 53 bits and the power of ten is exact (|e| <= 22): one correctly rounded
 * multiplication or division.  Anything else goes to the C library's strtod
 * (correctly rounded in glibc, musl, macOS and the UCRT) on a NUL-terminated
 * copy whose '.' is replaced by the locale's decimal point, so the result
 * does not depend on LC_NUMERIC.
 */
#include "ptn_svmlight.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fast path needs double arithmetic without excess precision (x87
 * double rounding would break its exactness). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define PTN_SVM_FAST_PATH 1
#else
#define PTN_SVM_FAST_PATH 0
#endif

#define INITIAL_ROWS 256
#define INITIAL_NNZ 1024
#define TOKEN_SHOWN 40          /* bytes of an offending token quoted in a message */
#define SMALL_SORT 32           /* rows up to this length are sorted by insertion */

typedef struct pair {
    int64_t index;
    double value;
} pair;

struct ptn_svm_parser {
    ptn_svm_options opt;
    int base;                   /* the base in force */
    int status;                 /* 0, or the sticky error */
    int finished;
    int64_t line;               /* complete lines read so far */
    int64_t index_max;          /* largest column index the index type allows */
    int64_t type_max;           /* INT32_MAX or INT64_MAX */

    /* the rows waiting to be taken */
    int64_t n_rows;
    int64_t nnz;
    size_t row_cap;             /* labels: row_cap, indptr: row_cap + 1 */
    size_t nnz_cap;
    void *data;
    void *indices;
    void *indptr;
    double *labels;

    int64_t max_index;
    int64_t max_index_line;
    int64_t first_zero_line;

    char *carry;                /* a line cut by the end of a chunk */
    size_t carry_len;
    size_t carry_cap;

    pair *row;                  /* the line being parsed */
    size_t row_len;
    size_t pair_cap;

    char *num;                  /* NUL-terminated copy of a number for strtod */
    size_t num_cap;
    char decimal_point[8];

    ptn_svm_error err;
};

static const double exact_powers_of_ten[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* ------------------------------------------------------------------ memory */

/* Grow *buf to hold at least `need` elements of `size` bytes (doubling). */
static int reserve(void **buf, size_t *cap, size_t need, size_t size, size_t floor)
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
    q = realloc(*buf, c * size);
    if (q == NULL) {
        return -1;
    }
    *buf = q;
    *cap = c;
    return 0;
}

static size_t index_size(const ptn_svm_parser *p)
{
    return p->opt.index_type == PTN_SVM_INT32 ? sizeof(int32_t) : sizeof(int64_t);
}

static size_t value_size(const ptn_svm_parser *p)
{
    return p->opt.value_type == PTN_SVM_FLOAT32 ? sizeof(float) : sizeof(double);
}

static void set_indptr(ptn_svm_parser *p, int64_t i, int64_t v)
{
    if (p->opt.index_type == PTN_SVM_INT32) {
        ((int32_t *)p->indptr)[i] = (int32_t)v;
    } else {
        ((int64_t *)p->indptr)[i] = v;
    }
}

/* Room for `need` non-zeros in data and indices. */
static int grow_nnz(ptn_svm_parser *p, size_t need)
{
    size_t cap = p->nnz_cap;
    void *q;
    if (need <= p->nnz_cap) {
        return 0;
    }
    if (reserve(&p->data, &cap, need, value_size(p), INITIAL_NNZ) != 0
        || cap > SIZE_MAX / index_size(p)) {
        return -1;
    }
    q = realloc(p->indices, cap * index_size(p));
    if (q == NULL) {
        return -1;   /* data is larger than nnz_cap says: harmless */
    }
    p->indices = q;
    p->nnz_cap = cap;
    return 0;
}

/* Room for `need` rows: labels hold row_cap, indptr row_cap + 1 entries. */
static int grow_rows(ptn_svm_parser *p, size_t need)
{
    size_t cap = p->row_cap;
    void *q;
    if (need <= p->row_cap) {
        return 0;
    }
    if (reserve((void **)&p->labels, &cap, need, sizeof(double), INITIAL_ROWS) != 0
        || cap > SIZE_MAX / index_size(p) - 1) {
        return -1;
    }
    q = realloc(p->indptr, (cap + 1) * index_size(p));
    if (q == NULL) {
        return -1;
    }
    p->indptr = q;
    p->row_cap = cap;
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

/* Record an error on line `line` (the line's bytes [ls, le)) and return code. */
static int fail(ptn_svm_parser *p, int code, int64_t line, const char *ls, const char *le,
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

static void quote_token(char *dst, size_t cap, const char *s, const char *e)
{
    escape_into(dst, cap, s, (size_t)(e - s), TOKEN_SHOWN);
}

/* ----------------------------------------------------------------- numbers */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
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
    if (reserve((void **)&p->num, &p->num_cap, n * (dp + 1) + 1, 1, 64) != 0) {
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
                return fail(p, PTN_SVM_ERR_DUPLICATE, line, ls, le,
                            "feature index %" PRId64 " appears more than once",
                            raw_index(p, p->row[i].index));
            }
        }
    }
    total = (uint64_t)p->nnz + (uint64_t)n;
    if (total > (uint64_t)p->type_max || total > (uint64_t)SIZE_MAX) {
        return fail(p, PTN_SVM_ERR_TOO_MANY, line, ls, le,
                    "more than %" PRId64 " non-zero values: too many for %s row pointers",
                    p->type_max, p->opt.index_type == PTN_SVM_INT32 ? "int32" : "int64");
    }
    if (grow_nnz(p, (size_t)total) != 0 || grow_rows(p, (size_t)p->n_rows + 1) != 0) {
        return fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
    }
    if (p->opt.value_type == PTN_SVM_FLOAT32) {
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
    set_indptr(p, p->n_rows, p->nnz);
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
            return fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
        }
        quote_token(token, sizeof token, q, token_end(q, e));
        return fail(p, PTN_SVM_ERR_LABEL, line, ls, le,
                    "the label '%s' is not a number (each line starts with its label)", token);
    }
    q = t;
    p->row_len = 0;
    /* the largest index as written that the base in force lets through */
    raw_limit = p->base == PTN_SVM_BASE_ZERO ? p->index_max : p->type_max;
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
                quote_token(token, sizeof token, q, t);
                return fail(p, PTN_SVM_ERR_QID, line, ls, le,
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
                quote_token(token, sizeof token, start, t);
                return fail(p, PTN_SVM_ERR_FEATURE, line, ls, le,
                            "'%s' is not a feature (expected index:value)", token);
            }
            if (q == colon && r == 2) {
                quote_token(token, sizeof token, start, colon);
                return fail(p, PTN_SVM_ERR_INDEX_RANGE, line, ls, le,
                            "feature index %s is too large for %s column indices (at most "
                            "%" PRId64 " as written in a %s-based file, so that n_features fits)",
                            token, p->opt.index_type == PTN_SVM_INT32 ? "int32" : "int64",
                            raw_limit, p->base == PTN_SVM_BASE_ZERO ? "zero" : "one");
            }
            if (q == colon && r == 3) {
                quote_token(token, sizeof token, start, colon);
                return fail(p, PTN_SVM_ERR_INDEX, line, ls, le,
                            "feature index %s is negative", token);
            }
            quote_token(token, sizeof token, start, t);
            return fail(p, PTN_SVM_ERR_INDEX, line, ls, le,
                        "'%s': the feature index is not a non-negative integer", token);
        }
        if (p->base == PTN_SVM_BASE_ONE) {
            if (index == 0) {
                return fail(p, PTN_SVM_ERR_ZERO_INDEX, line, ls, le,
                            "feature index 0 in a file read as one-based (indices start at 1)");
            }
            index -= 1;
        }
        r = parse_number(p, q + 1, e, &value, &t);
        if (r != 0) {
            if (r == -2) {
                return fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
            }
            quote_token(token, sizeof token, start, token_end(start, e));
            return fail(p, PTN_SVM_ERR_VALUE, line, ls, le,
                        "'%s': the feature value is not a number", token);
        }
        if (p->row_len > 0) {
            if (index == last) {
                return fail(p, PTN_SVM_ERR_DUPLICATE, line, ls, le,
                            "feature index %" PRId64 " appears more than once",
                            raw_index(p, index));
            }
            unsorted |= index < last;
        }
        if (p->row_len == p->pair_cap
            && reserve((void **)&p->row, &p->pair_cap, p->row_len + 1, sizeof(pair), 64) != 0) {
            return fail(p, PTN_SVM_ERR_NO_MEMORY, line, NULL, NULL, "out of memory");
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

/* Parse a complete line and count it; PTN_SVM_FULL when the batch is full. */
static int process_line(ptn_svm_parser *p, const char *ls, const char *le)
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

static int carry_append(ptn_svm_parser *p, const char *s, size_t n)
{
    if (n > SIZE_MAX - p->carry_len) {
        return fail(p, PTN_SVM_ERR_NO_MEMORY, p->line + 1, NULL, NULL,
                    "out of memory: the line is too long");
    }
    if (reserve((void **)&p->carry, &p->carry_cap, p->carry_len + n, 1, 256) != 0) {
        return fail(p, PTN_SVM_ERR_NO_MEMORY, p->line + 1, NULL, NULL,
                    "out of memory for a line of %zu bytes", p->carry_len + n);
    }
    memcpy(p->carry + p->carry_len, s, n);
    p->carry_len += n;
    return PTN_SVM_OK;
}

/* --------------------------------------------------------------- the API */

static int new_batch(ptn_svm_parser *p)
{
    void *data = malloc(INITIAL_NNZ * value_size(p));
    void *indices = malloc(INITIAL_NNZ * index_size(p));
    void *indptr = malloc((INITIAL_ROWS + 1) * index_size(p));
    double *labels = (double *)malloc(INITIAL_ROWS * sizeof(double));
    if (data == NULL || indices == NULL || indptr == NULL || labels == NULL) {
        free(data);
        free(indices);
        free(indptr);
        free(labels);
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
    set_indptr(p, 0, 0);
    return 0;
}

ptn_svm_parser *ptn_svm_new(const ptn_svm_options *options)
{
    ptn_svm_parser *p;
    const char *dp;
    if (options == NULL
        || (options->value_type != PTN_SVM_FLOAT32 && options->value_type != PTN_SVM_FLOAT64)
        || (options->index_type != PTN_SVM_INT32 && options->index_type != PTN_SVM_INT64)
        || (options->base != PTN_SVM_BASE_AUTO && options->base != PTN_SVM_BASE_ZERO
            && options->base != PTN_SVM_BASE_ONE)
        || options->max_rows < 0) {
        return NULL;
    }
    p = (ptn_svm_parser *)calloc(1, sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p->opt = *options;
    p->base = options->base;
    p->type_max = options->index_type == PTN_SVM_INT32 ? (int64_t)INT32_MAX : INT64_MAX;
    p->index_max = p->type_max - 1;
    p->max_index = -1;
    dp = localeconv()->decimal_point;
    if (dp == NULL || dp[0] == '\0' || strlen(dp) >= sizeof p->decimal_point) {
        dp = ".";
    }
    memcpy(p->decimal_point, dp, strlen(dp) + 1);
    if (new_batch(p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void ptn_svm_free(ptn_svm_parser *p)
{
    if (p == NULL) {
        return;
    }
    free(p->data);
    free(p->indices);
    free(p->indptr);
    free(p->labels);
    free(p->carry);
    free(p->row);
    free(p->num);
    free(p);
}

int ptn_svm_feed(ptn_svm_parser *p, const char *buf, size_t len, size_t *consumed)
{
    size_t pos = 0;
    int r;
    if (p == NULL || consumed == NULL) {
        return PTN_SVM_ERR_USAGE;
    }
    *consumed = 0;
    if (p->status < 0) {
        return p->status;
    }
    if (p->finished) {
        return fail(p, PTN_SVM_ERR_USAGE, 0, NULL, NULL, "ptn_svm_feed after ptn_svm_finish");
    }
    if (buf == NULL && len > 0) {
        return fail(p, PTN_SVM_ERR_USAGE, 0, NULL, NULL, "ptn_svm_feed of a NULL buffer");
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
        r = process_line(p, p->carry, p->carry + p->carry_len);
        p->carry_len = 0;
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
        r = process_line(p, start, nl);
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
        r = process_line(p, p->carry, p->carry + p->carry_len);
        p->carry_len = 0;
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
        if (p->max_index > p->index_max) {
            return fail(p, PTN_SVM_ERR_INDEX_RANGE, p->max_index_line, NULL, NULL,
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
static void *shrink(void *buf, size_t n, size_t size)
{
    void *q = realloc(buf, (n > 0 ? n : 1) * size);
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
    rows.data = shrink(p->data, (size_t)p->nnz, value_size(p));
    rows.indices = shrink(p->indices, (size_t)p->nnz, index_size(p));
    rows.indptr = shrink(p->indptr, (size_t)p->n_rows + 1, index_size(p));
    rows.labels = (double *)shrink(p->labels, (size_t)p->n_rows, sizeof(double));
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
        return fail(p, PTN_SVM_ERR_NO_MEMORY, 0, NULL, NULL, "out of memory");
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

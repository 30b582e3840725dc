/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_svmlight_parser.h - the inside of the svmlight parser of ptn_svmlight.h,
 * shared by its two files: svmlight.c (the parser object: its buffers, its
 * errors, the API) and svmlight_lines.c (reading a line: numbers and rows).
 * Not part of the public headers.
 */
#ifndef PTN_SVMLIGHT_PARSER_H
#define PTN_SVMLIGHT_PARSER_H

#include "ptn_config.h"
#include "ptn_svmlight.h"

#include <float.h>

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
    ptn_svm_allocator mem;      /* where every block comes from */
    int binary;                 /* no values kept: each must be 1 */
    int widen;                  /* int32 indices may turn into int64 ones */
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

    int64_t max_line;           /* longest line accepted (0: no limit) */
    int fed;                    /* feed was called */
    int64_t plus_labels;        /* positive labels written with a '+' */
    int64_t bare_labels;        /* positive labels written without one */

    char *carry;                /* a line cut by the end of a chunk */
    size_t carry_len;
    size_t carry_cap;
    size_t carry_blank;         /* leading blanks of the carry already scanned */

    pair *row;                  /* the line being parsed */
    size_t row_len;
    size_t pair_cap;

    char *num;                  /* NUL-terminated copy of a number for strtod */
    size_t num_cap;
    char decimal_point[8];

    ptn_svm_error err;
};

/* the parser's buffers (svmlight.c) */

/* Grow *buf (a block of p's allocator) to hold at least `need` elements
 * of `size` bytes (doubling). */
int ptn_svm_reserve(const ptn_svm_parser *p, void **buf, size_t *cap, size_t need, size_t size,
                    size_t floor);
/* Room for `need` non-zeros in data and indices. */
int ptn_svm_grow_nnz(ptn_svm_parser *p, size_t need);
/* Room for `need` rows: labels hold row_cap, indptr row_cap + 1 entries. */
int ptn_svm_grow_rows(ptn_svm_parser *p, size_t need);
/* int32 indices and row pointers made int64 in place (a widening parser);
 * 0, or -1 when memory is short (the parser unchanged). */
int ptn_svm_widen(ptn_svm_parser *p);

/* Whether a widening parser still has int32 indices. */
PTN_INLINE int ptn_svm_may_widen(const ptn_svm_parser *p)
{
    return p->widen && p->opt.index_type == PTN_SVM_INT32;
}

PTN_INLINE size_t ptn_svm_index_size(const ptn_svm_parser *p)
{
    return p->opt.index_type == PTN_SVM_INT32 ? sizeof(int32_t) : sizeof(int64_t);
}

PTN_INLINE size_t ptn_svm_value_size(const ptn_svm_parser *p)
{
    return p->opt.value_type == PTN_SVM_FLOAT32 ? sizeof(float) : sizeof(double);
}

PTN_INLINE void ptn_svm_set_indptr(ptn_svm_parser *p, int64_t i, int64_t v)
{
    if (p->opt.index_type == PTN_SVM_INT32) {
        ((int32_t *)p->indptr)[i] = (int32_t)v;
    } else {
        ((int64_t *)p->indptr)[i] = v;
    }
}

/* errors (svmlight.c) */

/* Record an error on line `line` (the line's bytes [ls, le)) and return code. */
int ptn_svm_fail(ptn_svm_parser *p, int code, int64_t line, const char *ls, const char *le,
                 const char *fmt, ...);
/* [s, e) quoted into dst for a message: control bytes as \xHH, at most
 * TOKEN_SHOWN bytes. */
void ptn_svm_quote_token(char *dst, size_t cap, const char *s, const char *e);

/* lines (svmlight_lines.c) */

/* Whether the first n bytes of a line already make it an error for its
 * label: its first non-blank byte (from *blank on, which is advanced past
 * the blanks seen) can begin neither a number nor a comment, and more than
 * PTN_SVM_TEXT_SHOWN bytes follow it, so that the error reads the same as
 * the whole line's would. */
int ptn_svm_refused_start(const char *s, size_t n, size_t *blank);

/* Parse a complete line [ls, le) (without its '\n') and count it:
 * PTN_SVM_OK, PTN_SVM_FULL when the batch is full, or an error code. */
int ptn_svm_process_line(ptn_svm_parser *p, const char *ls, const char *le);

#endif /* PTN_SVMLIGHT_PARSER_H */

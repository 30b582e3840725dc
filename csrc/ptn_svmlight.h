/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_svmlight.h - a streaming parser of svmlight / libsvm text into CSR arrays.
 *
 * Plain C99, no Python headers, no global state: any number of parsers may
 * run at once (one parser is used by one thread at a time).
 *
 * The format, one sample per line (Joachims' SVMlight, Chang and Lin's LIBSVM):
 *
 *     <label> [qid:<int>] <index>:<value> <index>:<value> ... [# comment]
 *
 * - label: a number (below); qid: an integer, checked and ignored.
 * - index: a non-negative decimal integer (a leading '+' is allowed), value:
 *   a number.  Indices may come in any order; each row is sorted by index.
 *   An index repeated on a line is an error.
 * - numbers: [+-] digits [. digits] [(e|E) [+-] digits], or inf, infinity,
 *   nan (any case, with a sign); the decimal point is always '.', whatever
 *   the C locale.  Converted to the nearest double (float values: that
 *   double rounded to float, as a double-to-float cast does).
 * - separators: spaces and tabs (and \r, \v, \f); '#' starts a comment that
 *   runs to the end of the line; empty and comment-only lines are skipped;
 *   lines end with \n or \r\n; the last line may lack its \n.
 *
 * Use:
 *
 *     ptn_svm_parser *p = ptn_svm_new(&options);
 *     while (more bytes) {                       // chunks of any size, cut
 *         size_t used;                          // anywhere, even mid-number
 *         int s = ptn_svm_feed(p, buf, len, &used);
 *         if (s < 0) -> error (ptn_svm_last_error)
 *         if (s == PTN_SVM_FULL) -> ptn_svm_take the rows, feed buf + used again
 *     }
 *     ptn_svm_finish(p);                         // the last line, if no \n
 *     ptn_svm_resolve_base(p);                   // zero_based "auto": decide
 *     ptn_svm_take(p, &rows);                    // CSR arrays, owned by the caller
 *     ...  ptn_svm_rows_release(&rows); ptn_svm_free(p);
 *
 * A line cut by the end of a chunk is carried inside the parser to the next
 * one, so the caller's buffer can be reused as soon as ptn_svm_feed returns.
 * Every read stays inside [buf, buf + len); all sizes are checked for
 * overflow; out of memory is an error, never a crash.
 *
 * Index base (scikit-learn's zero_based): PTN_SVM_BASE_ZERO keeps the indices
 * as written; PTN_SVM_BASE_ONE subtracts 1 (an index 0 is an error);
 * PTN_SVM_BASE_AUTO keeps them as written until ptn_svm_resolve_base, which
 * takes the file as zero-based if an index 0 was seen (anywhere so far) and
 * one-based otherwise, shifting the rows not yet taken; from then on the
 * parser works in the chosen base.
 *
 * Bounded input: a line longer than the maximum (PTN_SVM_DEFAULT_MAX_LINE,
 * or ptn_svm_set_max_line) fails with PTN_SVM_ERR_LINE_TOO_LONG once its
 * bytes pass it, so a line cut by a chunk never holds more than that many
 * bytes.  A line whose first non-blank byte cannot begin a label or a
 * comment (a NUL, any byte of a binary file) fails with PTN_SVM_ERR_LABEL as
 * soon as PTN_SVM_TEXT_SHOWN bytes of it are seen, without waiting for its
 * end: the same error, on the same line, that the whole line would give.
 *
 * Column indices must leave room for n_features = index + 1 in the index
 * type: at most INT32_MAX - 1 (int32) or INT64_MAX - 1 (int64), after the
 * base is applied.  With int32 indices the non-zeros taken at once must also
 * fit in int32 (the row pointers share the index type).
 */
#ifndef PTN_SVMLIGHT_H
#define PTN_SVMLIGHT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptn_svm_value_type {
    PTN_SVM_FLOAT32 = 0,
    PTN_SVM_FLOAT64 = 1
} ptn_svm_value_type;

typedef enum ptn_svm_index_type {
    PTN_SVM_INT32 = 0,
    PTN_SVM_INT64 = 1
} ptn_svm_index_type;

typedef enum ptn_svm_index_base {
    PTN_SVM_BASE_AUTO = 0,
    PTN_SVM_BASE_ZERO = 1,
    PTN_SVM_BASE_ONE = 2
} ptn_svm_index_base;

/* Status codes: PTN_SVM_OK and PTN_SVM_FULL are not errors; every error is
 * negative and sticky (the parser refuses further work). */
typedef enum ptn_svm_status {
    PTN_SVM_OK = 0,
    PTN_SVM_FULL = 1,               /* max_rows rows are waiting: take them */
    PTN_SVM_ERR_LABEL = -1,         /* the label is not a number */
    PTN_SVM_ERR_FEATURE = -2,       /* a token that is not index:value */
    PTN_SVM_ERR_INDEX = -3,         /* an index that is not a non-negative integer */
    PTN_SVM_ERR_VALUE = -4,         /* a value that is not a number */
    PTN_SVM_ERR_QID = -5,           /* qid: without an integer */
    PTN_SVM_ERR_ZERO_INDEX = -6,    /* index 0 in a one-based file */
    PTN_SVM_ERR_INDEX_RANGE = -7,   /* an index too large for the index type */
    PTN_SVM_ERR_DUPLICATE = -8,     /* an index twice on one line */
    PTN_SVM_ERR_TOO_MANY = -9,      /* more non-zeros than the index type counts */
    PTN_SVM_ERR_NO_MEMORY = -10,
    PTN_SVM_ERR_USAGE = -11,        /* a call out of order (feed after finish, ...) */
    PTN_SVM_ERR_LINE_TOO_LONG = -12,/* a line longer than the parser's maximum */
    PTN_SVM_ERR_NOT_BINARY = -13    /* a value other than 1 in a binary parser's input */
} ptn_svm_status;

/* The longest line a new parser accepts, in bytes (without its '\n'):
 * 64 MiB.  A longer line is an error as soon as its bytes exceed it, so
 * that the memory a parser holds stays bounded whatever the input (one
 * endless line, a binary file); ptn_svm_set_max_line changes it. */
#define PTN_SVM_DEFAULT_MAX_LINE ((int64_t)64 << 20)

typedef struct ptn_svm_options {
    int value_type;     /* a ptn_svm_value_type */
    int index_type;     /* a ptn_svm_index_type */
    int base;           /* a ptn_svm_index_base */
    int64_t max_rows;   /* ptn_svm_feed stops once this many rows wait; 0: no limit */
} ptn_svm_options;

/* Where a parser's memory comes from: resize(NULL, n) allocates n bytes,
 * resize(block, n) reallocates (NULL on failure, the block kept), release
 * frees (NULL is allowed).  Both may be called without any lock held, from
 * the thread that feeds the parser. */
typedef struct ptn_svm_allocator {
    void *(*resize)(void *block, size_t bytes);
    void (*release)(void *block);
} ptn_svm_allocator;

/* Rows handed to the caller by ptn_svm_take: CSR arrays allocated by the
 * parser's allocator (malloc by default), owned by the caller (free each
 * with ptn_svm_free_buffer, or all with ptn_svm_rows_release, for the
 * default allocator; with the allocator's release otherwise).  Never NULL
 * after a successful take, even when empty, except data of a binary parser
 * (ptn_svm_set_binary), which is always NULL. */
typedef struct ptn_svm_rows {
    int64_t n_rows;
    int64_t nnz;
    void *data;         /* nnz values, float or double (NULL: binary rows) */
    void *indices;      /* nnz column indices, int32_t or int64_t, sorted in each row */
    void *indptr;       /* n_rows + 1 row pointers, same type as indices */
    double *labels;     /* n_rows labels */
} ptn_svm_rows;

/* Where the parser stopped on an error. */
#define PTN_SVM_MESSAGE_SIZE 256
#define PTN_SVM_TEXT_SIZE 128
#define PTN_SVM_TEXT_SHOWN 80   /* bytes of the line shown in text */

typedef struct ptn_svm_error {
    int code;                           /* a negative ptn_svm_status, or 0 */
    int64_t line;                       /* 1-based line number (0: not tied to a line) */
    char message[PTN_SVM_MESSAGE_SIZE]; /* what is wrong, naming the offending token */
    char text[PTN_SVM_TEXT_SIZE];       /* the line, control bytes escaped as \xHH,
                                           cut after PTN_SVM_TEXT_SHOWN bytes with "..." */
} ptn_svm_error;

typedef struct ptn_svm_parser ptn_svm_parser;

/* A new parser, or NULL if the options are invalid or memory is short. */
ptn_svm_parser *ptn_svm_new(const ptn_svm_options *options);

/* The same, every block of the parser and of the rows it hands over taken
 * from `allocator` (copied; NULL: the C library's malloc, realloc, free). */
ptn_svm_parser *ptn_svm_new_with(const ptn_svm_options *options,
                                 const ptn_svm_allocator *allocator);

/* Binary rows (every value 1, as one-hot and presence features are): the
 * parser keeps the indices alone, with no memory per value, and a value
 * that is not 1 (after rounding to the value type) fails with
 * PTN_SVM_ERR_NOT_BINARY naming its line.  Before the first feed.  Returns
 * PTN_SVM_OK, or PTN_SVM_ERR_USAGE (too late). */
int ptn_svm_set_binary(ptn_svm_parser *p);

/* int32 indices that turn into int64 ones, in place, when the input needs
 * them (an index or a count of non-zeros past int32's range), instead of
 * failing: a reader that cannot know the size of its input in advance
 * parses in 4 bytes an index what fits them.  Before the first feed, on a
 * parser of int32 indices.  Returns PTN_SVM_OK, or PTN_SVM_ERR_USAGE. */
int ptn_svm_set_widening(ptn_svm_parser *p);

/* The index type in force (a ptn_svm_index_type): the options', or int64
 * once a widening parser has widened; the rows taken have it. */
int ptn_svm_current_index_type(const ptn_svm_parser *p);

/* Set the longest line accepted, in bytes (0: no limit); before the first
 * feed.  Returns PTN_SVM_OK, or PTN_SVM_ERR_USAGE (negative, or too late). */
int ptn_svm_set_max_line(ptn_svm_parser *p, int64_t max_bytes);

/* Free the parser and the rows it still holds (NULL is allowed). */
void ptn_svm_free(ptn_svm_parser *p);

/* Parse the complete lines of buf[0..len) (carrying a cut line over to the
 * next call).  *consumed is set to the bytes used: len, unless the status is
 * PTN_SVM_FULL, when the rest (buf + *consumed) is to be fed again after
 * ptn_svm_take.  Returns a ptn_svm_status. */
int ptn_svm_feed(ptn_svm_parser *p, const char *buf, size_t len, size_t *consumed);

/* The end of the input: parse the carried line, if any (a last line without
 * a newline).  Afterwards only resolve_base, take and the queries work. */
int ptn_svm_finish(ptn_svm_parser *p);

/* Decide an automatic base now (see above); no-op when the base is fixed.
 * Fails with PTN_SVM_ERR_INDEX_RANGE if, taken as zero-based, an index seen
 * leaves no room for n_features in the index type. */
int ptn_svm_resolve_base(ptn_svm_parser *p);

/* The base in force (PTN_SVM_BASE_AUTO until it is resolved). */
int ptn_svm_current_base(const ptn_svm_parser *p);

/* Hand the waiting rows over to the caller (possibly none) and start an
 * empty batch.  Fails only on a parser in error (returns its code). */
int ptn_svm_take(ptn_svm_parser *p, ptn_svm_rows *out);

/* Rows waiting to be taken. */
int64_t ptn_svm_pending_rows(const ptn_svm_parser *p);

/* The largest column index seen so far (after the base is applied; raw while
 * the base is automatic) and its line; -1 and 0 when no feature was seen. */
int64_t ptn_svm_max_index(const ptn_svm_parser *p);
int64_t ptn_svm_max_index_line(const ptn_svm_parser *p);

/* The line of the first index 0 seen, 0 if none. */
int64_t ptn_svm_first_zero_line(const ptn_svm_parser *p);

/* Lines read so far (complete lines, plus the last one after finish). */
int64_t ptn_svm_lines(const ptn_svm_parser *p);

/* How the positive labels read so far were written: *plus with a leading
 * '+' (LIBSVM's "+1"), *bare without one; so that a reader can write labels
 * back the way the file did. */
void ptn_svm_label_signs(const ptn_svm_parser *p, int64_t *plus, int64_t *bare);

/* The error that stopped the parser (code 0 if none). */
const ptn_svm_error *ptn_svm_last_error(const ptn_svm_parser *p);

void ptn_svm_free_buffer(void *buffer);
void ptn_svm_rows_release(ptn_svm_rows *rows);

#ifdef __cplusplus
}
#endif

#endif /* PTN_SVMLIGHT_H */

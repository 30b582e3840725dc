/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * score_rows.c - score rows with a saved linear model, in plain C, through
 * the two files of the scoring subset (ptn_scoring.h, ptn_scoring.c).
 *
 *   cc -std=c99 -O2 score_rows.c ptn_scoring.c -o score_rows
 *   ./score_rows MODEL ROWS N
 *
 * ROWS holds N rows of the model's n_features doubles (numpy's
 * X.astype(np.float64).tofile(ROWS)); for each row the program prints the
 * predicted label ("-" for a multi-label model) and the activations.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ptn_scoring.h"

/* The whole file in memory (malloc's alignment suits the model's arrays). */
static void *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    void *buffer = NULL;
    long end;
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        buffer = malloc((size_t)end);
        if (buffer != NULL && fread(buffer, 1, (size_t)end, f) != (size_t)end) {
            free(buffer);
            buffer = NULL;
        }
        *size = (size_t)end;
    }
    fclose(f);
    if (buffer == NULL) {
        fprintf(stderr, "%s: cannot read it\n", path);
    }
    return buffer;
}

int main(int argc, char **argv)
{
    ptn_model_file mf;
    ptn_linear_model model;
    size_t size = 0, rows_size = 0, d, k, j;
    void *buffer;
    double *rows, *scores;
    float *row32;
    char label[256];
    long n, i;

    if (argc != 4) {
        fprintf(stderr, "usage: %s MODEL ROWS N\n", argv[0]);
        return 2;
    }
    buffer = read_all(argv[1], &size);
    rows = read_all(argv[2], &rows_size);
    n = strtol(argv[3], NULL, 10);
    if (buffer == NULL || rows == NULL) {
        return 1;
    }
    if (ptn_model_file_open(&mf, buffer, size) != PTN_MF_OK
            || ptn_model_file_linear(&mf, &model) != PTN_MF_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], mf.error);
        return 1;
    }
    d = (size_t)model.n_features;
    k = (size_t)model.n_rows;
    /* check the input before scoring it: n rows of d doubles, no more, no less */
    if (n < 1 || rows_size / sizeof(double) / d != (size_t)n || rows_size % (d * sizeof(double))) {
        fprintf(stderr, "%s: not %ld rows of %lu doubles\n", argv[2], n, (unsigned long)d);
        return 1;
    }
    scores = malloc(k * sizeof *scores);
    row32 = malloc(d * sizeof *row32);
    if (scores == NULL || row32 == NULL) {
        return 1;
    }
    for (i = 0; i < n; i++) {
        const double *x = rows + (size_t)i * d;
        const void *row = x;
        int64_t c;
        if (model.dtype == PTN_FLOAT32) {   /* the row in the model's type */
            for (j = 0; j < d; j++) {
                row32[j] = (float)x[j];
            }
            row = row32;
        }
        ptn_scalar_decision_all(&model, row, scores);
        c = ptn_scalar_predict(&model, row);
        if (c < 0) {
            printf("-");
        } else if (ptn_model_file_label(&mf, (uint64_t)c, label, sizeof label) >= 0) {
            printf("%s", label);
        } else {
            fprintf(stderr, "%s: %s\n", argv[1], mf.error);
            return 1;
        }
        for (j = 0; j < k; j++) {
            printf(" %.17g", scores[j]);
        }
        printf("\n");
    }
    free(row32);
    free(scores);
    free(rows);
    free(buffer);
    return 0;
}

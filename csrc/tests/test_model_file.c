/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * test_model_file.c - a model file read and scored in plain C, no Python.
 *
 *   test_model_file score  MODEL X.f64 N   load MODEL, score the N rows of
 *                                          X.f64 (raw float64, row-major,
 *                                          n_features per row), print the kind,
 *                                          k, d, then the k activations of each
 *                                          row with %.17g
 *   test_model_file labels MODEL CAP       print the number of labels, then
 *                                          each as "<length> <text>", read
 *                                          into a buffer of CAP bytes
 *   test_model_file robust MODEL           open every truncation of MODEL and
 *                                          every byte changed (four ways, with
 *                                          the checksum fixed, and also left as
 *                                          it was in the preamble): each is
 *                                          refused cleanly or opened, and what
 *                                          opens is read all through (for the
 *                                          sanitizers)
 *
 * Build (tests/test_c_formats.py does, with and without sanitizers):
 *
 *   cc -std=c99 -O2 -Icsrc csrc/tests/test_model_file.c csrc/model_file.c csrc/model_labels.c \
 *      csrc/kernels_*.c csrc/cpu.c csrc/dispatch.c -lm -o test_model_file
 */
#include "ptn_dispatch.h"
#include "ptn_model_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file in a malloc'd buffer (aligned for any array). */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0
        || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    buf = (unsigned char *)malloc((size_t)n + 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static int score(const char *model_path, const char *x_path, long n_rows)
{
    size_t size, x_size;
    unsigned char *file = read_file(model_path, &size);
    double *X = (double *)(void *)read_file(x_path, &x_size);
    ptn_model_file mf;
    ptn_linear_model m;
    const ptn_simd *k;
    double *scores, *row;
    float *row32;
    long i;
    int64_t j;
    if (ptn_model_file_open(&mf, file, size) != PTN_MF_OK
        || ptn_model_file_linear(&mf, &m) != PTN_MF_OK) {
        printf("error: %s\n", mf.error);
        return 1;
    }
    if (x_size != (size_t)n_rows * (size_t)m.n_features * sizeof(double)) {
        printf("error: X has %zu bytes, expected %ld rows of %lld features\n", x_size, n_rows,
               (long long)m.n_features);
        return 1;
    }
    ptn_dispatch_init(-1);
    k = ptn_active_simd();
    scores = (double *)malloc((size_t)m.n_rows * sizeof(double));
    row32 = (float *)malloc((size_t)m.n_features * sizeof(float));
    if (scores == NULL || row32 == NULL) {
        return 2;
    }
    printf("kind %d rows %lld features %lld dtype %d\n", (int)m.kind, (long long)m.n_rows,
           (long long)m.n_features, (int)m.dtype);
    for (i = 0; i < n_rows; i++) {
        row = X + (size_t)i * (size_t)m.n_features;
        if (m.dtype == PTN_FLOAT32) {
            for (j = 0; j < m.n_features; j++) {
                row32[j] = (float)row[j];
            }
            ptn_decision_all(k, &m, row32, scores);
            printf("%lld", (long long)(m.kind == PTN_MODEL_MULTILABEL ? -1 : ptn_predict(k, &m, row32)));
        } else {
            ptn_decision_all(k, &m, row, scores);
            printf("%lld", (long long)(m.kind == PTN_MODEL_MULTILABEL ? -1 : ptn_predict(k, &m, row)));
        }
        for (j = 0; j < m.n_rows; j++) {
            printf(" %.17g", scores[j]);
        }
        printf("\n");
    }
    free(scores);
    free(row32);
    free(X);
    free(file);
    return 0;
}

/* Print the number of labels, then each as "<length> <bytes>\n", read in a
 * buffer of cap bytes (a short one exercises the truncation). */
static int labels(const char *model_path, size_t cap)
{
    size_t size;
    unsigned char *file = read_file(model_path, &size);
    ptn_model_file mf;
    char *out = (char *)malloc(cap ? cap : 1);
    int64_t n, i, len;
    if (out == NULL) {
        return 2;
    }
    if (ptn_model_file_open(&mf, file, size) != PTN_MF_OK
        || (n = ptn_model_file_n_labels(&mf)) < 0) {
        printf("error: %s\n", mf.error);
        return 1;
    }
    printf("%lld labels\n", (long long)n);
    for (i = 0; i < n; i++) {
        len = ptn_model_file_label(&mf, (uint64_t)i, out, cap);
        if (len < 0) {
            printf("error: %s\n", mf.error);
            return 1;
        }
        if (cap > 0 && strlen(out) != (size_t)(len < (int64_t)cap ? len : (int64_t)cap - 1)) {
            printf("FAIL: label %lld: %zu bytes written of %lld\n", (long long)i, strlen(out),
                   (long long)len);
            return 1;
        }
        printf("%lld ", (long long)len);
        fwrite(out, 1, strlen(out), stdout);
        printf("\n");
    }
    if (ptn_model_file_label(&mf, (uint64_t)n, out, cap) != PTN_MF_ERR_ARGUMENT) {
        printf("FAIL: a label past the last was given\n");
        return 1;
    }
    free(out);
    free(file);
    return 0;
}

static void fix_crc(unsigned char *b, size_t size)
{
    static const unsigned char zero4[4] = {0, 0, 0, 0};
    uint32_t crc;
    if (size < 64) {
        return;
    }
    crc = ptn_crc32(0, b, 20);
    crc = ptn_crc32(crc, zero4, 4);
    crc = ptn_crc32(crc, b + 24, size - 24);
    b[20] = (unsigned char)crc;
    b[21] = (unsigned char)(crc >> 8);
    b[22] = (unsigned char)(crc >> 16);
    b[23] = (unsigned char)(crc >> 24);
}

static unsigned long sink = 0;

/* Open buf[0..size) (a fresh heap copy, so that the sanitizers see any
 * read past its end); return 1 if it opened. */
static int try_open(const unsigned char *src, size_t size)
{
    unsigned char *buf = (unsigned char *)malloc(size ? size : 1);
    ptn_model_file mf;
    ptn_mf_array a;
    ptn_linear_model m;
    uint32_t i;
    uint64_t b;
    int64_t n_labels, label;
    char text[16];
    int opened;
    if (buf == NULL) {
        exit(2);
    }
    memcpy(buf, src, size);
    opened = ptn_model_file_open(&mf, buf, size) == PTN_MF_OK;
    if (!opened && (mf.error[0] == '\0' || strlen(mf.error) >= sizeof mf.error)) {
        printf("FAIL: a refusal without a message\n");
        exit(1);
    }
    if (opened) {
        for (b = 0; b < mf.header_size; b++) {
            sink += (unsigned char)mf.header[b];
        }
        for (i = 0; i < mf.n_arrays; i++) {
            if (ptn_model_file_array(&mf, i, &a) != PTN_MF_OK) {
                printf("FAIL: array %u of an opened file\n", (unsigned)i);
                exit(1);
            }
            for (b = 0; b < a.nbytes; b++) {
                sink += ((const unsigned char *)a.data)[b];
            }
        }
        if (ptn_model_file_linear(&mf, &m) == PTN_MF_OK) {
            sink += (unsigned long)m.n_rows;
        }
        n_labels = ptn_model_file_n_labels(&mf);
        for (label = 0; label < n_labels && label < 64; label++) {
            sink += (unsigned long)ptn_model_file_label(&mf, (uint64_t)label, text, sizeof text);
        }
    }
    free(buf);
    return opened;
}

static int robust(const char *model_path)
{
    static const int flips[4] = {0x01, 0x80, 0x100, 0x1ff};   /* xor 1, xor 0x80, set 0, set 255 */
    size_t size, n, pos;
    unsigned char *file = read_file(model_path, &size);
    unsigned char *copy = (unsigned char *)malloc(size);
    long tried = 0, opened = 0;
    int f, fix;
    if (copy == NULL) {
        return 2;
    }
    if (!try_open(file, size)) {
        printf("FAIL: the intact file does not open\n");
        return 1;
    }
    for (n = 0; n < size; n++) {
        tried++;
        if (try_open(file, n)) {
            printf("FAIL: a truncation to %zu bytes opened\n", n);
            return 1;
        }
    }
    for (pos = 0; pos < size; pos++) {
        for (f = 0; f < 4; f++) {
            /* past the preamble, a change the checksum catches always meets
             * the same check: there only the variants with a fixed checksum */
            for (fix = pos < 64 ? 0 : 1; fix < 2; fix++) {
                memcpy(copy, file, size);
                if (flips[f] == 0x100) {
                    copy[pos] = 0;
                } else if (flips[f] == 0x1ff) {
                    copy[pos] = 0xff;
                } else {
                    copy[pos] ^= (unsigned char)flips[f];
                }
                if (fix) {
                    fix_crc(copy, size);
                }
                tried++;
                opened += try_open(copy, size);
            }
        }
    }
    printf("robust: %ld variants tried, %ld opened, none crashed (%lu)\n", tried, opened,
           sink % 7);
    free(copy);
    free(file);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "score") == 0) {
        return score(argv[2], argv[3], strtol(argv[4], NULL, 10));
    }
    if (argc == 3 && strcmp(argv[1], "robust") == 0) {
        return robust(argv[2]);
    }
    if (argc == 4 && strcmp(argv[1], "labels") == 0) {
        return labels(argv[2], (size_t)strtol(argv[3], NULL, 10));
    }
    fprintf(stderr, "usage: %s score MODEL X.f64 N | robust MODEL | labels MODEL CAP\n",
            argv[0]);
    return 2;
}

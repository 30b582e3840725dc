/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * fuzz_model_file.c - libFuzzer target of the model-file reader
 * (csrc/model_file.c) and of scoring the model it yields (ptn_model.h).
 *
 * Each input is tried twice: as it is, and with its CRC-32 rewritten to
 * match (bytes 20-23), so that mutations get past the checksum and reach the
 * preamble, the table and the arrays.  When a linear model comes out, it
 * scores a row of ones at every SIMD level this CPU has.  Nothing may read
 * outside the buffer, whatever the bytes (ASan/UBSan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptn_dispatch.h"
#include "ptn_model.h"
#include "ptn_model_file.h"

static void use(const unsigned char *buf, size_t size)
{
    ptn_model_file mf;
    ptn_linear_model model;
    ptn_mf_array array;
    uint32_t i;
    int level;
    if (ptn_model_file_open(&mf, buf, size) != PTN_MF_OK) {
        return;
    }
    for (i = 0; i < mf.n_arrays; i++) {
        if (ptn_model_file_array(&mf, i, &array) == PTN_MF_OK && array.nbytes > 0) {
            volatile unsigned char first = ((const unsigned char *)array.data)[0];
            volatile unsigned char last = ((const unsigned char *)array.data)[array.nbytes - 1];
            (void)first;
            (void)last;
        }
    }
    (void)ptn_model_file_find(&mf, "coef_", &array);
    if (ptn_model_file_linear(&mf, &model) != PTN_MF_OK || ptn_linear_model_check(&model) != 0) {
        return;
    }
    {
        size_t d = (size_t)model.n_features, j;
        double *x64 = (double *)malloc(d * sizeof(double));
        float *x32 = (float *)malloc(d * sizeof(float));
        double *scores = (double *)malloc((size_t)model.n_rows * sizeof(double));
        if (x64 && x32 && scores) {
            for (j = 0; j < d; j++) {
                x64[j] = 1.0;
                x32[j] = 1.0f;
            }
            for (level = 0; level < PTN_LEVEL_COUNT; level++) {
                const ptn_simd *k = ptn_simd_for_level(level);
                const void *x = model.dtype == PTN_FLOAT32 ? (const void *)x32 : (const void *)x64;
                if (k == NULL) {
                    continue;
                }
                (void)ptn_decision(k, &model, x);
                (void)ptn_predict(k, &model, x);
                ptn_decision_all(k, &model, x, scores);
            }
        }
        free(x64);
        free(x32);
        free(scores);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an aligned copy, as a reader of a file gets from malloc */
    unsigned char *buf = (unsigned char *)malloc(size ? size : 1);
    if (buf == NULL) {
        return 0;
    }
    memcpy(buf, data, size);
    use(buf, size);
    if (size >= 24) {
        uint32_t crc;
        memset(buf + 20, 0, 4);
        crc = ptn_crc32(0, buf, size);
        buf[20] = (unsigned char)crc;
        buf[21] = (unsigned char)(crc >> 8);
        buf[22] = (unsigned char)(crc >> 16);
        buf[23] = (unsigned char)(crc >> 24);
        use(buf, size);
    }
    free(buf);
    return 0;
}

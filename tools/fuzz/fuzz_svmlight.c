/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * fuzz_svmlight.c - libFuzzer target of the svmlight parser (csrc/svmlight.c).
 *
 * The first byte picks the options (value and index types, index base, a
 * small max_rows so that FULL and take happen mid-stream) and where the rest
 * of the input is cut into two chunks, so every byte position can be a chunk
 * boundary; with bit 6 set, the longest line allowed is short (a few dozen
 * bytes), so that lines past it, cut anywhere, are exercised.  Every status
 * is acceptable; what must never happen is a read or write out of bounds, undefined behaviour or a leak (ASan/UBSan/LSan).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptn_svmlight.h"

static int drain(ptn_svm_parser *p)
{
    ptn_svm_rows rows;
    int s = ptn_svm_take(p, &rows);
    if (s == PTN_SVM_OK) {
        /* touch every array the caller would read */
        volatile double sink = 0.0;
        int64_t i;
        for (i = 0; i < rows.n_rows; i++) {
            sink += rows.labels[i];
        }
        (void)sink;
        ptn_svm_rows_release(&rows);
    }
    return s;
}

static int feed_all(ptn_svm_parser *p, const char *buf, size_t len)
{
    while (len > 0) {
        size_t used = 0;
        int s = ptn_svm_feed(p, buf, len, &used);
        if (s < 0) {
            return s;
        }
        if (used > len) {
            __builtin_trap(); /* the parser claimed bytes it was not given */
        }
        buf += used;
        len -= used;
        if (s == PTN_SVM_FULL) {
            if (drain(p) < 0) {
                return -1;
            }
        } else if (used == 0) {
            break;
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptn_svm_options options;
    ptn_svm_parser *p;
    size_t cut;
    const char *text;
    uint8_t knob;
    if (size < 2) {
        return 0;
    }
    knob = data[0];
    text = (const char *)data + 2;
    size -= 2;
    options.value_type = (knob & 1) ? PTN_SVM_FLOAT32 : PTN_SVM_FLOAT64;
    options.index_type = (knob & 2) ? PTN_SVM_INT32 : PTN_SVM_INT64;
    options.base = (knob >> 2) % 3;
    options.max_rows = (knob & 32) ? 2 : 0;
    cut = size ? (size_t)data[1] % (size + 1) : 0;
    p = ptn_svm_new(&options);
    if (p == NULL) {
        return 0;
    }
    if (knob & 64) {
        ptn_svm_set_max_line(p, (int64_t)(data[1] % 97));
    }
    if (knob & 128) {   /* binary rows: indices alone, values checked to be 1 */
        ptn_svm_set_binary(p);
    }
    if ((knob & 2) && (data[1] & 1)) {   /* int32 indices widened when needed */
        ptn_svm_set_widening(p);
    }
    if (feed_all(p, text, cut) == 0 && feed_all(p, text + cut, size - cut) == 0 &&
        ptn_svm_finish(p) >= 0) {
        if (ptn_svm_resolve_base(p) >= 0) {
            drain(p);
        }
    }
    (void)ptn_svm_last_error(p)->message[0];
    {
        int64_t plus, bare;
        ptn_svm_label_signs(p, &plus, &bare);
    }
    ptn_svm_free(p);
    return 0;
}

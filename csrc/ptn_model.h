/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model.h - scoring a fitted linear model of the package, in plain C,
 * through the SIMD kernels (the model and its rules: ptn_model_types.h).
 *
 * Rows stored narrower than float32 (IEEE half, bfloat16, int8, uint8: the
 * kinds PTN_X_F16, PTN_X_BF16, PTN_X_I8, PTN_X_U8 of ptn_simd.h) are scored
 * as stored by the _narrow functions, against a float32 model: every value
 * of those types is a float32 exactly, and the table's ndot gives the bits
 * dot_f32 gives on the row converted first, so each activation has the bits
 * of the float32 row's (and of the package's decision_function on the
 * narrow rows).
 */
#ifndef PTN_MODEL_H
#define PTN_MODEL_H

#include "ptn_model_types.h"
#include "ptn_simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The functions below are static inline: a program (or a Cython module)
 * that includes this header compiles them in, so a call costs no more than
 * the kernel it makes.  The kernel table is a parameter: pass
 * ptn_active_simd() (after ptn_dispatch_init) from C, or
 * perceptron.simd's active_simd() from Cython.
 *
 *   ptn_linear_model_check(m)        0 if m is well formed (known kind and
 *                                    dtype, k and d >= 1, k = 1 exactly for
 *                                    binary, non-NULL arrays), else -1
 *   ptn_decision(k, m, x)            the activation of a binary model; the
 *                                    largest of the k activations otherwise
 *   ptn_decision_all(k, m, x, out)   all k activations into out[0..k)
 *   ptn_predict(k, m, x)             the class index (0/1 binary, 0..k-1
 *                                    multiclass); -1 for a multilabel model
 *
 * and for a row x of narrow kind xkind (a float32 model only):
 *
 *   ptn_linear_model_check_narrow(m, xkind)   0 if m is well formed, float32,
 *                                             and xkind a narrow kind, else -1
 *   ptn_decision_narrow(k, m, xkind, x)       as ptn_decision
 *   ptn_decision_all_narrow(k, m, xkind, x, out)   as ptn_decision_all
 *   ptn_predict_narrow(k, m, xkind, x)        as ptn_predict
 *
 * Like the others they trust their arguments: check the model and the kind
 * once with ptn_linear_model_check_narrow, not per row.
 */

PTN_INLINE int ptn_linear_model_check_narrow(const ptn_linear_model *m, int xkind)
{
    if (ptn_linear_model_check(m) != 0 || m->dtype != PTN_FLOAT32) {
        return -1;
    }
    switch (xkind) {
    case PTN_X_F16:
    case PTN_X_BF16:
    case PTN_X_I8:
    case PTN_X_U8:
        return 0;
    default:
        return -1;
    }
}

/* The activation of row j of the model for x of the model's own type
 * (xkind 0) or of narrow kind xkind (a float32 model).  The functions below
 * are written once over it; those of the model's own type pass a constant
 * 0, which the compiler folds. */
PTN_INLINE double ptn_row_activation_kind(const ptn_simd *k, const ptn_linear_model *m,
                                          int64_t j, int xkind, const void *x)
{
    size_t d = (size_t)m->n_features;
    if (m->dtype == PTN_FLOAT32) {
        const float *w = (const float *)m->coef + (size_t)j * d;
        double dot = xkind ? k->ndot(xkind, d, x, w) : k->dot_f32(d, (const float *)x, w);
        return dot + (double)((const float *)m->intercept)[j];
    } else {
        const double *w = (const double *)m->coef + (size_t)j * d;
        return k->dot_f64(d, (const double *)x, w) + ((const double *)m->intercept)[j];
    }
}

PTN_INLINE double ptn_row_activation(const ptn_simd *k, const ptn_linear_model *m,
                                     int64_t j, const void *x)
{
    return ptn_row_activation_kind(k, m, j, 0, x);
}

/* the rules of ptn_model_types.h over the kernels' activations */
#define PTN_SIMD_ACTIVATION_(j) ptn_row_activation_kind(k, m, (j), xkind, x)

PTN_INLINE double ptn_decision_kind(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                    const void *x)
{
    PTN_MODEL_DECISION_BODY(m, PTN_SIMD_ACTIVATION_)
}

PTN_INLINE void ptn_decision_all_kind(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                      const void *x, double *scores)
{
    PTN_MODEL_DECISION_ALL_BODY(m, PTN_SIMD_ACTIVATION_, scores)
}

PTN_INLINE int64_t ptn_predict_kind(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                    const void *x)
{
    PTN_MODEL_PREDICT_BODY(m, PTN_SIMD_ACTIVATION_)
}

#undef PTN_SIMD_ACTIVATION_

PTN_INLINE double ptn_decision(const ptn_simd *k, const ptn_linear_model *m, const void *x)
{
    return ptn_decision_kind(k, m, 0, x);
}

PTN_INLINE void ptn_decision_all(const ptn_simd *k, const ptn_linear_model *m,
                                 const void *x, double *scores)
{
    ptn_decision_all_kind(k, m, 0, x, scores);
}

PTN_INLINE int64_t ptn_predict(const ptn_simd *k, const ptn_linear_model *m, const void *x)
{
    return ptn_predict_kind(k, m, 0, x);
}

PTN_INLINE double ptn_decision_narrow(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                      const void *x)
{
    return ptn_decision_kind(k, m, xkind, x);
}

PTN_INLINE void ptn_decision_all_narrow(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                        const void *x, double *scores)
{
    ptn_decision_all_kind(k, m, xkind, x, scores);
}

PTN_INLINE int64_t ptn_predict_narrow(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                      const void *x)
{
    return ptn_predict_kind(k, m, xkind, x);
}

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_H */

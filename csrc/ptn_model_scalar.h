/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model_scalar.h - scoring a fitted linear model (ptn_model_types.h) on
 * dense rows in portable scalar C, without the SIMD kernels and their
 * dispatch: the scoring of the one-file subset (ptn_scoring.h and
 * ptn_scoring.c, made from this header and the model-file reader by
 * tools/amalgamate.py).
 *
 * The rules are those of ptn_model.h (the same bodies, PTN_MODEL_*_BODY),
 * and the dot products are the package's scalar level's (the same template,
 * ptn_scalar_sum.h): the scores are bit for bit those of the package with
 * PERCEPTRON_SIMD=scalar, and equal the other levels' to rounding.
 *
 *   ptn_scalar_decision(m, x)           the activation of a binary model;
 *                                       the largest of the k otherwise
 *   ptn_scalar_decision_all(m, x, out)  all k activations into out[0..k)
 *   ptn_scalar_predict(m, x)            the class index (0/1 binary, 0..k-1
 *                                       multiclass); -1 for a multilabel model
 *
 * x holds m->n_features values of the model's floating type (float for
 * PTN_FLOAT32, double for PTN_FLOAT64).
 */
#ifndef PTN_MODEL_SCALAR_H
#define PTN_MODEL_SCALAR_H

#include "ptn_model_types.h"
#include "ptn_scalar_sum.h"

#ifdef __cplusplus
extern "C" {
#endif

PTN_SCALAR_SUM(PTN_INLINE, ptn_scalar_dot_f32, float, PTN_SCALAR_OP_DOT)
PTN_SCALAR_SUM(PTN_INLINE, ptn_scalar_dot_f64, double, PTN_SCALAR_OP_DOT)

/* w_j.x + b_j, as ptn_row_activation (ptn_model.h) sums it */
PTN_INLINE double ptn_scalar_row_activation(const ptn_linear_model *m, int64_t j, const void *x)
{
    size_t d = (size_t)m->n_features;
    if (m->dtype == PTN_FLOAT32) {
        const float *w = (const float *)m->coef + (size_t)j * d;
        return ptn_scalar_dot_f32(d, (const float *)x, w)
               + (double)((const float *)m->intercept)[j];
    } else {
        const double *w = (const double *)m->coef + (size_t)j * d;
        return ptn_scalar_dot_f64(d, (const double *)x, w) + ((const double *)m->intercept)[j];
    }
}

#define PTN_SCALAR_ACTIVATION_(j) ptn_scalar_row_activation(m, (j), x)

PTN_INLINE double ptn_scalar_decision(const ptn_linear_model *m, const void *x)
{
    PTN_MODEL_DECISION_BODY(m, PTN_SCALAR_ACTIVATION_)
}

PTN_INLINE void ptn_scalar_decision_all(const ptn_linear_model *m, const void *x,
                                        double *scores)
{
    PTN_MODEL_DECISION_ALL_BODY(m, PTN_SCALAR_ACTIVATION_, scores)
}

PTN_INLINE int64_t ptn_scalar_predict(const ptn_linear_model *m, const void *x)
{
    PTN_MODEL_PREDICT_BODY(m, PTN_SCALAR_ACTIVATION_)
}

#undef PTN_SCALAR_ACTIVATION_

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_SCALAR_H */

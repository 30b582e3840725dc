/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model_types.h - a fitted linear model of the package, and its
 * decision rules, with nothing of the SIMD kernels: what ptn_model.h scores
 * through the kernels, ptn_model_scalar.h scores in plain scalar code, and
 * ptn_model_file.h fills from a model file.
 *
 * A ptn_linear_model describes the weights of a fitted linear estimator
 * (Perceptron in every mode, CentroidClassifier): k rows of d weights and k
 * biases, both in one floating type.  It borrows its arrays: they belong to
 * whoever filled the struct (a Python estimator, a model file read into
 * memory) and must outlive every call that uses it.  Scoring only reads the
 * model, so any number of threads may score with one model at once.
 *
 * The rules are the estimator's:
 *   binary     (k = 1): a = w.x + b; the class is 1 (classes_[1]) if a > 0,
 *              else 0 (sign(0) = -1);
 *   multiclass (k >= 3): a_j = w_j.x + b_j; the class is the first j of the
 *              largest a_j;
 *   multilabel (k labels): label j is on when a_j > 0 (use the "all"
 *              functions: ptn_decision_all, ptn_scalar_decision_all).
 * x holds d values of the model's floating type.  Activations are summed in
 * double precision whatever the type.
 */
#ifndef PTN_MODEL_TYPES_H
#define PTN_MODEL_TYPES_H

#include <stdint.h>

#include "ptn_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptn_model_kind {
    PTN_MODEL_BINARY = 0,
    PTN_MODEL_MULTICLASS = 1,
    PTN_MODEL_MULTILABEL = 2
} ptn_model_kind;

typedef enum ptn_dtype {
    PTN_FLOAT32 = 0,
    PTN_FLOAT64 = 1
} ptn_dtype;

typedef struct ptn_linear_model {
    int32_t kind;           /* a ptn_model_kind */
    int32_t dtype;          /* a ptn_dtype: of coef, intercept and x */
    int64_t n_rows;         /* k */
    int64_t n_features;     /* d */
    const void *coef;       /* k x d, row-major */
    const void *intercept;  /* k */
} ptn_linear_model;

/* 0 if m is well formed (known kind and dtype, k and d >= 1, k = 1 exactly
 * for binary, non-NULL arrays), else -1. */
PTN_INLINE int ptn_linear_model_check(const ptn_linear_model *m)
{
    if (m == NULL || m->coef == NULL || m->intercept == NULL) {
        return -1;
    }
    if (m->dtype != PTN_FLOAT32 && m->dtype != PTN_FLOAT64) {
        return -1;
    }
    if (m->n_features < 1 || m->n_rows < 1) {
        return -1;
    }
    switch (m->kind) {
    case PTN_MODEL_BINARY:
        return m->n_rows == 1 ? 0 : -1;
    case PTN_MODEL_MULTICLASS:
    case PTN_MODEL_MULTILABEL:
        return m->n_rows >= 2 ? 0 : -1;
    default:
        return -1;
    }
}

/* The rules above, written once over ACT(j), an expression giving the
 * activation of row j: the bodies of the decision and predict functions of
 * ptn_model.h (through the SIMD kernels) and of ptn_model_scalar.h (scalar
 * code), which differ only in how they sum a dot product.  M is the model. */

/* the activation of a binary model; the largest of the k activations otherwise */
#define PTN_MODEL_DECISION_BODY(M, ACT)              \
    int64_t j_;                                      \
    double best_ = ACT(0);                           \
    for (j_ = 1; j_ < (M)->n_rows; j_++) {           \
        double a_ = ACT(j_);                         \
        if (a_ > best_) {                            \
            best_ = a_;                              \
        }                                            \
    }                                                \
    return best_;

/* all k activations into scores[0..k) */
#define PTN_MODEL_DECISION_ALL_BODY(M, ACT, SCORES)  \
    int64_t j_;                                      \
    for (j_ = 0; j_ < (M)->n_rows; j_++) {           \
        (SCORES)[j_] = ACT(j_);                      \
    }

/* the class index (0/1 binary, 0..k-1 multiclass); -1 for a multilabel
 * model.  Strictly greater: the first of equal activations wins, as
 * numpy.argmax does in the Python predict. */
#define PTN_MODEL_PREDICT_BODY(M, ACT)               \
    int64_t j_, best_j_ = 0;                         \
    double best_;                                    \
    if ((M)->kind == PTN_MODEL_BINARY) {             \
        return ACT(0) > 0.0 ? 1 : 0;                 \
    }                                                \
    if ((M)->kind != PTN_MODEL_MULTICLASS) {         \
        return -1;                                   \
    }                                                \
    best_ = ACT(0);                                  \
    for (j_ = 1; j_ < (M)->n_rows; j_++) {           \
        double a_ = ACT(j_);                         \
        if (a_ > best_) {                            \
            best_ = a_;                              \
            best_j_ = j_;                            \
        }                                            \
    }                                                \
    return best_j_;

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_TYPES_H */

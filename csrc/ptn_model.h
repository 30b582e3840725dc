/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_model.h - scoring a fitted linear model of the package, in plain C.
 *
 * A ptn_linear_model describes the weights of a fitted linear estimator
 * (Perceptron in every mode, CentroidClassifier): k rows of d weights and k
 * biases, both in one floating type.  It borrows its arrays: they belong to
 * whoever filled the struct (a Python estimator, a model file read into
 * memory) and must outlive every call that uses it.  The functions only read
 * the model, so any number of threads may score with one model at once.
 *
 * The rules are the estimator's:
 *   binary     (k = 1): a = w.x + b; the class is 1 (classes_[1]) if a > 0,
 *              else 0 (sign(0) = -1);
 *   multiclass (k >= 3): a_j = w_j.x + b_j; the class is the first j of the
 *              largest a_j;
 *   multilabel (k labels): label j is on when a_j > 0 (use ptn_decision_all).
 * x holds d values of the model's floating type.  Activations are summed in
 * double precision whatever the type.
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

#include "ptn_simd.h"

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

PTN_INLINE double ptn_decision_kind(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                    const void *x)
{
    int64_t j;
    double best = ptn_row_activation_kind(k, m, 0, xkind, x);
    for (j = 1; j < m->n_rows; j++) {
        double a = ptn_row_activation_kind(k, m, j, xkind, x);
        if (a > best) {
            best = a;
        }
    }
    return best;
}

PTN_INLINE void ptn_decision_all_kind(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                      const void *x, double *scores)
{
    int64_t j;
    for (j = 0; j < m->n_rows; j++) {
        scores[j] = ptn_row_activation_kind(k, m, j, xkind, x);
    }
}

PTN_INLINE int64_t ptn_predict_kind(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                    const void *x)
{
    int64_t j, best_j = 0;
    double best;
    if (m->kind == PTN_MODEL_BINARY) {
        return ptn_row_activation_kind(k, m, 0, xkind, x) > 0.0 ? 1 : 0;
    }
    if (m->kind != PTN_MODEL_MULTICLASS) {
        return -1;
    }
    best = ptn_row_activation_kind(k, m, 0, xkind, x);
    for (j = 1; j < m->n_rows; j++) {
        double a = ptn_row_activation_kind(k, m, j, xkind, x);
        /* strictly greater: the first of equal activations wins, as
         * numpy.argmax does in the Python predict */
        if (a > best) {
            best = a;
            best_j = j;
        }
    }
    return best_j;
}

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

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
 */
#ifndef PTN_MODEL_H
#define PTN_MODEL_H

#include "ptn_kernels.h"

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

/* 0 if the model is well formed (known kind and dtype, k and d >= 1, k = 1
 * for binary, k >= 2 otherwise, non-NULL arrays), else -1. */
int ptn_linear_model_check(const ptn_linear_model *m);

/* The activation of row 0 for a binary model; for a multiclass or
 * multilabel model, the largest of the k activations. */
double ptn_decision(const ptn_kernels *k, const ptn_linear_model *m, const void *x);

/* All k activations into scores[0..k). */
void ptn_decision_all(const ptn_kernels *k, const ptn_linear_model *m, const void *x,
                      double *scores);

/* The predicted class index (0 or 1 for binary, 0..k-1 for multiclass);
 * -1 for a multilabel model, which has no single class. */
int64_t ptn_predict(const ptn_kernels *k, const ptn_linear_model *m, const void *x);

#ifdef __cplusplus
}
#endif

#endif /* PTN_MODEL_H */

/*
 * model.c - scoring a ptn_linear_model (see ptn_model.h).
 *
 * The kernel table is a parameter, so the same code serves the Python
 * extension (which passes the table chosen at import) and a plain C program
 * (which passes ptn_active_kernels() after ptn_dispatch_init).
 */
#include "ptn_model.h"


int ptn_linear_model_check(const ptn_linear_model *m)
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

static double ptn_row_activation(const ptn_kernels *k, const ptn_linear_model *m, int64_t j,
                                 const void *x)
{
    size_t d = (size_t)m->n_features;
    if (m->dtype == PTN_FLOAT32) {
        const float *w = (const float *)m->coef + (size_t)j * d;
        return k->dot_f32(d, (const float *)x, w) + (double)((const float *)m->intercept)[j];
    } else {
        const double *w = (const double *)m->coef + (size_t)j * d;
        return k->dot_f64(d, (const double *)x, w) + ((const double *)m->intercept)[j];
    }
}

double ptn_decision(const ptn_kernels *k, const ptn_linear_model *m, const void *x)
{
    int64_t j;
    double best = ptn_row_activation(k, m, 0, x);
    for (j = 1; j < m->n_rows; j++) {
        double a = ptn_row_activation(k, m, j, x);
        if (a > best) {
            best = a;
        }
    }
    return best;
}

void ptn_decision_all(const ptn_kernels *k, const ptn_linear_model *m, const void *x,
                      double *scores)
{
    int64_t j;
    for (j = 0; j < m->n_rows; j++) {
        scores[j] = ptn_row_activation(k, m, j, x);
    }
}

int64_t ptn_predict(const ptn_kernels *k, const ptn_linear_model *m, const void *x)
{
    int64_t j, best_j = 0;
    double best;
    if (m->kind == PTN_MODEL_BINARY) {
        return ptn_row_activation(k, m, 0, x) > 0.0 ? 1 : 0;
    }
    if (m->kind != PTN_MODEL_MULTICLASS) {
        return -1;
    }
    best = ptn_row_activation(k, m, 0, x);
    for (j = 1; j < m->n_rows; j++) {
        double a = ptn_row_activation(k, m, j, x);
        /* strictly greater: the first of equal activations wins, as
         * numpy.argmax does in the Python predict */
        if (a > best) {
            best = a;
            best_j = j;
        }
    }
    return best_j;
}

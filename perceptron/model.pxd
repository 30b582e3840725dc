# The C-level API of a fitted linear model (csrc/ptn_model.h), for other
# Cython code:
#
#     from perceptron.model cimport LinearModel, ptn_linear_model, decision, predict
#
#     cdef LinearModel model = estimator.c_model()      # holds the arrays
#     cdef const ptn_linear_model *m = &model.c_model
#     with nogil:
#         a = decision(m, &X[i, 0])                      # X of the model's dtype
#
# Lifetime: the struct borrows the weights; the LinearModel object keeps them
# alive, so keep a reference to it while its struct is in use.  A later fit
# of the estimator gives the estimator new arrays and leaves an existing
# LinearModel scoring the old model.  Scoring only reads, so any number of
# threads may use one model at once, without the GIL.

from libc.stdint cimport int32_t, int64_t

from perceptron.simd cimport active_simd, ptn_simd, PTN_X_F16, PTN_X_BF16, PTN_X_I8, PTN_X_U8

cdef extern from "ptn_model.h" nogil:
    ctypedef struct ptn_linear_model:
        int32_t kind
        int32_t dtype
        int64_t n_rows
        int64_t n_features
        const void *coef
        const void *intercept

    cdef enum ptn_model_kind:
        PTN_MODEL_BINARY
        PTN_MODEL_MULTICLASS
        PTN_MODEL_MULTILABEL

    cdef enum ptn_dtype:
        PTN_FLOAT32
        PTN_FLOAT64

    # static inline in the header: compiled into the module that cimports this
    int ptn_linear_model_check(const ptn_linear_model *m)
    double ptn_decision(const ptn_simd *k, const ptn_linear_model *m, const void *x)
    void ptn_decision_all(const ptn_simd *k, const ptn_linear_model *m, const void *x,
                          double *scores)
    int64_t ptn_predict(const ptn_simd *k, const ptn_linear_model *m, const void *x)
    # rows stored narrow (xkind: PTN_X_F16, PTN_X_BF16, PTN_X_I8, PTN_X_U8 of
    # perceptron.simd) against a float32 model
    int ptn_linear_model_check_narrow(const ptn_linear_model *m, int xkind)
    double ptn_decision_narrow(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                               const void *x)
    void ptn_decision_all_narrow(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                                 const void *x, double *scores)
    int64_t ptn_predict_narrow(const ptn_simd *k, const ptn_linear_model *m, int xkind,
                               const void *x)


cdef class LinearModel:
    cdef ptn_linear_model c_model
    cdef readonly object coef
    cdef readonly object intercept
    cdef readonly object dtype


# The activation a = w.x + b (binary), or the largest a_j (more rows).
cdef inline double decision(const ptn_linear_model *m, const void *x) noexcept nogil:
    return ptn_decision(active_simd(), m, x)


# The k activations a_j = w_j.x + b_j into scores.
cdef inline void decision_all(const ptn_linear_model *m, const void *x,
                              double *scores) noexcept nogil:
    ptn_decision_all(active_simd(), m, x, scores)


# The class index: 1 if a > 0 else 0 (binary), the first largest a_j
# (multiclass); -1 for a multi-label model.
cdef inline int64_t predict(const ptn_linear_model *m, const void *x) noexcept nogil:
    return ptn_predict(active_simd(), m, x)


# Rows stored narrower than float32: x points at n_features values of the
# narrow kind xkind (PTN_X_F16 for IEEE half, PTN_X_BF16, PTN_X_I8,
# PTN_X_U8: perceptron.simd; perceptron.model.narrow_kind(dtype) maps a
# numpy dtype to it), read as stored, against a float32 model.  Every value
# of those types is a float32 exactly: each activation has the bits of the
# row converted to float32 first.  Check the pair once before the loop:
# ptn_linear_model_check_narrow(m, xkind) == 0 (a float32 model, a known
# kind); the functions trust it.
cdef inline double decision_narrow(const ptn_linear_model *m, int xkind,
                                   const void *x) noexcept nogil:
    return ptn_decision_narrow(active_simd(), m, xkind, x)


cdef inline void decision_all_narrow(const ptn_linear_model *m, int xkind, const void *x,
                                     double *scores) noexcept nogil:
    ptn_decision_all_narrow(active_simd(), m, xkind, x, scores)


cdef inline int64_t predict_narrow(const ptn_linear_model *m, int xkind,
                                   const void *x) noexcept nogil:
    return ptn_predict_narrow(active_simd(), m, xkind, x)

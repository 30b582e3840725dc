# cython: language_level=3, boundscheck=False, wraparound=False
"""Scoring rows with a fitted perceptron from Cython: nogil, in parallel.

Everything here is C-level: the model is a ``ptn_linear_model`` struct
(borrowed from the estimator through ``estimator.c_model()``), and each row is
scored by the package's ``decision`` / ``predict`` functions inside a
``prange`` loop, without the GIL.  Build with ``python setup.py build_ext
--inplace`` next to this file (see setup.py).
"""
import numpy as np

from cython cimport floating
from cython.parallel cimport prange

from perceptron.model cimport (LinearModel, ptn_linear_model, decision, predict,
                               decision_narrow, predict_narrow, ptn_linear_model_check_narrow)
from perceptron.model import narrow_kind
from perceptron.simd cimport axpy_f32, axpy_f64, csr_index, dot_f32, dot_f64, sparse_axpy, sparse_dot


def decision_rows(LinearModel model, const floating[:, ::1] X, double[::1] out):
    """out[i] = the model's activation of row i (binary models)."""
    cdef const ptn_linear_model *m = &model.c_model
    cdef Py_ssize_t i
    _check(model, X.shape[1], out.shape[0], X.shape[0], sizeof(floating))
    for i in prange(X.shape[0], nogil=True):
        out[i] = decision(m, &X[i, 0])


def predict_rows(LinearModel model, const floating[:, ::1] X, long long[::1] out):
    """out[i] = the class index the model predicts for row i."""
    cdef const ptn_linear_model *m = &model.c_model
    cdef Py_ssize_t i
    _check(model, X.shape[1], out.shape[0], X.shape[0], sizeof(floating))
    for i in prange(X.shape[0], nogil=True):
        out[i] = predict(m, &X[i, 0])


def decision_rows_narrow(LinearModel model, X, double[::1] out):
    """out[i] = the activation of row i of X stored as float16, bfloat16,
    int8 or uint8, read as stored (a float32 model; binary models)."""
    cdef int xkind = _narrow_check(model, X, out.shape[0])
    cdef const ptn_linear_model *m = &model.c_model
    # the rows' bytes: the C functions read each row as its kind says
    cdef const unsigned char[:, ::1] xb = X.view(np.uint8)
    cdef Py_ssize_t i
    for i in prange(xb.shape[0], nogil=True):
        out[i] = decision_narrow(m, xkind, &xb[i, 0])


def predict_rows_narrow(LinearModel model, X, long long[::1] out):
    """out[i] = the class index the model predicts for row i of X, stored
    narrow (as decision_rows_narrow)."""
    cdef int xkind = _narrow_check(model, X, out.shape[0])
    cdef const ptn_linear_model *m = &model.c_model
    cdef const unsigned char[:, ::1] xb = X.view(np.uint8)
    cdef Py_ssize_t i
    for i in prange(xb.shape[0], nogil=True):
        out[i] = predict_narrow(m, xkind, &xb[i, 0])


def dot_rows(const floating[:, ::1] X, const floating[::1] w, double[::1] out):
    """out[i] = X[i] . w with the bare SIMD kernel: the yardstick of decision_rows."""
    cdef Py_ssize_t i, d = X.shape[1]
    if w.shape[0] != d or out.shape[0] != X.shape[0]:
        raise ValueError("shapes do not match")
    for i in prange(X.shape[0], nogil=True):
        if floating is float:
            out[i] = dot_f32(d, &X[i, 0], &w[0])
        else:
            out[i] = dot_f64(d, &X[i, 0], &w[0])


def csr_decision_rows(LinearModel model, const floating[::1] data, const csr_index[::1] indices,
                      const csr_index[::1] indptr, double[::1] out):
    """out[i] = w . x_i + b for the CSR rows (binary models), with the sparse kernel."""
    cdef const floating *w = <const floating *>model.c_model.coef
    cdef double b = (<const floating *>model.c_model.intercept)[0]
    cdef Py_ssize_t i, d = model.c_model.n_features, n = indptr.shape[0] - 1
    _check(model, d, out.shape[0], n, sizeof(floating))
    if data.shape[0] and (np.min(indices) < 0 or np.max(indices) >= d):
        raise ValueError("a column index is out of range")
    if n and data.shape[0] == 0:
        out[:] = b
        return
    for i in prange(n, nogil=True):
        out[i] = sparse_dot(indptr[i + 1] - indptr[i], &data[indptr[i]], &indices[indptr[i]],
                            w, d) + b


def sum_rows(const floating[:, ::1] X, floating[::1] w, const floating[::1] data,
             const csr_index[::1] indices, const csr_index[::1] indptr):
    """w += every row of X (axpy) and of the CSR rows (sparse axpy), without the GIL."""
    cdef Py_ssize_t i, d = X.shape[1]
    if w.shape[0] != d:
        raise ValueError("w must have one weight per column")
    with nogil:
        for i in range(X.shape[0]):
            if floating is float:
                axpy_f32(d, 1.0, &X[i, 0], &w[0])
            else:
                axpy_f64(d, 1.0, &X[i, 0], &w[0])
        for i in range(indptr.shape[0] - 1):
            if indptr[i + 1] > indptr[i]:
                sparse_axpy(indptr[i + 1] - indptr[i], 1.0, &data[indptr[i]], &indices[indptr[i]],
                            &w[0])


def decision_one_row(LinearModel model, const floating[::1] x, Py_ssize_t repeat):
    """The activation of one row, computed `repeat` times (for timing a call)."""
    cdef const ptn_linear_model *m = &model.c_model
    cdef double a = 0.0
    cdef Py_ssize_t r
    _check(model, x.shape[0], 0, 0, sizeof(floating))
    with nogil:
        for r in range(repeat):
            a = decision(m, &x[0])
    return a


def dot_one_row(const floating[::1] x, const floating[::1] w, Py_ssize_t repeat):
    """x . w with the bare kernel, `repeat` times (the yardstick of decision_one_row)."""
    cdef double a = 0.0
    cdef Py_ssize_t r, d = x.shape[0]
    with nogil:
        for r in range(repeat):
            if floating is float:
                a = dot_f32(d, &x[0], &w[0])
            else:
                a = dot_f64(d, &x[0], &w[0])
    return a


cdef int _narrow_check(LinearModel model, X, Py_ssize_t n_out) except -1:
    # the narrow kind of X's dtype (TypeError for any other), a float32 model
    # (the weights narrow rows meet), X a C-contiguous 2-D array of the
    # model's width, one output per row
    xkind = narrow_kind(X.dtype)
    if not (isinstance(X, np.ndarray) and X.ndim == 2 and X.flags.c_contiguous):
        raise ValueError("X must be a C-contiguous 2-D array")
    if ptn_linear_model_check_narrow(&model.c_model, xkind) != 0:
        raise TypeError(f"narrow rows need a float32 model, this one is {model.dtype}")
    _check(model, X.shape[1], n_out, X.shape[0], 4)
    return xkind


cdef int _check(LinearModel model, Py_ssize_t d, Py_ssize_t n_out, Py_ssize_t n,
                size_t itemsize) except -1:
    # the struct trusts its caller: check what the C functions cannot
    if d != model.c_model.n_features:
        raise ValueError(f"X has {d} features, the model {model.c_model.n_features}")
    if n_out != n:
        raise ValueError("out must have one entry per row of X")
    if itemsize != model.dtype.itemsize:
        raise TypeError(f"X must have the model's dtype, {model.dtype}")
    return 0

# cython: language_level=3
"""A fitted linear model as a C struct: nogil scoring for Cython and C code,
and the fast one-row path of ``predict_one`` / ``decision_one``.

See _model.pxd for the cimport-able API and csrc/ptn_model.h for the C one.
"""
import numpy as np

from libc.math cimport isfinite
from libc.stdint cimport int64_t

KINDS = {"binary": PTN_MODEL_BINARY, "multiclass": PTN_MODEL_MULTICLASS,
         "multilabel": PTN_MODEL_MULTILABEL}

# the narrow kinds of rows the _narrow functions of model.pxd read as
# stored, by the numpy dtype's name (bfloat16 is ml_dtypes')
NARROW_KINDS = {"float16": PTN_X_F16, "bfloat16": PTN_X_BF16, "int8": PTN_X_I8,
                "uint8": PTN_X_U8}


def narrow_kind(dtype):
    """The narrow kind (``PTN_X_F16``, ... of ``perceptron.simd``) that
    ``decision_narrow`` and the other ``_narrow`` functions of
    ``perceptron/model.pxd`` take for rows of `dtype`: float16, bfloat16
    (``ml_dtypes``), int8 or uint8; raises TypeError for any other dtype."""
    dt = np.dtype(dtype)
    kind = NARROW_KINDS.get(dt.name, 0) if dt.itemsize <= 2 else 0
    if kind == 0:
        raise TypeError(f"dtype must be float16, bfloat16, int8 or uint8 (rows stored narrow), "
                        f"got {dt}")
    return kind

# rows longer than this are worth releasing the GIL for in the one-row path
cdef enum:
    NOGIL_MIN_FEATURES = 4096


cdef class LinearModel:
    """The weights of a fitted linear model, viewed as a ``ptn_linear_model``.

    Made by an estimator's ``c_model()``; holds references to its arrays so
    that the struct's pointers stay valid as long as this object lives.

    Parameters
    ----------
    coef : ndarray (k, d), float32 or float64, C-contiguous
    intercept : ndarray (k,), same dtype
    kind : {"binary", "multiclass", "multilabel"}
    """

    def __init__(self, coef, intercept, kind):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
        coef = np.asarray(coef)
        if coef.dtype not in (np.float32, np.float64):
            raise TypeError(f"coef must be float32 or float64, got {coef.dtype}")
        coef = np.ascontiguousarray(coef)
        intercept = np.ascontiguousarray(intercept, dtype=coef.dtype)
        if coef.ndim != 2 or intercept.shape != (coef.shape[0],):
            raise ValueError(f"coef must be (k, d) and intercept (k,), got {coef.shape} and "
                             f"{intercept.shape}")
        self.coef = coef
        self.intercept = intercept
        self.dtype = coef.dtype
        self.c_model.kind = KINDS[kind]
        self.c_model.dtype = PTN_FLOAT32 if coef.dtype == np.float32 else PTN_FLOAT64
        self.c_model.n_rows = coef.shape[0]
        self.c_model.n_features = coef.shape[1]
        self.c_model.coef = <const void *><size_t>coef.ctypes.data
        self.c_model.intercept = <const void *><size_t>intercept.ctypes.data
        if ptn_linear_model_check(&self.c_model) != 0:
            raise ValueError(f"not a valid {kind} model: coef {coef.shape}")

    @property
    def n_features(self):
        return self.c_model.n_features

    @property
    def n_rows(self):
        return self.c_model.n_rows

    @property
    def kind(self):
        return {v: k for k, v in KINDS.items()}[self.c_model.kind]

    def decision_one(self, x):
        """Activations of one row: a float (binary) or an array (k,)."""
        x = _as_row(self, x)
        if self.c_model.kind == PTN_MODEL_BINARY:
            return _binary(self, x)
        return _all(self, x)

    def predict_one(self, x):
        """Class index of one row (see ``predict`` in _model.pxd)."""
        x = _as_row(self, x)
        if self.c_model.kind == PTN_MODEL_BINARY:
            return 1 if _binary(self, x) > 0.0 else 0
        if self.c_model.kind == PTN_MODEL_MULTILABEL:
            raise ValueError("a multi-label model has no single class: use decision_one(x) > 0")
        # argmax picks the first of equal scores, as ptn_predict does
        return int(np.argmax(_all(self, x)))


cdef object _as_row(LinearModel self, x):
    """x as a C-contiguous 1-D array of the model's dtype and width (no copy
    when it already is one)."""
    cdef Py_ssize_t d = self.c_model.n_features
    if not (type(x) is np.ndarray and x.dtype is self.dtype and x.ndim == 1
            and x.flags.c_contiguous):
        try:
            x = np.ascontiguousarray(x, dtype=self.dtype)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"x must be a 1-D sequence of numbers: {exc}") from None
        if x.ndim != 1:
            raise ValueError(f"x must be 1-D (one row), got shape {x.shape}")
    if x.shape[0] != d:
        raise ValueError(f"x has {x.shape[0]} features, but the model is expecting {d}")
    return x

cdef double _binary(LinearModel self, x) except? -1.0:
    cdef const float[::1] xf
    cdef const double[::1] xd
    cdef const void *p
    cdef double a
    if self.c_model.dtype == PTN_FLOAT32:
        xf = x
        p = &xf[0]
    else:
        xd = x
        p = &xd[0]
    if self.c_model.n_features >= NOGIL_MIN_FEATURES:
        with nogil:
            a = decision(&self.c_model, p)
    else:
        a = decision(&self.c_model, p)
    if not isfinite(a):
        _raise_nonfinite(x)
    return a

cdef object _all(LinearModel self, x):
    cdef const float[::1] xf
    cdef const double[::1] xd
    cdef const void *p
    out = np.empty(self.c_model.n_rows)
    cdef double[::1] scores = out
    if self.c_model.dtype == PTN_FLOAT32:
        xf = x
        p = &xf[0]
    else:
        xd = x
        p = &xd[0]
    with nogil:
        decision_all(&self.c_model, p, &scores[0])
    if not np.isfinite(out).all():
        _raise_nonfinite(x)
    return out


def _raise_nonfinite(x):
    if not np.isfinite(x).all():
        raise ValueError("x contains NaN or infinity")
    raise ValueError("the decision function overflowed (x holds values too large for the "
                     "model's weights)")

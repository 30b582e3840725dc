"""Input validation at the Python boundary.

Everything that reaches a compiled loop went through here: a C-contiguous
float32 or float64 matrix with at least one row and one column, labels that
map onto {-1, +1}, and parameters of the right type and range.  Finiteness of
X is checked inside the loops themselves (a dot product that meets NaN or
infinity is not finite), which saves a full pass over the data; see
``perceptron._core.online``.
"""
import contextvars
import math
import numbers
import operator
import os
from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

from perceptron._core import csr as _csr
from perceptron._core import csr_canonical as _csr_canonical
from perceptron.exceptions import DataConversionWarning, NotFittedError, sklearn_compatible

_FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_F32, _F64 = _FLOAT_DTYPES


def is_sparse(X):
    """Whether X is a scipy.sparse matrix or array (duck-typed: scipy is optional)."""
    return hasattr(X, "tocsr") and hasattr(X, "nnz") and hasattr(X, "format")


class CSRData(NamedTuple):
    """A sparse matrix as plain numpy CSR arrays, without scipy.

    Row ``i`` holds the values ``data[indptr[i]:indptr[i+1]]`` in the columns
    ``indices[indptr[i]:indptr[i+1]]`` (increasing in each row), as
    ``scipy.sparse.csr_matrix`` stores it.  The svmlight readers return it
    (``output="csr"``), and ``check_X`` returns it for every sparse input it
    has checked (float32 or float64 values; int32 or int64 indices and indptr
    of one dtype, C-contiguous; the arrays may be the caller's own, read,
    never written).  Public as ``perceptron.io.CSRData``.

    Binary rows, whose every stored value is 1 (one-hot categories, words
    or hashed features present or not), are kept as their indices alone:
    ``data=None`` asks for them (the weights are then float32), and
    ``binary_csr`` makes them for another dtype.  Their ``data`` is then a
    read-only view repeating one 1.0, which holds no memory per value; the
    linear estimators read the indices alone, with the same results, bit
    for bit, as from the same rows with their ones stored (see the user
    guide's "Data types" page).

    Attributes
    ----------
    data : ndarray of shape (nnz,), float32 or float64, or None
    indices : ndarray of shape (nnz,), int32 or int64
    indptr : ndarray of shape (n_rows + 1,), the dtype of ``indices``
    shape : tuple (n_rows, n_features)
    """

    # an ndarray, or None asking for binary rows (check_X returns them with
    # their view of ones, never None)
    data: Any
    indices: np.ndarray
    indptr: np.ndarray
    shape: Tuple[int, int]

    @property
    def dtype(self):
        """dtype of the values (and of a model trained on them); float32 for
        binary rows given without values (``data=None``)."""
        return _F32 if self.data is None else self.data.dtype

    @property
    def nnz(self):
        """Number of stored values (of indices, for binary rows)."""
        return len(self.indices) if self.data is None else len(self.data)

    @property
    def binary(self):
        """Whether the rows are binary, stored as their indices alone."""
        return self.data is None or _csr.is_binary_values(np.asarray(self.data))

    def astype(self, dtype):
        """The same rows with values of `dtype` (the structure is shared;
        binary rows stay binary)."""
        if self.binary:
            return binary_csr(self.indices, self.indptr, self.shape, dtype)
        if self.data.dtype == dtype:
            return self
        return CSRData(self.data.astype(dtype), self.indices, self.indptr, self.shape)

    def toarray(self):
        """The dense matrix, shape ``shape``, dtype of ``data``."""
        return csr_to_dense(self._values(), self.indices, self.indptr, self.shape)

    def tocsr(self):
        """A ``scipy.sparse.csr_matrix`` viewing the same arrays (needs scipy);
        binary rows get their ones stored."""
        return csr_to_scipy(self._values(), self.indices, self.indptr, self.shape,
                            "CSRData.tocsr()")

    def _values(self):
        """data, with binary rows' ones stored."""
        if self.binary:
            return np.ones(self.nnz, dtype=self.dtype)
        return self.data


def binary_values(nnz, dtype=np.float32):
    """`nnz` ones of `dtype`, as the read-only view of one 1.0 that binary
    CSR rows hold for their values (no memory per value)."""
    dtype = np.dtype(dtype)
    if dtype not in _FLOAT_DTYPES:
        raise TypeError(f"binary rows take float32 or float64 weights, got dtype {dtype}")
    return np.broadcast_to(np.ones(1, dtype=dtype), (int(nnz),))


def binary_csr(indices, indptr, shape, dtype=np.float32):
    """Binary CSR rows (every stored value 1) stored as their indices alone:
    a ``CSRData`` whose ``data`` is the read-only view of ``binary_values``.
    `dtype` (float32 or float64) is the dtype of a model trained on them.
    Public as ``perceptron.io.binary_csr``; checked where it is used, as any
    ``CSRData``."""
    indices = np.asarray(indices)
    return CSRData(binary_values(len(indices), dtype), indices, np.asarray(indptr),
                   (int(shape[0]), int(shape[1])))


def csr_to_dense(data, indices, indptr, shape):
    """The dense array of CSR arrays (dtype of `data`)."""
    out = np.zeros(shape, dtype=data.dtype)
    rows = np.repeat(np.arange(shape[0]), np.diff(indptr))
    out[rows, indices] = data
    return out


def csr_to_scipy(data, indices, indptr, shape, what):
    """A ``scipy.sparse.csr_matrix`` viewing CSR arrays; `what` names the
    caller in the error raised when scipy is missing."""
    try:
        import scipy.sparse as sp
    except ImportError:
        raise ImportError(f"{what} returns a scipy.sparse.csr_matrix and needs scipy (pip install "
                          "scipy); without scipy, pass output='csr' for the numpy arrays (a "
                          "perceptron.io.CSRData) or output='dense' for a dense array") from None
    X = sp.csr_matrix((data, indices, indptr), shape=shape, copy=False)
    if X.indices.dtype != indices.dtype:
        # scipy shrinks int64 indices to int32 when they fit; keep the dtype asked for
        X.indices = indices
        X.indptr = indptr
    X.has_sorted_indices = True
    return X


_INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))
_I32 = _INDEX_DTYPES[0]
_U16 = np.dtype(np.uint16)

# the dense dtypes the linear loops read as stored, against float32 weights
# (csrc/ptn_narrow.h); bfloat16 is ml_dtypes' (an optional library), known
# by its name
_NARROW_NAMES = ("float16", "bfloat16", "int8", "uint8")


def is_narrow(dtype):
    """Whether dense rows of `dtype` are read as stored by the linear loops
    (float16, bfloat16, int8, uint8), with float32 weights."""
    # the width first: float32 and float64 rows, the common case, answer
    # without dtype.name (a property that builds its string, microseconds a
    # call on a small fit's path)
    return dtype.itemsize <= 2 and dtype.name in _NARROW_NAMES


def model_dtype(dtype):
    """The weights' dtype for rows of `dtype`: float32 for the narrow dtypes
    (``is_narrow``), else the rows' own (float32 or float64)."""
    return _F32 if is_narrow(dtype) else dtype


def check_X(X, name="X", accept_sparse=False, narrow=False):
    """Return X as a dense array (``check_array``) or, if `accept_sparse`, as
    a checked ``CSRData`` when X is sparse.

    Sparse input: a ``scipy.sparse`` matrix or array, or a
    ``perceptron.io.CSRData``.  CSR with float32/float64 values and int32 or
    int64 indices (indptr of the same dtype) whose rows have increasing
    columns is used as it is, without a copy (int64 indices stay int64).
    Converted once: other formats (CSC, COO, ...) to CSR, other numeric
    values to float64, other index dtypes (or int32 indices with an int64
    indptr) to int64.  A row with unsorted or repeated columns makes a
    canonical copy (sorted, repeats summed); the caller's matrix is never
    modified.  Values are not checked for NaN and infinity here: the loops
    meet them (a non-finite activation) and raise.

    With `narrow`, a dense array of a narrow dtype (``is_narrow``: float16,
    bfloat16, int8, uint8) is returned as it is stored (made C-contiguous
    in its own dtype if it is not), never widened; and sparse rows whose
    values are all 1.0 come back binary (``CSRData.binary``: the values
    replaced by a view of one 1.0, found in one pass over them, no copy),
    as do binary rows given (``data=None``, float32).  Without `narrow`,
    binary rows get their ones stored, for the loops that read values.
    """
    if type(X) is np.ndarray and X.ndim == 2 and (X.dtype is _F64 or X.dtype is _F32) \
            and X.size and X.flags.c_contiguous:
        # the usual X, returned as check_array returns it, without its steps
        # (a small fit spends microseconds in them); the native dtypes are
        # numpy's singletons, anything else takes the steps
        return X
    if accept_sparse and (is_sparse(X) or isinstance(X, CSRData)):
        return _check_csr(X, name, narrow)
    if narrow and isinstance(X, np.ndarray) and is_narrow(X.dtype):
        return _check_narrow(X, name)
    return check_array(X, name)


def _check_narrow(X, name):
    """check_array's checks of shape, for a narrow array kept as stored."""
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got {X.ndim}-D of shape {X.shape}")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} has shape {X.shape}: at least one sample and one feature are "
                         "required")
    if not X.dtype.isnative:
        X = X.astype(X.dtype.newbyteorder("="))
    return X if X.flags.c_contiguous else np.ascontiguousarray(X)


def _check_csr(X, name, binary=False):
    shape = tuple(X.shape)
    if len(shape) != 2:
        raise ValueError(f"{name} must be 2-D, got a sparse {len(shape)}-D input of shape {shape}")
    if is_sparse(X):
        if X.format != "csr":
            X = X.tocsr()  # CSC, COO, ...: converted once (a new matrix)
        data, indices, indptr = X.data, X.indices, X.indptr
    else:
        data, indices, indptr = (None if a is None else np.asarray(a)
                                 for a in (X.data, X.indices, X.indptr))
    n, d = (int(v) for v in shape)
    if n <= 0:
        raise ValueError(f"{name} has 0 sample(s) (shape={shape}) while a minimum of 1 is "
                         "required.")
    if d <= 0:
        raise ValueError(f"{name} has 0 feature(s) (shape={shape}) while a minimum of 1 is "
                         "required.")
    # binary rows given as such: no values (float32 weights), or their view of one 1.0
    given_binary = data is None or (data.ndim == 1 and _csr.is_binary_values(data))
    parts = (("indices", indices), ("indptr", indptr))
    for part, arr in parts if data is None else (("data", data),) + parts:
        if arr.ndim != 1:
            raise ValueError(f"{name}.{part} must be 1-D, got shape {arr.shape}")
    for part, arr in parts:
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name}.{part} must hold integers, got dtype {arr.dtype}")
    dtype = _F32 if data is None else _as_float(data[:1], f"{name}.data").dtype
    if given_binary:
        data = binary_values(len(indices) if data is None else len(data), dtype)
    else:
        data = _as_float(data, f"{name}.data")
    # 16-bit indices of binary rows (widths under 65,536) read as stored,
    # rows of up to ROW16_MAX values (the loops widen a row on the stack)
    keep16 = binary and given_binary and indices.dtype == _U16 and indices.dtype.isnative \
        and indptr.dtype in _INDEX_DTYPES and indptr.dtype.isnative and len(indptr) == n + 1 \
        and _csr.max_row_length(np.ascontiguousarray(indptr)) <= _csr.ROW16_MAX
    if keep16:
        pass
    elif indices.dtype.itemsize < 4 and indptr.dtype == _I32 and indptr.dtype.isnative:
        # 8- and 16-bit indices (uint16 for widths under 65,536) beside int32
        # row pointers: int32 ones, every value of theirs fits, half the bytes of int64
        indices = indices.astype(np.int32)
    if not keep16 and (indices.dtype != indptr.dtype or indices.dtype not in _INDEX_DTYPES
                       or not indices.dtype.isnative):
        indices = indices.astype(np.int64)
        indptr = indptr.astype(np.int64)
    if len(indptr) != n + 1:
        raise ValueError(f"{name}.indptr has {len(indptr)} entries; a CSR matrix of {n} rows "
                         f"needs {n + 1}")
    if len(indices) != len(data):
        raise ValueError(f"{name} has {len(data)} values but {len(indices)} column indices")
    indices, indptr = np.ascontiguousarray(indices), np.ascontiguousarray(indptr)
    if not given_binary:
        data = np.ascontiguousarray(data)
    if keep16:
        code, pos = _csr.check_structure_u16(indices, indptr, d)
    else:
        code, pos = _csr.check_structure(indices, indptr, d)
    if code == _csr.STATUS_NOT_CANONICAL and given_binary:
        raise ValueError(_binary_order_error(name, pos, indices, indptr))
    if code == _csr.STATUS_NOT_CANONICAL:
        data, indices, indptr = canonical_csr(data, indices, indptr, n)
    elif code != _csr.STATUS_OK:
        raise ValueError(_structure_error(name, code, pos, indices, indptr, d))
    if given_binary and not binary:
        data = np.ones(len(indices), dtype=dtype)  # for the loops that read values
    elif binary and not given_binary and _csr.all_ones(data):
        data = binary_values(len(indices), dtype)
    return CSRData(data, indices, indptr, (n, d))


def _binary_order_error(name, pos, indices, indptr):
    row = int(np.searchsorted(indptr, pos, side="right")) - 1
    what = "repeats" if indices[pos] == indices[pos - 1] else "is out of increasing order"
    return (f"{name}: binary rows (no values) must have increasing columns in each row; row "
            f"{row} {what} at position {pos} (column {indices[pos]} after {indices[pos - 1]}); "
            "sort each row's indices and drop repeats first (scipy: X.sum_duplicates())")


def csr_structure(indices, indptr, n_features):
    """(code, position) of the compiled CSR checker ``perceptron._core.csr``:
    ``CSR_OK``, ``CSR_NOT_CANONICAL`` (valid, but some row has unsorted or
    repeated columns) or an error code.  `indices` and `indptr` must be
    C-contiguous, both int32 or both int64."""
    return _csr.check_structure(indices, indptr, n_features)


CSR_OK = _csr.STATUS_OK
CSR_NOT_CANONICAL = _csr.STATUS_NOT_CANONICAL
CSR_NEGATIVE_INDEX = _csr.STATUS_NEGATIVE_INDEX
CSR_INDEX_TOO_LARGE = _csr.STATUS_INDEX_TOO_LARGE


def _structure_error(name, code, pos, indices, indptr, d):
    if code == _csr.STATUS_BAD_INDPTR_START:
        return f"{name}.indptr must start at 0, got {indptr[0]}"
    if code == _csr.STATUS_BAD_INDPTR_END:
        return (f"{name}.indptr must end at the number of stored values ({len(indices)}), "
                f"got {indptr[-1]}")
    if code == _csr.STATUS_BAD_INDPTR_ORDER:
        return (f"{name}.indptr must not decrease: indptr[{pos}] = {indptr[pos]} after "
                f"indptr[{pos - 1}] = {indptr[pos - 1]}")
    if code == _csr.STATUS_NEGATIVE_INDEX:
        return f"{name} has a negative column index ({indices[pos]}) at position {pos}"
    return (f"{name} has the column index {indices[pos]} at position {pos}, out of range for "
            f"its {d} feature(s) (indices must be < n_features)")


def canonical_csr(data, indices, indptr, n):
    """CSR arrays with each row's columns sorted and repeats summed (in their
    stored order, as scipy's sum_duplicates and toarray sum them); the dtypes
    of data, indices and indptr are kept.  New arrays when some row needed
    it; the arrays given, unchanged, when none did.  float32 and float64
    values take the compiled pass (perceptron._core.csr_canonical: only the
    rows out of order are sorted, in a copy, in time linear in the values);
    other value dtypes (svmlight's writer accepts integers) a numpy sort."""
    if data.dtype in _FLOAT_DTYPES and data.dtype.isnative and indices.dtype == indptr.dtype \
            and indices.dtype in _INDEX_DTYPES and indices.dtype.isnative:
        fixed = _csr_canonical.canonical_rows(np.ascontiguousarray(data),
                                              np.ascontiguousarray(indices),
                                              np.ascontiguousarray(indptr))
        return (data, indices, indptr) if fixed is None else fixed
    rows = np.repeat(np.arange(n, dtype=np.intp), np.diff(indptr))
    order = np.lexsort((indices, rows))  # stable: repeats keep their stored order
    rows, cols, vals = rows[order], indices[order], data[order]
    first = np.ones(len(cols), dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
    starts = np.flatnonzero(first)
    vals = np.add.reduceat(vals, starts) if len(starts) else vals
    new_indptr = np.zeros(n + 1, dtype=indptr.dtype)
    np.cumsum(np.bincount(rows[starts], minlength=n), out=new_indptr[1:])
    return (np.ascontiguousarray(vals, dtype=data.dtype), np.ascontiguousarray(cols[starts]),
            new_indptr)


def check_array(X, name="X"):
    """Return X as a 2-D C-contiguous float32 or float64 array.

    float32 and float64 arrays are returned as they are when C-contiguous (no
    copy); other real dtypes (integers, booleans, float16) become float64
    once; anything else raises a TypeError naming `name`.  The caller's array
    is never modified.
    """
    if is_sparse(X):
        raise TypeError(f"{name} is a sparse matrix; pass a dense array (X.toarray())")
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a 2-D array of numbers, got a string")
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    arr = _as_float(arr, name)
    if arr.ndim != 2:
        hint = ""
        if arr.ndim == 1:
            hint = ("; Reshape your data: X.reshape(-1, 1) for a single feature or"
                    " X.reshape(1, -1) for a single sample")
        raise ValueError(f"{name} must be a 2-D array, got {arr.ndim}-D of shape {arr.shape}{hint}")
    n, d = arr.shape
    if n == 0:
        raise ValueError(f"{name} has 0 sample(s) (shape={arr.shape}) while a minimum of 1 is "
                         "required.")
    if d == 0:
        raise ValueError(f"{name} has 0 feature(s) (shape={arr.shape}) while a minimum of 1 is "
                         "required.")
    if not arr.flags.c_contiguous:
        arr = np.ascontiguousarray(arr)
    return arr


def _as_float(arr, name):
    kind = arr.dtype.kind
    if arr.dtype in _FLOAT_DTYPES:
        if not arr.dtype.isnative:
            return arr.astype(arr.dtype.newbyteorder("="))
        return arr
    if kind in "iub" or kind == "f":
        return arr.astype(np.float64)
    if kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {arr.dtype}; only real "
                         "numbers are")
    if kind == "O":
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} has dtype object and its values are not all numbers: {exc}") from None
    raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")


def check_sample_weight(sample_weight, n):
    """None, or the weights as a C-contiguous float64 array (n,): finite and
    non-negative; a scalar stands for that weight on every sample."""
    if sample_weight is None:
        return None
    sw = np.asarray(sample_weight)
    if sw.ndim == 0:
        sw = np.full(n, float(sw))
    if sw.dtype.kind not in "iuf" and sw.dtype.kind != "b":
        raise TypeError(f"sample_weight must hold numbers, got dtype {sw.dtype}")
    sw = np.ascontiguousarray(sw, dtype=np.float64)
    if sw.shape != (n,):
        raise ValueError(f"sample_weight has shape {sw.shape}, expected ({n},)")
    if not np.isfinite(sw).all():
        raise ValueError("sample_weight contains NaN or infinity")
    if (sw < 0).any():
        raise ValueError("sample_weight must be non-negative")
    return sw


def check_finite(arr, name="X"):
    """Raise ValueError if a float array holds NaN or infinity."""
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values first")
    return arr


def check_labels(y, n_samples, name="y"):
    """Return y as a 1-D array of length n_samples (a column vector is raveled).

    Float labels must be whole numbers: a continuous target is a regression
    problem, not a classification one.
    """
    if y is None:
        raise ValueError(f"{name}: this estimator requires y to be passed, but the target y is None")
    if is_sparse(y):
        raise TypeError(f"{name} must be a 1-D array of labels, got a sparse matrix")
    try:
        arr = np.asarray(y)
    except Exception as exc:
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        import warnings

        warnings.warn(f"A column-vector y was passed when a 1d array was expected: {name} has "
                      f"shape {arr.shape} and was raveled to ({arr.shape[0]},)",
                      sklearn_compatible(DataConversionWarning), stacklevel=3)
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of labels, got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but {name} has {arr.shape[0]}; they must match")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} has complex dtype {arr.dtype}; labels must be real or strings")
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains NaN or infinity; every sample needs a label")
        if (arr != np.round(arr)).any():
            raise ValueError(f"Unknown label type: continuous. {name} holds non-integer numbers, "
                             "a regression target; a classifier needs class labels")
    if arr.dtype.kind == "O":
        if any(v is None or (isinstance(v, float) and v != v) for v in arr):
            raise ValueError(f"{name} contains None or NaN; every sample needs a label")
    return arr


def require_two_classes(classes):
    """Raise the ValueError of a fit whose labels hold a single class."""
    if len(classes) < 2:
        label = classes[0]
        if isinstance(label, np.generic):  # the value, not numpy's repr (np.int64(0))
            label = label.item()
        raise ValueError(f"y has one class ({label!r}); a classifier needs samples of at "
                         "least two classes")


def check_fit_input(X, y):
    """(X, y, classes) for a fit on X (dense or sparse, as ``check_X`` with
    ``accept_sparse=True`` takes it) and labels y of at least two classes
    (``classes``: the sorted distinct labels, the future ``classes_``)."""
    X = check_X(X, accept_sparse=True)
    y = check_labels(y, X.shape[0])
    classes = unique_labels(y)
    require_two_classes(classes)
    return X, y, classes


_PEEL_MAX_CLASSES = 16


def unique_labels(y, name="y"):
    """Sorted distinct labels of y (the future ``classes_``)."""
    try:
        if y.dtype.kind in "iuf" and y.size:
            # two classes, the usual case: the least and the greatest label
            # and one pass to see there is nothing between (no copy), 8x
            # faster than np.unique's sort of a9a's 32,561 float labels
            lo, hi = y.min(), y.max()
            if lo == hi or np.logical_or(y == lo, y == hi).all():
                return np.unique(np.array([lo, hi], dtype=y.dtype))
        if y.dtype.kind in "US":
            # few classes (the usual case): peel one label off per pass, a
            # vectorised comparison, 3x faster than sorting or hashing every
            # string; many classes: a set of Python strings
            found: list = []
            rest = y
            while rest.size and len(found) <= _PEEL_MAX_CLASSES:
                found.append(rest[0])
                rest = rest[rest != rest[0]]
            if not rest.size:
                return np.sort(np.array(found, dtype=y.dtype))
        if y.dtype.kind in "USO":
            # a set of Python objects beats sorting every string
            return np.array(sorted(set(y.tolist())), dtype=y.dtype)
        return np.unique(y)
    except TypeError:
        raise TypeError(f"{name} mixes label types that cannot be sorted together "
                        f"(for example numbers and strings)") from None


def label_signs(mask):
    """int8 signs of a boolean array: +1 where it is true, -1 elsewhere.

    Arithmetic on the booleans' bytes: 8x faster than np.where on a9a's
    32,561 labels (3.4 against 29 us), which counted in a fit's fixed cost."""
    mask = np.ascontiguousarray(mask, dtype=bool)
    return mask.view(np.int8) * np.int8(2) - np.int8(1)


def encode_binary(y, classes, name="y"):
    """Map labels to int8 signs: classes[1] -> +1, classes[0] -> -1."""
    return label_signs(y == classes[1])


_MASK64 = (1 << 64) - 1


def mix64(x):
    """SplitMix64's finaliser: nearby integers give unrelated 64-bit seeds."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


# int random_state -> its seed (check_random_seed), for the ints seen first
_SEEDS: dict = {}
_SEEDS_MAX = 1024


def check_random_seed(random_state):
    """A 64-bit seed for the compiled generator, from a ``random_state``.

    None draws fresh entropy from the operating system; a non-negative int
    gives a reproducible seed (hashed, so that nearby ints give unrelated
    streams); a ``numpy.random.Generator`` or ``RandomState`` is drawn from.
    """
    if random_state is None:
        return int.from_bytes(os.urandom(8), "little")
    if type(random_state) is int:  # the usual case: a pure function of the int, remembered
        seed = _SEEDS.get(random_state)
        if seed is not None:
            return seed
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        value = int(random_state)
        if value < 0:
            raise ValueError(f"random_state must be non-negative, got {random_state}")
        seed = 0
        while True:  # fold ints wider than 64 bits in, 64 bits at a time
            seed = mix64(seed ^ (value & _MASK64))
            value >>= 64
            if not value:
                break
        if type(random_state) is int and len(_SEEDS) < _SEEDS_MAX:
            _SEEDS[random_state] = seed
        return seed
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**64, dtype=np.uint64))
    if isinstance(random_state, np.random.RandomState):
        high, low = random_state.randint(0, 2**32, size=2, dtype=np.uint64)
        return (int(high) << 32) | int(low)
    raise ValueError("random_state must be None, a non-negative int, a numpy.random.Generator "
                     f"or a numpy.random.RandomState; got {random_state!r}")


def is_one_of(value, choices):
    """Whether value is one of the choices (None or strings), without
    comparing arrays or other objects whose == is not a bool."""
    return any(value is c or (isinstance(value, str) and value == c) for c in choices)


_INT_MAX = 2**63 - 1
# the voted and kernel perceptrons record each epoch's counts in arrays of
# max_iter numbers, allocated before the first epoch: a bound on max_iter keeps
# that allocation in proportion (80 MB at most)
MAX_EPOCHS_RECORDED = 10**7


def check_scalar(value, name, kind, *, low=None, high=None, low_open=False, high_open=False):
    """Check a hyper-parameter's type and range; return it as int/float/bool.

    kind is "int", "float" or "bool".  Booleans are not accepted as numbers.
    An int is at most ``2**63 - 1`` (the loops' Py_ssize_t) unless `high`
    says otherwise.
    """
    if kind == "bool":
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"{name} must be True or False, got {value!r}")
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number, got the boolean {value!r}")
    if kind == "int":
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError(f"{name} must be an int, got {value!r}") from None
        if high is None:
            high = _INT_MAX
    else:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {value!r}")
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
    if low is not None and (value < low or (low_open and value == low)):
        bound = f"> {low}" if low_open else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    if high is not None and (value > high or (high_open and value == high)):
        bound = f"< {high}" if high_open else f"<= {high}"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    return value


MAX_FIT_BYTES_VARIABLE = "PERCEPTRON_MAX_FIT_BYTES"
DEFAULT_MAX_FIT_BYTES = 4 << 30


def max_fit_bytes():
    """The most memory a fit may plan to allocate for its model, in bytes:
    the limit of an ``allowed_fit_bytes`` context, else
    $PERCEPTRON_MAX_FIT_BYTES, else 4 GiB."""
    allowed = _allowed_fit_bytes.get()
    if allowed is not None:  # an allowed_fit_bytes context
        return allowed
    text = os.environ.get(MAX_FIT_BYTES_VARIABLE, "").strip()
    if not text:
        return DEFAULT_MAX_FIT_BYTES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{MAX_FIT_BYTES_VARIABLE}={text!r:.40}: a number of bytes (a positive "
                         "integer) is needed")
    return value


def check_fit_bytes(size, what, advice):
    """A ValueError, before anything is allocated, when a fit would need
    `size` bytes (`what` says for what) over ``max_fit_bytes()``."""
    limit = max_fit_bytes()
    if size > limit:
        raise ValueError(f"{what} would take {size / 2**30:.2f} GiB, more than the limit of "
                         f"{limit / 2**30:.2f} GiB: {advice}, or raise the limit with the "
                         f"environment variable {MAX_FIT_BYTES_VARIABLE} (bytes)")


def check_is_fitted(estimator, attribute="coef_"):
    if not hasattr(estimator, attribute):
        raise sklearn_compatible(NotFittedError)(
            f"This {type(estimator).__name__} instance is not fitted yet; call fit before "
            "using it")


def check_n_features(estimator, X):
    d = X.shape[1]
    if d != estimator.n_features_in_:
        raise ValueError(f"X has {d} features, but {type(estimator).__name__} is expecting "
                         f"{estimator.n_features_in_} features as input")


def _feature_names(X):
    """Column names of a DataFrame-like X when they are all strings, else None."""
    if type(X) is np.ndarray:
        return None
    columns = getattr(X, "columns", None)
    if columns is None or not hasattr(X, "dtypes"):
        return None
    names = np.asarray(list(columns), dtype=object)
    is_str = np.array([isinstance(name, str) for name in names], dtype=bool)
    if is_str.all() and len(names):
        return names
    if is_str.any():
        raise TypeError("Feature names are only supported if all input features have string "
                        f"names; X's columns mix strings with {sorted({type(n).__name__ for n in names[~is_str]})}")
    return None


def check_feature_names(estimator, X, *, reset):
    """Record (reset=True, at fit) or check the column names of a DataFrame X.

    As scikit-learn does: names that differ from the fit's are an error; a
    missing or new set of names, a warning.
    """
    names = _feature_names(X)
    cls = type(estimator).__name__
    if reset:
        if names is not None:
            estimator.feature_names_in_ = names
        elif hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
        return
    # a model fitted without names has no feature_names_in_: read from the
    # instance's dict, as the lookup would find it, unless the class defines
    # the name (a property); a failed lookup would reach the estimators'
    # __getattr__, whose AttributeError costs microseconds on every
    # partial_fit and predict call
    fields = getattr(estimator, "__dict__", None)
    if fields is None or hasattr(type(estimator), "feature_names_in_"):
        fitted = getattr(estimator, "feature_names_in_", None)
    else:
        fitted = fields.get("feature_names_in_")
    if fitted is None and names is None:
        return
    import warnings

    if fitted is None:
        warnings.warn(f"X has feature names, but {cls} was fitted without feature names",
                      UserWarning, stacklevel=3)
    elif names is None:
        warnings.warn(f"X does not have valid feature names, but {cls} was fitted with feature "
                      "names", UserWarning, stacklevel=3)
    elif len(names) != len(fitted) or (names != fitted).any():
        unseen = sorted(set(names) - set(fitted))
        missing = sorted(set(fitted) - set(names))
        detail = []
        if unseen:
            detail.append(f"unseen at fit time: {unseen[:5]}")
        if missing:
            detail.append(f"seen at fit time, missing now: {missing[:5]}")
        if not detail:
            detail.append("the same names in a different order")
        raise ValueError("The feature names should match those that were passed during fit; "
                         + "; ".join(detail))


# ------------------------------------------------ weights sized by the data

_allowed_fit_bytes: "contextvars.ContextVar[Optional[int]]" = contextvars.ContextVar(
    "perceptron_max_fit_bytes", default=None)


class allowed_fit_bytes:
    """``with allowed_fit_bytes(n):`` fits in this context (thread, task) may
    plan up to `n` bytes for their models, whatever ``PERCEPTRON_MAX_FIT_BYTES``
    says (the command line's ``--max-weight-memory``)."""

    def __init__(self, limit):
        self.limit = int(limit)
        self._tokens: "list[contextvars.Token[Optional[int]]]" = []

    def __enter__(self):
        self._tokens.append(_allowed_fit_bytes.set(self.limit))
        return self

    def __exit__(self, *exc):
        _allowed_fit_bytes.reset(self._tokens.pop())


def check_weight_memory(n_vectors, n_features, bytes_per_value, who):
    """A ValueError before a fit allocates weights of `n_vectors` x
    `n_features` values of `bytes_per_value` bytes (all its arrays of that
    shape) when they would take more than ``max_fit_bytes()``.  The width of
    sparse data is its largest column index + 1: one svmlight line of 22
    bytes can ask for gigabytes."""
    need = n_vectors * n_features * bytes_per_value
    if need <= (64 << 20):  # never refused: no environment read for the usual fit
        return
    check_fit_bytes(need, f"{who}: the weights ({n_vectors} vector(s) of n_features="
                    f"{n_features:,}, the width of X)",
                    "for data this wide, hash the features into fewer columns (the hashing "
                    "trick, e.g. sklearn.feature_extraction.FeatureHasher)")

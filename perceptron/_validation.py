"""Input validation at the Python boundary.

Everything that reaches a compiled loop went through here: a C-contiguous
float32 or float64 matrix with at least one row and one column, labels that
map onto {-1, +1}, and parameters of the right type and range.  Finiteness of
X is checked inside the loops themselves (a dot product that meets NaN or
infinity is not finite), which saves a full pass over the data; see
``perceptron._online``.
"""
import numbers
import operator
import os

import numpy as np

from .exceptions import DataConversionWarning, NotFittedError

_FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _is_sparse(X):
    return hasattr(X, "tocsr") and hasattr(X, "nnz") and hasattr(X, "format")


def check_array(X, name="X"):
    """Return X as a 2-D C-contiguous float32 or float64 array.

    float32 and float64 arrays are returned as they are when C-contiguous (no
    copy); other real dtypes (integers, booleans, float16) become float64
    once; anything else raises a TypeError naming `name`.  The caller's array
    is never modified.
    """
    if _is_sparse(X):
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
            hint = (" (reshape a single feature with X.reshape(-1, 1) or a single"
                    " sample with X.reshape(1, -1))")
        raise ValueError(f"{name} must be a 2-D array, got {arr.ndim}-D of shape {arr.shape}{hint}")
    n, d = arr.shape
    if n == 0:
        raise ValueError(f"{name} has 0 samples (shape {arr.shape}); at least 1 is required")
    if d == 0:
        raise ValueError(f"{name} has 0 features (shape {arr.shape}); at least 1 is required")
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
        raise TypeError(f"{name} has complex dtype {arr.dtype}; only real numbers are supported")
    if kind == "O":
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} has dtype object and its values are not all numbers: {exc}") from None
    raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")


def check_finite(arr, name="X"):
    """Raise ValueError if a float array holds NaN or infinity."""
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values first")
    return arr


def check_labels(y, n_samples, name="y"):
    """Return y as a 1-D array of length n_samples (a column vector is raveled)."""
    if _is_sparse(y):
        raise TypeError(f"{name} must be a 1-D array of labels, got a sparse matrix")
    try:
        arr = np.asarray(y)
    except Exception as exc:
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        import warnings

        warnings.warn(f"{name} is a column vector of shape {arr.shape}; it was raveled to "
                      f"({arr.shape[0]},)", DataConversionWarning, stacklevel=3)
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of labels, got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but {name} has {arr.shape[0]}; they must match")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} has complex dtype {arr.dtype}; labels must be real or strings")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; every sample needs a label")
    if arr.dtype.kind == "O":
        if any(v is None or (isinstance(v, float) and v != v) for v in arr):
            raise ValueError(f"{name} contains None or NaN; every sample needs a label")
    return arr


def unique_labels(y, name="y"):
    """Sorted distinct labels of y (the future ``classes_``)."""
    try:
        if y.dtype.kind in "USO":
            # a set of Python objects beats sorting every string
            return np.array(sorted(set(y.tolist())), dtype=y.dtype)
        return np.unique(y)
    except TypeError:
        raise TypeError(f"{name} mixes label types that cannot be sorted together "
                        f"(for example numbers and strings)") from None


def encode_binary(y, classes, name="y"):
    """Map labels to int8 signs: classes[1] -> +1, classes[0] -> -1."""
    return np.where(y == classes[1], 1, -1).astype(np.int8)


_MASK64 = (1 << 64) - 1


def _mix64(x):
    """SplitMix64's finaliser: nearby integers give unrelated 64-bit seeds."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def check_random_seed(random_state):
    """A 64-bit seed for the compiled generator, from a ``random_state``.

    None draws fresh entropy from the operating system; a non-negative int
    gives a reproducible seed (hashed, so that nearby ints give unrelated
    streams); a ``numpy.random.Generator`` or ``RandomState`` is drawn from.
    """
    if random_state is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        value = int(random_state)
        if value < 0:
            raise ValueError(f"random_state must be non-negative, got {random_state}")
        seed = 0
        while True:  # fold ints wider than 64 bits in, 64 bits at a time
            seed = _mix64(seed ^ (value & _MASK64))
            value >>= 64
            if not value:
                return seed
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**64, dtype=np.uint64))
    if isinstance(random_state, np.random.RandomState):
        high, low = random_state.randint(0, 2**32, size=2, dtype=np.uint64)
        return (int(high) << 32) | int(low)
    raise ValueError("random_state must be None, a non-negative int, a numpy.random.Generator "
                     f"or a numpy.random.RandomState; got {random_state!r}")


def check_scalar(value, name, kind, *, low=None, high=None, low_open=False, high_open=False):
    """Check a hyper-parameter's type and range; return it as int/float/bool.

    kind is "int", "float" or "bool".  Booleans are not accepted as numbers.
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
    else:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {value!r}")
        value = float(value)
        if not np.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
    if low is not None and (value < low or (low_open and value == low)):
        bound = f"> {low}" if low_open else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    if high is not None and (value > high or (high_open and value == high)):
        bound = f"< {high}" if high_open else f"<= {high}"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    return value


def check_is_fitted(estimator, attribute="coef_"):
    if not hasattr(estimator, attribute):
        raise NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet; "
                             "call fit before using it")


def check_n_features(estimator, X):
    d = X.shape[1]
    if d != estimator.n_features_in_:
        raise ValueError(f"X has {d} features, but {type(estimator).__name__} was fitted with "
                         f"{estimator.n_features_in_} features")

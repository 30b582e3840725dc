"""Type aliases of the public API (for annotations only; nothing here runs
in a fit).

``X`` is anything ``numpy.asarray`` takes (lists, ndarrays, pandas
DataFrames), a scipy.sparse matrix (typed as such by scipy-stubs when they
are installed; any object otherwise) or a :class:`perceptron.io.CSRData`.
"""
from typing import Any, Self

import numpy as np
import numpy.typing as npt

__all__ = ["MatrixLike", "ArrayLike", "Float64Array", "LabelArray", "Self"]

# The data a fit or a prediction takes.  Both are Any to a type checker: the
# estimators take more than numpy.typing.ArrayLike says (scipy.sparse matrices,
# CSRData, pandas objects; checked at run time by perceptron._common.validation), and
# their bodies rebind X and y to the checked arrays.
MatrixLike = Any  # array-like, scipy.sparse matrix or CSRData, (n_samples, n_features)
ArrayLike = Any  # array-like: labels, sample weights, a row
# scores (decision_function) and labels (predict)
Float64Array = npt.NDArray[np.float64]
LabelArray = npt.NDArray[Any]

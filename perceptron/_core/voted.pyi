# Type stubs of the compiled module perceptron._core.voted (see voted.pyx).
# X: a dense float32/float64 array or checked CSR data (perceptron._common.validation.CsrInput).
from typing import Callable, Optional, Any, Dict

import numpy as np
import numpy.typing as npt

STATUS_OK: int
STATUS_NONFINITE_X: int
STATUS_OVERFLOW: int
STATUS_NO_MEMORY: int

def fit_voted(X: Any, y: npt.NDArray[np.int8], rows: npt.NDArray[np.intp],
              *, fit_intercept: bool, shuffle: bool, max_iter: int, seed: int,
              max_vectors: int,
              on_epoch: Optional[Callable[[int, int], Any]] = None,
              sparse: bool = False) -> Dict[str, Any]: ...
def decision_voted(X: Any, V: npt.NDArray[np.floating],
                   b: npt.NDArray[np.float64], c: npt.NDArray[np.int64],
                   out: npt.NDArray[np.float64], start: int = ...) -> None: ...
def decision_voted_updates(X: Any, ptr: npt.NDArray[np.int64], idx: npt.NDArray[np.int64],
                           val: npt.NDArray[np.float64], upto: npt.NDArray[np.int64],
                           b: npt.NDArray[np.float64], c: npt.NDArray[np.int64],
                           out: npt.NDArray[np.float64], start: int = ...) -> None: ...

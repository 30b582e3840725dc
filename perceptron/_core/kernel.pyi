# Type stubs of the compiled module perceptron._core.kernel (see kernel.pyx).
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

KIND_LINEAR: int
KIND_POLY: int
KIND_RBF: int
KIND_SIGMOID: int
KIND_PRECOMPUTED: int
STATUS_OK: int
STATUS_OVERFLOW: int
BLOCK_SIZE: int

def fit_dual(X: npt.NDArray[np.floating], y: npt.NDArray[np.int8], *, kind: int, gamma: float,
             coef0: float, degree: int, eta: float, fit_intercept: bool, shuffle: bool,
             max_iter: int, seed: int, cache_columns: int, max_support_vectors: int = ...,
             block: int = ..., n_threads: int = ...,
             runner: Optional[Callable[[Callable[[int, int], None], int, int], None]] = ...,
             on_epoch: Optional[Callable[[int, int], None]] = ...) -> Dict[str, Any]: ...
def decision_dual(X: npt.NDArray[np.floating], SV: npt.NDArray[np.floating],
                  coef: npt.NDArray[np.float64], intercept: npt.NDArray[np.float64],
                  out: npt.NDArray[np.float64], *, kind: int, gamma: float, coef0: float,
                  degree: int) -> None: ...
def decision_precomputed(G: npt.NDArray[np.floating], columns: npt.NDArray[np.intp],
                         coef: npt.NDArray[np.float64], intercept: npt.NDArray[np.float64],
                         out: npt.NDArray[np.float64]) -> None: ...
def kernel_matrix(X: npt.NDArray[np.floating], Y: npt.NDArray[np.floating], *, kind: int,
                  gamma: float, coef0: float, degree: int) -> npt.NDArray[np.float64]: ...
def _lru_trace(n: int, capacity: int,
               accesses: Iterable[int]) -> Tuple[List[bool], List[int]]: ...

# Type stubs of the compiled module perceptron._core.structured (see structured.pyx).
from typing import Any, Optional, Tuple

import numpy as np
import numpy.typing as npt

STATUS_OK: int
STATUS_OVERFLOW: int

def epoch(X: Any, W: npt.NDArray[Any], U: Optional[npt.NDArray[np.float64]],
          head: npt.NDArray[np.float64], acc: Optional[npt.NDArray[np.float64]],
          y: npt.NDArray[np.int32], offsets: npt.NDArray[np.int64], order: npt.NDArray[np.intp],
          sw: Optional[npt.NDArray[np.float64]], eta: float, clock: float, shuffle: bool,
          rng_state: npt.NDArray[np.uint64]) -> Tuple[int, float, int, int, float]: ...
def decode(X: Any, W: npt.NDArray[Any], head: npt.NDArray[np.float64],
           offsets: npt.NDArray[np.int64],
           seqs: Optional[npt.NDArray[np.intp]] = ...) -> npt.NDArray[np.int32]: ...
def emission_scores(X: Any, W: npt.NDArray[Any],
                    b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...
def averaged(W: npt.NDArray[Any], U: npt.NDArray[np.float64], clock: float) -> npt.NDArray[Any]: ...

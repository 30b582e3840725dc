# Type stubs of the compiled module perceptron._core.candidates (see candidates.pyx).
from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

def epoch(data: npt.NDArray[np.float32], indices: npt.NDArray[np.int64],
          indptr: npt.NDArray[np.int64], W: npt.NDArray[np.float32],
          U: Optional[npt.NDArray[np.float64]], b: npt.NDArray[np.float64],
          acc: Optional[npt.NDArray[np.float64]], y: npt.NDArray[np.int32],
          groups: npt.NDArray[np.int32], cand_ptr: npt.NDArray[np.int64],
          cand: npt.NDArray[np.int32], order: npt.NDArray[np.intp], eta: float, clock: float,
          shuffle: bool, rng_state: npt.NDArray[np.uint64]) -> Tuple[float, int]: ...
def best(data: npt.NDArray[np.float32], indices: npt.NDArray[np.int64],
         indptr: npt.NDArray[np.int64], W: npt.NDArray[np.float32], b: npt.NDArray[np.float64],
         groups: npt.NDArray[np.int32], cand_ptr: npt.NDArray[np.int64],
         cand: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]: ...
def scores(data: npt.NDArray[np.float32], indices: npt.NDArray[np.int64],
           indptr: npt.NDArray[np.int64], W: npt.NDArray[np.float32], b: npt.NDArray[np.float64],
           groups: npt.NDArray[np.int32], cand_ptr: npt.NDArray[np.int64],
           cand: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]: ...

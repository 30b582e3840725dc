# Type stubs of the compiled module perceptron._core.online (see _online.pyx).
from typing import Any, Dict, Optional

import numpy as np
import numpy.typing as npt

STATUS_OK: int
STATUS_NONFINITE_X: int
STATUS_OVERFLOW: int
STATUS_STOPPED: int

def run_epochs(state: Any, X: npt.NDArray[np.floating], labels: npt.NDArray[Any],
               sample_weight: Optional[npt.NDArray[np.float64]], params: Dict[str, Any],
               n_epochs: int, stop_flag: Optional[npt.NDArray[np.uint8]] = ...) -> Dict[str, Any]: ...
def training_score(state: Any, X: npt.NDArray[np.floating], labels: npt.NDArray[Any],
                   sample_weight: Optional[npt.NDArray[np.float64]],
                   pocket: bool = ...) -> float: ...
def shuffled_orders(n: int, n_epochs: int, seed: int) -> npt.NDArray[np.intp]: ...

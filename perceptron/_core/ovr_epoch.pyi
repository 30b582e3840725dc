# Type stubs of the compiled module perceptron._core.ovr_epoch (see ovr_epoch.pyx).
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import numpy.typing as npt

def run_ovr_epoch(states: Sequence[Any], X: npt.NDArray[np.floating],
                  target: npt.ArrayLike, classes: npt.ArrayLike,
                  sample_weight: Optional[npt.NDArray[np.float64]], rows: npt.NDArray[np.intp],
                  params: Any, stop_flag: Optional[npt.NDArray[np.uint8]] = ...,
                  sqnorm: Optional[npt.NDArray[np.float64]] = ...
                  ) -> List[Dict[str, Any]]: ...

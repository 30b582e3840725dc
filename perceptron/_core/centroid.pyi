# Type stubs of the compiled module perceptron._core.centroid (see centroid.pyx).
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

def class_sums(X: Any, t: npt.NDArray[np.int32],
               sw: Optional[npt.NDArray[np.float64]], sums: npt.NDArray[np.float64],
               totals: npt.NDArray[np.float64]) -> None: ...

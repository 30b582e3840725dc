# Type stubs of the compiled module perceptron._core.labels (see labels.pyx).
from typing import Any, Optional, Tuple

import numpy as np
import numpy.typing as npt

def encode_two(y: Any) -> Optional[Tuple[npt.NDArray[np.int8], npt.NDArray[Any]]]: ...
def encode_small_ints(y: Any) -> Optional[Tuple[npt.NDArray[np.int32], npt.NDArray[Any]]]: ...

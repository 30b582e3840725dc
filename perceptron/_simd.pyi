# Type stubs of the compiled module perceptron._simd (see _simd.pyx).
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

ENV_VAR: str
LEVELS: Tuple[str, ...]

def simd_info() -> Dict[str, Any]: ...
def _py_dot(x: npt.NDArray[np.floating], y: npt.NDArray[np.floating],
            level: Optional[str] = ...) -> float: ...
def _py_axpy(a: float, x: npt.NDArray[np.floating], y: npt.NDArray[np.floating],
             level: Optional[str] = ...) -> None: ...
def _choose_level() -> Tuple[int, Optional[str]]: ...

# Type stubs of the compiled module perceptron._core.model_file (see model_file.pyx).
from typing import Any, Dict, Tuple

import numpy as np
import numpy.typing as npt

MAGIC: bytes
VERSION: int
PREAMBLE_SIZE: int
ENTRY_SIZE: int
ALIGN: int
MAX_ARRAYS: int
MAX_NDIM: int
MAX_HEADER: int
DTYPES: Dict[int, str]
CODES: Dict[str, int]

class ContainerError(ValueError): ...

def read_container(buf: npt.NDArray[np.uint8]) -> Dict[str, Any]: ...
def linear_view(buf: npt.NDArray[np.uint8]) -> Tuple[int, int, int, int, int, int]: ...
def crc32(buf: npt.NDArray[np.uint8], crc: int = ...) -> int: ...

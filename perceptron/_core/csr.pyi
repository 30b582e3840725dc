# Type stubs of the compiled module perceptron._core.csr (see csr.pyx).
from typing import Tuple

import numpy as np
import numpy.typing as npt

STATUS_OK: int
STATUS_BAD_INDPTR_START: int
STATUS_BAD_INDPTR_END: int
STATUS_BAD_INDPTR_ORDER: int
STATUS_NEGATIVE_INDEX: int
STATUS_INDEX_TOO_LARGE: int
STATUS_NOT_CANONICAL: int

def check_structure(indices: npt.NDArray[np.signedinteger], indptr: npt.NDArray[np.signedinteger],
                    n_features: int) -> Tuple[int, int]: ...

def all_ones(data: npt.NDArray[np.floating]) -> bool: ...

def is_binary_values(data: npt.NDArray[np.floating]) -> bool: ...

def loop_values(data: npt.NDArray[np.floating],
                indptr: npt.NDArray[np.signedinteger]) -> Tuple[npt.NDArray[np.floating], int]: ...

ROW16_MAX: int

def max_row_length(indptr: npt.NDArray[np.signedinteger]) -> int: ...

def check_structure_u16(indices: npt.NDArray[np.uint16], indptr: npt.NDArray[np.signedinteger],
                        n_features: int) -> Tuple[int, int]: ...

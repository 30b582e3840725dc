# Type stubs of the compiled module perceptron._core.svmlight (see svmlight.pyx).
from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

OK: int
FULL: int
BASE_AUTO: int
BASE_ZERO: int
BASE_ONE: int
ERR_ZERO_INDEX: int
ERR_INDEX_RANGE: int
ERR_TOO_MANY: int
ERR_NO_MEMORY: int
ERR_LINE_TOO_LONG: int
ERR_NOT_BINARY: int

class Parser:
    value_dtype: np.dtype
    binary: bool
    widen: bool
    def __init__(self, value_dtype: npt.DTypeLike, index_dtype: npt.DTypeLike, base: int,
                 max_rows: int = ..., max_line: int = ..., binary: bool = ...,
                 widen: bool = ...) -> None: ...
    @property
    def index_dtype(self) -> np.dtype: ...
    def feed(self, buf: npt.ArrayLike) -> Tuple[int, int]: ...
    def finish(self) -> int: ...
    def resolve_base(self) -> int: ...
    def take(self) -> Optional[Tuple[Optional[np.ndarray], np.ndarray, np.ndarray,
                                     npt.NDArray[np.float64]]]: ...
    def error(self) -> Tuple[int, int, str, str]: ...
    @property
    def base(self) -> int: ...
    @property
    def pending_rows(self) -> int: ...
    @property
    def max_index(self) -> int: ...
    @property
    def max_index_line(self) -> int: ...
    @property
    def first_zero_line(self) -> int: ...
    @property
    def label_signs(self) -> Tuple[int, int]: ...
    @property
    def lines(self) -> int: ...

def format_rows(data: npt.NDArray[np.floating], indices: npt.NDArray[np.integer],
                indptr: npt.NDArray[np.integer], labels: np.ndarray, start: int, stop: int,
                index_offset: int) -> bytes: ...

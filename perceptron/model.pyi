# Type stubs of the compiled module perceptron.model (see _model.pyx).
from typing import Any, Dict, Union

import numpy as np
import numpy.typing as npt

KINDS: Dict[str, int]
NARROW_KINDS: Dict[str, int]

def narrow_kind(dtype: npt.DTypeLike) -> int: ...

class LinearModel:
    coef: npt.NDArray[np.floating]
    intercept: npt.NDArray[np.floating]
    dtype: np.dtype
    def __init__(self, coef: npt.ArrayLike, intercept: npt.ArrayLike, kind: str) -> None: ...
    @property
    def n_features(self) -> int: ...
    @property
    def n_rows(self) -> int: ...
    @property
    def kind(self) -> str: ...
    def decision_one(self, x: npt.ArrayLike) -> Union[float, npt.NDArray[np.float64]]: ...
    def predict_one(self, x: npt.ArrayLike) -> Any: ...

# Type stubs of the compiled module perceptron._core.decision (see decision.pyx).
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

def decision_dense(X: npt.NDArray[np.floating], W: npt.NDArray[np.floating],
                   b: npt.NDArray[np.float64], out: npt.NDArray[np.float64],
                   rows: Optional[npt.NDArray[np.intp]] = ..., binary: int = ...) -> None: ...

def decision_narrow(X: npt.NDArray[Any], W: npt.NDArray[np.float32],
                    b: npt.NDArray[np.float64], out: npt.NDArray[np.float64],
                    rows: Optional[npt.NDArray[np.intp]] = ..., binary: int = ...) -> None: ...

def decision_csr(data: npt.NDArray[np.floating], indices: npt.NDArray[np.signedinteger],
                 indptr: npt.NDArray[np.signedinteger], n_features: int,
                 W: npt.NDArray[np.floating], b: npt.NDArray[np.float64],
                 out: npt.NDArray[np.float64], start: int = ...,
                 rows: Optional[npt.NDArray[np.intp]] = ..., binary: int = ...) -> None: ...

def pick_scratch(k: int) -> npt.NDArray[np.float64]: ...

def predict_dense(X: npt.NDArray[np.floating], W: npt.NDArray[np.floating],
                  b: npt.NDArray[np.float64], index: npt.NDArray[np.intp] | None,
                  scratch: npt.NDArray[np.float64],
                  classes: npt.NDArray[np.uint8] | None = ...,
                  labels: npt.NDArray[np.uint8] | None = ...,
                binary: int = ...) -> tuple[int, int]: ...

def predict_csr(data: npt.NDArray[np.floating], indices: npt.NDArray[np.signedinteger],
                indptr: npt.NDArray[np.signedinteger], n_features: int,
                W: npt.NDArray[np.floating], b: npt.NDArray[np.float64],
                index: npt.NDArray[np.intp] | None, scratch: npt.NDArray[np.float64],
                start: int = ..., classes: npt.NDArray[np.uint8] | None = ...,
                labels: npt.NDArray[np.uint8] | None = ...,
                binary: int = ...) -> tuple[int, int]: ...

# Type stubs of the compiled module perceptron._core.online (see online.pyx).
from typing import Any, Dict, Mapping, Optional, Union

import numpy as np
import numpy.typing as npt

STATUS_OK: int
STATUS_NONFINITE_X: int
STATUS_OVERFLOW: int
STATUS_STOPPED: int

C_STEPS: int
C_UPDATES: int
C_RUN: int
C_POCKET_RUN: int
C_POCKET_CHECKED: int
C_EPOCHS: int
N_COUNTERS: int

PATH_ROWS: int
PATH_ONLINE: int
PATH_PLAIN: int

RULES: Dict[str, int]

class LoopParams:
    @property
    def eta(self) -> float: ...
    @property
    def margin(self) -> float: ...
    @property
    def fit_intercept(self) -> bool: ...
    @property
    def shuffle(self) -> bool: ...
    @property
    def average(self) -> bool: ...
    @property
    def pocket(self) -> bool: ...
    @property
    def stop_when_converged(self) -> bool: ...
    @property
    def batch_size(self) -> Optional[int]: ...
    @property
    def penalty(self) -> Optional[str]: ...
    @property
    def alpha(self) -> float: ...
    @property
    def l1_ratio(self) -> float: ...
    @property
    def keep_order(self) -> bool: ...
    @property
    def update_rule(self) -> str: ...
    @property
    def C(self) -> float: ...
    def __init__(self, *, eta: float, margin: float, fit_intercept: bool, shuffle: bool,
                 average: bool, pocket: bool, stop_when_converged: bool,
                 batch_size: Optional[int] = ..., penalty: Optional[str] = ...,
                 alpha: float = ..., l1_ratio: float = ..., keep_order: bool = ...,
                 update_rule: str = ..., C: float = ...) -> None: ...
    def _asdict(self) -> Dict[str, Any]: ...

def fast_path(params: LoopParams, weighted: bool = ...) -> int: ...
def run_epochs(state: Any, X: npt.NDArray[np.floating], labels: npt.NDArray[Any],
               sample_weight: Optional[npt.NDArray[np.float64]],
               params: Union[LoopParams, Mapping[str, Any]],
               n_epochs: int, stop_flag: Optional[npt.NDArray[np.uint8]] = ...,
               rule: Any = ...,
               sqnorm: Optional[npt.NDArray[np.float64]] = ...) -> Dict[str, Any]: ...
def training_score(state: Any, X: npt.NDArray[np.floating], labels: npt.NDArray[Any],
                   sample_weight: Optional[npt.NDArray[np.float64]],
                   pocket: bool = ...) -> float: ...
def shuffle_rows(rng_state: npt.NDArray[np.uint64], rows: npt.NDArray[np.intp]) -> None: ...
def squared_norms(X: Any) -> npt.NDArray[np.float64]: ...
def shuffled_orders(n: int, n_epochs: int, seed: int) -> npt.NDArray[np.intp]: ...

# Type stubs of the compiled module perceptron._core.feature_dicts (see feature_dicts.pyx).
from typing import Any, List, Tuple

import numpy as np
import numpy.typing as npt

MAX_FEATURES: int
MAX_DEPTH: int

def hash_sequences(X: Any, n_features: int
                   ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.int32],
                              npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def label_codes(y: Any, lengths: npt.NDArray[np.int64]
                ) -> Tuple[npt.NDArray[np.int64], List[str]]: ...

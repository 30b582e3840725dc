# Type stubs of the compiled module perceptron._core.featurize (see featurize.pyx).
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

TEMPLATES: Dict[str, int]
MAX_PER_TOKEN: int
MAX_FEATURES: int

def feature_hash(template_id: int, value: bytes) -> int: ...
def unicode_token(word: str) -> Tuple[str, str, int]: ...
class ClassTable:
    def __init__(self, keys: npt.ArrayLike, values: npt.ArrayLike) -> None: ...

def lower_hashes(tokens: List[str]) -> npt.NDArray[np.uint64]: ...
def featurize(tokens: List[str], lengths: npt.ArrayLike, n_features: int,
              templates: Optional[Iterable[str]] = ...,
              classes: Union[None, npt.NDArray[np.uint64], ClassTable] = ...) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.signedinteger],
                         npt.NDArray[np.signedinteger]]: ...
def split_tagged(sentences: Sequence[Sequence[Tuple[str, str]]]
                 ) -> Tuple[List[str], npt.NDArray[np.int64], npt.NDArray[np.int64],
                            List[str]]: ...
def pair_tags(sentences: List[List[str]], tags: List[str]) -> List[List[Tuple[str, str]]]: ...

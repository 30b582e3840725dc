# Type stubs of the compiled module perceptron._core.csr_canonical (see csr_canonical.pyx).
from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

def canonical_rows(data: npt.NDArray[np.floating], indices: npt.NDArray[np.signedinteger],
                   indptr: npt.NDArray[np.signedinteger]
                   ) -> Optional[Tuple[npt.NDArray[np.floating], npt.NDArray[np.signedinteger],
                                       npt.NDArray[np.signedinteger]]]: ...

# Type stubs of the compiled module perceptron._core.kernel_scoring (see kernel_scoring.pyx).
import numpy as np
import numpy.typing as npt

def decision_dual(X: npt.NDArray[np.floating], SV: npt.NDArray[np.floating],
                  coef: npt.NDArray[np.float64], intercept: npt.NDArray[np.float64],
                  out: npt.NDArray[np.float64], *, kind: int, gamma: float, coef0: float,
                  degree: int) -> None: ...
def decision_precomputed(G: npt.NDArray[np.floating], columns: npt.NDArray[np.intp],
                         coef: npt.NDArray[np.float64], intercept: npt.NDArray[np.float64],
                         out: npt.NDArray[np.float64]) -> None: ...
def kernel_matrix(X: npt.NDArray[np.floating], Y: npt.NDArray[np.floating], *, kind: int,
                  gamma: float, coef0: float, degree: int) -> npt.NDArray[np.float64]: ...

"""perceptron: the perceptron family of linear classifiers, compiled.

Every training and scoring loop is typed Cython over hand-written SIMD
kernels (AVX2, AVX-512, NEON, with a portable fallback) chosen at import for
the CPU at hand; see ``simd_info()``.
"""
from ._version import __version__
from ._simd import simd_info
from .exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError
from .linear import Perceptron

__all__ = [
    "__version__",
    "simd_info",
    "Perceptron",
    "ConvergenceWarning",
    "DataConversionWarning",
    "NotFittedError",
]

"""perceptron: the perceptron family of linear classifiers, compiled.

Every training and scoring loop is typed Cython over hand-written SIMD
kernels (AVX2, AVX-512, NEON, with a portable fallback) chosen at import for
the CPU at hand; see ``simd_info()``.
"""
from perceptron._version import __version__

try:
    from perceptron.simd import simd_info
except ImportError as exc:  # pragma: no cover - depends on how the package was built
    import os as _os

    _here = _os.path.dirname(_os.path.abspath(__file__))
    if _os.path.exists(_os.path.join(_here, "simd.pyx")):
        raise ImportError(
            f"perceptron is being imported from its source tree ({_here}), where the compiled "
            "extensions are not built. Build them in place with `pip install -e .`, or run "
            "Python from another directory to use the installed package.") from exc
    raise
from perceptron.exceptions import (ConvergenceWarning, DataConversionWarning, ModelFileError,
                                   NotFittedError, SvmlightFormatError)
from perceptron.linear import (CentroidClassifier, PassiveAggressiveClassifier, Perceptron,
                               VotedPerceptron)
from perceptron.linear._monitor import EpochInfo
from perceptron.kernel import KernelPerceptron
from perceptron.sequence import StructuredPerceptron
from perceptron import geometry
from perceptron import io
from perceptron import tagging  # registers PerceptronTagger, so that load() reads tagger files
from perceptron.io import load_model as load


def get_include() -> str:
    """The folder with the package's C headers and sources and its .pxd files.

    Like ``numpy.get_include()``: pass it to the C compiler's include path
    (``include_dirs``) and to Cython's (``cythonize(..., include_path=[...])``)
    to build code that uses the package at the C level:

    - ``cimport perceptron.simd`` (the SIMD kernels: dot, axpy, ...) and
      ``cimport perceptron.model`` (a fitted model's nogil ``decision`` and
      ``predict``) from Cython;
    - ``#include "ptn_model.h"`` (and compiling the .c files beside it) from
      plain C, to score a model without Python.
    """
    import os

    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


__all__ = [
    "__version__",
    "get_include",
    "simd_info",
    "Perceptron",
    "PassiveAggressiveClassifier",
    "VotedPerceptron",
    "StructuredPerceptron",
    "CentroidClassifier",
    "EpochInfo",
    "KernelPerceptron",
    "geometry",
    "io",
    "load",
    "ConvergenceWarning",
    "DataConversionWarning",
    "NotFittedError",
    "ModelFileError",
    "SvmlightFormatError",
]

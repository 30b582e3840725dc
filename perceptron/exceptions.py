"""Warnings and exceptions of the package.

Each has the role of a scikit-learn class of the same name.  The package does
not depend on scikit-learn, but when scikit-learn is already imported the
package raises (or warns with) a subclass of both, so code that catches or
filters scikit-learn's class (``Pipeline``, ``GridSearchCV``, its estimator
checks) treats these the same way.  scikit-learn is never imported for this.
"""
import sys

__all__ = ["ConvergenceWarning", "DataConversionWarning", "NotFittedError", "SvmlightFormatError",
           "ModelFileError"]


class ConvergenceWarning(UserWarning):
    """A fit ended at ``max_iter`` before an epoch without mistakes.

    On data that are not linearly separable (XOR is the classic example) the
    perceptron never converges; the model is still the one after the last
    epoch.  Silence with ``warnings.simplefilter("ignore", ConvergenceWarning)``.
    """


class DataConversionWarning(UserWarning):
    """The input was accepted in a different form than given (for example a
    column vector ``y`` of shape ``(n, 1)`` raveled to ``(n,)``)."""


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit``.

    Inherits from ``ValueError`` and ``AttributeError`` as scikit-learn's does,
    so code written for either catches it.
    """


class SvmlightFormatError(ValueError):
    """A line of an svmlight / libsvm file that does not follow the format.

    The message names the file, the 1-based line number, what is wrong and
    the line's text (its first 80 bytes); the same are attributes.

    Attributes
    ----------
    source : str
        The file's path or name.
    line : int
        1-based line number (0 when the problem is not one line's).
    reason : str
        What is wrong, quoting the offending token.
    text : str
        The start of the line, control characters escaped as ``\\xHH``.
    """

    def __init__(self, message, *, source="", line=0, reason="", text=""):
        super().__init__(message)
        self.source = source
        self.line = line
        self.reason = reason
        self.text = text


class ModelFileError(ValueError):
    """A model file that cannot be loaded: not a model file (a pickle, for
    instance), a format version newer than this package reads, a truncated or
    corrupt file, an estimator class outside the package, or arrays that do
    not make a valid model.  The message says which."""


_compatible: dict = {}


def sklearn_compatible(cls):
    """cls, or a subclass of cls and scikit-learn's class of the same name if
    scikit-learn is loaded in this process."""
    sk = sys.modules.get("sklearn.exceptions")
    if sk is None or not hasattr(sk, cls.__name__):
        return cls
    if cls not in _compatible:
        _compatible[cls] = type(cls.__name__, (cls, getattr(sk, cls.__name__)),
                                {"__module__": cls.__module__, "__doc__": cls.__doc__})
    return _compatible[cls]

"""Warnings and exceptions of the package."""

__all__ = ["ConvergenceWarning", "DataConversionWarning", "NotFittedError"]


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

"""Watching a fit epoch by epoch: verbose lines, a progress bar, callbacks."""
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

__all__ = ["EpochInfo"]


@dataclass
class EpochInfo:
    """What a callback (``Perceptron(callback=...)``) learns after each epoch.

    Attributes
    ----------
    epoch : int
        1-based number of the epoch just finished.
    max_iter : int
    mistakes : int
        Mistakes (``y*a <= 0``) in the epoch (summed over one-vs-rest problems).
    updates : int
    loss : float
        The epoch's perceptron loss, ``sum s_i max(0, -y_i a_i) / sum s_i``.
    validation_score : float or None
        Accuracy on the held-out rows (``early_stopping=True`` only).
    seconds : float
        Wall time of the epoch; ``elapsed`` since the fit began.
    elapsed : float
    coef, intercept : ndarray
        The weights a prediction would use now (averaged, pocket, ...); copies.
    estimator : the estimator being fitted (its fitted attributes are not set
        yet: use ``coef`` and ``intercept``).

    A callback that returns True stops the fit after this epoch; the model
    kept is the one of this epoch (or, with early stopping, the best so far).
    """

    epoch: int
    max_iter: int
    mistakes: int
    updates: int
    loss: float
    validation_score: Optional[float]
    seconds: float
    elapsed: float
    coef: np.ndarray = field(repr=False)
    intercept: np.ndarray = field(repr=False)
    estimator: Any = field(repr=False, default=None)


class Monitor:
    """Drives verbose output, the progress bar and the callback of one fit."""

    def __init__(self, estimator, verbose, callback, progress, max_iter):
        self.estimator = estimator
        self.verbose = verbose
        self.callback = callback
        self.max_iter = max_iter
        self.bar = None
        if progress:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                raise ImportError("progress=True shows a tqdm progress bar, and tqdm is not "
                                  "installed: pip install tqdm (or use verbose=1)") from None
            self.bar = tqdm(total=max_iter, desc=type(estimator).__name__, unit="epoch",
                            leave=False)
        self.start = self.last = time.perf_counter()

    @property
    def active(self):
        return self.verbose or self.callback is not None or self.bar is not None

    def epoch(self, epoch, mistakes, updates, loss, validation_score, coef, intercept):
        """Report one epoch; returns True when the callback asks to stop."""
        now = time.perf_counter()
        info = EpochInfo(epoch=epoch, max_iter=self.max_iter, mistakes=int(mistakes),
                         updates=int(updates), loss=float(loss),
                         validation_score=validation_score, seconds=now - self.last,
                         elapsed=now - self.start, coef=coef, intercept=intercept,
                         estimator=self.estimator)
        self.last = now
        if self.verbose:
            val = "" if validation_score is None else f", validation {validation_score:.4f}"
            print(f"-- epoch {epoch}/{self.max_iter}: mistakes {info.mistakes}, updates "
                  f"{info.updates}, loss {info.loss:.6g}{val}, {info.seconds * 1e3:.2f} ms",
                  file=sys.stdout, flush=True)
        if self.bar is not None:
            postfix = {"mistakes": info.mistakes, "loss": f"{info.loss:.4g}"}
            if validation_score is not None:
                postfix["val"] = f"{validation_score:.4f}"
            self.bar.set_postfix(postfix, refresh=False)
            self.bar.update(1)
        if self.callback is not None:
            return bool(self.callback(info))
        return False

    def close(self):
        if self.bar is not None:
            self.bar.close()

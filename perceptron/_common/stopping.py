"""scikit-learn's stopping rule of its SGD loop (``StopRule``), which every
family that trains by epochs observes: the linear family's fits, in the
compiled loop or between epochs, and the structured perceptron; and the
progress bar of their epochs (``epoch_bar``, ``progress=True``)."""
import numpy as np

__all__ = ["StopRule", "epoch_bar"]


def epoch_bar(estimator, max_iter):
    """The tqdm progress bar of a fit of at most max_iter epochs (an
    estimator's ``progress=True``): one step an epoch, closed by the caller.
    The same bar as the linear family's (perceptron.linear._monitor, a
    sibling of this module in the layers, makes its own)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        raise ImportError("progress=True shows a tqdm progress bar, and tqdm is not "
                          "installed: pip install tqdm (or use verbose=1)") from None
    return tqdm(total=max_iter, desc=type(estimator).__name__, unit="epoch", leave=False)


class StopRule:
    """scikit-learn's stopping rule of its SGD loop, for one training problem.

    After each epoch, ``observe`` gets the epoch's summed training loss,
    unweighted as scikit-learn sums it (or,
    with ``higher_is_better``, the validation score).  An epoch whose loss is
    not below ``best - tol * n_rows`` (a score not above ``best + tol``)
    counts as an epoch without improvement, any other resets the count;
    ``best`` follows the lowest loss (highest score) seen.  ``observe``
    returns True once ``n_iter_no_change`` epochs in a row went without
    improvement.  ``tol=None`` never stops.

    ``key`` names the loss a training-loss rule reads from an epoch's
    result ("loss" or "raw_loss", ``rule_loss_key``): the compiled loop
    (``run_epochs(..., rule=...)``) observes it itself after each epoch,
    with this object's ``best`` and ``count``, and writes them back."""

    def __init__(self, tol, n_iter_no_change, n_rows, higher_is_better=False, key="loss"):
        self.tol = tol
        self.key = key
        self.patience = n_iter_no_change
        self.slack = None if tol is None else (tol if higher_is_better else tol * n_rows)
        self.higher = higher_is_better
        self.best = -np.inf if higher_is_better else np.inf
        self.count = 0

    def observe(self, value):
        if self.slack is None:
            return False
        if self.higher:
            worse = value < self.best + self.slack
            self.best = max(self.best, value)
        else:
            worse = value > self.best - self.slack
            self.best = min(self.best, value)
        self.count = self.count + 1 if worse else 0
        return self.count >= self.patience

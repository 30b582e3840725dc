"""Training on data that do not fit in memory: epochs over a stream of chunks.

``Perceptron.fit_stream(source, ...)`` makes epoch after epoch over a source
of ``(X, y)`` chunks, each chunk one ``partial_fit`` step (the model's state,
averaging counters included, carries from chunk to chunk), until an epoch
makes no update or ``max_iter`` epochs have run.  Only one chunk is in memory
at a time.  A source is

- a path to an svmlight / libsvm file, read by ``perceptron.io.iter_svmlight``
  a chunk of ``chunk_rows`` rows at a time (re-read each epoch); with
  ``binary=True`` its rows are binary (every value 1), each chunk parsed
  without values and kept as its indices alone;
- a memory-mapped (or any) 2-D array with its labels, ``(X, y)``, cut into
  chunks of ``chunk_rows`` rows (views: nothing copied);
- a callable returning a fresh iterable of ``(X, y)`` chunks for each epoch
  (or an iterable that can be iterated again, such as a list); a one-shot
  iterator (a generator) allows one epoch only.

Dense chunks of float16, bfloat16, int8 or uint8 rows (a memory-mapped
float16 array, say) are read as stored, as ``partial_fit`` reads them: the
weights are float32, and no chunk is widened (a model whose weights are
float64, from a first chunk of float64 rows, refuses them).

With ``shuffle=True`` the rows of each chunk are shuffled within the chunk and
the chunks come in the source's order, so memory stays bounded; the result
is then not that of ``fit`` on the whole data (which shuffles all rows), but
the same as ``partial_fit`` on the chunks, epoch after epoch.

Chunks of binary rows (a ``CSRData`` without values, or whose values are all
1) train as ``partial_fit`` trains them: the model of the same rows with
their ones stored, bit for bit.
"""
import os

import numpy as np

from perceptron.io._svmlight import iter_svmlight
from perceptron.linear._fitted import publish

__all__ = ["fit_stream"]


def _epoch_chunks(source, chunk_rows, n_features, binary=False):
    """A function giving a new iterable of (X, y) chunks for each epoch."""
    if isinstance(source, (str, bytes, os.PathLike)):
        # binary rows come as CSRData of their indices alone (scipy would
        # store the ones); float rows as scipy matrices, as before
        output = "csr" if binary else "scipy"
        if n_features is None:
            # one scan for the width (iter_svmlight's first pass), then every
            # epoch reads with it fixed
            for X, _ in iter_svmlight(source, chunk_rows=chunk_rows, output="csr",
                                      binary=binary):
                n_features = X.shape[1]
                break
        width = n_features
        return lambda: iter_svmlight(source, n_features=width, chunk_rows=chunk_rows,
                                     output=output, binary=binary)
    if binary:
        raise ValueError("binary=True reads an svmlight file (source a path); chunks from "
                         "other sources are read as they are (binary CSRData chunks train "
                         "as binary rows without it)")
    if isinstance(source, tuple) and len(source) == 2 and hasattr(source[0], "shape"):
        X, y = source
        n = X.shape[0]
        if len(y) != n:
            raise ValueError(f"source: X has {n} rows and y {len(y)}; they must match")
        return lambda: ((X[lo:lo + chunk_rows], y[lo:lo + chunk_rows])
                        for lo in range(0, n, chunk_rows))
    if callable(source):
        return source
    if hasattr(source, "__iter__"):
        if iter(source) is source:  # a one-shot iterator
            used: list = []

            def once():
                if used:
                    raise ValueError("source is an iterator, which can be read once: for "
                                     "more than one epoch pass a callable that returns a new "
                                     "iterable of chunks each time (or a list)")
                used.append(True)
                return source
            return once
        return lambda: source
    raise TypeError("source must be an svmlight path, an (X, y) pair, a callable returning "
                    f"(X, y) chunks, or an iterable of them; got {type(source).__name__}")


def _labels_of(chunks):
    seen = set()
    for _, y in chunks():
        seen.update(np.unique(np.asarray(y)).tolist())
    return sorted(seen)


def fit_stream(estimator, source, *, classes=None, max_iter=None, chunk_rows=10000,
               n_features=None, binary=False):
    """Fit `estimator` (a Perceptron) by epochs over a stream of chunks.

    Parameters
    ----------
    estimator : Perceptron
    source : path, (X, y), callable or iterable
        See the module's docstring.
    classes : array-like, optional
        Every label of the data; when None, a first pass over the source
        collects them (one more read of the data).
    max_iter : int, optional
        Epochs at most; the estimator's ``max_iter`` when None.
    chunk_rows : int, default=10000
        Rows per chunk for paths and (X, y) sources.
    n_features : int, optional
        Columns of an svmlight file (found by a first pass when None).
    binary : bool, default=False
        An svmlight file of binary rows, read as ``iter_svmlight(...,
        binary=True)`` reads them.

    Returns
    -------
    estimator, fitted: ``n_iter_`` epochs, ``mistakes_`` / ``updates_`` /
    ``loss_`` per epoch (summed over the chunks; the loss weighted by their
    rows), ``converged_`` when the last epoch made no update.
    """
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive int, got {chunk_rows!r}")
    epochs = estimator.max_iter if max_iter is None else max_iter
    if isinstance(epochs, bool) or not isinstance(epochs, (int, np.integer)) or epochs < 1:
        raise ValueError(f"max_iter must be a positive int, got {epochs!r}")
    if getattr(estimator, "early_stopping", False):
        raise ValueError("early_stopping is not available with fit_stream")
    if not isinstance(binary, (bool, np.bool_)):
        raise TypeError(f"binary must be True or False, got {binary!r}")
    chunks = _epoch_chunks(source, int(chunk_rows), n_features, bool(binary))
    if classes is None:
        if estimator.multiclass == "multinomial":
            classes_arg = None  # the multinomial rule takes new classes as they come
        else:
            classes_arg = _labels_of(chunks)
            if len(classes_arg) < 2:
                raise ValueError(f"the source holds {len(classes_arg)} label(s); a classifier "
                                 "needs two")
    else:
        classes_arg = list(np.asarray(classes).tolist())
    for name in [a for a in vars(estimator) if a.endswith("_") and not a.startswith("__")]:
        delattr(estimator, name)  # a new fit
    for attr in ("_states", "_history", "_mode", "_multilabel"):
        if attr in vars(estimator):
            delattr(estimator, attr)

    history: dict = {"mistakes": [], "updates": [], "loss": []}
    for _ in range(int(epochs)):
        mistakes = updates = 0
        loss = weight = 0.0
        n_chunks = 0
        for X, y in chunks():
            if X.shape[0] == 0:
                continue
            before = len(getattr(estimator, "mistakes_", []))
            estimator.partial_fit(X, y, classes=classes_arg if before == 0 else None)
            mistakes += int(estimator.mistakes_[-1])
            updates += int(estimator.updates_[-1])
            loss += float(estimator.loss_[-1]) * X.shape[0]
            weight += X.shape[0]
            n_chunks += 1
        if n_chunks == 0:
            raise ValueError("the source gave no rows")
        history["mistakes"].append(mistakes)
        history["updates"].append(updates)
        history["loss"].append(loss / weight)
        if updates == 0 and getattr(estimator, "penalty", None) is None:
            break  # (a penalty still moves the weights: no stop, as in fit)
    # the epochs' histories replace the last chunk's, through the one place a
    # fit's attributes are set
    publish(estimator, {"mistakes_": np.array(history["mistakes"], dtype=np.int64),
                        "updates_": np.array(history["updates"], dtype=np.int64),
                        "loss_": np.array(history["loss"]),
                        "n_iter_": len(history["mistakes"]),
                        "converged_": bool(history["updates"][-1] == 0)})
    return estimator

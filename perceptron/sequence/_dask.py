"""The shards of a StructuredPerceptron trained on Dask (``perceptron.dask.fit``).

Iterative parameter mixing (McDonald, Hall and Mann 2010, "Distributed
Training Strategies for the Structured Perceptron", Figure 3) over whole
sequences: shard boundaries fall between sequences, so that every shard
decodes and updates complete sequences exactly as a local fit does.  This
module holds what runs on the workers (and the cut into shards); the driver,
which mixes the shards' weights with ``perceptron.dask.mix``, is
``perceptron.dask``.
"""
import time

import numpy as np

from perceptron._core import structured as _structured
from perceptron._common.validation import check_X, is_sparse

__all__ = ["shard_cuts", "build_shard", "shard_labels", "encode_shard", "first_carry",
           "shard_epoch"]


def shard_cuts(offsets, n_shards):
    """Token boundaries of at most ``n_shards`` shards made of whole sequences.

    ``offsets`` (n_sequences + 1) are the sequences' first tokens and the
    total; the shards hold about equal numbers of tokens, each at least one,
    and every boundary is the first token of a sequence.  Returns the
    strictly increasing boundaries, from 0 to n_tokens.
    """
    n = int(offsets[-1])
    targets = (np.arange(1, n_shards, dtype=np.int64) * n) // n_shards
    first = np.searchsorted(offsets[:-1], targets, side="left")
    starts = np.append(offsets[:-1], n)[first]
    return np.unique(np.concatenate([[0], starts, [n]])).astype(np.int64)


def shard_sequences(offsets, cuts):
    """(first, stop) sequence index of each shard of ``shard_cuts``; empty
    sequences at the end of the data go to the last shard."""
    starts = offsets[:-1]
    first = np.searchsorted(starts, cuts[:-1], side="left")
    stop = np.append(first[1:], len(starts))
    return first, stop


class Shard:
    """A shard's token rows, labels and sequence offsets, on a worker."""

    def __init__(self, index, X, y, offsets):
        self.index = index
        self.X = X
        self.y = y
        self.offsets = offsets


def build_shard(index, dtype, x_block, y_block, offsets):
    """A shard from its X and y blocks: dense rows as one C-contiguous array,
    scipy.sparse rows as checked CSR (as ``StructuredPerceptron.fit`` checks
    them), in ``dtype``; ``offsets`` its sequences' local offsets."""
    if is_sparse(x_block):
        X = check_X(x_block.astype(dtype), "X", accept_sparse=True)
        values = X.data
    else:
        X = np.ascontiguousarray(x_block, dtype=dtype)
        values = X
    if not np.isfinite(values).all():
        raise ValueError(f"shard {index}: X contains NaN or infinity; remove or impute those "
                         "values first")
    y = np.asarray(y_block).ravel()
    if X.shape[0] != y.shape[0] or offsets[-1] != X.shape[0]:
        raise ValueError(f"shard {index}: X has {X.shape[0]} rows, y {y.shape[0]} labels and "
                         f"the sequences {offsets[-1]} tokens")
    return Shard(index, X, y, np.ascontiguousarray(offsets, dtype=np.int64))


def shard_labels(shard):
    """The distinct labels of a shard (from which classes_ is decided once)."""
    return np.unique(shard.y)


def encode_shard(shard, classes):
    """The shard with its labels as indices into ``classes``."""
    codes = np.searchsorted(classes, shard.y)
    inside = codes < len(classes)
    if not inside.all() or not (classes[codes[inside]] == shard.y[inside]).all():
        raise ValueError(f"shard {shard.index}: y holds labels that are not in classes_")
    return Shard(shard.index, shard.X, codes.astype(np.int32), shard.offsets)


def first_carry(shard, seed):
    """The sequence order and generator of a shard (they stay on its worker),
    in the shape of an epoch's output: (carry, no summary)."""
    n_seq = len(shard.offsets) - 1
    return {"order": np.arange(n_seq, dtype=np.intp),
            "rng": np.array([seed], dtype=np.uint64)}, None


def shard_epoch(shard, previous, message, eta, shuffle, epoch):
    """One epoch of the shard's sequences from the shared parameters.

    ``message``: ``W`` (K, d) emission weights, ``b`` the other parameters
    (the compiled loop's head: biases, transitions, start, end), ``U`` and
    ``ub`` their averaging accumulators (None without averaging), ``steps``
    the sequences visited so far (the averaging clock).  Returns (the new
    carry, which stays on the worker; the summary that travels back, in the
    form ``perceptron.dask.mix`` takes: ``W``, ``b``, ``U``, ``ub``, ``n``
    the sequences visited, ``updates`` the sequences updated on, and the
    epoch's ``mistakes``, ``loss`` and generator).  Inputs are not
    modified, so a recomputation after a failure repeats the epoch exactly.
    """
    started = time.perf_counter()
    carry = previous[0]
    sparse = not isinstance(shard.X, np.ndarray)
    # CSR rows read the weights feature-major (see perceptron._core.structured)
    W = np.array(message["W"].T if sparse else message["W"], order="C")
    U = None if message["U"] is None else np.array(message["U"].T if sparse else message["U"],
                                                   dtype=np.float64, order="C")
    head = np.array(message["b"], dtype=np.float64)
    acc = None if message["ub"] is None else np.array(message["ub"], dtype=np.float64)
    order = carry["order"].copy()
    rng = carry["rng"].copy()
    status, clock, wrong, _, loss = _structured.epoch(
        shard.X, W, U, head, acc, shard.y, shard.offsets, order, None, eta,
        float(message["steps"]), shuffle, rng)
    if status:
        raise FloatingPointError(f"shard {shard.index}: the weights overflowed in epoch {epoch}: "
                                 "scale the features or lower eta0")
    return {"order": order, "rng": rng}, {
        "shard": shard.index, "epoch": epoch,
        "W": W.T if sparse else W, "b": head,
        "U": None if U is None else (U.T if sparse else U), "ub": acc,
        "n": len(order), "updates": int(wrong), "mistakes": int(wrong), "loss": float(loss),
        "rng": rng, "seconds": time.perf_counter() - started}

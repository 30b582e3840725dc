"""The training state of a linear perceptron, between calls to the loops.

Plain numpy arrays (so a state pickles, copies and inspects like data) that
``perceptron._core.online.run_epochs`` updates in place: the weights in the data's
dtype, biases and averaging accumulators in float64, the pocket, the counters
of the averaging clock and of the pocket's runs, the generator's state and the
rows to visit.  Keeping them together is what makes ``partial_fit`` on chunks
equal to one epoch over their concatenation, averaging counters included.
"""
from typing import Any, Dict

import numpy as np

from perceptron._core import online as _online

# slots of `counters`, defined once for the loops (perceptron/_core/loop.pxd)
from perceptron._core.online import (C_STEPS, C_UPDATES, C_RUN, C_POCKET_RUN, C_POCKET_CHECKED,
                                     C_EPOCHS, N_COUNTERS)


_NO_SCORE = np.array([-np.inf])  # a pocket's score before its first
_zeros = np.zeros
_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_ONE_U64 = np.zeros(1, dtype=np.uint64)
# the fields of ``binary_zeros``'s state in the constructor's order; the
# array fields start as None here and each state gets new arrays of its own
_BINARY_FIELDS: Dict[str, Any] = {
    "multinomial": False, "W": None, "b": None, "U": None, "ub": None, "PW": None, "pb": None,
    "pocket_score": None, "G": None, "gb": None, "acts": None, "counters": None,
    "rng_state": None, "rows": None}


class OnlineState:
    """Weights and bookkeeping of one training problem.

    Parameters
    ----------
    k : int
        Rows of weights: 1 for a binary problem, the number of classes for a
        multinomial one.
    d : int
        Features.
    dtype : float32 or float64
        dtype of the data and of the weights.
    multinomial : bool
        One row per class, updated by the multiclass rule.
    average, pocket : bool
        Keep the accumulators of the averaged perceptron / the pocket.
    batch_size : int or None
        Keep a gradient buffer for mini-batch steps.
    seed : int
        64-bit seed of the shuffles.
    W0, b0 : arrays, optional
        Initial weights (warm start); zeros otherwise.
    penalty : None, "l2", "l1" or "elasticnet"
        Keep what the penalty needs between calls: the scale of each row of
        weights (``scale``, (k,): the effective weights are ``scale * W``,
        Bottou 2012, section 5.1), the norms of the weights
        its stopping-rule term reads (``norms``, (k, 2)), and for L1 the
        cumulative penalty ``u`` and the penalty each weight took ``q``
        (Tsuruoka, Tsujii and Ananiadou 2009).  With ``average``, ``U`` and
        ``ub`` then hold the sums of the weights after every step (the
        penalty moves the weights on every row, so the lazy trick does not
        apply).  These attributes exist only for a penalized state, so that
        the states of earlier model files keep their fields.
    """

    def __init__(self, k, d, dtype, *, multinomial, average, pocket, batch_size, seed,
                 W0=None, b0=None, penalty=None):
        self.multinomial = bool(multinomial)
        self.W = np.zeros((k, d), dtype=dtype) if W0 is None else np.array(W0, dtype=dtype,
                                                                           order="C", copy=True)
        self.b = np.zeros(k) if b0 is None else np.array(b0, dtype=np.float64, copy=True)
        self.U = np.zeros((k, d)) if average else None
        self.ub = np.zeros(k) if average else None
        self.PW = self.W.copy() if pocket else None
        self.pb = self.b.copy() if pocket else None
        self.pocket_score = _NO_SCORE.copy()
        self.G = np.zeros((k, d)) if batch_size else None
        self.gb = np.zeros(k) if batch_size else None
        self.acts = np.zeros(max(k, 1))
        self.counters = np.zeros(N_COUNTERS, dtype=np.int64)
        self.rng_state = np.array([seed], dtype=np.uint64)
        self.rows = None
        if penalty is not None:
            self.penalty = penalty
            W64 = self.W.astype(np.float64)
            self.norms = np.ascontiguousarray(np.stack([np.sum(W64 * W64, axis=1),
                                                        np.sum(np.abs(W64), axis=1)], axis=1))
            self.u = np.zeros(1)
            self.scale = np.ones(k)
            self.q = np.zeros((k, d)) if penalty in ("l1", "elasticnet") else None

    @classmethod
    def binary_zeros(cls, d, dtype, seed):
        """``OnlineState(1, d, dtype, multinomial=False, average=False,
        pocket=False, batch_size=None, seed=seed)``, the same fields in the
        same order, made without the constructor's branches and keywords:
        the state of the usual small fit, whose fixed cost this is part of.
        (The fields start as a copy of a template dict, in the constructor's
        order; the arrays are then replaced by new ones.)"""
        new = object.__new__(cls)
        fields = _BINARY_FIELDS.copy()
        fields["W"] = _zeros((1, d), dtype)
        fields["b"] = _zeros(1, _F64)
        fields["pocket_score"] = _NO_SCORE.copy()
        fields["acts"] = _zeros(1, _F64)
        fields["counters"] = _zeros(N_COUNTERS, _I64)
        rng_state = fields["rng_state"] = _ONE_U64.copy()
        rng_state[0] = seed
        new.__dict__ = fields
        return new

    def copy(self, rows=True):
        """A deep copy; rows=False leaves the row order out (None), for a
        caller that sets a new one (one-vs-rest states share theirs)."""
        new = object.__new__(type(self))
        fields = self.__dict__.copy()
        if not rows and "rows" in fields:
            # not copied only to be dropped: n entries, once per class
            fields["rows"] = None
        ndarray = np.ndarray
        for name, value in fields.items():  # (replacing values: the keys stay as they are)
            if isinstance(value, ndarray):
                fields[name] = value.copy()
        new.__dict__ = fields
        return new

    @property
    def steps(self):
        return int(self.counters[C_STEPS])

    @property
    def updates(self):
        return int(self.counters[C_UPDATES])

    def current(self):
        """The current weights (W, b), the scale taken in (a penalized state
        keeps W apart from its scale)."""
        scale = self.__dict__.get("scale")  # only a penalized state has one
        if scale is None:
            return self.W.copy(), self.b.copy()
        W = (self.W.astype(np.float64) * scale[:, None]).astype(self.W.dtype)
        return W, self.b.copy()

    def effective(self, average, pocket):
        """The weights a prediction uses: (W, b) as float arrays.

        averaged: w - u/c (the mean of the weights after each of the c steps;
        with a penalty, U/c: U is their sum);
        pocket: the pocket; otherwise the current weights.
        """
        if pocket:
            assert self.PW is not None and self.pb is not None, "a state made without a pocket"
            return self.PW.copy(), self.pb.copy()
        if average and self.steps > 0:
            assert self.U is not None and self.ub is not None, "a state made without averaging"
            c = float(self.steps)
            if getattr(self, "penalty", None) is not None:
                return (self.U / c).astype(self.W.dtype), self.ub / c
            W = (self.W.astype(np.float64) - self.U / c).astype(self.W.dtype)
            return W, self.b - self.ub / c
        return self.current()

    def start_pocket(self, X, labels, sample_weight, from_current):
        """Score the pocket on the rows about to be trained on, so that the
        ratchet compares training accuracies on the same rows.

        from_current: the pocket starts as the current weights (a new fit);
        otherwise it keeps its weights (a new chunk of partial_fit).
        """
        assert self.PW is not None and self.pb is not None, "a state made without a pocket"
        if from_current:
            self.PW[...] = self.W
            self.pb[...] = self.b
        self.pocket_score[0] = _online.training_score(self, X, labels, sample_weight, pocket=True)
        self.counters[C_RUN] = 0
        self.counters[C_POCKET_RUN] = 0
        self.counters[C_POCKET_CHECKED] = 0

    def insert_class(self, position):
        """A new class at `position` (multinomial partial_fit): a zero row
        everywhere, so it starts from scratch like every class did."""
        for name in ("W", "U", "PW", "G", "q", "norms"):
            value = getattr(self, name, None)
            if value is not None:
                setattr(self, name, np.ascontiguousarray(
                    np.insert(value, position, 0.0, axis=0)))
        for name in ("b", "ub", "pb", "gb"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, np.insert(value, position, 0.0))
        if getattr(self, "scale", None) is not None:
            self.scale = np.insert(self.scale, position, 1.0)
        self.acts = np.zeros(self.W.shape[0])
        if self.PW is not None:  # the pocket's score no longer holds
            self.pocket_score[0] = -np.inf
            self.counters[C_POCKET_CHECKED] = 0

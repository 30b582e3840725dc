# cython: language_level=3
"""Typed training loops of the perceptron family over dense and CSR rows.

One call runs a number of epochs without the GIL; Python only sees the
result.  The model's state (weights, bias, averaging accumulators, pocket,
counters, generator) lives in numpy arrays owned by a Python object (see
``perceptron.linear._state``), so a fit can be driven in one call, epoch by epoch
(early stopping, callbacks), or chunk by chunk (``partial_fit``), and the
result is the same.

Float32 and float64 data share each loop through the ``floating`` fused
type.  The weights are kept in the data's dtype (the update ``w += eta*y*x``
streams the same bytes as the data) while activations are summed in double by
the kernels, and biases, averaging accumulators and mini-batch gradients are
doubles.  For float32 data the kernels add four products per SIMD lane in
float32 before the double sum, so an activation's error stays within a few
float32 roundings of its terms whatever the number of features (the
contract is in csrc/ptn_simd.h), at no cost in memory traffic.

The binary online rule runs on the kernels' scan (csrc/ptn_scan.h): the
stretch of rows the weights already get right is one C loop with the dot
product inlined, and only the rows that update come back here.  Over CSR
rows the whole epoch runs in C (perceptron/_core/csr_epoch.pxd over
csrc/ptn_csr_online.h).  Both take the trigger and the step of the rule
from its one definition, csrc/ptn_update.h; the mini-batch epoch is
perceptron/_core/batch_epoch.pxd, the shared structs and helpers (pocket,
counters, status codes) perceptron/_core/loop.pxd.

The rules (y in {-1, +1}, a = w.x + b):

- online (Rosenblatt 1958; Daume III 2017, "A Course in Machine Learning",
  ch. 4, Algorithm 5): if y*a <= margin then w += eta*s*y*x, b += eta*s*y,
  with s the sample weight; margin > 0 is the perceptron with uneven
  margins (PAUM, Li et al. 2002, with equal margins);
- averaged (Freund & Schapire 1999; Collins 2002; Daume III, ch. 4,
  Algorithm 7): the lazy trick, u += c*step*x on an update, c counting the
  steps; the average of the weights after every step is w - u/c;
- pocket with ratchet (Gallant 1990): weights whose run of correct
  predictions outlasts the pocket's replace it if they also classify more
  training rows right;
- mini-batch (stochastic subgradient steps on the perceptron criterion,
  Duda, Hart & Stork 2001, "Pattern Classification", section 5.5): for
  each batch of B rows, w += (eta/B) * sum over its violating rows of s*y*x;
- multinomial (Collins 2002; Crammer and Singer 2003): one row of weights
  per class, a_j = w_j.x + b_j; if the true class t does not beat the best
  other class r by more than the margin, w_t += eta*s*x and w_r -= eta*s*x;
- the penalties, as scikit-learn's SGD with a constant rate applies them:
  on every row, L2 through a scale of the weights (Bottou 2012, "Stochastic
  Gradient Descent Tricks", section 5.1), L1 by the cumulative penalty with
  truncation (Tsuruoka, Tsujii and Ananiadou 2009, section 3.2); the epoch
  is perceptron/_core/penalty_epoch.pxd, binary and multinomial (mini-batch:
  one penalty step a batch, in perceptron/_core/batch_epoch.pxd).

A violation is tested as "not (margin < y*a < inf)", so the same branch also
catches a non-finite activation; a sum that meets NaN or infinity in X is
not finite, which makes the loop the finiteness check of X at no extra cost.
"""
import numpy as np
from perceptron._core.csr import loop_values
# (their home is row_passes; imported here, where the loops' users look for them)
from perceptron._core.row_passes import shuffled_orders, shuffle_rows, squared_norms  # noqa: F401

from cython cimport floating
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport uint64_t, int64_t, int32_t, uint8_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport free

from perceptron.simd cimport (ptn_simd, active_simd, ptn_rng, ptn_rng_seed, ptn_rule_make,
                               PTN_RULE_PERCEPTRON, PTN_RULE_PA1, PTN_RULE_PA2)
from perceptron._core.rows cimport (Rows, DenseRows, CsrRows32, CsrRows64, csr_rows,
                                    dense_rows_for, row_bytes, row_sqnorms)
from perceptron._core cimport loop
from perceptron._core.loop cimport (Params, Model, Epoch, Data, ptn_rule_needs_norm, _all_finite,
                                    _all_finite_f64, _training_score_binary,
                                    _training_score_multi)
from perceptron._core.binary_epoch cimport _epoch_binary
from perceptron._core.pocket_queue cimport PocketQueue, pocket_queue_size, pocket_queue_start
from perceptron._core.multinomial_pocket cimport MultiPocketQueue, multi_queue_start
from perceptron._core.batch_epoch cimport _epoch_batch
from perceptron._core.penalty_epoch cimport _epoch_penalized
from perceptron._core.multinomial_epoch cimport _epoch_multinomial
from perceptron._core.buffers cimport buffer_data, BUF_FLOAT, BUF_SIGNED, BUF_UNSIGNED

# status codes of a call, turned into exceptions by the Python layer
STATUS_OK = loop.STATUS_OK
STATUS_NONFINITE_X = loop.STATUS_NONFINITE_X
STATUS_OVERFLOW = loop.STATUS_OVERFLOW
STATUS_STOPPED = loop.STATUS_STOPPED

# slots of a state's int64 counter array (perceptron/linear/_state.py imports them)
C_STEPS = loop.C_STEPS
C_UPDATES = loop.C_UPDATES
C_RUN = loop.C_RUN
C_POCKET_RUN = loop.C_POCKET_RUN
C_POCKET_CHECKED = loop.C_POCKET_CHECKED
C_EPOCHS = loop.C_EPOCHS
N_COUNTERS = loop.N_COUNTERS

# the fast paths, as fast_path names them (perceptron/_core/loop.pxd)
PATH_ROWS, PATH_ONLINE, PATH_PLAIN = loop.PATH_ROWS, loop.PATH_ONLINE, loop.PATH_PLAIN

# penalty names and their codes in Params (csrc/ptn_update.h)
_PENALTIES = {None: loop.PTN_PENALTY_NONE, "l2": loop.PTN_PENALTY_L2,
              "l1": loop.PTN_PENALTY_L1, "elasticnet": loop.PTN_PENALTY_ELASTICNET}
_PENALTY_NAMES = {code: name for name, code in _PENALTIES.items()}

# the update rules of the linear family by name, and their kinds in Params
# (csrc/ptn_update.h, ptn_rule)
RULES = {"perceptron": PTN_RULE_PERCEPTRON, "pa1": PTN_RULE_PA1, "pa2": PTN_RULE_PA2}
_RULE_NAMES = {code: name for name, code in RULES.items()}

_zeros = np.zeros
_empty = np.empty
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)


cdef class LoopParams:
    """The parameters of a call to run_epochs, typed once at the boundary.

    Made by ``Perceptron._loop_params``; immutable, picklable (the dask
    fit ships it to its workers), compared by value.  batch_size None (or 0)
    is the online rule.  penalty is None, "l2", "l1" or "elasticnet", with
    its alpha and l1_ratio (the state then needs the arrays
    ``OnlineState(penalty=...)`` makes).  update_rule names the update rule
    (a key of ``RULES``; "perceptron" steps by eta when y*a <= margin), C
    the aggressiveness of a rule that bounds its step; a rule other than the
    perceptron's runs online, without a penalty.
    """
    cdef Params c

    def __init__(self, *, double eta, double margin, bint fit_intercept, bint shuffle,
                 bint average, bint pocket, bint stop_when_converged, batch_size=None,
                 penalty=None, double alpha=0.0, double l1_ratio=0.0, bint keep_order=False,
                 update_rule="perceptron", double C=1.0):
        self._set(eta, margin, fit_intercept, shuffle, average, pocket, stop_when_converged,
                  batch_size, penalty, alpha, l1_ratio, keep_order, update_rule, C)

    cdef int _set(self, double eta, double margin, bint fit_intercept, bint shuffle,
                  bint average, bint pocket, bint stop_when_converged, batch_size, penalty,
                  double alpha, double l1_ratio, bint keep_order, update_rule,
                  double C) except -1:
        """The checks and the struct of __init__, for __init__ and ``checked_loop_params``."""
        if batch_size is not None and batch_size < 0:
            raise ValueError(f"batch_size must be None or >= 0, got {batch_size!r}")
        if penalty not in _PENALTIES:
            raise ValueError(f"penalty must be None, 'l2', 'l1' or 'elasticnet', got {penalty!r}")
        if not (alpha >= 0.0 and alpha < HUGE_VAL) or not (0.0 <= l1_ratio <= 1.0):
            raise ValueError(f"alpha must be finite and >= 0 and l1_ratio in [0, 1], got "
                             f"{alpha!r} and {l1_ratio!r}")
        if penalty is not None and pocket:
            raise ValueError("a penalty cannot be combined with the pocket")
        if update_rule not in RULES:
            raise ValueError(f"update_rule must be one of {sorted(RULES)}, got {update_rule!r}")
        if not (C > 0.0 and C < HUGE_VAL):
            raise ValueError(f"C must be finite and > 0, got {C!r}")
        if RULES[update_rule] != PTN_RULE_PERCEPTRON and (batch_size or penalty is not None):
            raise ValueError(f"the {update_rule!r} rule runs online, without a penalty")
        self.c.rule = ptn_rule_make(RULES[update_rule], eta, margin, C)
        self.c.fit_intercept = fit_intercept
        self.c.shuffle = shuffle
        self.c.average = average
        self.c.pocket = pocket
        self.c.stop_when_converged = stop_when_converged
        self.c.batch_size = batch_size or 0
        self.c.penalty = _PENALTIES[penalty]
        self.c.alpha = alpha
        self.c.l1_ratio = l1_ratio
        self.c.keep_order = keep_order
        return 0

    def _asdict(self):
        return {"eta": self.c.rule.eta, "margin": self.c.rule.margin,
                "fit_intercept": self.c.fit_intercept, "shuffle": self.c.shuffle,
                "average": self.c.average, "pocket": self.c.pocket,
                "stop_when_converged": self.c.stop_when_converged,
                "batch_size": self.c.batch_size or None,
                "penalty": _PENALTY_NAMES[self.c.penalty], "alpha": self.c.alpha,
                "l1_ratio": self.c.l1_ratio, "keep_order": self.c.keep_order,
                "update_rule": _RULE_NAMES[self.c.rule.kind], "C": self.c.rule.C}

    # read-only views of the C struct (a lambda cannot reach a cdef attribute)
    @property
    def eta(self):
        return self.c.rule.eta

    @property
    def margin(self):
        return self.c.rule.margin

    @property
    def update_rule(self):
        return _RULE_NAMES[self.c.rule.kind]

    @property
    def C(self):
        return self.c.rule.C

    @property
    def fit_intercept(self):
        return bool(self.c.fit_intercept)

    @property
    def shuffle(self):
        return bool(self.c.shuffle)

    @property
    def average(self):
        return bool(self.c.average)

    @property
    def pocket(self):
        return bool(self.c.pocket)

    @property
    def stop_when_converged(self):
        return bool(self.c.stop_when_converged)

    @property
    def batch_size(self):
        return self.c.batch_size or None

    @property
    def penalty(self):
        return _PENALTY_NAMES[self.c.penalty]

    @property
    def alpha(self):
        return self.c.alpha

    @property
    def l1_ratio(self):
        return self.c.l1_ratio

    @property
    def keep_order(self):
        return bool(self.c.keep_order)

    def __reduce__(self):
        return _loop_params_from_dict, (self._asdict(),)

    def __eq__(self, other):
        if not isinstance(other, LoopParams):
            return NotImplemented
        return self._asdict() == other._asdict()

    def __hash__(self):
        return hash(tuple(self._asdict().items()))

    def __repr__(self):
        return "LoopParams(" + ", ".join(f"{k}={v!r}" for k, v in self._asdict().items()) + ")"


def _loop_params_from_dict(dict p):
    return LoopParams(**p)


def checked_loop_params(dict p not None, bint stop_when_converged):
    """``LoopParams(eta=p["eta"], margin=p["margin"], ..., l1_ratio=p["l1_ratio"],
    update_rule=p.get("update_rule", "perceptron"), C=p.get("C", 1.0))`` of
    the checked parameters p of a Perceptron (``loop_params``), the same
    checks and conversions without the parsing of fourteen keywords (a
    small fit's fixed cost)."""
    cdef LoopParams made = LoopParams.__new__(LoopParams)
    made._set(p["eta"], p["margin"], p["fit_intercept"], p["shuffle"], p["average"],
              p["pocket"], stop_when_converged, p["batch_size"], p["penalty"], p["alpha"],
              p["l1_ratio"], False, p.get("update_rule", "perceptron"), p.get("C", 1.0))
    return made


def same_values(dict fields not None, tuple names not None, tuple values not None):
    """Whether ``fields[names[i]] is values[i]``, the very object, for every
    i (False when a name is missing): the test of ``check_params``'s memo
    of the previous call's values, one C loop instead of a Python call per
    value (a small fit's fixed cost)."""
    cdef Py_ssize_t i, n = len(names)
    cdef PyObject *value
    if len(values) != n:
        return False
    for i in range(n):
        value = PyDict_GetItem(fields, names[i])
        if value is NULL or value != <PyObject *>values[i]:
            return False
    return True


def divided(values, double by):
    """A new float64 array: the 1-D float64 array `values` divided by `by`,
    each quotient one IEEE division, as numpy's ``values / by`` rounds it,
    without a ufunc call's fixed cost (a small fit's loss_ per epoch)."""
    cdef Py_ssize_t shape[1]
    cdef Py_ssize_t i, n
    cdef const double *src = <const double *>buffer_data(values, BUF_FLOAT, 8, 1, False, shape,
                                                         "values")
    n = shape[0]
    out = _empty(n, _F64)
    cdef double *dst = <double *>buffer_data(out, BUF_FLOAT, 8, 1, True, shape, "out")
    for i in range(n):
        dst[i] = src[i] / by
    return out


def fast_path(LoopParams params, bint weighted=False):
    """Which fast path a fit with these parameters may take: ``PATH_PLAIN``
    (the online rule alone, no sample weights: the kernels run it whole),
    ``PATH_ONLINE`` (the online rule with averaging or sample weights: the
    CSR epoch in C, the fused one-vs-rest epoch) or ``PATH_ROWS`` (pocket,
    mini-batches or a penalty: row by row).  The loops ask the same
    question of the same function (perceptron/_core/loop.pxd)."""
    return loop.fast_path(&params.c, weighted)


def needs_norms(LoopParams params):
    """Whether the update rule of these parameters reads the rows' squared
    norms ||x_i||^2 (the passive-aggressive rules' step): then a fit of many
    calls computes them once (``squared_norms``) and passes them to every
    call (run_epochs' ``sqnorm``).  The loops ask the same question of the
    same function (csrc/ptn_update.h, ptn_rule_needs_norm)."""
    return bool(ptn_rule_needs_norm(&params.c.rule))


# --------------------------------------------------------------- driver

cdef struct LossRule:
    # scikit-learn's stopping rule on the epochs' training loss
    # (perceptron._common.stopping.StopRule), kept here so that a fit with a
    # tolerance runs all its epochs in one call
    bint on
    bint raw                    # the unweighted loss (raw_loss), else the weighted one
    double slack                # tol * rows
    Py_ssize_t patience         # n_iter_no_change
    double best                 # the lowest loss so far
    Py_ssize_t count            # epochs in a row without improvement


cdef int _run(const Rows *R, floating *W, Data *D, Model *M, const Params *P, bint multinomial,
              Py_ssize_t n_epochs, int64_t *mistakes, int64_t *updates, double *loss,
              double *raw_loss, double *penalty_loss, Epoch *last, LossRule *rule) except -1 nogil:
    """Up to n_epochs epochs; stops after an epoch without updates when asked
    (never with a penalty: the weights still move), and when the rule is on,
    after the epoch at which it says to (StopRule.observe, the same
    comparisons on the same sums)."""
    cdef double value
    cdef Py_ssize_t e
    cdef size_t bytes_per_row = max(row_bytes(R, D.n, W), <size_t>1)
    cdef Py_ssize_t check_every = max(1, loop.SIGNAL_CHECK_BYTES // <Py_ssize_t>bytes_per_row)
    cdef Py_ssize_t countdown = check_every
    cdef Epoch E
    for e in range(n_epochs):
        E.mistakes = 0
        E.updates = 0
        E.loss = 0.0
        E.raw_loss = 0.0
        E.penalty_loss = 0.0
        E.status = loop.STATUS_OK
        E.bad_row = -1
        if P.shuffle and not P.keep_order:
            active_simd().shuffle(M.rng, D.rows, <size_t>D.n_rows)
        if P.batch_size > 0:
            _epoch_batch(R, W, D, M, P, multinomial, &E, &countdown, check_every)
        elif P.penalty != loop.PTN_PENALTY_NONE:
            _epoch_penalized(R, W, D, M, P, multinomial, &E, &countdown, check_every)
        elif multinomial:
            _epoch_multinomial(R, W, D, M, P, &E, &countdown, check_every)
        else:
            _epoch_binary(R, W, D, M, P, &E, &countdown, check_every)
        last[0] = E
        if E.status != loop.STATUS_OK:
            return e
        mistakes[e] = E.mistakes
        updates[e] = E.updates
        loss[e] = E.loss
        raw_loss[e] = E.raw_loss
        if penalty_loss != NULL:
            penalty_loss[e] = E.penalty_loss
        M.counters[loop.C_UPDATES] += E.updates
        M.counters[loop.C_EPOCHS] += 1
        if not (_all_finite(W, M.k * D.d) and _all_finite_f64(M.b, M.k)):
            last.status = loop.STATUS_OVERFLOW
            return e
        if E.updates == 0 and P.stop_when_converged and P.penalty == loop.PTN_PENALTY_NONE:
            return e + 1
        if rule.on:
            value = E.raw_loss if rule.raw else E.loss
            if penalty_loss != NULL:
                value += E.penalty_loss
            if value > rule.best - rule.slack:
                rule.count += 1
            else:
                rule.count = 0
            if value < rule.best:
                rule.best = value
            if rule.count >= rule.patience:
                return e + 1
    return n_epochs


cdef inline double *_f64(obj, Py_ssize_t n, str name) except NULL:
    """A writable float64 state array of at least n items."""
    cdef Py_ssize_t shape[1]
    cdef double *p = <double *>buffer_data(obj, BUF_FLOAT, 8, 1, True, shape, name)
    if shape[0] < n:
        raise ValueError(f"run_epochs: the state's {name} has {shape[0]} items, expected {n}")
    return p


cdef inline double *_f64_2d(obj, Py_ssize_t k, Py_ssize_t d, str name) except NULL:
    cdef Py_ssize_t shape[2]
    cdef double *p = <double *>buffer_data(obj, BUF_FLOAT, 8, 2, True, shape, name)
    if shape[0] != k or shape[1] != d:
        raise ValueError(f"run_epochs: the state's {name} does not match its weights")
    return p


cdef dict _execute(state, const Rows *R, const floating *dtype_of_x, Py_ssize_t n, Py_ssize_t d,
                   labels, sample_weight, LoopParams params, Py_ssize_t n_epochs, stop_flag,
                   rule_obj, sqnorm, pocket_block):
    """run_epochs on rows R (n rows of d features) of dtype `floating`.

    The state's arrays are reached through ``buffer_data`` (checked: dtype,
    C order, shape), not typed memoryviews, and the per-epoch counts are
    written into the arrays returned: a small call's fixed cost."""
    cdef Params P = params.c
    cdef bint multinomial = state.multinomial
    cdef Model M
    cdef Data D
    cdef Epoch last
    cdef Py_ssize_t done, k
    cdef Py_ssize_t shape[2]
    cdef ptn_rng rng
    cdef uint64_t *rng_state
    cdef floating *W
    cdef double one = 1.0
    cdef double *penalty_loss_p = NULL
    cdef double *sq_p = NULL
    cdef LossRule rule
    cdef PocketQueue queue
    cdef MultiPocketQueue multi_queue
    cdef Py_ssize_t cap
    rule.on = False
    if rule_obj is not None and rule_obj.slack is not None:
        if rule_obj.higher or rule_obj.key not in ("loss", "raw_loss"):
            raise ValueError("run_epochs: the rule must be on the training loss")
        rule.on = True
        rule.raw = rule_obj.key == "raw_loss"
        rule.slack = rule_obj.slack
        rule.patience = rule_obj.patience
        rule.best = rule_obj.best
        rule.count = rule_obj.count
    # the state's arrays, held here while the loop uses their data
    W_obj = state.W
    b_obj = state.b
    acts_obj = state.acts
    score_obj = state.pocket_score
    counters_obj = state.counters
    rng_obj = state.rng_state
    rows_obj = state.rows
    U_obj = ub_obj = PW_obj = pb_obj = G_obj = gb_obj = None
    scale_obj = norms_obj = u_obj = q_obj = penalty_loss = None

    W = <floating *>buffer_data(W_obj, BUF_FLOAT, sizeof(floating), 2, True, shape, "W")
    k = shape[0]
    if shape[1] != d:
        raise ValueError("run_epochs: the state does not match X")
    M.counters = <int64_t *>buffer_data(counters_obj, BUF_SIGNED, 8, 1, True, shape, "counters")
    if shape[0] < loop.N_COUNTERS:
        raise ValueError("run_epochs: the state does not match X")
    rng_state = <uint64_t *>buffer_data(rng_obj, BUF_UNSIGNED, 8, 1, True, shape, "rng_state")
    if shape[0] != 1:
        raise ValueError("run_epochs: the state does not match X")
    if rows_obj is None:
        raise ValueError("run_epochs: nothing to do")
    D.rows = <ptrdiff_t *>buffer_data(rows_obj, BUF_SIGNED, sizeof(ptrdiff_t), 1, True, shape,
                                       "rows")
    D.n_rows = shape[0]
    if n_epochs < 1 or D.n_rows == 0 or d == 0:
        raise ValueError("run_epochs: nothing to do")
    # the arrays the parameters need must exist (a state made for other parameters)
    if P.average:
        U_obj = state.U
        ub_obj = state.ub
    if P.pocket:
        PW_obj = state.PW
        pb_obj = state.pb
    if P.batch_size > 0:
        G_obj = state.G
        gb_obj = state.gb
    if (P.average and (U_obj is None or ub_obj is None)) or \
            (P.pocket and (PW_obj is None or pb_obj is None)) or \
            (P.batch_size > 0 and (G_obj is None or gb_obj is None)):
        raise ValueError("run_epochs: the state was made without the arrays that average, "
                         "pocket or batch_size need")
    if P.penalty != loop.PTN_PENALTY_NONE:
        norms_obj = getattr(state, "norms", None)
        u_obj = getattr(state, "u", None)
        scale_obj = getattr(state, "scale", None)
        q_obj = getattr(state, "q", None)
        if norms_obj is None or u_obj is None or scale_obj is None or \
                (P.penalty >= loop.PTN_PENALTY_L1 and q_obj is None):
            raise ValueError("run_epochs: the state was made without the arrays the penalty "
                             "needs")
    M.k = k
    M.d = d
    M.W = W
    M.b = _f64(b_obj, k, "b")
    M.acts = _f64(acts_obj, k, "acts")
    M.pocket_score = _f64(score_obj, 1, "pocket_score")
    M.U = NULL
    M.ub = NULL
    M.PW = NULL
    M.pb = NULL
    M.G = NULL
    M.gb = NULL
    M.scale = &one
    M.q = NULL
    M.u = NULL
    M.norms = NULL
    if P.penalty != loop.PTN_PENALTY_NONE:
        penalty_loss = _zeros(n_epochs, _F64)
        penalty_loss_p = <double *>buffer_data(penalty_loss, BUF_FLOAT, 8, 1, True, shape,
                                               "penalty_loss")
        M.scale = <double *>buffer_data(scale_obj, BUF_FLOAT, 8, 1, True, shape, "scale")
        if shape[0] != k:
            raise ValueError("run_epochs: the state's penalty arrays do not match its weights")
        M.norms = <double *>buffer_data(norms_obj, BUF_FLOAT, 8, 2, True, shape, "norms")
        if shape[0] != k or shape[1] != 2:
            raise ValueError("run_epochs: the state's penalty arrays do not match its weights")
        M.u = <double *>buffer_data(u_obj, BUF_FLOAT, 8, 1, True, shape, "u")
        if shape[0] != 1:
            raise ValueError("run_epochs: the state's penalty arrays do not match its weights")
        if P.penalty >= loop.PTN_PENALTY_L1:
            M.q = <double *>buffer_data(q_obj, BUF_FLOAT, 8, 2, True, shape, "q")
            if shape[0] != k or shape[1] != d:
                raise ValueError("run_epochs: the state's penalty arrays do not match its "
                                 "weights")
    if P.average:
        M.U = _f64_2d(U_obj, k, d, "U")
        M.ub = _f64(ub_obj, k, "ub")
    if P.pocket:
        M.PW = <floating *>buffer_data(PW_obj, BUF_FLOAT, sizeof(floating), 2, True, shape, "PW")
        if shape[0] != k or shape[1] != d:
            raise ValueError("run_epochs: the state's PW does not match its weights")
        M.pb = _f64(pb_obj, k, "pb")
    if P.batch_size > 0:
        M.G = _f64_2d(G_obj, k, d, "G")
        M.gb = _f64(gb_obj, k, "gb")
    D.n = n
    D.d = d
    D.y = NULL
    D.t = NULL
    if multinomial:
        D.t = <const int32_t *>buffer_data(labels, BUF_SIGNED, 4, 1, False, shape, "labels")
    else:
        D.y = <const signed char *>buffer_data(labels, BUF_SIGNED, 1, 1, False, shape, "labels")
    if shape[0] < n:
        raise ValueError(f"run_epochs: {shape[0]} labels for {n} rows")
    D.sw = NULL
    if sample_weight is not None:
        D.sw = <const double *>buffer_data(sample_weight, BUF_FLOAT, 8, 1, False, shape,
                                           "sample_weight")
        if shape[0] < n:
            raise ValueError(f"run_epochs: {shape[0]} sample weights for {n} rows")
    # the rows' squared norms, for a rule whose step reads them: given (one
    # pass for the whole fit), or computed here for the rows of the call
    D.sqnorm = NULL
    if ptn_rule_needs_norm(&P.rule):
        if sqnorm is None:
            sqnorm = _zeros(n, _F64)
            sq_p = <double *>buffer_data(sqnorm, BUF_FLOAT, 8, 1, True, shape, "sqnorm")
            with nogil:
                row_sqnorms(R, active_simd(), D.rows, D.n_rows, dtype_of_x, sq_p)
        else:
            sq_p = <double *>buffer_data(sqnorm, BUF_FLOAT, 8, 1, False, shape, "sqnorm")
            if shape[0] < n:
                raise ValueError(f"run_epochs: {shape[0]} squared norms for {n} rows")
        D.sqnorm = sq_p
    # rows this call does not shuffle: the CSR epoch reads them in order
    # while rows[k] == k (csrc/ptn_csr_online.h)
    D.in_order = not P.shuffle or P.keep_order
    D.stop = NULL
    if stop_flag is not None:
        D.stop = <uint8_t *>buffer_data(stop_flag, BUF_UNSIGNED, 1, 1, True, shape, "stop_flag")
    # the per-epoch counts, returned as they are when every epoch ran
    mistakes = _zeros(n_epochs, _I64)
    updates = _zeros(n_epochs, _I64)
    loss = _zeros(n_epochs, _F64)
    raw_loss = _zeros(n_epochs, _F64)
    cdef int64_t *mistakes_p = <int64_t *>buffer_data(mistakes, BUF_SIGNED, 8, 1, True, shape, "")
    cdef int64_t *updates_p = <int64_t *>buffer_data(updates, BUF_SIGNED, 8, 1, True, shape, "")
    cdef double *loss_p = <double *>buffer_data(loss, BUF_FLOAT, 8, 1, True, shape, "")
    cdef double *raw_loss_p = <double *>buffer_data(raw_loss, BUF_FLOAT, 8, 1, True, shape, "")
    rng.state = rng_state[0]
    M.rng = &rng
    queue.W = NULL
    multi_queue.W = NULL
    multi_queue.B = NULL
    M.queue = NULL
    if P.pocket:  # the pocket's candidates counted in blocks
        cap = pocket_queue_size(pocket_block, row_bytes(R, n, W) * <size_t>D.n_rows,
                                <size_t>(k * d) * sizeof(floating))
        if cap > 1 and multinomial:
            M.queue = multi_queue_start(&multi_queue, cap, k, <size_t>(k * d) * sizeof(floating))
        elif cap > 1:
            M.queue = pocket_queue_start(&queue, cap, <size_t>d * sizeof(floating))
    last.status = loop.STATUS_OK
    last.bad_row = -1
    try:
        with nogil:
            done = _run(R, W, &D, &M, &P, multinomial, n_epochs, mistakes_p, updates_p,
                        loss_p, raw_loss_p, penalty_loss_p, &last, &rule)
    finally:
        free(queue.W)
        free(multi_queue.W)
        free(multi_queue.B)
        rng_state[0] = rng.state
        if rule.on:
            rule_obj.best = rule.best
            rule_obj.count = rule.count
    if done < n_epochs:  # not the max_iter-long arrays of a fit that stopped early
        mistakes = mistakes[:done].copy()
        updates = updates[:done].copy()
        loss = loss[:done].copy()
        raw_loss = raw_loss[:done].copy()
        if penalty_loss is not None:
            penalty_loss = penalty_loss[:done].copy()
    result = {"epochs": done, "mistakes": mistakes, "updates": updates, "loss": loss,
              "raw_loss": raw_loss, "status": last.status, "bad_row": last.bad_row}
    if penalty_loss is not None:
        result["penalty_loss"] = penalty_loss
    return result



def run_epochs(state, X, labels, sample_weight, params, Py_ssize_t n_epochs, stop_flag=None,
               rule=None, sqnorm=None, pocket_block=None):
    """Run up to `n_epochs` epochs of the state's model on X, in place.

    X is a C-contiguous (n, d) float32 or float64 array (or float16,
    bfloat16, int8 or uint8: read as stored against a state of float32
    weights, widened a row at a time against float64 ones), or CSR data (an
    object with `data`, `indices`, `indptr` and `shape`: a scipy CSR matrix
    or ``perceptron._common.validation.CsrData``) with float32/float64 values and
    int32/int64 indices, validated by the Python layer (indices in range,
    no column repeated in a row).  `state` is a perceptron.linear._state.OnlineState
    whose arrays match X's dtype (float32 or float64 for narrow rows) and
    width; `labels` are int8 signs (binary
    state) or int32 class indices (multinomial state); `sample_weight` is a
    float64 array or None.  Inputs are trusted.

    `params` is a LoopParams (a mapping of its fields is accepted too).

    `rule`: None, or a perceptron._common.stopping.StopRule on the training loss
    (its ``key``, "loss" or "raw_loss", names which), observed after each
    epoch as the Python loop would, its state (``best``, ``count``) read
    before and written back after: the call stops after the epoch at which
    it says to.

    `sqnorm`: for a rule whose step reads ||x_i||^2, the rows' squared norms
    (``row_sqnorms(X)``, float64, one per row), computed once for a fit of
    many calls; None computes them here for the call's rows.

    `pocket_block`: the pocket's candidate weights counted in one read of X
    (perceptron/_core/pocket_queue.pxd, binary; multinomial_pocket.pxd,
    multiclass), 2 to 32; None chooses by
    X's size; 0 or 1 counts each as it comes, without the queue (the same
    pocket, bit for bit, whichever is given).

    Returns a dict: epochs completed, mistakes / updates / summed weighted
    loss / summed unweighted loss (``raw_loss``) / with a penalty, summed
    penalty terms of the stopping rule's objective (``penalty_loss``) of
    each, the status and the
    offending row when it is not OK.
    """
    cdef DenseRows R
    cdef Py_ssize_t shape[2]
    cdef LoopParams lp = params if isinstance(params, LoopParams) else LoopParams(**params)
    if isinstance(X, np.ndarray):
        # the dtype picks the loops' instantiation (a fused def's dispatch
        # costs microseconds a call); narrow rows run with float32 weights
        if dense_rows_for(&R, X, shape, state.W.dtype.itemsize) == 4:
            return _execute(state, &R, <const float *>R.X, shape[0], shape[1], labels,
                            sample_weight, lp, n_epochs, stop_flag, rule, sqnorm, pocket_block)
        try:  # float64 weights: over float64 rows, or narrow rows widened as read (R.wide)
            return _execute(state, &R, <const double *>R.X, shape[0], shape[1], labels,
                            sample_weight, lp, n_epochs, stop_flag, rule, sqnorm, pocket_block)
        finally:
            free(R.wide)
    values, binary = loop_values(X.data, X.indptr)
    return _run_csr(state, values, X.indices, X.indptr, X.shape[1], labels, sample_weight,
                    lp, n_epochs, stop_flag, rule, sqnorm, pocket_block, binary)


def _run_csr(state, const floating[::1] data, indices, indptr, Py_ssize_t n_features, labels,
             sample_weight, LoopParams params, Py_ssize_t n_epochs, stop_flag, rule, sqnorm,
             pocket_block, Py_ssize_t binary):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef Py_ssize_t n = indptr.shape[0] - 1
    cdef const floating *val = NULL
    if data.shape[0]:
        val = &data[0]
    cdef bint rows32 = csr_rows(&R32, &R64, val, indices, indptr, n_features,
                                <size_t>n_features * sizeof(floating), binary)
    # whether every value is 1.0 (csr_epoch.pxd): its pass pays from the second epoch of a
    # call; binary rows are known to be
    R32.ones = R64.ones = 1 if binary >= 0 else -1 if n_epochs > 1 else 0
    if rows32:
        return _execute(state, &R32, val, n, n_features, labels, sample_weight, params,
                        n_epochs, stop_flag, rule, sqnorm, pocket_block)
    return _execute(state, &R64, val, n, n_features, labels, sample_weight, params, n_epochs,
                    stop_flag, rule, sqnorm, pocket_block)


cdef double _score(state, const Rows *R, const floating *dtype_of_x, Py_ssize_t n, Py_ssize_t d,
                   labels, sample_weight, bint pocket) except? -1.0:
    cdef Data D
    cdef floating[:, ::1] W = state.PW if pocket else state.W
    cdef double[::1] b = state.pb if pocket else state.b
    cdef ptrdiff_t[::1] rows = state.rows
    cdef const signed char[::1] y
    cdef const int32_t[::1] t
    cdef const double[::1] sw
    cdef double score
    cdef const ptn_simd *K = active_simd()
    D.n = n
    D.d = d
    D.rows = &rows[0]
    D.n_rows = rows.shape[0]
    D.in_order = False
    D.sw = NULL
    D.sqnorm = NULL
    D.y = NULL
    D.t = NULL
    if sample_weight is not None:
        sw = sample_weight
        D.sw = &sw[0]
    if state.multinomial:
        t = labels
        D.t = &t[0]
        with nogil:
            score = _training_score_multi(R, &D, &W[0, 0], &b[0], W.shape[0], K, -HUGE_VAL)
    else:
        y = labels
        D.y = &y[0]
        with nogil:
            score = _training_score_binary(R, &D, &W[0, 0], b[0], K, -HUGE_VAL)
    return score


def training_score(state, X, labels, sample_weight, bint pocket=False):
    """Weighted count of the state's rows that its current weights (or its
    pocket weights) get right: y*a > 0, or the true class strictly winning.
    X as in run_epochs."""
    cdef DenseRows R
    cdef Py_ssize_t shape[2]
    if isinstance(X, np.ndarray):
        if dense_rows_for(&R, X, shape, state.W.dtype.itemsize) == 4:
            return _score(state, &R, <const float *>R.X, shape[0], shape[1], labels,
                          sample_weight, pocket)
        try:
            return _score(state, &R, <const double *>R.X, shape[0], shape[1], labels,
                          sample_weight, pocket)
        finally:
            free(R.wide)
    values, binary = loop_values(X.data, X.indptr)
    return _score_csr(state, values, X.indices, X.indptr, X.shape[1], labels, sample_weight,
                      pocket, binary)


def _score_csr(state, const floating[::1] data, indices, indptr, Py_ssize_t n_features, labels,
               sample_weight, bint pocket, Py_ssize_t binary):
    cdef CsrRows32 R32
    cdef CsrRows64 R64
    cdef Py_ssize_t n = indptr.shape[0] - 1
    cdef const floating *val = NULL
    if data.shape[0]:
        val = &data[0]
    if csr_rows(&R32, &R64, val, indices, indptr, n_features,
                <size_t>n_features * sizeof(floating), binary):
        return _score(state, &R32, val, n, n_features, labels, sample_weight, pocket)
    return _score(state, &R64, val, n, n_features, labels, sample_weight, pocket)

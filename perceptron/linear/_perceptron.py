"""Linear perceptron classifiers: the Perceptron estimator and its scoring."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Union

import numpy as np

from perceptron._common.base import BaseEstimator, no_training_state
from perceptron._core import online as _online
from perceptron.linear._base import LinearClassifierMixin, linear_decision  # noqa: F401 (its old home)
from perceptron.linear._fit import (CHECKED_PARAMS, append_histories, check_params, class_index_of,
                                    encode_targets, fit_plain_binary, forget_checked,
                                    kept_loop_params, known_binary_signs, package_class,
                                    partial_fit_binary, plain_binary, warn_not_converged)
from perceptron.linear._mixing import mixing_runner
from perceptron.linear._monitor import Monitor
from perceptron._common.parallel import map_threads
from perceptron.io._registry import (attr, bad, check_common, check_history, check_int,
                                     check_linear, need, register_model, register_value_type)
from perceptron._common.sklearn_compat import ONLINE_EXPECTED_FAILURES
from perceptron.linear._state import OnlineState
from perceptron._common.typing import ArrayLike, MatrixLike, Self
from perceptron.linear._training import (Problem, check_saved_states, check_state_params,
                                         chunk_labels, class_signs, class_weights, fit_epochwise,
                                         initial_weights, labels_not_in, loss_rule, run_blocks,
                                         run_in_shared_order, share_order, validation_split)
from perceptron.linear._training import raise_for_status as _raise_for_status  # the name _run has always used
from perceptron._common.validation import (check_feature_names, check_labels, check_n_features,
                                           check_random_seed, check_sample_weight, check_X,
                                           label_signs, mix64, unique_labels)

__all__ = ["Perceptron"]

# what partial_fit appends to after each call: key, attribute, dtype


class Perceptron(LinearClassifierMixin, BaseEstimator):
    """The perceptron family of linear classifiers, trained by error-driven updates.

    For each training row ``x`` with label ``y`` in {-1, +1} (``classes_[1]``
    is +1) the activation is ``a = w.x + b``; when ``y*a <= margin`` the
    model updates ``w <- w + eta0*s*y*x`` and ``b <- b + eta0*s*y``, ``s``
    being the row's weight (Rosenblatt 1958; Daume III, *A Course in Machine
    Learning*, ch. 3, Algorithm 5).  Each epoch visits every row once, in a
    new random order when ``shuffle``.  The fit stops after the first epoch
    without an update (the data are then separated, with the margin), by
    scikit-learn's rule on the loss (see ``tol``), or after ``max_iter``
    epochs, with a ``ConvergenceWarning``.  On separable data
    with margin gamma and radius R, at most (R/gamma)^2 updates are made
    (Novikoff 1962).

    The variants:

    - ``average=True``: the averaged perceptron (Daume III, ch. 3 "Voting and
      averaging"; Collins 2002).  ``coef_`` is the mean of the weights after
      every step, computed with the lazy trick (a second vector ``u`` gets
      ``c*step*x`` on an update, the average is ``w - u/c``): O(d) per
      update, nothing per correct row; accumulated in float64.
    - ``pocket=True``: the pocket algorithm with ratchet (Gallant 1990): the
      weights of the longest run of correct predictions are kept "in the
      pocket" if they also classify more training rows right than the
      pocket's; ``coef_`` is the pocket.  For data that are not separable.
    - ``margin=tau``: update when ``y*a <= tau`` (the perceptron with
      margins, PAUM, Li et al. 2002); ``tau = 0`` is the plain rule.
    - ``batch_size=B``: mini-batch steps (stochastic subgradient descent on
      the mean perceptron loss): the shuffled rows are cut into batches of B; for each, the weights stay fixed while
      the violating rows' ``s*y*x`` are summed, then ``w += (eta0/B) * sum``:
      a subgradient step on the perceptron loss.  ``B = n_samples`` is the
      full batch gradient; ``None`` (or 1) is the online rule.
    - more than two classes: ``multiclass="ovr"`` trains one binary
      perceptron per class (Wan, *Perceptrons*, note 2), on ``n_jobs`` threads;
      ``multiclass="multinomial"`` keeps one row of weights per class and,
      when the true class ``t`` does not beat the best other class ``r`` by
      more than the margin, adds ``eta0*s*x`` to row ``t`` and subtracts it
      from row ``r`` (Collins 2002; Crammer and Singer 2003).  A tie is a
      mistake, as ``y*a = 0`` is in the binary rule.
    - multi-label: a 2-D 0/1 indicator ``y`` of shape (n_samples, n_labels)
      trains one binary perceptron per label; ``predict`` returns an
      indicator matrix (a sample may get several classes).

    The parameters of ``sklearn.linear_model.Perceptron`` have its names,
    defaults and meanings; ``average``, ``pocket``, ``margin``,
    ``batch_size``, ``multiclass``, ``callback`` and ``progress`` are
    additions.

    Parameters
    ----------
    eta0 : float, default=1.0
        Step size (> 0).  From ``w = 0`` the plain rule's predictions do not
        depend on it; it matters with margins, warm starts and mini-batches.
    max_iter : int, default=1000
        Maximum number of epochs.
    fit_intercept : bool, default=True
        Learn the bias; if False it stays 0 (or its warm start).
    shuffle : bool, default=True
        Visit the rows in a new random order each epoch.
    random_state : None, int, numpy.random.Generator or RandomState, default=0
        Seed of the shuffles and of the validation split.
    warm_start : bool, default=False
        Start from the previous fit's weights (the raw weights, also for the
        averaged model; averaging and pocket start afresh); for a model loaded
        without its training state, from ``coef_`` and ``intercept_``.
    average : bool, default=False
        Predict with the averaged weights.
    pocket : bool, default=False
        Predict with the pocket's weights (not with ``average`` or ``batch_size``).
    margin : float, default=0.0
        Update when ``y*a <= margin`` (>= 0).
    batch_size : int or None, default=None
        Rows per mini-batch step; None is the online rule.
    multiclass : {"ovr", "multinomial"}, default="ovr"
        How more than two classes are learned.
    n_jobs : int or None, default=None
        Threads of a fit (None: 1) and of scoring (None: all the process may
        use); -1: all the CPUs the process may use, -2: all but one, ...
        One-vs-rest and multi-label problems run side by side.  A single binary
        or multinomial problem (no pocket or penalty) with ``n_jobs=k > 1`` trains by
        iterative parameter mixing of k shards (McDonald et al. 2010): not the
        algorithm of ``n_jobs=1``, deterministic for a given k (user guide, "Scaling out").
    mixing : {"uniform", "mistakes"}, default="uniform"
        Shards' weights mixed by their mean, or weighted by their updates (with ``n_jobs > 1``).
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the training rows (stratified),
        score the model on them after each epoch, stop after
        ``n_iter_no_change`` epochs without improvement (a score not above
        the best so far plus ``tol``; with ``tol=None``, not above the best)
        and keep the best weights (Daume III, figure 3.3: the held-out
        error's "sweet spot"; scikit-learn keeps the last weights).
    validation_fraction : float, default=0.1
        In (0, 1).
    n_iter_no_change : int, default=5
        Patience of early stopping.
    class_weight : None, "balanced" or dict, default=None
        Multiplies the step of each class's rows; "balanced" uses
        ``n_samples / (n_classes * count(class))``.  (In a one-vs-rest
        problem, scikit-learn weighs the "rest" rows 1.)
    verbose : int, default=0
        Print a line per epoch: mistakes, updates, loss, validation score, time.
    callback : callable or None, default=None
        Called after each epoch of ``fit`` with a ``perceptron.EpochInfo``
        (epoch, mistakes, updates, loss, validation score, time, the current
        weights); returning True stops the fit there.
    progress : bool, default=False
        Show a tqdm progress bar (tqdm must be installed).
    penalty : {None, "l2", "l1", "elasticnet"}, default=None
        ``alpha*((1 - l1_ratio)/2*||w||^2 + l1_ratio*||w||_1)``, stepped on
        every row as scikit-learn's SGD does: ``w *= max(0, 1 - (1 -
        l1_ratio)*eta0*alpha)``, the update, then L1 by the cumulative
        penalty with truncation (Tsuruoka, Tsujii and Ananiadou 2009).  No
        stop at an epoch without an update; sparse input gives the dense
        model (scikit-learn's does not).  Mini-batches: one penalty step a
        batch.  Not with ``pocket``.  See the user guide, "Penalties".
    alpha : float, default=0.0001
        Strength of the penalty (>= 0).
    l1_ratio : float, default=0.15
        The L1 share of the elastic net penalty, in [0, 1].
    tol : float or None, default=1e-3
        The stopping rule of scikit-learn's SGD loop: after each epoch, the
        epoch's loss ``sum_i max(0, -y_i a_i)`` (``a_i`` taken when row i
        was visited; unweighted, as scikit-learn sums it, for the plain
        rule; weighted, as ``loss_``, with ``average``, ``pocket``,
        ``margin``, ``batch_size`` or the multinomial rule) is compared
        with the lowest so far minus ``tol * n_rows``; after ``n_iter_no_change`` epochs in a row that do not
        beat it, the fit stops (each one-vs-rest problem on its own).  With
        ``early_stopping`` the validation score takes the loss's place.
        ``None``: no such rule; the fit stops at the first epoch without an
        update, or after ``max_iter`` epochs.  (scikit-learn goes on with
        epochs that make no update, and counts rows of weight 0.)

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights predictions use, in the dtype of the training data.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The biases (kept in double precision during the fit).
    classes_ : ndarray
        Sorted labels (``classes_[1]`` is positive for two classes), or
        ``arange(n_labels)`` for a multi-label model.
    n_features_in_ : int
    n_iter_ : int
        Epochs run (for one-vs-rest, the most any class ran); with
        ``partial_fit``, the chunks seen.
    converged_ : bool
        Whether an epoch without updates was reached (by every binary problem).
    mistakes_ : ndarray of shape (``n_iter_``,)
        Mistakes (``y*a <= 0``) in each epoch, summed over one-vs-rest problems.
    updates_ : ndarray of shape (``n_iter_``,)
        Updates in each epoch (more than the mistakes when ``margin > 0``;
        batches with an update for mini-batches).
    loss_ : ndarray of shape (``n_iter_``,)
        Perceptron loss of each epoch, ``sum s_i max(0, -y_i a_i) / sum s_i``
        with each ``a_i`` taken when row i was visited (summed over
        one-vs-rest problems; for the multinomial rule
        ``max(0, max_{j != t} a_j - a_t)``).
    t_ : int
        Total number of updates.  (scikit-learn's ``t_`` counts samples.)
    validation_scores_ : ndarray of shape (``n_iter_``,)
        With ``early_stopping``: the accuracy on the held-out rows after each epoch.
    best_validation_score_ : float
        With ``early_stopping``: the best of them (the model kept).

    Notes
    -----
    float32 input stays float32 (no copy); float64 stays float64; other
    numeric input is converted once to float64.  Activations are summed in
    double precision whatever the data's dtype (for float32 data, after
    blocks of four float32 products per SIMD lane: an error below
    ``4 * 2**-24 * sum |w_j x_j|``; see csrc/ptn_simd.h).  X is checked for NaN and
    infinity during the first epoch (any non-finite value makes an
    activation non-finite), not by a separate pass.  Rows of weight 0 are
    left out of training.

    Sparse X (CSR; CSC, COO and others converted once) trains by the same
    loops over its rows with the sparse kernels: an activation reads only
    the row's stored columns, an update writes only them.  Sparse and dense
    input of the same rows in the same order give the same model (exactly
    for values whose products and sums are exact; the sparse dot product
    takes exact double products, so for float32 data it may differ from the
    dense one by the rounding bound above).
    """

    _sklearn_expected_failures = ONLINE_EXPECTED_FAILURES  # scikit-learn checks it cannot pass

    def __init__(self, eta0: float = 1.0, max_iter: int = 1000, fit_intercept: bool = True,
                 shuffle: bool = True, random_state: Any = 0, warm_start: bool = False,
                 average: bool = False, pocket: bool = False, margin: float = 0.0,
                 batch_size: Optional[int] = None, multiclass: str = "ovr",
                 n_jobs: Optional[int] = None, early_stopping: bool = False,
                 validation_fraction: float = 0.1, n_iter_no_change: int = 5,
                 class_weight: Union[None, str, Dict[Any, float]] = None, verbose: int = 0,
                 callback: Optional[Callable[..., Any]] = None, progress: bool = False,
                 penalty: Optional[str] = None, alpha: float = 0.0001,
                 l1_ratio: float = 0.15, tol: Optional[float] = 1e-3,
                 mixing: str = "uniform") -> None:
        self.eta0 = eta0
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.shuffle = shuffle
        self.random_state = random_state
        self.warm_start = warm_start
        self.average = average
        self.pocket = pocket
        self.margin = margin
        self.batch_size = batch_size
        self.multiclass = multiclass
        self.n_jobs = n_jobs
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.class_weight = class_weight
        self.verbose = verbose
        self.callback = callback
        self.progress = progress
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.tol = tol
        self.mixing = mixing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        return tags

    # ------------------------------------------------------------ parameters

    def __setattr__(self, name, value):
        # the checked parameters this estimator remembers (check_params)
        # hold for the values they were checked from: setting one of those
        # parameters, by set_params or by assignment, forgets them
        if name in CHECKED_PARAMS:
            forget_checked(self)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in CHECKED_PARAMS:
            forget_checked(self)
        object.__delattr__(self, name)

    def _check_params(self):
        """The checked parameters, as a dict (``perceptron.linear._fit.check_params``)."""
        return check_params(self)

    @staticmethod
    def _loop_params(p, stop_when_converged=True):
        return _online.LoopParams(
            eta=p["eta"], margin=p["margin"], fit_intercept=p["fit_intercept"],
            shuffle=p["shuffle"], average=p["average"], pocket=p["pocket"],
            stop_when_converged=stop_when_converged, batch_size=p["batch_size"],
            penalty=p["penalty"], alpha=p["alpha"], l1_ratio=p["l1_ratio"])

    # --------------------------------------------------------------- targets

    @staticmethod
    def _encode_targets(y, n):
        """(kind, classes, class_index, signs) for binary, multiclass or
        multi-label y (``perceptron.linear._fit.encode_targets``)."""
        return encode_targets(y, n)

    def _problems(self, kind, k, index, d, dtype, seed, p, init, signs=None):
        """The loop runs of a fit: (mode, [problems]); `signs`: a binary
        y's int8 signs when ``encode_targets`` made them (index is None then)."""
        def state(rows_k, multinomial, s, j):
            W0, b0 = (None, None) if init is None else (init[0][j:j + rows_k], init[1][j:j + rows_k])
            return OnlineState(rows_k, d, dtype, multinomial=multinomial, average=p["average"],
                               pocket=p["pocket"], batch_size=p["batch_size"], seed=s,
                               W0=W0, b0=b0, penalty=p["penalty"])

        if kind == "binary":
            signs = label_signs(index == 1) if signs is None else signs
            return "binary", [Problem(state(1, False, seed, 0), signs)]
        if kind == "multiclass" and self.multiclass == "multinomial":
            return "multinomial", [Problem(state(k, True, seed, 0), index)]
        problems = []
        for j in range(k):
            if kind == "multilabel":
                labels = label_signs(index[:, j])
            else:  # made when the class's loop runs (k arrays of n: O(n*k) memory)
                labels = class_signs(index, j)
            # one-vs-rest: class 0's generator (a binary fit's) shuffles the shared order
            s = seed if j == 0 and kind != "multilabel" else mix64(seed ^ (j + 1))
            problems.append(Problem(state(1, False, s, j), labels))
        return ("multilabel" if kind == "multilabel" else "ovr"), problems

    # -------------------------------------------------------------- training

    def _run(self, X, problems, sw, loop_params, n_epochs, n_threads, stop, rule=None):
        """n_epochs epochs of every (active) problem, on threads; returns
        results.  ``rule``: one problem's stopping rule (``run_blocks``)."""
        if problems and problems[0].order is not None:
            return run_in_shared_order(self._run_each, X, problems, sw, loop_params, n_epochs,
                                       n_threads, stop)
        return self._run_each(X, problems, sw, loop_params, n_epochs, n_threads, stop, rule)

    def _run_each(self, X, problems, sw, loop_params, n_epochs, n_threads, stop, rule=None):
        """n_epochs epochs of each problem on its own, on threads; returns results."""
        def job(problem):
            return run_blocks(problem.state, X, problem.labels, sw, loop_params, n_epochs, stop)
        assert rule is None or len(problems) == 1, "a stopping rule in the loop is for one problem"
        try:
            if len(problems) == 1:  # no threads to start: a small fit's fixed cost
                results = [run_blocks(problems[0].state, X, problems[0].labels, sw, loop_params,
                                      n_epochs, stop, rule)]
            else:
                results = map_threads(job, [(pr,) for pr in problems], n_threads)
        except BaseException:
            stop[0] = 1  # tell the other threads' loops to return
            raise
        for problem, res in zip(problems, results):
            _raise_for_status(res, problem.state)
            for key in ("mistakes", "updates", "loss"):
                problem.history[key].append(res[key])
        return results

    def _effective(self, mode, problems, p):
        """coef, intercept of the model the problems make now."""
        parts = [pr.state.effective(p["average"], p["pocket"]) for pr in problems]
        if len(parts) == 1:  # effective() returns fresh arrays
            W, b = parts[0]
        else:
            W = np.vstack([w for w, _ in parts])
            b = np.concatenate([b for _, b in parts])
        if mode == "multinomial" and W.shape[0] == 2:
            # two classes trained by the multiclass rule: one equivalent row
            W = (W[1:].astype(np.float64) - W[:1]).astype(W.dtype)
            b = b[1:] - b[:1]
        return W, b

    def fit(self, X: MatrixLike, y: ArrayLike, coef_init: Optional[ArrayLike] = None,
            intercept_init: Optional[ArrayLike] = None,
            sample_weight: Optional[ArrayLike] = None) -> Self:
        """Train on X (n_samples, n_features) and y.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Dense (float32 and float64 used as they are), or sparse: a
            scipy.sparse matrix or array, or ``perceptron.io.CSRData``.  CSR
            with float32/float64 values and int32 or int64 indices is used
            without a copy; other formats and value dtypes are converted
            once (see ``perceptron._common.validation.check_X``).  The model's
            dtype is the values' dtype.
        y : array-like of shape (n_samples,), or (n_samples, n_labels) 0/1 indicator
        coef_init : array-like of shape (n_classes, n_features), optional
            Initial weights (``(1, n_features)`` or ``(n_features,)`` for two
            classes); they take the place of the ``warm_start`` weights.
        intercept_init : array-like of shape (n_classes,), optional
            Initial biases.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weight of each row; it multiplies the row's step.

        Returns
        -------
        self
        """
        p = self._check_params()
        names_source = X
        X = check_X(X, accept_sparse=True)
        n, d = X.shape
        kind, classes, target, signs = self._encode_targets(y, n)
        if signs is not None and sample_weight is None and coef_init is None and \
                intercept_init is None and plain_binary(self, p, X, n):
            # the usual small fit: the general path's result without its idle steps
            fit_plain_binary(self, X, classes, signs, p, check_random_seed(self.random_state),
                             kept_loop_params(self, p, self._loop_params))
            if type(names_source) is np.ndarray:  # no feature names: none kept from before
                self.__dict__.pop("feature_names_in_", None)
            else:
                check_feature_names(self, names_source, reset=True)
            if not self.converged_ and self.n_iter_ >= p["max_iter"]:
                warn_not_converged(self, p)
            return self
        if target is None and (self.class_weight is not None or p["early_stopping"]):
            target = class_index_of(signs)
        sw = check_sample_weight(sample_weight, n)
        if kind == "multilabel":
            if self.class_weight is not None:
                raise ValueError("class_weight is not supported for multi-label y")
        else:
            cw = class_weights(self.class_weight, classes, target)
            if cw is not None:
                sw = cw[target] if sw is None else sw * cw[target]
        seed = check_random_seed(self.random_state)
        init = self._warm_start_weights(p, kind, classes, d)
        k = 1 if kind == "binary" else len(classes)
        init = initial_weights(coef_init, intercept_init,
                               "multinomial" if kind == "multiclass" and
                               self.multiclass == "multinomial" else kind, k, d, init)
        mode, problems = self._problems(kind, len(classes), target, d, X.dtype, seed, p, init,
                                        signs)

        rows = np.arange(n, dtype=np.intp) if sw is None else np.flatnonzero(sw > 0).astype(np.intp)
        if len(rows) == 0:
            raise ValueError("every sample weight is zero; nothing to train on")
        val_rows = None
        if p["early_stopping"]:
            rows, val_rows = validation_split(rows, target, kind, p["validation_fraction"],
                                               mix64(seed ^ 0x5EED))
        if mode == "ovr":
            share_order(problems, rows)
        for j, pr in enumerate(problems):
            if mode != "ovr":  # each shuffles its own order in place; the last takes rows
                pr.state.rows = rows if j == len(problems) - 1 else rows.copy()
            if p["pocket"]:
                pr.state.start_pocket(X, pr.labels, sw, from_current=True)

        stop = np.zeros(1, dtype=np.uint8)
        n_threads = min(p["n_threads"], len(problems))
        val_scores, stopped = [], False
        run = mixing_runner(X, problems, p)  # None: the sequential algorithm
        watched = p["verbose"] or self.callback is not None or p["progress"]
        # one problem (binary, multinomial): its stopping rule runs in the compiled
        # loop, every epoch in one call; one-vs-rest's classes stop one by one here
        alone = len(problems) == 1 and problems[0].order is None
        if run is None and val_rows is None and not watched and (p["tol"] is None or alone):
            self._run(X, problems, sw, self._loop_params(p), p["max_iter"], n_threads, stop,
                      loss_rule(p, mode, len(rows)))
            W, b = self._effective(mode, problems, p)
        else:
            monitor = Monitor(self, p["verbose"], self.callback, p["progress"], p["max_iter"])
            try:
                W, b, val_scores, stopped = fit_epochwise(
                    self, X, mode, problems, sw, p, target, val_rows, rows, n_threads, stop,
                    monitor, run)
            finally:
                monitor.close()

        self._set_fitted(X, mode, problems, classes, W, b, rows, sw)
        check_feature_names(self, names_source, reset=True)
        if val_rows is not None:
            self.validation_scores_ = np.array(val_scores)
            self.best_validation_score_ = float(np.max(val_scores))
        elif not self.converged_ and not stopped and self.n_iter_ >= p["max_iter"]:
            warn_not_converged(self, p)
        return self

    def _warm_start_weights(self, p, kind, classes, d):
        if not (p["warm_start"] and hasattr(self, "coef_")):
            return None
        W, b = _warm_start_from(self)
        if W.shape[1] != d:
            raise ValueError(f"warm_start: the previous fit had {W.shape[1]} features, X has {d}")
        if len(classes) != len(self.classes_) or not np.array_equal(self.classes_, classes):
            raise ValueError(f"warm_start: the previous fit had classes {self.classes_!r}, "
                             f"y has {classes!r}")
        if kind == "multiclass" and (self._mode == "multinomial") != (self.multiclass == "multinomial"):
            raise ValueError("warm_start: multiclass changed since the previous fit")
        return W, b

    def _set_fitted(self, X, mode, problems, classes, W, b, rows, sw):
        if len(problems) == 1 and len(problems[0].history["mistakes"]) == 1:
            histories = [{k: v[0] for k, v in problems[0].history.items()}]  # one call's
        else:
            histories = [{k: (v[0] if len(v) == 1 else np.concatenate(v)) if v else np.zeros(0)
                          for k, v in pr.history.items()} for pr in problems]
        n_iter = max(len(h["mistakes"]) for h in histories)

        def total(key):
            if len(histories) == 1:
                return histories[0][key]
            out = np.zeros(n_iter, dtype=histories[0][key].dtype)
            for h in histories:
                out[:len(h[key])] += h[key]
            return out

        train_weight = float(len(rows)) if sw is None else float(sw[rows].sum())
        self.coef_ = W if W.dtype == X.dtype and W.flags.c_contiguous else \
            np.ascontiguousarray(W, dtype=X.dtype)
        self.intercept_ = b if b.dtype == X.dtype else b.astype(X.dtype)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        self.n_iter_ = n_iter
        self.mistakes_ = total("mistakes")
        self.updates_ = total("updates")
        self.loss_ = total("loss") / train_weight
        self.t_ = sum(pr.state.updates for pr in problems)
        self.converged_ = all(len(h["updates"]) > 0 and h["updates"][-1] == 0 for h in histories)
        self._mode = mode
        self._multilabel = mode == "multilabel"
        self._states = [pr.state for pr in problems]

    # ----------------------------------------------------------- partial_fit

    def partial_fit(self, X: MatrixLike, y: ArrayLike, classes: Optional[ArrayLike] = None,
                    sample_weight: Optional[ArrayLike] = None) -> Self:
        """One epoch over a chunk of rows, continuing the model's state.

        Chunks fed one by one give exactly the model of one epoch over their
        concatenation in the same order (``shuffle=False``; with shuffling
        each chunk is shuffled on its own), averaging counters included.
        Every row trains: ``early_stopping`` is for ``fit``, as in scikit-learn.

        Parameters
        ----------
        X, y, sample_weight : as in ``fit``.
        classes : array-like, optional
            All the labels the model will see; required on the first call,
            except for ``multiclass="multinomial"``, where a label not seen
            before may arrive in any chunk and gets a new row of zero weights
            (scikit-learn refuses this), and for a multi-label indicator ``y``.

        Returns
        -------
        self
        """
        p = self._check_params()
        if isinstance(self.class_weight, str):
            raise ValueError("class_weight='balanced' needs the whole data set; "
                             "use fit, or pass a dict of weights")
        first = not hasattr(self, "_states")
        if first and hasattr(self, "coef_"):
            raise no_training_state(self, "partial_fit")
        names_source = X
        if not first:
            check_feature_names(self, X, reset=False)
        X = check_X(X, accept_sparse=True)
        n, d = X.shape
        states = None
        if not first:
            check_n_features(self, X)
            if self.coef_.dtype != X.dtype:
                X = X.astype(self.coef_.dtype)
            # work on copies: a failed or interrupted call leaves the model as it was
            states = [s.copy(rows=False) for s in self._states]
            check_state_params(states[0], p)
        arr = np.asarray(y)
        multilabel = arr.ndim == 2 and arr.shape[1] > 1
        signs = None
        if multilabel:
            kind, labels, target, _ = self._encode_targets(arr, n)
            if not first and (not self._multilabel or len(labels) != len(self.classes_)):
                raise ValueError("y's labels do not match the previous calls")
        else:
            # a chunk of the two known classes of a binary model: encoded in one pass
            signs = (known_binary_signs(y, n, self.classes_)
                     if not first and classes is None and self._mode == "binary" else None)
            if signs is None:
                y = check_labels(y, n)
                target, labels = self._partial_targets(y, classes, states)
            elif sample_weight is None and self.class_weight is None and not p["pocket"] and \
                    package_class(self):
                assert states is not None
                partial_fit_binary(self, X, signs, states[0],
                                   p, self._loop_params(p, stop_when_converged=False))
                return self
            else:
                labels = self.classes_
                target = None if self.class_weight is None else class_index_of(signs)
            kind = "binary" if len(labels) == 2 and self.multiclass != "multinomial" else "multiclass"
        sw = check_sample_weight(sample_weight, n)
        if not multilabel:
            cw = class_weights(self.class_weight, labels, target)
            if cw is not None:
                sw = cw[target] if sw is None else sw * cw[target]

        if first:
            seed = check_random_seed(self.random_state)
            if kind == "multiclass" and self.multiclass == "multinomial":
                mode, problems = "multinomial", [Problem(OnlineState(
                    len(labels), d, X.dtype, multinomial=True, average=p["average"],
                    pocket=p["pocket"], batch_size=p["batch_size"], seed=seed,
                    penalty=p["penalty"]), target)]
            else:
                mode, problems = self._problems(kind, len(labels), target, d, X.dtype, seed, p,
                                                None)
        else:
            assert states is not None
            mode = self._mode
            problems = [Problem(state, labels_j) for state, labels_j in
                        zip(states, [signs] if signs is not None else
                            chunk_labels(mode, target, len(labels)))]
        rows = np.arange(n, dtype=np.intp) if sw is None else np.flatnonzero(sw > 0).astype(np.intp)
        if len(rows):
            if mode == "ovr":
                share_order(problems, rows)
            for pr in problems:
                # (sw[rows] is summed below: then rows keeps its order)
                pr.state.rows = (pr.state.rows if mode == "ovr" else rows
                                 if len(problems) == 1 and sw is None else rows.copy())
                if p["pocket"]:
                    pr.state.start_pocket(X, pr.labels, sw, from_current=first)
            self._run(X, problems, sw, self._loop_params(p, stop_when_converged=False), 1,
                      min(p["n_threads"], len(problems)), np.zeros(1, dtype=np.uint8))
        weight = float(len(rows)) if sw is None else float(sw[rows].sum())
        new: Dict[str, float] = {}
        for key in ("mistakes", "updates", "loss"):
            value = sum(float(pr.history[key][0][0]) for pr in problems if pr.history[key])
            if key == "loss":
                new[key] = value / weight if weight > 0 else 0.0
            else:
                new[key] = int(value)
        W, b = self._effective(mode, problems, p)
        append_histories(self, new, first)
        self.coef_ = W if W.dtype == X.dtype and W.flags.c_contiguous else \
            np.ascontiguousarray(W, dtype=X.dtype)
        self.intercept_ = b if b.dtype == X.dtype else b.astype(X.dtype)
        self.classes_ = labels
        self.n_features_in_ = d
        self.n_iter_ = len(self.mistakes_)
        self.t_ = int(sum(pr.state.updates for pr in problems))
        self.converged_ = bool(self.updates_[-1] == 0) and len(rows) > 0
        self._mode = mode
        self._multilabel = mode == "multilabel"
        self._states = [pr.state for pr in problems]
        if first:
            check_feature_names(self, names_source, reset=True)
        return self

    def fit_stream(self, source: Any, *, classes: Optional[Sequence[Any]] = None,
                   max_iter: Optional[int] = None, chunk_rows: int = 10000,
                   n_features: Optional[int] = None) -> Self:
        """Train on data bigger than memory: epochs over a stream of chunks.

        Each chunk is one ``partial_fit`` step; the epochs stop at the first
        without an update (none with a penalty) or after ``max_iter``.  With
        ``shuffle=False`` the model equals ``fit(tol=None)`` on the chunks
        concatenated; shuffled, the rows mix within a chunk.  Memory: one chunk.

        Parameters
        ----------
        source : str or os.PathLike, (X, y), callable or iterable
            An svmlight / libsvm file (read ``chunk_rows`` rows at a time,
            again for every epoch); an (X, y) pair, such as a memory-mapped
            ``.npy`` (``np.load(path, mmap_mode="r")``) and its labels, cut
            into views of ``chunk_rows`` rows; a callable returning a new
            iterable of ``(X, y)`` chunks each epoch; or an iterable of them
            (a one-shot iterator allows one epoch).
        classes : array-like, optional
            Every label; found by a first pass over the source when None
            (except for ``multiclass="multinomial"``, which takes new labels
            as they come).
        max_iter : int, optional
            Epochs at most (default: the estimator's ``max_iter``).
        chunk_rows : int, default=10000
        n_features : int, optional
            Columns of an svmlight file (found by a first pass when None).

        Returns
        -------
        self
        """
        from perceptron.linear._stream import fit_stream

        return fit_stream(self, source, classes=classes, max_iter=max_iter,
                          chunk_rows=chunk_rows, n_features=n_features)

    def _partial_targets(self, y, classes, states):
        """Class indices of a chunk, and the (possibly grown) classes; a new
        class (multinomial) gets a zero row in `states`."""
        first = states is None
        if first:
            if classes is None:
                if self.multiclass != "multinomial":
                    raise ValueError("classes must be given on the first call to partial_fit "
                                     "(all the labels the model will see); only "
                                     "multiclass='multinomial' can add classes later")
                known = unique_labels(y)
            else:
                known = unique_labels(check_labels(classes, len(classes), name="classes"),
                                      name="classes")
                if len(known) < 2:
                    raise ValueError("classes must hold at least two labels")
        else:
            if classes is not None and not np.array_equal(unique_labels(np.asarray(classes)),
                                                           self.classes_):
                raise ValueError("classes differs from the previous call to partial_fit")
            known = self.classes_
        new = labels_not_in(unique_labels(y), known)
        if len(new):
            if first or self._mode != "multinomial":
                raise ValueError(f"y has labels {new.tolist()} that are not in classes "
                                 f"{known.tolist()}")
            for label in new:
                position = int(np.searchsorted(known, label))
                known = np.insert(known, position, label)
                for s in states:
                    s.insert_class(position)
        return np.searchsorted(known, y).astype(np.int32), known


# ------------------------------------------------------------- model files
#
# What a model file holds for a Perceptron, and the check of a loaded one
# (read by the generic codec, perceptron.io._model_file).

def _linear_kind(est):
    if not hasattr(est, "coef_"):
        return None
    if est._mode == "multilabel":
        return "multilabel"
    return "binary" if est.coef_.shape[0] == 1 else "multiclass"


def _check_saved(est):
    mode = attr(est, "_mode")
    need(mode in ("binary", "ovr", "multinomial", "multilabel"), "unknown _mode")
    check_common(est)
    n_classes = len(est.classes_)
    need(est._multilabel is (mode == "multilabel"), "_multilabel disagrees with _mode")
    if mode == "multilabel":
        need(np.array_equal(est.classes_, np.arange(n_classes)),
             "a multi-label model's classes_ must be 0..n_labels-1")
    if mode == "binary":
        need(n_classes == 2, "a binary model has two classes")
    if mode == "ovr":
        need(n_classes >= 3, "a one-vs-rest model has three classes or more")
    k = 1 if mode == "binary" or (mode == "multinomial" and n_classes == 2) else n_classes
    check_linear(est, k)
    for name in ("n_iter_", "t_"):
        check_int(attr(est, name), name)
    need(isinstance(est.converged_, bool), "converged_ must be a bool")
    check_history(est, "mistakes_", "updates_", "loss_")
    # files written before partial_fit kept its history in the arrays alone
    # also hold it as lists: checked, then dropped
    history = attr(est, "_history")
    need(history is None or (
        isinstance(history, dict) and set(history) == {"mistakes", "updates", "loss"}
        and all(isinstance(v, list) and all(isinstance(x, (int, float)) and
                                            not isinstance(x, bool) for x in v)
                for v in history.values())),
         "_history must hold the lists mistakes, updates and loss")
    try:
        p = est._check_params()
    except (TypeError, ValueError) as exc:
        bad(f"the parameters are not valid: {exc}")
    states = attr(est, "_states")
    if states is None:  # a compact file: no training state
        if "_history" in vars(est):
            del est._history
        return
    check_saved_states(states, mode, n_classes, est.n_features_in_, est.coef_.dtype, p)
    if "_history" in vars(est):
        del est._history  # a file of an earlier version: mistakes_ ... hold the same


register_value_type(
    "online_state", OnlineState,
    lambda: OnlineState(1, 1, np.float64, multinomial=False, average=False, pocket=False,
                        batch_size=None, seed=0),
    transient=("rows",),  # the row order is rebuilt by every fit and partial_fit
    optional=("penalty", "norms", "u", "q", "scale"))  # a penalized state's (checked by _check_saved)
register_model(
    Perceptron, check=_check_saved, linear_kind=_linear_kind,
    fitted={"coef_", "intercept_", "classes_", "n_features_in_", "n_iter_", "mistakes_",
            "updates_", "loss_", "t_", "converged_", "validation_scores_",
            "best_validation_score_", "feature_names_in_", "_mode", "_multilabel", "_states",
            "_history"},  # _history: read from older files only
    # only partial_fit and warm_start read _states.  Layout 2: it may be absent
    # (a compact file); a file with it is still layout 1, read by every version
    training_state={"_states"}, schema_version=2, training_state_schema_version=1)


def _warm_start_from(est):
    """(W, b) fit(warm_start=True) starts from: the training state's weights;
    without one (a compact model), coef_ and intercept_, as scikit-learn does."""
    states = getattr(est, "_states", None)
    if states is not None:
        return (np.vstack([s.current()[0] for s in states]),
                np.concatenate([s.b for s in states]))
    return np.array(est.coef_), np.asarray(est.intercept_, dtype=np.float64)

"""Linear perceptron classifiers: the Perceptron estimator and its scoring."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Union

import numpy as np

from perceptron._common.base import BaseEstimator, no_training_state
from perceptron._common.sklearn_compat import ONLINE_EXPECTED_FAILURES
from perceptron._common.typing import ArrayLike, MatrixLike, Self
from perceptron._common.validation import (check_feature_names, check_n_features, check_X,
                                           model_dtype)
from perceptron.io._registry import register_model, register_value_type
from perceptron.linear import _fit as route
from perceptron.linear._base import LinearClassifierMixin, linear_decision  # noqa: F401 (its old home)
from perceptron.linear._fitted import publish, warn_not_converged
from perceptron.linear._params import check_params, loop_params, rows_for_weights
from perceptron.linear._saved import check_saved, linear_kind
from perceptron.linear._state import OnlineState
from perceptron.linear._training import run

__all__ = ["Perceptron"]


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
    dtype : None or numpy.float64, default=None
        The weights' dtype.  None: the rows' own, float64 for float64 rows
        and float32 for the others (float32, and float16, bfloat16, int8 and
        uint8 rows read as stored).  ``np.float64`` (or ``"float64"``):
        float64 weights whatever the rows.  Narrow rows are then still read
        as stored, each widened into a row of scratch as it is read (memory:
        X plus O(n_features)), and the model is bit for bit the one trained
        on ``X.astype(np.float64)``; float32 rows are converted once to
        float64.  ``partial_fit`` keeps the dtype of its first call (a
        float64 model continues on narrow rows as stored).  See the user
        guide, "Data types".

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
    numeric input is converted once to float64; float16, bfloat16, int8
    and uint8 rows are read as stored (see ``dtype``).  Activations are summed in
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
    # float16, bfloat16, int8 and uint8 rows are read as stored (csrc/ptn_narrow.h)
    _narrow_rows = True
    # the fitted attributes beside coef_, intercept_ and classes_ (published
    # by perceptron/linear/_fitted.py)
    n_features_in_: int
    n_iter_: int
    mistakes_: np.ndarray
    updates_: np.ndarray
    loss_: np.ndarray
    t_: int
    converged_: bool
    validation_scores_: np.ndarray
    best_validation_score_: float

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
                 mixing: str = "uniform", dtype: Any = None) -> None:
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
        self.dtype = dtype

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        return tags

    # ------------------------------------------------------------ parameters

    def _check_params(self):
        """The checked parameters, as a dict (``perceptron.linear._params.check_params``)."""
        return check_params(self)

    @staticmethod
    def _loop_params(p, stop_when_converged=True):
        """The compiled loops' parameters (``perceptron.linear._params.loop_params``)."""
        return loop_params(p, stop_when_converged)

    # -------------------------------------------------------------- training
    #
    # A fit follows one route (perceptron/linear/_fit.py, CONTRIBUTING.md "A
    # fit, step by step"); the estimator checks its parameters and X, hands
    # them to the route and publishes what comes back.  The two steps a
    # subclass may replace: the sequential trainer, ``_run``, which the
    # route is given, and the publication of the attributes, ``_set_fitted``.

    _run = staticmethod(run)
    _set_fitted = publish

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
        X = check_X(X, accept_sparse=True, narrow=True)
        if p["dtype"] is not None:  # (None: the rows as they are)
            X = rows_for_weights(X, p["dtype"])
        attrs, after, stopped = route.fit(p, X, y, sample_weight, coef_init, intercept_init,
                                          self.__dict__, self, self._run)
        self._set_fitted(attrs, names_source, after)
        if not after and not self.converged_ and not stopped and self.n_iter_ >= p["max_iter"]:
            warn_not_converged(self, p)
        return self

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
        first = "_states" not in self.__dict__
        if first and hasattr(self, "coef_"):
            raise no_training_state(self, "partial_fit")
        names_source = X
        if not first:
            check_feature_names(self, X, reset=False)
        X = check_X(X, accept_sparse=True, narrow=True)
        if first:
            X = rows_for_weights(X, p["dtype"])
        else:
            check_n_features(self, X)
            trained = self.coef_.dtype
            if p["dtype"] is not None and trained != p["dtype"]:
                raise ValueError(f"dtype changed since the first call to partial_fit: the "
                                 f"model's weights are {trained}, dtype asks for {p['dtype']} "
                                 "(fit again, or set dtype back to None)")
            # (the weights' dtype is never a narrow one: rows of that very dtype
            # train it, without model_dtype's look at their width); the
            # weights stay as trained: float64 ones read narrow rows as stored
            if trained is not X.dtype and trained != model_dtype(X.dtype):
                X = rows_for_weights(X, trained)
        attrs = route.partial_fit(p, X, y, classes, sample_weight, self.__dict__, self._run)
        if first:
            self._set_fitted(attrs, names_source)
        else:
            self._set_fitted(attrs)
        return self

    def fit_stream(self, source: Any, *, classes: Optional[Sequence[Any]] = None,
                   max_iter: Optional[int] = None, chunk_rows: int = 10000,
                   n_features: Optional[int] = None, binary: bool = False) -> Self:
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
        binary : bool, default=False
            An svmlight file whose every value is 1 (one-hot, presence
            features): each chunk is parsed without values and trained as
            binary rows (indices alone), the same model, bit for bit, as
            from the rows with their ones stored; a value other than 1
            raises ``SvmlightFormatError`` naming its line.  Only for a path
            (chunks from other sources are read as they are).

        Returns
        -------
        self
        """
        from perceptron.linear._stream import fit_stream

        return fit_stream(self, source, classes=classes, max_iter=max_iter,
                          chunk_rows=chunk_rows, n_features=n_features, binary=binary)


# ------------------------------------------------------------- model files
#
# What a model file holds for a Perceptron (read by the generic codec,
# perceptron.io._model_file); the check of a loaded one is
# perceptron/linear/_saved.py.

register_value_type(
    "online_state", OnlineState,
    lambda: OnlineState(1, 1, np.float64, multinomial=False, average=False, pocket=False,
                        batch_size=None, seed=0),
    transient=("rows",),  # the row order is rebuilt by every fit and partial_fit
    optional=("penalty", "norms", "u", "q", "scale"))  # a penalized state's (checked by check_saved)
register_model(
    Perceptron, check=check_saved, linear_kind=linear_kind,
    fitted={"coef_", "intercept_", "classes_", "n_features_in_", "n_iter_", "mistakes_",
            "updates_", "loss_", "t_", "converged_", "validation_scores_",
            "best_validation_score_", "feature_names_in_", "_mode", "_multilabel", "_states",
            "_history"},  # _history: read from older files only
    # only partial_fit and warm_start read _states.  Layout 2: it may be absent
    # (a compact file); a file with it is still layout 1, read by every version
    training_state={"_states"}, schema_version=2, training_state_schema_version=1)

"""The passive-aggressive classifiers PA-I and PA-II (Crammer, Dekel, Keshet,
Shalev-Shwartz and Singer 2006, "Online Passive-Aggressive Algorithms",
JMLR 7): a rule of the linear family, trained by the perceptron's loops
(the rule itself is in csrc/ptn_update.h), with scikit-learn's parameters."""
from __future__ import annotations

from typing import Any, Dict, Optional, Union

from perceptron._common.validation import check_scalar, is_one_of
from perceptron.io._registry import models, register_model
from perceptron.linear._perceptron import Perceptron

__all__ = ["PassiveAggressiveClassifier"]

# loss -> the rule of the loops (perceptron._core.online.RULES)
_RULE_OF_LOSS = {"hinge": "pa1", "squared_hinge": "pa2"}


class PassiveAggressiveClassifier(Perceptron):
    """Passive-aggressive classifier (Crammer et al. 2006), PA-I or PA-II.

    For each training row ``x`` with label ``y`` in {-1, +1} and activation
    ``a = w.x + b``, the model stays put (passive) when the hinge loss
    ``l = max(0, 1 - y*a)`` is zero, and otherwise moves just as far as it
    must (aggressive): ``w <- w + tau*s*y*x``, ``b <- b + tau*s*y``, with
    ``s`` the row's sample weight (times its class weight) and

    - PA-I (``loss="hinge"``): ``tau = min(C, l / ||x||^2)`` (section 8 of
      the paper; a row with ``x = 0`` is passed over);
    - PA-II (``loss="squared_hinge"``): ``tau = l / (||x||^2 + 1/(2C))``.

    The bias moves with the weights and is not counted in ``||x||^2``, as in
    scikit-learn's ``SGDClassifier(loss="hinge", penalty=None,
    learning_rate="pa1"`` or ``"pa2", eta0=C)``, which replaces its
    ``PassiveAggressiveClassifier`` (deprecated in scikit-learn 1.8): with
    ``shuffle=False`` the fits agree to rounding on dense input.  (On sparse
    input scikit-learn moves the bias by a hundredth of the step; this
    class moves it as on dense input, and sparse and dense fits agree.)
    With ``multiclass="multinomial"``, one weight vector per class and the
    max-loss update of section 7: with ``r`` the best-scoring other class,
    ``l = max(0, 1 - (a_y - a_r))`` and ``||x||^2`` doubled, class ``y``
    moves by ``+tau*s*x`` and class ``r`` by ``-tau*s*x``.

    Parameters
    ----------
    C : float, default=1.0
        The aggressiveness: the largest step of PA-I, the slack's weight
        of PA-II.
    fit_intercept, max_iter, tol, early_stopping, validation_fraction,
    n_iter_no_change, shuffle, verbose, n_jobs, random_state, warm_start,
    class_weight, average, multiclass, progress, dtype :
        As for :class:`Perceptron` (``tol`` compares the epochs' summed
        hinge loss; ``n_jobs`` trains one-vs-rest classes on threads, or a
        single problem by parameter mixing).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        "hinge" is PA-I, "squared_hinge" PA-II.

    Attributes
    ----------
    As :class:`Perceptron`'s; ``loss_`` is the epochs' mean hinge loss.
    """

    # the Perceptron parameters this rule fixes (read by its fit)
    eta0 = 1.0
    pocket = False
    margin = 0.0
    batch_size = None
    penalty = None
    alpha = 0.0001
    l1_ratio = 0.15
    callback = None
    mixing = "uniform"

    def __init__(self, *, C: float = 1.0, fit_intercept: bool = True, max_iter: int = 1000,
                 tol: Optional[float] = 1e-3, early_stopping: bool = False,
                 validation_fraction: float = 0.1, n_iter_no_change: int = 5,
                 shuffle: bool = True, verbose: int = 0, loss: str = "hinge",
                 n_jobs: Optional[int] = None, random_state: Any = None,
                 warm_start: bool = False,
                 class_weight: Union[None, str, Dict[Any, float]] = None,
                 average: bool = False, multiclass: str = "ovr",
                 progress: bool = False, dtype: Any = None) -> None:
        self.C = C
        self.progress = progress
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.verbose = verbose
        self.loss = loss
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.average = average
        self.multiclass = multiclass
        self.dtype = dtype

    def _check_params(self):
        p = super()._check_params()
        p["C"] = check_scalar(self.C, "C", "float", low=0.0, low_open=True)
        if not is_one_of(self.loss, tuple(_RULE_OF_LOSS)):
            raise ValueError(f"loss must be 'hinge' or 'squared_hinge', got {self.loss!r}")
        p["update_rule"] = _RULE_OF_LOSS[self.loss]
        return p


# model files: Perceptron's layout, the class rebuilt from its own parameters
register_model(PassiveAggressiveClassifier, **{
    name: getattr(models()["Perceptron"], name)
    for name in ("fitted", "check", "linear_kind", "schema_version", "training_state",
                 "training_state_schema_version")})

"""The geometry of the perceptron, callable: hyperplanes, margins, distances, the
perceptron loss and its subgradient, the convergence bound, and an exact
test of linear separability.

Every function taking a hyperplane accepts either a fitted linear model of
this package (``coef_`` with one row and ``intercept_`` are read, and labels
are mapped through its ``classes_``: ``classes_[1]`` is +1) or the raw
weights ``w`` with an optional bias ``b`` (default 0; labels must then be -1
and +1).  The hyperplane is ``H = {x : w.x + b = 0}`` (Bloch 2020, lecture 9,
definition 1.1).  Computations are in float64; the caller's arrays are never
modified.

References
----------
- M. Bloch, *Perceptron Learning Algorithm*, ECE 6254 lecture 9, 2020:
  separating hyperplanes, lemma 1.2 (distance to H), the perceptron loss
  summed over the data and its subgradient.
- D. MJ, *Introduction to Deep Learning: Perceptron Learning* (lecture slides):
  functional and geometric margins, the convergence theorem with
  ``||x|| <= 1`` and ``k <= 1/gamma^2``, scaling to the unit ball, XOR.
- A. Wan, *Perceptrons*, note 2 (UC Berkeley CS 189): theorem 1 (signed distance
  ``f(x)/||w||``) and theorem 2 (distance of the origin ``b/||w||``).
- The perceptron loss averaged over the data, ``(1/N) sum max(0, -y (w.x +
  b))``, and its subgradient: Rosenblatt's 1958 rule as a loss, in the mean
  form that does not grow with N.
- A. Novikoff, *On convergence proofs on perceptrons*, 1962: the mistake
  bound ``(R/gamma)^2``.
"""
import io
import sys
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from perceptron._common.validation import check_array, check_finite, check_labels, check_scalar

__all__ = [
    "functional_margin", "geometric_margin", "margin", "signed_distance", "origin_distance",
    "project", "perceptron_loss", "perceptron_loss_subgradient", "radius",
    "scale_to_unit_ball", "mistake_bound", "report", "GeometryReport",
    "is_linearly_separable", "SeparabilityResult",
]


# ------------------------------------------------------------------ inputs


def _is_model(obj):
    return hasattr(obj, "get_params") or hasattr(obj, "intercept_")


def _hyperplane(w, b, name="w"):
    """(w as float64 (d,), b as float, classes or None) from a model or raw w, b."""
    if _is_model(w):
        model = w
        try:
            coef, intercept = model.coef_, model.intercept_
        except AttributeError:
            from perceptron.exceptions import NotFittedError

            raise NotFittedError(f"{type(model).__name__} has no coef_ and intercept_: fit it "
                                 "first (or pass the weights w and bias b)") from None
        if b is not None:
            raise ValueError(f"{name} is a fitted model, whose bias is its intercept_; do not "
                             "pass b as well")
        coef = np.asarray(coef, dtype=np.float64)
        intercept = np.asarray(intercept, dtype=np.float64).reshape(-1)
        if coef.ndim == 2 and coef.shape[0] != 1:
            raise ValueError(f"{type(model).__name__} has {coef.shape[0]} hyperplanes (coef_ of "
                             f"shape {coef.shape}, one per class); pass one of them as "
                             "(model.coef_[k], model.intercept_[k])")
        w_arr = coef.reshape(-1)
        b_val = float(intercept[0]) if intercept.size else 0.0
        classes = getattr(model, "classes_", None)
    else:
        try:
            w_arr = np.asarray(w, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be a fitted linear model or a 1-D array of weights, "
                            f"got {type(w).__name__}") from None
        if w_arr.ndim == 2 and w_arr.shape[0] == 1:
            w_arr = w_arr[0]
        if w_arr.ndim != 1 or w_arr.size == 0:
            raise ValueError(f"{name} must be a 1-D array of at least one weight, got shape "
                             f"{w_arr.shape}")
        b_val = 0.0 if b is None else check_scalar(b, "b", "float")
        classes = None
    check_finite(w_arr, name)
    return w_arr, b_val, classes


def _norm(w, name="w"):
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError(f"{name} is the zero vector: it defines no hyperplane")
    return norm


def _data(X, d=None, name="X"):
    X = check_finite(check_array(X, name), name)
    if d is not None and X.shape[1] != d:
        raise ValueError(f"{name} has {X.shape[1]} features but the hyperplane has {d} weights")
    return X


def _signs(y, n, classes, name="y"):
    """Labels as float64 -1/+1: through classes (classes[1] is +1) or given as -1/+1."""
    y = check_labels(y, n, name)
    if classes is not None:
        classes = np.asarray(classes)
        if len(classes) != 2:
            raise ValueError(f"the model has {len(classes)} classes; the geometry of one "
                             "hyperplane needs a binary model")
        known = np.isin(y, classes)
        if not known.all():
            raise ValueError(f"{name} holds labels the model does not know: "
                             f"{np.unique(y[~known])[:5]!r}; its classes are {classes!r}")
        return np.where(y == classes[1], 1.0, -1.0)
    if y.dtype.kind not in "iuf" or not np.isin(y, (-1, 1)).all():
        raise ValueError(f"with raw weights, {name} must hold the labels -1 and +1 only "
                         "(pass a fitted model to use its classes_)")
    return y.astype(np.float64)


def _activation(w, b, X):
    return X.astype(np.float64, copy=False) @ w + b


# ------------------------------------------------------------- the geometry


def functional_margin(w, X, y, b=None):
    """Functional margin of each sample, ``y_i (w.x_i + b)`` (MJ, *Perceptron Learning*).

    Positive where the sample is on its label's side of the hyperplane.

    Parameters
    ----------
    w : fitted linear model, or array-like of shape (n_features,)
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels: the model's classes, or -1/+1 with raw weights.
    b : float, default=None
        Bias with raw weights (None: 0); not allowed with a model.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    w, b, classes = _hyperplane(w, b)
    X = _data(X, w.size)
    return _signs(y, X.shape[0], classes) * _activation(w, b, X)


def geometric_margin(w, X, y, b=None):
    """Geometric margin of each sample, ``y_i (w.x_i + b) / ||w||``: its signed
    distance to the hyperplane, positive on its label's side (MJ, *Perceptron Learning*;
    Bloch 2020, lemma 1.2).  Parameters as in ``functional_margin``.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    w_arr, b_val, classes = _hyperplane(w, b)
    X = _data(X, w_arr.size)
    return _signs(y, X.shape[0], classes) * _activation(w_arr, b_val, X) / _norm(w_arr)


def margin(w, X, y, b=None):
    """Margin of the hyperplane on a data set: ``min_i y_i (w.x_i + b)/||w||``.

    Positive exactly when the hyperplane separates the data strictly, and then
    equal to MJ's ``gamma = min_i |gamma_i|``; otherwise negative (or
    zero), by how far the worst sample is on the wrong side.  Parameters as in
    ``functional_margin``.

    Returns
    -------
    float
    """
    return float(np.min(geometric_margin(w, X, y, b)))


def signed_distance(w, X, b=None):
    """Signed distance of each point to the hyperplane, ``(w.x + b)/||w||``
    (Wan, note 2, theorem 1); positive on the side ``w`` points to.

    Parameters
    ----------
    w : fitted linear model, or array-like of shape (n_features,)
    X : array-like of shape (n_samples, n_features)
    b : float, default=None

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    w, b, _ = _hyperplane(w, b)
    X = _data(X, w.size)
    return _activation(w, b, X) / _norm(w)


def origin_distance(w, b=None):
    """Signed distance of the origin to the hyperplane, ``b/||w||`` (Wan,
    note 2, theorem 2; its absolute value is the distance).

    Returns
    -------
    float
    """
    w, b, _ = _hyperplane(w, b)
    return b / _norm(w)


def project(w, X, b=None):
    """Orthogonal projection of each point onto the hyperplane,
    ``x - (w.x + b) w / ||w||^2`` (the point ``x_H`` of Wan, note 2, proof of
    theorem 1): the closest point of H, so ``x - x_H`` is parallel to ``w``.

    Returns
    -------
    ndarray of shape (n_samples, n_features), float64
    """
    w, b, _ = _hyperplane(w, b)
    X = _data(X, w.size)
    return X.astype(np.float64) - np.outer(_activation(w, b, X) / _norm(w) ** 2, w)


def perceptron_loss(w, X, y, b=None, *, reduction="mean"):
    """The perceptron loss ``sum_i max(0, -y_i (w.x_i + b))``.

    ``reduction="mean"`` divides by N (the mean form, as
    ``Perceptron.loss_``); ``"sum"`` is the loss of Bloch 2020, eq. 3.
    Parameters as in ``functional_margin``.

    Returns
    -------
    float
    """
    if reduction not in ("mean", "sum"):
        raise ValueError(f"reduction must be 'mean' or 'sum', got {reduction!r}")
    losses = np.maximum(0.0, -functional_margin(w, X, y, b))
    return float(losses.mean() if reduction == "mean" else losses.sum())


def perceptron_loss_subgradient(w, X, y, b=None, *, reduction="mean", at_zero=0.0):
    """A subgradient of the perceptron loss with respect to ``(w, b)``.

    Sample i contributes ``-y_i x_i`` to the ``w`` part and ``-y_i`` to the
    ``b`` part when ``y_i (w.x_i + b) < 0``, nothing when it is > 0, and
    ``at_zero`` times that at the kink ``y_i (w.x_i + b) = 0``, where the
    subdifferential is ``[0, 1] * (-y_i x_i)`` (Bloch 2020, eq. 4).  The
    default 0 is the subgradient of the mean form (0 at the kink); 1 is the element the perceptron's update
    ``y a <= 0`` follows (Bloch 2020, eq. 5).  The bias part is returned
    whatever the model (with raw weights and no bias it is the derivative in
    ``b`` at ``b = 0``).

    Parameters
    ----------
    w, X, y, b : as in ``functional_margin``
    reduction : {"mean", "sum"}, default="mean"
    at_zero : float in [0, 1], default=0.0

    Returns
    -------
    grad_w : ndarray of shape (n_features,)
    grad_b : float
    """
    if reduction not in ("mean", "sum"):
        raise ValueError(f"reduction must be 'mean' or 'sum', got {reduction!r}")
    at_zero = check_scalar(at_zero, "at_zero", "float", low=0.0, high=1.0)
    w_arr, b_val, classes = _hyperplane(w, b)
    X = _data(X, w_arr.size)
    s = _signs(y, X.shape[0], classes)
    fm = s * _activation(w_arr, b_val, X)
    weight = np.where(fm < 0, 1.0, np.where(fm == 0, at_zero, 0.0))
    coef = -weight * s
    grad_w = X.astype(np.float64, copy=False).T @ coef
    grad_b = float(coef.sum())
    if reduction == "mean":
        grad_w /= X.shape[0]
        grad_b /= X.shape[0]
    return grad_w, grad_b


def radius(X):
    """``R = max_i ||x_i||``, the radius of the smallest origin-centred ball
    holding the data (the R of the bound).

    Returns
    -------
    float
    """
    X = _data(X)
    return float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X, dtype=np.float64))))


def scale_to_unit_ball(X, *, return_radius=False):
    """Divide the data by its largest norm, ``x / max_i ||x_i||``, so that every
    ``||x|| <= 1`` as the convergence theorem assumes (MJ, *Perceptron Learning*).  Scaling
    changes neither which hyperplanes through the origin separate the data
    nor the perceptron's mistakes (without a bias) from ``w = 0``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    return_radius : bool, default=False
        Also return R, the norm divided by.

    Returns
    -------
    X_scaled : ndarray, float64 (a new array)
    R : float, if return_radius
    """
    X = _data(X)
    R = radius(X)
    if R == 0.0:
        raise ValueError("every row of X is zero: there is no norm to scale by")
    scaled = X.astype(np.float64) / R
    return (scaled, R) if return_radius else scaled


def mistake_bound(X, y, w_star, b_star=0.0, *, fit_intercept=False):
    """The perceptron convergence bound ``(R/gamma)^2`` for a separator.

    If ``w_star`` separates the data with margin ``gamma`` and every
    ``||x_i|| <= R``, the perceptron started from ``w = 0`` makes at most
    ``(R/gamma)^2`` updates, whatever the order of the rows and the step size
    (Novikoff 1962; MJ, *Perceptron Learning*, with R = 1 after ``scale_to_unit_ball``).

    - ``fit_intercept=False`` (the perceptron without bias, as in the
      theorem): ``R = max ||x_i||``, ``gamma = min y_i w*.x_i / ||w*||``;
      ``b_star`` must be 0.
    - ``fit_intercept=True`` (the perceptron that learns ``b``, which is the
      same as appending a constant 1 to each x): the theorem applied to the
      augmented points ``(x_i, 1)`` and separator ``(w*, b*)``:
      ``R^2 = max ||x_i||^2 + 1``,
      ``gamma = min y_i (w*.x_i + b*) / sqrt(||w*||^2 + b*^2)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels -1/+1 (or the classes of a model passed as w_star).
    w_star : array-like of shape (n_features,) or fitted linear model
    b_star : float, default=0.0
    fit_intercept : bool, default=False

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``w_star`` does not separate the data strictly (gamma <= 0).
    """
    fit_intercept = check_scalar(fit_intercept, "fit_intercept", "bool")
    w, b, classes = _hyperplane(w_star, None if _is_model(w_star) else b_star, "w_star")
    X = _data(X, w.size)
    s = _signs(y, X.shape[0], classes)
    sq = np.einsum("ij,ij->i", X, X, dtype=np.float64)
    fm = s * _activation(w, b, X)
    if fit_intercept:
        R2 = float(np.max(sq)) + 1.0
        norm = float(np.sqrt(np.dot(w, w) + b * b))
    else:
        if b != 0.0:
            raise ValueError(f"b_star={b}: a separator with a bias bounds the perceptron that "
                             "learns one; pass fit_intercept=True")
        R2 = float(np.max(sq))
        norm = _norm(w, "w_star")
    gamma = float(np.min(fm)) / norm
    if gamma <= 0.0:
        raise ValueError(f"w_star does not separate the data strictly (its margin is {gamma:.6g}); "
                         "the bound needs a separating hyperplane")
    return R2 / gamma**2


# ------------------------------------------------------------------ report


@dataclass
class GeometryReport:
    """What ``report`` found; ``str()`` gives the printed summary."""

    model: str
    n_samples: int
    n_updates: Optional[int]
    n_iter: Optional[int]
    converged: Optional[bool]
    radius: float
    margin: float
    separates: bool
    loss: float
    fit_intercept: bool
    star_margin: Optional[float] = None
    bound: Optional[float] = None
    within_bound: Optional[bool] = None

    def __str__(self):
        lines = [f"geometry of {self.model} on {self.n_samples} samples"]
        if self.n_updates is not None:
            conv = "" if self.converged is None else (", converged" if self.converged else
                                                      ", not converged")
            lines.append(f"  updates made        {self.n_updates} (in {self.n_iter} epochs{conv})")
        lines.append(f"  R = max ||x||       {self.radius:.6g}")
        side = "separates the data" if self.separates else "does not separate the data"
        lines.append(f"  model's margin      {self.margin:.6g} ({side})")
        lines.append(f"  perceptron loss     {self.loss:.6g} (mean)")
        if self.bound is None:
            lines.append("  bound (R/gamma)^2   not computed: pass w_star, a separating "
                         "hyperplane (for example is_linearly_separable(X, y).coef)")
        else:
            which = "with bias, on (x, 1)" if self.fit_intercept else "without bias"
            lines.append(f"  separator's margin  {self.star_margin:.6g}")
            lines.append(f"  bound (R/gamma)^2   {self.bound:.6g} ({which})")
            if self.within_bound is not None:
                lines.append(f"  updates <= bound    {'yes' if self.within_bound else 'NO'}")
        return "\n".join(lines)


def report(model, X, y, w_star=None, b_star=0.0, *, file=None, verbose=True):
    """Print and return the geometry of a fitted linear model on (X, y).

    Reports the updates the model made (``t_``), ``R = max ||x||``, the margin
    the model achieved on the data (negative if it does not separate them),
    its mean perceptron loss, and, for a separator ``w_star`` (with
    ``b_star``), that separator's margin and the bound ``(R/gamma)^2`` on the
    updates (``mistake_bound``, with the model's ``fit_intercept``), and
    whether the model stayed within it (it must, if it was trained from zero
    on this data).

    Parameters
    ----------
    model : fitted binary linear model
    X, y : the data
    w_star : array-like of shape (n_features,), fitted model or None
    b_star : float, default=0.0
    file : text stream, default=None (sys.stdout)
    verbose : bool, default=True
        Print the summary.

    Returns
    -------
    GeometryReport
    """
    w, b, classes = _hyperplane(model, None, "model")
    X = _data(X, w.size)
    s = _signs(y, X.shape[0], classes)
    fit_intercept = bool(getattr(model, "fit_intercept", False))
    model_margin = margin(model, X, y)
    rep = GeometryReport(
        model=repr(model), n_samples=X.shape[0], n_updates=getattr(model, "t_", None),
        n_iter=getattr(model, "n_iter_", None), converged=getattr(model, "converged_", None),
        radius=radius(X), margin=model_margin, separates=model_margin > 0,
        loss=perceptron_loss(model, X, y), fit_intercept=fit_intercept)
    if w_star is not None:
        y_pm = s if not _is_model(w_star) else y
        star_b = None if _is_model(w_star) else b_star
        rep.star_margin = margin(w_star, X, y_pm, star_b)
        rep.bound = mistake_bound(X, y_pm, w_star, 0.0 if star_b is None else star_b,
                                  fit_intercept=fit_intercept)
        if rep.n_updates is not None:
            rep.within_bound = rep.n_updates <= rep.bound
    if verbose:
        print(rep, file=sys.stdout if file is None else file)
    return rep


# ----------------------------------------------------------- separability


@dataclass
class SeparabilityResult:
    """The answer of ``is_linearly_separable`` with its certificate.

    Separable: ``coef`` (unit norm) and ``intercept`` with
    ``y_i (coef.x_i + intercept) >= margin > 0`` for every sample.

    Not separable: weights on some positive and some negative samples, each
    set summing to 1, with ``sum_i pos_w_i x_i = sum_j neg_w_j x_j = point``
    (up to ``residual``): a point of both convex hulls, which no hyperplane
    can have strictly on both sides.  ``bool(result)`` is ``separable``.
    """

    separable: bool
    classes: np.ndarray
    coef: Optional[np.ndarray] = None
    intercept: Optional[float] = None
    margin: Optional[float] = None
    positive_indices: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
    positive_weights: np.ndarray = field(default_factory=lambda: np.empty(0))
    negative_indices: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
    negative_weights: np.ndarray = field(default_factory=lambda: np.empty(0))
    point: Optional[np.ndarray] = None
    residual: Optional[float] = None

    def __bool__(self):
        return bool(self.separable)

    def __str__(self):
        if self.separable:
            coef = np.array2string(np.asarray(self.coef), precision=4)
            return (f"linearly separable: coef {coef}, intercept {self.intercept:.6g}, "
                    f"margin {self.margin:.6g}")
        buf = io.StringIO()
        buf.write("not linearly separable: the convex hulls of the two classes meet at "
                  f"{np.array2string(np.asarray(self.point), precision=4)}\n")
        for label, idx, wts in ((self.classes[1], self.positive_indices, self.positive_weights),
                                (self.classes[0], self.negative_indices, self.negative_weights)):
            buf.write(f"  class {label.item()!r}: samples {idx.tolist()} with weights "
                      f"{np.array2string(wts, precision=4)}\n")
        buf.write(f"  residual {self.residual:.3g}")
        return buf.getvalue()


def is_linearly_separable(X, y, *, tol=1e-9):
    """Decide whether some hyperplane separates the two classes, with proof.

    The perceptron can only say "not converged yet"; this says "never" (or
    gives a separator).  Two linear programs, solved by HiGHS through
    ``scipy.optimize.linprog`` (scipy is needed for this function only):

    1. The largest margin under a box normalisation: maximise ``t`` subject
       to ``y_i (w.z_i + b) >= t``, ``-1 <= w_j <= 1``, ``t <= 1``, on the
       data with each feature centred and scaled to [-1, 1] (``z``), an
       affine change that preserves separability.  ``t > 0`` exactly when the data are strictly
       separable; the solution is mapped back, normalised to ``||w|| = 1``
       and checked on the original data (every ``y_i (w.x_i + b) > 0``).
    2. Otherwise, the alternative (Gordan 1873; Farkas 1902): weights
       ``lambda >= 0`` on the samples with ``sum lambda_i y_i (x_i, 1) = 0``,
       normalised so each class's weights sum to 1: a convex combination of
       the positive samples equal to one of the negative samples.  A vertex
       of that polytope (dual simplex) involves at most ``n_features + 2``
       samples (Caratheodory); their weights are refined by least squares
       on the original data and the residual reported.

    A finite set is separable with ``sign(0) = -1`` (Bloch 2020, definition 1.1)
    exactly when it is strictly separable, so the two notions agree.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two classes (sorted; the second is the positive one).
    tol : float, default=1e-9
        Margin below which the first program's answer is not trusted
        without the second's.

    Returns
    -------
    SeparabilityResult

    Raises
    ------
    ImportError
        If scipy is not installed.
    """
    try:
        from scipy.optimize import linprog
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("is_linearly_separable solves linear programs with scipy, which is "
                          "not installed; install it with `pip install scipy`") from None
    from perceptron._common.validation import unique_labels

    tol = check_scalar(tol, "tol", "float", low=0.0)
    X = _data(X).astype(np.float64, copy=False)
    n, d = X.shape
    y = check_labels(y, n)
    classes = unique_labels(y)
    if len(classes) != 2:
        raise ValueError(f"y has {len(classes)} classes; separability is a question about two")
    s = np.where(y == classes[1], 1.0, -1.0)

    # each feature centred and scaled to [-1, 1]: features of very different
    # magnitudes (as in the breast cancer data) otherwise leave the program
    # so badly scaled that a margin of 1e-3 drowns in the solver's tolerance
    center = X.mean(axis=0)
    scale = np.max(np.abs(X - center), axis=0)
    scale[scale == 0] = 1.0
    Z = (X - center) / scale

    # 1. max t  s.t.  t - y_i (w.z_i + b) <= 0,  |w_j| <= 1,  t <= 1
    A = np.hstack([-s[:, None] * Z, -s[:, None], np.ones((n, 1))])
    c = np.zeros(d + 2)
    c[-1] = -1.0
    bounds = [(-1.0, 1.0)] * d + [(None, None), (None, 1.0)]
    res = linprog(c, A_ub=A, b_ub=np.zeros(n), bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - the program is always feasible and bounded
        raise RuntimeError(f"the margin linear program failed: {res.message}")
    t = -res.fun
    candidate = None
    if t > 0:
        wz, bz = res.x[:d], res.x[d]
        w = wz / scale
        b = bz - float(w @ center)
        norm = float(np.linalg.norm(w))
        if norm > 0:
            w, b = w / norm, b / norm
            m = float(np.min(s * (X @ w + b)))
            if m > 0:
                candidate = SeparabilityResult(True, classes, coef=w, intercept=b, margin=m)
    if candidate is not None and t > tol:
        return candidate

    # 2. lambda >= 0, sum_i lambda_i y_i z_i = 0, sum_pos lambda = sum_neg lambda = 1
    pos, neg = s > 0, s < 0
    A_eq = np.vstack([(s[:, None] * Z).T, pos.astype(np.float64), neg.astype(np.float64)])
    b_eq = np.concatenate([np.zeros(d), [1.0, 1.0]])
    res2 = linprog(np.zeros(n), A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs-ds")
    if res2.status == 2:  # infeasible: the hulls are disjoint
        if candidate is not None:
            return candidate
        raise RuntimeError("is_linearly_separable could not decide: the data are separable "
                           "with a margin too small to verify in floating point")
    if res2.status != 0:  # pragma: no cover
        raise RuntimeError(f"the certificate linear program failed: {res2.message}")
    lam = np.clip(res2.x, 0.0, None)
    support = np.flatnonzero(lam > 1e-12)
    weights = _refine_weights(X, s, support, lam[support])
    p_idx, n_idx = support[s[support] > 0], support[s[support] < 0]
    p_w, n_w = weights[s[support] > 0], weights[s[support] < 0]
    p_w, n_w = p_w / p_w.sum(), n_w / n_w.sum()
    point_p, point_n = p_w @ X[p_idx], n_w @ X[n_idx]
    return SeparabilityResult(
        False, classes, positive_indices=p_idx, positive_weights=p_w, negative_indices=n_idx,
        negative_weights=n_w, point=(point_p + point_n) / 2,
        residual=float(np.linalg.norm(point_p - point_n)))


def _refine_weights(X, s, support, lam):
    """Least-squares weights on the certificate's samples, on the original
    data: sum_i mu_i y_i x_i = 0 with each class's weights summing to 1.  Kept
    only if they stay non-negative and fit better than the solver's."""
    Xs, ss = X[support], s[support]
    A = np.vstack([(ss[:, None] * Xs).T, (ss > 0).astype(np.float64), (ss < 0).astype(np.float64)])
    rhs = np.concatenate([np.zeros(X.shape[1]), [1.0, 1.0]])
    mu, *_ = np.linalg.lstsq(A, rhs, rcond=None)
    if np.all(mu >= 0) and np.linalg.norm(A @ mu - rhs) <= np.linalg.norm(A @ lam - rhs):
        return mu
    return lam

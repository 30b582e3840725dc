"""Synthetic data sets with known geometry: separable with a given margin,
XOR, and concentric circles.  Deterministic from ``random_state``."""
from dataclasses import dataclass
from typing import Optional

import numpy as np

from perceptron._common.validation import check_scalar
from perceptron.datasets._real import Dataset

__all__ = ["SeparableDataset", "make_separable", "make_xor", "make_circles"]


def _rng(random_state):
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**32, dtype=np.uint64))
    if random_state is None or (isinstance(random_state, (int, np.integer))
                                and not isinstance(random_state, bool) and random_state >= 0):
        return np.random.default_rng(random_state)
    raise ValueError("random_state must be None, a non-negative int, a numpy.random.Generator "
                     f"or a numpy.random.RandomState; got {random_state!r}")


def _dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {dtype}")
    return dtype


@dataclass
class SeparableDataset(Dataset):
    """A ``Dataset`` made separable by construction, with its geometry.

    ``coef`` is the unit normal ``w*`` of a separating hyperplane through the
    origin; ``margin`` is the exact ``gamma = min_i y_i w*.x_i`` of the
    samples drawn (at least the requested margin, up to rounding) and
    ``radius`` the exact ``R = max_i ||x_i||`` (at most the requested radius,
    up to rounding), both computed in float64 on the returned ``data``; so
    the perceptron without bias makes at most ``(radius / margin)**2``
    updates on it.
    """

    coef: Optional[np.ndarray] = None
    intercept: float = 0.0
    margin: float = 0.0
    radius: float = 0.0


def make_separable(n_samples=100, n_features=2, margin=0.1, radius=1.0, random_state=None,
                   dtype=np.float64):
    """Two classes separated by a hyperplane through the origin with a known margin.

    A unit normal ``w*`` is drawn uniformly on the sphere.  Each sample gets a
    label y = +-1 with probability 1/2, a distance ``t`` from the hyperplane
    uniform in ``[margin, radius]`` on its label's side, and a component
    orthogonal to ``w*`` uniform in the (n_features - 1)-ball of radius
    ``sqrt(radius^2 - t^2)``: so ``x = y t w* + u`` lies in the ball of
    radius ``radius`` and at distance at least ``margin`` from the
    hyperplane.  (Bloch 2020, definition 1.1; Novikoff's 1962 convergence
    theorem is stated for this setting: ``||x|| <= 1``, a unit separator
    through the origin.)

    Parameters
    ----------
    n_samples : int, default=100
    n_features : int, default=2
    margin : float, default=0.1
        Least distance to the hyperplane, 0 < margin < radius.
    radius : float, default=1.0
        Radius of the ball holding the data (> 0).
    random_state : None, int, numpy.random.Generator or RandomState
    dtype : float32 or float64, default=float64
        Of ``data``; ``margin`` and ``radius`` are measured on the returned
        (possibly rounded) values.

    Returns
    -------
    SeparableDataset
        ``data`` (n_samples, n_features), ``target`` in {-1, +1}, ``coef``
        (w*), ``intercept`` (0.0), ``margin`` (gamma), ``radius`` (R).
    """
    n = check_scalar(n_samples, "n_samples", "int", low=1)
    d = check_scalar(n_features, "n_features", "int", low=1)
    radius = check_scalar(radius, "radius", "float", low=0.0, low_open=True)
    margin = check_scalar(margin, "margin", "float", low=0.0, low_open=True)
    if margin >= radius:
        raise ValueError(f"margin must be smaller than radius, got margin={margin} and "
                         f"radius={radius}")
    dtype = _dtype(dtype)
    rng = _rng(random_state)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    t = rng.uniform(margin, radius, size=n)
    # a uniform point of the (d-1)-ball orthogonal to w: a Gaussian direction
    # projected off w, scaled by r * U^(1/(d-1))
    u = rng.standard_normal((n, d))
    u -= np.outer(u @ w, w)
    norms = np.linalg.norm(u, axis=1)
    room = np.sqrt(np.maximum(radius**2 - t**2, 0.0))
    if d > 1:
        scale = room * rng.random(n) ** (1.0 / (d - 1)) / np.where(norms > 0, norms, 1.0)
        u *= scale[:, None]
    else:
        u[:] = 0.0
    X = (y * t)[:, None] * w + u
    X = X.astype(dtype)
    X64 = X.astype(np.float64)
    # rounding (to float32, or of the sum above) may move a point by an ulp:
    # report the geometry of the data actually returned, and keep the promise
    gamma = float(np.min(y * (X64 @ w)))
    R = float(np.sqrt(np.max(np.einsum("ij,ij->i", X64, X64))))
    if gamma <= 0:  # pragma: no cover - margin >> rounding for any sane input
        raise ValueError(f"margin={margin} is too small for {dtype.name} to represent")
    return SeparableDataset(
        data=X, target=y, feature_names=[f"x{j}" for j in range(d)], target_names=[-1, 1],
        description=(f"make_separable: {n} samples in {d} dimensions, separated through the "
                     f"origin by unit normal coef with margin {gamma:.6g}, radius {R:.6g}"),
        coef=w, intercept=0.0, margin=gamma, radius=R)


def make_xor(n_samples=200, noise=0.1, random_state=None, dtype=np.float64):
    """The XOR problem: the four corners of the unit square, labelled by the
    exclusive or of their coordinates, which no perceptron separates (Minsky
    and Papert 1969; MJ, *Perceptron Learning*, "Limitations").

    ``(0, 0)`` and ``(1, 1)`` are class -1, ``(0, 1)`` and ``(1, 0)`` class
    +1; no line separates them.  Samples are spread evenly over the corners
    (in random order) with Gaussian noise of standard deviation ``noise``;
    ``make_xor(4, noise=0)`` is the truth table itself, in the order
    ``(0,0), (0,1), (1,0), (1,1)``.

    Parameters
    ----------
    n_samples : int, default=200
    noise : float, default=0.1
        Standard deviation of the noise (>= 0).
    random_state : None, int, numpy.random.Generator or RandomState
    dtype : float32 or float64, default=float64

    Returns
    -------
    Dataset
        ``data`` (n_samples, 2), ``target`` in {-1, +1}.
    """
    n = check_scalar(n_samples, "n_samples", "int", low=1)
    noise = check_scalar(noise, "noise", "float", low=0.0)
    dtype = _dtype(dtype)
    rng = _rng(random_state)
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    which = np.arange(n) % 4
    if n > 4:
        which = rng.permutation(which)
    X = corners[which] + noise * rng.standard_normal((n, 2))
    y = np.where(which % 3 == 0, -1, 1)  # corners 0 and 3 agree, 1 and 2 differ
    return Dataset(data=X.astype(dtype), target=y, feature_names=["x1", "x2"],
                   target_names=[-1, 1],
                   description=f"make_xor: {n} samples at the corners of the unit square, "
                               f"label x1 XOR x2 (+1) or not (-1), noise {noise}")


def make_circles(n_samples=200, factor=0.5, noise=0.05, random_state=None, dtype=np.float64):
    """Two concentric circles: the outer one (radius 1) class -1, the inner one
    (radius ``factor``) class +1.

    Half the samples (the extra one to the outer circle) on each, at angles
    uniform in [0, 2 pi), with Gaussian noise of standard deviation ``noise``
    on each coordinate; samples in random order.  Separable by a circle, not
    by a line (like scikit-learn's ``make_circles``).

    Parameters
    ----------
    n_samples : int, default=200
    factor : float, default=0.5
        Radius of the inner circle, 0 < factor < 1.
    noise : float, default=0.05
        Standard deviation of the noise (>= 0).
    random_state : None, int, numpy.random.Generator or RandomState
    dtype : float32 or float64, default=float64

    Returns
    -------
    Dataset
        ``data`` (n_samples, 2), ``target`` in {-1, +1}.
    """
    n = check_scalar(n_samples, "n_samples", "int", low=2)
    factor = check_scalar(factor, "factor", "float", low=0.0, high=1.0, low_open=True,
                          high_open=True)
    noise = check_scalar(noise, "noise", "float", low=0.0)
    dtype = _dtype(dtype)
    rng = _rng(random_state)
    n_inner = n // 2
    inner = np.zeros(n, dtype=bool)
    inner[:n_inner] = True
    inner = rng.permutation(inner)
    angle = rng.uniform(0.0, 2.0 * np.pi, size=n)
    r = np.where(inner, factor, 1.0)
    X = np.column_stack([r * np.cos(angle), r * np.sin(angle)])
    X += noise * rng.standard_normal((n, 2))
    y = np.where(inner, 1, -1)
    return Dataset(data=X.astype(dtype), target=y, feature_names=["x1", "x2"],
                   target_names=[-1, 1],
                   description=f"make_circles: {n} samples on two concentric circles (radius 1: "
                               f"-1, radius {factor}: +1), noise {noise}")

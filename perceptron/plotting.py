"""Pictures of what a perceptron does (matplotlib, an optional extra).

- ``plot_decision_boundary``: a 2-D model's line, its margin band and the
  misclassified points (a multiclass model: its regions, by predicted class);
- ``learning_steps`` / ``plot_learning_steps`` / ``animate_learning``: the
  perceptron learning algorithm update by update on 2-D data, the pictures
  textbooks draw by hand (the line turning after each mistake), as a figure
  grid or a GIF (at most ``max_frames`` frames);
- ``learning_curve`` / ``plot_learning_curve``: training and held-out error
  per epoch (Daume III, A Course in Machine Learning, figure 3.3);
- ``plot_mistake_bound``: the updates made against Novikoff's (R/gamma)^2.

Every function takes an optional ``ax`` (or returns a new figure) and never
calls ``plt.show()``; install with ``pip install perceptron-family[plot]``.
"""
import warnings
from dataclasses import dataclass

import numpy as np

from perceptron._common.validation import check_array, check_is_fitted
from perceptron.exceptions import ConvergenceWarning
from perceptron.linear._perceptron import Perceptron

__all__ = [
    "plot_decision_boundary",
    "Step",
    "learning_steps",
    "plot_learning_steps",
    "animate_learning",
    "learning_curve",
    "plot_learning_curve",
    "plot_mistake_bound",
]

_POS, _NEG, _BAD = "#1f77b4", "#ff7f0e", "#d62728"
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("perceptron.plotting needs matplotlib: "
                          "pip install perceptron-family[plot] "
                          "(or pip install matplotlib)") from None
    return plt


def _check_2d(X, name="X"):
    X = check_array(X, name)
    if X.shape[1] != 2:
        raise ValueError(f"{name} must have 2 features to be drawn in the plane, got {X.shape[1]}")
    return X


def _limits(X, pad=0.15):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return lo - pad * span, hi + pad * span


def _draw_line(ax, w, b, lo, hi, **style):
    """The line w.x + b = 0 inside the box [lo, hi]."""
    w = np.asarray(w, dtype=np.float64)
    if not np.any(w):
        return None
    if abs(w[1]) >= abs(w[0]):
        xs = np.array([lo[0], hi[0]])
        ys = -(w[0] * xs + b) / w[1]
    else:
        ys = np.array([lo[1], hi[1]])
        xs = -(w[1] * ys + b) / w[0]
    return ax.plot(xs, ys, **style)[0]


def _signs(y, classes):
    return np.where(np.asarray(y) == classes[1], 1, -1)


def plot_decision_boundary(model, X, y, ax=None, title=None, resolution=250):
    """Draw a fitted 2-D classifier over its data.

    For a binary linear model (``coef_`` of shape (1, 2)): the line
    ``w.x + b = 0``; the margin band, the strip within the data's geometric
    margin ``min_i y_i (w.x_i + b) / ||w||`` of the line (over the correctly
    classified points); the two classes; misclassified points circled in
    red.

    For any other fitted classifier with 2 features (a multiclass linear
    model, ``KernelPerceptron``, ``VotedPerceptron``, ...): the plane
    coloured by the class ``model.predict`` gives each point of a
    ``resolution`` by ``resolution`` grid, and for two classes the curve
    where ``model.decision_function`` is 0 (when the model has one); the
    points in their class's colour, misclassified points circled in red.

    The legend sits outside the axes, to their right, so that it hides no
    point; a new figure is made wide enough for it.  When drawing into an
    ``ax`` of your own, leave room on its right (or save with
    ``bbox_inches="tight"``).

    Parameters
    ----------
    model : estimator
        A fitted classifier with 2 features (``n_features_in_ == 2``),
        binary or multiclass.
    X : array-like of shape (n_samples, 2)
        The points.
    y : array-like of shape (n_samples,)
        Their labels, from ``model.classes_``.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    title : str, optional
        The title; the default names the model and its accuracy on (X, y).
    resolution : int, default=250
        Grid points per side of the mesh the regions are computed on.

    Returns
    -------
    ax : matplotlib Axes
    """
    plt = _pyplot()
    check_is_fitted(model, "classes_")
    X = _check_2d(X)
    coef = getattr(model, "coef_", None)
    d = getattr(model, "n_features_in_", None if coef is None else np.shape(coef)[-1])
    if d != 2 or (coef is not None and (np.ndim(coef) != 2 or np.shape(coef)[1] != 2)):
        shape = "" if coef is None else f"; coef_ has shape {np.shape(coef)}"
        raise ValueError("the model must be binary with 2 features (coef_ of shape (1, 2)) or "
                         f"multiclass with 2 features (k, 2), fitted on {d} features{shape}")
    new_figure = ax is None
    if new_figure:
        _, ax = plt.subplots(figsize=(7, 5))
    if coef is not None and np.shape(coef)[0] == 1 and hasattr(model, "intercept_"):
        accuracy = _draw_binary(ax, model, X, y)
    else:
        accuracy = _draw_regions(ax, model, X, y, resolution)
    ax.set_title(title or f"{type(model).__name__}: accuracy {accuracy:.3f}")
    # Outside the axes: "best" only minimises the overlap, it can still sit
    # on points (and on the margin band, which is not a point at all).
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
              fontsize="small")
    if new_figure:
        ax.figure.tight_layout()
    return ax


def _draw_binary(ax, model, X, y):
    s = _signs(y, model.classes_)
    w, b = model.coef_[0].astype(np.float64), float(model.intercept_[0])
    lo, hi = _limits(X)
    scores = model.decision_function(X)
    wrong = s * scores <= 0
    norm = np.linalg.norm(w)
    if norm > 0 and (~wrong).any():
        gamma = float((s * scores)[~wrong].min()) / norm
        xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], 200), np.linspace(lo[1], hi[1], 200))
        dist = (w[0] * xx + w[1] * yy + b) / norm
        ax.contourf(xx, yy, np.abs(dist) <= gamma, levels=[0.5, 1.5], colors=["#dddddd"],
                    alpha=0.6)
        ax.plot([], [], color="#dddddd", lw=8, label=f"margin band (gamma={gamma:.3g})")
    ax.scatter(*X[s > 0].T, c=_POS, s=18, label=str(model.classes_[1]))
    ax.scatter(*X[s < 0].T, c=_NEG, s=18, marker="s", label=str(model.classes_[0]))
    _circle_mistakes(ax, X, wrong)
    _draw_line(ax, w, b, lo, hi, color="k", lw=2, label="w.x + b = 0")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    return float(np.mean(~wrong))


def _draw_regions(ax, model, X, y, resolution):
    from matplotlib.colors import ListedColormap

    classes = np.asarray(model.classes_)
    k = len(classes)
    lo, hi = _limits(X)
    xs = np.linspace(lo[0], hi[0], resolution)
    ys = np.linspace(lo[1], hi[1], resolution)
    xx, yy = np.meshgrid(xs, ys)
    grid = np.column_stack([xx.ravel(), yy.ravel()])
    predicted = np.asarray(model.predict(grid))
    if predicted.ndim != 1:
        # A multi-label model gives every point a set of labels: the plane
        # has no partition into one region per label to colour.
        raise ValueError("a multi-label model's regions overlap: only binary and multiclass "
                         "models are drawn")
    colors = [_class_color(i) for i in range(k)]
    # Region and points share a colour per class: class i is index i of the
    # colour map, the values centred on the integers.
    region = np.searchsorted(classes, predicted).reshape(xx.shape)
    ax.pcolormesh(xx, yy, region, cmap=ListedColormap(colors), vmin=-0.5, vmax=k - 0.5,
                  alpha=0.25, shading="nearest", rasterized=True)
    if k == 2 and hasattr(model, "decision_function"):
        # the boundary itself, where the score changes sign (a curve for a kernel)
        scores = np.asarray(model.decision_function(grid), dtype=np.float64)
        if scores.shape == (grid.shape[0],) and scores.min() < 0 < scores.max():
            ax.contour(xx, yy, scores.reshape(xx.shape), levels=[0.0], colors="k",
                       linewidths=2)
            ax.plot([], [], color="k", lw=2, label="decision_function = 0")
    y = np.asarray(y)
    for i, label in enumerate(classes):
        rows = y == label
        ax.scatter(*X[rows].T, color=colors[i], s=18, marker=_MARKERS[i % len(_MARKERS)],
                   edgecolors="none", label=str(label))
    wrong = np.asarray(model.predict(X)) != y
    _circle_mistakes(ax, X, wrong)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    return float(np.mean(~wrong))


def _class_color(i):
    from matplotlib import colormaps

    # tab10 without its red, which marks the misclassified points
    palette = [colormaps["tab10"](j) for j in range(10) if j != 3]
    return palette[i % len(palette)]


def _circle_mistakes(ax, X, wrong):
    if wrong.any():
        ax.scatter(*X[wrong].T, facecolors="none", edgecolors=_BAD, s=90, linewidths=1.5,
                   label=f"misclassified ({int(wrong.sum())})")


@dataclass
class Step:
    """One update of the perceptron learning algorithm.

    ``index`` is the row that was misclassified (``y*a <= 0``), ``epoch``
    its epoch (1-based); ``w_before, b_before`` the weights before the update
    and ``w_after, b_after`` after it (``w_after = w_before + eta0*y*x``).
    """

    epoch: int
    index: int
    label: int
    w_before: np.ndarray
    b_before: float
    w_after: np.ndarray
    b_after: float


def learning_steps(X, y, *, eta0=1.0, fit_intercept=True, max_iter=100, max_steps=1000,
                   shuffle=False, random_state=None):
    """The updates the perceptron makes on (X, y), in order.

    Runs the compiled training loop one row at a time (``partial_fit`` on
    single rows is exactly one epoch over them, in order) and records every
    update, until an epoch without mistakes, ``max_iter`` epochs or
    ``max_steps`` updates.

    Returns
    -------
    steps : list of Step
    """
    X = check_array(X)
    model = Perceptron(eta0=eta0, fit_intercept=fit_intercept, shuffle=False)
    classes = np.unique(np.asarray(y))
    y = np.asarray(y)
    rng = np.random.default_rng(random_state)
    steps = []
    w, b = np.zeros(X.shape[1]), 0.0
    for epoch in range(1, max_iter + 1):
        order = rng.permutation(len(y)) if shuffle else np.arange(len(y))
        made = 0
        for i in order:
            before = model.t_ if hasattr(model, "t_") else 0
            model.partial_fit(X[i:i + 1], y[i:i + 1], classes=classes)
            if model.t_ > before:
                w_new = model.coef_[0].astype(np.float64)
                b_new = float(model.intercept_[0])
                steps.append(Step(epoch, int(i), int(_signs(y[i:i + 1], classes)[0]), w, b,
                                  w_new, b_new))
                w, b = w_new, b_new
                made += 1
                if len(steps) >= max_steps:
                    return steps
        if made == 0:
            break
    return steps


# styles shared by the panels and their legend (bare dicts: matplotlib's
# typed keyword arguments take them unpacked)
_BEFORE: dict = {"color": "0.5", "ls": "--", "lw": 1.5}
_AFTER: dict = {"color": "k", "ls": "-", "lw": 2}
_TRIGGER: dict = {"facecolors": "none", "edgecolors": _BAD, "s": 120, "linewidths": 2}


def _step_legend(fig, classes, **kwargs):
    """A figure legend for the step panels, which share their meaning."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], **_BEFORE, label="line before the update"),
        Line2D([], [], **_AFTER, label="line after the update"),
        Line2D([], [], ls="none", marker="o", markersize=10, markerfacecolor="none",
               markeredgecolor=_BAD, markeredgewidth=2,
               label="misclassified row (triggers the update)"),
        Line2D([], [], ls="none", marker="o", markersize=5, color=_POS, label=str(classes[1])),
        Line2D([], [], ls="none", marker="s", markersize=5, color=_NEG, label=str(classes[0])),
    ]
    return fig.legend(handles=handles, loc="lower center", frameon=False, **kwargs)


def _draw_step(ax, X, s, step, lo, hi, number, total=None):
    ax.scatter(*X[s > 0].T, c=_POS, s=14)
    ax.scatter(*X[s < 0].T, c=_NEG, s=14, marker="s")
    before = _draw_line(ax, step.w_before, step.b_before, lo, hi, **_BEFORE,
                        label="line before the update")
    _draw_line(ax, step.w_after, step.b_after, lo, hi, **_AFTER, label="line after the update")
    x = X[step.index]
    ax.scatter([x[0]], [x[1]], **_TRIGGER, zorder=3,
               label="misclassified row (triggers the update)")
    # the update direction y*x, drawn from the misclassified point
    direction = step.label * x / max(np.linalg.norm(x), 1e-12) * 0.15 * np.max(hi - lo)
    ax.annotate("", xy=x + direction, xytext=x,
                arrowprops={"arrowstyle": "->", "color": _BAD, "lw": 1.5})
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    of = f" of {total}" if total is not None else ""
    # w = 0 before the first update: there is no line to draw, which the
    # title says rather than leave the reader looking for the dashed one
    start = ", from w = 0" if before is None else ""
    ax.set_title(f"update {number}{of} (epoch {step.epoch}, row {step.index}){start}",
                 fontsize="small")
    ax.set_xticks([])
    ax.set_yticks([])


def plot_learning_steps(X, y, n_steps=6, ncols=3, steps=None, **kwargs):
    """A grid of the first ``n_steps`` updates on 2-D data.

    Each panel shows the line before the update (dashed grey), after it
    (solid black), the misclassified row that made the update (red circle)
    and the direction ``y*x`` it pushes the weights; one legend below the
    grid says which is which.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        The points.
    y : array-like of shape (n_samples,)
        Their labels, two classes.
    n_steps : int, default=6
        How many updates to draw, from the first.
    ncols : int, default=3
        Panels per row.
    steps : list of Step, optional
        The updates to draw (from ``learning_steps``); computed on (X, y)
        when omitted.
    **kwargs
        Passed to ``learning_steps``.

    Returns
    -------
    fig : matplotlib Figure
    """
    plt = _pyplot()
    X = _check_2d(X)
    classes = np.unique(np.asarray(y))
    s = _signs(y, classes)
    steps = learning_steps(X, y, **kwargs) if steps is None else steps
    shown = steps[:n_steps]
    if not shown:
        raise ValueError("the perceptron made no update on these data")
    nrows = -(-len(shown) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 3.2 * nrows + 0.6),
                             squeeze=False)
    lo, hi = _limits(X)
    for k, ax in enumerate(axes.ravel()):
        if k < len(shown):
            _draw_step(ax, X, s, shown[k], lo, hi, k + 1)
        else:
            ax.axis("off")
    fig.suptitle(f"the perceptron learning algorithm: {len(shown)} of {len(steps)} updates")
    legend = _step_legend(fig, classes, ncol=min(3, ncols), fontsize="small")
    # the panels above the legend, whatever its height
    fig.canvas.draw()
    height = legend.get_window_extent().height / fig.bbox.height
    fig.tight_layout(rect=(0, height, 1, 1))
    return fig


def _frame_indices(n_steps, max_frames):
    """Which of ``n_steps`` updates become frames: all of them up to
    ``max_frames``, else ``max_frames`` evenly spaced, first and last kept."""
    if max_frames is None or n_steps <= max_frames:
        return np.arange(n_steps)
    # n_steps > max_frames >= 2: the spacing exceeds 1, so rounding keeps
    # the indices distinct
    return np.unique(np.round(np.linspace(0, n_steps - 1, max_frames)).astype(int))


def animate_learning(X, y, path, fps=2, steps=None, dpi=80, max_frames=60, **kwargs):
    """Write the updates on 2-D data as an animated GIF at ``path``.

    One frame per update (drawn as in ``plot_learning_steps``, with the
    same legend) up to ``max_frames`` updates.  A run with more updates is
    sampled: ``max_frames`` frames at evenly spaced updates, always the
    first and the last, each titled with its update's number out of the
    total, so the GIF's size stays bounded however long the run.  Uses
    matplotlib's Pillow writer (Pillow comes with matplotlib).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        The points.
    y : array-like of shape (n_samples,)
        Their labels, two classes.
    path : str or path-like
        Where to write the GIF.
    fps : float, default=2
        Frames per second.
    steps : list of Step, optional
        The updates to draw (from ``learning_steps``); computed on (X, y)
        when omitted.
    dpi : float, default=80
        Resolution; a frame is 4 by 4 inches.
    max_frames : int or None, default=60
        The frame budget, at least 2; None for one frame per update
        however many there are.
    **kwargs
        Passed to ``learning_steps``.

    Returns
    -------
    n_frames : int
        The number of frames written.
    """
    plt = _pyplot()
    from matplotlib.animation import FuncAnimation, PillowWriter

    if max_frames is not None and max_frames < 2:
        raise ValueError(f"max_frames must be at least 2 (the first and the last update) or "
                         f"None, got {max_frames}")
    X = _check_2d(X)
    classes = np.unique(np.asarray(y))
    s = _signs(y, classes)
    steps = learning_steps(X, y, **kwargs) if steps is None else steps
    if not steps:
        raise ValueError("the perceptron made no update on these data")
    chosen = _frame_indices(len(steps), max_frames)
    fig, ax = plt.subplots(figsize=(4, 4))
    _step_legend(fig, classes, ncol=2, fontsize="x-small")
    fig.subplots_adjust(left=0.04, right=0.96, top=0.92, bottom=0.2)
    lo, hi = _limits(X)

    def frame(k):
        ax.clear()
        _draw_step(ax, X, s, steps[chosen[k]], lo, hi, chosen[k] + 1, total=len(steps))
        return ()

    animation = FuncAnimation(fig, frame, frames=len(chosen), blit=False)
    animation.save(str(path), writer=PillowWriter(fps=fps), dpi=dpi)
    plt.close(fig)
    return len(chosen)


def learning_curve(estimator, X_train, y_train, X_val, y_val):
    """Training and held-out error after every epoch of ``estimator.fit``.

    Uses the estimator's ``callback`` hook: after each epoch the current
    weights score both sets.  The estimator is fitted (on the training set)
    as a side effect; its own ``callback`` is restored afterwards.

    Returns
    -------
    curve : dict with "epoch", "train_error", "val_error" arrays
    """
    from perceptron.linear._base import linear_decision

    X_train = check_array(X_train, "X_train")
    X_val = check_array(X_val, "X_val")
    y_train, y_val = np.asarray(y_train), np.asarray(y_val)
    epochs, train_err, val_err = [], [], []

    def error(X, y, coef, intercept, classes):
        scores = linear_decision(X, coef, intercept)
        index = (scores[:, 0] > 0).astype(int) if scores.shape[1] == 1 else scores.argmax(axis=1)
        return float(np.mean(classes[index] != y))

    classes = np.unique(y_train)

    def record(info):
        epochs.append(info.epoch)
        train_err.append(error(X_train, y_train, info.coef, info.intercept, classes))
        val_err.append(error(X_val, y_val, info.coef, info.intercept, classes))

    previous = estimator.get_params()["callback"]
    estimator.set_params(callback=record)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            estimator.fit(X_train, y_train)
    finally:
        estimator.set_params(callback=previous)
    return {"epoch": np.array(epochs), "train_error": np.array(train_err),
            "val_error": np.array(val_err)}


def plot_learning_curve(curve, ax=None, label=None):
    """Plot a ``learning_curve`` result: error per epoch, training and held-out.

    As Daume III's figure 3.3: the held-out error's "sweet spot" is where
    early stopping would stop; a dot marks its lowest value, labelled with
    its epoch in the legend.

    Parameters
    ----------
    curve : dict
        A ``learning_curve`` result ("epoch", "train_error", "val_error").
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.  Several curves can share
        one Axes.
    label : str, optional
        A prefix for this curve's legend entries.

    Returns
    -------
    ax : matplotlib Axes
    """
    plt = _pyplot()
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    prefix = f"{label}: " if label else ""
    ax.plot(curve["epoch"], curve["train_error"], lw=2, label=f"{prefix}training error")
    line, = ax.plot(curve["epoch"], curve["val_error"], lw=2, ls="--",
                    label=f"{prefix}held-out error")
    best = int(np.argmin(curve["val_error"]))
    ax.scatter([curve["epoch"][best]], [curve["val_error"][best]], color=line.get_color(),
               zorder=3, label=f"{prefix}lowest held-out error (epoch {curve['epoch'][best]})")
    ax.set_xlabel("epoch (passes over the training data)")
    ax.set_ylabel("error")
    ax.set_title("learning curve")
    ax.legend(fontsize="small")
    return ax


def plot_mistake_bound(X, y, w_star, b_star=0.0, ax=None, **fit_kwargs):
    """Updates made by the perceptron against Novikoff's bound (R/gamma)^2.

    ``w_star, b_star`` is a separating hyperplane of (X, y); gamma is its
    geometric margin on the data and R the largest norm of the rows
    augmented with a 1 for the bias (for ``fit_intercept=False`` and
    ``b_star = 0``, the plain rows), so Novikoff's (1962) theorem applies to the
    perceptron fitted here from zero.  Plots the cumulative updates per epoch
    (whole epochs on the axis) and the bound.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The rows.
    y : array-like of shape (n_samples,)
        Their labels, two classes.
    w_star : array-like of shape (n_features,)
        The weights of a separating hyperplane.
    b_star : float, default=0.0
        Its bias.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    **fit_kwargs
        Passed to the ``Perceptron`` fitted on (X, y).

    Returns
    -------
    ax : matplotlib Axes
    """
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    X = check_array(X)
    y = np.asarray(y)
    classes = np.unique(y)
    s = _signs(y, classes)
    fit_intercept = fit_kwargs.pop("fit_intercept", True)
    w_star = np.asarray(w_star, dtype=np.float64)
    if fit_intercept or b_star:
        Xa = np.hstack([X.astype(np.float64), np.ones((len(X), 1))])
        wa = np.append(w_star, b_star)
    else:
        Xa, wa = X.astype(np.float64), w_star
    margins = s * (Xa @ wa) / np.linalg.norm(wa)
    if (margins <= 0).any():
        raise ValueError("w_star does not separate the data: the bound needs a separator")
    gamma, R = float(margins.min()), float(np.linalg.norm(Xa, axis=1).max())
    bound = (R / gamma) ** 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Perceptron(fit_intercept=fit_intercept, **fit_kwargs).fit(X, y)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    epochs = np.arange(1, model.n_iter_ + 1)
    ax.step(epochs, np.cumsum(model.updates_), where="post", lw=2,
            label=f"updates made ({model.t_})")
    ax.axhline(bound, color=_BAD, ls="--", lw=2, label=f"(R/gamma)^2 = {bound:.4g}")
    # epochs are whole passes: a run of a few epochs would get 1.5, 2.5 ticks
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("epoch")
    ax.set_ylabel("cumulative updates")
    ax.set_title(f"mistake bound: R={R:.3g}, gamma={gamma:.3g}")
    ax.legend(fontsize="small")
    return ax

"""perceptron.plotting, rendered with the Agg backend and checked as images."""
import io
import warnings

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import QuadMesh  # noqa: E402
from matplotlib.colors import same_color  # noqa: E402
from matplotlib.ticker import AutoLocator  # noqa: E402

from perceptron import ConvergenceWarning, Perceptron  # noqa: E402
from perceptron import plotting  # noqa: E402
from perceptron.cli import main  # noqa: E402


def separable_2d(rng, n=40):
    X = rng.uniform(-1, 1, size=(n, 2))
    s = X @ [1.0, -0.7] + 0.1
    keep = np.abs(s) > 0.1
    return X[keep], np.where(s[keep] > 0, "up", "down")


def slow_2d(n=60):
    """Separable points with a tiny margin: the perceptron makes hundreds of
    updates on them."""
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(n, 2))
    s = X @ [1.0, -0.7] + 0.3
    return X, np.where(s > 0, 1, -1)


def three_blobs(rng, n=30):
    centers = np.array([[0.0, 2.5], [2.5, -1.5], [-2.5, -1.5]])
    X = np.vstack([c + 0.5 * rng.standard_normal((n, 2)) for c in centers])
    return X, np.repeat(["north", "east", "west"], n), centers


def legend_handles(legend):
    # renamed from legendHandles in matplotlib 3.7
    return getattr(legend, "legend_handles", None) or legend.legendHandles


def assert_legend_off_the_axes(ax):
    """The legend is inside the figure and outside the axes, so it hides no
    point drawn in them."""
    fig = ax.figure
    fig.canvas.draw()
    box = ax.get_legend().get_window_extent()
    assert not box.overlaps(ax.get_window_extent())
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
    assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1


def render(fig, dpi=50):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    buf.seek(0)
    img = mpimg.imread(buf)
    width, height = fig.get_size_inches() * dpi
    assert img.shape[:2] == (round(height), round(width))
    assert img[..., :3].std() > 0.01, "the image is blank"
    return img


def test_decision_boundary_with_margin_and_mistakes(rng):
    X, y = separable_2d(rng)
    model = Perceptron(random_state=0).fit(X, y)
    ax = plotting.plot_decision_boundary(model, X, y)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("margin band" in t for t in labels)
    render(ax.figure)
    noisy = y.copy()
    noisy[:3] = np.where(noisy[:3] == "up", "down", "up")
    model.max_iter = 5
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, noisy)
    ax = plotting.plot_decision_boundary(model, X, noisy)
    assert any("misclassified" in t.get_text() for t in ax.get_legend().get_texts())
    render(ax.figure)


def test_decision_boundary_legend_hides_no_point(rng):
    X, y = separable_2d(rng, n=200)
    model = Perceptron(random_state=0).fit(X, y)
    ax = plotting.plot_decision_boundary(model, X, y)
    assert_legend_off_the_axes(ax)
    render(ax.figure)


def test_decision_boundary_multiclass_regions(rng):
    X, y, centers = three_blobs(rng)
    model = Perceptron(random_state=0).fit(X, y)
    assert model.coef_.shape == (3, 2)
    ax = plotting.plot_decision_boundary(model, X, y)
    (mesh,) = [c for c in ax.collections if isinstance(c, QuadMesh)]
    corners = mesh.get_coordinates()
    coords = (corners[:-1, :-1] + corners[1:, 1:]) / 2     # the cells' centres
    region = np.asarray(mesh.get_array()).reshape(coords.shape[:2])
    classes = list(model.classes_)
    # one region per class, each where the model predicts it
    assert set(np.unique(region)) == {0, 1, 2}
    grid = coords.reshape(-1, 2)
    predicted = model.predict(grid).reshape(region.shape)
    np.testing.assert_array_equal(region, np.searchsorted(model.classes_, predicted))
    for center, label in zip(centers, ["north", "east", "west"]):
        nearest = np.unravel_index(np.argmin(((coords - center) ** 2).sum(axis=-1)),
                                   region.shape)
        assert classes[region[nearest]] == label
    # the points of a class in their region's colour, one legend entry each
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    for i, label in enumerate(classes):
        (points,) = [c for c in ax.collections if c.get_label() == str(label)]
        np.testing.assert_allclose(points.get_offsets(), X[y == label])
        assert same_color(points.get_facecolor()[0][:3], mesh.cmap(mesh.norm(i))[:3])
        assert texts.count(str(label)) == 1
    # no line or margin band: those are a binary model's
    assert not any("w.x + b" in t or "margin" in t for t in texts)
    assert_legend_off_the_axes(ax)
    render(ax.figure)


def test_decision_boundary_binary_has_no_regions(rng):
    X, y = separable_2d(rng)
    ax = plotting.plot_decision_boundary(Perceptron(random_state=0).fit(X, y), X, y)
    assert not [c for c in ax.collections if isinstance(c, QuadMesh)]
    assert [line for line in ax.lines if line.get_label() == "w.x + b = 0"]


@pytest.mark.parametrize("make", ["kernel", "voted", "voted multiclass"])
def test_decision_boundary_of_models_without_a_line(rng, make):
    from perceptron import KernelPerceptron, VotedPerceptron

    if make == "kernel":
        # XOR: no line separates it, a Gaussian kernel does
        X = rng.uniform(-1, 1, size=(120, 2))
        X = X[np.abs(X).min(axis=1) > 0.1]
        y = np.where(X[:, 0] * X[:, 1] > 0, "same", "other")
        model = KernelPerceptron(kernel="rbf", gamma=2.0, max_iter=50, random_state=0)
    elif make == "voted":
        X, y = separable_2d(rng)
        model = VotedPerceptron(max_iter=10, random_state=0)
    else:
        X, y, _ = three_blobs(rng)
        model = VotedPerceptron(max_iter=10, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    ax = plotting.plot_decision_boundary(model, X, y, resolution=60)
    (mesh,) = [c for c in ax.collections if isinstance(c, QuadMesh)]
    corners = mesh.get_coordinates()
    coords = (corners[:-1, :-1] + corners[1:, 1:]) / 2
    region = np.asarray(mesh.get_array()).reshape(coords.shape[:2])
    predicted = model.predict(coords.reshape(-1, 2)).reshape(region.shape)
    np.testing.assert_array_equal(region, np.searchsorted(model.classes_, predicted))
    assert set(np.unique(region)) == set(range(len(model.classes_)))
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert ("decision_function = 0" in texts) == (len(model.classes_) == 2)
    assert ax.get_title().startswith(f"{type(model).__name__}: accuracy ")
    render(ax.figure)


def test_decision_boundary_refuses_multilabel(rng):
    X = rng.standard_normal((50, 2))
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] > 0, X.sum(axis=1) > 0]).astype(int)
    # three labels a line each can separate: the fit converges
    model = Perceptron(random_state=0).fit(X, Y)
    with pytest.raises(ValueError, match="multi-label"):
        plotting.plot_decision_boundary(model, X, Y[:, 0])


def test_learning_steps_follow_the_rule(rng):
    X, y = separable_2d(rng)
    steps = plotting.learning_steps(X, y)
    assert steps, "the perceptron must make updates from w = 0"
    for step in steps:
        # w_after = w_before + y x: Rosenblatt's rule, update by update
        np.testing.assert_allclose(step.w_after, step.w_before + step.label * X[step.index])
        assert step.b_after == pytest.approx(step.b_before + step.label)
    final = Perceptron(shuffle=False).fit(X, y)
    np.testing.assert_allclose(steps[-1].w_after, final.coef_[0])
    assert len(steps) == final.t_


def test_learning_steps_grid_and_gif(rng, tmp_path):
    X, y = separable_2d(rng)
    fig = plotting.plot_learning_steps(X, y, n_steps=4, ncols=2)
    assert len([ax for ax in fig.axes if ax.has_data()]) == 4
    render(fig)
    path = tmp_path / "pla.gif"
    frames = plotting.animate_learning(X, y, path, max_steps=5)
    assert 1 <= frames <= 5
    from PIL import Image
    with Image.open(path) as gif:
        assert gif.format == "GIF"
        assert getattr(gif, "n_frames", 1) == frames
        assert gif.size == (320, 320)


def test_learning_steps_say_before_and_after(rng):
    X, y = separable_2d(rng)
    steps = plotting.learning_steps(X, y)
    assert len(steps) >= 4
    fig = plotting.plot_learning_steps(X, y, n_steps=4, ncols=2, steps=steps)
    panels = [ax for ax in fig.axes if ax.has_data()]
    assert len(panels) == 4
    for ax, step in zip(panels, steps):
        lines = {line.get_label(): line for line in ax.lines}
        after = lines["line after the update"]
        assert after.get_linestyle() == "-"
        # the solid line is the weights after the update: w_after.p + b_after = 0
        points = np.column_stack([after.get_xdata(), after.get_ydata()])
        np.testing.assert_allclose(points @ step.w_after + step.b_after, 0, atol=1e-9)
        if np.any(step.w_before):
            before = lines["line before the update"]
            assert before.get_linestyle() == "--"
            assert not same_color(before.get_color(), after.get_color())
            points = np.column_stack([before.get_xdata(), before.get_ydata()])
            np.testing.assert_allclose(points @ step.w_before + step.b_before, 0, atol=1e-9)
        else:
            assert "line before the update" not in lines
            assert "from w = 0" in ax.get_title()
        # the row that triggered the update, circled in red
        (trigger,) = [c for c in ax.collections if c.get_label().startswith("misclassified")]
        np.testing.assert_allclose(trigger.get_offsets(), X[[step.index]])
        assert same_color(trigger.get_edgecolor()[0], "#d62728")
        assert len(trigger.get_facecolor()) == 0 or trigger.get_facecolor()[0][3] == 0
    assert not any(np.any(step.w_before) for step in steps[:1])
    (legend,) = fig.legends
    entries = {t.get_text(): h for t, h in zip(legend.get_texts(), legend_handles(legend))}
    assert entries["line before the update"].get_linestyle() == "--"
    assert entries["line after the update"].get_linestyle() == "-"
    assert "misclassified row (triggers the update)" in entries
    assert {"1", "-1"} <= set(entries) or {"up", "down"} <= set(entries)
    # below the panels, on none of them
    fig.canvas.draw()
    box = legend.get_window_extent()
    for ax in panels:
        assert not box.overlaps(ax.get_window_extent())
    render(fig)


@pytest.mark.slow  # renders every frame of a GIF
def test_gif_frame_budget(tmp_path):
    from PIL import Image

    X, y = slow_2d()
    steps = plotting.learning_steps(X, y)
    assert len(steps) > 3 * 60, "the run must have many more updates than frames"
    path = tmp_path / "long.gif"
    frames = plotting.animate_learning(X, y, path, steps=steps, dpi=30)
    assert frames == 60
    with Image.open(path) as gif:
        assert gif.n_frames == 60
    frames = plotting.animate_learning(X, y, path, steps=steps, dpi=30, max_frames=7)
    assert frames == 7
    with Image.open(path) as gif:
        assert gif.n_frames == 7
    with pytest.raises(ValueError, match="max_frames"):
        plotting.animate_learning(X, y, path, steps=steps, max_frames=1)


def test_gif_frames_are_evenly_spaced_with_both_ends():
    chosen = plotting._frame_indices(227, 60)
    assert len(chosen) == 60
    assert chosen[0] == 0 and chosen[-1] == 226
    gaps = np.diff(chosen)
    assert gaps.min() >= 3 and gaps.max() - gaps.min() <= 1
    np.testing.assert_array_equal(plotting._frame_indices(5, 60), np.arange(5))
    np.testing.assert_array_equal(plotting._frame_indices(60, 60), np.arange(60))
    np.testing.assert_array_equal(plotting._frame_indices(227, None), np.arange(227))
    np.testing.assert_array_equal(plotting._frame_indices(61, 2), [0, 60])


def test_learning_curve(rng):
    X = rng.standard_normal((400, 5))
    y = np.where(X @ rng.standard_normal(5) + 0.8 * rng.standard_normal(400) > 0, 1, 0)
    curve = plotting.learning_curve(Perceptron(max_iter=15, random_state=0, tol=None),
                                    X[:300], y[:300], X[300:], y[300:])
    assert len(curve["epoch"]) == 15
    assert ((curve["train_error"] >= 0) & (curve["train_error"] <= 1)).all()
    ax = plotting.plot_learning_curve(curve, label="plain")
    assert len(ax.lines) == 2
    # the dot at the lowest held-out error is in the legend, with its epoch
    best = int(np.argmin(curve["val_error"]))
    epoch = int(curve["epoch"][best])
    (dot,) = ax.collections
    np.testing.assert_allclose(dot.get_offsets(), [[epoch, curve["val_error"][best]]])
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(texts) == 3
    assert f"plain: lowest held-out error (epoch {epoch})" in texts
    assert dot.get_label() in texts
    render(ax.figure)


def test_mistake_bound_plot(rng):
    X = rng.uniform(-1, 1, size=(60, 2))
    w_star = np.array([0.6, 0.8])
    X = X[np.abs(X @ w_star) > 0.2]
    y = np.where(X @ w_star > 0, 1, -1)
    ax = plotting.plot_mistake_bound(X, y, w_star, fit_intercept=False)
    updates = ax.lines[0].get_ydata()[-1]
    bound = ax.lines[1].get_ydata()[0]
    assert updates <= bound
    # few epochs, where matplotlib's default ticks would fall between them
    lo, hi = ax.get_xlim()
    assert len(ax.lines[0].get_xdata()) <= 3
    assert any(t != round(t) for t in AutoLocator().tick_values(lo, hi) if lo <= t <= hi)
    ax.figure.canvas.draw()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert len(ticks) >= 2
    assert all(t == round(t) for t in ticks)
    render(ax.figure)
    with pytest.raises(ValueError, match="does not separate"):
        plotting.plot_mistake_bound(X, -y, w_star, fit_intercept=False)


def test_plot_errors(rng):
    X, y = separable_2d(rng)
    with pytest.raises(ValueError, match="2 features"):
        plotting.plot_learning_steps(np.hstack([X, X]), y)
    wide = Perceptron().fit(np.hstack([X, X]), y)
    with pytest.raises(ValueError, match="binary with 2 features"):
        plotting.plot_decision_boundary(wide, X, y)


def test_demo_writes_a_plot(tmp_path):
    path = tmp_path / "demo.png"
    out = io.StringIO()
    assert main(["demo", "--epochs", "20", "--plot", str(path)], out=out) == 0
    img = mpimg.imread(path)
    assert img.shape[:2] == (500, 800)
    assert img[..., :3].std() > 0.01
    assert f"wrote {path}" in out.getvalue()

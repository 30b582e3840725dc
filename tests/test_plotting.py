"""perceptron.plotting, rendered with the Agg backend and checked as images."""
import io

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

from perceptron import Perceptron  # noqa: E402
from perceptron import plotting  # noqa: E402
from perceptron.cli import main  # noqa: E402


def separable_2d(rng, n=40):
    X = rng.uniform(-1, 1, size=(n, 2))
    s = X @ [1.0, -0.7] + 0.1
    keep = np.abs(s) > 0.1
    return X[keep], np.where(s[keep] > 0, "up", "down")


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


def test_learning_curve(rng):
    X = rng.standard_normal((400, 5))
    y = np.where(X @ rng.standard_normal(5) + 0.8 * rng.standard_normal(400) > 0, 1, 0)
    curve = plotting.learning_curve(Perceptron(max_iter=15, random_state=0, tol=None),
                                    X[:300], y[:300], X[300:], y[300:])
    assert len(curve["epoch"]) == 15
    assert ((curve["train_error"] >= 0) & (curve["train_error"] <= 1)).all()
    ax = plotting.plot_learning_curve(curve, label="plain")
    assert len(ax.lines) == 2
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

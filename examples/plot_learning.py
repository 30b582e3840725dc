"""Pictures of the perceptron: the learning algorithm step by step on 2-D
data (a grid and a GIF), the final line with its margin band, and the
updates against the (R/gamma)^2 bound.

Run:  python examples/plot_learning.py [output directory, default "."]
Needs matplotlib (pip install perceptron[plot]).
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from perceptron import Perceptron  # noqa: E402
from perceptron import plotting  # noqa: E402


def main(out_dir: str = ".") -> None:
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(3)
    w_star = np.array([0.6, -0.8])
    X = rng.uniform(-1, 1, size=(80, 2))
    X = X[np.abs(X @ w_star + 0.1) > 0.15]
    y = np.where(X @ w_star + 0.1 > 0, 1, -1)

    fig = plotting.plot_learning_steps(X, y, n_steps=6)
    fig.savefig(os.path.join(out_dir, "pla_steps.png"), dpi=80)
    plt.close(fig)
    frames = plotting.animate_learning(X, y, os.path.join(out_dir, "pla.gif"))

    model = Perceptron(random_state=0, margin=0.2).fit(X, y)
    ax = plotting.plot_decision_boundary(model, X, y)
    ax.figure.savefig(os.path.join(out_dir, "boundary.png"), dpi=80)
    plt.close(ax.figure)

    ax = plotting.plot_mistake_bound(X, y, w_star, b_star=0.1)
    ax.figure.savefig(os.path.join(out_dir, "mistake_bound.png"), dpi=80)
    plt.close(ax.figure)
    print(f"wrote pla_steps.png, pla.gif ({frames} frames), boundary.png and "
          f"mistake_bound.png to {os.path.abspath(out_dir)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")

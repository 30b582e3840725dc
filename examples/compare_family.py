"""
The family side by side
=======================

The perceptron family on the breast cancer data shipped with the package:
plain, averaged, pocket, margin, mini-batch, voted, centroid; accuracy on
the training rows and on held-out rows, printed and drawn (with
matplotlib, when it is installed).

Run:  python examples/compare_family.py
"""
import warnings

import numpy as np

from perceptron import (CentroidClassifier, ConvergenceWarning, Perceptron,
                        VotedPerceptron)
from perceptron.datasets import load_breast_cancer


def main() -> None:
    X, y = load_breast_cancer()
    rng = np.random.default_rng(0)
    order = rng.permutation(len(y))
    train, test = order[:400], order[400:]
    mean, std = X[train].mean(axis=0), X[train].std(axis=0)
    X = (X - mean) / std
    models = {
        "plain": Perceptron(max_iter=50, random_state=0),
        "averaged": Perceptron(max_iter=50, random_state=0, average=True),
        "pocket": Perceptron(max_iter=50, random_state=0, pocket=True),
        "margin 1.0, averaged": Perceptron(max_iter=50, random_state=0, margin=1.0,
                                           average=True),
        "mini-batch 32, averaged": Perceptron(max_iter=50, random_state=0, batch_size=32,
                                              average=True),
        "voted": VotedPerceptron(max_iter=10, random_state=0),
        "centroid": CentroidClassifier(),
    }
    print(f"{'model':26s} {'train':>7s} {'test':>7s}")
    scores = {}
    for name, model in models.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X[train], y[train])
        scores[name] = (model.score(X[train], y[train]), model.score(X[test], y[test]))
        print(f"{name:26s} {scores[name][0]:7.4f} {scores[name][1]:7.4f}")

    try:
        import matplotlib.pyplot as plt
    except ImportError:  # matplotlib is optional: pip install "perceptron-family[plot]"
        return
    fig, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
    rows = np.arange(len(scores))
    ax.barh(rows - 0.2, [s[0] for s in scores.values()], height=0.4, label="training rows")
    ax.barh(rows + 0.2, [s[1] for s in scores.values()], height=0.4, label="held-out rows")
    ax.set_yticks(rows, list(scores))
    ax.invert_yaxis()
    ax.set_xlim(min(min(s) for s in scores.values()) - 0.02, 1.0)
    ax.set_xlabel("accuracy")
    ax.set_title("The family on the breast cancer data")
    ax.legend(loc="lower right")
    show(fig)


def show(fig) -> None:
    """Show the figure on screen, unless matplotlib draws off screen (a
    headless run, or the documentation's gallery, which keeps the figure)."""
    import matplotlib
    import matplotlib.pyplot as plt

    if matplotlib.get_backend().lower() != "agg":
        plt.show()


if __name__ == "__main__":
    main()

"""
The family side by side
=======================

The perceptron family on the breast cancer data shipped with the package:
plain, averaged, pocket, margin, mini-batch, voted, centroid; accuracy on
the training rows and on held-out rows.

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
    for name, model in models.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X[train], y[train])
        print(f"{name:26s} {model.score(X[train], y[train]):7.4f} "
              f"{model.score(X[test], y[test]):7.4f}")


if __name__ == "__main__":
    main()

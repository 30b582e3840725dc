"""Writes the model files of tests/io/test_model_file_compat.py: one model of
each estimator and variant, saved by the package version that runs this
script, with the rows it was checked on and what it predicted for them.

Run it with an installed perceptron (not from the source tree):

    python tests/io/data/model_files/make.py tests/io/data/model_files

The files kept here were written by perceptron 0.1.0 before the model-file
codec learned the estimator classes through its registry; loading them must
keep giving the same predictions.
"""
import os
import sys
import warnings

import numpy as np

import perceptron
from perceptron import CentroidClassifier, KernelPerceptron, Perceptron, VotedPerceptron


def data(seed, n=60, d=5, k=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(k, d))
    y = np.argmax(X @ W.T, axis=1) if k > 2 else (X @ W[0] > 0).astype(int)
    return X, y


def models():
    X, y = data(0)
    X3, y3 = data(1, k=3)
    Xl = data(2)[0]
    Yl = (Xl[:, :3] > 0).astype(int)
    Xn = X[:20]
    yield "perceptron_binary", Perceptron(random_state=0).fit(X, y), X
    yield "perceptron_ovr_strings", Perceptron(random_state=0, max_iter=20).fit(
        X3, np.array(["a", "b", "c"])[y3]), X3
    yield "perceptron_multinomial_f32", Perceptron(multiclass="multinomial", random_state=0).fit(
        X3.astype(np.float32), y3), X3.astype(np.float32)
    yield "perceptron_multilabel", Perceptron(random_state=0, max_iter=20).fit(Xl, Yl), Xl
    yield "perceptron_averaged", Perceptron(average=True, random_state=0, max_iter=5).fit(
        X3, y3), X3
    yield "perceptron_pocket_margin", Perceptron(pocket=True, margin=0.5, random_state=0,
                                                 max_iter=5).fit(X, y), X
    yield "perceptron_early_stopping", Perceptron(early_stopping=True, random_state=0,
                                                  max_iter=30).fit(X3, y3), X3
    p = Perceptron(random_state=0, batch_size=8)
    for lo in range(0, len(X), 20):
        p.partial_fit(X[lo:lo + 20], y[lo:lo + 20], classes=[0, 1])
    yield "perceptron_partial_fit_batch", p, X
    yield "voted_binary", VotedPerceptron(random_state=0, max_vectors=50).fit(X, y), X
    yield "voted_multiclass", VotedPerceptron(random_state=0).fit(X3, y3), X3
    yield "centroid_binary", CentroidClassifier().fit(X, y), X
    yield "centroid_multiclass", CentroidClassifier().fit(X3, y3), X3
    yield "kernel_rbf", KernelPerceptron(kernel="rbf", random_state=0).fit(X, y), X
    yield "kernel_poly_multiclass", KernelPerceptron(kernel="poly", degree=2,
                                                     random_state=0).fit(X3, y3), X3
    G = Xn @ Xn.T
    yield "kernel_precomputed", KernelPerceptron(kernel="precomputed", random_state=0).fit(
        G, y[:20]), G


def main(folder):
    warnings.simplefilter("ignore")  # models that stop at max_iter are fine here
    for name, model, X in models():
        model.save(os.path.join(folder, name + ".ptn"))
        np.savez(os.path.join(folder, name + ".npz"), X=X, predict=model.predict(X),
                 decision=model.decision_function(X))
        print(name, perceptron.__version__)


if __name__ == "__main__":
    main(sys.argv[1])

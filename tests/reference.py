"""Pure-numpy reference implementations, written straight from the notes.

These are deliberately naive (one Python step per row) and are the yardstick
the compiled code is compared with, on the same order of rows.
"""
import numpy as np


def perceptron_reference(X, y, *, eta=1.0, max_iter=100, fit_intercept=True, orders=None,
                         w0=None, b0=0.0, stop_when_converged=True):
    """Daume III, A Course in Machine Learning, ch. 3, Algorithm 5 (PerceptronTrain).

        w_d <- 0 for all d;  b <- 0
        for iter = 1 .. MaxIter:
            for all (x, y) in D:
                a <- sum_d w_d x_d + b
                if y*a <= 0:
                    w_d <- w_d + y x_d  for all d
                    b <- b + y

    with a step size eta on the update, the epoch's row order taken from
    `orders[epoch]` (0..n-1 when None), and a stop after the first epoch
    without an update (the loop of the notes of seed 001: "if k = 0 then
    break").  The weights live in X's dtype; the activation is summed in
    float64 (the package's documented choice); the bias is a float64.

    Returns w, b, mistakes per epoch, perceptron loss (sum) per epoch.
    """
    X = np.asarray(X)
    n, d = X.shape
    w = np.zeros(d, dtype=X.dtype) if w0 is None else np.array(w0, dtype=X.dtype)
    b = float(b0)
    mistakes, losses = [], []
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m, loss = 0, 0.0
        for i in order:
            a = float(np.dot(X[i].astype(np.float64), w.astype(np.float64))) + b
            if y[i] * a <= 0:
                loss += -y[i] * a
                step = eta * y[i]
                w = (w + X.dtype.type(step) * X[i]).astype(X.dtype)
                if fit_intercept:
                    b += step
                m += 1
        mistakes.append(m)
        losses.append(loss)
        if m == 0 and stop_when_converged:
            break
    return w, b, np.array(mistakes), np.array(losses)

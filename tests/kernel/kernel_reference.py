"""Pure-numpy references for the kernel perceptron, written from the papers.

Deliberately naive: the activation of each visited row is the full dual sum,
recomputed from the mistake counts at every visit, with no cache, no pending
block and no incremental bookkeeping; the compiled loop is compared with it
on the same order of rows.
"""
import numpy as np


def kernel_matrix_reference(X, Y, kernel, *, gamma=1.0, coef0=0.0, degree=3):
    """K[a, b] = k(X[a], Y[b]) in float64, from the definitions:

    linear   x.z
    poly     (gamma x.z + coef0)^degree
    rbf      exp(-gamma ||x - z||^2)
    sigmoid  tanh(gamma x.z + coef0)
    """
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    if kernel == "linear":
        return X @ Y.T
    if kernel == "poly":
        return (gamma * (X @ Y.T) + coef0) ** degree
    if kernel == "rbf":
        d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
        return np.exp(-gamma * d2)
    if kernel == "sigmoid":
        return np.tanh(gamma * (X @ Y.T) + coef0)
    raise ValueError(kernel)


def kernel_perceptron_reference(G, y, *, eta=1.0, max_iter=100, fit_intercept=True, orders=None,
                                max_support_vectors=None):
    """The dual (kernel) perceptron on a Gram matrix G[i, j] = K(x_i, x_j).

    Freund and Schapire (1999), section 2, with the bias of the primal rule:

        alpha <- 0;  b <- 0
        for epoch = 1 .. max_iter:
            for i in order:
                a <- sum_j eta alpha_j y_j G[i, j] + b
                if y_i a <= 0:
                    alpha_i <- alpha_i + 1;  b <- b + eta y_i

    stopping after the first epoch without a mistake.  With a budget of
    `max_support_vectors`, a mistake on a row that is not yet a support vector
    first removes the oldest support vector j (in order of entry) with its
    whole term: alpha_j <- 0 and b <- b - eta alpha_j y_j.

    Returns alpha, b, mistakes per epoch, summed perceptron loss per epoch.
    """
    G = np.asarray(G, dtype=np.float64)
    n = G.shape[0]
    alpha = np.zeros(n, dtype=np.int64)
    b = 0.0
    entered = []  # support vectors, oldest first
    mistakes, losses = [], []
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m, loss = 0, 0.0
        for i in order:
            a = float(np.sum(eta * alpha * y * G[i])) + b
            if y[i] * a <= 0:
                if alpha[i] == 0:
                    if max_support_vectors is not None and len(entered) == max_support_vectors:
                        j = entered.pop(0)
                        if fit_intercept:
                            b -= eta * alpha[j] * y[j]
                        alpha[j] = 0
                    entered.append(i)
                loss += -y[i] * a
                alpha[i] += 1
                if fit_intercept:
                    b += eta * y[i]
                m += 1
        mistakes.append(m)
        losses.append(loss)
        if m == 0:
            break
    return alpha, b, np.array(mistakes), np.array(losses)

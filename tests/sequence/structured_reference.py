"""Pure-numpy reference of the structured perceptron, written from the paper.

Collins (2002), "Discriminative Training Methods for Hidden Markov Models:
Theory and Experiments with Perceptron Algorithms", section 2 and figure 1,
for a first-order model: the global feature vector of a sequence x_1..x_L
with labels z_1..z_L is

    Phi(x, z) = sum_t phi(x_t, z_t) + sum_{t>=2} psi(z_{t-1}, z_t)
                + start(z_1) + end(z_L)

where phi puts x_t (and a 1 for the bias) in the block of label z_t, psi
counts the label pair, start and end the first and last label.  Training:

    for t = 1..T, i = 1..n:
        z_i = argmax_z  alpha . Phi(x_i, z)        (Viterbi)
        if z_i != y_i:  alpha <- alpha + Phi(x_i, y_i) - Phi(x_i, z_i)

and the averaged parameters (section 2.5) are the mean of alpha after every
example visit, sum_{t,i} alpha^{t,i} / (n T).

Deliberately naive: the global feature vectors are built in full and the
average is an explicit running sum, so that the compiled code's positional
update and lazy averaging are checked against the definitions.  Ties in
the argmax go to the smallest label (numpy's argmax), as in the compiled
decoder.
"""
import itertools

import numpy as np


def path_score(E, T, start, end, z):
    """alpha . Phi(x, z) for emission scores E (L, K), summed from the
    first token on: start, then emission, then each transition and the
    next emission, then end."""
    s = start[z[0]] + E[0, z[0]]
    for t in range(1, len(z)):
        s = (s + T[z[t - 1], z[t]]) + E[t, z[t]]
    return s + end[z[-1]]


def viterbi(E, T, start, end):
    """The highest-scoring label sequence (Viterbi 1967), first argmax on ties."""
    L, K = E.shape
    delta = start + E[0]
    back = []
    for t in range(1, L):
        cand = delta[:, None] + T            # cand[j, k]: label j then k
        arg = np.argmax(cand, axis=0)
        delta = cand[arg, np.arange(K)] + E[t]
        back.append(arg)
    z = [int(np.argmax(delta + end))]
    for arg in reversed(back):
        z.append(int(arg[z[-1]]))
    return np.array(z[::-1])


def brute_force(E, T, start, end):
    """(best score, every label sequence reaching it) over all K^L sequences."""
    L, K = E.shape
    best, paths = -np.inf, []
    for z in itertools.product(range(K), repeat=L):
        s = path_score(E, T, start, end, z)
        if s > best:
            best, paths = s, [z]
        elif s == best:
            paths.append(z)
    return best, paths


def features(x, z, K):
    """Phi(x, z) as (W, b, T, start, end) blocks."""
    d = x.shape[1]
    W = np.zeros((K, d))
    b = np.zeros(K)
    T = np.zeros((K, K))
    s = np.zeros(K)
    e = np.zeros(K)
    for t, label in enumerate(z):
        W[label] += x[t]
        b[label] += 1
        if t:
            T[z[t - 1], label] += 1
    s[z[0]] += 1
    e[z[-1]] += 1
    return W, b, T, s, e


def structured_reference(X, y, lengths, K, *, max_iter=5, orders=None, eta=1.0,
                         sample_weight=None, stop_when_converged=True):
    """Train on integer label indices y (0..K-1) with Collins' algorithm.

    X is dense (n_tokens, d); the epochs visit the sequences in
    ``orders[epoch]`` (0..n-1 when None) and stop after an epoch without a
    mistake.  Returns a dict with the last parameters ("W", "b", "T",
    "start", "end"), their explicit averages (same keys with "avg_"), the
    mistakes per epoch and the epochs run.
    """
    X = np.asarray(X, dtype=np.float64)
    d = X.shape[1]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    n_seq = len(lengths)
    params = [np.zeros((K, d)), np.zeros(K), np.zeros((K, K)), np.zeros(K), np.zeros(K)]
    sums = [np.zeros_like(p) for p in params]
    visits = 0
    mistakes = []
    for epoch in range(max_iter):
        order = range(n_seq) if orders is None else orders[epoch]
        wrong = 0
        for q in order:
            lo, hi = offsets[q], offsets[q + 1]
            if hi > lo:
                x, gold = X[lo:hi], y[lo:hi]
                W, b, T, s, e = params
                E = x @ W.T + b
                z = viterbi(E, T, s, e)
                if (z != gold).any():
                    wrong += 1
                    a = eta * (1.0 if sample_weight is None else sample_weight[q])
                    plus = features(x, gold, K)
                    minus = features(x, z, K)
                    for p, f, g in zip(params, plus, minus):
                        p += a * (f - g)
            visits += 1
            for acc, p in zip(sums, params):
                acc += p
        mistakes.append(wrong)
        if wrong == 0 and stop_when_converged:
            break
    names = ["W", "b", "T", "start", "end"]
    out = {name: p for name, p in zip(names, params)}
    out.update({"avg_" + name: acc / max(visits, 1) for name, acc in zip(names, sums)})
    out["mistakes"] = np.array(mistakes)
    out["epochs"] = len(mistakes)
    return out

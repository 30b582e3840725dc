"""Pure-numpy reference implementations, written straight from the published algorithms.

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
    without an update (the loop of MJ, *Perceptron Learning*: "if k = 0 then
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


def _activation(x, w, b):
    return float(np.dot(x.astype(np.float64), w.astype(np.float64))) + b


def family_reference(X, y, *, eta=1.0, max_iter=100, fit_intercept=True, orders=None,
                     margin=0.0, sample_weight=None, average=False, pocket=False,
                     stop_when_converged=True, w0=None, b0=0.0):
    """The binary rule with margin, sample weights, averaging and the pocket,
    one Python step per row, straight from the published pseudo-code.

    - margin (PAUM, Li et al. 2002): update when y*a <= margin;
    - sample weights: the step is eta * s_i * y_i;
    - averaged (Daume III, ch. 3; Collins 2002) computed the slow way: the
      explicit mean of the weight vectors after every step, no lazy trick;
    - pocket with ratchet (Gallant 1990): when the current weights have been
      right on more consecutive examples than the pocket's weights were, count
      the training examples they get right; if more than the pocket's, they
      go in the pocket.

    Starts from w0, b0 (zeros by default).  Returns (w, b, mistakes per
    epoch, updates per epoch, loss per epoch).
    """
    X = np.asarray(X)
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    w = np.zeros(d, dtype=X.dtype) if w0 is None else np.array(w0, dtype=X.dtype)
    b = float(b0)
    sum_w, sum_b, steps = np.zeros(d), 0.0, 0

    def n_correct(w_, b_):
        return sum(s[i] for i in range(n) if y[i] * _activation(X[i], w_, b_) > 0)

    pocket_w, pocket_b = w.copy(), b
    pocket_ok, pocket_run, run = n_correct(w, b), 0, 0
    mistakes, updates, losses = [], [], []
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m = u = 0
        loss = 0.0
        for i in order:
            a = _activation(X[i], w, b)
            if y[i] * a <= margin:
                if y[i] * a <= 0:
                    m += 1
                    loss += -s[i] * y[i] * a
                step = eta * s[i] * y[i]
                w = (w + X.dtype.type(step) * X[i]).astype(X.dtype)
                if fit_intercept:
                    b += step
                u += 1
                run = 0
            else:
                run += 1
                if pocket and run > pocket_run:
                    ok = n_correct(w, b)
                    if ok > pocket_ok:
                        pocket_w, pocket_b, pocket_ok, pocket_run = w.copy(), b, ok, run
            sum_w += w
            sum_b += b
            steps += 1
        mistakes.append(m)
        updates.append(u)
        losses.append(loss)
        if u == 0 and stop_when_converged:
            break
    if average:
        w, b = sum_w / steps, sum_b / steps
    if pocket:
        w, b = pocket_w, pocket_b
    return w, b, np.array(mistakes), np.array(updates), np.array(losses)


def minibatch_reference(X, y, *, batch_size, eta=1.0, max_iter=100, fit_intercept=True,
                        orders=None, margin=0.0):
    """The stochastic subgradient method for the mean perceptron loss:

        choose a B-element subset I (here: consecutive slices of the epoch's
        shuffled order), M = {i in I : y_i (w.x_i + b) <= margin},
        w <- w + (eta/B) sum_{i in M} y_i x_i,  b <- b + (eta/B) sum_{i in M} y_i

    (<= rather than < so that the first step from w = 0 moves, as the online
    rule does.)  B is the size of the slice.  Returns (w, b, mistakes per epoch).
    """
    X = np.asarray(X)
    n, d = X.shape
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    mistakes = []
    for epoch in range(max_iter):
        order = np.arange(n) if orders is None else orders[epoch]
        m = steps_with_update = 0
        for start in range(0, n, batch_size):
            batch = order[start:start + batch_size]
            g, gb, violated = np.zeros(d), 0.0, False
            for i in batch:
                ya = y[i] * _activation(X[i], w, b)
                if ya <= margin:
                    m += int(ya <= 0)
                    g += y[i] * X[i].astype(np.float64)
                    gb += y[i]
                    violated = True
            if violated:
                scale = eta / len(batch)
                w = (w.astype(np.float64) + scale * g).astype(X.dtype)
                if fit_intercept:
                    b += scale * gb
                steps_with_update += 1
        mistakes.append(m)
        if steps_with_update == 0:
            break
    return w, b, np.array(mistakes)


def multinomial_reference(X, t, k, *, eta=1.0, max_iter=100, fit_intercept=True, orders=None,
                          margin=0.0, W0=None, b0=None):
    """The multiclass perceptron (Collins 2002; Crammer and Singer 2003): one
    weight row per class; for a row of class t, r is the best other class;
    when a_t - a_r <= margin, w_t += eta x, w_r -= eta x.  Ties go to the
    lowest index when choosing r.  Starts from W0, b0 (zeros by default).
    Returns (W, b, mistakes per epoch)."""
    X = np.asarray(X)
    n, d = X.shape
    W = np.zeros((k, d), dtype=X.dtype) if W0 is None else np.array(W0, dtype=X.dtype)
    b = np.zeros(k) if b0 is None else np.array(b0, dtype=np.float64)
    mistakes = []
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m = u = 0
        for i in order:
            acts = [_activation(X[i], W[j], b[j]) for j in range(k)]
            others = [j for j in range(k) if j != t[i]]
            r = max(others, key=lambda j: (acts[j], -j))
            diff = acts[t[i]] - acts[r]
            if diff <= margin:
                m += int(diff <= 0)
                W[t[i]] = (W[t[i]] + X.dtype.type(eta) * X[i]).astype(X.dtype)
                W[r] = (W[r] - X.dtype.type(eta) * X[i]).astype(X.dtype)
                if fit_intercept:
                    b[t[i]] += eta
                    b[r] -= eta
                u += 1
        mistakes.append(m)
        if u == 0:
            break
    return W, b, np.array(mistakes)


def voted_reference(X, y, *, max_iter=10, fit_intercept=True, orders=None):
    """Freund and Schapire (1999), Figure 1, with the bias as a separate term:

        k = 1, v_1 = 0, c_1 = 0
        for each epoch, for each (x_i, y_i):
            if y_i (v_k.x_i + b_k) > 0: c_k += 1
            else: v_{k+1} = v_k + y_i x_i, b_{k+1} = b_k + y_i, c_{k+1} = 1, k += 1

    (a tie counts as a mistake, as in the rest of the package), stopping after
    an epoch without mistakes.  Returns the list of (v, b, c) with c > 0 and
    the mistakes per epoch."""
    X = np.asarray(X)
    n, d = X.shape
    vs = [(np.zeros(d, dtype=X.dtype), 0.0)]
    cs = [0]
    mistakes = []
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m = 0
        for i in order:
            v, b = vs[-1]
            if y[i] * _activation(X[i], v, b) > 0:
                cs[-1] += 1
            else:
                vs.append(((v + X.dtype.type(y[i]) * X[i]).astype(X.dtype),
                           b + (y[i] if fit_intercept else 0.0)))
                cs.append(1)
                m += 1
        mistakes.append(m)
        if m == 0:
            break
    return [(v, b, c) for (v, b), c in zip(vs, cs) if c > 0], np.array(mistakes)


def tol_rule_reference(X, y, *, eta=1.0, max_iter=1000, tol=1e-3, n_iter_no_change=5,
                       fit_intercept=True, orders=None, sample_weight=None):
    """The binary rule of `perceptron_reference`, stopped by scikit-learn's
    rule of its SGD loop (as its documentation states it for ``tol`` and
    ``n_iter_no_change``), plus the package's stop at an epoch without an
    update:

        best <- +inf;  count <- 0
        after each epoch, with L = sum_i max(0, -y_i a_i) over the epoch
        (unweighted; a row's sample weight s_i scales its step eta*s_i*y_i):
            if L > best - tol * n:  count <- count + 1   else: count <- 0
            best <- min(best, L)
            stop if count >= n_iter_no_change, or the epoch made no update

    Returns w, b, mistakes per epoch, weighted loss per epoch (n_iter_ =
    len(mistakes)).
    """
    X = np.asarray(X)
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    best, count = np.inf, 0
    mistakes, losses = [], []
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m, loss, raw = 0, 0.0, 0.0
        for i in order:
            a = _activation(X[i], w, b)
            if y[i] * a <= 0:
                loss += -s[i] * y[i] * a
                raw += -y[i] * a
                step = eta * s[i] * y[i]
                w = (w + X.dtype.type(step) * X[i]).astype(X.dtype)
                if fit_intercept:
                    b += step
                m += 1
        mistakes.append(m)
        losses.append(loss)
        if m == 0:
            break
        count = count + 1 if raw > best - tol * n else 0
        best = min(best, raw)
        if count >= n_iter_no_change:
            break
    return w, b, np.array(mistakes), np.array(losses)


def mixing_reference(X, y, shards, orders, *, mixing="uniform", multinomial_k=None,
                     max_iter=100, sample_weight=None, average=False, W0=None, b0=None,
                     **rule):
    """Iterative parameter mixing, as McDonald, Hall and Mann (2010) write it
    (Figure 3), over the sequential references above:

        w = 0
        for n = 1..N:
            w_i = OneEpochPerceptron(T_i, w) for each shard i
            w = sum_i mu_{i,n} w_i
        (mu_{i,n} = 1/S, or k_{i,n} / k_n with k_{i,n} the updates of shard i)

    (w starts at W0, b0 when given) stopping after an epoch in which no
    shard updates.  ``shards`` holds the
    row indices of each shard, ``orders[i][e]`` the order (positions in shard
    i) of its epoch e.  One epoch of a shard is ``family_reference`` (or
    ``multinomial_reference`` with ``multinomial_k`` classes) run for one
    epoch from the mixed weights.  The mixture is summed in float64, shard
    by shard, and cast to X's dtype.

    Averaging, the slow way: each shard's epoch average (the mean of its
    weights after each of its steps, as ``family_reference`` returns for one
    epoch) is mixed with the same coefficients; the averaged model is the
    mean of the mixed epoch averages, each epoch weighted by its rows.

    Returns (W, b, averaged W, averaged b, mistakes per epoch summed over the
    shards, loss per epoch summed over the shards, mixed (W, b) after each
    epoch).
    """
    X = np.asarray(X)
    d = X.shape[1]
    k = 1 if multinomial_k is None else multinomial_k
    W = np.zeros((k, d), dtype=X.dtype) if W0 is None else np.array(W0, dtype=X.dtype)
    b = np.zeros(k) if b0 is None else np.array(b0, dtype=np.float64)
    avg_sum_W, avg_sum_b, rows_seen = np.zeros((k, d)), np.zeros(k), 0
    mistakes, losses, path = [], [], []
    for epoch in range(max_iter):
        ends, updates = [], []
        m_total, loss_total = 0, 0.0
        for rows, order in zip(shards, orders):
            Xi, yi = X[rows], np.asarray(y)[rows]
            si = None if sample_weight is None else np.asarray(sample_weight)[rows]
            if multinomial_k is None:
                wi, bi, m, u, loss = family_reference(
                    Xi, yi, max_iter=1, orders=[order[epoch]], sample_weight=si,
                    w0=W[0], b0=b[0], **rule)
                ends.append((wi.reshape(1, d), np.array([bi])))
                if average:
                    aw, ab, _, _, _ = family_reference(
                        Xi, yi, max_iter=1, orders=[order[epoch]], sample_weight=si,
                        w0=W[0], b0=b[0], average=True, **rule)
                    ends[-1] += (np.asarray(aw, dtype=np.float64).reshape(1, d),
                                 np.array([ab]), len(rows))
                updates.append(int(u[0]))
                m_total += int(m[0])
                loss_total += float(loss[0])
            else:
                Wi, bi, m = multinomial_reference(Xi, yi, k, max_iter=1, orders=[order[epoch]],
                                                  W0=W, b0=b, **rule)
                ends.append((Wi, bi))
                updates.append(int(m[0]))  # margin 0: an update is a mistake
                m_total += int(m[0])
        total = sum(updates)
        mu = [1 / len(shards)] * len(shards) if mixing == "uniform" or total == 0 else \
            [u / total for u in updates]
        W64, b = np.zeros((k, d)), np.zeros(k)
        for m, end in zip(mu, ends):
            W64 += m * end[0].astype(np.float64)
            b += m * end[1]
        W = W64.astype(X.dtype)
        if average:
            N = sum(end[4] for end in ends)
            avg_sum_W += N * sum(m * end[2] for m, end in zip(mu, ends))
            avg_sum_b += N * sum(m * end[3] for m, end in zip(mu, ends))
            rows_seen += N
        mistakes.append(m_total)
        losses.append(loss_total)
        path.append((W.copy(), b.copy()))
        if total == 0:
            break
    avg_W = avg_sum_W / rows_seen if average else None
    avg_b = avg_sum_b / rows_seen if average else None
    return W, b, avg_W, avg_b, np.array(mistakes), np.array(losses), path

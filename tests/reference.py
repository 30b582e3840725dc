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
                          margin=0.0, W0=None, b0=None, pocket=False):
    """The multiclass perceptron (Collins 2002; Crammer and Singer 2003): one
    weight row per class; for a row of class t, r is the best other class;
    when a_t - a_r <= margin, w_t += eta x, w_r -= eta x.  Ties go to the
    lowest index when choosing r.  Starts from W0, b0 (zeros by default).
    With `pocket`, Gallant's (1990) ratchet as in family_reference, a row
    counting as right when its true class strictly wins.
    Returns (W, b, mistakes per epoch)."""
    X = np.asarray(X)
    n, d = X.shape
    W = np.zeros((k, d), dtype=X.dtype) if W0 is None else np.array(W0, dtype=X.dtype)
    b = np.zeros(k) if b0 is None else np.array(b0, dtype=np.float64)
    mistakes = []

    def n_correct(W_, b_):
        ok = 0
        for i in range(n):
            acts_ = [_activation(X[i], W_[j], b_[j]) for j in range(k)]
            ok += acts_[t[i]] > max(acts_[j] for j in range(k) if j != t[i])
        return ok

    pocket_W, pocket_b = W.copy(), b.copy()
    pocket_ok, pocket_run, run = (n_correct(W, b) if pocket else 0), 0, 0
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
                run = 0
            else:
                run += 1
                if pocket and run > pocket_run:
                    ok = n_correct(W, b)
                    if ok > pocket_ok:
                        pocket_W, pocket_b, pocket_ok, pocket_run = W.copy(), b.copy(), ok, run
        mistakes.append(m)
        if u == 0:
            break
    if pocket:
        return pocket_W, pocket_b, np.array(mistakes)
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


def _row_ops(X, dot, axpy):
    """The row operations of the references that take them as arguments:
    dot(x, w), summed in float64 unless given, and axpy(a, x, w), the
    update of weights kept in X's dtype unless given."""
    T = X.dtype.type
    if dot is None:
        def dot(x, w):
            return float(np.dot(x.astype(np.float64), w.astype(np.float64)))
    if axpy is None:
        def axpy(a, x, w):
            w[...] = (w + T(a) * x).astype(X.dtype)
    return dot, axpy


def penalized_reference(X, y=None, *, penalty, alpha, l1_ratio=0.15, eta=1.0, max_iter=10,
                        fit_intercept=True, orders=None, sample_weight=None, margin=0.0,
                        average=False, tol=None, n_iter_no_change=5, t=None, k=None,
                        dot=None, axpy=None):
    """The online rule with a penalty, as scikit-learn's SGD with a constant
    rate (its Perceptron: loss "perceptron", learning_rate "constant") steps
    it, one Python step per row; binary (labels y in {-1, +1}) or, with class
    indices t of k classes, the multiclass rule with the same penalty on every
    class's row.  For each row, in this order:

        a = scale*(w.x) + b;  a mistake when y*a <= 0, an update when y*a <= margin
        objective += alpha*((1 - l1_ratio)*||w||^2/2 + l1_ratio*||w||_1)
            with the norms as last computed (after the last update, then
            scaled with the weights; scikit-learn does not recompute them
            after an L1 step)
        L2:  scale *= max(0, 1 - (1 - l1_ratio)*eta*alpha)   (Bottou 2012,
             section 5.1); below 1e-9, w <- scale*w and scale <- 1
        update: w += (eta*s*y/scale) x, b += eta*s*y, norms recomputed
        L1:  u += l1_ratio*eta*alpha; for every weight j (scikit-learn's dense
             rows list every feature), with z = w_j:
                 scale*z > 0: w_j = max(0, z - (u + q_j)/scale)
                 scale*z < 0: w_j = min(0, z + (u - q_j)/scale)
                 q_j += scale*(w_j - z)
             (Tsuruoka, Tsujii and Ananiadou 2009, section 3.2)
        average: the explicit sum of scale*w and of b after the row

    l1_ratio is 0 for "l2" and 1 for "l1".  The scale carries on from epoch
    to epoch; the weights returned are scale*w.  There is no stop at an epoch without an update
    (the penalty still moves the weights); with tol, scikit-learn's rule
    stops on the epoch's loss plus its penalty terms (the unweighted loss
    for the plain binary rule, the weighted one with margin, average or
    the multiclass rule).  dot(x, w) and axpy(a, x, w) (w += a*x in place)
    default to numpy; a test may pass the package's kernels to compare bits.

    Returns a dict: W (k, d) and b (k,) (the averages with average), and
    per epoch mistakes, updates, loss (weighted), raw (unweighted),
    penalty (the objective's penalty terms).
    """
    X = np.asarray(X)
    n, d = X.shape
    T = X.dtype.type
    multi = t is not None
    kc = k if multi else 1
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    dot, axpy = _row_ops(X, dot, axpy)
    l1r = {"l2": 0.0, "l1": 1.0, "elasticnet": l1_ratio}[penalty]
    l2_on, l1_on = penalty != "l1", penalty != "l2"
    f2 = max(0.0, 1.0 - (1.0 - l1r) * eta * alpha)
    W = np.zeros((kc, d), dtype=X.dtype)
    b = np.zeros(kc)
    q = np.zeros((kc, d))
    u = 0.0
    norms = np.zeros((kc, 2))
    S, Sb, steps = np.zeros((kc, d)), np.zeros(kc), 0
    plain = not (multi or average or margin > 0)
    best, count = np.inf, 0
    hist = {key: [] for key in ("mistakes", "updates", "loss", "raw", "penalty")}

    def recompute(j, scale):
        w64 = W[j].astype(np.float64)
        norms[j, 0] = np.add.accumulate(w64 * w64)[-1] * (scale * scale)
        norms[j, 1] = np.add.accumulate(np.abs(w64))[-1] * scale

    scale = np.ones(kc)
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m = upd = 0
        loss = raw = pen = 0.0
        for i in order:
            x = X[i]
            if multi:
                acts = [scale[j] * dot(x, W[j]) + b[j] for j in range(kc)]
                r = min((j for j in range(kc) if j != t[i]), key=lambda j: (-acts[j], j))
                ya, rows = acts[t[i]] - acts[r], ((t[i], 1.0), (r, -1.0))
            else:
                ya, rows = y[i] * (scale[0] * dot(x, W[0]) + b[0]), ((0, float(y[i])),)
            update = not (margin < ya < np.inf)
            if update and ya <= 0:
                m += 1
                loss += -s[i] * ya
                raw += -ya
            nrm = np.sqrt(np.add.accumulate(np.append(0.0, norms[:, 0]))[-1])
            l1n = np.add.accumulate(np.append(0.0, norms[:, 1]))[-1]
            pen += alpha * ((1.0 - l1r) * 0.5 * (nrm * nrm) + l1r * l1n)
            if l2_on:
                for j in range(kc):
                    scale[j] *= f2
                    norms[j, 0] *= f2 * f2
                    norms[j, 1] *= abs(f2)
                    if scale[j] < 1e-9:
                        W[j] = (W[j].astype(np.float64) * scale[j]).astype(X.dtype)
                        scale[j] = 1.0
            if update:
                step = eta * s[i]
                for j, sign in rows:
                    axpy((step * sign) / scale[j], x, W[j])
                for j, _ in rows:
                    recompute(j, scale[j])
                for j, sign in rows:
                    if fit_intercept:
                        b[j] += step * sign
                upd += 1
            if l1_on:
                u += l1r * eta * alpha
                for j in range(kc):
                    z = W[j].astype(np.float64)
                    sz = scale[j] * z
                    new = np.where(sz > 0, np.maximum(0.0, z - (u + q[j]) / scale[j]),
                                   np.where(sz < 0, np.minimum(0.0, z + (u - q[j]) / scale[j]),
                                            z)).astype(X.dtype)
                    W[j] = new
                    q[j] += scale[j] * (new.astype(np.float64) - z)
            if average:
                for j in range(kc):
                    S[j] += scale[j] * W[j].astype(np.float64)
                    Sb[j] += b[j]
            steps += 1
        for key, value in zip(hist, (m, upd, loss, raw, pen)):
            hist[key].append(value)
        if tol is not None:
            value = (raw if plain else loss) + pen
            count = count + 1 if value > best - tol * n else 0
            best = min(best, value)
            if count >= n_iter_no_change:
                break
    out = {key: np.array(v) for key, v in hist.items()}
    if average:
        out["W"], out["b"] = (S / steps).astype(X.dtype), Sb / steps
    else:
        out["W"] = (W.astype(np.float64) * scale[:, None]).astype(X.dtype)
        out["b"] = b
    return out


def penalized_minibatch_reference(X, y=None, *, batch_size, penalty, alpha, l1_ratio=0.15,
                                  eta=1.0, max_iter=10, fit_intercept=True, orders=None,
                                  margin=0.0, average=False, t=None, k=None):
    """`minibatch_reference` (binary, or with class indices t of k classes the
    multiclass rule's batch gradient) with a penalty, one penalty step per
    batch as `penalized_reference` takes one per row: every row of a batch
    adds alpha*((1-l1_ratio)*||w||^2/2 + l1_ratio*||w||_1) (norms as last
    computed) to the objective; at the batch's end

        L2:  w <- max(0, 1 - (1 - l1_ratio)*eta*alpha) * w   (in w's dtype)
        w += (eta/B) * g, b += (eta/B) * gb   when a row of the batch violated
        L1:  u += l1_ratio*eta*alpha, the truncated step of Tsuruoka et al.
        average: the explicit sum of w and b after the batch.

    Returns a dict like `penalized_reference`'s (W, b, mistakes, penalty).
    """
    X = np.asarray(X)
    n, d = X.shape
    multi = t is not None
    kc = k if multi else 1
    l1r = {"l2": 0.0, "l1": 1.0, "elasticnet": l1_ratio}[penalty]
    f2 = max(0.0, 1.0 - (1.0 - l1r) * eta * alpha)
    W = np.zeros((kc, d), dtype=X.dtype)
    b = np.zeros(kc)
    q = np.zeros((kc, d))
    u = 0.0
    norms = np.zeros((kc, 2))
    S, Sb, steps = np.zeros((kc, d)), np.zeros(kc), 0
    hist = {"mistakes": [], "penalty": []}
    for epoch in range(max_iter):
        order = np.arange(n) if orders is None else orders[epoch]
        m, pen = 0, 0.0
        for start in range(0, n, batch_size):
            batch = order[start:start + batch_size]
            g, gb, violated = np.zeros((kc, d)), np.zeros(kc), False
            nrm = np.sqrt(np.add.accumulate(np.append(0.0, norms[:, 0]))[-1])
            l1n = np.add.accumulate(np.append(0.0, norms[:, 1]))[-1]
            term = alpha * ((1.0 - l1r) * 0.5 * (nrm * nrm) + l1r * l1n)
            for i in batch:
                pen += term
                if multi:
                    acts = [_activation(X[i], W[j], b[j]) for j in range(kc)]
                    r = min((j for j in range(kc) if j != t[i]), key=lambda j: (-acts[j], j))
                    ya, rows = acts[t[i]] - acts[r], ((t[i], 1.0), (r, -1.0))
                else:
                    ya, rows = y[i] * _activation(X[i], W[0], b[0]), ((0, float(y[i])),)
                if not (margin < ya < np.inf):
                    m += int(ya <= 0)
                    for j, sign in rows:
                        g[j] += sign * X[i].astype(np.float64)
                        gb[j] += sign
                    violated = True
            if penalty != "l1":
                W = (W.astype(np.float64) * f2).astype(X.dtype)
                norms[:, 0] *= f2 * f2
                norms[:, 1] *= abs(f2)
            if violated:
                scale = eta / len(batch)
                W = (W.astype(np.float64) + scale * g).astype(X.dtype)
                if fit_intercept:
                    b += scale * gb
                for j in range(kc):
                    w64 = W[j].astype(np.float64)
                    norms[j] = (np.add.accumulate(w64 * w64)[-1],
                                np.add.accumulate(np.abs(w64))[-1])
            if penalty != "l2":
                u += l1r * eta * alpha
                z = W.astype(np.float64)
                new = np.where(z > 0, np.maximum(0.0, z - (u + q)),
                               np.where(z < 0, np.minimum(0.0, z + (u - q)), z)).astype(X.dtype)
                q += new.astype(np.float64) - z
                W = new
            if average:
                S += W.astype(np.float64)
                Sb += b
            steps += 1
        hist["mistakes"].append(m)
        hist["penalty"].append(pen)
    out = {key: np.array(v) for key, v in hist.items()}
    out["W"], out["b"] = ((S / steps).astype(X.dtype), Sb / steps) if average else (W, b)
    return out


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


def ovr_reference(X, t, k, *, orders, eta=1.0, margin=0.0, sample_weight=None,
                  fit_intercept=True, W0=None, b0=None):
    """One-vs-rest in one shared order (Rifkin and Klautau 2004): class c is
    the binary rule of ``family_reference`` on the signs +1 where t == c, -1
    elsewhere, over the epochs' orders ``orders`` shared by every class;
    each class stops after its first epoch without an update while the
    others go on.  Starts from W0, b0 (zeros by default).

    Returns (W, b, mistakes per epoch summed over the classes still
    training, epochs run by each class)."""
    X = np.asarray(X)
    n, d = X.shape
    W = np.zeros((k, d), dtype=X.dtype)
    b = np.zeros(k)
    total = np.zeros(len(orders), dtype=np.int64)
    epochs = []
    for c in range(k):
        w_c, b_c, mistakes, _, _ = family_reference(
            X, np.where(t == c, 1, -1), eta=eta, max_iter=len(orders),
            fit_intercept=fit_intercept, orders=orders, margin=margin,
            sample_weight=sample_weight, w0=None if W0 is None else W0[c],
            b0=0.0 if b0 is None else b0[c])
        W[c], b[c] = w_c, b_c
        total[:len(mistakes)] += mistakes
        epochs.append(len(mistakes))
    return W, b, total[:max(epochs)], epochs


def passive_aggressive_reference(X, y=None, *, C=1.0, variant="pa1", max_iter=5,
                                 fit_intercept=True, orders=None, sample_weight=None, t=None,
                                 k=None, average=False, dot=None, axpy=None):
    """PA-I and PA-II (Crammer, Dekel, Keshet, Shalev-Shwartz and Singer
    2006, "Online Passive-Aggressive Algorithms", JMLR 7), one Python step
    per row.  Binary (y in {-1, +1}; sections 3 and 8):

        l = max(0, 1 - y*(w.x + b))                the hinge loss
        if l > 0:
            PA-I:  tau = min(C, l/||x||^2)         (0 when x = 0)
            PA-II: tau = l/(||x||^2 + 1/(2C))
            w += tau*y*s*x;  b += tau*y*s          (fit_intercept)

    with s the sample weight (scikit-learn's factor) and the bias outside
    ||x||^2.  With class indices t of k classes, one weight vector per class
    and the max-loss update of section 7: r the best-scoring other class
    (the first of equal ones), l = max(0, 1 - (a_t - a_r)), ||x||^2 doubled
    (the norm of the update direction, +x for t and -x for r), and class t
    moves by +tau*s*x, class r by -tau*s*x.  A mistake is y*a <= 0 (a_t <=
    a_r); the loss is the weighted sum of l, raw the unweighted one.

    dot(x, w) and axpy(a, x, w) default to numpy; ||x||^2 is dot(x, x).
    average: the explicit mean of the weights after every row.  Returns a
    dict: W (k, d), b (k,), and per epoch mistakes, updates, loss, raw.
    """
    X = np.asarray(X)
    n, d = X.shape
    T = X.dtype.type
    multi = t is not None
    kc = k if multi else 1
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    dot, axpy = _row_ops(X, dot, axpy)

    def tau(loss, q):
        if variant == "pa1":
            return 0.0 if q == 0.0 else min(loss / q, C)
        return loss / (q + 0.5 / C)

    W = np.zeros((kc, d), dtype=X.dtype)
    b = np.zeros(kc)
    S, Sb, steps = np.zeros((kc, d)), np.zeros(kc), 0
    hist = {key: [] for key in ("mistakes", "updates", "loss", "raw")}
    for epoch in range(max_iter):
        order = range(n) if orders is None else orders[epoch]
        m = upd = 0
        loss = raw = 0.0
        for i in order:
            x = X[i]
            if multi:
                acts = [dot(x, W[j]) + b[j] for j in range(kc)]
                r = min((j for j in range(kc) if j != t[i]), key=lambda j: (-acts[j], j))
                ya = acts[t[i]] - acts[r]
            else:
                ya = y[i] * (dot(x, W[0]) + b[0])
            hinge = max(0.0, 1.0 - ya)
            if hinge > 0.0:
                m += ya <= 0.0
                upd += 1
                loss += s[i] * hinge
                raw += hinge
                q = dot(x, x)
                if multi:
                    step = tau(hinge, 2.0 * q) * s[i]
                    moves = ((t[i], step), (r, -step))
                else:
                    moves = ((0, tau(hinge, q) * y[i] * s[i]),)
                for j, a in moves:
                    axpy(a, x, W[j])
                    if fit_intercept:
                        b[j] += a
            S += W
            Sb += b
            steps += 1
        for key, value in zip(hist, (m, upd, loss, raw)):
            hist[key].append(value)
    out = {key: np.array(v) for key, v in hist.items()}
    if average:
        out["W"], out["b"] = (S / steps).astype(X.dtype), Sb / steps
    else:
        out["W"], out["b"] = W, b
    return out

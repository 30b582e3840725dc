"""Kernel perceptron (rbf) fit and predict: perceptron vs numpy vs scikit-learn's SVC.

Run:  python benchmarks/bench_kernel.py [--n 20000] [--d 50] [--epochs 5] [--repeat 3]

Data: n x d float64 drawn from 40 Gaussian clusters (centres N(0, 0.36 I),
unit noise), labelled +1/-1 alternately: a boundary no hyperplane draws, on
which the rbf perceptron keeps learning for many epochs (the mistakes per
epoch fall; accuracy on n fresh rows about 0.86).  Every fit runs `--epochs`
epochs (max_iter, no early stop) with gamma = 'scale' and the same shuffled
row order, and must make the same mistakes (checked and printed).

- fit: this package's KernelPerceptron (default parameters, so a Gram cache
  of 200 MB of the 3200 MB matrix; on one thread and on all) against two
  vectorised numpy implementations of the same algorithm, written below,
  each run with numpy's BLAS on one thread and on its default threads:
  * "numpy, textbook": the dual perceptron as written in the papers, the
    activation of each visited row computed against the support vectors so
    far (one BLAS matrix-vector product, one exp over them);
  * "numpy, kept activations": the bookkeeping of this package, the
    activations of all rows kept in one vector, the next mistake of the
    epoch found by one vectorised scan, and a mistake adding its kernel
    column (one BLAS matrix-vector product over all rows) to the vector.
  Neither needs an n^2 Gram matrix.  The ratios: the best time of each
  against the best of the other, and one thread against one thread (the
  steadier measure on a shared machine).
- predict: decision on n fresh rows against scikit-learn's SVC.predict with
  the same number of support vectors: an SVC(rbf, same gamma) fitted on our
  support vectors with a small C, so that nearly every one of them is a
  support vector of the SVC too; the ratio is per support vector when the
  counts differ (the cost of both is linear in it).  Ours uses the available threads (scikit-learn's predict uses
  one); the one-thread time is printed as well.

Timings are the best of --repeat runs (numpy's: one run for each BLAS
setting, the best kept), as the machine may be shared and noisy.
"""
import argparse
import os
import time
import warnings

import numpy as np

from _common import best_time, header, verdict

import perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.parallel import available_threads
from perceptron._common.validation import check_random_seed


def make_data(n, d, seed):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, d)) * 0.6
    labels = np.where(np.arange(40) % 2 == 0, 1, -1)
    z = rng.integers(0, 40, size=n)
    return centres[z] + rng.standard_normal((n, d)), labels[z]


def numpy_textbook(X, y, gamma, orders, eta=1.0):
    """The dual perceptron with rbf kernel as in the papers, vectorised over
    the support vectors: for each visited row, a = sum_j eta alpha_j y_j
    K(x_j, x_i) + b; if y_i a <= 0: alpha_i += 1, b += eta y_i.  The support
    vectors are kept compact (appended on entry) with their squared norms.
    Returns alpha, b, mistakes per epoch."""
    n, d = X.shape
    sq = np.einsum("ij,ij->i", X, X)
    S = np.empty((n, d))
    s_sq = np.empty(n)
    coef = np.zeros(n)
    slot = np.full(n, -1)
    alpha = np.zeros(n, dtype=np.int64)
    b, k, mistakes = 0.0, 0, []
    for order in orders:
        m = 0
        for i in order:
            a = b
            if k:
                dist = s_sq[:k] + sq[i] - 2.0 * (S[:k] @ X[i])
                a += coef[:k] @ np.exp(-gamma * np.maximum(dist, 0.0))
            if y[i] * a <= 0:
                if slot[i] < 0:
                    slot[i] = k
                    S[k], s_sq[k] = X[i], sq[i]
                    k += 1
                coef[slot[i]] += eta * y[i]
                b += eta * y[i]
                alpha[i] += 1
                m += 1
        mistakes.append(m)
    return alpha, b, np.array(mistakes)


def numpy_kept_activations(X, y, gamma, orders, eta=1.0):
    """The same algorithm with the activations of all rows kept: a mistake on
    row i adds eta y_i K(., x_i) (one kernel column) to them.  Returns alpha,
    b, mistakes per epoch."""
    n = X.shape[0]
    sq = np.einsum("ij,ij->i", X, X)
    yf = y.astype(np.float64)
    f = np.zeros(n)  # sum_j eta alpha_j y_j K(x_j, x_i) for every row i
    alpha = np.zeros(n, dtype=np.int64)
    b = 0.0
    mistakes = []
    for order in orders:
        y_order = yf[order]
        k, m = 0, 0
        while k < n:
            # the next row of this epoch (from position k) with y a <= 0
            wrong = np.flatnonzero(y_order[k:] * (f[order[k:]] + b) <= 0)
            if wrong.size == 0:
                break
            k += wrong[0]
            i = order[k]
            column = np.exp(-gamma * np.maximum(sq + sq[i] - 2.0 * (X @ X[i]), 0.0))
            f += eta * yf[i] * column
            b += eta * yf[i]
            alpha[i] += 1
            k += 1
            m += 1
        mistakes.append(m)
    return alpha, b, np.array(mistakes)


def blas_limits():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    header(f"bench_kernel: rbf kernel perceptron, {args.n} x {args.d} float64, "
           f"{args.epochs} epochs, best of {args.repeat}")

    X_all, y_all = make_data(2 * args.n, args.d, seed=0)
    X, y, X_test, y_test = X_all[:args.n], y_all[:args.n], X_all[args.n:], y_all[args.n:]
    params = dict(kernel="rbf", max_iter=args.epochs, random_state=0)
    model = perceptron.KernelPerceptron(n_jobs=-1, **params)
    t_all = best_time(lambda: model.fit(X, y), repeat=args.repeat, warmup=0)
    one = perceptron.KernelPerceptron(**params)
    t_one = best_time(lambda: one.fit(X, y), repeat=args.repeat, warmup=0)
    t_ours = min(t_all, t_one)
    print(f"\n## fit: {args.n} rows, gamma {model.gamma_:.4g}, mistakes per epoch "
          f"{model.mistakes_.tolist()}, {len(model.support_)} support vectors, accuracy on "
          f"{args.n} fresh rows {model.score(X_test, y_test):.3f}")
    stats = model.cache_stats_
    print(f"perceptron KernelPerceptron:   {t_one:7.3f} s on one thread, {t_all:7.3f} s on "
          f"{available_threads()} (Gram cache {stats['capacity']} columns of {args.n}: "
          f"{stats['computed']} computed, {stats['reused']} updates from the cache)")

    orders = shuffled_orders(args.n, args.epochs, check_random_seed(0))
    limits = blas_limits()
    if limits is None:
        print("# threadpoolctl is not installed: numpy runs on its default BLAS threads only")
    for name, peer in (("numpy, textbook", numpy_textbook),
                       ("numpy, kept activations", numpy_kept_activations)):
        times = {}
        for threads in ((1, None) if limits is not None else (None,)):
            start = time.perf_counter()
            if threads is None:
                _, _, mistakes = peer(X, y, model.gamma_, orders)
            else:
                with limits(threads):
                    _, _, mistakes = peer(X, y, model.gamma_, orders)
            times[threads] = time.perf_counter() - start
            if not np.array_equal(mistakes, model.mistakes_):
                print(f"# {name}: DIFFERENT mistakes {mistakes.tolist()}")
        t_numpy = min(times.values())
        line = f"{name + ':':30s} {t_numpy:7.3f} s best"
        if 1 in times:
            line += (f" ({times[1]:.3f} s with BLAS on one thread, {times[None]:.3f} s on its "
                     "default)")
        print(line)
        print(f"    -> perceptron is {t_numpy / t_ours:.1f}x faster, best against best "
              f"[{verdict(t_numpy / t_ours, 5)}]" +
              (f"; one thread against one: {times[1] / t_one:.1f}x "
               f"[{verdict(times[1] / t_one, 5)}]" if 1 in times else ""))

    try:
        from sklearn.svm import SVC
    except ImportError:
        print("\nscikit-learn is not installed: the SVC comparison is skipped")
        return
    sv = model.support_vectors_
    svc = SVC(kernel="rbf", gamma=model.gamma_, C=1e-3).fit(sv, y[model.support_])
    n_ours, n_svc = len(sv), int(svc.n_support_.sum())
    t_pred = best_time(lambda: model.decision_function(X_test), repeat=args.repeat)
    os.environ["PERCEPTRON_NUM_THREADS"] = "1"
    t_pred1 = best_time(lambda: model.decision_function(X_test), repeat=args.repeat)
    del os.environ["PERCEPTRON_NUM_THREADS"]
    t_svc = best_time(lambda: svc.predict(X_test), repeat=args.repeat)
    ratio = (t_svc / n_svc) / (t_pred / n_ours)
    print(f"\n## predict {args.n} rows against {n_ours} support vectors "
          f"(SVC: {n_svc} support vectors)")
    print(f"perceptron decision_function: {t_pred * 1e3:8.1f} ms on {available_threads()} threads, "
          f"{t_pred1 * 1e3:8.1f} ms on one")
    print(f"scikit-learn SVC.predict:     {t_svc * 1e3:8.1f} ms (one thread)")
    per_sv = "" if n_ours == n_svc else " per support vector"
    print(f"predict: perceptron is {ratio:.1f}x faster than SVC{per_sv} "
          f"[{verdict(ratio, 1)}]; on one thread {(t_svc / n_svc) / (t_pred1 / n_ours):.1f}x")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"# total {time.perf_counter() - start:.0f} s")

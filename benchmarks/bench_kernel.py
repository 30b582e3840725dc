"""Kernel perceptron (rbf) fit and predict: perceptron vs numpy vs scikit-learn's SVC.

Run:  python benchmarks/bench_kernel.py [--n 20000] [--d 50] [--epochs 5] [--repeat 3]

Data: n x d float64 drawn from 40 Gaussian clusters (centres N(0, 0.36 I),
unit noise), labelled +1/-1 alternately: a boundary no hyperplane draws, on
which the rbf perceptron keeps learning for many epochs (the mistakes per
epoch fall, test accuracy about 0.9).  Both fits run `--epochs` epochs
(max_iter, no early stop), gamma = 'scale', the same shuffled row order.

- fit: this package's KernelPerceptron (one thread, the default cache_size)
  against a vectorised numpy implementation of the same algorithm, written
  below: the activations of all rows are kept in one vector; the next
  mistake of the epoch is found by one vectorised scan; a mistake on row i
  computes the kernel column exp(-gamma ||x - x_i||^2) against every row
  with one BLAS matrix-vector product (||x||^2 + ||x_i||^2 - 2 x.x_i) and
  adds it to the activations.  It needs no n^2 Gram matrix (3.2 GB here);
  its BLAS runs with the thread count that is fastest on this machine,
  measured first.  The two must reach the same mistake counts (the check is
  printed).
- predict: decision on n fresh rows against scikit-learn's SVC.predict with
  the same number of support vectors: an SVC(rbf, same gamma) fitted on our
  support vectors with a small C, so that every one of them is a support
  vector of the SVC too; the ratio is per support vector if the counts
  differ.  Ours uses the available threads (scikit-learn's predict uses
  one); the one-thread time is printed as well.

Timings are the best of --repeat runs (the machine may be shared and noisy).
"""
import argparse
import os
import time
import warnings

import numpy as np

from _common import best_time, header, verdict

import perceptron
from perceptron._online import shuffled_orders
from perceptron._parallel import available_threads
from perceptron._validation import check_random_seed


def make_data(n, d, seed):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, d)) * 0.6
    labels = np.where(np.arange(40) % 2 == 0, 1, -1)
    z = rng.integers(0, 40, size=n)
    return centres[z] + rng.standard_normal((n, d)), labels[z]


def numpy_dual_perceptron(X, y, gamma, orders, eta=1.0):
    """The dual perceptron with rbf kernel, vectorised with numpy (no Gram matrix).

    Same algorithm, same row orders as KernelPerceptron(shuffle=True):
    a_i = sum_j eta alpha_j y_j K(x_j, x_i) + b; if y_i a_i <= 0:
    alpha_i += 1, b += eta y_i.  Returns alpha, b, mistakes per epoch.
    """
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


def fastest_blas_threads(X, gamma):
    """The BLAS thread count (1 or the default) that computes a kernel column fastest."""
    limits = blas_limits()
    sq = np.einsum("ij,ij->i", X, X)

    def column():
        np.exp(-gamma * np.maximum(sq + sq[7] - 2.0 * (X @ X[7]), 0.0))

    if limits is None:
        return None, best_time(column, repeat=20)
    with limits(1):
        one = best_time(column, repeat=20)
    default = best_time(column, repeat=20)
    return (1, one) if one <= default else (None, default)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    header(f"bench_kernel: rbf kernel perceptron, {args.n} x {args.d} float64, {args.epochs} epochs, "
           f"best of {args.repeat}")

    X, y = make_data(args.n, args.d, seed=0)
    X_test, y_test = make_data(args.n, args.d, seed=1)
    model = perceptron.KernelPerceptron(kernel="rbf", max_iter=args.epochs, random_state=0)
    t_ours = best_time(lambda: model.fit(X, y), repeat=args.repeat, warmup=0)
    print(f"\n## fit: {args.n} rows, gamma {model.gamma_:.4g}, mistakes per epoch "
          f"{model.mistakes_.tolist()}, {len(model.support_)} support vectors, "
          f"test accuracy {model.score(X_test, y_test):.3f}")
    stats = model.cache_stats_
    print(f"perceptron KernelPerceptron: {t_ours:7.3f} s  (Gram cache {stats['capacity']} columns "
          f"of {args.n}: {stats['computed']} computed, {stats['reused']} updates from the cache)")

    threads, t_column = fastest_blas_threads(X, model.gamma_)
    orders = shuffled_orders(args.n, args.epochs, check_random_seed(0))
    limits = blas_limits()
    result = {}

    def peer():
        if threads is not None and limits is not None:
            with limits(threads):
                result["out"] = numpy_dual_perceptron(X, y, model.gamma_, orders)
        else:
            result["out"] = numpy_dual_perceptron(X, y, model.gamma_, orders)

    t_numpy = best_time(peer, repeat=max(1, min(args.repeat, 2)), warmup=0)
    alpha, b, mistakes = result["out"]
    same = np.array_equal(mistakes, model.mistakes_)
    print(f"numpy dual perceptron:       {t_numpy:7.3f} s  (BLAS threads: "
          f"{threads or 'default'}; one kernel column {t_column * 1e3:.2f} ms; mistakes "
          f"{mistakes.tolist()}: {'the same' if same else 'DIFFERENT'})")
    print(f"fit: perceptron is {t_numpy / t_ours:.1f}x faster than numpy "
          f"[{verdict(t_numpy / t_ours, 5)}]")

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
    print(f"perceptron decision_function: {t_pred * 1e3:8.1f} ms on "
          f"{available_threads()} threads, {t_pred1 * 1e3:8.1f} ms on one")
    print(f"scikit-learn SVC.predict:     {t_svc * 1e3:8.1f} ms (one thread)")
    per_sv = "" if n_ours == n_svc else " per support vector"
    print(f"predict: perceptron is {ratio:.1f}x faster than SVC{per_sv} "
          f"[{verdict(ratio, 1)}]; on one thread {(t_svc / n_svc) / (t_pred1 / n_ours):.1f}x")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"# total {time.perf_counter() - start:.0f} s")

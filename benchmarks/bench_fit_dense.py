"""Dense fit and predict: perceptron vs scikit-learn vs one numpy X @ w pass.

Run:  python benchmarks/bench_fit_dense.py [--n 200000] [--d 256] [--repeat 3]

On a separable 200,000 x 256 problem, 5 epochs (max_iter=5, no early stop),
float32 and float64, shuffle off and on, in one run:

- this package's Perceptron;
- sklearn.linear_model.Perceptron(max_iter=5, tol=None, shuffle=...);
- one pass of numpy X @ w (BLAS, with its default threads): the memory
  bandwidth yardstick for an epoch, and the peer of predict;
- one pass of X[order] @ w in a random order, by this package's scoring
  loop on one thread: the floor of a shuffled epoch, which must read every
  row once in random order (printed as the ratio to scikit-learn a shuffled
  epoch would have at that floor).

Then the small-data case (the breast cancer data shipped in the package,
569 x 30, scikit-learn's bundled data set) where per-call overhead counts, and
the peak memory of a float32 fit.  Prints rows/s and the ratios with the
issue's targets.
"""
import argparse
import warnings

import numpy as np

from _common import best_time, blas_threads, header, peak_alloc, verdict

import perceptron
from perceptron._core import decision as _decision
from perceptron.datasets import load_breast_cancer


def make_data(n, d, dtype, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d), dtype=np.float32).astype(dtype, copy=False)
    w = rng.standard_normal(d)
    y = np.where(X @ w.astype(dtype) > 0, 1, -1)
    return X, y


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--d", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    try:
        from sklearn.linear_model import Perceptron as SkPerceptron
    except ImportError:
        SkPerceptron = None
    warnings.simplefilter("ignore")

    header(f"bench_fit_dense: {args.n} x {args.d}, {args.epochs} epochs, best of {args.repeat}")
    print(f"# numpy BLAS threads: {blas_threads()}")
    n, epochs = args.n, args.epochs

    for dtype in (np.float32, np.float64):
        X, y = make_data(n, args.d, dtype)
        name = np.dtype(dtype).name
        w = np.ones(args.d, dtype=dtype)
        t_gemv = best_time(lambda: X @ w, repeat=max(args.repeat, 5))
        print(f"\n## {name}: X is {X.nbytes / 1e6:.0f} MB; one numpy X @ w pass {t_gemv * 1e3:.2f} ms "
              f"({X.nbytes / t_gemv / 1e9:.1f} GB/s)")
        # A shuffled epoch must read every row once in random order: its floor
        # is one pass of X[order] @ w in that order, which this package's
        # scoring loop makes on one thread, prefetching the rows ahead.
        order = np.random.default_rng(1).permutation(n).astype(np.intp)
        W1, b1, out1 = w[None, :].copy(), np.zeros(1), np.empty((n, 1))
        t_random = best_time(lambda: _decision.decision_dense(X, W1, b1, out1, order),
                             repeat=max(args.repeat, 5))
        print(f"one random-order pass X[order] @ w (one thread): {t_random * 1e3:.2f} ms "
              f"({X.nbytes / t_random / 1e9:.1f} GB/s): the floor of a shuffled epoch")
        for shuffle in (False, True):
            ours = perceptron.Perceptron(tol=None, max_iter=epochs, shuffle=shuffle, random_state=0)
            t_ours = best_time(lambda: ours.fit(X, y), repeat=args.repeat)
            assert ours.n_iter_ == epochs, "the benchmark needs every epoch to run"
            rate = n * epochs / t_ours
            epoch = t_ours / epochs
            line = (f"fit {name} shuffle={'on ' if shuffle else 'off'}: perceptron "
                    f"{rate / 1e6:6.2f} M rows/s, epoch {epoch * 1e3:6.2f} ms = "
                    f"{epoch / t_gemv:.2f}x one X @ w pass")
            if not shuffle:
                line += f" [{verdict(epoch / t_gemv, 1.2, higher_is_better=False)}]"
            else:
                line += f" = {epoch / t_random:.2f}x one random-order pass"
            print(line)
            if SkPerceptron is not None:
                sk = SkPerceptron(max_iter=epochs, tol=None, shuffle=shuffle, random_state=0)
                t_sk = best_time(lambda: sk.fit(X, y), repeat=args.repeat, warmup=0)
                target = 6.0 if shuffle else (4.0 if dtype is np.float32 else 2.0)
                print(f"    scikit-learn {n * epochs / t_sk / 1e6:6.2f} M rows/s -> perceptron is "
                      f"{t_sk / t_ours:.2f}x faster [{verdict(t_sk / t_ours, target)}]")
                if shuffle:
                    print(f"    (an epoch as fast as one random-order pass would be "
                          f"{t_sk / epochs / t_random:.2f}x scikit-learn's)")
        model = perceptron.Perceptron(tol=None, max_iter=epochs, random_state=0).fit(X, y)
        t_pred = best_time(lambda: model.predict(X), repeat=max(args.repeat, 5))
        print(f"predict {name}: {t_pred * 1e3:.2f} ms = {t_pred / t_gemv:.2f}x one X @ w pass "
              f"[{verdict(t_pred / t_gemv, 1.2, higher_is_better=False)}]")
        if SkPerceptron is not None:
            skm = SkPerceptron(max_iter=epochs, tol=None, random_state=0).fit(X, y)
            t_skp = best_time(lambda: skm.predict(X), repeat=max(args.repeat, 5))
            print(f"    scikit-learn predict {t_skp * 1e3:.2f} ms ({t_skp / t_pred:.2f}x ours)")
        if dtype is np.float32:
            peak = peak_alloc(lambda: perceptron.Perceptron(tol=None, max_iter=epochs,
                                                            random_state=0).fit(X, y))
            print(f"peak memory allocated by a float32 fit: {peak / 1e6:.2f} MB for a "
                  f"{X.nbytes / 1e6:.0f} MB X ({peak / X.nbytes:.4f} of X: "
                  f"{'no copy of X' if peak < X.nbytes / 2 else 'X WAS COPIED'})")
            if SkPerceptron is not None:
                peak_sk = peak_alloc(lambda: SkPerceptron(max_iter=epochs, tol=None).fit(X, y))
                print(f"    scikit-learn: {peak_sk / 1e6:.2f} MB")
        del X, y

    ds = load_breast_cancer()
    X = (ds.data - ds.data.mean(axis=0)) / ds.data.std(axis=0)
    y = ds.target
    print(f"\n## small data: breast cancer {X.shape[0]} x {X.shape[1]} float64, whole fit")
    times = {}
    for max_iter in (5, 100):
        ours = perceptron.Perceptron(tol=None, max_iter=max_iter, random_state=0)
        t_ours = best_time(lambda: ours.fit(X, y), repeat=20)
        line = f"fit max_iter={max_iter}: perceptron {t_ours * 1e6:8.1f} us"
        if SkPerceptron is not None:
            sk = SkPerceptron(max_iter=max_iter, tol=None, random_state=0)
            t_sk = best_time(lambda: sk.fit(X, y), repeat=20)
            line += (f", scikit-learn {t_sk * 1e6:8.1f} us -> {t_sk / t_ours:.1f}x faster "
                     f"[{verdict(t_sk / t_ours, 10)}]")
            times[max_iter] = (t_ours, t_sk)
        print(line)
    if len(times) == 2:
        # the two fits differ by 95 shuffled epochs: a fixed part and a part per epoch
        (o5, s5), (o100, s100) = times[5], times[100]
        epoch, epoch_sk = (o100 - o5) / 95, (s100 - s5) / 95
        fixed, fixed_sk = o5 - 5 * epoch, s5 - 5 * epoch_sk
        print(f"    a fit = a fixed part + a part per shuffled epoch: perceptron "
              f"{fixed * 1e6:.1f} + {epoch * 1e6:.2f} us, scikit-learn {fixed_sk * 1e6:.1f} + "
              f"{epoch_sk * 1e6:.2f} us (an epoch {epoch_sk / epoch:.1f}x, the fixed part "
              f"{fixed_sk / fixed:.1f}x)")
    if SkPerceptron is not None:
        sk = SkPerceptron(random_state=0)
        t_sk = best_time(lambda: sk.fit(X, y), repeat=20)
        print(f"    (scikit-learn with its defaults, tol=1e-3 early stop after {sk.n_iter_} epochs: "
              f"{t_sk * 1e6:.1f} us)")


if __name__ == "__main__":
    main()

"""The perceptron family: speed against scikit-learn, and accuracy on real data.

Run:  python benchmarks/bench_family.py [--repeat 3] [--a9a PATH]

1. Multiclass, 10 classes, 100,000 x 100 dense float32, 5 epochs:
   multinomial and one-vs-rest against scikit-learn's one-vs-rest Perceptron
   (n_jobs=1), in the same run (targets: >= 10x and >= 4x).
2. The averaged perceptron's cost over the plain fit (target <= 1.3x), with
   scikit-learn's averaged SGD (loss="perceptron", average=True) beside it.
3. Held-out accuracy on a9a (real, not separable): every variant beside
   scikit-learn's Perceptron and averaged SGD.
4. Held-out accuracy on scikit-learn's bundled digits (10 classes).
"""
import argparse
import os
import warnings

import numpy as np

from _common import best_time, header, verdict

import perceptron
from perceptron import CentroidClassifier, Perceptron, VotedPerceptron

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_A9A = os.path.join(HERE, "..", "..", "shared", "data", "a9a")


def multiclass_data(n=100_000, d=100, k=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d), dtype=np.float32)
    W = rng.standard_normal((k, d)).astype(np.float32)
    y = np.argmax(X @ W.T, axis=1)
    return X, y


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--a9a", default=DEFAULT_A9A)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    try:
        from sklearn.linear_model import Perceptron as SkPerceptron, SGDClassifier
    except ImportError:
        SkPerceptron = SGDClassifier = None
    header("bench_family")

    X, y = multiclass_data()
    print(f"\n## multiclass: {X.shape[0]} x {X.shape[1]} float32, 10 classes, 5 epochs")
    times = {}
    for name, kw in [("multinomial", {"multiclass": "multinomial"}),
                     ("ovr n_jobs=1", {"multiclass": "ovr", "n_jobs": 1}),
                     ("ovr n_jobs=-1", {"multiclass": "ovr", "n_jobs": -1})]:
        model = Perceptron(max_iter=5, random_state=0, **kw)
        times[name] = best_time(lambda: model.fit(X, y), repeat=args.repeat)
        print(f"perceptron {name:14s} {times[name] * 1e3:8.1f} ms  "
              f"train accuracy {model.score(X, y):.4f}")
    if SkPerceptron is not None:
        sk = SkPerceptron(max_iter=5, tol=None, random_state=0, n_jobs=1)
        t_sk = best_time(lambda: sk.fit(X, y), repeat=args.repeat, warmup=0)
        print(f"scikit-learn OvR n_jobs=1  {t_sk * 1e3:8.1f} ms  train accuracy "
              f"{sk.score(X, y):.4f}")
        print(f"multinomial: {t_sk / times['multinomial']:.1f}x faster than scikit-learn "
              f"[{verdict(t_sk / times['multinomial'], 10)}]")
        best_ovr = min(times["ovr n_jobs=1"], times["ovr n_jobs=-1"])
        print(f"ovr:         {t_sk / times['ovr n_jobs=1']:.1f}x with one thread, "
              f"{t_sk / best_ovr:.1f}x at best [{verdict(t_sk / best_ovr, 4)}]")

    print("\n## averaged vs plain (binary, 200,000 x 100 float32, 5 epochs, shuffled)")
    rng = np.random.default_rng(1)
    Xb = rng.standard_normal((200_000, 100), dtype=np.float32)
    yb = np.where(Xb @ rng.standard_normal(100).astype(np.float32)
                  + 0.5 * rng.standard_normal(200_000).astype(np.float32) > 0, 1, -1)
    plain = Perceptron(max_iter=5, random_state=0)
    avg = Perceptron(max_iter=5, random_state=0, average=True)
    t_plain = best_time(lambda: plain.fit(Xb, yb), repeat=args.repeat)
    t_avg = best_time(lambda: avg.fit(Xb, yb), repeat=args.repeat)
    print(f"plain {t_plain * 1e3:.1f} ms, averaged {t_avg * 1e3:.1f} ms: averaged costs "
          f"{t_avg / t_plain:.2f}x the plain fit [{verdict(t_avg / t_plain, 1.3, False)}]")
    if SGDClassifier is not None:
        sk_plain = SkPerceptron(max_iter=5, tol=None, random_state=0)
        sk_avg = SGDClassifier(loss="perceptron", penalty=None, learning_rate="constant",
                               eta0=1.0, average=True, max_iter=5, tol=None, random_state=0)
        t_skp = best_time(lambda: sk_plain.fit(Xb, yb), repeat=args.repeat, warmup=0)
        t_ska = best_time(lambda: sk_avg.fit(Xb, yb), repeat=args.repeat, warmup=0)
        print(f"scikit-learn: Perceptron {t_skp * 1e3:.1f} ms, averaged SGD {t_ska * 1e3:.1f} ms "
              f"({t_ska / t_skp:.2f}x); ours averaged is {t_ska / t_avg:.1f}x faster than its "
              "averaged SGD")
    del Xb, yb

    if os.path.exists(args.a9a):
        from sklearn.datasets import load_svmlight_file

        Xs, ys = load_svmlight_file(args.a9a, n_features=123)
        Xa = Xs.toarray().astype(np.float32)
        order = np.random.default_rng(0).permutation(len(ys))
        train, test = order[:24000], order[24000:]
        print(f"\n## a9a: {len(train)} train / {len(test)} test rows, 123 features, 10 epochs, "
              "held-out accuracy")
        models = {
            "Perceptron": Perceptron(max_iter=10, random_state=0),
            "Perceptron(average=True)": Perceptron(max_iter=10, random_state=0, average=True),
            "Perceptron(pocket=True)": Perceptron(max_iter=10, random_state=0, pocket=True),
            "Perceptron(margin=1.0, average=True)": Perceptron(max_iter=10, random_state=0,
                                                               margin=1.0, average=True),
            "Perceptron(batch_size=64, average=True)": Perceptron(max_iter=10, random_state=0,
                                                                  batch_size=64, average=True),
            "Perceptron(early_stopping=True, average=True)": Perceptron(
                max_iter=50, random_state=0, early_stopping=True, average=True),
            "VotedPerceptron": VotedPerceptron(max_iter=10, random_state=0),
            "CentroidClassifier": CentroidClassifier(),
        }
        if SkPerceptron is not None:
            models["sklearn Perceptron"] = SkPerceptron(max_iter=10, tol=None, random_state=0)
            models["sklearn SGD(perceptron, average)"] = SGDClassifier(
                loss="perceptron", penalty=None, learning_rate="constant", eta0=1.0,
                average=True, max_iter=10, tol=None, random_state=0)
        for name, model in models.items():
            model.fit(Xa[train], ys[train])
            print(f"{name:48s} {model.score(Xa[test], ys[test]):.4f}")
    else:
        print(f"\n(a9a not found at {args.a9a}: its accuracies are skipped)")

    try:
        from sklearn.datasets import load_digits
    except ImportError:
        return
    Xd, yd = load_digits(return_X_y=True)
    Xd = Xd / 16.0
    order = np.random.default_rng(0).permutation(len(yd))
    train, test = order[:1400], order[1400:]
    print(f"\n## digits: {len(train)} train / {len(test)} test, 10 classes, 20 epochs, "
          "held-out accuracy")
    models = {
        "multinomial": Perceptron(multiclass="multinomial", max_iter=20, random_state=0),
        "multinomial averaged": Perceptron(multiclass="multinomial", average=True, max_iter=20,
                                           random_state=0),
        "ovr": Perceptron(max_iter=20, random_state=0),
        "ovr averaged": Perceptron(average=True, max_iter=20, random_state=0),
        "centroid": CentroidClassifier(),
    }
    if SkPerceptron is not None:
        models["sklearn Perceptron (ovr)"] = SkPerceptron(max_iter=20, tol=None, random_state=0)
    for name, model in models.items():
        model.fit(Xd[train], yd[train])
        print(f"{name:28s} {model.score(Xd[test], yd[test]):.4f}")


if __name__ == "__main__":
    main()

"""Default fits: perceptron's Perceptron() against scikit-learn's Perceptron().

Run:  python benchmarks/bench_sklearn_defaults.py [--a9a PATH] [--repeat 5]

Both estimators with their defaults (the same ones: tol=1e-3,
n_iter_no_change=5, shuffle=True, random_state=0, max_iter=1000), trained on
a9a (its test file a9a.t beside it when present, else a held-out fifth of
a9a, split with a fixed seed), on dense float64 rows and on CSR rows: the
fit's wall time, the epochs its stopping rule ran and the test accuracy,
side by side, with the time ratio.  Then the same unshuffled
(shuffle=False), where on dense rows the two fits are the same computation
(same ``n_iter_`` and ``coef_``), so the ratio is the speed of equal work.
On CSR rows scikit-learn multiplies the intercept's steps by 0.01 (its
``intercept_decay`` for sparse data) and this package does not (a sparse fit
equals the dense one), so there the two fits differ; the shuffled fits
differ anyway (each library has its own generator).

Then the penalty fits (penalty="l2", "l1", "elasticnet" with scikit-learn's
alpha and l1_ratio) side by side, once the compiled loops apply them; until
then the script says that they are not available.
"""
import argparse
import os
import warnings

import numpy as np

from _common import best_time, header

import perceptron
from perceptron.io import load_svmlight

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_A9A = os.path.join(HERE, "..", "..", "shared", "data", "a9a")


def load(path):
    X, y = load_svmlight(path, n_features=123)
    test = path + ".t"
    if os.path.exists(test):
        Xt, yt = load_svmlight(test, n_features=123)
        return X, y, Xt, yt, "a9a.t"
    order = np.random.default_rng(0).permutation(X.shape[0])
    cut = X.shape[0] * 4 // 5
    train, held = np.sort(order[:cut]), np.sort(order[cut:])
    return X[train], y[train], X[held], y[held], "a held-out fifth of a9a"


def side_by_side(title, make_ours, make_sk, X, y, Xt, yt, repeat):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, sk = make_ours(), make_sk()
        t_ours = best_time(lambda: ours.fit(X, y), repeat=repeat)
        line = (f"{title}: perceptron {t_ours * 1e3:7.2f} ms, {ours.n_iter_:3d} epochs, "
                f"test accuracy {ours.score(Xt, yt):.4f}")
        if sk is None:
            print(line)
            return
        t_sk = best_time(lambda: sk.fit(X, y), repeat=repeat)
        print(line)
        print(f"{' ' * len(title)}  scikit-learn {t_sk * 1e3:7.2f} ms, {sk.n_iter_:3d} epochs, "
              f"test accuracy {sk.score(Xt, yt):.4f} -> perceptron is {t_sk / t_ours:.2f}x faster")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a9a", default=DEFAULT_A9A)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        from sklearn.linear_model import Perceptron as SkPerceptron
    except ImportError:
        SkPerceptron = None
    header("bench_sklearn_defaults: Perceptron() against scikit-learn's Perceptron()")
    if not os.path.exists(args.a9a):
        print(f"(a9a not found at {args.a9a}; pass --a9a PATH)")
        return
    X, y, Xt, yt, test_name = load(args.a9a)
    print(f"## a9a: {X.shape[0]} training rows, test on {test_name} ({Xt.shape[0]} rows)")

    def sk(**kw):
        return (lambda: SkPerceptron(**kw)) if SkPerceptron is not None else (lambda: None)

    for name, (A, At) in (("dense", (X.toarray(), Xt.toarray())), ("CSR", (X, Xt))):
        side_by_side(f"default fit, {name:5s}", lambda: perceptron.Perceptron(), sk(),
                     A, y, At, yt, args.repeat)
        side_by_side(f"shuffle=False, {name:5s}", lambda: perceptron.Perceptron(shuffle=False),
                     sk(shuffle=False), A, y, At, yt, args.repeat)

    print("## penalties (same alpha and l1_ratio as scikit-learn's defaults)")
    dense, dense_t = X.toarray(), Xt.toarray()
    for penalty in ("l2", "l1", "elasticnet"):
        side_by_side(f"penalty={penalty!r}", lambda: perceptron.Perceptron(penalty=penalty),
                     sk(penalty=penalty), dense, y, dense_t, yt, args.repeat)


if __name__ == "__main__":
    main()

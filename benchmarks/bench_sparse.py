"""Sparse fit: perceptron vs scikit-learn vs one scipy CSR X @ w pass.

Run:  python benchmarks/bench_sparse.py [--n 500000] [--d 262144] [--nnz 50]
      [--repeat 3] [--a9a PATH]

fit, 5 epochs (max_iter=5, tol=None for scikit-learn), shuffle off and on, in
one run:

(a) a synthetic n x d CSR float32 matrix (int32 indices) with about `nnz`
    non-zeros a row, labels from a hidden hyperplane: an epoch against one
    scipy ``X @ w`` CSR pass on the same matrix (target: within 1.2x), and
    rows/s against scikit-learn's Perceptron (target: 1.5x).  "epoch" is
    the mean wall time of the 5 epochs inside a fit, from the fit's own
    per-epoch timing (``callback``, perceptron.EpochInfo.seconds); the whole
    fit / 5 is printed beside it, the difference being the one-time check of
    X (every index read once: about a third of a pass).  Then where the
    epoch's time goes: 30 epochs' wall times fitted on their numbers of
    updates (what an epoch without updates costs, and what an update adds);
(b) a9a (32,561 x 123, 14 non-zeros a row, read by perceptron.io.load_svmlight):
    rows/s against scikit-learn (target: 3x; short rows, where per-row
    overhead shows).  Then each library's fit split into a fixed part and a
    part per epoch (fits of 5 and 10 epochs, shuffle off).

scikit-learn trains float64 CSR whatever it is given (it converts float32
once per fit, inside the timed call, as a user would see it).
"""
import argparse
import os
import warnings

import numpy as np

from _common import best_time, header, verdict

import perceptron
from perceptron.io import load_svmlight

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_A9A = os.path.join(HERE, "..", "..", "shared", "data", "a9a")


def make_sparse(n, d, nnz, seed=0):
    """CSR float32 with about nnz distinct sorted columns a row, and labels."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, d, size=(n, nnz), dtype=np.int32), axis=1)
    keep = np.ones(cols.shape, dtype=bool)
    keep[:, 1:] = cols[:, 1:] != cols[:, :-1]  # drop a column drawn twice in a row
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(keep.sum(axis=1), out=indptr[1:])
    indices = cols[keep]
    data = rng.standard_normal(len(indices), dtype=np.float32)
    X = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    w = rng.standard_normal(d).astype(np.float32)
    y = np.where(X @ w > 0, 1, -1)
    return X, y


def epoch_times(X, y, epochs, shuffle, repeat):
    """Best over `repeat` fits of the mean wall time of their epochs, as the
    fit itself times them (EpochInfo.seconds, by the callback)."""
    best = float("inf")
    for _ in range(repeat):
        times = []
        perceptron.Perceptron(tol=None, max_iter=epochs, shuffle=shuffle, random_state=0,
                              callback=lambda info: times.append(info.seconds)).fit(X, y)
        assert len(times) == epochs
        best = min(best, sum(times) / epochs)
    return best


def update_cost(X, y, epochs, t_pass):
    """Where an epoch's time goes: a least-squares fit, over `epochs` epochs
    of one shuffle-off fit, of each epoch's wall time (EpochInfo.seconds) on
    its number of updates.  The intercept is what an epoch with no update
    would cost (reading and scoring every row), the slope what each update
    adds; scipy's pass does neither update."""
    infos = []

    def record(info):
        infos.append((info.updates, info.seconds))

    perceptron.Perceptron(tol=None, max_iter=epochs, shuffle=False, random_state=0,
                          callback=record).fit(X, y)
    updates, seconds = np.array(infos, dtype=np.float64).T
    if len(updates) < 3 or np.ptp(updates) == 0:
        return
    slope, intercept = np.polyfit(updates, seconds, 1)
    first = updates[:5].mean()
    print(f"    where an epoch goes ({len(updates)} epochs, epoch time on updates, least squares): "
          f"{intercept * 1e3:.2f} ms + {slope * 1e9:.0f} ns an update")
    print(f"    an epoch without updates: {intercept / t_pass:.2f}x one X @ w pass; the first "
          f"5 epochs make {first:.0f} updates each ({first / X.shape[0]:.0%} of the rows): "
          f"+{slope * first * 1e3:.2f} ms")


def fixed_and_epoch(title, X, y, X_sk, repeat, SkPerceptron):
    """A fit's time split into a fixed part and a part per epoch, from fits
    of 5 and 10 epochs (shuffle off), for both libraries."""
    def split(make, X_):
        t5 = best_time(lambda: make(5).fit(X_, y), repeat=repeat)
        t10 = best_time(lambda: make(10).fit(X_, y), repeat=repeat)
        per_epoch = (t10 - t5) / 5
        return t5 - 5 * per_epoch, per_epoch

    fixed, per_epoch = split(
        lambda e: perceptron.Perceptron(tol=None, max_iter=e, shuffle=False, random_state=0), X)
    line = (f"    {title}, shuffle off: perceptron {fixed * 1e3:.2f} ms a fit + "
            f"{per_epoch * 1e3:.3f} ms an epoch")
    if SkPerceptron is not None:
        fixed_sk, per_epoch_sk = split(
            lambda e: SkPerceptron(max_iter=e, tol=None, shuffle=False, random_state=0), X_sk)
        line += (f"; scikit-learn {fixed_sk * 1e3:.2f} ms + {per_epoch_sk * 1e3:.3f} ms "
                 f"(an epoch {per_epoch_sk / per_epoch:.2f}x, the fixed part "
                 f"{fixed_sk / fixed:.1f}x)")
    print(line)


def compare(title, X, y, epochs, repeat, sk_target, SkPerceptron, t_pass, pass_target):
    n = X.shape[0]
    # scikit-learn refuses int64 indices (scikit-learn issue 11355): it gets an int32 copy
    X_sk = X
    if X.indices.dtype != np.int32:
        X_sk = X.copy()
        X_sk.indices = X.indices.astype(np.int32)
        X_sk.indptr = X.indptr.astype(np.int32)
    for shuffle in (False, True):
        ours = perceptron.Perceptron(tol=None, max_iter=epochs, shuffle=shuffle, random_state=0)
        t_ours = best_time(lambda: ours.fit(X, y), repeat=repeat)
        assert ours.n_iter_ == epochs, "the benchmark needs every epoch to run"
        epoch = t_ours / epochs
        line = (f"fit {title} shuffle={'on ' if shuffle else 'off'}: perceptron "
                f"{n * epochs / t_ours / 1e6:6.2f} M rows/s, fit / {epochs} {epoch * 1e3:7.2f} ms")
        line += f" = {epoch / t_pass:.2f}x one X @ w pass"
        print(line)
        if pass_target:
            inner = epoch_times(X, y, epochs, shuffle, repeat)
            line = (f"    its epochs, timed inside the fit: {inner * 1e3:7.2f} ms = "
                    f"{inner / t_pass:.2f}x one X @ w pass")
            if not shuffle:
                line += f" [{verdict(inner / t_pass, 1.2, higher_is_better=False)}]"
            print(line)
        if SkPerceptron is not None:
            sk = SkPerceptron(max_iter=epochs, tol=None, shuffle=shuffle, random_state=0)
            t_sk = best_time(lambda: sk.fit(X_sk, y), repeat=repeat, warmup=0)
            print(f"    scikit-learn {n * epochs / t_sk / 1e6:6.2f} M rows/s -> perceptron is "
                  f"{t_sk / t_ours:.2f}x faster [{verdict(t_sk / t_ours, sk_target)}]")
        if pass_target and not shuffle:
            update_cost(X, y, 6 * epochs, t_pass)
    if not pass_target:
        fixed_and_epoch(title, X, y, X_sk, repeat, SkPerceptron)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500_000)
    parser.add_argument("--d", type=int, default=1 << 18)
    parser.add_argument("--nnz", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--a9a", default=DEFAULT_A9A)
    args = parser.parse_args()
    try:
        from sklearn.linear_model import Perceptron as SkPerceptron
    except ImportError:
        SkPerceptron = None
    warnings.simplefilter("ignore")
    header(f"bench_sparse: {args.epochs} epochs, best of {args.repeat}")

    X, y = make_sparse(args.n, args.d, args.nnz)
    w = np.ones(args.d, dtype=np.float32)
    t_pass = best_time(lambda: X @ w, repeat=max(args.repeat, 5))
    size = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    print(f"\n## (a) synthetic {args.n} x {args.d} CSR float32, {X.nnz / args.n:.1f} non-zeros "
          f"a row ({size / 1e6:.0f} MB); one scipy X @ w pass {t_pass * 1e3:.2f} ms")
    compare("synthetic", X, y, args.epochs, args.repeat, 1.5, SkPerceptron, t_pass, True)
    del X, y

    if not os.path.exists(args.a9a):
        print(f"\n(a9a not found at {args.a9a}: (b) is skipped)")
        return
    X, y = load_svmlight(args.a9a)
    print(f"# a9a as load_svmlight reads it: {X.dtype} values, {X.indices.dtype} indices")
    w = np.ones(X.shape[1], dtype=X.dtype)
    t_pass = best_time(lambda: X @ w, repeat=max(args.repeat, 20))
    print(f"\n## (b) a9a {X.shape[0]} x {X.shape[1]} CSR {X.dtype}, {X.nnz / X.shape[0]:.1f} "
          f"non-zeros a row; one scipy X @ w pass {t_pass * 1e3:.2f} ms")
    compare("a9a", X, y, args.epochs, max(args.repeat, 10), 3.0, SkPerceptron, t_pass, False)


if __name__ == "__main__":
    main()

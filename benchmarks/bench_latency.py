"""Scoring one row: the Python fast path and the nogil C path.

Run:  python benchmarks/bench_latency.py

1. predict one row of 100 features from Python: predict_one(x) against
   scikit-learn's Perceptron.predict on a (1, 100) array (target: at most
   1/10 of its time), with the absolute microseconds; also this package's
   own predict on a (1, 100) array.
2. From Cython (the examples/embed_cython extension, built here in a
   temporary folder): the model's nogil decision(m, x) against a bare call of
   the SIMD dot kernel on the same row (target: within 1.2x).
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

from _common import header, verdict

from perceptron import Perceptron

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "embed_cython"


def per_call(fn, calls=20000, repeat=7):
    """Best over `repeat` runs of the mean time of one call, in seconds."""
    for _ in range(1000):
        fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def build_example(workdir):
    shutil.copytree(EXAMPLE, workdir / "embed")
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                          cwd=workdir / "embed", capture_output=True, text=True)
    if proc.returncode != 0:
        print("# could not build examples/embed_cython:", proc.stderr.splitlines()[-1:])
        return None
    sys.path.insert(0, str(workdir / "embed"))
    import score

    return score


def main():
    warnings.simplefilter("ignore")
    header("bench_latency: one row")
    rng = np.random.default_rng(0)
    d = 100
    X = rng.standard_normal((2000, d))
    y = np.where(X @ rng.standard_normal(d) > 0, 1, 0)
    model = Perceptron(random_state=0).fit(X, y)
    x = X[7].copy()
    row = X[7:8].copy()

    t_one = per_call(lambda: model.predict_one(x))
    t_dec = per_call(lambda: model.decision_one(x))
    t_batch = per_call(lambda: model.predict(row), calls=5000)
    print(f"\n## Python, {d} features, float64")
    print(f"perceptron predict_one(x)          {t_one * 1e6:7.2f} us")
    print(f"perceptron decision_one(x)         {t_dec * 1e6:7.2f} us")
    print(f"perceptron predict(X[7:8])         {t_batch * 1e6:7.2f} us")
    print(f"perceptron predict_one(list)       {per_call(lambda: model.predict_one(x.tolist()), calls=5000) * 1e6:7.2f} us")
    try:
        from sklearn.linear_model import Perceptron as SkPerceptron
    except ImportError:
        SkPerceptron = None
    if SkPerceptron is not None:
        sk = SkPerceptron(random_state=0).fit(X, y)
        t_sk = per_call(lambda: sk.predict(row), calls=2000)
        print(f"scikit-learn predict(X[7:8])       {t_sk * 1e6:7.2f} us")
        print(f"predict_one takes {t_one / t_sk:.3f} of scikit-learn's time "
              f"({t_sk / t_one:.0f}x faster) [{verdict(t_one / t_sk, 0.1, higher_is_better=False)}]")

    with tempfile.TemporaryDirectory() as tmp:
        score = build_example(pathlib.Path(tmp))
        if score is None:
            return
        print(f"\n## Cython, nogil, {d} features")
        for dtype in (np.float32, np.float64):
            Xd = X.astype(dtype)
            m = Perceptron(random_state=0).fit(Xd, y)
            cm = m.c_model()
            xr = Xd[7].copy()
            w = np.ascontiguousarray(m.coef_[0])
            reps = 2_000_000
            best_dec = best_dot = float("inf")
            for _ in range(7):
                t = time.perf_counter()
                score.decision_one_row(cm, xr, reps)
                best_dec = min(best_dec, (time.perf_counter() - t) / reps)
                t = time.perf_counter()
                score.dot_one_row(xr, w, reps)
                best_dot = min(best_dot, (time.perf_counter() - t) / reps)
            name = np.dtype(dtype).name
            print(f"{name}: decision(m, x) {best_dec * 1e9:6.1f} ns, bare dot {best_dot * 1e9:6.1f} ns "
                  f"-> {best_dec / best_dot:.2f}x [{verdict(best_dec / best_dot, 1.2, False)}]")


if __name__ == "__main__":
    main()

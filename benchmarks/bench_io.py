"""Reading svmlight / libsvm files: perceptron.io against scikit-learn, same run.

Run:  python benchmarks/bench_io.py [--rows 200000] [--nnz 50]
      [--repeat 5] [--a9a PATH] [--keep PATH]

- a9a (../shared/data/a9a, 32,561 rows, 123 features): load_svmlight (to a
  scipy CSR matrix) against scikit-learn's load_svmlight_file, best of
  --repeat runs each, both results checked equal.  Target: at least as fast
  as scikit-learn (ratio >= 1).
- a generated file, --rows rows of about --nnz non-zeros in 2^18 columns,
  values with 6 significant digits (as tf-idf files are), written by
  dump_svmlight: the reading throughput in MB/s of load_svmlight and of
  scikit-learn (one run: it is slow), the writing throughput of
  dump_svmlight, and iter_svmlight's throughput and peak memory (in a fresh
  process, so the peak belongs to the stream alone).
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

from _common import best_time, header, verdict

from perceptron.io import dump_svmlight, iter_svmlight, load_svmlight

A9A = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "a9a"

STREAM = """
import resource, sys, time
import scipy.sparse  # imported before the clock starts, as a program using it would have
from perceptron.io import iter_svmlight


def peak_rss():
    # VmHWM: this process's own peak (ru_maxrss keeps the parent's across fork and exec)
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin"
                                                                  else 1024)


before = peak_rss()
start = time.perf_counter()
rows = 0
for X, y in iter_svmlight(sys.argv[1], n_features=int(sys.argv[2]), chunk_rows=10000):
    rows += X.shape[0]
seconds = time.perf_counter() - start
print(rows, seconds, before, peak_rss())
"""


def sklearn_loader():
    try:
        from sklearn.datasets import load_svmlight_file
    except ImportError:
        return None
    return load_svmlight_file


def same(X, Y):
    return (X.shape == Y.shape and np.array_equal(X.indptr, Y.indptr)
            and np.array_equal(X.indices, Y.indices) and np.array_equal(X.data, Y.data))


def bench_a9a(path, repeat, sk_load):
    if not path.exists():
        print(f"a9a: not found at {path} (pass --a9a PATH); skipped")
        return
    mb = path.stat().st_size / 1e6
    X, y = load_svmlight(path)
    ours = best_time(lambda: load_svmlight(path), repeat=repeat)
    print(f"a9a: {mb:.2f} MB, {X.shape[0]} rows x {X.shape[1]} features, {X.nnz} non-zeros")
    print(f"  perceptron.io.load_svmlight      {ours * 1e3:8.2f} ms  {mb / ours:7.1f} MB/s")
    if sk_load is None:
        print("  scikit-learn not installed: no ratio")
        return
    Xs, ys = sk_load(str(path))
    assert same(X, Xs) and np.array_equal(y, ys), "the two readers disagree on a9a"
    theirs = best_time(lambda: sk_load(str(path)), repeat=repeat)
    ratio = theirs / ours
    print(f"  sklearn load_svmlight_file       {theirs * 1e3:8.2f} ms  {mb / theirs:7.1f} MB/s")
    print(f"  ratio (scikit-learn / ours) {ratio:.1f}x; at least as fast as scikit-learn: "
          f"{verdict(ratio, 1.0)}")


def generate(path, rows, nnz, features, seed):
    """rows x features CSR with about nnz values a row, written by dump_svmlight."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    per_row = rng.poisson(nnz, rows).clip(1, features)
    indptr = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(per_row, out=indptr[1:])
    indices = rng.integers(0, features, indptr[-1])
    # 6 significant digits, as tf-idf weights are usually printed
    data = np.round(rng.uniform(0.01, 1.0, indptr[-1]), 4)
    X = sp.csr_matrix((data, indices, indptr), shape=(rows, features))
    X.sum_duplicates()
    y = rng.integers(0, 2, rows) * 2 - 1
    start = time.perf_counter()
    dump_svmlight(X, y, path)
    return X, y, time.perf_counter() - start


def bench_generated(rows, nnz, repeat, sk_load, keep):
    features = 2**18
    folder = tempfile.mkdtemp(prefix="bench_io_")
    path = pathlib.Path(keep) if keep else pathlib.Path(folder) / "generated.svm"
    X, y, write_s = generate(path, rows, nnz, features, seed=0)
    mb = path.stat().st_size / 1e6
    print(f"generated: {mb:.1f} MB, {rows} rows x {features} features, {X.nnz} non-zeros "
          f"({X.nnz / rows:.1f} a row)")
    print(f"  perceptron.io.dump_svmlight      {write_s:8.2f} s   {mb / write_s:7.1f} MB/s")
    Xr, yr = load_svmlight(path, n_features=features)
    assert same(Xr, X) and np.array_equal(yr, y), "the file does not read back as written"
    del Xr, yr
    ours = best_time(lambda: load_svmlight(path, n_features=features), repeat=repeat, warmup=0)
    print(f"  perceptron.io.load_svmlight      {ours:8.2f} s   {mb / ours:7.1f} MB/s")
    run = subprocess.run([sys.executable, "-c", STREAM, str(path), str(features)],
                         capture_output=True, text=True, check=True)
    n, seconds, before, peak = run.stdout.split()
    print(f"  perceptron.io.iter_svmlight      {float(seconds):8.2f} s   "
          f"{mb / float(seconds):7.1f} MB/s  (chunks of 10000 rows, in a fresh process: peak "
          f"resident memory {int(peak) / 2**20:.0f} MiB, {int(before) / 2**20:.0f} MiB of it "
          f"before reading, for a {mb:.0f} MB file)")
    if sk_load is not None:
        start = time.perf_counter()
        Xs, ys = sk_load(str(path), n_features=features)
        theirs = time.perf_counter() - start
        assert same(Xs, X), "scikit-learn reads the file differently"
        print(f"  sklearn load_svmlight_file       {theirs:8.2f} s   {mb / theirs:7.1f} MB/s  "
              f"(one run)")
        print(f"  ratio (scikit-learn / ours) {theirs / ours:.1f}x")
    if not keep:
        path.unlink()
        os.rmdir(folder)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--nnz", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--a9a", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get("PERCEPTRON_A9A", A9A)))
    parser.add_argument("--keep", help="write the generated file here and keep it")
    args = parser.parse_args()
    header("reading svmlight files: perceptron.io vs scikit-learn's load_svmlight_file")
    sk_load = sklearn_loader()
    bench_a9a(args.a9a, args.repeat, sk_load)
    bench_generated(args.rows, args.nnz, args.repeat, sk_load, args.keep)


if __name__ == "__main__":
    main()

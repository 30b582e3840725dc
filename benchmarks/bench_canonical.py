"""Making a non-canonical CSR matrix canonical: perceptron's row pass vs scipy.

Run:  python benchmarks/bench_canonical.py [--n 500000] [--d 262144] [--nnz 50]
      [--repeat 5]

The matrix: n rows of `nnz` columns drawn with replacement (about 2,400 of
500,000 rows hold a repeated column, as hashed features have), sorted within
each row, float64 values, int32 indices.  Timed, best of `repeat`:

- ``canonical_csr`` (perceptron._common.validation): the compiled row pass,
  a copy of the matrix with the bad rows sorted and summed;
- ``check_X``: what a fit pays before its first epoch (the structure check,
  then the pass above);
- scipy's ``sum_duplicates`` on a fresh copy of the matrix (the copy made
  outside the timing: scipy works in place), the figure to match.

Target: canonical_csr within 2x of scipy's sum_duplicates.
"""
import argparse
import time

import numpy as np

from _common import header, verdict

from perceptron._common.validation import canonical_csr, check_X


def make(n, d, nnz, seed=0):
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, d, size=(n, nnz), dtype=np.int32), axis=1)
    data = rng.standard_normal(n * nnz)
    indptr = np.arange(0, n * nnz + 1, nnz, dtype=np.int32)
    repeated = int((cols[:, 1:] == cols[:, :-1]).any(axis=1).sum())
    return sp.csr_matrix((data, cols.ravel(), indptr), shape=(n, d)), repeated


def best(fn, repeat, setup=lambda: None):
    times = []
    for _ in range(repeat):
        arg = setup()
        start = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500_000)
    parser.add_argument("--d", type=int, default=262_144)
    parser.add_argument("--nnz", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    header("canonical CSR: perceptron's row pass vs scipy's sum_duplicates")
    A, repeated = make(args.n, args.d, args.nnz)
    A.has_canonical_format = False
    print(f"# {args.n:,} x {args.d:,}, {args.nnz} non-zeros a row, {repeated:,} rows with a "
          f"repeated column")

    def fresh():
        B = A.copy()
        B.has_canonical_format = False
        B.has_sorted_indices = False
        return B

    ours = best(lambda _: canonical_csr(A.data, A.indices, A.indptr, A.shape[0]), args.repeat)
    fit_check = best(lambda _: check_X(A, accept_sparse=True), args.repeat)
    scipy_t = best(lambda B: B.sum_duplicates(), args.repeat, fresh)
    ratio = ours / scipy_t
    print(f"canonical_csr {ours * 1e3:8.1f} ms   check_X {fit_check * 1e3:8.1f} ms   "
          f"scipy sum_duplicates {scipy_t * 1e3:8.1f} ms")
    print(f"canonical_csr / scipy sum_duplicates = {ratio:.2f}x "
          f"[{verdict(ratio, 2.0, higher_is_better=False)}]")


if __name__ == "__main__":
    main()

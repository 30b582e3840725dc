"""Out-of-core training: a file 4x larger than the memory the process may use.

Run:  python benchmarks/bench_out_of_core.py [--mb 400] [--budget-mb 100]

Writes a synthetic svmlight file of about --mb megabytes (sparse rows, ~40
non-zeros each, 2^16 features), then in a fresh process that may allocate at
most --budget-mb megabytes beyond what the interpreter and its imports
already hold (RLIMIT_DATA: heap and private memory maps, so every array and
buffer counts), trains a Perceptron on it with fit_stream (chunks of 10,000
rows, 3 epochs).  It must complete; the peak resident memory is printed
against the budget, and the file's size against it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

from _common import header, verdict

CHILD = textwrap.dedent("""
    import json, resource, sys, time, warnings
    import numpy as np
    import perceptron
    from perceptron import Perceptron

    def status(key):
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    path, budget = sys.argv[1], int(sys.argv[2])
    warnings.simplefilter("ignore")
    Perceptron(max_iter=1).fit(np.eye(4), [0, 1, 0, 1])      # load every module first
    base_data, base_rss = status("VmData"), status("VmRSS")
    resource.setrlimit(resource.RLIMIT_DATA, (base_data + budget, base_data + budget))
    start = time.perf_counter()
    model = Perceptron(max_iter=3, random_state=0).fit_stream(path, chunk_rows=10000,
                                                                classes=[-1.0, 1.0])
    seconds = time.perf_counter() - start
    print(json.dumps({"epochs": int(model.n_iter_), "mistakes": model.mistakes_.tolist(),
                      "seconds": seconds, "base_rss": base_rss, "peak": status("VmHWM")}))
""")


def write_file(path, mb, rng):
    from perceptron.io import dump_svmlight
    import scipy.sparse as sp

    d, nnz_row, rows_per_block = 2 ** 16, 40, 20000
    w = rng.standard_normal(d)
    written = 0
    with open(path, "wb") as fh:
        while written < mb * 1e6:
            indices = rng.integers(0, d, size=(rows_per_block, nnz_row))
            values = rng.standard_normal((rows_per_block, nnz_row)).astype(np.float32)
            X = sp.csr_matrix((values.ravel(), indices.ravel(),
                               np.arange(0, rows_per_block * nnz_row + 1, nnz_row)),
                              shape=(rows_per_block, d))
            X.sum_duplicates()
            y = np.where(X @ w > 0, 1, -1)
            dump_svmlight(X, y, fh)
            written = fh.tell()
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=400.0, help="size of the file to train on")
    parser.add_argument("--budget-mb", type=float, default=100.0,
                        help="memory the training process may allocate")
    args = parser.parse_args()
    header(f"bench_out_of_core: a {args.mb:.0f} MB svmlight file, {args.budget_mb:.0f} MB allowed")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.svm")
        start = time.perf_counter()
        size = write_file(path, args.mb, np.random.default_rng(0))
        print(f"wrote {size / 1e6:.0f} MB in {time.perf_counter() - start:.1f} s")
        budget = int(args.budget_mb * 1e6)
        proc = subprocess.run([sys.executable, "-c", CHILD, path, str(budget)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"the out-of-core fit FAILED within {args.budget_mb:.0f} MB:\n{proc.stderr[-2000:]}")
            sys.exit(1)
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        seconds, base_rss, peak = r["seconds"], r["base_rss"], r["peak"]
        grown = peak - base_rss
        print(f"fit_stream: {r['epochs']} epochs (mistakes {r['mistakes']}) in {seconds:.1f} s, "
              f"{3 * size / seconds / 1e6:.0f} MB/s of svmlight text")
        print(f"peak resident memory {peak / 1e6:.0f} MB, {grown / 1e6:.0f} MB above the "
              f"interpreter's {base_rss / 1e6:.0f} MB; file / allowed memory = "
              f"{size / budget:.1f}x [{verdict(size / budget, 4.0)}]; peak growth within the "
              f"budget [{verdict(grown / budget, 1.0, higher_is_better=False)}]")


if __name__ == "__main__":
    main()

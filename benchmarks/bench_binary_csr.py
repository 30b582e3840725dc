"""Binary CSR rows (indices alone) against the float32 CSR path and a C pass.

Run:  python benchmarks/bench_binary_csr.py [--n 500000] [--d 262144] [--nnz 50]
      [--epochs 5] [--repeat 3]

An n x d matrix of about `nnz` distinct columns a row, every value 1, labels
from a hidden hyperplane, held two ways: binary rows (``CSRData`` without
values, int32 indices: 4 bytes a non-zero) and the same rows with float32
ones stored (8 bytes a non-zero).  In one run, the two alternating, in
order and shuffled:

- an epoch of each, timed inside a ``Perceptron`` fit (``callback``:
  ``EpochInfo.seconds``, the mean of `epochs` epochs, best of `repeat`
  fits).  The float32 rows are read as stored: the check that finds values
  all 1.0 (and reads them as binary rows) is switched off for them, so that
  the two fits make the same updates and differ only in the bytes they read;
- benchmarks/binary_floor.c's pass over the same indices (a gather of
  w[indices] a row, four sums, the perceptron's test, no update), in order
  and in the first epoch's shuffled order, at its best prefetch distance;
  in order also by 8-wide vector gathers (the library's way there), the
  faster of the two being the floor.

Targets: the binary epoch within 1.15x of the C pass, and at least 1.5x
faster than the float32 epoch.  Then, for information, the same rows
`--d16` wide (65,536 by default) with 16-bit indices (2 bytes a non-zero)
beside int32 ones and the float32 rows, and the C pass over the 16-bit
indices.  Run it on a quiet machine; the load average
is printed.
"""
import argparse
import ctypes
import os
import warnings

import numpy as np

from _common import best_time, compile_c, header, verdict

import perceptron
from perceptron._core import csr as _csr
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed
from perceptron.io import CSRData


def make_binary(n, d, nnz, seed=0):
    """int32 indices and int32 row pointers of about nnz distinct sorted
    columns a row, and labels from a hidden hyperplane."""
    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, d, size=(n, nnz), dtype=np.int32), axis=1)
    keep = np.ones(cols.shape, dtype=bool)
    keep[:, 1:] = cols[:, 1:] != cols[:, :-1]  # drop a column drawn twice in a row
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(keep.sum(axis=1), out=indptr[1:])
    indices = cols[keep]
    w = rng.standard_normal(d)
    a = np.add.reduceat(w[indices], indptr[:-1]) if len(indices) else np.zeros(n)
    y = np.where(a > np.median(a), 1, -1)
    return indices, indptr, y


def epoch_time(X, y, epochs, shuffle):
    """The mean wall time of the epochs of one fit, as the fit times them."""
    times = []
    perceptron.Perceptron(tol=None, max_iter=epochs, shuffle=shuffle, random_state=0,
                          callback=lambda info: times.append(info.seconds)).fit(X, y)
    assert len(times) == epochs
    return sum(times) / epochs


def float_epoch_time(X, y, epochs, shuffle):
    """epoch_time with the float32 values read as stored (the check that finds
    values all 1.0 switched off for the call)."""
    found = _csr.all_ones
    _csr.all_ones = lambda data: False
    try:
        return epoch_time(X, y, epochs, shuffle)
    finally:
        _csr.all_ones = found


def floor_pass(lib, indices, indptr, y, d, order, repeat, fn="floor_binary_f32"):
    """Best time of binary_floor.c's pass over the rows (in order when
    `order` is None), over the prefetch distances floor.c's CSR pass tries."""
    n = len(indptr) - 1
    ptr64 = np.ascontiguousarray(indptr, dtype=np.int64)
    w = np.full(d, 1e-3, dtype=np.float32)
    y8 = np.where(y > 0, 1, -1).astype(np.int8)
    out = ctypes.c_double()
    ways = [(0, 0)] if order is None else [(a, m) for a in (4, 8, 16) for m in (0, 2)]
    optr = None if order is None else order.ctypes.data
    best = float("inf")
    for ahead, near in ways:
        best = min(best, best_time(lambda: getattr(lib, fn)(
            indices.ctypes.data, ptr64.ctypes.data, n, w.ctypes.data, 0.0, y8.ctypes.data, optr,
            ahead, near, ctypes.byref(out)), repeat=repeat))
    return best


def gather_pass(lib, indices, indptr, y, d, repeat):
    """Best time of binary_floor.c's in-order pass by 8-wide gathers."""
    n = len(indptr) - 1
    ptr64 = np.ascontiguousarray(indptr, dtype=np.int64)
    w = np.full(d, 1e-3, dtype=np.float32)
    y8 = np.where(y > 0, 1, -1).astype(np.int8)
    out = ctypes.c_double()
    return best_time(lambda: lib.floor_binary_f32_gather(
        indices.ctypes.data, ptr64.ctypes.data, n, w.ctypes.data, 0.0, y8.ctypes.data,
        ctypes.byref(out)), repeat=repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500_000)
    parser.add_argument("--d", type=int, default=1 << 18)
    parser.add_argument("--nnz", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--d16", type=int, default=1 << 16)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    header(f"bench_binary_csr: {args.epochs} epochs a fit, best of {args.repeat}")
    print(f"# load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")

    indices, indptr, y = make_binary(args.n, args.d, args.nnz)
    n, d = args.n, args.d
    binary = CSRData(None, indices, indptr, (n, d))
    stored = CSRData(np.ones(len(indices), dtype=np.float32), indices, indptr, (n, d))
    per_row = len(indices) / n
    print(f"\n{n} x {d}, {per_row:.1f} non-zeros a row: binary rows {4 * per_row + 4:.0f} "
          f"bytes a row ({(indices.nbytes + indptr.nbytes) / 1e6:.0f} MB), float32 rows "
          f"{8 * per_row + 4:.0f} ({(indices.nbytes * 2 + indptr.nbytes) / 1e6:.0f} MB)")
    lib = compile_c("binary_floor.c", includes=("floor.c", "floor_common.h"))
    if lib is not None:
        p, sz, dbl = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_double
        for fn in (lib.floor_binary_f32, lib.floor_binary_f32_u16):
            fn.argtypes = [p, p, sz, p, dbl, p, p, sz, sz, p]
            fn.restype = sz
        lib.floor_binary_f32_gather.argtypes = [p, p, sz, p, dbl, p, p]
        lib.floor_binary_f32_gather.restype = sz
    order = shuffled_orders(n, 1, check_random_seed(0))[0]
    for shuffle in (False, True):
        t_bin = t_float = float("inf")
        for _ in range(args.repeat):  # the two alternating, the best of each
            t_bin = min(t_bin, epoch_time(binary, y, args.epochs, shuffle))
            t_float = min(t_float, float_epoch_time(stored, y, args.epochs, shuffle))
        name = "shuffled" if shuffle else "in order"
        print(f"\nepochs {name}: binary {t_bin * 1e3:.2f} ms, float32 {t_float * 1e3:.2f} ms "
              f"-> binary {t_float / t_bin:.2f}x faster "
              f"[binary over float32 epochs, {name}, {verdict(t_float / t_bin, 1.5)}]")
        if lib is None:
            continue
        t_floor = floor_pass(lib, indices, indptr, y, d, order if shuffle else None,
                             max(args.repeat, 3))
        if not shuffle:
            # in order, the library gathers the weights: the floor is the
            # faster of the two ways to fetch them
            t_gather = gather_pass(lib, indices, indptr, y, d, max(args.repeat, 3))
            print(f"    binary_floor.c passes in order: scalar loads {t_floor * 1e3:.2f} ms, "
                  f"8-wide gathers {t_gather * 1e3:.2f} ms")
            t_floor = min(t_floor, t_gather)
        print(f"    binary_floor.c pass {t_floor * 1e3:.2f} ms -> binary epoch "
              f"{t_bin / t_floor:.2f}x the C pass "
              f"[binary epoch over the C gather pass, {name}, "
              f"{verdict(t_bin / t_floor, 1.15, higher_is_better=False)}]")
    sixteen(args, lib, order)
    print(f"# load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def sixteen(args, lib, order):
    """The rows args.d16 wide: 16-bit and int32 binary rows and float32 ones."""
    n, d = args.n, args.d16
    indices, indptr, y = make_binary(n, d, args.nnz, seed=1)
    rows = {"uint16": CSRData(None, indices.astype(np.uint16), indptr, (n, d)),
            "int32": CSRData(None, indices, indptr, (n, d))}
    stored = CSRData(np.ones(len(indices), dtype=np.float32), indices, indptr, (n, d))
    print(f"\n{n} x {d}: binary rows with 16-bit indices "
          f"({(indices.nbytes // 2 + indptr.nbytes) / 1e6:.0f} MB), int32 indices, float32 rows")
    for shuffle in (False, True):
        best = {name: float("inf") for name in (*rows, "float32")}
        for _ in range(args.repeat):
            for name, X in rows.items():
                best[name] = min(best[name], epoch_time(X, y, args.epochs, shuffle))
            best["float32"] = min(best["float32"],
                                  float_epoch_time(stored, y, args.epochs, shuffle))
        line = (f"epochs {'shuffled' if shuffle else 'in order'}: " + ", ".join(
            f"{name} {t * 1e3:.2f} ms" for name, t in best.items()) +
            f" -> uint16 {best['float32'] / best['uint16']:.2f}x faster than float32, "
            f"{best['int32'] / best['uint16']:.2f}x int32")
        if lib is not None:
            t_floor = floor_pass(lib, indices.astype(np.uint16), indptr, y, d,
                                 order if shuffle else None, max(args.repeat, 3),
                                 "floor_binary_f32_u16")
            line += f"; C pass over the 16-bit indices {t_floor * 1e3:.2f} ms " \
                    f"(uint16 epoch {best['uint16'] / t_floor:.2f}x it)"
        print(line)


if __name__ == "__main__":
    main()

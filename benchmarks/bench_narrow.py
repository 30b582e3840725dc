"""Epochs over narrow data read as stored, against C passes over the same
narrow arrays and against the float32 path, in one run.

Run:  python benchmarks/bench_narrow.py [--repeat 5] [--n 200000] [--d 256]
      [--only dense,memory]

- dense: binary epochs (5 a fit) over float16, int8 and uint8 rows (and
  bfloat16 when ml_dtypes is installed), in order and shuffled, each
  against (a) the float32 epochs of the same rows converted, which read
  twice or four times the bytes (the speed-up: at least 1.8x for float16,
  3x for the 8-bit types), and (b) narrow_floor.c's pass over the same
  narrow array: the rows converted in registers, float32 accumulators, the
  test y*a <= 0 and nothing else (at most 1.15x it);
- memory: the peak memory a fit on float16 rows allocates beyond X
  (tracemalloc), and scikit-learn's on the same rows, which it converts to
  float64.

Ours and the floors are timed alternately (``bench_floor.alternate``),
each side's best kept; the epochs are the fit's compiled loop alone
(``bench_floor.loop_epochs``), as the C passes are timed.  Every side runs
on one thread and is timed in that thread's CPU time (``time.thread_time``;
``--wall`` for wall time): on a machine shared with other processes the
wall time also counts their slices of the core (at a load of 8 on 2 cores,
3x the CPU time), and the CPU time does not.  The lines print the
milliseconds beside each ratio, the load average, and
``[target ...: met/MISSED]``.  In order, a last line per type prints the
float32 epochs over the narrow pass at the library's precision: the
speed-up an epoch as fast as that pass would have; then the same over a
pass with eight products a lane before each block's sum in double (not
the library's order: the other well-defined order with half the
conversions to double), and the arithmetic alone: the three passes over
the first rows of X (256 KB, in L2) until an epoch's worth of rows is
read, in nanoseconds a row beside the float32 epoch's.
"""
import argparse
import ctypes
import os
import time
import warnings

import numpy as np

from _common import compile_c, floor_dense, header, peak_alloc, verdict
from bench_floor import alternate, loop_epochs

from perceptron import Perceptron

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = {"float16": "f16", "bfloat16": "bf16", "int8": "i8", "uint8": "u8"}
CLOCK = time.thread_time


def floor_lib():
    """narrow_floor.c compiled with ``cc -O3 -march=native`` (cached under
    the hash of its sources: _common.compile_c), or None without a C
    compiler."""
    lib = compile_c("narrow_floor.c", includes=("floor_common.h",))
    if lib is None:
        return None
    sz, p, dbl = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_double
    for k in KINDS.values():
        for suffix in ("", "_blocks", "_blocks8"):
            fn = getattr(lib, f"narrow_dense_{k}{suffix}")
            fn.argtypes = [p, sz, sz, p, dbl, p, p, sz, p]
            fn.restype = sz
    lib.simd = bytes((ctypes.c_char * 8).in_dll(lib, "narrow_floor_simd")).split(b"\0")[0].decode()
    return lib


def _ptr(a):
    return None if a is None else a.ctypes.data


def dense_floor(lib, X, y, order, passes=5, blocks="", aheads=None):
    """A function timing the mean of `passes` narrow_floor.c passes over X,
    at the prefetch distance found fastest (0: none) of `aheads` (by default
    (0, 8, 16, 32) in order, (8, 16, 24, 32, 48) shuffled); `blocks`: "" for
    float32 accumulators, "_blocks" for the library's float32 precision,
    "_blocks8" for eight products a lane (narrow_floor.c)."""
    fn = getattr(lib, f"narrow_dense_{KINDS[X.dtype.name]}{blocks}")
    d = X.shape[1]
    n = len(X) if order is None else len(order)  # rows visited (an order may repeat them)
    w = np.full(d, 1e-3, dtype=np.float32)
    y8 = np.where(y > 0, 1, -1).astype(np.int8)
    out = ctypes.c_double()
    # the addresses taken once (.ctypes.data costs about a microsecond, the
    # in-L2 passes of in_l2 take 15-20), the arrays kept alive by `held`
    held = (X, w, y8, order)
    px, pw, py, po, pout = _ptr(X), _ptr(w), _ptr(y8), _ptr(order), ctypes.byref(out)

    def run(ahead):
        assert held
        t0 = CLOCK()
        for _ in range(passes):
            fn(px, n, d, pw, 0.0, py, po, ahead, pout)
        return (CLOCK() - t0) / passes

    if aheads is None:
        aheads = (0, 8, 16, 32) if order is None else (8, 16, 24, 32, 48)
    best = min(aheads, key=lambda a: min(run(a) for _ in range(2)))
    return lambda: run(best)


def in_l2(args, lib, X, y, t32):
    """The passes' arithmetic alone: the first rows of X (at most 256 KB,
    which stay in the core's L2) read over and over, as many rows as an
    epoch reads in one call (an order that repeats them, no prefetching), in
    nanoseconds a row, against the float32 epoch's (t32 seconds an epoch):
    the speed-up each order's arithmetic allows."""
    m = max(1, min(len(X), (256 << 10) // X[0].nbytes))
    passes = max(1, len(X) // m)
    head = np.ascontiguousarray(X[:m])
    again = np.tile(np.arange(m, dtype=np.intp), passes)
    sides = [dense_floor(lib, head, y[:m], again, passes=1, blocks=b, aheads=(0,))
             for b in ("_blocks", "_blocks8", "")]
    best = alternate(sides[0], sides[1], args.repeat, sides[2])
    ns = [t * 1e9 / len(again) for t in best]
    e = t32 * 1e9 / len(X)
    print(f"    arithmetic alone (the first {m} rows, {head.nbytes >> 10} KB, in L2, "
          f"{passes} passes), ns a row: library's precision {ns[0]:.2f}, eight products a "
          f"lane {ns[1]:.2f}, float32 accumulators {ns[2]:.2f}; the float32 epoch "
          f"{e:.2f}: speed-ups within reach {e / ns[0]:.2f}x, {e / ns[1]:.2f}x, "
          f"{e / ns[2]:.2f}x")


def narrow_rows(rng, n, d, name):
    """n x d rows of dtype `name` spread over its range, labels of a linear rule."""
    if name in ("int8", "uint8"):
        lo, hi = (-128, 128) if name == "int8" else (0, 256)
        X = rng.integers(lo, hi, size=(n, d), dtype=np.int16).astype(name)
    else:
        dtype = np.float16
        if name == "bfloat16":
            import ml_dtypes
            dtype = ml_dtypes.bfloat16
        X = rng.standard_normal((n, d), dtype=np.float32).astype(dtype)
    w = rng.standard_normal(d).astype(np.float32)
    y = np.where(X.astype(np.float32) @ w > 0, 1, -1)
    return X, y


def dense(args, lib):
    print(f"\n## dense binary epochs, {args.n} x {args.d}: narrow rows read as stored, against "
          "the float32 epochs of the same rows and the C pass over the narrow array")
    names = ["float16", "int8", "uint8"]
    try:
        import ml_dtypes  # noqa: F401
        names.insert(1, "bfloat16")
    except ImportError:
        print("# bfloat16: ml_dtypes not installed, skipped")
    rng = np.random.default_rng(0)
    for name in names:
        X, y = narrow_rows(rng, args.n, args.d, name)
        X32 = X.astype(np.float32)
        for shuffle in (False, True):
            model = Perceptron(tol=None, max_iter=5, shuffle=shuffle, random_state=0)
            model32 = Perceptron(tol=None, max_iter=5, shuffle=shuffle, random_state=0)
            order = np.random.default_rng(1).permutation(args.n) if shuffle else None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                floor = dense_floor(lib, X, y, order) if lib else None
                blocks = dense_floor(lib, X, y, order, blocks="_blocks") if lib else None
                blocks8 = (dense_floor(lib, X, y, order, blocks="_blocks8")
                           if lib and not shuffle else None)
                # the float32 C pass at the library's precision (floor.c)
                blocks32 = floor_dense(X32, y, order, blocks=True, clock=CLOCK) if lib else None
                ours, t32, t_floor, t_blocks, t_blocks32, t_blocks8 = alternate(
                    loop_epochs(model, X, y, clock=CLOCK), loop_epochs(model32, X32, y, clock=CLOCK),
                    args.repeat, floor, blocks, blocks32, blocks8)
            t = ours[0]
            speed = t32[0] / t
            target = 1.8 if name in ("float16", "bfloat16") else 3.0
            label = "shuffled" if shuffle else "in order"
            line = (f"{name:8s} {label:8s} ({X.nbytes / 1e6:.0f} MB): {t * 1e3:.2f} ms an epoch, "
                    f"float32 {t32[0] * 1e3:.2f} ms: {speed:.2f}x faster "
                    f"[{verdict(speed, target)}]")
            if t_floor is not None:
                r = t / t_floor
                line += (f"; {r:.2f}x its C pass ({t_floor * 1e3:.2f} ms) "
                         f"[{verdict(r, 1.15, higher_is_better=False)}]")
            print(f"{line} (load {os.getloadavg()[0]:.2f})")
            if t_blocks is not None:
                bound = ("out of reach at the library's precision" if t_blocks / t_floor > 1.15
                         else "within reach at the library's precision")
                print(f"    the C pass at float32-blocks-in-double precision: "
                      f"{t_blocks * 1e3:.2f} ms = {t_blocks / t_floor:.2f}x the pass, ours "
                      f"{t / t_blocks:.2f}x it ({ours[1]:.0f} mistakes an epoch) "
                      f"[target 1.15: {bound}]")
            if t_blocks is not None and t_blocks32 is not None and not shuffle:
                # in order an epoch does not run faster than the pass of its
                # precision: the float32 epochs over this pass bound the
                # speed-up (shuffled, the scans' prefetching beats the
                # passes', which bound nothing)
                reach = t32[0] / t_blocks
                print(f"    float32: ours {t32[0] / t_blocks32:.2f}x the float32 C pass at the "
                      f"library's precision ({t_blocks32 * 1e3:.2f} ms, the float32 rows' read); "
                      f"float32 epochs / the narrow pass above = {reach:.2f}x, the speed-up of "
                      f"an epoch as fast as that pass [target {target:g}: "
                      f"{'met' if reach >= target else 'MISSED'} by the pass itself]")
                reach8 = t32[0] / t_blocks8
                print(f"    eight products a lane (narrow_floor.c, not the library's order): "
                      f"{t_blocks8 * 1e3:.2f} ms; float32 epochs / it = {reach8:.2f}x "
                      f"[target {target:g}: {'met' if reach8 >= target else 'MISSED'} "
                      f"by the pass itself]")
                in_l2(args, lib, X, y, t32[0])
        del X, X32


def memory(args, lib):
    n, d = args.n, args.d
    print(f"\n## peak memory of a fit on float16 rows, {n} x {d} (X itself "
          f"{n * d * 2 / 1e6:.1f} MB, allocated before)")
    X, y = narrow_rows(np.random.default_rng(2), n, d, "float16")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peak = peak_alloc(lambda: Perceptron(max_iter=2, tol=None).fit(X, y))
    print(f"perceptron: {peak / 1e6:.1f} MB beyond X = {peak / X.nbytes:.3f} x X "
          f"[{verdict(peak / X.nbytes, 0.25, higher_is_better=False)}] (no float32 or float64 "
          "copy: either alone would be 2x or 4x X)")
    try:
        from sklearn.linear_model import Perceptron as SkPerceptron
    except ImportError:
        print("scikit-learn: not installed")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = peak_alloc(lambda: SkPerceptron(max_iter=2, tol=None).fit(X, y))
    print(f"scikit-learn: {sk / 1e6:.1f} MB beyond X = {sk / X.nbytes:.2f} x X (float64 copy)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--only", default="dense,memory")
    ap.add_argument("--wall", action="store_true", help="wall time instead of the thread's CPU time")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.thread_time
    header("narrow data: float16, bfloat16, int8 and uint8 rows")
    print(f"# times: {'wall time' if args.wall else 'the thread CPU time (time.thread_time)'}")
    lib = floor_lib()
    print(f"# floor: benchmarks/narrow_floor.c at {lib.simd if lib else 'no compiler'}")
    for section in args.only.split(","):
        globals()[section.strip()](args, lib)


if __name__ == "__main__":
    main()

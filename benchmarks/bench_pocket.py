"""The exact pocket (Gallant 1990, with ratchet): perceptron's pocket fit
against the straightforward exact algorithm in C, and against its own plain fit.

Run:  python benchmarks/bench_pocket.py [--n 200000] [--d 100] [--epochs 10]
      [--small 4000] [--repeat 2]

Data: n x d float64 with small integer values (exact sums in any order, so
the C loop's pocket must equal ours bit for bit: printed), labels from a
hidden hyperplane with noise, rows in order, `epochs` epochs, tol=None.

- ``benchmarks/pocket_floor.c``: the plain rule and, each time a run of
  right rows first outlasts the pocket's, one count of the right rows in
  its own read of X, stopping once the pocket cannot be beaten.  Less work
  than a fit (no counters, no checks).
- perceptron: ``Perceptron(pocket=True, shuffle=False)``, whose binary
  pocket keeps the candidate weights and counts up to 16 of them in one
  read of X when X is larger than the caches (perceptron/_core/
  pocket_queue.pxd); the same fit with each candidate counted as it comes
  (``pocket_block=0`` of the compiled loop, the algorithm before) beside.

Targets: on the large X (it does not fit in the caches), the C loop / ours
>= 3; on a small X (`--small` rows, in the caches), ours no slower than the
one-at-a-time count (<= 1.05x) and than the C loop (<= 1.1x).
"""
import argparse
import ctypes
import os
import time
import warnings

import numpy as np

from _common import compile_c, header, verdict

from perceptron import Perceptron
from perceptron._core import online
from perceptron.linear._state import OnlineState

HERE = os.path.dirname(os.path.abspath(__file__))
# what times a run: the thread's CPU time, which other processes' slices of
# a shared machine leave out (both sides run on this one thread); --wall
# for wall time
CLOCK = time.thread_time


def timed(fn):
    """The seconds one call of fn takes by CLOCK."""
    t0 = CLOCK()
    fn()
    return CLOCK() - t0


def pocket_lib():
    lib = compile_c("pocket_floor.c", includes=("floor.c", "floor_common.h"))
    if lib is None:
        raise SystemExit("bench_pocket.py needs a C compiler for its C loop (pocket_floor.c)")
    sz, p = ctypes.c_size_t, ctypes.c_void_p
    lib.floor_pocket_f64.argtypes = [p, sz, sz, p, sz, p, p, p, p, p]
    lib.floor_pocket_f64.restype = sz
    return lib


def make(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    w = rng.standard_normal(d)
    y = np.where(X @ w + 2.0 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def c_pocket(lib, X, y, epochs, repeat):
    n, d = X.shape
    y8 = np.ascontiguousarray(y, dtype=np.int8)
    w, pw, b, pb = np.zeros(d), np.zeros(d), np.zeros(1), np.zeros(1)
    scored = ctypes.c_size_t()
    out = []

    def run():
        w[:] = 0
        b[:] = 0
        out[:] = [lib.floor_pocket_f64(X.ctypes.data, n, d, y8.ctypes.data, epochs, w.ctypes.data,
                                       b.ctypes.data, pw.ctypes.data, pb.ctypes.data,
                                       ctypes.byref(scored))]

    t = min(timed(run) for _ in range(repeat))
    return t, out[0], scored.value, pw.copy(), float(pb[0])


def loop_pocket(X, y, epochs, block, repeat):
    """The compiled loop alone (run_epochs) with the given pocket_block."""
    n, d = X.shape
    y8 = np.ascontiguousarray(y, dtype=np.int8)
    params = online.LoopParams(eta=1.0, margin=0.0, fit_intercept=True, shuffle=False,
                               average=False, pocket=True, stop_when_converged=False,
                               keep_order=False)
    states = []

    def run():
        state = OnlineState(1, d, X.dtype, multinomial=False, average=False, pocket=True,
                            batch_size=None, seed=0)
        state.rows = np.arange(n, dtype=np.intp)
        state.start_pocket(X, y8, None, True)
        online.run_epochs(state, X, y8, None, params, epochs, pocket_block=block)
        states[:] = [state]

    return min(timed(run) for _ in range(repeat)), states[0]


def section(lib, n, d, epochs, repeat, large):
    X, y = make(n, d)
    print(f"\n## {n:,} x {d} float64 ({X.nbytes / 1e6:.0f} MB), in order, {epochs} epochs")
    plain = Perceptron(tol=None, max_iter=epochs, shuffle=False)
    pk = Perceptron(tol=None, max_iter=epochs, shuffle=False, pocket=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # noisy labels: no convergence, as intended
        plain.fit(X, y)
        t_plain = min(timed(lambda: plain.fit(X, y)) for _ in range(max(repeat, 3)))
        if not large:
            pk.fit(X, y)  # the warm-up: X into the caches
        # ours and the C loop alternately, each side's best: a burst of load
        # from other processes weighs on both alike
        t_pk = t_c = float("inf")
        for _ in range(repeat):
            t_pk = min(t_pk, timed(lambda: pk.fit(X, y)))
            t, counts, scored, pw, pb = c_pocket(lib, X, y, epochs, 1)
            t_c = min(t_c, t)
    same = np.array_equal(pw, pk.coef_[0]) and pb == pk.intercept_[0]
    print(f"plain fit {t_plain * 1e3:.1f} ms; pocket fit {t_pk * 1e3:.1f} ms = "
          f"{t_pk / t_plain:.1f}x plain")
    print(f"C loop (straightforward exact pocket) {t_c * 1e3:.1f} ms: {counts} counts reading "
          f"{scored / n:.0f} passes' rows (its pocket equals ours: {'yes' if same else 'NO'})")
    if large:
        speedup = t_c / t_pk
        print(f"C loop / our pocket fit = {speedup:.2f}x [{verdict(speedup, 3.0)}] "
              f"(load {os.getloadavg()[0]:.2f})")
        return
    # in the caches: the compiled loop with the queue as the fit sizes it
    # (one candidate at a time here), against the loop without the queue
    t_auto, auto = loop_pocket(X, y, epochs, None, repeat)
    t_one, one = loop_pocket(X, y, epochs, 0, repeat)
    assert np.array_equal(auto.PW, one.PW) and np.array_equal(auto.counters, one.counters)
    r_c, r_one = t_pk / t_c, t_auto / t_one
    print(f"our pocket fit / C loop = {r_c:.2f}x [{verdict(r_c, 1.1, False)}]; compiled loop "
          f"{t_auto * 1e3:.1f} ms / without the queue {t_one * 1e3:.1f} ms = {r_one:.2f}x "
          f"[{verdict(r_one, 1.05, False)}] (load {os.getloadavg()[0]:.2f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--d", type=int, default=100)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--small", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--wall", action="store_true", help="wall time instead of the thread's CPU time")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.thread_time
    header("the exact pocket: blocks of counts vs the straightforward C loop")
    print(f"# times: {'wall time' if args.wall else 'the thread CPU time (time.thread_time)'}, "
          "ours and the C loop alternately, each side's best")
    lib = pocket_lib()
    section(lib, args.small, args.d, args.epochs, max(args.repeat, 5), large=False)
    section(lib, args.n, args.d, args.epochs, args.repeat, large=True)


if __name__ == "__main__":
    main()

"""The package's AVX-512 in-order epoch against floor.c, in one process.

Run:  python benchmarks/bench_scan_in_process.py [--n 200000] [--rounds 15]

bench_floor.py times whole fits and floor.c's loops in separate calls; on a
machine shared with other virtual machines their times move by 10-30% from
run to run, more than the gaps left to explain.  This script builds
benchmarks/scan_in_process.c, which includes the package's AVX-512 kernels
(csrc/simd_avx512.c) and floor.c's loops in one program, and runs each
variant over the same array, round after round, keeping each one's best:

- the scan alone over rows the weights get all right, against floor.c's
  pass (and, for float32, its pass at the package's precision);
- 5 in-order epochs of the plain rule from zero weights as the package runs
  them (the plain scan, csrc/ptn_scan.h, which makes the updates itself:
  no Python), against floor.c's pass plus the updates (float32: also at
  the package's precision, each update's tail converted to double again),
  and the same epochs as the package ran them before, the scan returning
  at each update for an axpy and entered again.

The epoch's target (within 1.1x of the in-order pass) is printed against
the pass; the other ratios say where the time goes.  AVX-512 only (the
kernels it calls); cc -O3 -march=native for floor.c, as bench_floor.py, and
-O3 -falign-loops=64 for the package's kernels, as setup.py compiles them:
without the alignment the same source measured up to 10% apart from one
build to the next (a change elsewhere in the file moved the scan's loops),
which the package's build does not see.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import perceptron

from _common import header, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(os.path.dirname(HERE), "csrc")


def build():
    """The program's path, built in a temporary directory; None (with a
    note) when the compiler or the machine cannot."""
    cc = os.environ.get("CC", "cc")
    out = tempfile.mkdtemp(prefix="perceptron-scan-")
    obj = os.path.join(out, "floor.o")
    exe = os.path.join(out, "scan_in_process")
    try:
        subprocess.run([cc, "-O3", "-march=native", "-std=c99", "-c",
                        os.path.join(HERE, "floor.c"), "-o", obj], check=True,
                       capture_output=True)
        subprocess.run([cc, "-O3", "-falign-loops=64", "-std=gnu99", f"-I{CSRC}",
                        os.path.join(HERE, "scan_in_process.c"), os.path.join(CSRC, "cpu.c"),
                        obj, "-lm", "-o", exe], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"# cannot build scan_in_process.c ({exc})")
        return None
    return exe


def run(exe, n, d, dtype, rounds):
    res = subprocess.run([exe, str(n), str(d), dtype, str(rounds)], check=True,
                         capture_output=True, text=True)
    out = {}
    for line in res.stdout.split("\n"):
        if line.strip():
            name, ms, count = line.split()
            out[name] = (float(ms), int(count))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    header("bench_scan_in_process: the AVX-512 scan and axpy against floor.c, one process, "
           f"best of {args.rounds} alternated rounds")
    if perceptron.simd_info()["level"] != "avx512":
        print("# this machine's kernels are not AVX-512: nothing to compare")
        return 0
    exe = build()
    if exe is None:
        return 0
    for dtype in ("f32", "f64"):
        for d in (100, 200, 256):
            r = run(exe, args.n, d, dtype, args.rounds)
            name = f"{'float32' if dtype == 'f32' else 'float64'} {args.n} x {d}"
            pass_ms = r["floor_pass"][0]
            scan, epoch, returning = r["scan_pass"][0], r["plain_epoch"], r["scan_epoch"][0]
            upd = r["floor_updates"][0]
            line = (f"{name}: scan over rows it gets right {scan:.2f} ms = "
                    f"{scan / pass_ms:.2f}x floor.c's pass ({pass_ms:.2f} ms)")
            if dtype == "f32":
                blk = r["floor_pass_blocks"][0]
                line += f", {scan / blk:.2f}x its pass at the package's precision ({blk:.2f} ms)"
            print(line)
            line = (f"    epoch in order (the plain scan, updates inside it, {epoch[1]} an epoch): "
                    f"{epoch[0]:.2f} ms = {epoch[0] / pass_ms:.2f}x the pass "
                    f"[{verdict(epoch[0] / pass_ms, 1.1, False)}]; "
                    f"{epoch[0] / upd:.2f}x floor.c's pass plus the updates ({upd:.2f} ms, "
                    f"{r['floor_updates'][1]} updates)")
            if dtype == "f32":
                ub = r["floor_updates_blocks"][0]
                line += (f", {epoch[0] / ub:.2f}x the same at the package's precision "
                         f"({ub:.2f} ms = {ub / pass_ms:.2f}x the pass)")
            print(line + f"; the scan leaving at each update for an axpy: {returning:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

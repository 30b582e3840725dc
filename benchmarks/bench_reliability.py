"""Reliability figures: Ctrl-C latency of a long fit, and fits on threads.

Run:  python benchmarks/bench_reliability.py

- Ctrl-C: a fit that would run for minutes gets SIGINT one second in; the
  time from the signal to the KeyboardInterrupt in Python (target: within a
  second), measured five times.
- Threads: four fits of 200,000 x 64 (different estimators) one after another
  and on four threads at once (the loops release the GIL): the speedup on
  this machine's cores, and whether the models are the same.
"""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy as np

from _common import header, verdict

from perceptron import Perceptron

SCRIPT = textwrap.dedent("""
    import sys, time, warnings
    import numpy as np
    from perceptron import Perceptron
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200000, 64)).astype(np.float32)
    y = rng.integers(0, 2, 200000)
    print("ready", flush=True)
    try:
        Perceptron(max_iter=100000, random_state=0).fit(X, y)
    except KeyboardInterrupt:
        print(repr(time.time()), flush=True)
""")


def sigint_latency():
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()
    time.sleep(1.0)
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    return float(out.strip()) - sent


def main():
    header("bench_reliability")
    print(f"# cores available: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}")
    if hasattr(signal, "SIGINT") and sys.platform != "win32":
        latencies = [sigint_latency() for _ in range(5)]
        worst = max(latencies)
        print(f"Ctrl-C to KeyboardInterrupt: median {np.median(latencies) * 1e3:.1f} ms, worst "
              f"{worst * 1e3:.1f} ms over 5 fits [{verdict(worst, 1.0, higher_is_better=False)}]")
    rng = np.random.default_rng(0)
    data = [(rng.standard_normal((200000, 64)).astype(np.float32), None) for _ in range(4)]
    data = [(X, np.where(X[:, :4].sum(axis=1) + rng.standard_normal(len(X)) > 0, 1, -1))
            for X, _ in data]
    params = [dict(average=True), dict(), dict(margin=0.5), dict(average=True, margin=1.0)]
    warnings.simplefilter("ignore")
    start = time.perf_counter()
    serial = [Perceptron(max_iter=5, random_state=k, **params[k]).fit(*data[k]) for k in range(4)]
    t_serial = time.perf_counter() - start
    models = [Perceptron(max_iter=5, random_state=k, **params[k]) for k in range(4)]
    threads = [threading.Thread(target=models[k].fit, args=data[k]) for k in range(4)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t_threads = time.perf_counter() - start
    same = all(np.array_equal(a.coef_, b.coef_) for a, b in zip(serial, models))
    print(f"4 fits one after another {t_serial:.2f} s, on 4 threads {t_threads:.2f} s: "
          f"{t_serial / t_threads:.2f}x; the same models: {same}")


if __name__ == "__main__":
    main()

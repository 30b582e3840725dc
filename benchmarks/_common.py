"""Helpers shared by the benchmark scripts: timing, memory, printing."""
import gc
import platform
import time
import tracemalloc

import numpy as np


def best_time(fn, repeat=3, warmup=1):
    """Best wall time of fn() over `repeat` runs, after `warmup` runs.

    As timeit does: one collection before the runs and the cyclic collector
    off during them.  (A full gc.collect() before every run, as this helper
    once did, also empties the interpreter's free lists and caches, which
    made a 100 us fit take 500 us and measured the interpreter's recovery
    rather than either library.)"""
    for _ in range(warmup):
        fn()
    times = []
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return min(times)


def peak_alloc(fn):
    """Peak bytes allocated through Python's allocators (numpy included) by fn()."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def verdict(value, target, higher_is_better=True):
    ok = value >= target if higher_is_better else value <= target
    sign = ">=" if higher_is_better else "<="
    return f"target {sign} {target:g}: {'met' if ok else 'MISSED'}"


def header(title):
    import perceptron

    info = perceptron.simd_info()
    print(f"# {title}")
    print(f"# perceptron {perceptron.__version__} (simd {info['level']}), numpy {np.__version__}, "
          f"python {platform.python_version()}, {platform.machine()}")
    try:
        import sklearn

        print(f"# scikit-learn {sklearn.__version__}")
    except ImportError:
        print("# scikit-learn not installed: its columns are skipped (pip install perceptron-family[bench])")


def blas_threads():
    try:
        from threadpoolctl import threadpool_info

        return sum(p.get("num_threads", 0) for p in threadpool_info() if p.get("user_api") == "blas")
    except ImportError:
        return None

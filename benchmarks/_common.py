"""Helpers shared by the benchmark scripts: timing, memory, printing."""
import gc
import platform
import time
import tracemalloc

import numpy as np


# What the timings read: the wall clock, or with use_thread_time() the
# calling thread's CPU time (time.thread_time), which on a machine shared
# with other processes leaves out their slices of the core.  Only for work
# on the calling thread: numpy's BLAS threads are not counted.
CLOCK = time.perf_counter


def use_thread_time():
    """Time on the calling thread's CPU clock from now on (see CLOCK)."""
    global CLOCK
    CLOCK = time.thread_time


def now():
    """The current reading of CLOCK."""
    return CLOCK()


def best_time(fn, repeat=3, warmup=1):
    """Best time of fn() over `repeat` runs, after `warmup` runs (CLOCK).

    One collection before the warm-up runs and the cyclic collector off
    during the runs, as timeit keeps it off.  (A collection walks every
    object of the interpreter: between the warm-up and the timed run it
    evicted what the warm-up had brought into the caches, a9a's 5 MB among
    them, and a 2.0 ms fit measured 2.3 ms.  A full gc.collect() before
    every run, as this helper once did, also emptied the interpreter's free
    lists, which made a 100 us fit take 500 us.)"""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    times = []
    try:
        for _ in range(warmup):
            fn()
        for _ in range(repeat):
            start = now()
            fn()
            times.append(now() - start)
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


def cpu_name():
    """The CPU's model name as Linux reports it (/proc/cpuinfo), else the
    processor string Python has: figures are only comparable on one CPU."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def header(title):
    import perceptron

    info = perceptron.simd_info()
    print(f"# {title}")
    print(f"# perceptron {perceptron.__version__} (simd {info['level']}), numpy {np.__version__}, "
          f"python {platform.python_version()}, {platform.machine()}, {cpu_name()}")
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


# --- the machine's floor: benchmarks/floor.c, compiled here at run time ------

_FLOOR = None


def floor_lib():
    """benchmarks/floor.c compiled with ``cc -O3 -march=native`` (cached in
    the temporary directory under the hash of its source and the compiler
    command) and loaded by ctypes; None, with a note printed, when no C
    compiler answers."""
    global _FLOOR
    if _FLOOR is not None:
        return _FLOOR or None
    import ctypes

    lib = compile_c("floor.c", includes=("floor_common.h",))
    if lib is None:
        _FLOOR = False
        return None
    sz, p, dbl = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_double
    lib.floor_set_prefetch.argtypes = [sz, ctypes.c_int]
    lib.floor_set_prefetch.restype = None
    for name in ("floor_dense_f32", "floor_dense_f64", "floor_dense_f32_blocks"):
        fn = getattr(lib, name)
        fn.argtypes = [p, sz, sz, p, dbl, p, p, sz, p]
        fn.restype = sz
    for name in ("floor_dense_update_f32", "floor_dense_update_f64",
                 "floor_dense_update_f32_blocks"):
        fn = getattr(lib, name)
        fn.argtypes = [p, sz, sz, p, p, p, p, sz]
        fn.restype = sz
    for name in ("floor_ovr_f32", "floor_ovr_f64", "floor_ovr_f32_blocks"):
        fn = getattr(lib, name)
        fn.argtypes = [p, sz, sz, p, sz, p, p, p, sz, p]
        fn.restype = sz
    for name in ("floor_ovr_update_f32", "floor_ovr_update_f64", "floor_ovr_update_f32_blocks"):
        fn = getattr(lib, name)
        fn.argtypes = [p, sz, sz, p, sz, p, p, p, sz]
        fn.restype = sz
    for name in ("floor_csr_f32", "floor_csr_f64"):
        fn = getattr(lib, name)
        fn.argtypes = [p, p, p, sz, p, dbl, p, p, sz, sz, p]
        fn.restype = sz
    for name in ("floor_csr_update_f32", "floor_csr_update_f64"):
        fn = getattr(lib, name)
        fn.argtypes = [p, p, p, sz, p, p, p, p, sz, sz, sz]
        fn.restype = sz
    lib.floor_pocket_f32.argtypes = [p, sz, sz, p, p, sz, p, p, p, p, p]
    lib.floor_pocket_f32.restype = sz
    lib.simd = bytes((ctypes.c_char * 8).in_dll(lib, "floor_simd")).split(b"\0")[0].decode()
    _FLOOR = lib
    return lib


def compile_c(name, includes=()):
    """benchmarks/`name` compiled with ``cc -O3 -march=native`` (cached in
    the temporary directory under the hash of its source, of the files it
    `includes` and of the compiler command) and loaded by ctypes; None, with
    a note printed, when no C compiler answers."""
    import ctypes
    import hashlib
    import os
    import subprocess
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, name)
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-O3", "-march=native", "-fPIC", "-shared", "-std=c99"]
    digest = hashlib.sha256(" ".join(cmd).encode())
    for path in (name, *includes):
        with open(os.path.join(here, path), "rb") as f:
            digest.update(f.read())
    stem = os.path.splitext(name)[0].replace("_", "-")
    so = os.path.join(tempfile.gettempdir(), f"perceptron-{stem}-{digest.hexdigest()[:16]}.so")
    if not os.path.exists(so):
        tmp = f"{so}.{os.getpid()}.tmp"
        try:
            subprocess.run(cmd + ["-o", tmp, src], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"# floor: cannot compile {src} ({exc}): floor columns skipped")
            return None
        os.replace(tmp, so)
    return ctypes.CDLL(so)


def _ptr(a):
    return None if a is None else a.ctypes.data


def _labels8(y, n):
    if y is None:
        return np.ones(n, dtype=np.int8)
    return np.where(np.asarray(y) > 0, 1, -1).astype(np.int8)


# How the floors prefetch rows read out of order, besides into L2 `ahead`
# rows before (floor.c, floor_set_prefetch): (near, far) = also into L1 this
# many rows before, or only into L1.  The library does the first for small
# rows in its scan and the second in its one-vs-rest epoch; a floor that did
# neither would not be the fastest such loop.
NEAR_ROWS = 4


def _prefetch_ways(order, aheads):
    """Each way of asking for the rows, (ahead, near, far) for
    floor_set_prefetch(near, far): every prefetch distance of `aheads` into
    L2, and for rows out of order also into L1 NEAR_ROWS ahead, and into L1
    alone."""
    ways = []
    for ahead in aheads:
        ways.append((ahead, 0, 1))
        if order is not None and ahead > NEAR_ROWS:
            ways.append((ahead, NEAR_ROWS, 1))
    if order is not None:
        ways.append((2 * NEAR_ROWS, NEAR_ROWS, 0))
    return ways


def _at_way(lib, way, run):
    """run(ahead) with floor.c asking for rows the way `way` says, then back
    to asking into L2 alone."""
    ahead, near, far = way
    lib.floor_set_prefetch(near, far)
    try:
        return run(ahead)
    finally:
        lib.floor_set_prefetch(0, 1)


def _fastest(lib, order, aheads, run, tries=3):
    """A function timing run at the prefetch way at which it was fastest.

    Each way is tried `tries` times (after one run to warm up) and the
    fastest chosen once; the function returned then runs at that way only.
    So a floor is timed as many times as the epoch it is compared with:
    the best of a floor tried at a dozen ways, a few times each, against
    the best of five fits was the luckiest of some forty runs against the
    luckiest of five, on a machine whose load moves timings by 10-30%.
    run(ahead) returns seconds, or a tuple whose first item is seconds."""
    best, chosen = float("inf"), None
    for way in _prefetch_ways(order, aheads):
        _at_way(lib, way, run)
        for _ in range(tries):
            r = _at_way(lib, way, run)
            t = r[0] if isinstance(r, tuple) else r
            if t < best:
                best, chosen = t, way
    return lambda: _at_way(lib, chosen, run)


def floor_dense(X, y=None, order=None, aheads=None, blocks=False, passes=5,
                clock=None):
    """A function timing floor.c's pass over the rows of the C-contiguous
    float32 or float64 X as an epoch of ours is timed: the mean of `passes`
    passes, in order when `order` is None, else in that order (an intp
    permutation), each whole row prefetched `ahead` rows before it is read,
    at the prefetch distance and way found fastest (in order, 0 means the
    hardware prefetchers alone).  `blocks`: float32 at the library's
    precision (block sums in double) instead of float32 accumulators.
    `clock`: what times it (``time.thread_time``: the thread's CPU time,
    which other processes' slices of a shared machine leave out; None:
    CLOCK).  None without a C compiler."""
    clock = clock or now
    lib = floor_lib()
    if lib is None:
        return None
    import ctypes

    X = np.ascontiguousarray(X)
    n, d = X.shape
    if X.dtype == np.float32:
        fn = lib.floor_dense_f32_blocks if blocks else lib.floor_dense_f32
    else:
        fn = lib.floor_dense_f64
    w = np.full(d, 1e-3, dtype=X.dtype)
    y8 = _labels8(y, n)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    if aheads is None:
        # rows that sit in the last-level cache read fastest named 10-20 KB
        # ahead, rows from memory a few KB ahead: the floor takes the best
        aheads = (0, 8, 16, 32, 48) if order is None else (8, 12, 16, 24, 32, 48)
    out = ctypes.c_double()

    def run(ahead):
        t0 = clock()
        fn(_ptr(X), n, d, _ptr(w), 0.0, _ptr(y8), _ptr(order), ahead, ctypes.byref(out))
        return clock() - t0

    at = _fastest(lib, order, aheads, run)
    return lambda: _mean_of(at, passes)


def _mean_of(fn, times):
    """The mean of `times` calls of fn, which returns seconds."""
    return sum(fn() for _ in range(times)) / times


def floor_dense_updates(X, y, order=None, epochs=5, aheads=None, blocks=False):
    """A function returning (seconds, mistakes) of floor.c's pass with the
    perceptron's updates, `epochs` epochs from zero weights, in order or in
    `order` every epoch: the mean epoch, at the prefetch distance and way
    found fastest; mistakes is the mean an epoch.  `blocks`: float32 at the
    library's precision (block sums in double).  None without a C
    compiler."""
    lib = floor_lib()
    if lib is None:
        return None
    import ctypes

    X = np.ascontiguousarray(X)
    n, d = X.shape
    if X.dtype == np.float32:
        fn = lib.floor_dense_update_f32_blocks if blocks else lib.floor_dense_update_f32
    else:
        fn = lib.floor_dense_update_f64
    y8 = _labels8(y, n)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    if aheads is None:
        aheads = (0, 8, 16, 32, 48) if order is None else (8, 16, 24, 32, 48)

    def run(ahead):
        w = np.zeros(d, dtype=X.dtype)
        b = ctypes.c_double(0.0)
        bad = 0
        t0 = now()
        for _ in range(epochs):
            bad += fn(_ptr(X), n, d, _ptr(w), ctypes.byref(b), _ptr(y8), _ptr(order), ahead)
        return (now() - t0) / epochs, bad / epochs

    return _fastest(lib, order, aheads, run, tries=1)


def floor_ovr(X, y_index, k, order=None, aheads=None, blocks=False, passes=5):
    """A function timing floor.c's pass scoring every row against k classes
    at once (each row read once for all of them) as floor_dense times its
    pass; y_index holds class indices 0..k-1.  `blocks`: float32 at the
    library's precision (block sums in double) instead of float32
    accumulators."""
    lib = floor_lib()
    if lib is None:
        return None
    import ctypes

    X = np.ascontiguousarray(X)
    n, d = X.shape
    if X.dtype == np.float32:
        fn = lib.floor_ovr_f32_blocks if blocks else lib.floor_ovr_f32
    else:
        fn = lib.floor_ovr_f64
    W = np.full((k, d), 1e-3, dtype=X.dtype)
    b = np.zeros(k)
    yi = np.ascontiguousarray(y_index, dtype=np.intp)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    if aheads is None:
        aheads = (0, 4) if order is None else (8, 16)
    out = ctypes.c_double()

    def run(ahead):
        t0 = now()
        fn(_ptr(X), n, d, _ptr(W), k, _ptr(b), _ptr(yi), _ptr(order), ahead, ctypes.byref(out))
        return now() - t0

    at = _fastest(lib, order, aheads, run)
    return lambda: _mean_of(at, passes)


def floor_ovr_updates(X, y_index, k, order=None, epochs=5, aheads=None, blocks=False):
    """A function returning (seconds, mistakes) of floor.c's one-vs-rest
    pass with the perceptron's updates, as floor_dense_updates does;
    mistakes is the mean an epoch (summed over the classes).  `blocks`:
    float32 at the library's precision.  None without a C compiler."""
    lib = floor_lib()
    if lib is None:
        return None
    X = np.ascontiguousarray(X)
    n, d = X.shape
    if X.dtype == np.float32:
        fn = lib.floor_ovr_update_f32_blocks if blocks else lib.floor_ovr_update_f32
    else:
        fn = lib.floor_ovr_update_f64
    yi = np.ascontiguousarray(y_index, dtype=np.intp)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    if aheads is None:
        aheads = (0, 4) if order is None else (8, 16)

    def run(ahead):
        W = np.zeros((k, d), dtype=X.dtype)
        b = np.zeros(k)
        bad = 0
        t0 = now()
        for _ in range(epochs):
            bad += fn(_ptr(X), n, d, _ptr(W), k, _ptr(b), _ptr(yi), _ptr(order), ahead)
        return (now() - t0) / epochs, bad / epochs

    return _fastest(lib, order, aheads, run, tries=1)


def _csr_arrays(X):
    data = np.ascontiguousarray(X.data)
    indices = np.ascontiguousarray(X.indices, dtype=np.int32)
    indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
    return data, indices, indptr


def _csr_prefetch(order, aheads, nears):
    """The prefetch distances tried: none in order (the hardware
    prefetchers' job), else rows `ahead` into L2 and `near` into L1."""
    if aheads is None:
        aheads = (0,) if order is None else (4, 8, 16)
    if nears is None:
        nears = (0,) if order is None else (0, 2)
    return [(a, m) for a in aheads for m in nears]


def floor_csr(X, y=None, order=None, repeat=5, aheads=None, nears=None):
    """Best time of floor.c's pass gathering w[indices] for every row of the
    CSR matrix X (scipy.sparse, float32 or float64), in order or in
    `order`, over the prefetch distances of _csr_prefetch."""
    lib = floor_lib()
    if lib is None:
        return None
    import ctypes

    n, d = X.shape
    data, indices, indptr = _csr_arrays(X)
    fn = lib.floor_csr_f32 if data.dtype == np.float32 else lib.floor_csr_f64
    w = np.full(d, 1e-3, dtype=data.dtype)
    y8 = _labels8(y, n)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    out = ctypes.c_double()
    best = float("inf")
    for ahead, near in _csr_prefetch(order, aheads, nears):
        best = min(best, best_time(lambda: fn(_ptr(data), _ptr(indices), _ptr(indptr), n, _ptr(w),
                                              0.0, _ptr(y8), _ptr(order), ahead, near,
                                              ctypes.byref(out)), repeat=repeat))
    return best


def floor_csr_update(X, y, epochs, order=None, repeat=5, aheads=None, nears=None):
    """(best time of one epoch, mistakes of the last round) of floor.c's CSR pass with the
    perceptron's updates (w += y*x, b += y on y*a <= 0) for `epochs` passes
    from zero weights, the same order every pass."""
    lib = floor_lib()
    if lib is None:
        return None, None
    n, d = X.shape
    data, indices, indptr = _csr_arrays(X)
    fn = lib.floor_csr_update_f32 if data.dtype == np.float32 else lib.floor_csr_update_f64
    y8 = _labels8(y, n)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    w = np.zeros(d, dtype=data.dtype)
    b = np.zeros(1)
    mistakes = []

    def run(ahead, near):
        w[:] = 0
        b[:] = 0
        mistakes.append(fn(_ptr(data), _ptr(indices), _ptr(indptr), n, _ptr(w), _ptr(b),
                           _ptr(y8), _ptr(order), ahead, near, epochs))

    best = float("inf")
    for ahead, near in _csr_prefetch(order, aheads, nears):
        best = min(best, best_time(lambda: run(ahead, near), repeat=repeat))
    return best / epochs, mistakes[-1]


def floor_pocket(X, y, epochs, order=None, repeat=5):
    """floor.c's pocket fit (the plain rule and Gallant's ratchet, its
    counts stopping once the pocket cannot be beaten) on the float32 X from
    zero weights: (best time, rescorings, rows they read, pocket weights,
    pocket bias), or None without a C compiler."""
    lib = floor_lib()
    if lib is None:
        return None
    import ctypes

    X = np.ascontiguousarray(X, dtype=np.float32)
    n, d = X.shape
    y8 = _labels8(y, n)
    if order is not None:
        order = np.ascontiguousarray(order, dtype=np.intp)
    w, pw = np.zeros(d, dtype=np.float32), np.zeros(d, dtype=np.float32)
    b, pb = np.zeros(1), np.zeros(1)
    scored = ctypes.c_size_t()
    out = []

    def run():
        w[:] = 0
        b[:] = 0
        out[:] = [lib.floor_pocket_f32(_ptr(X), n, d, _ptr(y8), _ptr(order), epochs, _ptr(w),
                                       _ptr(b), _ptr(pw), _ptr(pb), ctypes.byref(scored))]

    t = best_time(run, repeat=repeat)
    return t, out[0], scored.value, pw.copy(), float(pb[0])


def ratio_line(label, t, t_floor, target):
    """'label: t ms = r x floor (floor f ms) [target <= T: met/MISSED]'."""
    if t_floor is None:
        return f"{label}: {t * 1e3:.2f} ms (no floor: no C compiler)"
    r = t / t_floor
    return (f"{label}: {t * 1e3:.2f} ms = {r:.2f}x floor ({t_floor * 1e3:.2f} ms) "
            f"[{verdict(r, target, higher_is_better=False)}]")

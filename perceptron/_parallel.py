"""Running compiled, GIL-free work on several threads.

The compiled loops release the GIL, so plain Python threads run them in
parallel.  One pool per process, created on first use and recreated in a
forked child (a pool's threads do not survive ``fork``).  The number of
threads is the number of CPUs this process may use, or the environment
variable ``PERCEPTRON_NUM_THREADS``.
"""
import os
import threading
from concurrent.futures import ThreadPoolExecutor

_lock = threading.Lock()
_pool = None
_pool_size = 0

# Below this many scalar operations a job runs on the calling thread: handing
# it to the pool would cost more than it saves.
PARALLEL_MIN_WORK = 1 << 21


def available_threads():
    """Threads the package uses by default."""
    env = os.environ.get("PERCEPTRON_NUM_THREADS", "").strip()
    if env:
        try:
            value = int(env)
        except ValueError:
            raise ValueError(f"PERCEPTRON_NUM_THREADS must be a positive int, got {env!r}") from None
        if value < 1:
            raise ValueError(f"PERCEPTRON_NUM_THREADS must be a positive int, got {env!r}")
        return value
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def resolve_n_jobs(n_jobs):
    """None -> 1 thread; -1 -> all available; k > 0 -> k; other values are errors."""
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int):
        raise TypeError(f"n_jobs must be None or an int, got {n_jobs!r}")
    if n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"n_jobs must be None, -1 or a positive int, got {n_jobs}")
    return available_threads() if n_jobs == -1 else n_jobs


def _get_pool(size):
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size < size:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="perceptron")
            _pool_size = size
        return _pool


def _forget_pool_after_fork():
    global _pool, _pool_size, _lock
    _pool = None
    _pool_size = 0
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def map_threads(fn, jobs, n_threads):
    """[fn(*job) for job in jobs], on up to n_threads threads, in order.

    The first exception raised by a job is re-raised here.
    """
    jobs = list(jobs)
    if n_threads <= 1 or len(jobs) <= 1:
        return [fn(*job) for job in jobs]
    pool = _get_pool(min(n_threads, len(jobs)))
    futures = [pool.submit(fn, *job) for job in jobs]
    return [f.result() for f in futures]


def row_chunks(n_rows, work_per_row, n_threads):
    """Split range(n_rows) into slices worth running in parallel."""
    if n_threads <= 1 or n_rows * work_per_row < PARALLEL_MIN_WORK or n_rows < 2:
        return [(0, n_rows)]
    k = min(n_threads, n_rows)
    bounds = [n_rows * i // k for i in range(k + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(k)]

"""Running compiled, GIL-free work on several threads, as many as the host allows.

The compiled loops release the GIL, so plain Python threads run them in
parallel.  One pool per process, created on first use and recreated in a
forked child (a pool's threads do not survive ``fork``); ``map_threads``
never runs more jobs at once than it is given threads, whatever the pool's
size.

How many threads (``n_jobs`` of an estimator, for scoring and one-vs-rest
fits), first rule that applies:

1. ``n_jobs`` when it is a positive int; -1 is all the threads below, -2 all
   but one, and so on (joblib's convention).  For a fit, None is 1 thread
   (scikit-learn's convention); for scoring, None is:
2. the limit set by ``threadpoolctl.threadpool_limits`` (the package
   registers a controller of its pool with threadpoolctl, when it is
   installed: user API ``"perceptron"``, so ``threadpool_limits(limits=1)``
   caps it as it caps BLAS and OpenMP);
3. ``PERCEPTRON_NUM_THREADS``;
4. the CPUs this process may use (``os.process_cpu_count``, else its CPU
   affinity, else ``os.cpu_count``), at most ``OMP_NUM_THREADS`` when that
   is set: joblib's worker processes set it to their share of the machine,
   so a model scoring inside ``GridSearchCV(n_jobs=k)`` does not
   oversubscribe the CPUs.
"""
import importlib
import operator
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, List, Optional

from perceptron._core import decision as _decision
from perceptron._version import __version__

_lock = threading.Lock()
_pool = None
_pool_size = 0

# the limit threadpoolctl sets through the controller below (None: none)
_limit = None

# Below this many scalar operations a job runs on the calling thread: handing
# it to the pool would cost more than it saves.
PARALLEL_MIN_WORK = 1 << 21


def _cpus():
    """CPUs this process may use."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if count is not None:
        return max(1, count() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _omp_num_threads():
    """OMP_NUM_THREADS as an int (its first level: "4,2" is 4), or None when it
    is unset or not a positive int (ignored, as OpenMP runtimes ignore it)."""
    value = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    try:
        n = int(value)
    except ValueError:
        return None
    return n if n >= 1 else None


def default_threads():
    """Threads for scoring without n_jobs or a threadpoolctl limit: rules 3, 4."""
    env = os.environ.get("PERCEPTRON_NUM_THREADS", "").strip()
    if env:
        try:
            value = int(env)
        except ValueError:
            raise ValueError(f"PERCEPTRON_NUM_THREADS must be a positive int, got {env!r}") from None
        if value < 1:
            raise ValueError(f"PERCEPTRON_NUM_THREADS must be a positive int, got {env!r}")
        return value
    n = _cpus()
    omp = _omp_num_threads()
    return n if omp is None else min(n, omp)


def available_threads():
    """Threads the package uses by default (n_jobs=None when scoring, and
    what n_jobs=-1 means): the threadpoolctl limit, else ``default_threads``."""
    limit = _limit
    return default_threads() if limit is None else limit


def resolve_n_jobs(n_jobs):
    """Threads of a fit: None -> 1; k > 0 -> k; -1 -> all available, -2 -> all
    but one, ... (at least 1); 0 and other values are errors."""
    if n_jobs is None:
        return 1
    try:
        if isinstance(n_jobs, bool):  # (numpy booleans have no __index__)
            raise TypeError
        n_jobs = operator.index(n_jobs)  # numpy integers too
    except TypeError:
        raise TypeError(f"n_jobs must be None or an int, got {n_jobs!r}") from None
    if not -2**31 <= n_jobs < 2**31:  # the loops' thread counts are C ints
        raise ValueError(f"n_jobs must be between -2**31 and 2**31 - 1, got {n_jobs}")
    if n_jobs == 0:
        raise ValueError("n_jobs must be None, a positive int or a negative int (-1: all the "
                         "threads available, -2: all but one, ...), got 0")
    if n_jobs > 0:
        return n_jobs
    return max(1, available_threads() + 1 + n_jobs)


def scoring_threads(n_jobs):
    """Threads of predict / decision_function: as ``resolve_n_jobs``, but None
    is every thread available (``available_threads``)."""
    return available_threads() if n_jobs is None else resolve_n_jobs(n_jobs)


def _set_limit(n):
    """threadpoolctl's limit; the default value clears it (threadpool_limits
    restores the value it read on entry)."""
    global _limit
    n = int(n)
    if n < 1:
        raise ValueError(f"the number of threads must be a positive int, got {n}")
    _limit = None if n == default_threads() else n


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
    """[fn(*job) for job in jobs], on at most n_threads threads at once, in order.

    Each of the n_threads workers takes the next job when it has finished
    one.  Every job runs; the exception of the first job (in order) that
    raised is re-raised here.  If the caller is interrupted while waiting,
    the jobs not yet started are dropped.
    """
    jobs = list(jobs)
    n = min(n_threads, len(jobs))
    if n <= 1:
        return [fn(*job) for job in jobs]
    results: List[Any] = [None] * len(jobs)
    errors: List[Optional[BaseException]] = [None] * len(jobs)
    order = iter(range(len(jobs)))
    take = threading.Lock()
    cancelled: List[bool] = []

    def worker():
        while True:
            with take:
                i = None if cancelled else next(order, None)
            if i is None:
                return
            try:
                results[i] = fn(*jobs[i])
            except BaseException as exc:  # re-raised by the caller, in job order
                errors[i] = exc

    pool = _get_pool(n)
    futures = [pool.submit(worker) for _ in range(n)]
    try:
        for f in futures:
            f.result()
    except BaseException:
        cancelled.append(True)
        raise
    for exc in errors:
        if exc is not None:
            raise exc
    return results


def row_chunks(n_rows, work_per_row, n_threads):
    """Split range(n_rows) into slices worth running in parallel."""
    if n_threads <= 1 or n_rows * work_per_row < PARALLEL_MIN_WORK or n_rows < 2:
        return [(0, n_rows)]
    k = min(n_threads, n_rows)
    bounds = [n_rows * i // k for i in range(k + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(k)]


# ------------------------------------------------------------ threadpoolctl

def _register_with_threadpoolctl():
    """Make threadpoolctl see the package's pool (``threadpool_info`` lists it,
    ``threadpool_limits`` sets its size), when threadpoolctl >= 3 is installed.

    threadpoolctl finds a library among the shared objects the process has
    loaded, by file name: ours is the compiled scoring module, which every
    estimator loads; a file of another package with the same name is
    refused (get_version raises OSError, which threadpoolctl skips)."""
    try:
        threadpoolctl = importlib.import_module("threadpoolctl")
    except ImportError:
        return None
    base: Any = getattr(threadpoolctl, "LibController", None)
    register = getattr(threadpoolctl, "register", None)
    if base is None or register is None:  # an older threadpoolctl
        return None
    ours = os.path.normcase(os.path.realpath(_decision.__file__))

    class PerceptronController(base):
        """The thread pool of perceptron (predict, decision_function, one-vs-rest fits)."""

        user_api = "perceptron"
        internal_api = "perceptron"
        filename_prefixes = (os.path.basename(ours).split(".")[0].lower() + ".",)
        check_symbols = ("PyInit_decision",)

        def get_num_threads(self):
            return available_threads()

        def set_num_threads(self, num_threads):
            _set_limit(num_threads)

        def get_version(self):
            if os.path.normcase(os.path.realpath(self.filepath)) != ours:
                raise OSError(f"{self.filepath} is not perceptron's")
            return __version__

    register(PerceptronController)
    return PerceptronController


_register_with_threadpoolctl()

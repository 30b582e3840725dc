"""Threads that respect their host: predict, decision_function and
one-vs-rest fits run on at most n_jobs threads; n_jobs=None scores on what
the process allows (CPU affinity, OMP_NUM_THREADS as joblib's workers set it,
threadpoolctl's threadpool_limits), and n_jobs follows joblib's negative
convention.  Counted by instrumenting the compiled calls the pool runs."""
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import perceptron
from perceptron import CentroidClassifier, KernelPerceptron, Perceptron, VotedPerceptron
from perceptron._common import parallel as _parallel
from perceptron._core import decision as _decision, kernel as _kernel
from perceptron._core import online as _online, ovr_epoch as _ovr_epoch, voted as _voted

from helpers import quiet


class Counter:
    """Wraps a function: counts its calls, the threads that ran them, and the
    most calls in flight at once (each call sleeps a little, so that calls
    handed to different threads overlap)."""

    def __init__(self, fn, pause=0.02):
        self.fn, self.pause = fn, pause
        self.calls, self.idents = 0, set()
        self.running = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, *args, **kw):
        with self.lock:
            self.calls += 1
            self.idents.add(threading.get_ident())
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            time.sleep(self.pause)
            return self.fn(*args, **kw)
        finally:
            with self.lock:
                self.running -= 1


@pytest.fixture
def cpus(monkeypatch):
    """Pretend the process may use 8 CPUs, whatever the machine, with no
    environment setting or threadpoolctl limit."""
    for name in ("PERCEPTRON_NUM_THREADS", "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(_parallel, "_cpus", lambda: 8)
    monkeypatch.setattr(_parallel, "_limit", None)
    monkeypatch.setattr(_parallel, "PARALLEL_MIN_WORK", 1)  # split every scoring
    return 8


def count(monkeypatch, module, name):
    counter = Counter(getattr(module, name))
    monkeypatch.setattr(module, name, counter)
    return counter


def data(n=64, d=6, k=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.argmax(X[:, :k], axis=1)
    return X, y


# --------------------------------------------------------------- the rules

def test_resolve_n_jobs(cpus):
    assert _parallel.resolve_n_jobs(None) == 1
    assert _parallel.resolve_n_jobs(3) == 3
    assert _parallel.resolve_n_jobs(-1) == 8
    assert _parallel.resolve_n_jobs(-2) == 7
    assert _parallel.resolve_n_jobs(-8) == 1
    assert _parallel.resolve_n_jobs(-100) == 1
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError, match="n_jobs must be None or an int"):
            _parallel.resolve_n_jobs(bad)
    with pytest.raises(ValueError, match="got 0"):
        _parallel.resolve_n_jobs(0)
    assert _parallel.scoring_threads(None) == 8
    assert _parallel.scoring_threads(2) == 2
    assert _parallel.scoring_threads(-2) == 7


def test_the_limits_of_the_host(cpus, monkeypatch):
    assert _parallel.available_threads() == 8
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert _parallel.available_threads() == 3
    assert _parallel.resolve_n_jobs(-1) == 3 and _parallel.resolve_n_jobs(5) == 5
    monkeypatch.setenv("OMP_NUM_THREADS", "16,2")  # nested levels: the first one
    assert _parallel.available_threads() == 8      # never more than the CPUs
    for ignored in ("", "zero", "0", "-3"):
        monkeypatch.setenv("OMP_NUM_THREADS", ignored)
        assert _parallel.available_threads() == 8
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    monkeypatch.setenv("PERCEPTRON_NUM_THREADS", "5")  # the package's own setting first
    assert _parallel.available_threads() == 5
    monkeypatch.setenv("PERCEPTRON_NUM_THREADS", "0")
    with pytest.raises(ValueError, match="PERCEPTRON_NUM_THREADS must be a positive int"):
        _parallel.available_threads()


def test_map_threads_never_runs_more_jobs_at_once_than_threads(cpus):
    _parallel._get_pool(8)  # a big pool, from an earlier call
    for n_threads in (1, 2, 3):
        counter = Counter(lambda i: i * i, pause=0.01)
        assert _parallel.map_threads(counter, [(i,) for i in range(12)], n_threads) == \
            [i * i for i in range(12)]
        assert counter.calls == 12
        assert counter.most <= n_threads and len(counter.idents) <= n_threads


def test_map_threads_raises_the_first_error_in_order_after_every_job(cpus):
    done = []

    def job(i):
        done.append(i)
        if i in (3, 5):
            raise KeyError(i)
        return i

    with pytest.raises(KeyError, match="3"):
        _parallel.map_threads(job, [(i,) for i in range(8)], 3)
    assert sorted(done) == list(range(8))


# ------------------------------------------------------ scoring, by n_jobs

@pytest.mark.parametrize("n_jobs, expected", [(1, 1), (2, 2), (None, 8), (-1, 8), (-3, 6)])
def test_linear_scoring_uses_at_most_n_jobs_threads(cpus, monkeypatch, n_jobs, expected):
    X, y = data(n=64)
    model = quiet(Perceptron(random_state=0, n_jobs=n_jobs).fit, X, y)
    reference = X @ model.coef_[0] + model.intercept_[0]
    dense = count(monkeypatch, _decision, "decision_dense")
    np.testing.assert_allclose(model.decision_function(X), reference)
    assert dense.calls == expected and dense.most <= expected
    assert len(dense.idents) <= expected
    scipy_sparse = pytest.importorskip("scipy.sparse")
    csr = count(monkeypatch, _decision, "decision_csr")
    np.testing.assert_allclose(model.decision_function(scipy_sparse.csr_matrix(X)), reference)
    assert csr.calls == expected and csr.most <= expected
    # predict: the loops that pick the classes, on as many threads
    picks = count(monkeypatch, _decision, "predict_dense")
    picks_csr = count(monkeypatch, _decision, "predict_csr")
    np.testing.assert_array_equal(model.predict(scipy_sparse.csr_matrix(X)), model.predict(X))
    assert picks.calls == expected and picks.most <= expected
    assert picks_csr.calls == expected and picks_csr.most <= expected


def test_a_model_without_n_jobs_scores_on_what_the_process_allows(cpus, monkeypatch):
    X, y = data(n=64)
    model = CentroidClassifier().fit(X, y)
    dense = count(monkeypatch, _decision, "predict_dense")
    model.predict(X)
    assert dense.calls == 8
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    model.predict(X)
    assert dense.calls == 8 + 2


@pytest.mark.parametrize("n_jobs, expected", [(1, 1), (2, 2), (None, 8)])
def test_voted_and_kernel_scoring_use_at_most_n_jobs_threads(cpus, monkeypatch, n_jobs,
                                                             expected):
    X, y = data(n=64)
    voted = quiet(VotedPerceptron(random_state=0, max_iter=2, n_jobs=n_jobs).fit, X, y)
    calls = count(monkeypatch, _voted, "decision_voted")
    voted.predict(X)
    assert calls.calls == expected and calls.most <= expected
    kernel = quiet(KernelPerceptron(random_state=0, max_iter=3, n_jobs=n_jobs).fit, X, y)
    calls = count(monkeypatch, _kernel, "decision_dual")
    kernel.predict(X)
    assert calls.calls == expected and calls.most <= expected


@pytest.mark.parametrize("n_jobs, expected", [(None, 1), (1, 1), (2, 2), (-1, 8)])
def test_fused_one_vs_rest_epochs_use_at_most_n_jobs_threads(cpus, monkeypatch, n_jobs,
                                                             expected):
    # dense rows: each epoch one fused pass per group of classes, n_jobs groups
    X, y = data(n=64, k=6)
    epochs = count(monkeypatch, _ovr_epoch, "run_ovr_epoch")
    model = quiet(Perceptron(random_state=0, max_iter=3, tol=None, n_jobs=n_jobs).fit, X, y)
    groups = min(expected, 6)
    assert 3 <= epochs.calls <= 3 * groups and model.n_iter_ == 3
    assert epochs.calls >= groups + 2  # the first epoch has every class
    assert epochs.most <= groups
    if expected > 1:
        assert epochs.most >= 2  # they do run side by side


@pytest.mark.parametrize("n_jobs, expected", [(None, 1), (1, 1), (2, 2), (-1, 8)])
def test_one_vs_rest_fits_use_at_most_n_jobs_threads(cpus, monkeypatch, n_jobs, expected):
    # CSR rows: each class's own loop
    X, y = data(n=64, k=6)
    X = pytest.importorskip("scipy.sparse").csr_matrix(X)
    epochs = count(monkeypatch, _online, "run_epochs")
    # one call per class and epoch: the classes share one row order,
    # shuffled between epochs (a class stops after an epoch without updates)
    model = quiet(Perceptron(random_state=0, max_iter=3, tol=None, n_jobs=n_jobs).fit, X, y)
    assert 6 + 2 * 1 <= epochs.calls <= 6 * 3 and model.n_iter_ == 3
    # (each epoch is a new round of jobs, which any threads of the pool may
    # take: the bound is on the jobs in flight, not on the threads' names)
    assert epochs.most <= min(expected, 6)
    if expected > 1:
        assert epochs.most >= 2  # they do run side by side


@pytest.mark.parametrize("n_jobs, shards", [(2, 2), (3, 3), (-1, 8)])
def test_one_problem_runs_its_shards_side_by_side(cpus, monkeypatch, n_jobs, shards):
    # iterative parameter mixing: every epoch, one call per shard, on n_jobs threads
    from perceptron.linear import _mixing

    monkeypatch.setattr(_mixing, "THREAD_MIN_WORK", 1)
    X, y = data(n=200, k=2)
    epochs = count(monkeypatch, _online, "run_epochs")
    model = quiet(Perceptron(random_state=0, max_iter=3, tol=None, n_jobs=n_jobs).fit, X, y)
    assert epochs.calls == shards * model.n_iter_
    assert epochs.most == shards  # at most n_jobs at once, and they do overlap


def test_the_model_does_not_depend_on_the_threads(cpus):
    X, y = data(n=300, d=20, k=5)
    models = [quiet(Perceptron(random_state=0, n_jobs=n).fit, X, y) for n in (1, 3, -1)]
    for m in models[1:]:
        np.testing.assert_array_equal(m.coef_, models[0].coef_)
        np.testing.assert_array_equal(m.decision_function(X), models[0].decision_function(X))


# ------------------------------------------------------------ threadpoolctl

def test_threadpool_limits_caps_the_pool(cpus, monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    if not hasattr(threadpoolctl, "register"):
        pytest.skip("this threadpoolctl takes no controller of other libraries")
    ours = [lib for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "perceptron"]
    assert len(ours) == 1
    assert ours[0]["num_threads"] == 8 and ours[0]["version"] == perceptron.__version__
    X, y = data(n=64)
    model = quiet(Perceptron(random_state=0).fit, X, y)
    dense = count(monkeypatch, _decision, "predict_dense")
    with threadpoolctl.threadpool_limits(limits=1):
        model.predict(X)
        assert dense.calls == 1
        assert _parallel.resolve_n_jobs(-1) == 1
        # an explicit n_jobs comes first
        assert _parallel.scoring_threads(3) == 3
    with threadpoolctl.threadpool_limits(limits={"perceptron": 3}):
        model.predict(X)
        assert dense.calls == 1 + 3
    with threadpoolctl.threadpool_limits(limits=1, user_api="blas"):  # not ours
        model.predict(X)
        assert dense.calls == 4 + 8
    # restored on exit, and not left behind as a fixed count
    assert _parallel._limit is None and _parallel.available_threads() == 8
    with threadpoolctl.threadpool_limits(limits=2):
        assert [lib["num_threads"] for lib in threadpoolctl.threadpool_info()
                if lib["user_api"] == "perceptron"] == [2]


# ------------------------------------------------- in another process

def run_python(code, **env):
    full = dict(os.environ)
    for name in ("PERCEPTRON_NUM_THREADS", "OMP_NUM_THREADS"):
        full.pop(name, None)
    full.update(env)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


COUNT_SCORING = """
    import numpy as np
    import perceptron
    from perceptron._common import parallel as _parallel
    from perceptron._core import decision
    _parallel.PARALLEL_MIN_WORK = 1
    calls = []
    original = decision.predict_dense
    decision.predict_dense = lambda *a: (calls.append(1), original(*a))[1]
    X = np.random.default_rng(0).standard_normal((64, 4))
    model = perceptron.CentroidClassifier().fit(X, X[:, 0] > 0)
    model.predict(X)
    print(_parallel.available_threads(), len(calls))
"""


@pytest.mark.slow  # a fresh interpreter
def test_omp_num_threads_in_a_new_process():
    cpus = _parallel._cpus()
    assert run_python(COUNT_SCORING, OMP_NUM_THREADS="1") == ["1", "1"]
    assert run_python(COUNT_SCORING) == [str(cpus), str(cpus)]
    assert run_python(COUNT_SCORING, OMP_NUM_THREADS="1",
                      PERCEPTRON_NUM_THREADS="3") == ["3", "3"]


@pytest.mark.slow  # loky worker processes
def test_joblib_workers_score_on_their_share():
    # joblib's loky workers set OMP_NUM_THREADS to their share of the CPUs
    joblib = pytest.importorskip("joblib")
    from joblib import Parallel, delayed

    cpus = joblib.cpu_count()
    shares = Parallel(n_jobs=2, backend="loky")(
        delayed(_parallel.available_threads)() for _ in range(2))
    assert all(1 <= s <= max(1, cpus // 2) for s in shares)

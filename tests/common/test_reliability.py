"""Interrupts, threads and leaks: Ctrl-C ends a long fit quickly and
leaves the estimator as it was; fits on several threads give the models they
give one after another; thousands of fit/predict/save/load cycles keep the
resident memory flat."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy as np
import pytest

import perceptron
from perceptron import ConvergenceWarning, Perceptron

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is sent differently on Windows")
def test_ctrl_c_stops_a_long_fit_and_leaves_the_model_as_it_was(tmp_path):
    script = textwrap.dedent("""
        import sys, time, warnings
        import numpy as np
        from perceptron import Perceptron
        warnings.simplefilter("ignore")
        rng = np.random.default_rng(0)
        X = rng.standard_normal((200000, 64)).astype(np.float32)
        y = rng.integers(0, 2, 200000)            # noise: never converges
        model = Perceptron(max_iter=2, random_state=0).fit(X[:1000], y[:1000])
        before = model.coef_.copy(), model.n_iter_
        print("ready", flush=True)
        try:
            model.set_params(max_iter=100000, tol=None).fit(X, y)
        except KeyboardInterrupt:
            same = np.array_equal(model.coef_, before[0]) and model.n_iter_ == before[1]
            print("interrupted", same, flush=True)
            sys.exit(0)
        print("finished?!", flush=True)
    """)
    # a job started in the background by a non-interactive shell (nohup, &)
    # ignores SIGINT, the child would inherit that and Python would then not
    # install its KeyboardInterrupt handler: give the child the default
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)  # well inside the long fit
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    waited = time.perf_counter() - sent
    assert proc.returncode == 0, out
    assert out.strip() == "interrupted True"
    # not a timing assertion on speed: a fit that ignored Ctrl-C would run for minutes
    assert waited < 30, f"the fit went on for {waited:.1f} s after Ctrl-C"


def test_fits_on_threads_equal_fits_one_after_another(rng):
    data = []
    for k in range(4):
        X = rng.standard_normal((20000, 32)).astype(np.float32 if k % 2 else np.float64)
        y = np.where(X @ rng.standard_normal(32) + 0.3 * rng.standard_normal(20000) > 0, 1, -1)
        data.append((X, y))
    params = [dict(average=True), dict(), dict(margin=0.5), dict(pocket=True)]

    def make(k):
        return Perceptron(max_iter=5, random_state=k, **params[k])

    serial = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for k in range(4):
            serial.append(make(k).fit(*data[k]))
    threaded = [make(k) for k in range(4)]
    errors = []

    def work(k):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                threaded[k].fit(*data[k])
        except Exception as exc:  # reported from the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for a, b in zip(serial, threaded):
        np.testing.assert_array_equal(a.coef_, b.coef_)
        np.testing.assert_array_equal(a.mistakes_, b.mistakes_)


def _resident_bytes():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.slow  # hundreds of fits, saves and loads
@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux's /proc")
def test_repeated_fit_predict_save_load_keeps_memory_flat(rng, tmp_path):
    X = rng.standard_normal((300, 20))
    y = np.where(X[:, 0] > 0, "a", "b")
    path = str(tmp_path / "m.ptn")

    def cycle(i):
        model = Perceptron(max_iter=3, average=i % 2 == 0, random_state=i).fit(X, y)
        model.predict(X)
        model.decision_one(X[0])
        model.save(path)
        perceptron.load(path).predict(X[:5])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for i in range(300):  # warm up: caches, the allocator's pools
            cycle(i)
        start = _resident_bytes()
        for i in range(3000):
            cycle(i)
        grown = _resident_bytes() - start
    # a leak of even one 300 x 20 array per cycle would add 140 MB
    assert grown < 16 * 2**20, f"resident memory grew by {grown / 2**20:.1f} MiB over 3000 cycles"

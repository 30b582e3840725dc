"""The fused one-vs-rest epoch: each row read once for all the classes.

One-vs-rest over dense rows runs one epoch for all its classes
(perceptron/_core/ovr_epoch.pyx), scoring each row against every class
still training with the kernels' ``dots``.  Each class must end with the
bits its own binary loop gives over the same shared order: the weights,
bias, averaging accumulators, counters and per-epoch tallies.  The tests
compare the fused epoch with the per-class loops (``fused_ovr_covers``
turned off) bit for bit, with the numpy reference on integer data (where
every level's sums are exact), at every SIMD level the machine has.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import perceptron.linear._problem as problem
import perceptron.linear._training as training
from perceptron import Perceptron, simd as _simd
from perceptron._core import online, ovr_epoch
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from helpers import quiet
from reference import ovr_reference

LEVELS = _simd.simd_info()["supported"]


def per_class(monkeypatch):
    """Run the one-vs-rest problems through each class's own loop."""
    monkeypatch.setattr(training, "fused_ovr_covers", lambda *args: False)


def counting_fused(monkeypatch):
    """Count the fused epochs run (a list that grows by one per epoch)."""
    calls = []
    real = training.run_fused_ovr

    def spy(*args, **kw):
        calls.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(training, "run_fused_ovr", spy)
    return calls


def state_arrays(model):
    """Everything a class's training state holds, per class."""
    out = []
    for s in model._states:
        out.append({"W": s.W.copy(), "b": s.b.copy(), "counters": s.counters.copy(),
                    "U": None if s.U is None else s.U.copy(),
                    "ub": None if s.ub is None else s.ub.copy()})
    return out


def assert_same_model(a, b):
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.coef_.dtype == b.coef_.dtype
    for key in ("mistakes_", "updates_", "loss_"):
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key))
    assert a.n_iter_ == b.n_iter_ and a.t_ == b.t_
    for sa, sb in zip(state_arrays(a), state_arrays(b)):
        for key, value in sa.items():
            if value is None:
                assert sb[key] is None
            else:
                np.testing.assert_array_equal(value, sb[key], err_msg=key)


# ------------------------------------------------------------------ the kernel

@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(0, 300), m=st.integers(1, 12),
       dtype=st.sampled_from([np.float32, np.float64]), offset=st.integers(0, 15),
       scale=st.sampled_from([1.0, 1e-30, 1e30, 1e-3]), tails=st.booleans())
def test_dots_is_the_dot_product_of_each_row(level, data, n, m, dtype, offset, scale, tails):
    """dots (and dots_f32_tails, given the rows' tails in double) gives
    each weight row the bits of the level's dot (blocks, order, the float32
    fallback out of range), x at any alignment."""
    tails = tails and dtype == np.float32
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    buf = (rng.standard_normal(n + offset) * scale).astype(dtype)
    x = buf[offset:]
    W = (rng.standard_normal((m, n)) * scale).astype(dtype)
    if n and data.draw(st.booleans()):
        W[rng.integers(0, m), rng.integers(0, n)] = np.inf
    got = _simd._py_dots(x, W, level, tails=tails)
    want = np.array([_simd._py_dot(x, np.ascontiguousarray(W[c]), level) for c in range(m)])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dots_at_every_block_boundary(level, dtype):
    """Lengths around every block and group size of every level, and 1 to
    9 weight vectors (the groups of two and four and what is left)."""
    rng = np.random.default_rng(7)
    for n in (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 96, 100,
              127, 128, 129, 200, 257):
        for m in range(1, 10):
            x = rng.standard_normal(n + 1).astype(dtype)[1:]  # off the allocation's alignment
            W = rng.standard_normal((m, n)).astype(dtype)
            want = [_simd._py_dot(x, np.ascontiguousarray(W[c]), level) for c in range(m)]
            np.testing.assert_array_equal(_simd._py_dots(x, W, level), want)
            if dtype == np.float32:
                np.testing.assert_array_equal(_simd._py_dots(x, W, level, tails=True), want)


@pytest.mark.parametrize("level", LEVELS)
def test_dots_tails_signed_zeros_and_exact_sums(level):
    """dots_f32_tails on rows of signed zeros and small integers (sums that
    are exactly zero, the tail's zero padding against -0 products): the
    bits of the level's dot."""
    rng = np.random.default_rng(11)
    values = np.array([-0.0, 0.0, 1.0, -1.0, 2.0], dtype=np.float32)
    for n in (1, 15, 16, 17, 31, 32, 33, 48, 49, 63, 64, 65, 100, 127, 128, 129, 191):
        for _ in range(8):
            x = rng.choice(values, n)
            W = rng.choice(values, (5, n))
            want = [_simd._py_dot(x, np.ascontiguousarray(W[c]), level) for c in range(5)]
            got = _simd._py_dots(x, W, level, tails=True)
            np.testing.assert_array_equal(got, want)
            assert (np.signbit(got) == np.signbit(want)).all()


# ------------------------------------------------- fused against per-class loops

@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(3, 150), d=st.integers(1, 80),
       k=st.integers(3, 40), dtype=st.sampled_from([np.float32, np.float64]),
       fit_intercept=st.booleans(), average=st.booleans(), shuffle=st.booleans(),
       margin=st.sampled_from([0.0, 0.5]), eta0=st.sampled_from([1.0, 0.37]),
       weights=st.sampled_from([None, "sample", "balanced", "zeros"]),
       n_jobs=st.sampled_from([1, 2, 3]), max_iter=st.integers(1, 6))
def test_fused_epoch_gives_the_per_class_bits(seed, n, d, k, dtype, fit_intercept,
                                              average, shuffle, margin, eta0, weights, n_jobs,
                                              max_iter):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    t = rng.integers(0, k, n)
    t[:3] = [0, 1, 2]  # at least three classes; others may have no row
    sw = None
    if weights == "sample":
        sw = rng.random(n) * 2
    elif weights == "zeros":
        sw = np.where(rng.random(n) < 0.3, 0.0, 1.0)
        sw[:3] = 1.0
    params = dict(max_iter=max_iter, tol=None, random_state=seed, fit_intercept=fit_intercept,
                  average=average, shuffle=shuffle, margin=margin, eta0=eta0, n_jobs=n_jobs,
                  class_weight="balanced" if weights == "balanced" else None)
    with pytest.MonkeyPatch.context() as mp:
        calls = counting_fused(mp)
        fused = quiet(Perceptron(**params).fit, X, t, sample_weight=sw)
    assert calls, "the fused epoch did not run"
    with pytest.MonkeyPatch.context() as mp:
        per_class(mp)
        each = quiet(Perceptron(**params).fit, X, t, sample_weight=sw)
    assert_same_model(fused, each)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_results_do_not_depend_on_n_jobs(rng, dtype):
    X = rng.standard_normal((300, 70)).astype(dtype)
    t = rng.integers(0, 11, 300)
    fits = [quiet(Perceptron(max_iter=5, tol=None, random_state=2, average=True,
                             n_jobs=n_jobs).fit, X, t) for n_jobs in (1, 2, 3, 11, 40)]
    for other in fits[1:]:
        assert_same_model(fits[0], other)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tol_early_stopping_and_callbacks_go_through_the_fused_epoch(monkeypatch, rng, dtype):
    X = rng.standard_normal((200, 9)).astype(dtype)
    t = rng.integers(0, 5, 200)
    for params in (dict(tol=1e-3, n_iter_no_change=2), dict(early_stopping=True, tol=None),
                   dict(tol=None, callback=lambda info: None)):
        calls = counting_fused(monkeypatch)
        fused = quiet(Perceptron(max_iter=8, random_state=4, **params).fit, X, t)
        assert calls
        monkeypatch.undo()
        per_class(monkeypatch)
        each = quiet(Perceptron(max_iter=8, random_state=4, **params).fit, X, t)
        monkeypatch.undo()
        assert_same_model(fused, each)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("average", [False, True])
def test_warm_start_and_coef_init_continue_alike(monkeypatch, rng, dtype, average):
    X = rng.standard_normal((150, 12)).astype(dtype)
    t = rng.integers(0, 4, 150)
    W0 = rng.standard_normal((4, 12))
    b0 = rng.standard_normal(4)

    def run():
        m = Perceptron(max_iter=3, tol=None, random_state=1, warm_start=True, average=average)
        quiet(m.fit, X, t, coef_init=W0, intercept_init=b0)
        return quiet(m.fit, X, t)
    fused = run()
    per_class(monkeypatch)
    assert_same_model(fused, run())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), k=st.integers(3, 40), d=st.integers(1, 40),
       dtype=st.sampled_from([np.float32, np.float64]), average=st.booleans(),
       n_chunks=st.integers(1, 4))
def test_partial_fit_chunks_with_absent_classes(seed, k, d, dtype, average,
                                                n_chunks):
    """partial_fit's one epoch a chunk goes through the fused epoch too;
    chunks hold only some of the classes (the others have no row there)."""
    rng = np.random.default_rng(seed)
    chunks = []
    for _ in range(n_chunks):
        n = int(rng.integers(1, 60))
        present = rng.choice(k, size=min(k, int(rng.integers(1, 4))), replace=False)
        chunks.append((rng.standard_normal((n, d)).astype(dtype), rng.choice(present, n),
                       rng.random(n) + 0.5 if rng.random() < 0.5 else None))

    def run():
        m = Perceptron(random_state=seed, average=average, n_jobs=2)
        for X, t, sw in chunks:
            m.partial_fit(X, t, classes=np.arange(k), sample_weight=sw)
        return m
    with pytest.MonkeyPatch.context() as mp:
        calls = counting_fused(mp)
        fused = run()
    assert len(calls) == n_chunks
    with pytest.MonkeyPatch.context() as mp:
        per_class(mp)
        each = run()
    assert_same_model(fused, each)


# ------------------------------------------------------------ the reference

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(3, 80), d=st.integers(1, 70),
       k=st.integers(3, 12), dtype=st.sampled_from([np.float32, np.float64]),
       margin=st.sampled_from([0.0, 2.0]), eta0=st.sampled_from([1.0, 0.5]),
       weighted=st.booleans(), fit_intercept=st.booleans(), max_iter=st.integers(1, 5))
def test_fused_epoch_against_the_numpy_reference(seed, n, d, k, dtype, margin, eta0, weighted,
                                                 fit_intercept, max_iter):
    """Integer data: every sum is exact, so the reference's float64 dot
    products are the kernels' at any level."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(dtype)
    t = rng.integers(0, k, n)
    t[:3] = [0, 1, 2]
    sw = rng.integers(1, 4, n).astype(np.float64) if weighted else None
    m = quiet(Perceptron(max_iter=max_iter, tol=None, random_state=seed, margin=margin,
                         eta0=eta0, fit_intercept=fit_intercept).fit, X, t, sample_weight=sw)
    orders = shuffled_orders(n, max_iter, check_random_seed(seed))
    classes = np.unique(t)  # the classes with rows (the others are no class of the fit)
    W, b, mistakes, _ = ovr_reference(X, np.searchsorted(classes, t), len(classes), orders=orders,
                                      eta=eta0, margin=margin, sample_weight=sw,
                                      fit_intercept=fit_intercept)
    np.testing.assert_array_equal(m.coef_, W)
    np.testing.assert_array_equal(m.intercept_, b.astype(dtype))
    np.testing.assert_array_equal(m.mistakes_, mistakes)


# ------------------------------------------------------ every SIMD level

LEVEL_SCRIPT = r"""
import json, sys, warnings
import numpy as np
import perceptron.linear._training as training
from perceptron import Perceptron, simd_info
sys.path.insert(0, sys.argv[1])
from reference import ovr_reference
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed
warnings.simplefilter("ignore")
out = {"level": simd_info()["level"], "same": [], "reference": []}
real = training.fused_ovr_covers
for seed, (n, d, k, dtype) in enumerate([(120, 5, 3, "float32"), (90, 64, 7, "float32"),
                                         (80, 100, 12, "float32"), (70, 33, 40, "float64"),
                                         (100, 100, 10, "float64"), (60, 131, 5, "float32")]):
    rng = np.random.default_rng(seed)
    X = (rng.standard_normal((n, d)) * [1.0, 1e30, 1e-30][seed % 3]).astype(dtype)
    t = rng.integers(0, k, n)
    for average in (False, True):
        kw = dict(max_iter=4, tol=None, random_state=seed, average=average, margin=0.1)
        training.fused_ovr_covers = real
        a = Perceptron(**kw).fit(X, t)
        training.fused_ovr_covers = lambda *args: False
        b = Perceptron(**kw).fit(X, t)
        out["same"].append(bool(np.array_equal(a.coef_, b.coef_)
                                and np.array_equal(a.intercept_, b.intercept_)
                                and np.array_equal(a.mistakes_, b.mistakes_)
                                and all(np.array_equal(s.counters, r.counters)
                                        for s, r in zip(a._states, b._states))))
    training.fused_ovr_covers = real
    Xi = rng.integers(-4, 5, size=(n, d)).astype(dtype)
    m = Perceptron(max_iter=3, tol=None, random_state=seed).fit(Xi, t)
    classes = np.unique(t)
    W, b, mistakes, _ = ovr_reference(Xi, np.searchsorted(classes, t), len(classes),
                                      orders=shuffled_orders(n, 3, check_random_seed(seed)))
    out["reference"].append(bool(np.array_equal(m.coef_, W) and np.array_equal(m.mistakes_, mistakes)))
print(json.dumps(out))
"""


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.parametrize("level", LEVELS)
def test_fused_epoch_at_every_simd_level(level):
    """In a fresh process at each level: fused and per-class loops agree bit
    for bit (float data, in and out of float32's comfortable range), and
    both with the reference on integer data."""
    env = {**os.environ, _simd.ENV_VAR: level}
    # the folder of reference.py, for the child's sys.path
    folder = os.path.dirname(os.path.abspath(sys.modules[ovr_reference.__module__].__file__))
    done = subprocess.run([sys.executable, "-c", LEVEL_SCRIPT, folder], env=env,
                          capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["level"] == level
    assert all(out["same"]), out
    assert all(out["reference"]), out


# --------------------------------------------------- what it covers, and not

def test_the_fused_epoch_is_chosen_in_one_place(rng):
    X = rng.standard_normal((40, 4))
    t = rng.integers(0, 3, 40)
    index = np.searchsorted(np.unique(t), t).astype(np.int32)

    def problems(pocket=False):
        from perceptron.linear._state import OnlineState
        return [problem.Problem(OnlineState(1, 4, X.dtype, multinomial=False, average=False,
                                             pocket=pocket, batch_size=None, seed=0),
                                 problem.class_signs(index, j)) for j in range(3)]

    def params(**kw):
        base = dict(eta=1.0, margin=0.0, fit_intercept=True, shuffle=True, average=False,
                    pocket=False, stop_when_converged=True)
        return online.LoopParams(**{**base, **kw})
    assert training.fused_ovr_covers(X, problems(), params())
    assert training.fused_ovr_covers(X.astype(np.float32), problems(), params(average=True))
    assert not training.fused_ovr_covers(X, problems(True), params(pocket=True))
    assert not training.fused_ovr_covers(X, problems(), params(penalty="l2", alpha=1e-3))
    assert not training.fused_ovr_covers(X, problems(), params(batch_size=4))
    assert not training.fused_ovr_covers(np.asfortranarray(X), problems(), params())
    signs = problems()
    signs[1].labels = np.where(index == 1, 1, -1).astype(np.int8)
    assert not training.fused_ovr_covers(X, signs, params())


@pytest.mark.parametrize("params", [dict(pocket=True), dict(penalty="l2", alpha=1e-3),
                                    dict(batch_size=8), dict(sparse=True)])
def test_what_the_fused_epoch_does_not_cover_runs_per_class(monkeypatch, rng, params):
    params = dict(params)
    X = rng.integers(-3, 4, size=(90, 6)).astype(np.float64)
    t = rng.integers(0, 4, 90)
    if params.pop("sparse", False):
        X = pytest.importorskip("scipy.sparse").csr_matrix(X)
    calls = counting_fused(monkeypatch)
    quiet(Perceptron(max_iter=3, tol=None, random_state=0, **params).fit, X, t)
    assert not calls


def test_nan_in_x_is_named_as_by_the_per_class_loops(monkeypatch, rng):
    X = rng.standard_normal((50, 5))
    X[17, 3] = np.nan
    t = rng.integers(0, 4, 50)
    with pytest.raises(ValueError, match=r"NaN or infinity \(row 17\)"):
        Perceptron(random_state=0).fit(X, t)
    per_class(monkeypatch)
    with pytest.raises(ValueError, match=r"NaN or infinity \(row 17\)"):
        Perceptron(random_state=0).fit(X, t)


def test_overflow_is_reported(rng):
    X = rng.standard_normal((60, 4)) * 1e300
    t = rng.integers(0, 3, 60)
    with pytest.raises(FloatingPointError, match="overflowed"):
        Perceptron(random_state=0, eta0=1e10, max_iter=50).fit(X, t)


def test_the_stop_flag_ends_the_epoch(rng):
    """The loop checks the caller's stop flag (and Ctrl-C) as the per-class
    loops do, every few megabytes of work: every class reports the stop."""
    from perceptron.linear._state import OnlineState
    n, d, k = 64, 2000, 40
    X = rng.standard_normal((n, d))
    t = rng.integers(0, k, n).astype(np.int32)
    states = [OnlineState(1, d, X.dtype, multinomial=False, average=False, pocket=False,
                          batch_size=None, seed=0) for _ in range(k)]
    params = online.LoopParams(eta=1.0, margin=0.0, fit_intercept=True, shuffle=False,
                               average=False, pocket=False, stop_when_converged=False,
                               keep_order=True)
    rows = np.arange(n, dtype=np.intp)
    res = ovr_epoch.run_ovr_epoch(states, X, t, np.arange(k), None, rows, params,
                                  np.ones(1, dtype=np.uint8))
    assert {r["status"] for r in res} == {online.STATUS_STOPPED}
    assert all(r["epochs"] == 0 for r in res)
    res = ovr_epoch.run_ovr_epoch(states, X, t, np.arange(k), None, rows, params,
                                  np.zeros(1, dtype=np.uint8))
    assert {r["status"] for r in res} == {online.STATUS_OK}


def test_run_ovr_epoch_refuses_what_it_does_not_run(rng):
    from perceptron.linear._state import OnlineState
    X = rng.standard_normal((10, 3))
    t = np.zeros(10, dtype=np.int32)
    rows = np.arange(10, dtype=np.intp)
    states = [OnlineState(1, 3, X.dtype, multinomial=False, average=False, pocket=True,
                          batch_size=None, seed=0)]
    base = dict(eta=1.0, margin=0.0, fit_intercept=True, shuffle=False, average=False,
                stop_when_converged=False, keep_order=True)
    with pytest.raises(ValueError, match="without pocket"):
        ovr_epoch.run_ovr_epoch(states, X, t, [0], None, rows,
                                online.LoopParams(pocket=True, **base))
    wide = [OnlineState(1, 4, X.dtype, multinomial=False, average=False, pocket=False,
                        batch_size=None, seed=0)]
    with pytest.raises(ValueError, match="X's width"):
        ovr_epoch.run_ovr_epoch(wide, X, t, [0], None, rows,
                                online.LoopParams(pocket=False, **base))

"""The software-prefetch policy for rows read in rising order.

Whether the loops name rows read in order ahead of time (as they always do
rows read in a shuffled order) is chosen at import from the CPU: never on
AMD's cores, whose own prefetchers stream such rows faster alone.  A
prefetch is a hint: it changes how long a loop takes, never what it
computes.  These tests hold every estimator's results to the same bits
under both settings, on data large enough (over 2 MB) for the loops to
prefetch at all.
"""
import platform

import numpy as np
import pytest

import perceptron.simd as simd
from perceptron import CentroidClassifier, Perceptron, VotedPerceptron, simd_info

pytestmark = pytest.mark.filterwarnings("ignore::perceptron.ConvergenceWarning")

N, D = 3000, 100  # 2.4 MB of float64 rows: past the loops' 2 MB threshold


@pytest.fixture
def policy():
    """Set the policy for one test; restores the import-time setting."""
    before = simd._set_prefetch_sequential(True)
    yield simd._set_prefetch_sequential
    simd._set_prefetch_sequential(before)


def _data(dtype, k=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((N, D)).astype(dtype)
    W = rng.standard_normal((D, k))
    y = np.argmax(X.astype(np.float64) @ W + 0.3 * rng.standard_normal((N, k)), axis=1)
    return X, y


def test_simd_info_reports_the_policy_and_the_vendor():
    info = simd_info()
    assert isinstance(info["prefetch_sequential"], bool)
    assert isinstance(info["cpu"]["amd"], bool)
    assert simd._sequential_prefetch_default() == (not info["cpu"]["amd"])


@pytest.mark.skipif(platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"),
                    reason="/proc/cpuinfo's vendor_id is read on x86 Linux")
def test_vendor_is_the_one_the_kernel_reports():
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        vendors = {line.split(":", 1)[1].strip() for line in f if line.startswith("vendor_id")}
    assert len(vendors) == 1
    vendor = vendors.pop()
    assert simd_info()["cpu"]["amd"] == (vendor in ("AuthenticAMD", "HygonGenuine"))


def test_the_setter_returns_the_previous_setting(policy):
    assert policy(False) is True
    assert simd_info()["prefetch_sequential"] is False
    assert policy(True) is False
    assert simd_info()["prefetch_sequential"] is True


def _fitted(make, X, y, set_policy, flag):
    set_policy(flag)
    model = make().fit(X, y)
    return model, model.decision_function(X), model.predict(X)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("make", [
    lambda: Perceptron(max_iter=3, tol=None, shuffle=False),
    lambda: Perceptron(max_iter=3, tol=None, shuffle=True, random_state=1),
    lambda: Perceptron(max_iter=3, tol=None, shuffle=False, average=True),
    lambda: Perceptron(max_iter=3, tol=None, shuffle=False, pocket=True),
    lambda: Perceptron(max_iter=2, tol=None, shuffle=False, batch_size=16),
    lambda: Perceptron(max_iter=2, tol=None, shuffle=False, penalty="l2", alpha=1e-4),
], ids=["in-order", "shuffled", "averaged", "pocket", "mini-batch", "l2"])
def test_binary_fits_do_not_depend_on_the_policy(policy, dtype, make):
    X, y = _data(dtype)
    a, da, pa = _fitted(make, X, y, policy, True)
    b, db, pb = _fitted(make, X, y, policy, False)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)
    assert np.array_equal(a.mistakes_, b.mistakes_)
    assert np.array_equal(da, db) and np.array_equal(pa, pb)


@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
@pytest.mark.parametrize("shuffle", [False, True])
def test_multiclass_fits_do_not_depend_on_the_policy(policy, multiclass, shuffle):
    X, y = _data(np.float64, k=4)
    make = lambda: Perceptron(max_iter=3, tol=None, shuffle=shuffle, random_state=2,  # noqa: E731
                              multiclass=multiclass)
    a, da, pa = _fitted(make, X, y, policy, True)
    b, db, pb = _fitted(make, X, y, policy, False)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)
    assert np.array_equal(da, db) and np.array_equal(pa, pb)


@pytest.mark.parametrize("make", [
    lambda: VotedPerceptron(max_iter=2, shuffle=False),
    lambda: CentroidClassifier(),
], ids=["voted", "centroid"])
def test_other_estimators_do_not_depend_on_the_policy(policy, make):
    X, y = _data(np.float64, k=3)
    _, da, pa = _fitted(make, X, y, policy, True)
    _, db, pb = _fitted(make, X, y, policy, False)
    assert np.array_equal(da, db) and np.array_equal(pa, pb)


def test_sparse_scoring_does_not_depend_on_the_policy(policy):
    sp = pytest.importorskip("scipy.sparse")
    X, y = _data(np.float64)
    X[np.abs(X) < 1.0] = 0.0
    Xs = sp.csr_matrix(X)
    model = Perceptron(max_iter=2, tol=None, shuffle=False).fit(Xs, y)
    policy(True)
    a = model.decision_function(Xs)
    policy(False)
    b = model.decision_function(Xs)
    assert np.array_equal(a, b)

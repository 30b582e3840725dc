"""scikit-learn's Perceptron parameters and stopping rule: the defaults, the
rule against its numpy reference, and agreement with scikit-learn's fits."""
import inspect
import pathlib
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

from perceptron import ConvergenceWarning, Perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed
from perceptron.datasets import load_breast_cancer

from helpers import quiet_fit, signs
from reference import tol_rule_reference

SHARED = ("penalty", "alpha", "l1_ratio", "fit_intercept", "max_iter", "tol", "shuffle",
          "verbose", "eta0", "n_jobs", "random_state", "early_stopping", "validation_fraction",
          "n_iter_no_change", "class_weight", "warm_start")


def iris_like(rng, n=150, d=4, k=3, dtype=np.float64, scale=0.35):
    """Three Gaussian blobs in 4-D with iris's scale: at the default scale
    one apart (separable from the others), two overlapping."""
    centers = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
    t = np.repeat(np.arange(k), n // k)
    X = centers[t] + rng.normal(scale=scale, size=(len(t), d))
    return X.astype(dtype), t


def breast_cancer():
    ds = load_breast_cancer()
    return ds.data, (ds.target == ds.target[0]).astype(int)


# ------------------------------------------------------------- parameters


def test_every_sklearn_parameter_with_its_default():
    sk = pytest.importorskip("sklearn.linear_model")
    ours = inspect.signature(Perceptron).parameters
    theirs = inspect.signature(sk.Perceptron).parameters
    assert set(SHARED) == set(theirs)
    for name in SHARED:
        assert name in ours, name
        assert ours[name].default == theirs[name].default, name
    fit = inspect.signature(Perceptron.fit).parameters
    assert list(fit)[:6] == ["self", "X", "y", "coef_init", "intercept_init", "sample_weight"]


@pytest.mark.parametrize("name, value", [("tol", "x"), ("alpha", -1.0), ("l1_ratio", 1.5),
                                         ("penalty", "l3"), ("n_jobs", 0)])
def test_bad_new_parameters_are_refused(name, value):
    X, t = iris_like(np.random.default_rng(0))
    with pytest.raises((TypeError, ValueError)):
        Perceptron(**{name: value}).fit(X, t)


def test_n_jobs_follows_joblibs_convention():
    from perceptron._common.parallel import available_threads
    from perceptron.linear._params import resolve_jobs

    cpus = available_threads()
    assert resolve_jobs(None) == 1
    assert resolve_jobs(-1) == cpus
    assert resolve_jobs(-2) == max(1, cpus - 1)
    assert resolve_jobs(-1000) == 1
    X, t = iris_like(np.random.default_rng(1))
    a = Perceptron(n_jobs=-2, shuffle=False).fit(X, t)
    b = Perceptron(n_jobs=1, shuffle=False).fit(X, t)
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_sparsify_and_densify_keep_predictions():
    sp = pytest.importorskip("scipy.sparse")
    X, t = iris_like(np.random.default_rng(2))
    m = quiet_fit(Perceptron(shuffle=False), X, t)
    dense_scores, dense_coef = m.decision_function(X), m.coef_.copy()
    assert m.sparsify() is m and sp.issparse(m.coef_) and m.coef_.format == "csr"
    np.testing.assert_array_equal(m.decision_function(X), dense_scores)
    np.testing.assert_array_equal(m.predict(X), np.argmax(dense_scores, axis=1))
    assert m.densify() is m and isinstance(m.coef_, np.ndarray)
    np.testing.assert_array_equal(m.coef_, dense_coef)


@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
def test_coef_init_and_intercept_init_start_the_fit(multiclass):
    X, t = iris_like(np.random.default_rng(3))
    first = quiet_fit(Perceptron(shuffle=False, max_iter=3, tol=None, multiclass=multiclass), X, t)
    # three more epochs from its weights: the same as three more by warm start
    warm = Perceptron(shuffle=False, max_iter=3, tol=None, multiclass=multiclass,
                      warm_start=True)
    quiet_fit(warm, X, t)
    quiet_fit(warm, X, t)
    init = quiet_fit(Perceptron(shuffle=False, max_iter=3, tol=None, multiclass=multiclass), X, t,
                     coef_init=first.coef_, intercept_init=first.intercept_)
    np.testing.assert_array_equal(init.coef_, warm.coef_)
    np.testing.assert_array_equal(init.intercept_, warm.intercept_)
    with pytest.raises(ValueError, match="coef_init"):
        Perceptron().fit(X, t, coef_init=np.zeros((2, 4)))


def test_binary_coef_init_takes_a_vector():
    X, y = breast_cancer()
    w0 = np.linspace(-1, 1, X.shape[1])
    a = quiet_fit(Perceptron(shuffle=False, max_iter=2, tol=None), X, y, coef_init=w0,
                  intercept_init=0.5)
    b = quiet_fit(Perceptron(shuffle=False, max_iter=2, tol=None), X, y, coef_init=w0[None],
                  intercept_init=[0.5])
    np.testing.assert_array_equal(a.coef_, b.coef_)


# -------------------------------------------------------------- the rule


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("tol, patience", [(1e-3, 5), (0.0, 2), (10.0, 3)])
def test_tol_rule_equals_its_reference(dtype, shuffle, tol, patience):
    X, t = breast_cancer()
    X = (X / X.max(axis=0)).astype(dtype)
    m = quiet_fit(Perceptron(shuffle=shuffle, random_state=7, tol=tol, n_iter_no_change=patience),
                  X, t)
    orders = shuffled_orders(len(t), 1000, check_random_seed(7)) if shuffle else None
    w, b, mistakes, losses = tol_rule_reference(X, signs(t), tol=tol,
                                                n_iter_no_change=patience, orders=orders)
    assert m.n_iter_ == len(mistakes) < 1000
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == b
    np.testing.assert_allclose(m.loss_ * len(t), losses, rtol=1e-9)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tol_rule_reads_the_unweighted_loss(dtype):
    X, t = breast_cancer()
    X = (X / X.max(axis=0)).astype(dtype)
    sw = np.random.default_rng(5).uniform(0.2, 3.0, len(t))
    m = quiet_fit(Perceptron(shuffle=False), X, t, sample_weight=sw)
    w, b, mistakes, losses = tol_rule_reference(X, signs(t), sample_weight=sw)
    # real-valued steps: the compiled axpy may fuse the multiply-add, so the
    # weights agree to rounding; the trajectory (mistakes, epochs) exactly
    assert m.n_iter_ == len(mistakes) < 1000
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    tight = 1e-5 if dtype is np.float32 else 1e-12
    np.testing.assert_allclose(m.coef_[0], w, rtol=tight, atol=tight)
    assert m.intercept_[0] == pytest.approx(b, rel=tight)
    np.testing.assert_allclose(m.loss_ * sw.sum(), losses, rtol=1e-6)


def test_tol_none_is_the_old_rule():
    X, t = breast_cancer()
    m = quiet_fit(Perceptron(shuffle=False, tol=None, max_iter=40), X, t)
    assert m.n_iter_ == 40 and not m.converged_
    with pytest.warns(ConvergenceWarning):
        Perceptron(shuffle=False, tol=None, max_iter=40).fit(X, t)


def test_an_epoch_without_update_ends_the_fit():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 3))
    y = (X @ [1.0, -2.0, 0.5] > 0).astype(int)
    m = Perceptron(shuffle=False).fit(X, y)  # no warning: it converged
    assert m.converged_ and m.updates_[-1] == 0 and m.n_iter_ < 1000


# ------------------------------------------------------ against scikit-learn


def sklearn_fit(X, t, sample_weight=None, **kw):
    sk = pytest.importorskip("sklearn.linear_model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sk.Perceptron(**kw).fit(X, t, sample_weight=sample_weight)


def assert_agrees(X, t, **kw):
    ours = quiet_fit(Perceptron(**kw), X, t)
    theirs = sklearn_fit(X, t, **kw)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=0)
    return ours.n_iter_


def test_breast_cancer_agrees_with_sklearn():
    X, t = breast_cancer()
    assert assert_agrees(X, t, shuffle=False) > 5
    assert_agrees(X / X.max(axis=0), t, shuffle=False)


@pytest.mark.parametrize("scale", [0.6, 0.9])
def test_iris_like_ovr_agrees_with_sklearn(scale):
    X, t = iris_like(np.random.default_rng(0), scale=scale)
    assert assert_agrees(X, t, shuffle=False) > 5
    assert_agrees(X, t, shuffle=False, tol=1e-1, n_iter_no_change=3)
    assert_agrees(X, t, shuffle=False, class_weight="balanced")


def test_separable_problem_stops_at_its_first_epoch_without_update_unlike_sklearn():
    # the documented difference: scikit-learn goes on with epochs that change
    # nothing until its rule stops them; the weights are the same
    X, t = iris_like(np.random.default_rng(0))
    y = (t == 0).astype(int)
    ours = Perceptron(shuffle=False).fit(X, y)
    theirs = sklearn_fit(X, y, shuffle=False)
    assert ours.converged_ and ours.updates_[-1] == 0
    assert ours.n_iter_ < theirs.n_iter_ <= ours.n_iter_ + ours.n_iter_no_change
    np.testing.assert_array_equal(ours.coef_, theirs.coef_)
    np.testing.assert_array_equal(ours.intercept_, theirs.intercept_)


def test_weighted_fits_agree_with_sklearn():
    X, t = breast_cancer()
    X = X / X.max(axis=0)
    sw = np.random.default_rng(6).uniform(0.2, 3.0, len(t))
    ours = quiet_fit(Perceptron(shuffle=False, class_weight="balanced"), X, t, sample_weight=sw)
    theirs = sklearn_fit(X, t, shuffle=False, class_weight="balanced", sample_weight=sw)
    assert ours.n_iter_ == theirs.n_iter_ > 5
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=0)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=0)
    assert_agrees(X, t, shuffle=False, class_weight={0: 0.5, 1: 2.0})
    # (with more classes scikit-learn gives the "rest" rows of each one-vs-rest
    # problem weight 1, where their own class's weight applies here)


def test_a9a_agrees_with_sklearn(a9a_path):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(a9a_path), n_features=123)
    assert assert_agrees(X.toarray(), y, shuffle=False) > 5


# --------------------------------------------- scikit-learn's own test module


@pytest.mark.slow  # a fresh interpreter
def test_sklearns_perceptron_test_module_passes_with_ours(tmp_path):
    sklearn = pytest.importorskip("sklearn")
    source = pathlib.Path(sklearn.__file__).parent / "linear_model" / "tests" / "test_perceptron.py"
    if not source.exists():
        pytest.skip(f"scikit-learn's tests are not installed ({source})")
    text = source.read_text()
    old = "from sklearn.linear_model import Perceptron"
    assert old in text
    (tmp_path / "test_perceptron_swapped.py").write_text(
        text.replace(old, "from perceptron import Perceptron"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    failed = {line.split("::")[1].split()[0].split("[")[0]
              for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))}
    assert not failed, done.stdout[-3000:] + done.stderr[-2000:]
    # every test of the module ran and passed, none skipped (scikit-learn 1.9
    # has six, test_perceptron_l1_ratio among them)
    passed = re.search(r"(\d+) passed", done.stdout)
    n_functions = len(re.findall(r"^def test_", text, flags=re.M))
    assert done.returncode == 0 and passed and int(passed.group(1)) >= n_functions, \
        done.stdout[-3000:] + done.stderr[-2000:]
    assert "skipped" not in done.stdout.splitlines()[-1], done.stdout[-3000:]


def test_the_rule_sums_unweighted_for_the_plain_rule_and_weighted_for_the_additions():
    from perceptron.linear._stopping import rule_loss_key

    base = {"average": False, "pocket": False, "margin": 0.0, "batch_size": None}
    assert rule_loss_key("binary", base) == rule_loss_key("ovr", base) == "raw_loss"
    assert rule_loss_key("multinomial", base) == "loss"
    for change in ({"average": True}, {"pocket": True}, {"margin": 0.5}, {"batch_size": 4}):
        assert rule_loss_key("binary", {**base, **change}) == "loss", change
    # and the weighted sum is what stops an averaged fit: loss_ holds it, per row weight
    X, t = breast_cancer()
    X = X / X.max(axis=0)
    sw = np.random.default_rng(7).uniform(0.2, 3.0, len(t))
    m = quiet_fit(Perceptron(shuffle=False, average=True, n_iter_no_change=3), X, t,
                  sample_weight=sw)
    losses = m.loss_ * sw.sum()
    best, count = np.inf, 0
    for epoch, value in enumerate(losses, 1):
        count = count + 1 if value > best - 1e-3 * len(t) else 0
        best = min(best, value)
        if count >= 3:
            break
    assert epoch == m.n_iter_ < 1000

"""The rows' squared norms a passive-aggressive step reads (Crammer et al.
2006, section 3) are computed once per fit, or once per partial_fit call,
and every call of the loops reads that one array: the epoch-by-epoch
routes (one-vs-rest classes stopping one by one, the stopping rule between
epochs, parameter mixing on threads) make no pass over X per epoch for
them.  The model has the bits of the loops computing the norms themselves
on every call."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from perceptron import ConvergenceWarning, PassiveAggressiveClassifier, Perceptron
from perceptron._core import online, ovr_epoch


def data(rng, n=300, d=6, k=4):
    X = rng.standard_normal((n, d))
    W = rng.standard_normal((k, d))
    t = np.argmax(X @ W.T + 1.5 * rng.standard_normal((n, k)), axis=1)
    return X, t


class Watch:
    """Counts the passes of ``squared_norms`` and records the ``sqnorm``
    every call of the loops receives (run_epochs, the fused one-vs-rest
    epoch), through the module attributes the route calls."""

    def __init__(self, monkeypatch):
        self.passes = []
        self.given = []
        norms, epochs, fused = online.squared_norms, online.run_epochs, ovr_epoch.run_ovr_epoch

        def squared_norms(X):
            out = norms(X)
            self.passes.append(out)
            return out

        def run_epochs(*args, **kw):
            self.given.append(kw["sqnorm"] if "sqnorm" in kw else
                              args[8] if len(args) > 8 else None)
            return epochs(*args, **kw)

        def run_ovr_epoch(*args, **kw):
            self.given.append(kw["sqnorm"] if "sqnorm" in kw else
                              args[8] if len(args) > 8 else None)
            return fused(*args, **kw)

        monkeypatch.setattr(online, "squared_norms", squared_norms)
        monkeypatch.setattr(online, "run_epochs", run_epochs)
        monkeypatch.setattr(ovr_epoch, "run_ovr_epoch", run_ovr_epoch)

    def one_pass_read_by_every_call(self, X):
        assert len(self.passes) == 1
        assert len(self.given) > 1  # the route made several calls of the loops
        assert all(sq is self.passes[0] for sq in self.given)
        np.testing.assert_array_equal(self.passes[0], online.squared_norms(X))


def fitted(model, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kw)


def per_call_fit(monkeypatch, make, X, y, **kw):
    """The same fit with the loops computing the norms on every call (the
    route told the rule reads none)."""
    with monkeypatch.context() as m:
        m.setattr(online, "needs_norms", lambda params: False)
        return fitted(make(), X, y, **kw)


def same_bits(a, b):
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.loss_, b.loss_)
    assert a.n_iter_ == b.n_iter_


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_one_vs_rest_with_tol_passes_over_the_norms_once(monkeypatch, rng, sparse, loss):
    # dense rows: the fused epoch; CSR rows: each class's own loop
    X, t = data(rng)
    X = sp.csr_matrix(X) if sparse else X

    def make():
        return PassiveAggressiveClassifier(loss=loss, C=0.5, tol=1e-3, n_iter_no_change=3,
                                           max_iter=30, random_state=2)
    expected = per_call_fit(monkeypatch, make, X, t)
    watch = Watch(monkeypatch)
    model = fitted(make(), X, t)
    watch.one_pass_read_by_every_call(X)
    assert model.n_iter_ > 1
    same_bits(model, expected)


@pytest.mark.parametrize("multiclass", ["binary", "multinomial"])
def test_parameter_mixing_passes_over_the_norms_once(monkeypatch, rng, multiclass):
    X, t = data(rng, n=400, k=2 if multiclass == "binary" else 3)

    def make():
        return PassiveAggressiveClassifier(n_jobs=3, max_iter=8, tol=None, random_state=4,
                                           multiclass="multinomial" if multiclass ==
                                           "multinomial" else "ovr")
    expected = per_call_fit(monkeypatch, make, X, t)
    watch = Watch(monkeypatch)
    model = fitted(make(), X, t)
    watch.one_pass_read_by_every_call(X)
    same_bits(model, expected)


def test_early_stopping_passes_over_the_norms_once(monkeypatch, rng):
    # epoch by epoch (the held-out score between epochs): one problem, many calls
    X, t = data(rng, k=2)

    def make():
        return PassiveAggressiveClassifier(early_stopping=True, max_iter=12, tol=None,
                                           n_iter_no_change=12, random_state=1)
    expected = per_call_fit(monkeypatch, make, X, t)
    watch = Watch(monkeypatch)
    model = fitted(make(), X, t)
    watch.one_pass_read_by_every_call(X)
    same_bits(model, expected)
    np.testing.assert_array_equal(model.validation_scores_, expected.validation_scores_)


def test_partial_fit_passes_over_the_norms_once_per_call(monkeypatch, rng):
    X, t = data(rng)
    watch = Watch(monkeypatch)
    model = PassiveAggressiveClassifier(random_state=0)
    for lo in range(0, len(t), 100):
        passes, calls = len(watch.passes), len(watch.given)
        model.partial_fit(X[lo:lo + 100], t[lo:lo + 100], classes=np.unique(t))
        assert len(watch.passes) == passes + 1
        assert len(watch.given) > calls
        assert all(sq is watch.passes[-1] for sq in watch.given[calls:])


def test_the_perceptron_rule_reads_no_norms(monkeypatch, rng):
    X, t = data(rng)
    for variant in ("hinge", "squared_hinge"):
        pa = PassiveAggressiveClassifier(loss=variant)
        assert online.needs_norms(pa._loop_params(pa._check_params()))
    plain = Perceptron(tol=1e-3, max_iter=10, random_state=0)
    assert not online.needs_norms(plain._loop_params(plain._check_params()))
    watch = Watch(monkeypatch)
    fitted(plain, X, t)
    assert watch.passes == [] and watch.given and all(sq is None for sq in watch.given)

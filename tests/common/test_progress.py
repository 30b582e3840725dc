"""progress=True: every estimator that trains by epochs shows one tqdm bar,
one step an epoch, closed at the end (perceptron._common.stopping.epoch_bar)."""
import sys
import types
import warnings

import numpy as np
import pytest

from perceptron import (ConvergenceWarning, KernelPerceptron, PassiveAggressiveClassifier,
                        Perceptron, VotedPerceptron)
from perceptron.sequence import StructuredPerceptron
from perceptron.tagging import PerceptronTagger


class FakeBar:
    made = []

    def __init__(self, total, desc, unit, leave):
        self.total, self.desc, self.steps, self.closed = total, desc, 0, False
        FakeBar.made.append(self)

    def set_postfix(self, postfix, refresh=True):
        self.postfix = dict(postfix)

    def update(self, n):
        self.steps += n

    def close(self):
        self.closed = True


@pytest.fixture
def fake_tqdm(monkeypatch):
    module = types.ModuleType("tqdm.auto")
    module.tqdm = FakeBar
    monkeypatch.setitem(sys.modules, "tqdm.auto", module)
    FakeBar.made = []
    return FakeBar


def _linear(rng):
    X = rng.standard_normal((80, 4))
    return X, (X[:, 0] + 0.8 * rng.standard_normal(80) > 0).astype(int)


def _three_classes(rng):
    X = rng.standard_normal((60, 3))
    return X, np.argmax(X + 0.8 * rng.standard_normal((60, 3)), axis=1)


def _sequences(rng):
    lengths = np.array([3, 5, 4, 2, 6] * 4)
    X = rng.standard_normal((lengths.sum(), 5))
    return X, (X[:, 0] + 0.5 * rng.standard_normal(len(X)) > 0).astype(int), lengths


def _sentences():
    return [[("the", "DET"), ("dog", "NOUN"), ("barks", "VERB")],
            [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")]] * 5


FITS = {
    "Perceptron": lambda rng, **kw: Perceptron(max_iter=6, tol=None, **kw).fit(*_linear(rng)),
    "PassiveAggressiveClassifier": lambda rng, **kw: PassiveAggressiveClassifier(
        max_iter=6, tol=None, **kw).fit(*_linear(rng)),
    "VotedPerceptron": lambda rng, **kw: VotedPerceptron(max_iter=6, **kw).fit(*_linear(rng)),
    "KernelPerceptron": lambda rng, **kw: KernelPerceptron(max_iter=6, **kw).fit(*_linear(rng)),
    "StructuredPerceptron": lambda rng, **kw: StructuredPerceptron(max_iter=6, **kw).fit(
        *_sequences(rng)),
    "PerceptronTagger": lambda rng, **kw: PerceptronTagger(n_features=2**10, max_iter=6,
                                                           **kw).fit(_sentences()),
}


def _fit(name, rng, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return FITS[name](rng, **kw)


@pytest.mark.parametrize("name", sorted(FITS))
def test_progress_shows_one_bar_step_per_epoch(name, rng, fake_tqdm):
    model = _fit(name, rng, progress=True)
    (bar,) = fake_tqdm.made
    n_iter = (model.model_ if name == "PerceptronTagger" else model).n_iter_
    assert bar.total == 6 and bar.steps == n_iter >= 1 and bar.closed
    assert bar.desc in (name, "StructuredPerceptron")
    assert model.get_params()["progress"] is True
    # off by default: no bar
    _fit(name, rng)
    assert len(fake_tqdm.made) == 1


def test_one_vs_rest_kernel_bar_counts_the_epochs_of_every_class(rng, fake_tqdm):
    # three classes fitted on two threads: one bar, max_iter steps a class at most
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = KernelPerceptron(max_iter=6, n_jobs=2, progress=True).fit(*_three_classes(rng))
    (bar,) = fake_tqdm.made
    # a class runs until its first epoch without a mistake, that epoch included
    run = [int(np.argmax(m == 0)) + 1 if (m == 0).any() else len(m) for m in model.mistakes_]
    assert bar.total == 3 * 6 and bar.steps == sum(run) >= 3 and bar.closed
    assert bar.desc == "KernelPerceptron"


@pytest.mark.parametrize("name", sorted(FITS))
def test_progress_without_tqdm_says_so(name, rng, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match="tqdm is not installed"):
        _fit(name, rng, progress=True)


@pytest.mark.parametrize("name", sorted(FITS))
def test_progress_must_be_a_bool(name, rng):
    with pytest.raises(TypeError, match="progress must be True or False"):
        _fit(name, rng, progress="yes")

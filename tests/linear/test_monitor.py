"""verbose, callback and progress: watching a fit epoch by epoch."""
import warnings

import numpy as np
import pytest

from perceptron import ConvergenceWarning, EpochInfo, Perceptron


def noisy(rng, n=300, d=5, k=2):
    X = rng.standard_normal((n, d))
    t = np.argmax(X @ rng.standard_normal((d, k)) + rng.standard_normal((n, k)), axis=1)
    return X, t


def test_callback_sees_every_epoch_and_matches_the_history(rng):
    X, t = noisy(rng)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m = Perceptron(max_iter=7, random_state=0, callback=seen.append).fit(X, t)
    assert [info.epoch for info in seen] == list(range(1, 8))
    assert all(isinstance(info, EpochInfo) for info in seen)
    np.testing.assert_array_equal([i.mistakes for i in seen], m.mistakes_)
    np.testing.assert_allclose([i.loss for i in seen], m.loss_)
    np.testing.assert_array_equal(seen[-1].coef, m.coef_)
    # the epoch-by-epoch path gives the same model as the one-call path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        plain = Perceptron(max_iter=7, random_state=0).fit(X, t)
    np.testing.assert_array_equal(plain.coef_, m.coef_)


def test_callback_can_stop_training(rng):
    X, t = noisy(rng, k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # a requested stop does not warn
        m = Perceptron(max_iter=100, random_state=0,
                       callback=lambda info: info.epoch == 3).fit(X, t)
    assert m.n_iter_ == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        three = Perceptron(max_iter=3, random_state=0).fit(X, t)
    np.testing.assert_array_equal(m.coef_, three.coef_)


def test_callback_with_early_stopping_reports_validation(rng):
    X, t = noisy(rng, n=500)
    scores = []
    m = Perceptron(early_stopping=True, random_state=0,
                   callback=lambda info: scores.append(info.validation_score)).fit(X, t)
    np.testing.assert_allclose(scores, m.validation_scores_)


def test_verbose_prints_a_line_per_epoch(rng, capsys):
    X, t = noisy(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Perceptron(max_iter=4, verbose=1, random_state=0).fit(X, t)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("-- epoch")]
    assert len(lines) == 4
    assert lines[0].startswith("-- epoch 1/4: mistakes") and "loss" in lines[0] and "ms" in lines[0]


def test_progress_bar(rng, capsys):
    pytest.importorskip("tqdm")
    X, t = noisy(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m = Perceptron(max_iter=5, progress=True, random_state=0).fit(X, t)
    assert m.n_iter_ == 5
    assert "Perceptron" in capsys.readouterr().err


def test_bad_monitor_parameters(rng):
    X, t = noisy(rng, n=20)
    with pytest.raises(TypeError, match="callback must be callable"):
        Perceptron(callback=3).fit(X, t)
    with pytest.raises(ValueError, match="verbose must be >= 0"):
        Perceptron(verbose=-1).fit(X, t)
    with pytest.raises(TypeError, match="progress must be True or False"):
        Perceptron(progress="yes").fit(X, t)


def test_exception_in_callback_leaves_model_unchanged(rng):
    X, t = noisy(rng)
    m = Perceptron(max_iter=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, t)
    coef = m.coef_.copy()

    def boom(info):
        raise RuntimeError("callback failed")

    m.set_params(callback=boom)
    with pytest.raises(RuntimeError, match="callback failed"):
        m.fit(X, t)
    np.testing.assert_array_equal(m.coef_, coef)

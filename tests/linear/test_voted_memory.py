"""VotedPerceptron over dense rows keeps its vectors dense: a fit whose
budget (max_vectors for each problem, n_features each) could take more than
the limit (PERCEPTRON_MAX_FIT_BYTES, default 4 GiB) is refused before
training, with what it would take.  (Over sparse rows it keeps the updates:
test_voted_updates.py.)"""
import numpy as np
import pytest

from perceptron import VotedPerceptron


def test_the_limit_follows_max_vectors_the_rows_and_the_environment(rng, monkeypatch):
    n, d = 50, 100
    X = rng.standard_normal((n, d))
    y = rng.integers(0, 3, n)
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(100_000))
    # at most n * max_iter + 1 = 101 vectors a problem: 3 x 101 x (800 + 16) bytes
    with pytest.raises(ValueError, match=r"up to 101 dense vectors of 100 features for each of "
                                         r"3 problems"):
        VotedPerceptron(max_iter=2, random_state=0).fit(X, y)
    model = VotedPerceptron(max_iter=2, max_vectors=20, random_state=0).fit(X, y)
    assert all(len(V) <= 20 for V in model.vectors_)
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(3 * 101 * 816))
    full = VotedPerceptron(max_iter=2, random_state=0).fit(X, y)
    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES")
    again = VotedPerceptron(max_iter=2, random_state=0).fit(X, y)
    for a, b in zip(full.vectors_, again.vectors_):
        np.testing.assert_array_equal(a, b)
    # two classes: one problem
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(1000))
    with pytest.raises(ValueError, match=r"for each of 1 problem would take"):
        VotedPerceptron(max_iter=2).fit(X, y % 2)

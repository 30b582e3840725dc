"""VotedPerceptron keeps its vectors dense: a fit whose budget (max_vectors
for each problem, n_features each) could take more than the limit
(PERCEPTRON_MAX_FIT_BYTES, default 4 GiB) is refused before training, with
what it would take."""
import tracemalloc

import numpy as np
import pytest

from perceptron import VotedPerceptron
from perceptron.io import CSRData


def hashed_rows(rng, n, d, nnz=20):
    """n CSR rows over d columns, nnz distinct columns each."""
    indices = np.concatenate([np.sort(rng.choice(d, nnz, replace=False)) for _ in range(n)])
    indptr = np.arange(0, n * nnz + 1, nnz, dtype=np.int64)
    return CSRData(np.ones(n * nnz), indices.astype(np.int64), indptr, (n, d))


def test_the_default_budget_on_wide_hashed_rows_is_refused_before_training(rng, monkeypatch):
    # 12,544 rows of 2**18 hashed columns, 5 classes: 5 x 1000 dense vectors
    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES", raising=False)
    X = hashed_rows(rng, 12544, 2 ** 18)
    y = rng.integers(0, 5, 12544)
    model = VotedPerceptron()
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"keeping up to 1000 dense vectors of 262144 "
                                             r"features for each of 5 problems would take "
                                             r"9\.77 GiB, more than the limit of 4\.00 GiB: "
                                             r"lower max_vectors.*PERCEPTRON_MAX_FIT_BYTES"):
            model.fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20  # the checks of the input, not the vectors
    assert not hasattr(model, "vectors_")


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

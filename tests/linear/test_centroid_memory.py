"""CentroidClassifier's fit keeps n_classes x n_features float64 sums and
means beside the weights: the memory that takes is checked before anything
is allocated, against the limit every fit of the linear family observes
(PERCEPTRON_MAX_FIT_BYTES, default 4 GiB)."""
import tracemalloc

import numpy as np
import pytest

from perceptron import CentroidClassifier
from perceptron.io import CSRData


def wide_rows(rng, n, d, nnz=5):
    """n CSR rows over d columns, nnz distinct columns each, int64 indices."""
    indices = np.concatenate([np.sort(rng.choice(d, nnz, replace=False)) for _ in range(n)])
    indptr = np.arange(0, n * nnz + 1, nnz, dtype=np.int64)
    return CSRData(rng.standard_normal(n * nnz), indices.astype(np.int64), indptr, (n, d))


def test_a_wide_fit_is_refused_before_allocating(rng, monkeypatch):
    # 40 rows, one of them naming column 2**31 - 2: 3 classes of 2**31 - 1
    # features would take 3 x 24 bytes each, about 144 GiB
    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES", raising=False)
    d = 2**31 - 1
    X = wide_rows(rng, 40, d)
    y = np.arange(40) % 3
    model = CentroidClassifier()
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"CentroidClassifier: the weights \(3 vector\(s\) of "
                                             r"n_features=2,147,483,647, the width of X\) would "
                                             r"take 144\.00 GiB, more than the limit of 4\.00 GiB"
                                             r".*hashing trick.*PERCEPTRON_MAX_FIT_BYTES"):
            model.fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20  # the checks of the input, nothing of the 144 GiB
    assert not hasattr(model, "coef_")


@pytest.mark.parametrize("dtype, per_value", [(np.float64, 24), (np.float32, 20)])
def test_the_limit_counts_sums_means_and_weights(rng, monkeypatch, dtype, per_value):
    # the float64 class sums, the float64 means (centroids_) and coef_ in X's dtype
    n_classes, d = 3, 1_200_000
    X = wide_rows(rng, 40, d)
    X = CSRData(X.data.astype(dtype), X.indices, X.indptr, X.shape)
    y = np.arange(40) % n_classes
    need = n_classes * d * per_value
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(need - 1))
    with pytest.raises(ValueError, match=r"3 vector\(s\) of n_features=1,200,000"):
        CentroidClassifier().fit(X, y)
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(need))
    model = CentroidClassifier().fit(X, y)
    assert model.centroids_.shape == (n_classes, d) and model.coef_.dtype == dtype


def test_small_fits_never_read_the_environment(rng, monkeypatch):
    # under 64 MiB the limit is not consulted: a bad setting does not stop them
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", "lots")
    X = rng.standard_normal((30, 4))
    model = CentroidClassifier().fit(X, np.arange(30) % 2)
    assert model.coef_.shape == (1, 4)

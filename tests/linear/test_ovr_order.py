"""One-vs-rest: the classes visit the rows in one shared order.

Each epoch the rows are shuffled once, by the generator of the first class,
seeded from ``random_state`` as a binary fit's (so the classes visit the
order a binary fit with that ``random_state`` visits), and every class's binary
problem visits them in that order; each class is Daume's binary perceptron
(``reference.perceptron_reference``) on its own signs over those orders, and
stops after an epoch without an update.  The classes never hold k label
arrays or k row orders of n rows at once.
"""
import tracemalloc

import numpy as np
import pytest

from perceptron import Perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from helpers import integer_data, quiet
from reference import perceptron_reference


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("sparse", [False, True])
def test_shuffled_classes_share_one_order(rng, dtype, n_jobs, sparse):
    X, t = integer_data(rng, 150, 6, k=4, dtype=dtype)
    Xfit = X
    if sparse:
        Xfit = pytest.importorskip("scipy.sparse").csr_matrix(X)
    m = quiet(Perceptron(max_iter=7, tol=None, random_state=11, n_jobs=n_jobs).fit, Xfit, t)
    orders = shuffled_orders(len(t), 7, check_random_seed(11))
    total = np.zeros(7, dtype=np.int64)
    for j in range(4):
        w, b, mistakes, _ = perceptron_reference(X, np.where(t == j, 1, -1), max_iter=7,
                                                 orders=orders)
        np.testing.assert_array_equal(m.coef_[j], w.astype(dtype))
        assert m.intercept_[j] == dtype(b)
        total[:len(mistakes)] += mistakes
    np.testing.assert_array_equal(m.mistakes_, total[:m.n_iter_])


def test_a_class_that_converges_stops_while_the_order_goes_on(rng):
    # class 0 is separable from the rest at once; the others are not
    X, t = integer_data(rng, 120, 4, k=3, noise=0.3)
    X = np.hstack([X, (t == 0)[:, None] * 50.0])
    m = quiet(Perceptron(max_iter=6, tol=None, random_state=3).fit, X, t)
    orders = shuffled_orders(len(t), 6, check_random_seed(3))
    epochs = []
    for j in range(3):
        w, b, mistakes, _ = perceptron_reference(X, np.where(t == j, 1, -1), max_iter=6,
                                                 orders=orders)
        np.testing.assert_array_equal(m.coef_[j], w)
        epochs.append(len(mistakes))
    assert epochs[0] < 6 and max(epochs) == 6


def test_partial_fit_chunks_share_one_order_per_chunk(rng):
    X, t = integer_data(rng, 200, 5, k=3)
    m = Perceptron(random_state=5)
    chunks = [slice(0, 80), slice(80, 200)]
    for sl in chunks:
        m.partial_fit(X[sl], t[sl], classes=np.arange(3))
    # the first class's generator shuffles each chunk once, on from the last
    from perceptron._core.online import shuffle_rows

    state = np.array([check_random_seed(5)], dtype=np.uint64)
    orders = []
    for sl in chunks:
        rows = np.arange(sl.stop - sl.start, dtype=np.intp)
        shuffle_rows(state, rows)
        orders.append(rows + sl.start)
    order = np.concatenate(orders)
    for j in range(3):
        w, b, _, _ = perceptron_reference(X, np.where(t == j, 1, -1), max_iter=1,
                                          orders=order[None, :], stop_when_converged=False)
        np.testing.assert_array_equal(m.coef_[j], w)
        assert m.intercept_[j] == b


def test_many_classes_take_memory_in_n_plus_k_times_d():
    # 20,000 rows of 2,000 classes: k label arrays of n rows would be 40 MB,
    # k row orders 320 MB
    n, k = 20_000, 2_000
    X = np.random.default_rng(0).standard_normal((n, 3))
    y = np.arange(n) % k
    tracemalloc.start()
    try:
        quiet(Perceptron(max_iter=1, tol=None, n_jobs=1).fit, X, y)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < n * k / 2

"""The perceptron family against numpy references of the published algorithms."""

import numpy as np
import pytest

from perceptron import Perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from helpers import integer_data, quiet_fit, signs
from reference import (family_reference, minibatch_reference, multinomial_reference,
                       perceptron_reference)


# ---------------------------------------------------------------- averaged


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_averaged_equals_explicit_average_of_all_weight_vectors(dtype, shuffle, rng):
    X, t = integer_data(rng, 120, 7, dtype=dtype)
    m = quiet_fit(Perceptron(average=True, max_iter=8, shuffle=shuffle, random_state=5), X, t)
    orders = shuffled_orders(len(t), 8, check_random_seed(5)) if shuffle else None
    w, b, mistakes, updates, _ = family_reference(X, signs(t), max_iter=8, average=True,
                                                  orders=orders)
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    np.testing.assert_allclose(m.coef_[0], w, rtol=1e-6 if dtype is np.float32 else 1e-12,
                               atol=1e-6 if dtype is np.float32 else 1e-12)
    assert m.intercept_[0] == pytest.approx(b, rel=1e-6, abs=1e-6)


def test_averaged_differs_from_plain_and_keeps_raw_weights(rng):
    X, t = integer_data(rng, 200, 5)
    plain = quiet_fit(Perceptron(max_iter=5, shuffle=False), X, t)
    avg = quiet_fit(Perceptron(average=True, max_iter=5, shuffle=False), X, t)
    np.testing.assert_array_equal(plain.mistakes_, avg.mistakes_)  # same trajectory
    assert not np.allclose(plain.coef_, avg.coef_)
    np.testing.assert_array_equal(avg._states[0].W, plain.coef_)


# ------------------------------------------------------------------ margin


@pytest.mark.parametrize("tau", [0.0, 0.5, 3.0])
def test_margin_equals_reference_exactly(tau, rng):
    X, t = integer_data(rng, 150, 6)
    m = quiet_fit(Perceptron(margin=tau, max_iter=10, shuffle=False), X, t)
    w, b, mistakes, updates, loss = family_reference(X, signs(t), max_iter=10, margin=tau)
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == b
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    np.testing.assert_array_equal(m.updates_, updates)
    np.testing.assert_allclose(m.loss_, loss / len(t))


def test_margin_gives_a_margin_on_separable_data(rng):
    X = rng.standard_normal((300, 4))
    w_star = np.array([1.0, -2.0, 0.5, 1.0])
    s = X @ w_star
    X, y = X[np.abs(s) > 0.5], np.where(s[np.abs(s) > 0.5] > 0, 1, -1)
    m = Perceptron(tol=None, margin=1.0, random_state=0).fit(X, y)
    assert m.converged_
    assert (y * m.decision_function(X)).min() > 1.0


# ------------------------------------------------------------------ pocket


@pytest.mark.parametrize("shuffle", [False, True])
def test_pocket_equals_gallant_reference(shuffle, rng):
    X, t = integer_data(rng, 100, 5, noise=0.2)
    m = quiet_fit(Perceptron(pocket=True, max_iter=6, shuffle=shuffle, random_state=2), X, t)
    orders = shuffled_orders(len(t), 6, check_random_seed(2)) if shuffle else None
    w, b, mistakes, _, _ = family_reference(X, signs(t), max_iter=6, pocket=True, orders=orders)
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == b
    np.testing.assert_array_equal(m.mistakes_, mistakes)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_multinomial_pocket_equals_gallant_reference(dtype, shuffle, sparse, rng):
    # noisy classes: many candidates, most of whose counts stop early
    X, t = integer_data(rng, 120, 6, k=3, noise=0.3, dtype=dtype)
    Xf = X
    if sparse:
        Xf = pytest.importorskip("scipy.sparse").csr_matrix(X)
    m = quiet_fit(Perceptron(pocket=True, multiclass="multinomial", max_iter=6, shuffle=shuffle,
                             random_state=2), Xf, t)
    orders = shuffled_orders(len(t), 6, check_random_seed(2)) if shuffle else None
    W, b, mistakes = multinomial_reference(X, t, 3, max_iter=6, orders=orders, pocket=True)
    np.testing.assert_array_equal(m.coef_, W)
    np.testing.assert_array_equal(m.intercept_, b)
    np.testing.assert_array_equal(m.mistakes_, mistakes)


def test_pocket_is_never_worse_than_its_start_and_beats_last_weights(rng):
    X, t = integer_data(rng, 400, 8, noise=0.25)
    plain = quiet_fit(Perceptron(max_iter=30, random_state=1), X, t)
    pocket = quiet_fit(Perceptron(pocket=True, max_iter=30, random_state=1), X, t)
    assert pocket.score(X, t) >= plain.score(X, t)


# -------------------------------------------------------------- mini-batch


@pytest.mark.parametrize("batch_size", [2, 4, 16])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_minibatch_equals_reference_exactly(batch_size, dtype, rng):
    # power-of-two batches with integer data: every step is exact
    X, t = integer_data(rng, 64, 5, dtype=dtype)
    m = quiet_fit(Perceptron(batch_size=batch_size, max_iter=12, random_state=3, tol=None), X, t)
    orders = shuffled_orders(len(t), 12, check_random_seed(3))
    w, b, mistakes = minibatch_reference(X, signs(t), batch_size=batch_size, max_iter=12,
                                         orders=orders)
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == b
    np.testing.assert_array_equal(m.mistakes_, mistakes)


def test_full_batch_is_gradient_descent_on_the_perceptron_loss(rng):
    X, t = integer_data(rng, 64, 5)
    y = signs(t)
    m = quiet_fit(Perceptron(batch_size=64, max_iter=1, shuffle=False), X, y)
    # one step from w = 0: every row violates (a = 0), the step is the mean of y x
    np.testing.assert_allclose(m.coef_[0], (y[:, None] * X).mean(axis=0))
    assert m.intercept_[0] == pytest.approx(y.mean())
    # the loss history decreases on separable data
    Xs = rng.standard_normal((500, 3))
    ys = np.where(Xs @ [1.0, 2.0, -1.0] > 0, 1, -1)
    full = quiet_fit(Perceptron(batch_size=500, max_iter=50, shuffle=False), Xs, ys)
    assert full.loss_[-1] < full.loss_[1]


def test_batch_size_one_is_the_online_rule(rng):
    X, t = integer_data(rng, 80, 4)
    a = quiet_fit(Perceptron(batch_size=1, max_iter=5, random_state=0), X, t)
    b = quiet_fit(Perceptron(max_iter=5, random_state=0), X, t)
    np.testing.assert_array_equal(a.coef_, b.coef_)


# ------------------------------------------------------------- multiclass


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shuffle", [False, True])
def test_multinomial_equals_reference_exactly(dtype, shuffle, rng):
    X, t = integer_data(rng, 150, 6, k=4, dtype=dtype)
    labels = np.array(["a", "b", "c", "d"])[t]
    m = quiet_fit(Perceptron(multiclass="multinomial", max_iter=10, shuffle=shuffle, tol=None,
                             random_state=4), X, labels)
    orders = shuffled_orders(len(t), 10, check_random_seed(4)) if shuffle else None
    W, b, mistakes = multinomial_reference(X, t, 4, max_iter=10, orders=orders)
    np.testing.assert_array_equal(m.coef_, W)
    np.testing.assert_array_equal(m.intercept_, b.astype(dtype))
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    assert list(m.classes_) == ["a", "b", "c", "d"]
    scores = m.decision_function(X)
    assert scores.shape == (150, 4)
    np.testing.assert_array_equal(m.predict(X), m.classes_[np.argmax(scores, axis=1)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k, d", [(3, 40), (10, 100), (70, 33)])
def test_multinomial_of_many_classes_and_features_equals_reference(dtype, k, d, rng):
    # the dense rows' activations come from the level's dots_<type>, four
    # classes at a time with the leftovers alone, up to 64 classes; more
    # take one dot product a class (perceptron/_core/rows.pxd, row_dots)
    X, t = integer_data(rng, 300, d, k=k, dtype=dtype)
    t[:k] = np.arange(k)  # every class present
    m = quiet_fit(Perceptron(multiclass="multinomial", max_iter=4, tol=None, random_state=2), X, t)
    orders = shuffled_orders(len(t), 4, check_random_seed(2))
    W, b, mistakes = multinomial_reference(X, t, k, max_iter=4, orders=orders)
    np.testing.assert_array_equal(m.coef_, W)
    np.testing.assert_array_equal(m.intercept_, b.astype(dtype))
    np.testing.assert_array_equal(m.mistakes_, mistakes)


def test_ovr_classes_equal_binary_references(rng):
    X, t = integer_data(rng, 120, 5, k=3)
    m = quiet_fit(Perceptron(max_iter=6, shuffle=False), X, t)
    assert m.coef_.shape == (3, 5)
    total = np.zeros(6, dtype=np.int64)
    for j in range(3):
        w, b, mistakes, _ = perceptron_reference(X, np.where(t == j, 1, -1), max_iter=6)
        np.testing.assert_array_equal(m.coef_[j], w)
        assert m.intercept_[j] == b
        total[:len(mistakes)] += mistakes
    np.testing.assert_array_equal(m.mistakes_, total[:m.n_iter_])


def test_ovr_is_identical_on_one_and_two_threads(rng):
    X, t = integer_data(rng, 2000, 20, k=5, dtype=np.float32)
    one = quiet_fit(Perceptron(max_iter=5, random_state=0, n_jobs=1), X, t)
    two = quiet_fit(Perceptron(max_iter=5, random_state=0, n_jobs=2), X, t)
    every = quiet_fit(Perceptron(max_iter=5, random_state=0, n_jobs=-1), X, t)
    for other in (two, every):
        np.testing.assert_array_equal(one.coef_, other.coef_)
        np.testing.assert_array_equal(one.intercept_, other.intercept_)
        np.testing.assert_array_equal(one.mistakes_, other.mistakes_)


def test_two_class_multinomial_partial_fit_matches_binary_decisions(rng):
    X, t = integer_data(rng, 100, 4)
    m = Perceptron(multiclass="multinomial", shuffle=False)
    m.partial_fit(X, t)
    assert m.coef_.shape == (1, 4)
    # the 2-row multiclass rule is the binary rule with a doubled step
    w, b, _, _ = perceptron_reference(X, signs(t), max_iter=1, eta=2.0,
                                      stop_when_converged=False)
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == b


# -------------------------------------------------------------- multilabel


def test_multilabel_indicator(rng):
    X = rng.standard_normal((300, 6))
    Y = np.stack([X[:, 0] > 0, X[:, 1] + X[:, 2] > 0, X[:, 3] < 0.5], axis=1).astype(int)
    m = Perceptron(random_state=0, max_iter=200, tol=None).fit(X, Y)
    assert m.coef_.shape == (3, 6)
    np.testing.assert_array_equal(m.classes_, [0, 1, 2])
    pred = m.predict(X)
    assert pred.shape == (300, 3) and set(np.unique(pred)) <= {0, 1}
    np.testing.assert_array_equal(pred, Y)
    assert m.score(X, Y) == 1.0
    for j in range(3):  # each label is its own binary problem
        single = Perceptron(random_state=0, max_iter=200, tol=None).fit(X, Y[:, j])
        np.testing.assert_array_equal(single.predict(X), Y[:, j])


def test_multilabel_refuses_other_values(rng):
    with pytest.raises(ValueError, match="0/1 indicator"):
        Perceptron().fit(np.ones((3, 2)), np.array([[0, 2], [1, 0], [1, 1]]))


# ------------------------------------------------------------ partial_fit


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
def test_partial_fit_chunks_equal_one_epoch(average, multiclass, rng):
    X, t = integer_data(rng, 300, 6, k=3)
    whole = quiet_fit(Perceptron(max_iter=1, shuffle=False, average=average,
                                 multiclass=multiclass), X, t)
    chunked = Perceptron(shuffle=False, average=average, multiclass=multiclass)
    for lo, hi in [(0, 70), (70, 71), (71, 200), (200, 300)]:
        chunked.partial_fit(X[lo:hi], t[lo:hi], classes=[0, 1, 2])
    np.testing.assert_array_equal(chunked.coef_, whole.coef_)
    np.testing.assert_array_equal(chunked.intercept_, whole.intercept_)
    assert chunked.t_ == whole.t_
    assert chunked.mistakes_.sum() == whole.mistakes_.sum()


def test_partial_fit_binary_equals_reference_epochs(rng):
    X, t = integer_data(rng, 90, 4)
    m = Perceptron(shuffle=False)
    for _ in range(3):
        m.partial_fit(X, t, classes=[0, 1])
    w, b, mistakes, _ = perceptron_reference(X, signs(t), max_iter=3, stop_when_converged=False)
    np.testing.assert_array_equal(m.coef_[0], w)
    np.testing.assert_array_equal(m.mistakes_, mistakes)
    assert m.n_iter_ == 3


def test_partial_fit_multinomial_accepts_a_new_class_later(rng):
    X, t = integer_data(rng, 300, 6, k=4)
    first = t < 3
    m = Perceptron(multiclass="multinomial", shuffle=False)
    m.partial_fit(X[first], t[first])           # classes 0, 1, 2 only
    assert list(m.classes_) == [0, 1, 2]
    m.partial_fit(X, t)                          # class 3 arrives
    assert list(m.classes_) == [0, 1, 2, 3]
    assert m.coef_.shape == (4, 6)
    # the new class started from a zero row: replaying the same sequence
    # in numpy with class 3 present (as a zero row) from the start
    ref_W = np.zeros((4, 6))
    ref_b = np.zeros(4)
    for Xc, tc in ((X[first], t[first]), (X, t)):
        for i in range(len(tc)):
            present = [0, 1, 2] if Xc is not X else [0, 1, 2, 3]
            acts = {j: float(Xc[i] @ ref_W[j]) + ref_b[j] for j in present}
            r = max((j for j in present if j != tc[i]), key=lambda j: (acts[j], -j))
            if acts[tc[i]] - acts[r] <= 0:
                ref_W[tc[i]] += Xc[i]
                ref_W[r] -= Xc[i]
                ref_b[tc[i]] += 1
                ref_b[r] -= 1
    np.testing.assert_array_equal(m.coef_, ref_W)
    np.testing.assert_array_equal(m.intercept_, ref_b)


def test_partial_fit_needs_classes_except_multinomial(rng):
    X, t = integer_data(rng, 50, 3, k=3)
    with pytest.raises(ValueError, match="classes must be given"):
        Perceptron().partial_fit(X, t)
    m = Perceptron().partial_fit(X, t, classes=[0, 1, 2])
    with pytest.raises(ValueError, match=r"labels \[7\] that are not in classes"):
        m.partial_fit(X, np.full(50, 7))
    with pytest.raises(ValueError, match="features"):
        m.partial_fit(X[:, :2], t)


def test_partial_fit_failure_leaves_model_unchanged(rng):
    X, t = integer_data(rng, 50, 3, k=3)
    m = Perceptron(multiclass="multinomial").partial_fit(X, t)
    coef = m.coef_.copy()
    bad = X.copy()
    bad[10, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        m.partial_fit(bad, np.where(t == 0, 5, t))  # with a new class, too
    np.testing.assert_array_equal(m.coef_, coef)
    assert list(m.classes_) == [0, 1, 2]


def test_appending_to_one_buffer_from_threads_keeps_every_array_its_values():
    # arrays that share a history buffer (an estimator and its copy.copy)
    # appended to on several threads at once: each result holds its own
    # values, never another thread's write into the slot it took
    import threading

    from perceptron.linear._fitted import appended

    start = appended(np.zeros(0, dtype=np.int64), 0, np.int64)
    results = {}

    def grow(tag):
        arr = start
        for k in range(2000):
            arr = appended(arr, tag * 10000 + k, np.int64)
        results[tag] = arr

    import sys

    threads = [threading.Thread(target=grow, args=(tag,)) for tag in range(1, 5)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    for tag, arr in results.items():
        np.testing.assert_array_equal(arr, [0] + [tag * 10000 + k for k in range(2000)])


def test_partial_fit_histories_grow_in_place(rng):
    # one entry a call; the arrays share a growing buffer (few distinct
    # buffers over many calls: constant cost a call, not a copy of the whole
    # history), and an array handed out earlier never changes
    import copy

    X, t = integer_data(rng, 40, 3)
    m = Perceptron(random_state=0)
    m.partial_fit(X, t, classes=[0, 1])
    expected = {"mistakes": [m.mistakes_[0]], "updates": [m.updates_[0]], "loss": [m.loss_[0]]}
    snapshot = m.mistakes_.copy()
    held = m.mistakes_
    buffers = set()
    for _ in range(300):
        m.partial_fit(X, t)
        buffers.add(id(m.mistakes_.base))
        for key in expected:
            expected[key].append(getattr(m, key + "_")[-1])
    assert len(m.mistakes_) == len(m.updates_) == len(m.loss_) == m.n_iter_ == 301
    assert len(buffers) <= 12
    np.testing.assert_array_equal(held, snapshot)
    for key, values in expected.items():
        np.testing.assert_array_equal(getattr(m, key + "_"), values)
    assert m.mistakes_.dtype == m.updates_.dtype == np.int64 and m.loss_.dtype == np.float64
    assert not hasattr(m, "_history")

    # a shallow copy shares the arrays and their buffer: each estimator still
    # gets its own history, whichever grows first
    twin = copy.copy(m)
    twin._states = [s.copy() for s in m._states]
    m.partial_fit(X[:20], t[:20])
    twin.partial_fit(X, t)
    twin.partial_fit(X, t)
    m.partial_fit(X[:20], t[:20])
    assert len(m.mistakes_) == len(twin.mistakes_) == 303
    np.testing.assert_array_equal(m.mistakes_[:301], expected["mistakes"])
    np.testing.assert_array_equal(twin.mistakes_[:301], expected["mistakes"])
    solo = copy.deepcopy(twin)
    np.testing.assert_array_equal(solo.mistakes_, twin.mistakes_)
    assert m.mistakes_[301] <= 20 and m.mistakes_[302] <= 20  # m's chunks have 20 rows


# ------------------------------------------------------ training controls


def test_sample_weight_scales_the_step(rng):
    X, t = integer_data(rng, 100, 5)
    sw = rng.integers(0, 4, size=100).astype(float)
    m = quiet_fit(Perceptron(max_iter=5, shuffle=False), X, t, sample_weight=sw)
    keep = sw > 0  # rows of weight 0 are left out
    w, b, mistakes, _, _ = family_reference(X[keep], signs(t)[keep], max_iter=5,
                                            sample_weight=sw[keep])
    np.testing.assert_array_equal(m.coef_[0], w)
    assert m.intercept_[0] == b


def test_class_weight_balanced_equals_sample_weights(rng):
    X, t = integer_data(rng, 200, 5)
    t[:150] = 0
    counts = np.bincount(t)
    sw = (len(t) / (2 * counts))[t]
    a = quiet_fit(Perceptron(class_weight="balanced", max_iter=5, random_state=0), X, t)
    b = quiet_fit(Perceptron(max_iter=5, random_state=0), X, t, sample_weight=sw)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    c = quiet_fit(Perceptron(class_weight={0: 2.0}, max_iter=5, random_state=0), X, t)
    d = quiet_fit(Perceptron(max_iter=5, random_state=0), X, t,
                  sample_weight=np.where(t == 0, 2.0, 1.0))
    np.testing.assert_array_equal(c.coef_, d.coef_)


def test_early_stopping_keeps_the_best_weights(rng):
    X, t = integer_data(rng, 600, 10, noise=0.3)
    m = Perceptron(early_stopping=True, n_iter_no_change=3, max_iter=200,
                   random_state=0).fit(X, t)
    assert len(m.validation_scores_) == m.n_iter_
    assert m.best_validation_score_ == m.validation_scores_.max()
    best_epoch = int(np.argmax(m.validation_scores_))
    assert m.n_iter_ - 1 - best_epoch >= 3 or m.converged_
    assert m.n_iter_ < 200
    # the model kept scores best_validation_score_ on the held-out rows
    from perceptron.linear._stopping import validation_split
    from perceptron._common.validation import mix64
    train, val = validation_split(np.arange(len(t)), t, "binary", 0.1,
                                   mix64(check_random_seed(0) ^ 0x5EED))
    assert m.score(X[val], t[val]) == pytest.approx(m.best_validation_score_)


def test_early_stopping_multinomial_and_ovr(rng):
    X, t = integer_data(rng, 600, 10, k=4, noise=0.3)
    for multiclass in ("ovr", "multinomial"):
        m = Perceptron(early_stopping=True, multiclass=multiclass, random_state=0).fit(X, t)
        assert 0.0 < m.best_validation_score_ <= 1.0
        assert len(m.validation_scores_) == m.n_iter_


def test_history_is_recorded(rng):
    X, t = integer_data(rng, 200, 5, noise=0.2)
    m = quiet_fit(Perceptron(max_iter=7, random_state=0), X, t)
    assert m.mistakes_.shape == m.loss_.shape == m.updates_.shape == (7,)
    assert (m.loss_ >= 0).all() and m.loss_[0] > 0


@pytest.mark.parametrize("kw, match", [
    ({"pocket": True, "average": True}, "alternatives"),
    ({"pocket": True, "batch_size": 8}, "online rule"),
    ({"multiclass": "softmax"}, "multiclass must be"),
    ({"margin": -1.0}, "margin must be >= 0"),
    ({"batch_size": 0}, "batch_size must be >= 1"),
    ({"validation_fraction": 1.0, "early_stopping": True}, "validation_fraction must be < 1"),
    ({"n_iter_no_change": 0}, "n_iter_no_change must be >= 1"),
    ({"class_weight": "even"}, "class_weight must be"),
    ({"class_weight": {9: 1.0}}, "label 9"),
    ({"n_jobs": 0}, "n_jobs must be"),
])
def test_bad_family_parameters(kw, match, rng):
    X, t = integer_data(rng, 40, 3)
    with pytest.raises((ValueError, TypeError), match=match):
        Perceptron(**kw).fit(X, t)


def test_bad_sample_weight(rng):
    X, t = integer_data(rng, 10, 3)
    for sw, match in [(np.ones(9), "shape"), (-np.ones(10), "non-negative"),
                      (np.full(10, np.nan), "NaN"), (np.zeros(10), "weight is zero")]:
        with pytest.raises(ValueError, match=match):
            Perceptron().fit(X, t, sample_weight=sw)


# ------------------------------------------------------------- real data


def test_a9a_averaged_and_pocket_beat_plain(a9a_path):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(a9a_path), n_features=123)
    X = X.toarray().astype(np.float32)
    rng = np.random.default_rng(0)
    order = rng.permutation(len(y))
    train, test = order[:24000], order[24000:]
    acc = {}
    for name, kw in {"plain": {}, "average": {"average": True},
                     "pocket": {"pocket": True}}.items():
        m = quiet_fit(Perceptron(max_iter=10, random_state=0, **kw), X[train], y[train])
        acc[name] = m.score(X[test], y[test])
    assert acc["average"] > acc["plain"]
    assert acc["pocket"] > acc["plain"]
    assert acc["average"] > 0.83


def test_digits_multiclass():
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_digits(return_X_y=True)
    X = X / 16.0
    train, test = slice(0, 1400), slice(1400, None)
    for multiclass in ("ovr", "multinomial"):
        m = quiet_fit(Perceptron(multiclass=multiclass, average=True, max_iter=30, random_state=0),
                      X[train], y[train])
        assert m.score(X[test], y[test]) > 0.88, multiclass


@pytest.mark.parametrize("change", [{"average": True}, {"pocket": True}, {"batch_size": 4}])
def test_partial_fit_refuses_a_changed_variant(change, rng):
    # once a segfault: the loop read averaging accumulators the state never had
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    m = Perceptron(shuffle=False).partial_fit(X, y, classes=[-1, 1])
    coef = m.coef_.copy()
    with pytest.raises(ValueError, match="changed since the first call to partial_fit"):
        m.set_params(**change).partial_fit(X, y)
    np.testing.assert_array_equal(m.coef_, coef)
    m.set_params(average=False, pocket=False, batch_size=None).partial_fit(X, y)


def test_run_epochs_refuses_a_state_without_the_arrays_its_parameters_need():
    from perceptron._core import online as _online
    from perceptron.linear._state import OnlineState

    state = OnlineState(1, 2, np.float64, multinomial=False, average=False, pocket=False,
                        batch_size=None, seed=1)
    state.rows = np.arange(3, dtype=np.intp)
    params = {"eta": 1.0, "margin": 0.0, "fit_intercept": True, "shuffle": False,
              "average": True, "pocket": False, "stop_when_converged": True, "batch_size": None}
    with pytest.raises(ValueError, match="without the arrays"):
        _online.run_epochs(state, np.ones((3, 2)), np.ones(3, dtype=np.int8), None, params, 1)

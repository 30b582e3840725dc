"""n_jobs for one problem: iterative parameter mixing on threads (McDonald,
Hall and Mann 2010), compared exactly with the numpy reference over the
sequential reference, on the same shards and the same per-shard orders."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import Perceptron
from perceptron.linear import _mixing
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed

from helpers import integer_data, quiet_fit, signs
from reference import family_reference, mixing_reference


def shards_and_orders(n, n_shards, random_state, epochs, shuffle=True, rows=None):
    """The threaded fit's shards (contiguous ranges of the training rows) and
    each shard's orders, replayed from its generator's seed."""
    rows = np.arange(n) if rows is None else rows
    bounds = [len(rows) * i // n_shards for i in range(n_shards + 1)]
    shards = [rows[bounds[i]:bounds[i + 1]] for i in range(n_shards)]
    seeds = _mixing.shard_seeds(check_random_seed(random_state), n_shards)
    orders = [shuffled_orders(len(s), epochs, seed) if shuffle
              else [np.arange(len(s))] * epochs for s, seed in zip(shards, seeds)]
    return shards, orders


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_jobs", [2, 4])
@pytest.mark.parametrize("shuffle", [False, True])
def test_binary_uniform_mixing_equals_reference_exactly(dtype, n_jobs, shuffle, rng):
    X, t = integer_data(rng, 240, 6, dtype=dtype)
    est = quiet_fit(Perceptron(max_iter=8, tol=None, n_jobs=n_jobs, shuffle=shuffle,
                               random_state=3), X, t)
    shards, orders = shards_and_orders(len(t), n_jobs, 3, 8, shuffle)
    W, b, _, _, mistakes, losses, _ = mixing_reference(X, signs(t), shards, orders, max_iter=8)
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b.astype(dtype))
    np.testing.assert_array_equal(est.mistakes_, mistakes)
    np.testing.assert_allclose(est.loss_ * len(t), losses, rtol=1e-12)
    assert est.coef_.dtype == dtype and est.n_iter_ == len(mistakes)


def test_mistake_weighted_mixing_equals_reference(rng):
    X, t = integer_data(rng, 300, 5)
    est = quiet_fit(Perceptron(max_iter=10, tol=None, n_jobs=3, mixing="mistakes",
                               random_state=1), X, t)
    shards, orders = shards_and_orders(len(t), 3, 1, 10)
    W, b, _, _, mistakes, _, _ = mixing_reference(X, signs(t), shards, orders, max_iter=10,
                                                  mixing="mistakes")
    # the coefficients k_i / k are not exact in binary: the activations of
    # the compiled kernels and of numpy may round differently
    np.testing.assert_allclose(est.coef_[0], W[0], rtol=1e-12)
    np.testing.assert_allclose(est.intercept_, b, rtol=1e-12)
    np.testing.assert_array_equal(est.mistakes_, mistakes)


def test_margin_and_sample_weights_equal_reference(rng):
    X, t = integer_data(rng, 200, 5)
    sw = rng.integers(0, 4, size=len(t)).astype(np.float64)
    est = quiet_fit(Perceptron(max_iter=6, tol=None, n_jobs=2, margin=2.0, random_state=4), X, t,
                    sample_weight=sw)
    rows = np.flatnonzero(sw > 0)  # rows of weight 0 are left out, as sequentially
    shards, orders = shards_and_orders(len(t), 2, 4, 6, rows=rows)
    W, b, _, _, mistakes, _, _ = mixing_reference(X, signs(t), shards, orders, max_iter=6,
                                                  sample_weight=sw, margin=2.0)
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b)
    np.testing.assert_array_equal(est.mistakes_, mistakes)


def test_class_weight_is_the_sample_weight_of_each_class(rng):
    X, t = integer_data(rng, 200, 5)
    cw = {0: 1.0, 1: 3.0}
    a = quiet_fit(Perceptron(max_iter=6, n_jobs=2, class_weight=cw), X, t)
    b = quiet_fit(Perceptron(max_iter=6, n_jobs=2), X, t, sample_weight=np.where(t == 1, 3.0, 1.0))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


@pytest.mark.parametrize("mixing", ["uniform", "mistakes"])
def test_averaged_model_is_the_mix_of_the_shards_averages(mixing, rng):
    X, t = integer_data(rng, 160, 5)
    est = quiet_fit(Perceptron(max_iter=7, tol=None, n_jobs=2, average=True, mixing=mixing,
                               random_state=6), X, t)
    shards, orders = shards_and_orders(len(t), 2, 6, 7)
    W, b, aW, ab, mistakes, _, _ = mixing_reference(X, signs(t), shards, orders, max_iter=7,
                                                    average=True, mixing=mixing)
    np.testing.assert_array_equal(est.mistakes_, mistakes)
    # the raw weights exactly; the average through the lazy trick, to rounding
    np.testing.assert_allclose(est._states[0].W, W, rtol=1e-12)
    np.testing.assert_allclose(est.coef_, aW, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(est.intercept_, ab, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("batch_size", [None, 16])
def test_one_shard_is_the_sequential_fit_bit_for_bit(average, batch_size, rng):
    # the same driver with one shard: mixing with coefficient 1 changes nothing
    X, t = integer_data(rng, 200, 6)
    kw = dict(max_iter=5, tol=None, average=average, batch_size=batch_size, random_state=2)
    seq = quiet_fit(Perceptron(**kw), X, t)
    est = Perceptron(**kw)
    p = est._check_params()

    def one_shard(X, problems, p):
        return _mixing.ThreadMixing(X, problems, 1, "uniform", p["average"])

    original = _mixing.mixing_runner
    try:
        import perceptron.linear._fit as linear
        linear.mixing_runner = one_shard
        quiet_fit(est, X, t)
    finally:
        linear.mixing_runner = original
    assert p["average"] == average
    np.testing.assert_array_equal(est.coef_, seq.coef_)
    np.testing.assert_array_equal(est.intercept_, seq.intercept_)
    np.testing.assert_array_equal(est.mistakes_, seq.mistakes_)
    np.testing.assert_array_equal(est._states[0].U if average else est._states[0].W,
                                  seq._states[0].U if average else seq._states[0].W)


def test_multinomial_mixing_equals_reference_exactly(rng):
    X, t = integer_data(rng, 240, 5, k=4)
    est = quiet_fit(Perceptron(max_iter=6, tol=None, n_jobs=2, multiclass="multinomial",
                               random_state=9), X, t)
    shards, orders = shards_and_orders(len(t), 2, 9, 6)
    W, b, _, _, mistakes, _, _ = mixing_reference(X, t.astype(np.int32), shards, orders,
                                                  max_iter=6, multinomial_k=4)
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b)
    np.testing.assert_array_equal(est.mistakes_, mistakes)


def test_dense_and_csr_give_the_same_model(rng):
    sparse = pytest.importorskip("scipy.sparse")
    X, t = integer_data(rng, 300, 8)
    X[rng.random(X.shape) < 0.5] = 0.0
    dense = quiet_fit(Perceptron(max_iter=8, n_jobs=2, average=True), X, t)
    csr = quiet_fit(Perceptron(max_iter=8, n_jobs=2, average=True), sparse.csr_matrix(X), t)
    np.testing.assert_array_equal(dense.coef_, csr.coef_)
    np.testing.assert_array_equal(dense.intercept_, csr.intercept_)
    np.testing.assert_array_equal(dense.mistakes_, csr.mistakes_)


def test_deterministic_and_the_same_on_one_thread_or_many(rng, monkeypatch):
    X, t = integer_data(rng, 3000, 30, dtype=np.float32)
    runs = [quiet_fit(Perceptron(max_iter=6, n_jobs=2, random_state=5), X, t) for _ in range(3)]
    # a small fit runs its shards on the calling thread: the same model
    monkeypatch.setattr(_mixing, "THREAD_MIN_WORK", 1 << 60)
    runs.append(quiet_fit(Perceptron(max_iter=6, n_jobs=2, random_state=5), X, t))
    for other in runs[1:]:
        np.testing.assert_array_equal(runs[0].coef_, other.coef_)
        np.testing.assert_array_equal(runs[0].intercept_, other.intercept_)
        np.testing.assert_array_equal(runs[0].mistakes_, other.mistakes_)


def test_n_jobs_one_is_the_sequential_algorithm(rng):
    X, t = integer_data(rng, 150, 5)
    est = quiet_fit(Perceptron(max_iter=6, tol=None, n_jobs=1, random_state=2), X, t)
    w, b, mistakes, _, _ = family_reference(X, signs(t), max_iter=6,
                                            orders=shuffled_orders(len(t), 6,
                                                                   check_random_seed(2)))
    np.testing.assert_array_equal(est.coef_[0], w)
    np.testing.assert_array_equal(est.mistakes_, mistakes)
    default = quiet_fit(Perceptron(max_iter=6, tol=None, random_state=2), X, t)
    np.testing.assert_array_equal(default.coef_, est.coef_)


def test_several_problems_run_side_by_side_as_before(rng):
    X, t = integer_data(rng, 200, 6, k=4)
    one = quiet_fit(Perceptron(max_iter=5, n_jobs=1), X, t)
    two = quiet_fit(Perceptron(max_iter=5, n_jobs=2), X, t)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    Y = np.stack([t == 0, t == 1], axis=1).astype(int)
    one = quiet_fit(Perceptron(max_iter=5, n_jobs=1), X, Y)
    two = quiet_fit(Perceptron(max_iter=5, n_jobs=2), X, Y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    # the pocket keeps its sequential run
    one = quiet_fit(Perceptron(max_iter=5, n_jobs=1, pocket=True), X, t == 1)
    two = quiet_fit(Perceptron(max_iter=5, n_jobs=2, pocket=True), X, t == 1)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    # so does a penalized fit: the lazy scale and the cumulative L1 penalty
    # follow one row schedule, which shards cannot share
    for penalty in ("l2", "l1", "elasticnet"):
        one = quiet_fit(Perceptron(max_iter=5, n_jobs=1, penalty=penalty), X, t == 1)
        two = quiet_fit(Perceptron(max_iter=5, n_jobs=2, penalty=penalty), X, t == 1)
        np.testing.assert_array_equal(one.coef_, two.coef_)
        np.testing.assert_array_equal(one.intercept_, two.intercept_)


@pytest.mark.parametrize("mixing", ["uniform", "mistakes"])
def test_separable_data_converge_and_are_separated(mixing, rng):
    X = rng.standard_normal((600, 6))
    w = rng.standard_normal(6)
    keep = np.abs(X @ w) > 0.3  # a margin
    X, y = X[keep], np.where(X[keep] @ w > 0, "a", "b")
    for n_jobs in (2, 3):
        est = Perceptron(max_iter=1000, tol=None, n_jobs=n_jobs, mixing=mixing).fit(X, y)
        assert est.converged_ and est.mistakes_[-1] == 0 and est.n_iter_ < 1000
        assert est.score(X, y) == 1.0


def test_tol_is_decided_on_the_summed_loss_of_the_mixed_epochs(rng):
    X, t = integer_data(rng, 400, 6, noise=0.3)
    est = quiet_fit(Perceptron(max_iter=60, tol=0.5, n_iter_no_change=3, n_jobs=2,
                               random_state=7), X, t)
    shards, orders = shards_and_orders(len(t), 2, 7, 60)
    _, _, _, _, mistakes, losses, path = mixing_reference(X, signs(t), shards, orders,
                                                          max_iter=60)
    best, count, expected = np.inf, 0, len(losses)
    for e, loss in enumerate(losses):
        count = count + 1 if loss > best - 0.5 * len(t) else 0
        best = min(best, loss)
        if count >= 3:
            expected = e + 1
            break
    assert est.n_iter_ == expected < 60
    np.testing.assert_array_equal(est.coef_, path[expected - 1][0])


def test_early_stopping_scores_the_mixed_model(rng):
    X, t = integer_data(rng, 500, 6, noise=0.2)
    seen = []
    est = quiet_fit(Perceptron(max_iter=40, n_jobs=2, early_stopping=True, n_iter_no_change=3,
                               callback=lambda info: seen.append(info) and False), X, t)
    assert len(seen) == est.n_iter_ == len(est.validation_scores_)
    # each epoch's score is the mixed model's (the callback gets those weights)
    for info, score in zip(seen, est.validation_scores_):
        assert info.validation_score == score
    best = int(np.argmax(est.validation_scores_))
    np.testing.assert_array_equal(est.coef_, seen[best].coef)
    assert est.best_validation_score_ == est.validation_scores_[best]


def test_bad_mixing_and_bad_rows_are_clear_errors(rng):
    X, t = integer_data(rng, 100, 4)
    with pytest.raises(ValueError, match="mixing must be"):
        Perceptron(mixing="mean").fit(X, t)
    X[80, 2] = np.nan  # in the second shard
    with pytest.raises(ValueError, match="NaN"):
        Perceptron(n_jobs=2).fit(X, t)


def test_warm_start_and_mini_batches_mix_from_the_given_weights(rng):
    X, t = integer_data(rng, 300, 5)
    first = quiet_fit(Perceptron(max_iter=3, n_jobs=2), X, t)
    again = quiet_fit(Perceptron(max_iter=3, n_jobs=2, tol=None), X, t, coef_init=first.coef_,
                      intercept_init=first.intercept_)
    shards, orders = shards_and_orders(len(t), 2, 0, 3)
    W, b, _, _, mistakes, _, _ = mixing_reference(X, signs(t), shards, orders, max_iter=3,
                                                  W0=first.coef_, b0=first.intercept_)
    np.testing.assert_array_equal(again.coef_, W)
    np.testing.assert_array_equal(again.intercept_, b)
    np.testing.assert_array_equal(again.mistakes_, mistakes)
    batch = quiet_fit(Perceptron(max_iter=20, n_jobs=2, batch_size=8, average=True), X, t)
    assert batch.score(X, t) > 0.75 and batch.n_iter_ >= 2


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 60), d=st.integers(1, 6),
       n_jobs=st.sampled_from([2, 4]), dtype=st.sampled_from([np.float32, np.float64]),
       shuffle=st.booleans(), fit_intercept=st.booleans())
def test_any_shape_equals_the_reference(seed, n, d, n_jobs, dtype, shuffle, fit_intercept):
    # more shards asked than rows: one shard a row
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(dtype)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = [1, -1]
    est = quiet_fit(Perceptron(max_iter=4, tol=None, n_jobs=n_jobs, shuffle=shuffle,
                               fit_intercept=fit_intercept, random_state=seed), X, y)
    shards, orders = shards_and_orders(n, min(n_jobs, n), seed, 4, shuffle)
    W, b, _, _, mistakes, _, _ = mixing_reference(X, y, shards, orders, max_iter=4,
                                                  fit_intercept=fit_intercept)
    np.testing.assert_array_equal(est.coef_, W)
    np.testing.assert_array_equal(est.intercept_, b.astype(dtype))
    np.testing.assert_array_equal(est.mistakes_, mistakes)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 120), d=st.integers(1, 8),
       gamma=st.floats(0.05, 0.5), n_jobs=st.integers(2, 5),
       mixing=st.sampled_from(["uniform", "mistakes"]))
def test_mixed_mistakes_stay_within_the_papers_bound(seed, n, d, gamma, n_jobs, mixing):
    # McDonald, Hall and Mann (2010), Theorem 3: on data separable through the
    # origin with margin gamma, sum over epochs and shards of mu_i k_i is at
    # most (R/gamma)^2; as sum_i mu_i k_i >= (sum_i k_i) / S for both
    # mixings, the S shards make at most S (R/gamma)^2 updates in all
    rng = np.random.default_rng(seed)
    w_star = rng.standard_normal(d)
    w_star /= np.linalg.norm(w_star)
    X = rng.standard_normal((n, d))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    X += np.outer(np.where(X @ w_star >= 0, gamma, -gamma), w_star)
    y = np.where(X @ w_star > 0, 1, -1)
    if len(np.unique(y)) < 2:
        y[0], X[0] = -y[0], -X[0]
    true_gamma = (y * (X @ w_star)).min()
    R = np.linalg.norm(X, axis=1).max()
    model = Perceptron(tol=None, fit_intercept=False, max_iter=100000, n_jobs=n_jobs,
                       mixing=mixing, random_state=seed).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    assert model.t_ <= min(n_jobs, n) * (R / true_gamma) ** 2

"""scikit-learn's stopping rule (``tol``, ``n_iter_no_change``) observed by
the compiled loop: a fit of one problem (binary, multinomial) with a
tolerance and nothing to report between epochs runs all its epochs in one
call, and must end exactly where the same fit run epoch by epoch from
Python ends (``fit_epochwise``, taken here by passing a callback that never
stops), with the same weights and histories."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import Perceptron
from perceptron._common.stopping import StopRule
from perceptron.linear import _training

FITTED = ("coef_", "intercept_", "mistakes_", "updates_", "loss_")


def _fit(X, y, watched, sample_weight=None, **params):
    model = Perceptron(callback=(lambda info: None) if watched else None, **params)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X, y, sample_weight=sample_weight)
    return model, [type(w.message).__name__ for w in caught]


def _assert_same_fit(X, y, sample_weight=None, **params):
    ours, warned = _fit(X, y, False, sample_weight, **params)
    ref, ref_warned = _fit(X, y, True, sample_weight, **params)
    assert ours.n_iter_ == ref.n_iter_
    assert ours.converged_ == ref.converged_
    assert ours.t_ == ref.t_
    for name in FITTED:
        np.testing.assert_array_equal(getattr(ours, name), getattr(ref, name), err_msg=name)
    assert warned == ref_warned
    return ours


def _noisy(rng, n, d, k, dtype):
    X = rng.standard_normal((n, d)).astype(dtype)
    W = rng.standard_normal((k if k > 2 else 1, d))
    scores = X @ W.T + 0.8 * rng.standard_normal((n, W.shape[0]))
    y = scores.argmax(axis=1) if k > 2 else (scores[:, 0] > 0).astype(int)
    return X, y


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1),
       n=st.integers(2, 120), d=st.integers(1, 9),
       dtype=st.sampled_from([np.float32, np.float64]),
       tol=st.sampled_from([0.0, 1e-3, 1e-2, 0.3, 5.0]),
       n_iter_no_change=st.integers(1, 6),
       max_iter=st.integers(1, 40),
       shuffle=st.booleans(),
       extra=st.sampled_from(["plain", "average", "margin", "l2", "l1", "elasticnet",
                              "multinomial", "sample_weight", "class_weight"]))
def test_the_loop_stops_where_the_python_loop_stops(seed, n, d, dtype, tol, n_iter_no_change,
                                                     max_iter, shuffle, extra):
    rng = np.random.default_rng(seed)
    k = 3 if extra == "multinomial" else 2
    X, y = _noisy(rng, n, d, k, dtype)
    if len(np.unique(y)) < 2:
        y[0] = 1 - y[0] if k == 2 else (y[0] + 1) % k
    params = dict(tol=tol, n_iter_no_change=n_iter_no_change, max_iter=max_iter,
                  shuffle=shuffle, random_state=seed % 1000)
    sw = None
    if extra == "average":
        params["average"] = True
    elif extra == "margin":
        params["margin"] = 0.5
    elif extra in ("l2", "l1", "elasticnet"):
        params.update(penalty=extra, alpha=1e-3)
    elif extra == "multinomial":
        params["multiclass"] = "multinomial"
    elif extra == "sample_weight":
        sw = rng.uniform(0.1, 3.0, n)
    elif extra == "class_weight":
        params["class_weight"] = "balanced"
    _assert_same_fit(X, y, sw, **params)


def test_the_rule_stops_a_fit_before_max_iter():
    rng = np.random.default_rng(3)
    X, y = _noisy(rng, 300, 5, 2, np.float64)
    model = _assert_same_fit(X, y, tol=1e-3, n_iter_no_change=3, max_iter=1000, random_state=0)
    assert 3 <= model.n_iter_ < 1000  # stopped by the rule, not by max_iter or convergence
    assert not model.converged_


@pytest.mark.parametrize("key_params", [{}, {"average": True}, {"penalty": "l2"}])
def test_the_rule_carries_across_blocks_of_epochs(monkeypatch, key_params):
    # run_blocks splits long fits into calls of EPOCH_BLOCK epochs: the rule's
    # state (best loss, epochs without improvement) must go from one to the next
    rng = np.random.default_rng(5)
    X, y = _noisy(rng, 200, 4, 2, np.float64)
    params = dict(tol=1e-4, n_iter_no_change=4, max_iter=60, random_state=1, **key_params)
    whole, _ = _fit(X, y, False, **params)
    monkeypatch.setattr(_training, "EPOCH_BLOCK", 2)
    split = _assert_same_fit(X, y, **params)
    assert split.n_iter_ == whole.n_iter_
    np.testing.assert_array_equal(split.coef_, whole.coef_)


def test_sparse_rows_stop_where_dense_rows_stop():
    sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(11)
    X, y = _noisy(rng, 150, 6, 2, np.float64)
    X[np.abs(X) < 0.8] = 0.0
    dense = _assert_same_fit(X, y, tol=1e-2, n_iter_no_change=2, max_iter=50, random_state=2)
    csr = _assert_same_fit(sparse.csr_matrix(X), y, tol=1e-2, n_iter_no_change=2, max_iter=50,
                           random_state=2)
    assert csr.n_iter_ == dense.n_iter_
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=1e-12, atol=1e-12)


def test_one_vs_rest_still_stops_class_by_class():
    # several problems stop one by one from Python; the compiled rule is for one
    rng = np.random.default_rng(13)
    X, y = _noisy(rng, 200, 5, 4, np.float64)
    _assert_same_fit(X, y, tol=1e-3, n_iter_no_change=2, max_iter=30, random_state=0)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(4, 60), d=st.integers(1, 4),
       n_iter_no_change=st.integers(1, 3), shuffle=st.booleans())
def test_a_loss_equal_to_the_best_counts_as_no_improvement(seed, n, d, n_iter_no_change,
                                                           shuffle):
    # integer-valued rows and tol=0: epochs often sum the same loss exactly,
    # where "not below best - tol" must count as an epoch without improvement
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, (n, d)).astype(np.float64)
    y = rng.integers(0, 2, n)
    y[:2] = (0, 1)
    _assert_same_fit(X, y, tol=0.0, n_iter_no_change=n_iter_no_change, max_iter=30,
                     shuffle=shuffle, random_state=seed % 100)


def test_the_loop_takes_only_a_rule_on_the_training_loss():
    from perceptron._core import online

    rng = np.random.default_rng(0)
    X, y = _noisy(rng, 30, 3, 2, np.float64)
    model = Perceptron(max_iter=2, tol=None).fit(X, y)
    labels = np.where(y == model.classes_[1], 1, -1).astype(np.int8)
    params = model._loop_params(model._check_params())
    for bad in (StopRule(1e-3, 5, 30, higher_is_better=True),
                StopRule(1e-3, 5, 30, key="accuracy")):
        with pytest.raises(ValueError, match="the rule must be on the training loss"):
            online.run_epochs(model._states[0], X, labels, None, params, 1, None, bad)

"""perceptron.dask: iterative parameter mixing on a distributed LocalCluster."""
import os
import signal
import warnings

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install perceptron-family[dask])")
distributed = pytest.importorskip("distributed",
                                  reason="distributed is not installed (pip install perceptron-family[dask])")

import perceptron.dask as pdask  # noqa: E402
from perceptron import ConvergenceWarning, Perceptron  # noqa: E402


def separable(rng, n=600, d=6, gap=0.2):
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    a = X @ w + 0.3
    keep = np.abs(a) > gap * np.abs(a).max()
    X, a = X[keep], a[keep]
    return X, np.where(a > 0, 2, -5)


def blobs(rng, n_per=150, k=3, d=4):
    centres = np.eye(k, d) * 12.0
    X = np.vstack([rng.normal(size=(n_per, d)) + centres[j] for j in range(k)])
    y = np.repeat(np.array(["a", "b", "c", "d"][:k]), n_per)
    order = rng.permutation(len(y))
    return X[order], y[order]


def fitted_equal(local, dist):
    np.testing.assert_array_equal(dist.coef_, local.coef_)
    np.testing.assert_array_equal(dist.intercept_, local.intercept_)
    np.testing.assert_array_equal(dist.classes_, local.classes_)
    np.testing.assert_array_equal(dist.mistakes_, local.mistakes_)
    np.testing.assert_array_equal(dist.updates_, local.updates_)
    np.testing.assert_allclose(dist.loss_, local.loss_, rtol=1e-12)
    assert (dist.n_iter_, dist.converged_, dist.t_, dist.n_features_in_) == \
        (local.n_iter_, local.converged_, local.t_, local.n_features_in_)
    assert dist.coef_.dtype == local.coef_.dtype


# ------------------------------------------------------------ mixing rule

def test_mixing_rule_by_hand():
    start = {"W": np.array([[1.0, 0.0]]), "b": np.array([0.0]), "steps": 0}
    shards = [{"W": np.array([[3.0, 2.0]]), "b": np.array([1.0]), "n": 4, "updates": 1},
              {"W": np.array([[1.0, -6.0]]), "b": np.array([-3.0]), "n": 4, "updates": 3}]
    uniform = pdask.mix(start, shards, "uniform", average=False)
    np.testing.assert_array_equal(uniform["W"], [[2.0, -2.0]])    # (w1 + w2) / 2
    np.testing.assert_array_equal(uniform["b"], [-1.0])
    assert uniform["steps"] == 8
    weighted = pdask.mix(start, shards, "mistakes", average=False)
    np.testing.assert_array_equal(weighted["W"], [[1.5, -4.0]])   # w1/4 + 3 w2/4
    np.testing.assert_array_equal(weighted["b"], [-2.0])
    # no update anywhere: the weights stay (uniform coefficients, not 0/0)
    still = [dict(s, W=start["W"], b=start["b"], updates=0) for s in shards]
    np.testing.assert_array_equal(pdask.mix(start, still, "mistakes", False)["W"], start["W"])
    np.testing.assert_array_equal(pdask.mixing_coefficients([0, 2, 6], "mistakes"),
                                  [0.0, 0.25, 0.75])


def test_mixing_of_the_averaging_accumulators():
    # c = 2 steps done with running sum 2*W - U; shards of 2 and 6 rows
    W0, U0, c = np.array([[1.0, 1.0]]), np.array([[0.0, 2.0]]), 2
    start = {"W": W0, "b": np.zeros(1), "U": U0, "ub": np.zeros(1), "steps": c}
    # shard i's sum of weights over its epoch S_i, so U_i = (c + n_i) W_i - (c W0 - U0) - S_i
    S = [np.array([[4.0, 0.0]]), np.array([[6.0, 12.0]])]
    Ws = [np.array([[3.0, 1.0]]), np.array([[1.0, 3.0]])]
    n = [2, 6]
    shards = [{"W": Ws[i], "b": np.zeros(1), "n": n[i], "updates": u,
               "U": (c + n[i]) * Ws[i] - (c * W0 - U0) - S[i], "ub": np.zeros(1)}
              for i, u in enumerate((1, 3))]
    for mixing, mu in (("uniform", [0.5, 0.5]), ("mistakes", [0.25, 0.75])):
        out = pdask.mix(start, shards, mixing, average=True)
        assert out["steps"] == 10
        W = mu[0] * Ws[0] + mu[1] * Ws[1]
        np.testing.assert_array_equal(out["W"], W)
        # the running sum grows by N * sum_i mu_i S_i / n_i
        total = (c * W0 - U0) + 8 * (mu[0] * S[0] / 2 + mu[1] * S[1] / 6)
        np.testing.assert_allclose(10 * out["W"] - out["U"], total, rtol=1e-14)


def ipm_reference(shards, n_features, epochs, mixing):
    """Iterative parameter mixing as McDonald, Hall and Mann (2010) write it
    (Figure 3), for the binary perceptron visiting rows in order:

        w = 0
        for n = 1..N:
            w_i = OneEpochPerceptron(T_i, w) for each shard i
            w = sum_i mu_{i,n} w_i
    """
    w, b = np.zeros(n_features), 0.0
    history = []
    for _ in range(epochs):
        ends, errors = [], []
        for X, y in shards:
            wi, bi, k = w.copy(), b, 0
            for x, t in zip(X, y):
                if t * (x @ wi + bi) <= 0:
                    wi += t * x
                    bi += t
                    k += 1
            ends.append((wi, bi))
            errors.append(k)
        total = sum(errors)
        mu = [1 / len(shards)] * len(shards) if mixing == "uniform" or total == 0 else \
            [k / total for k in errors]
        w = sum(m * wi for m, (wi, _) in zip(mu, ends))
        b = sum(m * bi for m, (_, bi) in zip(mu, ends))
        history.append(total)
        if total == 0:
            break
    return w, b, history


@pytest.mark.parametrize("n_shards", [2, 4])
def test_uniform_mixing_equals_the_papers_pseudo_code_exactly(client, rng, n_shards):
    # integer features: every weight is a multiple of 1/n_shards**epoch, summed exactly
    X = rng.integers(-3, 4, size=(240, 5)).astype(np.float64)
    y = np.where(X @ np.array([2.0, -1.0, 1.0, 0.0, 3.0]) + 1 > 0, 1, -1)
    chunk = len(y) // n_shards
    est = Perceptron(shuffle=False, max_iter=12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pdask.fit(est, da.from_array(X, chunks=(chunk, 5)), y, client=client, n_shards=n_shards)
    shards = [(X[i:i + chunk], y[i:i + chunk]) for i in range(0, len(y), chunk)]
    w, b, history = ipm_reference(shards, 5, 12, "uniform")
    np.testing.assert_array_equal(est.coef_[0], w)
    np.testing.assert_array_equal(est.intercept_, [b])
    np.testing.assert_array_equal(est.mistakes_, history)


def test_mistake_weighted_mixing_equals_the_papers_pseudo_code(client, rng):
    X = rng.integers(-3, 4, size=(240, 5)).astype(np.float64)
    y = np.where(X @ np.array([2.0, -1.0, 1.0, 0.0, 3.0]) + 1 > 0, 1, -1)
    est = Perceptron(shuffle=False, max_iter=12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pdask.fit(est, da.from_array(X, chunks=(80, 5)), y, client=client, n_shards=3,
                  mixing="mistakes")
    shards = [(X[i:i + 80], y[i:i + 80]) for i in range(0, 240, 80)]
    w, b, history = ipm_reference(shards, 5, 12, "mistakes")
    # thirds are not exact in binary: the dot products may round differently
    np.testing.assert_allclose(est.coef_[0], w, rtol=1e-12)
    np.testing.assert_allclose(est.intercept_, [b], rtol=1e-12)
    np.testing.assert_array_equal(est.mistakes_, history)


# ------------------------------------------------------- one shard = local

@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("problem", ["binary", "ovr", "multinomial", "two-class multinomial"])
def test_one_shard_equals_the_local_fit_exactly(client, rng, average, problem):
    if problem == "binary":
        X, y = separable(rng, gap=0.0)
    elif problem == "two-class multinomial":  # one binary problem, as a local fit has it
        X, y = separable(rng, gap=0.0)
        X = X + rng.normal(scale=0.5, size=X.shape)
    else:
        X, y = blobs(rng)
        X = X + rng.normal(scale=3.0, size=X.shape)  # overlapping: many epochs
    X = X.astype(np.float32)
    params = dict(random_state=7, average=average, max_iter=15,
                  multiclass="multinomial" if "multinomial" in problem else "ovr")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = Perceptron(**params).fit(X, y)
        dist = pdask.fit(Perceptron(**params), da.from_array(X, chunks=(100, 3)), y,
                         client=client, n_shards=1)
    fitted_equal(local, dist)
    # the fitted state continues like the local one
    local.partial_fit(X[:50], y[:50])
    dist.partial_fit(X[:50], y[:50])
    np.testing.assert_array_equal(dist.coef_, local.coef_)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("average", [False, True])
def test_one_vs_rest_shards_read_each_row_once_for_all_classes(client, rng, monkeypatch, dtype,
                                                              average):
    """Dense one-vs-rest shards run the fused epoch (each row read once for
    all the classes), with the bits of each class's own loop; each shard
    holds only some of the classes (the others have no row there)."""
    X, y = blobs(rng, n_per=80, k=4)
    X = (X + rng.normal(scale=3.0, size=X.shape)).astype(dtype)
    first = np.isin(y, ["a", "b", "c"])
    X, y = np.vstack([X[first], X[~first]]), np.concatenate([y[first], y[~first]])
    y[len(y) - 40:] = "e"  # a class the first shard does not have
    Xd = da.from_array(X, chunks=(len(y) // 2, X.shape[1]))
    params = dict(random_state=5, average=average, max_iter=6, tol=None)
    calls = []
    real = pdask.ovr_shard_epoch
    monkeypatch.setattr(pdask, "ovr_shard_epoch", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fused = pdask.fit(Perceptron(**params), Xd, y, client=client, n_shards=2)
        assert calls
        monkeypatch.setattr(pdask, "fused_ovr_covers", lambda *args: False)
        each = pdask.fit(Perceptron(**params), Xd, y, client=client, n_shards=2)
    fitted_equal(each, fused)


@pytest.mark.parametrize("problem", ["binary", "ovr"])
def test_a_shard_passes_over_its_norms_once_per_fit(client, rng, monkeypatch, problem):
    """A passive-aggressive step reads ||x||^2 (Crammer et al. 2006): each
    shard computes its rows' norms once for the fit, every epoch's loops
    read them, and the model has the bits of loops computing them on every
    call (the in-process workers share this process's modules)."""
    from perceptron import PassiveAggressiveClassifier
    from perceptron._core import online, ovr_epoch

    X, y = blobs(rng, n_per=80, k=2 if problem == "binary" else 4)
    X = X + rng.normal(scale=3.0, size=X.shape)
    Xd = da.from_array(X, chunks=(len(y) // 2, X.shape[1]))
    params = dict(random_state=3, max_iter=6, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with monkeypatch.context() as m:
            m.setattr(online, "needs_norms", lambda loop: False)
            per_call = pdask.fit(PassiveAggressiveClassifier(**params), Xd, y, client=client,
                                 n_shards=2)
        passes, given = [], []
        norms, epochs, fused = online.squared_norms, online.run_epochs, ovr_epoch.run_ovr_epoch
        monkeypatch.setattr(online, "squared_norms", lambda A: passes.append(norms(A)) or
                            passes[-1])
        monkeypatch.setattr(online, "run_epochs",
                            lambda *a, **kw: given.append(a[8]) or epochs(*a, **kw))
        monkeypatch.setattr(ovr_epoch, "run_ovr_epoch",
                            lambda *a, **kw: given.append(a[8]) or fused(*a, **kw))
        once = pdask.fit(PassiveAggressiveClassifier(**params), Xd, y, client=client,
                         n_shards=2)
    assert len(passes) == 2  # one per shard
    assert len(given) >= 2 * once.n_iter_ > 2
    assert all(any(sq is s for s in passes) for sq in given)
    fitted_equal(per_call, once)
    # the shards run the estimator's rule: one shard is the local fit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = PassiveAggressiveClassifier(**params).fit(X, y)
        one = pdask.fit(PassiveAggressiveClassifier(**params), Xd, y, client=client, n_shards=1)
    fitted_equal(local, one)


@pytest.mark.parametrize("problem", ["binary", "multinomial"])
def test_sparse_chunks_equal_dense_chunks(client, rng, problem):
    # scipy.sparse chunks: each shard is stacked into one CSR matrix; the same
    # data in dense chunks give the same model, and one shard the local fit
    sparse = pytest.importorskip("scipy.sparse")
    if problem == "binary":
        X, y = separable(rng, gap=0.0)
    else:
        X, y = blobs(rng)
    X = np.where(rng.random(X.shape) < 0.5, 0.0, np.round(X * 4)).astype(np.float64)
    params = dict(random_state=3, max_iter=8, average=True,
                  multiclass="multinomial" if problem == "multinomial" else "ovr")
    dense = da.from_array(X, chunks=(150, X.shape[1]))
    sparse_chunks = dense.map_blocks(sparse.csr_matrix, dtype=X.dtype,
                                     meta=sparse.csr_matrix((0, 0), dtype=X.dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = pdask.fit(Perceptron(**params), dense, y, client=client)
        b = pdask.fit(Perceptron(**params), sparse_chunks, y, client=client)
        one = pdask.fit(Perceptron(**params), sparse_chunks, y, client=client, n_shards=1)
        local = Perceptron(**params).fit(sparse.csr_matrix(X), y)
    fitted_equal(a, b)
    fitted_equal(local, one)
    np.testing.assert_array_equal(pdask.predict(b, sparse_chunks).compute(), b.predict(X))


# ------------------------------------------------------------ two workers

@pytest.mark.parametrize("mixing", ["uniform", "mistakes"])
@pytest.mark.parametrize("average", [False, True])
def test_separable_data_converge_and_are_separated(client, rng, mixing, average):
    X, y = separable(rng)
    est = pdask.fit(Perceptron(random_state=0, average=average, max_iter=200),
                    da.from_array(X, chunks=(150, 6)), y, client=client, mixing=mixing)
    assert est.converged_
    assert est.mistakes_[-1] == 0 and est.n_iter_ == len(est.mistakes_) < 200
    np.testing.assert_array_equal(est.classes_, [-5, 2])
    if not average:  # the last epoch made no mistake with these weights
        assert est.score(X, y) == 1.0
    assert est.t_ == est.updates_.sum()


@pytest.mark.parametrize("multiclass", ["ovr", "multinomial"])
@pytest.mark.parametrize("mixing", ["uniform", "mistakes"])
def test_multiclass_on_two_workers(client, rng, multiclass, mixing):
    X, y = blobs(rng)
    infos = []
    est = pdask.fit(Perceptron(random_state=0, multiclass=multiclass, max_iter=100),
                    da.from_array(X, chunks=(90, 4)), y, client=client, mixing=mixing,
                    callback=lambda epoch, info: infos.append((epoch, info)))
    assert est.converged_
    assert [e for e, _ in infos] == list(range(1, est.n_iter_ + 1))
    assert [i["mistakes"] for _, i in infos] == est.mistakes_.tolist()
    assert all(len(i["shard_seconds"]) == 2 for _, i in infos)
    np.testing.assert_array_equal(infos[-1][1]["coef"], est.coef_)
    assert est.score(X, y) == 1.0
    np.testing.assert_array_equal(est.classes_, ["a", "b", "c"])
    assert est.coef_.shape == (3, 4)
    pred = pdask.predict(est, da.from_array(X, chunks=(100, 2)))
    assert isinstance(pred, da.Array)
    np.testing.assert_array_equal(pred.compute(), est.predict(X))
    scores = pdask.decision_function(est, da.from_array(X, chunks=(100, 4)))
    assert isinstance(scores, da.Array) and scores.shape == (len(y), 3)
    np.testing.assert_array_equal(scores.compute(), est.decision_function(X))


def test_a_callback_returning_true_stops_the_fit(client, rng):
    X, y = separable(rng)
    y[::7] = -5 if y[0] == 2 else 2  # not separable
    est = pdask.fit(Perceptron(random_state=0, max_iter=200), da.from_array(X, chunks=(150, 6)),
                    y, client=client, callback=lambda epoch, info: epoch == 2)
    assert est.n_iter_ == 2 and not est.converged_ and est.mistakes_[-1] > 0


def test_dask_dataframe_input(client, rng):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y = separable(rng)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    ddf = dd.from_pandas(frame, npartitions=3)
    dy = dd.from_pandas(pd.Series(y), npartitions=3)
    est = pdask.fit(Perceptron(random_state=0, max_iter=200), ddf, dy, client=client)
    assert est.converged_
    np.testing.assert_array_equal(est.feature_names_in_, frame.columns)
    assert est.score(frame, y) == 1.0


def test_the_callers_arrays_are_not_modified(client, rng):
    X, y = separable(rng)
    X0, y0 = X.copy(), y.copy()
    pdask.fit(Perceptron(random_state=0, average=True), da.from_array(X, chunks=(300, 6)), y,
              client=client, n_shards=1)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


@pytest.mark.filterwarnings("ignore:Sending large graph")
def test_a9a_four_shards_within_a_point_of_the_local_averaged_perceptron(client, a9a_path):
    load_svmlight_file = pytest.importorskip("sklearn.datasets").load_svmlight_file
    X, y = load_svmlight_file(str(a9a_path), n_features=123)
    X = X.toarray()
    assert X.shape == (32561, 123)
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[:26000], order[26000:]
    params = dict(average=True, random_state=0, max_iter=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = Perceptron(**params).fit(X[train], y[train])
        dist = pdask.fit(Perceptron(**params), da.from_array(X[train], chunks=(6500, 123)),
                         y[train], client=client, n_shards=4)
    assert dist.n_iter_ == 5 and len(dist.mistakes_) == 5
    local_acc = local.score(X[test], y[test])
    dist_acc = dist.score(X[test], y[test])
    assert local_acc > 0.8
    assert abs(dist_acc - local_acc) <= 0.01, (local_acc, dist_acc)


# --------------------------------------------------------------- errors

def test_errors_name_the_argument(client, rng):
    X, y = separable(rng)
    dX = da.from_array(X, chunks=(300, 6))
    with pytest.raises(ValueError, match="mixing"):
        pdask.fit(Perceptron(), dX, y, client=client, mixing="median")
    with pytest.raises(TypeError, match="X must be a dask"):
        pdask.fit(Perceptron(), X, y, client=client)
    with pytest.raises(TypeError, match="estimator"):
        pdask.fit(object(), dX, y, client=client)
    with pytest.raises(ValueError, match="pocket"):
        pdask.fit(Perceptron(pocket=True), dX, y, client=client)
    with pytest.raises(ValueError, match="samples"):
        pdask.fit(Perceptron(), dX, y[:-1], client=client)
    with pytest.raises(ValueError, match="max_iter"):
        pdask.fit(Perceptron(), dX, y, client=client, max_iter=0)
    with pytest.raises(ValueError, match="one class"):
        pdask.fit(Perceptron(), dX, np.ones(len(y)), client=client)
    bad = X.copy()
    bad[200, 2] = np.nan
    with pytest.raises(ValueError, match="shard 1: X contains NaN"):
        pdask.fit(Perceptron(shuffle=False), da.from_array(bad, chunks=(150, 6)), y,
                  client=client)


def test_a_missing_shard_result_fails_naming_the_epoch():
    result = {"shard": 0, "epoch": 4, "problems": []}
    pdask._check_epoch([result, dict(result, shard=1)], 4, 2)
    with pytest.raises(RuntimeError, match=r"epoch 4: results of shards \[1\] are missing"):
        pdask._check_epoch([result, dict(result, epoch=3)], 4, 2)
    with pytest.raises(RuntimeError, match="epoch 4"):
        pdask._check_epoch([result], 4, 2)


def _kill_worker(cluster, address=None):
    for worker in cluster.workers.values():
        if address is None or worker.worker_address == address:
            os.kill(worker.process.process.pid, signal.SIGKILL)
            return


@pytest.mark.slow  # a cluster of worker processes
def test_worker_killed_during_a_fit(rng):
    """Processes, so that a worker can be killed.  A shard built from a graph
    is recomputed (with the row orders and weights of every epoch), giving
    the same model as an undisturbed fit; a shard whose data were scattered
    cannot be, and the fit fails naming the epoch."""
    X, y = separable(rng, n=2000)
    y[::10] = -y[::10]  # not separable: every epoch runs
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        params = dict(random_state=3, average=True, max_iter=6)
        dX = da.from_array(X, chunks=(500, 6))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            undisturbed = pdask.fit(Perceptron(**params), dX, y, client=client)

            def kill_after_epoch_2(epoch, info):
                if epoch == 2:
                    _kill_worker(cluster)

            recovered = pdask.fit(Perceptron(**params), dX, y, client=client,
                                  callback=kill_after_epoch_2)
        fitted_equal(undisturbed, recovered)

        first = sorted(client.nthreads())[0]
        data = client.scatter(X, workers=[first])
        scattered = da.from_delayed(data, shape=X.shape, dtype=X.dtype)

        def kill_the_data(epoch, info):
            if epoch == 2:
                _kill_worker(cluster, first)

        with pytest.raises(RuntimeError, match="epoch 3: a shard's result is missing"):
            pdask.fit(Perceptron(**params), scattered, y, client=client, n_shards=2,
                      callback=kill_the_data)

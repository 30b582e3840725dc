"""perceptron.dask.fit for the StructuredPerceptron: iterative parameter
mixing over shards of whole sequences (McDonald, Hall and Mann 2010)."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install perceptron-family[dask])")
distributed = pytest.importorskip("distributed",
                                  reason="distributed is not installed (pip install perceptron-family[dask])")

import perceptron.dask as pdask  # noqa: E402
from perceptron import StructuredPerceptron  # noqa: E402
from perceptron.sequence._dask import shard_cuts, shard_sequences  # noqa: E402

from test_structured import sequences  # noqa: E402


def test_shards_hold_whole_sequences():
    rng = np.random.default_rng(0)
    for n_shards in (1, 2, 3, 7, 50):
        lengths = rng.integers(0, 9, 40)
        lengths[-3:] = 0  # empty sequences at the end go to the last shard
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        cuts = shard_cuts(offsets, n_shards)
        assert cuts[0] == 0 and cuts[-1] == offsets[-1]
        assert (np.diff(cuts) > 0).all() and len(cuts) - 1 <= n_shards
        assert set(cuts[:-1]) <= set(offsets[:-1])  # every shard starts a sequence
        first, stop = shard_sequences(offsets, cuts)
        assert first[0] == 0 and stop[-1] == len(lengths)
        np.testing.assert_array_equal(first[1:], stop[:-1])
        np.testing.assert_array_equal(offsets[first], cuts[:-1])
        np.testing.assert_array_equal(offsets[stop], cuts[1:])


@pytest.mark.parametrize("average", [False, True])
def test_one_shard_is_the_local_fit(client, average):
    X, y, lengths = sequences(1, n_seq=50)
    local = StructuredPerceptron(max_iter=4, random_state=3, average=average).fit(X, y, lengths)
    dist = pdask.fit(StructuredPerceptron(max_iter=4, random_state=3, average=average),
                     da.from_array(X, chunks=(37, -1)), y, lengths=lengths, client=client,
                     n_shards=1)
    for name in ("coef_", "intercept_", "transition_", "start_", "end_", "mistakes_"):
        np.testing.assert_array_equal(getattr(dist, name), getattr(local, name))
    assert dist.n_iter_ == local.n_iter_


def test_mixing_on_several_shards(client):
    X, y, lengths = sequences(2, n_seq=120, K=4)
    tags = np.array(["A", "B", "C", "D"])[y]
    for mixing in ("uniform", "mistakes"):
        m = pdask.fit(StructuredPerceptron(max_iter=6, random_state=0), da.from_array(X),
                      tags, lengths=lengths, client=client, n_shards=3, mixing=mixing)
        assert list(m.classes_) == ["A", "B", "C", "D"]
        assert 1 <= m.n_iter_ <= 6
        local = StructuredPerceptron(max_iter=6, random_state=0).fit(X, tags, lengths)
        assert m.score(X, tags, lengths) > local.score(X, tags, lengths) - 0.1
        # the mixed model continues locally
        m.partial_fit(X, tags, lengths)


def test_by_hand_two_shards_uniform(client):
    # one epoch, two shards, no shuffle, no averaging: the mixture is the mean of
    # the two shards' local one-epoch fits from zero
    X, y, lengths = sequences(4, n_seq=40)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    cuts = shard_cuts(offsets, 2)
    first, stop = shard_sequences(offsets, cuts)
    parts = []
    for a, b in zip(first, stop):
        lo, hi = offsets[a], offsets[b]
        est = StructuredPerceptron(max_iter=1, shuffle=False, average=False)
        parts.append(est.fit(X[lo:hi], y[lo:hi], lengths[a:b]))
    m = pdask.fit(StructuredPerceptron(max_iter=1, shuffle=False, average=False),
                  da.from_array(X), y, lengths=lengths, client=client, n_shards=2)
    np.testing.assert_allclose(m.coef_, 0.5 * parts[0].coef_ + 0.5 * parts[1].coef_, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(m.transition_, 0.5 * parts[0].transition_
                               + 0.5 * parts[1].transition_, rtol=0, atol=1e-12)


def test_structured_dask_errors(client):
    X, y, lengths = sequences(0)
    with pytest.raises(ValueError, match="early_stopping"):
        pdask.fit(StructuredPerceptron(early_stopping=True), da.from_array(X), y,
                  lengths=lengths, client=client)
    with pytest.raises(ValueError, match="constraints are not supported"):
        pdask.fit(StructuredPerceptron(constraints="iob2"), da.from_array(X), y,
                  lengths=lengths, client=client)
    with pytest.raises(ValueError, match="lengths sum"):
        pdask.fit(StructuredPerceptron(), da.from_array(X), y, lengths=lengths[:-1],
                  client=client)
    from perceptron import Perceptron
    with pytest.raises(ValueError, match="StructuredPerceptron only"):
        pdask.fit(Perceptron(), da.from_array(X), y, lengths=lengths, client=client)


def test_sparse_chunks(client):
    sp = pytest.importorskip("scipy.sparse")
    X, y, lengths = sequences(5, n_seq=50)
    local = StructuredPerceptron(max_iter=3, random_state=1).fit(sp.csr_matrix(X), y, lengths)
    dX = da.from_array(X, chunks=(29, -1)).map_blocks(sp.csr_matrix)
    dist = pdask.fit(StructuredPerceptron(max_iter=3, random_state=1), dX, y, lengths=lengths,
                     client=client, n_shards=1)
    np.testing.assert_array_equal(dist.coef_, local.coef_)
    np.testing.assert_array_equal(dist.transition_, local.transition_)
    two = pdask.fit(StructuredPerceptron(max_iter=3, random_state=1), dX, y, lengths=lengths,
                    client=client, n_shards=2)
    assert two.score(X, y, lengths) > 0.5


def test_structured_dask_checks_the_weights_memory_first(client, monkeypatch):
    X, y, lengths = sequences(0)
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", "1000")
    with pytest.raises(ValueError, match=r"a StructuredPerceptron with \d+ labels and \d+ "
                                         r"features .* would take .*PERCEPTRON_MAX_FIT_BYTES"):
        pdask.fit(StructuredPerceptron(), da.from_array(X), y, lengths=lengths, client=client)
    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES")
    model = pdask.fit(StructuredPerceptron(max_iter=1), da.from_array(X), y, lengths=lengths,
                      client=client)
    assert model.coef_.shape[1] == X.shape[1]

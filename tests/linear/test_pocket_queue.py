"""The binary pocket's candidate weights counted in blocks (one read of X
for several of them, perceptron/_core/pocket_queue.pxd) give the pocket of
the ratchet that counts each as it comes, bit for bit: the pocket's weights
and bias, its count of right rows, its run length and the run counters;
over dense and CSR rows, float32 and float64, weighted or not, in order or
shuffled, at every SIMD level.  And both equal Gallant's (1990) pocket with
ratchet written in numpy, on integer data (exact in any summation order)."""
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron._core import online

from helpers import (POCKET_FIELDS, assert_pocket_blocks_agree, assert_same_bits, pocket_data,
                     pocket_run, pocket_sparse, run_python)

pytest.importorskip("scipy.sparse")  # the CSR forms (pocket_sparse)


def make_data(seed, n, d, dtype, noise, integer):
    return pocket_data(seed, n, d, dtype, noise, integer)


def run(X, y, block, *, epochs=5, shuffle=False, sample_weight=None, seed=0):
    """The binary pocket trained with the given pocket_block (pocket_run)."""
    return pocket_run(X, y, block, epochs=epochs, shuffle=shuffle, sample_weight=sample_weight,
                      seed=seed)


def assert_same(a, b):
    assert_same_bits(a, b, POCKET_FIELDS)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 400), d=st.integers(1, 70),
       dtype=st.sampled_from([np.float32, np.float64]),
       form=st.sampled_from(["dense", "csr32", "csr64"]),
       noise=st.sampled_from([0.0, 0.3, 3.0]), shuffle=st.booleans(), weighted=st.booleans(),
       block=st.sampled_from([2, 3, 8, 16, 32]))
def test_blocks_give_the_pocket_of_one_at_a_time(seed, n, d, dtype, form, noise, shuffle,
                                                 weighted, block):
    X, y = make_data(seed, n, d, dtype, noise, integer=False)
    X = pocket_sparse(X, form, seed)
    sw = np.random.default_rng(seed + 1).uniform(0.1, 3.0, n) if weighted else None
    assert_pocket_blocks_agree(X, y, block, epochs=5, shuffle=shuffle, sample_weight=sw,
                               seed=seed)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 300), d=st.integers(1, 70),
       dtype=st.sampled_from(["float16", "int8", "uint8"]), shuffle=st.booleans(),
       block=st.sampled_from([2, 8, 16]))
def test_blocks_on_narrow_rows(seed, n, d, dtype, shuffle, block):
    X, y = make_data(seed, n, d, np.float64, 1.0, integer=True)
    X = (X + 3 if dtype == "uint8" else X).astype(dtype)
    one, _ = run(X, y, 0, shuffle=shuffle, seed=seed)
    many, _ = run(X, y, block, shuffle=shuffle, seed=seed)
    assert_same(one, many)


def test_default_block_on_data_larger_than_the_caches():
    # 60,000 x 20 float64 (9.6 MB): the queue counts 16 candidates a read
    X, y = make_data(7, 60_000, 20, np.float64, 1.0, integer=False)
    one, _ = run(X, y, 0, epochs=3)
    auto, _ = run(X, y, None, epochs=3)
    assert_same(one, auto)
    assert one["counters"][online.C_POCKET_RUN] > 0  # the ratchet took weights


def test_bad_block_is_refused():
    X, y = make_data(0, 10, 2, np.float64, 0.0, integer=False)
    for block in (-1, 33):
        with pytest.raises(ValueError, match="pocket_block"):
            run(X, y, block)


def gallant_reference(X, y, orders, sample_weight=None):
    """Gallant (1990), the pocket algorithm with ratchet: run the perceptron
    (eta 1, with an intercept); whenever the current weights have been right
    on more consecutive rows than the pocket's weights were, count the
    training rows they classify right, and if that beats the pocket's
    count, they go in the pocket with their run.  The count is checked at
    most once per run (the weights do not change during a run, so a second
    count would be the same and never beat itself).  Returns the pocket's
    weights, bias, count and run."""
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else sample_weight
    Xd = X.astype(np.float64)

    def count(w, b, order):
        return sum(s[i] for i in order if y[i] * (Xd[i] @ w.astype(np.float64) + b) > 0)

    w, b = np.zeros(d, dtype=X.dtype), 0.0
    pocket = (w.copy(), b, count(w, b, orders[0]), 0)
    run_, checked = 0, False
    for order in orders:
        for i in order:
            if y[i] * (Xd[i] @ w.astype(np.float64) + b) <= 0:
                w = (w + X.dtype.type(y[i] * s[i]) * X[i]).astype(X.dtype)
                b += y[i] * s[i]
                run_, checked = 0, False
                continue
            run_ += 1
            if not checked and run_ > pocket[3]:
                ok = count(w, b, order)
                if ok > pocket[2]:
                    pocket = (w.copy(), b, ok, run_)
                checked = True
    return pocket


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("block", [0, 2, 4, 16])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_equals_gallant_reference(dtype, block, shuffle):
    X, y = make_data(11, 150, 6, dtype, 1.5, integer=True)
    got, _ = run(X, y, block, epochs=4, shuffle=shuffle, seed=3)
    # a shuffled state visits the orders its seed draws (replayed here)
    orders = online.shuffled_orders(150, 4, 3) if shuffle else [np.arange(150)] * 4
    w, b, ok, run_ = gallant_reference(X, y, orders)
    np.testing.assert_array_equal(got["PW"][0], w)
    assert got["pb"][0] == b
    assert got["pocket_score"][0] == ok
    assert got["counters"][online.C_POCKET_RUN] == run_


LEVEL_POCKET = """
import itertools
import json
import numpy as np
from perceptron import simd_info
from linear.test_pocket_queue import make_data, run
out = {"level": simd_info()["level"]}
for dtype, d, integer in itertools.product((np.float32, np.float64), (7, 100), (False, True)):
    X, y = make_data(5, 3000, d, dtype, 1.0, integer=integer)
    one, _ = run(X, y, 0, epochs=3)
    many, _ = run(X, y, 8, epochs=3)
    same = all(np.array_equal(one[k].view(np.uint8), many[k].view(np.uint8)) for k in one)
    out[f"{np.dtype(dtype).name} {d} {integer}"] = [bool(same), one["PW"].tolist(),
                                          one["pocket_score"].tolist(),
                                          one["counters"].tolist()]
print(json.dumps(out))
"""


@pytest.mark.slow  # a fresh interpreter per level
def test_blocks_equal_one_at_a_time_at_every_level():
    from perceptron import simd_info
    results = {}
    for level in simd_info()["supported"]:
        res = json.loads(run_python(LEVEL_POCKET, simd=level)[0])
        assert res.pop("level") == level
        for key, (same, *_rest) in res.items():
            assert same, (level, key)
        results[level] = res
    # integer data: every level's sums are exact, so every level's pocket is the same
    first = next(iter(results.values()))
    for level, res in results.items():
        for key in res:
            if key.endswith("True"):
                assert res[key] == first[key], (level, key)

"""The multiclass pocket's candidate weights counted in blocks (one read of X
for several of them, perceptron/_core/multinomial_pocket.pxd) give the
pocket of the ratchet that counts each as it comes, bit for bit: the
pocket's weights and biases, its count of right rows, its run length and
the run counters; over dense, narrow and CSR rows, float32 and float64,
weighted or not, in order or shuffled.  And both equal Gallant's (1990)
pocket with ratchet on the multiclass perceptron written in numpy
(tests/reference.py, multinomial_reference), on integer data."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron import Perceptron
from perceptron._core import online
from reference import multinomial_reference
from helpers import (POCKET_FIELDS, assert_pocket_blocks_agree, assert_same_bits, pocket_data,
                     pocket_run, pocket_sparse)

pytest.importorskip("scipy.sparse")  # the CSR forms (pocket_sparse)


def make_data(seed, n, d, k, dtype, noise, integer):
    return pocket_data(seed, n, d, dtype, noise, integer, k=k)


def run(X, t, k, block, *, epochs=4, shuffle=False, sample_weight=None, seed=0):
    """The multiclass pocket trained with the given pocket_block (pocket_run)."""
    return pocket_run(X, t, block, k=k, epochs=epochs, shuffle=shuffle,
                      sample_weight=sample_weight, seed=seed)


def assert_same(a, b):
    assert_same_bits(a, b, POCKET_FIELDS)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 300), d=st.integers(1, 40),
       k=st.integers(3, 6), dtype=st.sampled_from([np.float32, np.float64]),
       form=st.sampled_from(["dense", "csr32", "csr64"]),
       noise=st.sampled_from([0.0, 0.5, 3.0]), shuffle=st.booleans(), weighted=st.booleans(),
       block=st.sampled_from([2, 3, 8, 16, 32]))
def test_blocks_give_the_pocket_of_one_at_a_time(seed, n, d, k, dtype, form, noise, shuffle,
                                                 weighted, block):
    X, t = make_data(seed, n, d, k, dtype, noise, integer=False)
    X = pocket_sparse(X, form, seed)
    sw = np.random.default_rng(seed + 1).uniform(0.1, 3.0, n) if weighted else None
    assert_pocket_blocks_agree(X, t, block, k=k, epochs=4, shuffle=shuffle, sample_weight=sw,
                               seed=seed)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 200), d=st.integers(1, 40),
       dtype=st.sampled_from(["float16", "int8", "uint8"]), shuffle=st.booleans(),
       block=st.sampled_from([2, 8, 16]))
def test_blocks_on_narrow_rows(seed, n, d, dtype, shuffle, block):
    X, t = make_data(seed, n, d, 4, np.float64, 1.0, integer=True)
    X = (X + 3 if dtype == "uint8" else X).astype(dtype)
    one, _ = run(X, t, 4, 0, shuffle=shuffle, seed=seed)
    many, _ = run(X, t, 4, block, shuffle=shuffle, seed=seed)
    assert_same(one, many)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("block", [0, 2, 4, 16])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_equals_the_published_ratchet(dtype, block, shuffle):
    """Integer rows: every sum exact, so the compiled pocket is the numpy
    reference's pocket (Gallant 1990, on the multiclass rule of Collins
    2002), whatever the block."""
    k, epochs = 4, 4
    X, t = make_data(11, 150, 6, k, dtype, 1.5, integer=True)
    got, _ = run(X, t, k, block, epochs=epochs, shuffle=shuffle, seed=3)
    orders = online.shuffled_orders(150, epochs, 3) if shuffle else None
    W, b, _ = multinomial_reference(X, t, k, max_iter=epochs, orders=orders, pocket=True)
    np.testing.assert_array_equal(got["PW"], W)
    np.testing.assert_array_equal(got["pb"], b)
    assert got["counters"][online.C_POCKET_RUN] > 0  # the ratchet took weights


def test_default_block_on_data_larger_than_the_caches():
    # 30,000 x 20 float64 (4.8 MB), 5 classes: the queue counts candidates in blocks
    X, t = make_data(7, 30_000, 20, 5, np.float64, 1.0, integer=False)
    one, r1 = run(X, t, 5, 0, epochs=2)
    auto, ra = run(X, t, 5, None, epochs=2)
    assert_same(one, auto)
    np.testing.assert_array_equal(r1["mistakes"], ra["mistakes"])
    assert one["counters"][online.C_POCKET_RUN] > 0


def test_estimator_pocket_through_the_queue():
    """Perceptron(multiclass="multinomial", pocket=True) on data beyond the
    caches (the queue on by default) keeps the reference's pocket."""
    k = 3
    X, t = make_data(5, 25_000, 24, k, np.float64, 2.0, integer=True)
    est = Perceptron(multiclass="multinomial", pocket=True, shuffle=False, max_iter=2, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, t)
    W, b, _ = multinomial_reference(X[:600], t[:600], k, max_iter=1, pocket=True)
    small = Perceptron(multiclass="multinomial", pocket=True, shuffle=False, max_iter=1,
                       tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        small.fit(X[:600], t[:600])
    np.testing.assert_array_equal(small.coef_, W)
    np.testing.assert_array_equal(small.intercept_, b)
    one, _ = run(X, t, k, 0, epochs=2)
    np.testing.assert_array_equal(est.coef_, one["PW"])
    np.testing.assert_array_equal(est.intercept_, one["pb"])


LEVEL_POCKET = """
import json
import numpy as np
from perceptron import simd_info
from linear.test_pocket_queue_multi import make_data, run
out = {"level": simd_info()["level"]}
for dtype in (np.float32, np.float64):
    for d in (7, 100):
        X, t = make_data(5, 2000, d, 4, dtype, 1.0, integer=False)
        one, _ = run(X, t, 4, 0, epochs=2)
        many, _ = run(X, t, 4, 8, epochs=2)
        out[f"{np.dtype(dtype).name} {d}"] = all(
            np.array_equal(one[k].view(np.uint8), many[k].view(np.uint8)) for k in one)
print(json.dumps(out))
"""


@pytest.mark.slow  # a fresh interpreter per level
def test_blocks_equal_one_at_a_time_at_every_level():
    import json

    from perceptron import simd_info
    from helpers import run_python

    for level in simd_info()["supported"]:
        res = json.loads(run_python(LEVEL_POCKET, simd=level)[0])
        assert res.pop("level") == level
        assert all(res.values()), (level, res)

"""Choosing the SIMD level: PERCEPTRON_SIMD, fallbacks, and fits at every level.

The level is fixed when the package is imported, so each case runs in a
fresh interpreter.
"""
import json

import pytest

from perceptron import simd_info

from helpers import run_python

pytestmark = pytest.mark.slow  # a fresh interpreter per case

LEVELS = simd_info()["supported"]

INFO = "import json, perceptron; print(json.dumps(perceptron.simd_info()))"


@pytest.mark.parametrize("level", LEVELS)
def test_forcing_each_supported_level(level):
    out, err = run_python(INFO, simd=level)
    info = json.loads(out)
    assert info["level"] == level
    assert info["requested"] == level
    assert "RuntimeWarning" not in err


def test_auto_and_unset_choose_the_best():
    for value in (None, "auto", ""):
        info = json.loads(run_python(INFO, simd=value)[0])
        assert info["level"] == info["best"]


def test_unknown_level_warns_and_falls_back():
    out, err = run_python(INFO, simd="sse9")
    info = json.loads(out)
    assert info["level"] == info["best"]
    assert "RuntimeWarning" in err and "PERCEPTRON_SIMD='sse9' is not a SIMD level" in err


def test_unsupported_level_warns_and_falls_back():
    unsupported = [lv for lv in ("scalar", "avx2", "avx512", "neon") if lv not in LEVELS]
    if not unsupported:
        pytest.skip("this machine supports every level")
    out, err = run_python(INFO, simd=unsupported[0])
    info = json.loads(out)
    assert info["level"] == info["best"]
    assert "RuntimeWarning" in err
    assert ("not supported by this CPU" in err) or ("not compiled into this build" in err)


FIT = """
import json, numpy as np, perceptron
from perceptron import Perceptron
rng = np.random.default_rng(3)
out = {}
for dtype in ("float32", "float64"):
    X = rng.integers(-5, 6, size=(300, 37)).astype(dtype)
    y = np.where(X @ rng.integers(-3, 4, size=37) + 0.5 > 0, "pos", "neg")
    m = Perceptron(max_iter=50, random_state=7).fit(X, y)
    out[dtype] = {"coef": m.coef_.ravel().tolist(), "b": float(m.intercept_[0]),
                  "mistakes": m.mistakes_.tolist(),
                  "decision": m.decision_function(X).tolist()}
out["level"] = perceptron.simd_info()["level"]
print(json.dumps(out))
"""


def test_fits_are_identical_at_every_level():
    # integer-valued data: every level computes the same exact sums
    results = {}
    for level in LEVELS:
        res = json.loads(run_python(FIT, simd=level)[0])
        assert res.pop("level") == level
        results[level] = res
    first = results[LEVELS[0]]
    for level in LEVELS[1:]:
        for dtype in ("float32", "float64"):
            assert results[level][dtype] == first[dtype], level


POCKET = """
import json, numpy as np, perceptron, warnings
from perceptron import Perceptron
from perceptron._core.online import shuffled_orders
from perceptron._common.validation import check_random_seed
from reference import family_reference
try:
    import scipy.sparse as sp
except ImportError:
    sp = None
warnings.simplefilter("ignore")
rng = np.random.default_rng(5)
out = {"level": perceptron.simd_info()["level"], "failed": [], "checked": 0}
for dtype in ("float32", "float64"):
    # noisy labels: many runs outlast the pocket's, most candidates lose
    # (the count stops early), some win
    X = rng.integers(-4, 5, size=(240, 19)).astype(dtype)
    t = X @ rng.integers(-3, 4, size=19) > 0
    flip = rng.random(240) < 0.2
    t[flip] = ~t[flip]
    y = np.where(t, 1, -1)
    for weighted in (False, True):
        sw = rng.integers(1, 4, size=240).astype(float) if weighted else None
        for shuffle in (False, True):
            orders = shuffled_orders(240, 8, check_random_seed(4)) if shuffle else None
            w, b, mistakes, _, _ = family_reference(X, y, max_iter=8, pocket=True, orders=orders,
                                                    sample_weight=sw)
            for sparse in ((False, True) if sp is not None else (False,)):
                Xf = sp.csr_matrix(X) if sparse else X
                m = Perceptron(pocket=True, max_iter=8, tol=None, shuffle=shuffle,
                               random_state=4).fit(Xf, y, sample_weight=sw)
                out["checked"] += 1
                if not (np.array_equal(m.coef_[0], w) and m.intercept_[0] == b
                        and np.array_equal(m.mistakes_, mistakes)):
                    out["failed"].append([dtype, weighted, shuffle, sparse])
print(json.dumps(out))
"""


@pytest.mark.parametrize("level", LEVELS)
def test_pocket_equals_gallant_reference_at_every_level(level):
    # the ratchet's counts (dense rows through the level's scan, stopping
    # once the pocket cannot be beaten) against the reference's full counts
    pytest.importorskip("scipy")  # the child fits CSR rows too
    res = json.loads(run_python(POCKET, simd=level)[0])
    assert res["level"] == level
    assert res["checked"] == 16
    assert res["failed"] == []

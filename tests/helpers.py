"""Data makers and wrappers that several test files use.

Imported as ``from helpers import ...``: pytest's default import mode
("prepend") puts the folder of conftest.py, this folder, on sys.path, in the
source tree and in the copy of tests/ that the installed-wheel runs use.
"""
import itertools
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import perceptron
from perceptron import ConvergenceWarning


def integer_data(rng, n, d, k=2, noise=0.1, dtype=np.float64):
    """n rows of d integer features in [-4, 4] (every sum of products exact in
    floating point) and labels 0..k-1: the argmax of an integer linear map,
    with about a fraction `noise` of the labels redrawn at random."""
    X = rng.integers(-4, 5, size=(n, d)).astype(dtype)
    W = rng.integers(-3, 4, size=(k, d))
    t = np.argmax(X @ W.T + rng.integers(-1, 2, size=k), axis=1)
    flip = rng.random(n) < noise
    t[flip] = rng.integers(0, k, size=flip.sum())
    return X, t


def quiet(fn, *args, **kw):
    """fn(*args, **kw) with ConvergenceWarning silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fn(*args, **kw)


def quiet_fit(model, *args, **kw):
    """model.fit(*args, **kw) with ConvergenceWarning silenced."""
    return quiet(model.fit, *args, **kw)


def signs(t):
    """Class 1 as +1, every other class as -1 (the binary rule's labels)."""
    return np.where(t == 1, 1, -1)


def narrow_dtypes():
    """The dense dtypes read as stored: float16, int8, uint8, and bfloat16
    when ml_dtypes is installed."""
    dtypes = [np.float16, np.int8, np.uint8]
    try:
        import ml_dtypes
    except ImportError:
        return dtypes
    return dtypes + [ml_dtypes.bfloat16]


def assert_same_bits(a, b, fields):
    """The arrays a[name] and b[name] of every name in `fields` have one
    dtype and the same bits."""
    for name in fields:
        assert a[name].dtype == b[name].dtype, name
        np.testing.assert_array_equal(a[name].view(np.uint8), b[name].view(np.uint8),
                                      err_msg=name)


def grid(names, *axes, fast):
    """pytest.mark.parametrize over every combination of `axes` (one list of
    values per comma-separated name in `names`), with the combinations for
    which fast(*values) is false marked slow: ``-m "not slow"`` runs the
    representative part, a plain run every combination."""
    cases = [pytest.param(*values, marks=() if fast(*values) else pytest.mark.slow)
             for values in itertools.product(*axes)]
    return pytest.mark.parametrize(names, cases)


def run_python(code, simd=None):
    """Run `code` in a fresh interpreter, with PERCEPTRON_SIMD set to `simd`
    (unset when None: the SIMD level is fixed at import), from this folder
    (so that it can import reference.py); return its stdout and stderr."""
    env = dict(os.environ)
    env.pop("PERCEPTRON_SIMD", None)
    # the child imports the same package as this process, installed or not
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(perceptron.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    if simd is not None:
        env["PERCEPTRON_SIMD"] = simd
    proc = subprocess.run([sys.executable, "-W", "always", "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=env, cwd=os.path.dirname(__file__))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr

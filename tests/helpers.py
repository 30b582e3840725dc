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


def voted_vectors(model):
    """A fitted VotedPerceptron's kept vectors, problem by problem, as
    (V, b, c): V (n_vectors, n_features) float64.  A fit on sparse X keeps
    each vector as its updates (vector j: the sum of the first
    vector_updates_[p][j] of them); they are summed here in float64, one
    update after the other, as the voted perceptron makes its vectors."""
    if not hasattr(model, "vector_updates_"):
        return [(V.astype(np.float64), b, c) for V, b, c in
                zip(model.vectors_, model.vector_intercepts_, model.vector_counts_)]
    out = []
    for ptr, idx, val, upto, b, c in zip(model.update_indptr_, model.update_indices_,
                                         model.update_values_, model.vector_updates_,
                                         model.vector_intercepts_, model.vector_counts_):
        w = np.zeros(model.n_features_in_)
        V = np.zeros((len(upto), model.n_features_in_))
        t = 0
        for j, last in enumerate(upto):
            for t in range(t, last):
                np.add.at(w, idx[ptr[t]:ptr[t + 1]], val[ptr[t]:ptr[t + 1]])
            t = last
            V[j] = w
        out.append((V, b, c))
    return out


def same_voters(a, b):
    """Whether two lists of (V, b, c) hold the same voters, problem by
    problem, in whatever order each store keeps them."""
    def rows(V, b, c):
        return sorted((tuple(v), float(bj), int(cj)) for v, bj, cj in zip(V, b, c))
    return len(a) == len(b) and all(rows(*p) == rows(*q) for p, q in zip(a, b))


# ------------------------------------------ the pockets' queues (tests/linear)

POCKET_FIELDS = ("PW", "pb", "pocket_score", "counters", "W", "b")


def pocket_data(seed, n, d, dtype, noise, integer, k=None):
    """Rows (small integers, or normal) and labels of a noisy linear rule:
    +-1 (int8) for a binary pocket, k classes (int32) for a multiclass one."""
    rng = np.random.default_rng(seed)
    if integer:
        X = rng.integers(-3, 4, size=(n, d)).astype(dtype)
    else:
        X = rng.standard_normal((n, d)).astype(dtype)
    if k is None:
        w = rng.standard_normal(d)
        y = np.where(X.astype(np.float64) @ w + noise * rng.standard_normal(n) > 0, 1, -1)
        return X, y.astype(np.int8)
    W = rng.standard_normal((k, d))
    t = np.argmax(X.astype(np.float64) @ W.T + noise * rng.standard_normal((n, k)), axis=1)
    return X, t.astype(np.int32)


def pocket_sparse(X, form, seed):
    """X with about half its values zeroed, as a scipy CSR matrix of int32
    ("csr32") or int64 ("csr64") indices; X itself for "dense"."""
    if form == "dense":
        return X
    import scipy.sparse as sp

    X[np.random.default_rng(seed).random(X.shape) < 0.5] = 0
    A = sp.csr_matrix(X)
    idx = np.int32 if form == "csr32" else np.int64
    A.indices, A.indptr = A.indices.astype(idx), A.indptr.astype(idx)
    return A


def pocket_run(X, labels, block, *, k=None, epochs, shuffle=False, sample_weight=None,
               seed=0):
    """A pocket state (binary, or multiclass of k classes) trained `epochs`
    epochs by the compiled run_epochs with the given pocket_block: its
    arrays after (POCKET_FIELDS), and the per-epoch counts."""
    from perceptron._core import online
    from perceptron.linear._state import OnlineState

    d = X.shape[1]
    wide = X.dtype in (np.float32, np.float64)  # narrow rows train float32 weights
    state = OnlineState(1 if k is None else k, d, np.dtype(X.dtype if wide else np.float32),
                        multinomial=k is not None, average=False, pocket=True,
                        batch_size=None, seed=seed)
    state.rows = np.arange(X.shape[0], dtype=np.intp)
    state.start_pocket(X, labels, sample_weight, True)
    params = online.LoopParams(eta=1.0, margin=0.0, fit_intercept=True, shuffle=shuffle,
                               average=False, pocket=True, stop_when_converged=False,
                               keep_order=False)
    res = online.run_epochs(state, X, labels, sample_weight, params, epochs,
                            pocket_block=block)
    return {name: np.array(getattr(state, name)) for name in POCKET_FIELDS}, res


def assert_pocket_blocks_agree(X, labels, block, **kw):
    """The pocket whose candidates are counted `block` at a time, in one
    read of X, is the pocket of each counted as it comes, bit for bit, with
    the same per-epoch counts (pocket_run's arguments in kw)."""
    one, r1 = pocket_run(X, labels, 0, **kw)
    many, rb = pocket_run(X, labels, block, **kw)
    assert_same_bits(one, many, POCKET_FIELDS)
    for key in ("mistakes", "updates"):
        np.testing.assert_array_equal(r1[key], rb[key])

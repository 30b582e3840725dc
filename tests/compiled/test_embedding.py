"""The embedding API: get_include, the nogil model struct from Cython, the
fast one-row path, and scoring from many threads."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import perceptron
from perceptron import ConvergenceWarning, Perceptron, CentroidClassifier
from perceptron.model import LinearModel
from helpers import narrow_dtypes

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "embed_cython"


def fit(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return Perceptron(random_state=0, **kw).fit(X, y)


def data(rng, n=500, d=100, k=2, dtype=np.float32):
    X = rng.standard_normal((n, d)).astype(dtype)
    y = np.argmax(X[:, :k] + 0.3 * rng.standard_normal((n, k)), axis=1)
    return X, y


def test_get_include_has_headers_and_pxd():
    inc = pathlib.Path(perceptron.get_include())
    for name in ("ptn_simd.h", "ptn_model.h", "ptn_dispatch.h", "dispatch.c", "simd_avx2.c",
                 "simd_avx512.c", "simd_avx2_dots.inc", "simd_avx512_tail.inc"):
        assert (inc / name).is_file(), name
    for name in ("simd.pxd", "model.pxd"):
        assert (inc / "perceptron" / name).is_file(), name


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k", [2, 4])
def test_one_row_path_matches_batch(dtype, k, rng):
    X, y = data(rng, k=k, dtype=dtype)
    for model in (fit(X, y), fit(X, y, multiclass="multinomial"), CentroidClassifier().fit(X, y)):
        dec = model.decision_function(X[:50])
        pred = model.predict(X[:50])
        for i in range(50):
            np.testing.assert_allclose(model.decision_one(X[i]), dec[i], rtol=1e-12)
            assert model.predict_one(X[i]) == pred[i]
        # lists and other dtypes are converted
        assert model.predict_one(X[0].tolist()) == pred[0]
        assert model.predict_one(X[0].astype(np.float16)) in model.classes_


def test_one_row_path_refuses_bad_input(rng):
    X, y = data(rng, d=5)
    model = fit(X, y)
    with pytest.raises(ValueError, match="x has 4 features, but the model is expecting 5"):
        model.predict_one(np.ones(4))
    with pytest.raises(ValueError, match="1-D"):
        model.predict_one(np.ones((1, 5)))
    with pytest.raises(ValueError, match="NaN or infinity"):
        model.predict_one([1.0, np.nan, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="NaN or infinity"):
        model.decision_one(np.array([np.inf, 0, 0, 0, 0], dtype=np.float32))
    with pytest.raises(TypeError, match="1-D sequence of numbers"):
        model.predict_one(["a", "b", "c", "d", "e"])
    with pytest.raises(perceptron.NotFittedError):
        Perceptron().predict_one(np.ones(5))
    Y = np.stack([y, 1 - y], axis=1)
    multilabel = fit(X, Y)
    with pytest.raises(ValueError, match="multi-label"):
        multilabel.predict_one(X[0])
    np.testing.assert_allclose(multilabel.decision_one(X[0]), multilabel.decision_function(X[:1])[0])


def test_c_model_lifetime_and_cache(rng):
    X, y = data(rng)
    model = fit(X, y)
    first = model.c_model()
    assert model.c_model() is first  # cached while coef_ is the same array
    before = first.decision_one(X[0])
    model.set_params(max_iter=1).fit(X[::-1], y[::-1])
    assert model.c_model() is not first
    # the old struct still scores the old weights: it holds their arrays
    assert first.decision_one(X[0]) == before
    assert first.coef is not model.coef_
    assert "_c_model_cache" not in vars(model)  # scoring does not change the estimator


def test_linear_model_validation():
    with pytest.raises(ValueError, match="kind must be"):
        LinearModel(np.ones((1, 3)), np.ones(1), "ternary")
    with pytest.raises(TypeError, match="float32 or float64"):
        LinearModel(np.ones((1, 3), dtype=int), np.ones(1), "binary")
    with pytest.raises(ValueError, match="not a valid binary model"):
        LinearModel(np.ones((2, 3)), np.ones(2), "binary")
    with pytest.raises(ValueError, match=r"\(k, d\)"):
        LinearModel(np.ones((2, 3)), np.ones(3), "multiclass")


def test_many_threads_share_one_model(rng):
    X, y = data(rng, n=20000, d=64, k=3)
    model = fit(X, y, max_iter=5)
    expected_pred = model.predict(X)
    expected_dec = model.decision_function(X)
    errors, results = [], [None] * 8

    def work(t):
        try:
            for _ in range(5):
                assert np.array_equal(model.predict(X), expected_pred)
                assert np.array_equal(model.decision_function(X), expected_dec)
            results[t] = [model.predict_one(X[i]) for i in range(t, 2000, 8)]
        except Exception as exc:  # reported below, from the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    for t in range(8):
        assert results[t] == list(expected_pred[t:2000:8])


def _build_example(tmp_path):
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler found to build the example extension")
    pytest.importorskip("Cython", reason="Cython is needed to build the example extension")
    if not EXAMPLE.exists():
        pytest.skip("examples/ is not beside the tests (installed-package run)")
    work = tmp_path / "embed"
    shutil.copytree(EXAMPLE, work)
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(perceptron.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work,
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sys.path.insert(0, str(work))
    try:
        import score
    finally:
        sys.path.remove(str(work))
    return score


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """examples/embed_cython built once for the tests that use it."""
    return _build_example(tmp_path_factory.mktemp("example"))


@pytest.mark.slow  # Cython and a C compiler
def test_cython_example_scores_equal_decision_function(example, rng):
    score = example
    for dtype in (np.float32, np.float64):
        X, y = data(rng, n=3000, d=37, dtype=dtype)
        model = fit(X, y)
        out = np.empty(len(X))
        score.decision_rows(model.c_model(), X, out)
        np.testing.assert_array_equal(out, model.decision_function(X))
        pred = np.empty(len(X), dtype=np.int64)
        score.predict_rows(model.c_model(), X, pred)
        np.testing.assert_array_equal(model.classes_[pred], model.predict(X))
        dots = np.empty(len(X))
        score.dot_rows(X, model.coef_[0], dots)
        np.testing.assert_allclose(dots + model.intercept_[0], out, rtol=1e-6)
    # the sparse kernels and axpy, cimported: CSR rows scored as the dense ones,
    # int32 and int64 indices, weights within and beyond L1
    sparse = pytest.importorskip("scipy.sparse")
    for d, dtype, index in ((37, np.float64, np.int32), (37, np.float32, np.int64),
                            (20000, np.float64, np.int64)):
        X, y = data(rng, n=500, d=d, dtype=dtype)
        X[rng.random(X.shape) < 0.8] = 0.0
        smodel = fit(X, y, max_iter=3)
        C = sparse.csr_matrix(X)
        out = np.empty(len(X))
        score.csr_decision_rows(smodel.c_model(), C.data, C.indices.astype(index),
                                C.indptr.astype(index), out)
        # the package's own CSR scores: the same sparse kernels (the bias may be
        # added in another order: to rounding)
        np.testing.assert_allclose(out, smodel.decision_function(C), rtol=1e-12, atol=1e-9)
        # the dense rows' scores: float32 dense rows are summed in float32
        # blocks (csrc/ptn_simd.h, dot_f32), sparse ones element by element in
        # double, so the two agree to float32 precision only
        np.testing.assert_allclose(out, smodel.decision_function(X),
                                   rtol=1e-12 if dtype is np.float64 else 1e-5,
                                   atol=1e-9 if dtype is np.float64 else 1e-4)
        w = np.zeros(d, dtype=dtype)
        score.sum_rows(X, w, C.data, C.indices.astype(index), C.indptr.astype(index))
        np.testing.assert_allclose(w, 2 * X.astype(np.float64).sum(axis=0),
                                   rtol=1e-5 if dtype is np.float32 else 1e-12, atol=1e-3)
    X, y = data(rng, n=2000, d=20, k=5)
    multi = fit(X, y, multiclass="multinomial")
    pred = np.empty(len(X), dtype=np.int64)
    score.predict_rows(multi.c_model(), X, pred)
    np.testing.assert_array_equal(multi.classes_[pred], multi.predict(X))
    # model is the float64 one: float32 rows are refused, not misread
    with pytest.raises(TypeError, match="dtype"):
        score.decision_rows(model.c_model(), np.ones((3, 37), dtype=np.float32), np.empty(3))


def _narrow_rows(rng, n, d, dtype):
    kind = np.dtype(dtype).kind
    if kind == "i":
        return rng.integers(-128, 128, size=(n, d)).astype(dtype)
    if kind == "u":
        return rng.integers(0, 256, size=(n, d)).astype(dtype)
    return (rng.standard_normal((n, d)) * 3).astype(dtype)


@pytest.mark.slow  # Cython and a C compiler
@pytest.mark.parametrize("dtype", narrow_dtypes(), ids=lambda t: np.dtype(t).name)
def test_cython_example_scores_narrow_rows_as_stored(example, rng, dtype):
    """decision_narrow and predict_narrow, cimported from perceptron.model,
    on rows stored as float16, bfloat16, int8 or uint8: each activation has
    the bits of decision_function on those rows (the same narrow kernel,
    the bias added after), and of the C functions on the rows converted to
    float32 first."""
    score = example
    X = _narrow_rows(rng, 700, 37, dtype)
    s = X[:, :3].astype(np.float64).sum(axis=1)
    y = (s > np.median(s)).astype(int)
    model = fit(X, y, max_iter=5)
    assert model.coef_.dtype == np.float32
    out = np.empty(len(X))
    score.decision_rows_narrow(model.c_model(), X, out)
    np.testing.assert_array_equal(out, model.decision_function(X))
    wide = np.empty(len(X))
    score.decision_rows(model.c_model(), X.astype(np.float32), wide)
    np.testing.assert_array_equal(out, wide)
    pred = np.empty(len(X), dtype=np.int64)
    score.predict_rows_narrow(model.c_model(), X, pred)
    np.testing.assert_array_equal(model.classes_[pred], model.predict(X))
    # multiclass: the first largest activation
    y3 = np.argmax(X[:, :3].astype(np.float64), axis=1)
    multi = fit(X, y3, max_iter=5, multiclass="multinomial")
    score.predict_rows_narrow(multi.c_model(), X, pred)
    np.testing.assert_array_equal(multi.classes_[pred], multi.predict(X))
    # what the C functions cannot tell is checked before they read anything
    model64 = fit(X.astype(np.float64), y, max_iter=5)
    with pytest.raises(TypeError, match="float32 model"):
        score.decision_rows_narrow(model64.c_model(), X, out)
    with pytest.raises(TypeError, match="float16, bfloat16, int8 or uint8"):
        score.decision_rows_narrow(model.c_model(), X.astype(np.int16), out)
    with pytest.raises(ValueError, match="features"):
        score.decision_rows_narrow(model.c_model(), np.ascontiguousarray(X[:, :-1]), out)
    with pytest.raises(ValueError, match="one entry per row"):
        score.decision_rows_narrow(model.c_model(), X, out[:-1])
    with pytest.raises(ValueError, match="C-contiguous"):
        score.decision_rows_narrow(model.c_model(), X[:, ::2], out)


def test_narrow_kind_names_the_c_kinds():
    from perceptron.model import narrow_kind

    kinds = [narrow_kind(t) for t in narrow_dtypes()]
    assert len(set(kinds)) == len(kinds) and 0 not in kinds
    for dtype in (np.float32, np.float64, np.int16, bool, np.uint16):
        with pytest.raises(TypeError, match="float16, bfloat16, int8 or uint8"):
            narrow_kind(dtype)


DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "user_guide" / "embedding.rst"


def _doc_block(language, containing):
    """The first ``.. code-block:: language`` of the embedding page holding
    `containing`, dedented."""
    text = DOCS.read_text(encoding="utf-8")
    for part in text.split(f".. code-block:: {language}\n")[1:]:
        lines = []
        for line in part.splitlines()[1:]:
            if line and not line.startswith("   "):
                break
            lines.append(line[3:])
        block = "\n".join(lines).strip() + "\n"
        if containing in block:
            return block
    raise AssertionError(f"no {language} block with {containing!r} in {DOCS}")


def _build_docs_snippet(work, include=None):
    """Build the embedding page's setup.py and Cython snippet in `work`
    (against `include` in place of perceptron.get_include()); returns the
    build's process."""
    work.mkdir()
    setup_py = _doc_block("python", "cythonize")
    if include is not None:
        setup_py = setup_py.replace("perceptron.get_include()", repr(str(include)))
    (work / "setup.py").write_text(setup_py)
    (work / "score.pyx").write_text(_doc_block("cython", "decision_rows"))
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(perceptron.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work,
                          capture_output=True, text=True, env=env, timeout=600)


def _import_fresh(work, name="score"):
    """Import the module built in `work` in a fresh interpreter: (returncode, output)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import numpy as np, perceptron; "
            f"import {name}; print('imported')")
    proc = subprocess.run([sys.executable, "-c", code, str(work)], capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def test_the_simd_table_carries_its_abi_version():
    import perceptron.simd as simd

    assert isinstance(simd.ABI_VERSION, int) and simd.ABI_VERSION >= 1
    exported = set(simd.__pyx_capi__)
    # the accessors of the table are exported under the version's names only
    assert {f"active_simd_abi{simd.ABI_VERSION}",
            f"sparse_dot_kernels_abi{simd.ABI_VERSION}"} <= exported
    assert "active_simd" not in exported and "sparse_dot_kernels" not in exported
    pxd = (pathlib.Path(perceptron.get_include()) / "perceptron" / "simd.pxd").read_text()
    assert f"active_simd_abi{simd.ABI_VERSION}()" in pxd


@pytest.mark.slow  # Cython, a C compiler and fresh interpreters
def test_docs_snippet_builds_with_openmp_checks_its_input_and_the_abi(tmp_path, rng):
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler found to build the snippet")
    pytest.importorskip("Cython", reason="Cython is needed to build the snippet")
    if not DOCS.exists():
        pytest.skip("docs/ is not beside the tests (installed-package run)")
    work = tmp_path / "snippet"
    proc = _build_docs_snippet(work)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if sys.platform.startswith("linux"):
        # prange runs on threads only when OpenMP is compiled and linked in
        assert "-fopenmp" in proc.stdout + proc.stderr
    sys.path.insert(0, str(work))
    try:
        import score
    finally:
        sys.path.remove(str(work))
        sys.modules.pop("score", None)
    X, y = data(rng, n=400, d=23, dtype=np.float64)
    model = fit(X, y)
    out = np.empty(len(X))
    score.decision_rows(model.c_model(), X, out)
    np.testing.assert_array_equal(out, model.decision_function(X))
    # the checks the snippet makes before the C loop reads anything
    model32 = fit(X.astype(np.float32), y)
    with pytest.raises(TypeError, match="dtype"):
        score.decision_rows(model32.c_model(), X, out)
    with pytest.raises(ValueError, match="features"):
        score.decision_rows(model.c_model(), X[:, :-1].copy(), out)
    with pytest.raises(ValueError, match="one entry per row"):
        score.decision_rows(model.c_model(), X, out[:-1])

    # the same module built against headers of another table layout (a later
    # release's, or an earlier one's) refuses to import, naming the accessor
    import perceptron.simd as simd

    other = tmp_path / "other-include"
    shutil.copytree(perceptron.get_include(), other)
    # a package for Cython, so that its perceptron/*.pxd come before the
    # installed package's
    (other / "perceptron" / "__init__.pxd").write_text("")
    for name in ("simd.pxd", "model.pxd"):
        path = other / "perceptron" / name
        path.write_text(path.read_text().replace(f"_abi{simd.ABI_VERSION}",
                                                 f"_abi{simd.ABI_VERSION + 1}"))
    stale = tmp_path / "stale"
    proc = _build_docs_snippet(stale, include=other)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    status, output = _import_fresh(stale)
    assert status != 0
    assert re.search(rf"ImportError: perceptron.simd does not export expected C function "
                     rf"\w+_abi{simd.ABI_VERSION + 1}\b", output), output
    # and built against the installed headers, it imports
    status, output = _import_fresh(work)
    assert status == 0 and "imported" in output, output

"""The C file readers on their own: csrc/svmlight.c and csrc/model_file.c
compiled without Python, warning-free, and run under AddressSanitizer and
UndefinedBehaviorSanitizer; a model file written by Python scored by a C
program through csrc/ptn_model_file.h."""
import os
import pathlib
import shutil
import subprocess
import warnings

import numpy as np
import pytest

from perceptron import CentroidClassifier, ConvergenceWarning, Perceptron
from c_sources import CSRC, c_sources



PROGRAMS = {
    "test_svmlight": ["tests/test_svmlight.c", *c_sources("svmlight")],
    "test_model_file": ["tests/test_model_file.c", *c_sources("model_file"), *c_sources("kernels")],
}
WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]
SANITIZE = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer"]


def _own_env():
    """The environment for the C programs these tests build: without a sanitizer
    runtime preloaded for this interpreter (tools/sanitize.sh preloads gcc's,
    which would clash with a program that links its own)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def compilers():
    """The C compilers here, each once (cc is often gcc)."""
    found, seen = [], set()
    for name in ("gcc", "clang", "cc"):
        path = shutil.which(name)
        if path and os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            found.append(name)
    return found or [None]


def build(compiler, program, tmp_path, flags):
    if not (CSRC / "svmlight.c").exists():
        pytest.skip("csrc/ is not beside the tests (installed-package run)")
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or clang) found")
    exe = tmp_path / f"{program}_{pathlib.Path(compiler).name}"
    cmd = [compiler, *flags, f"-I{CSRC}", *[str(CSRC / s) for s in PROGRAMS[program]], "-lm",
           "-o", str(exe)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    return exe, result


def sanitized(program, tmp_path):
    """The program built with ASan + UBSan, or a skip if the toolchain lacks them."""
    for compiler in ("clang", "gcc", "cc"):
        if shutil.which(compiler) is None:
            continue
        exe, result = build(compiler, program, tmp_path, [*WARNINGS, *SANITIZE])
        if result.returncode == 0:
            return exe
    pytest.skip("no compiler here builds with -fsanitize=address,undefined")


def test_readers_ship_in_get_include():
    import perceptron

    include = pathlib.Path(perceptron.get_include())
    for name in ("ptn_svmlight.h", "svmlight.c", "ptn_model_file.h", "model_file.c",
                 "ptn_model.h"):
        assert (include / name).is_file(), name


@pytest.mark.slow  # compilers
@pytest.mark.parametrize("compiler", compilers())
def test_model_file_reader_builds_without_warnings(compiler, tmp_path):
    # (the svmlight parser is built with the same flags by the next test)
    exe, result = build(compiler, "test_model_file", tmp_path, [*WARNINGS, "-O2"])
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # compilers
@pytest.mark.parametrize("compiler", compilers())
def test_svmlight_parser_every_cut(compiler, tmp_path):
    exe, result = build(compiler, "test_svmlight", tmp_path, [*WARNINGS, "-O2"])
    assert result.returncode == 0, result.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300, env=_own_env())
    assert run.returncode == 0, run.stdout + run.stderr
    assert "checks pass" in run.stdout


@pytest.mark.slow  # a sanitized build
def test_svmlight_parser_under_sanitizers(tmp_path):
    exe = sanitized("test_svmlight", tmp_path)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600, env=_own_env())
    assert run.returncode == 0, run.stdout + run.stderr
    assert "checks pass" in run.stdout


def _fit(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return Perceptron(random_state=0, max_iter=20, **kw).fit(X, y)


@pytest.mark.slow  # a sanitized build
def test_model_file_robust_under_sanitizers(tmp_path, rng):
    X = rng.standard_normal((40, 3)).astype(np.float32)
    model = _fit(X, rng.integers(0, 3, 40))
    path = tmp_path / "small.ptn"
    model.save(path)
    exe = sanitized("test_model_file", tmp_path)
    run = subprocess.run([str(exe), "robust", str(path)], capture_output=True, text=True, env=_own_env(),
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "none crashed" in run.stdout


def _models(rng):
    X = rng.standard_normal((120, 7))
    y3 = np.argmax(X[:, :3] + 0.2 * rng.standard_normal((120, 3)), axis=1)
    Y = (X[:, :4] > 0).astype(int)
    for dtype in (np.float32, np.float64):
        Xd = X.astype(dtype)
        yield "binary", _fit(Xd, y3 == 0), Xd, 0
        yield "ovr", _fit(Xd, y3), Xd, 1
        yield "multinomial", _fit(Xd, y3, multiclass="multinomial", average=True), Xd, 1
        yield "multilabel", _fit(Xd, Y), Xd, 2
        yield "centroid", CentroidClassifier().fit(Xd, y3), Xd, 1


@pytest.mark.slow  # a compiler
def test_c_program_scores_a_saved_model(tmp_path, rng):
    compiler = compilers()[0]
    exe, result = build(compiler, "test_model_file", tmp_path, [*WARNINGS, "-O2"])
    assert result.returncode == 0, result.stderr
    for i, (name, model, X, kind) in enumerate(_models(rng)):
        path, xpath = tmp_path / f"m{i}.ptn", tmp_path / f"x{i}.f64"
        model.save(path)
        X.astype(np.float64).tofile(xpath)
        run = subprocess.run([str(exe), "score", str(path), str(xpath), str(len(X))], env=_own_env(),
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        lines = run.stdout.splitlines()
        k, d = model.coef_.shape
        assert lines[0] == (f"kind {kind} rows {k} features {d} "
                            f"dtype {0 if X.dtype == np.float32 else 1}"), name
        rows = np.array([[float(v) for v in line.split()] for line in lines[1:]])
        expected = model.decision_function(X).reshape(len(X), -1)
        np.testing.assert_allclose(rows[:, 1:], expected, rtol=1e-12, atol=1e-12, err_msg=name)
        if name != "multilabel":
            predicted = model.classes_[rows[:, 0].astype(int)]
            np.testing.assert_array_equal(predicted, model.predict(X), err_msg=name)


def _c_labels(stdout, cap):
    """The labels a `test_model_file labels` run printed: "<length> <text>\\n",
    the text being the first cap - 1 bytes of the label (it may hold newlines)."""
    first, _, data = stdout.partition(b"\n")
    out = []
    for _ in range(int(first.split()[0])):
        length, _, data = data.partition(b" ")
        length = int(length)
        shown = min(length, cap - 1)
        assert data[shown:shown + 1] == b"\n"
        out.append((length, data[:shown]))
        data = data[shown + 1:]
    assert data == b""
    return out


@pytest.mark.slow  # a compiler
def test_c_program_reads_the_labels(tmp_path, rng):
    # labels as the file keeps them: numbers in an array of the table (int,
    # unsigned, float32/64, bool), text and mixed ones in the JSON header,
    # escapes and characters beyond the BMP included; each as Python's str()
    compiler = compilers()[0]
    exe, result = build(compiler, "test_model_file", tmp_path, [*WARNINGS, "-O2"])
    assert result.returncode == 0, result.stderr
    X = rng.standard_normal((60, 3))
    cases = [np.array([-7, 3, 2**40]), np.array([0, 2**64 - 1], dtype=np.uint64),
             np.array([1.0, 2.0, -1e300, 1e15, 2.0**60]), np.array([2.0, 3.0], dtype=np.float32),
             np.array([False, True]), np.array(["b", 'é"\\\n\t', "🙂 x"]),
             np.array(["one", "two"], dtype=object), np.array([3, 10**30], dtype=object),
             np.array([-1, 1], dtype=np.int8)]
    for i, classes in enumerate(cases):
        y = classes[np.arange(len(X)) % len(classes)]
        model = _fit(X, y)
        path = tmp_path / f"l{i}.ptn"
        model.save(path)
        want = [str(c).encode("utf-8") for c in model.classes_]
        for cap in (256, 3):
            run = subprocess.run([str(exe), "labels", str(path), str(cap)], env=_own_env(),
                                 capture_output=True, timeout=60)
            assert run.returncode == 0, run.stdout + run.stderr
            got = _c_labels(run.stdout, cap)
            assert [n for n, _ in got] == [len(w) for w in want], (classes, got)
            # a short buffer holds the first cap - 1 bytes
            assert [text for _, text in got] == [w[:cap - 1] for w in want], (classes, got)


def test_every_c_file_has_an_spdx_line():
    # a C project that vendors the readers or the kernels keeps the licence
    # with each file (SPDX, https://spdx.org/licenses/BSD-3-Clause.html)
    if not (CSRC / "model_file.c").exists():
        pytest.skip("csrc/ is not beside the tests (installed-package run)")
    files = [p for pattern in ("*.c", "*.h", "*.inc", "tests/*.c") for p in CSRC.glob(pattern)]
    assert files
    for path in files:
        head = path.read_text(encoding="utf-8").splitlines()[:3]
        assert any("SPDX-License-Identifier: BSD-3-Clause" in line for line in head), path

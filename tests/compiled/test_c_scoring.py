"""The scoring subset in two files (embed/ptn_scoring.h, embed/ptn_scoring.c):
made from csrc/ by tools/amalgamate.py and current with it, shipped in
perceptron.get_include(), free of the training kernels and the SIMD
dispatch; a plain C program built against those two files alone reads saved
models and their labels and scores rows as the package does."""
import importlib.util
import pathlib
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import perceptron
from perceptron import CentroidClassifier, ConvergenceWarning, Perceptron
from c_sources import CSRC

ROOT = CSRC.parent
EMBED = ROOT / "embed"
PAIR = ("ptn_scoring.h", "ptn_scoring.c")
WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def _amalgamate():
    script = ROOT / "tools" / "amalgamate.py"
    if not script.exists() or not (CSRC / "model_file.c").exists():
        pytest.skip("the source tree is not beside the tests (installed-package run)")
    spec = importlib.util.spec_from_file_location("amalgamate", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pair_is_what_the_sources_make():
    made = _amalgamate().render()
    assert sorted(made) == sorted(PAIR)
    for name in PAIR:
        assert (EMBED / name).read_text(encoding="utf-8") == made[name], (
            f"embed/{name} is not current: run python tools/amalgamate.py")


def test_the_pair_is_made_of_the_readers_and_scalar_scoring_only():
    module = _amalgamate()
    header, source = (module.render()[name] for name in PAIR)
    # every file it is made of is pasted whole, under its name
    for name in module.PARTS:
        body = [line for line in (CSRC / name).read_text(encoding="utf-8").splitlines()
                if not module.LOCAL_INCLUDE.match(line)]
        text = header if name.endswith(".h") else source
        assert "\n".join(body).strip("\n") in text, name
    # no include of any other file of the package: the two files stand alone
    assert [line for line in (header + source).splitlines()
            if module.LOCAL_INCLUDE.match(line)] == ['#include "ptn_scoring.h"']
    # nothing of the kernel table, the dispatch, the training rules or the
    # intrinsics (the files' comments may name them; their code may not)
    for word in ("ptn_simd *", "ptn_dispatch_init(", "ptn_active_simd(", "ptn_rule ",
                 "axpy_f", "<immintrin.h>", "<arm_neon.h>", "PTN_TARGET(\""):
        assert word not in header + source, word
    for text in (header, source):
        assert text.splitlines()[0] == "/* SPDX-License-Identifier: BSD-3-Clause"


def test_the_pair_ships_in_get_include():
    include = pathlib.Path(perceptron.get_include())
    for name in PAIR:
        assert (include / name).is_file(), name
        if (EMBED / name).exists():  # a build from this tree: its copy
            assert (include / name).read_bytes() == (EMBED / name).read_bytes(), name


def _fit(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return Perceptron(random_state=0, max_iter=20, **kw).fit(X, y)


def _models(rng):
    X = rng.standard_normal((150, 9))
    y3 = np.argmax(X[:, :3] + 0.3 * rng.standard_normal((150, 3)), axis=1)
    words = np.array(["cat", "dog", "émeu"])
    for dtype in (np.float32, np.float64):
        Xd = X.astype(dtype)
        yield "binary text", _fit(Xd, words[(y3 == 0).astype(int)]), Xd
        yield "one-vs-rest ints", _fit(Xd, 10 * y3 - 7), Xd
        yield "multinomial floats", _fit(Xd, 10.0 * y3 + 1e15, multiclass="multinomial",
                                         average=True), Xd
        yield "multi-label", _fit(Xd, (X[:, :4] > 0).astype(int)), Xd
        yield "centroid", CentroidClassifier().fit(Xd, words[y3]), Xd


def _compiler():
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return name
    pytest.skip("no C compiler (cc, gcc or clang) found")


@pytest.mark.slow  # a compiler
def test_a_program_built_against_the_two_files_alone_scores_as_the_package(tmp_path, rng):
    program = EMBED / "example" / "score_rows.c"
    if not program.exists():
        pytest.skip("embed/ is not beside the tests (installed-package run)")
    # a folder holding the program and the two files of get_include(), nothing else
    build = tmp_path / "vendored"
    build.mkdir()
    include = pathlib.Path(perceptron.get_include())
    for name in PAIR:
        shutil.copyfile(include / name, build / name)
    shutil.copyfile(program, build / program.name)
    exe = tmp_path / "score_rows"
    result = subprocess.run([_compiler(), *WARNINGS, "-O2", "score_rows.c", "ptn_scoring.c",
                             "-o", str(exe)], cwd=build, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for i, (name, model, X) in enumerate(_models(rng)):
        path, rows = tmp_path / f"m{i}.ptn", tmp_path / f"x{i}.f64"
        model.save(path)
        X.astype(np.float64).tofile(rows)
        run = subprocess.run([str(exe), str(path), str(rows), str(len(X))], capture_output=True,
                             timeout=60)
        assert run.returncode == 0, run.stderr
        lines = run.stdout.decode("utf-8").splitlines()
        assert len(lines) == len(X), name
        labels = [line.split(" ")[0] for line in lines]
        scores = np.array([[float(v) for v in line.split(" ")[1:]] for line in lines])
        expected = model.decision_function(X).reshape(len(X), -1)
        # the package sums at its best SIMD level, the program in scalar
        # code: the same products in another order
        np.testing.assert_allclose(scores, expected, rtol=1e-12, atol=1e-12, err_msg=name)
        if name == "multi-label":
            assert labels == ["-"] * len(X)
        else:
            assert labels == [str(c) for c in model.predict(X)], name


@pytest.mark.slow  # a compiler
def test_the_program_refuses_rows_of_the_wrong_size(tmp_path, rng):
    program = EMBED / "example" / "score_rows.c"
    if not program.exists():
        pytest.skip("embed/ is not beside the tests (installed-package run)")
    exe = tmp_path / "score_rows"
    include = pathlib.Path(perceptron.get_include())
    result = subprocess.run([_compiler(), *WARNINGS, f"-I{include}", str(program),
                             str(include / "ptn_scoring.c"), "-o", str(exe)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    X = rng.standard_normal((20, 4))
    model = _fit(X, X[:, 0] > 0)
    model.save(tmp_path / "m.ptn")
    X[:, :3].tofile(tmp_path / "short.f64")  # 20 rows of 3, not 4
    run = subprocess.run([str(exe), str(tmp_path / "m.ptn"), str(tmp_path / "short.f64"), "20"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "not 20 rows of 4 doubles" in run.stderr
    (tmp_path / "m.ptn").write_bytes(b"not a model")
    run = subprocess.run([str(exe), str(tmp_path / "m.ptn"), str(tmp_path / "short.f64"), "15"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "m.ptn" in run.stderr

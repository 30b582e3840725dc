"""Start-up: ``import perceptron`` and ``perceptron --help`` load none of the
optional libraries (scikit-learn alone takes 1-2 s to import, with scipy and
pandas).  Their times are measured by benchmarks/bench_startup.py, not here."""
import json
import subprocess
import sys

import pytest

from helpers import run_python

HEAVY = ("sklearn", "scipy", "pandas", "matplotlib", "dask", "distributed")

LOADED = """
import json, sys
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules} & set(%r))))
""" % (HEAVY,)


@pytest.mark.slow  # a fresh interpreter
def test_import_loads_no_optional_library():
    out, _ = run_python("import perceptron\n" + LOADED)
    assert json.loads(out) == []


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.parametrize("argv", [["--help"], ["train", "--help"], ["predict", "--help"],
                                  ["--version"]])
def test_help_loads_no_optional_library(argv):
    code = f"""
import contextlib, io, sys
from perceptron.cli import main
with contextlib.redirect_stdout(io.StringIO()) as text:
    try:
        main({argv!r})
    except SystemExit:
        pass
assert "perceptron" in text.getvalue()
""" + LOADED
    out, _ = run_python(code)
    assert json.loads(out) == []


@pytest.mark.slow  # a fresh interpreter
def test_console_help_runs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "perceptron", "--help"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "train" in proc.stdout and "predict" in proc.stdout

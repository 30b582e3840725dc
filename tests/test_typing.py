"""mypy passes on the package and the examples (the type stubs and annotations).

Runs only from a source checkout (the configuration is pyproject.toml's
[tool.mypy]) with mypy installed; the installed-wheel test runs skip it.
"""
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_mypy_passes_on_the_package_and_the_examples():
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    if not all((ROOT / name).exists() for name in ("pyproject.toml", "perceptron", "examples")):
        pytest.skip("not a source checkout (mypy's configuration and the examples it checks "
                    "are in the repository)")
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr

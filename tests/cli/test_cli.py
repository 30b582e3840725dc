"""The command line: demo and info."""
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import perceptron
from perceptron.cli import main
from perceptron.datasets import load_breast_cancer


def test_demo_prints_the_results():
    out = io.StringIO()
    assert main(["demo"], out=out) == 0
    text = out.getvalue()
    assert "Breast Cancer Wisconsin (Diagnostic), 569 samples x 30 features" in text
    assert "CC BY 4.0" in text
    for key in ("train accuracy", "test accuracy", "epochs", "updates", "converged"):
        assert key in text
    test_acc = float(text.split("test accuracy")[1].split()[0])
    assert test_acc > 0.9


@pytest.mark.slow  # a fresh interpreter
def test_info_and_module_entry_point():
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(perceptron.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "perceptron", "info"], capture_output=True,
                          text=True, env=env, cwd=os.path.dirname(__file__))
    assert proc.returncode == 0, proc.stderr
    assert f"perceptron-family {perceptron.__version__}" in proc.stdout
    assert f"simd level {perceptron.simd_info()['level']}" in proc.stdout


def test_no_command_prints_help():
    out = io.StringIO()
    assert main([], out=out) == 2
    assert "demo" in out.getvalue()


def test_breast_cancer_loader():
    ds = load_breast_cancer()
    X, y = ds
    assert X.shape == (569, 30) and X.dtype == np.float64
    assert sorted(set(y)) == ["benign", "malignant"]
    assert (y == "malignant").sum() == 212
    assert len(ds.feature_names) == 30 and ds.feature_names[0] == "radius_mean"
    assert "CC BY 4.0" in ds.description
    assert load_breast_cancer(dtype=np.float32).data.dtype == np.float32


"""Every script in examples/ runs and prints what it promises."""
import os
import pathlib
import subprocess
import sys

import pytest

import perceptron

pytestmark = pytest.mark.slow  # each example in a fresh interpreter

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def run(script, *args):
    if not (EXAMPLES / script).exists():
        pytest.skip("examples/ is not beside the tests (installed-package run)")
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(perceptron.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_quickstart():
    out = run("quickstart.py")
    assert "converged after" in out and "training accuracy 1.0000" in out


def test_compare_family():
    out = run("compare_family.py")
    for name in ("plain", "averaged", "pocket", "voted", "centroid"):
        assert name in out


def test_sequence_labelling():
    out = run("sequence_labelling.py")
    scores = {line.split(" accuracy:")[0]: float(line.split()[-1]) for line in out.splitlines()
              if " accuracy:" in line}
    assert scores["StructuredPerceptron"] > scores["per-token Perceptron"] + 0.1
    assert "A -> B, B -> C, C -> D, D -> A" in out


def test_plot_learning(tmp_path):
    pytest.importorskip("matplotlib")
    out = run("plot_learning.py", str(tmp_path))
    assert "wrote" in out
    for name in ("pla_steps.png", "pla.gif", "boundary.png", "mistake_bound.png"):
        assert (tmp_path / name).stat().st_size > 1000


DRAW = """
import runpy, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
sys.argv = sys.argv[1:]   # the script, as if it were run on its own
runpy.run_path(sys.argv[0], run_name="__main__")
print("open figures:", len(plt.get_fignums()))
"""


@pytest.mark.parametrize("script", ["quickstart.py", "compare_family.py",
                                    "sequence_labelling.py", "plot_learning.py"])
def test_every_example_leaves_a_figure_for_the_gallery(script):
    """sphinx-gallery makes an example's thumbnail from the figures open when
    it ends: without one, the gallery shows a placeholder."""
    pytest.importorskip("matplotlib")
    if not (EXAMPLES / script).exists():
        pytest.skip("examples/ is not beside the tests (installed-package run)")
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(perceptron.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-c", DRAW, str(EXAMPLES / script)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    opened = int(proc.stdout.rsplit("open figures:", 1)[1])
    assert opened >= 1, f"{script} leaves no figure open"


def test_the_examples_are_the_ones_checked_for_figures():
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py"))
    if not scripts:
        pytest.skip("examples/ is not beside the tests (installed-package run)")
    assert scripts == sorted(["quickstart.py", "compare_family.py", "sequence_labelling.py",
                              "plot_learning.py"])

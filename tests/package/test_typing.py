"""mypy passes on the package and the examples (the type stubs and annotations).

Runs only from a source checkout (the configuration is pyproject.toml's
[tool.mypy]) with mypy installed; the installed-wheel test runs skip it.
"""
import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # mypy

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_mypy_passes_on_the_package_and_the_examples():
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    if not all((ROOT / name).exists() for name in ("pyproject.toml", "perceptron", "examples")):
        pytest.skip("not a source checkout (mypy's configuration and the examples it checks "
                    "are in the repository)")
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


USER_SCRIPT = '''\
"""A user's script: the public API as the docs show it."""
import sys

import numpy as np
import numpy.typing as npt

import perceptron
from perceptron import CentroidClassifier, KernelPerceptron, Perceptron, VotedPerceptron
from perceptron.io import dump_svmlight, load_svmlight

folder = sys.argv[1]
rng = np.random.default_rng(0)
X: npt.NDArray[np.float64] = rng.standard_normal((100, 4))
y: npt.NDArray[np.int64] = (X[:, 0] > 0).astype(np.int64)
model: Perceptron = Perceptron(max_iter=20, average=True).fit(X, y, sample_weight=None)
labels: npt.NDArray[np.generic] = model.predict(X)
scores: npt.NDArray[np.float64] = model.decision_function(X)
accuracy: float = model.score(X, y)
model = model.partial_fit(X, y).set_params(eta0=0.5)
voted: VotedPerceptron = VotedPerceptron(max_iter=5).fit(X, y)
centroid: CentroidClassifier = CentroidClassifier().fit(X, y, sample_weight=np.ones(100))
kernel: KernelPerceptron = KernelPerceptron(kernel="rbf", max_iter=5).fit(X, y)
total: float = voted.score(X, y) + centroid.score(X, y) + kernel.score(X, y)
dump_svmlight(X, y, folder + "/data.svm")
Xs, ys = load_svmlight(folder + "/data.svm", index_dtype=np.int32)
model.save(folder + "/model.ptn")
loaded = perceptron.load(folder + "/model.ptn")
print(accuracy > 0.5, total > 1.5, labels.shape, scores.shape, Xs.shape, ys.shape, loaded)
'''


def test_a_user_script_passes_mypy_strict(tmp_path):
    """The public API is annotated: a script using it as the docs show has no
    error under ``mypy --strict`` (no untyped call, no Any returned by fit)."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    import os

    import perceptron

    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    env = dict(os.environ)
    package_parent = pathlib.Path(perceptron.__file__).resolve().parents[1]
    if "-packages" not in package_parent.name:
        # an editable install (an import hook mypy does not follow): point mypy at the
        # package; errors inside it are silenced, as for an installed package
        env["MYPYPATH"] = str(package_parent)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(script)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
    # and the types say something: misuses are caught
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nfrom perceptron import Perceptron\n"
                   "m = Perceptron().fit(np.eye(2), [0, 1])\n"
                   "s: str = m.score(np.eye(2), [0, 1])\n"
                   "d: str = m.decision_function(np.eye(2))\n"
                   "m.fit(np.eye(2), [0, 1], weights=None)\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(bad)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 1
    for line in (4, 5, 6):
        assert f"bad.py:{line}: error" in result.stdout, result.stdout
    run = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True,
                         text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("True True (100,) (100,) (100, 4) (100,)")

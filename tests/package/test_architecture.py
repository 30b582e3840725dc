"""The shape of the package: the import-linter contracts of pyproject.toml
(layers in one direction, no import circle), no module reaching into
another's private names, and source files of at most 800 lines."""
import ast
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "perceptron"
MAX_LINES = 800


@pytest.mark.slow  # import-linter reads the whole package
def test_import_contracts():
    pytest.importorskip("importlinter", reason="import-linter is not installed (pip install "
                                               "import-linter, or the test extra)")
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("pyproject.toml (the contracts) is not beside the tests "
                    "(installed-package run)")
    # the package's source tree, not whatever copy is installed
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")])))
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def _python_files():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _module_of(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_no_module_imports_private_names_of_another():
    """``from .x import _name`` reaches into x; a name shared between modules
    is public within the package (no underscore).  Modules themselves may be
    private (``perceptron._common.validation``), and ``__version__`` is a dunder."""
    offences = []
    for path in _python_files():
        package = _module_of(path) if path.name == "__init__.py" else \
            _module_of(path).rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("perceptron"):
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not name.startswith("__"):
                    submodule = f"{source}.{name}"
                    if (ROOT / pathlib.Path(*submodule.split("."))).exists() or any(
                            (ROOT / pathlib.Path(*submodule.split("."))).parent.glob(
                                name + ".*")):
                        continue  # importing a (private) module, not a private name
                    offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name} from "
                                    f"{source}")
    assert not offences, "\n".join(offences)


# the sources a maintainer edits: generated C (Cython's output beside the
# .pyx files) and perceptron/include (copies of csrc/ made by the build) are not
SOURCE_SUFFIXES = {"perceptron": (".py", ".pyx", ".pxd", ".pyi"), "csrc": (".c", ".h")}


def test_source_files_are_short():
    """At most 800 lines in each source file under perceptron/ and csrc/."""
    if not (ROOT / "csrc").is_dir() or not (ROOT / "perceptron" / "__init__.py").is_file():
        # an installed-package run copies csrc/ (for the C tests) but not the
        # package's sources beside the tests
        pytest.skip("the source tree is not beside the tests (installed-package run)")
    long, seen = [], 0
    for folder, suffixes in SOURCE_SUFFIXES.items():
        for path in sorted((ROOT / folder).rglob("*")):
            if (path.suffix not in suffixes or "include" in path.relative_to(ROOT).parts
                    or "__pycache__" in path.parts):
                continue
            seen += 1
            with open(path, encoding="utf-8") as f:
                n = sum(1 for _ in f)
            if n > MAX_LINES:
                long.append(f"{path.relative_to(ROOT)}: {n} lines")
    assert seen > 50, "the source tree was not found"
    assert not long, "files longer than 800 lines:\n" + "\n".join(long)


def _contract_layers():
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as f:
        contracts = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [sorted(m.strip() for m in " ".join(layer.split()).split("|")) for layer in layers]


def _picture_layers():
    """The layers of CONTRIBUTING.md's picture: the fenced block of its
    Architecture section that starts with the band ``surfaces``; a band's
    name fills the first 16 columns, a line starting with ``|`` continues the
    layer above, and the last band (``C``, csrc/) is no Python layer."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    blocks = section.split("```")[1::2]
    (picture,) = [b for b in blocks if b.lstrip("\n").startswith("surfaces")]
    layers = []
    for line in picture.strip("\n").splitlines():
        band, body = line[:16].strip(), line[16:].strip()
        if band == "C":
            break
        if body.startswith("|"):
            layers[-1] += " " + body
        else:
            layers.append(body)
    return [sorted(m.strip() for m in layer.split("|")) for layer in layers]


def test_contributing_picture_is_the_import_contract():
    if not (ROOT / "CONTRIBUTING.md").exists() or not (ROOT / "pyproject.toml").exists():
        pytest.skip("CONTRIBUTING.md and pyproject.toml are not beside the tests "
                    "(installed-package run)")
    assert _picture_layers() == _contract_layers()


def test_every_module_is_in_the_contract():
    """A new module cannot escape the layers: each .py module under
    perceptron/ is a layer's module or inside one (a package named there),
    or is a room's ``__init__`` gathering its public names."""
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("pyproject.toml is not beside the tests (installed-package run)")
    named = {m.strip("()") for layer in _contract_layers() for m in layer}
    missing = []
    for path in _python_files():
        module = _module_of(path)
        if path.name == "__init__.py":
            continue
        if not any(module == n or module.startswith(n + ".") for n in named):
            missing.append(module)
    assert not missing, "modules in no layer of the import contract: " + ", ".join(missing)

"""The packaging metadata says what the package needs: the docs extra holds
what building the documentation imports."""
import ast
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
API_INDEX = ROOT / "docs" / "api" / "index.rst"
EXAMPLES = ROOT / "examples"

# import names that are not the name of the distribution that installs them
DISTRIBUTION_OF = {"PIL": "pillow", "sklearn": "scikit-learn", "yaml": "pyyaml"}


def _pyproject():
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside the tests (installed-package run)")
    import tomllib

    with open(PYPROJECT, "rb") as f:
        return tomllib.load(f)


def _name(requirement):
    """The normalised distribution name of a requirement string (PEP 503)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, f"not a requirement: {requirement!r}"
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def _catches_import_error(handler):
    names = []
    if isinstance(handler.type, ast.Tuple):
        names = [getattr(e, "id", "") for e in handler.type.elts]
    elif handler.type is not None:
        names = [getattr(handler.type, "id", "")]
    return bool({"ImportError", "ModuleNotFoundError"} & set(names))


def _module_level_imports(tree):
    """The modules a file imports when it is imported: the imports outside
    functions and classes, less those in a ``try`` whose ``except
    ImportError`` goes on without them (an optional import)."""
    found = []

    def visit(body, optional):
        for node in body:
            if isinstance(node, ast.Import):
                found.extend((alias.name, optional) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module:
                    found.append((node.module, optional))
                    found.extend((f"{node.module}.{alias.name}", optional) for alias in node.names)
            elif isinstance(node, ast.Try):
                tolerated = any(_catches_import_error(h)
                                and not any(isinstance(n, ast.Raise)
                                            for stmt in h.body for n in ast.walk(stmt))
                                for h in node.handlers)
                visit(node.body, optional or tolerated)
                for h in node.handlers:
                    visit(h.body, optional)
                visit(node.orelse, optional)
                visit(node.finalbody, optional)
            elif isinstance(node, ast.If):
                test = ast.unparse(node.test)
                if "TYPE_CHECKING" not in test:
                    visit(node.body, optional)
                visit(node.orelse, optional)
    visit(tree.body, False)
    return found


def _source_of(module):
    """The .py file of a perceptron module in the source tree (None for a
    compiled module or a name that is not a module)."""
    parts = module.split(".")
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _third_party_imports(start_files):
    """{distribution name: first file that needs it} for the files and every
    perceptron module they import at module level, transitively."""
    needed = {}
    stdlib = set(sys.stdlib_module_names)
    seen, todo = set(), list(start_files)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module, optional in _module_level_imports(tree):
            top = module.split(".")[0]
            if top == "perceptron":
                source = _source_of(module)
                if source is not None:
                    todo.append(source)
                # a package's __init__ runs before any of its modules
                for i in range(1, module.count(".") + 1):
                    parent = _source_of(".".join(module.split(".")[:i]))
                    if parent is not None:
                        todo.append(parent)
            elif top not in stdlib and top != "numpy" and not optional:
                needed.setdefault(_name(DISTRIBUTION_OF.get(top, top)),
                                  str(path.relative_to(ROOT)))
    return needed


def test_the_docs_extra_holds_what_the_documentation_imports():
    """``pip install -e ".[docs]"`` and ``sphinx-build`` (the README's docs
    command): every module the API pages document, and every gallery
    example, imports with only the docs extra installed."""
    extras = _pyproject()["project"]["optional-dependencies"]
    docs = {_name(r) for r in extras["docs"]}
    if not API_INDEX.exists():
        pytest.skip("docs/ is not beside the tests (installed-package run)")
    modules = set(re.findall(r"^\.\. (?:automodule|currentmodule|module):: (\S+)",
                             API_INDEX.read_text(encoding="utf-8"), flags=re.M))
    assert "perceptron.dask" in modules and "perceptron.plotting" in modules
    files = [_source_of(m) for m in sorted(modules)]
    files = [f for f in files if f is not None]
    files += sorted(EXAMPLES.glob("*.py"))
    files.append(ROOT / "docs" / "conf.py")
    needed = _third_party_imports(files)
    assert "dask" in needed and "matplotlib" in needed  # the walk found the imports
    missing = {dist: where for dist, where in needed.items() if dist not in docs}
    assert not missing, ("the docs extra lacks what the documentation's build imports "
                         f"(distribution: first file importing it): {missing}")


def test_the_docs_extra_builds_with_the_sphinx_extensions_conf_names():
    """conf.py's extensions come from the docs extra."""
    if not (ROOT / "docs" / "conf.py").is_file():
        pytest.skip("docs/ is not beside the tests (the sdist does not ship it)")
    extras = _pyproject()["project"]["optional-dependencies"]
    docs = {_name(r) for r in extras["docs"]}
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    extensions = re.search(r"extensions = \[(.*?)\]", conf, flags=re.S).group(1)
    providers = {"sphinx": "sphinx", "numpydoc": "numpydoc", "sphinx_gallery": "sphinx-gallery",
                 "myst_parser": "myst-parser"}
    for ext in re.findall(r'"([^"]+)"', extensions):
        assert providers[ext.split(".")[0]] in docs, f"{ext} is not in the docs extra"
    theme = re.search(r'html_theme = "([^"]+)"', conf).group(1)
    assert _name(theme.replace("_", "-")) in docs


WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
README = ROOT / "README.md"


def test_the_readme_leads_with_the_install_that_works():
    """Nothing is on PyPI before the first release: the Install section's
    first command installs from a checkout, and says why."""
    if not README.exists():
        pytest.skip("README.md is not beside the tests (installed-package run)")
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Install\n"):]
    first_block = re.search(r"```sh\n(.*?)```", section, flags=re.S).group(1)
    assert "pip install -e ." in first_block, first_block
    before = section[:section.index("```sh")]
    assert "No release is on PyPI yet" in before


def test_a_version_tag_publishes_the_wheels_and_sdist_by_trusted_publishing():
    if not WORKFLOW.exists():
        pytest.skip(".github/ is not beside the tests (installed-package run)")
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key "on" as True
    triggers = workflow.get("on", workflow.get(True))
    assert triggers["push"]["tags"] == ["v*"]
    jobs = workflow["jobs"]
    publish = jobs["publish"]
    assert set(publish["needs"]) == {"wheels", "sdist"}
    assert "refs/tags/v" in publish["if"]
    assert publish["permissions"]["id-token"] == "write"
    assert publish["environment"]["name"] == "pypi"
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert any(u.startswith("pypa/gh-action-pypi-publish@") for u in uses)
    # no token: trusted publishing only
    assert "password" not in WORKFLOW.read_text(encoding="utf-8")
    # what it downloads is what the other jobs upload: wheels and the sdist
    uploads = [step["with"]["path"] for name in ("wheels", "sdist")
               for step in jobs[name]["steps"] if step.get("uses", "").startswith(
                   "actions/upload-artifact@")]
    assert sorted(uploads) == ["dist/*.tar.gz", "wheelhouse/*.whl"]


def test_the_build_needs_no_numpy():
    """No .pyx or .pxd cimports numpy, so building needs only setuptools and
    Cython (>= 3.1, for the shared utility module)."""
    build = _pyproject()["build-system"]["requires"]
    assert "numpy" not in {_name(r) for r in build}, build
    assert any(_name(r) == "cython" and ">=3.1" in r for r in build), build
    cimports = [f"{path.relative_to(ROOT)}:{i}" for path in sorted((ROOT / "perceptron").rglob("*.p*"))
                if path.suffix in (".pyx", ".pxd")
                for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if re.match(r"\s*(cimport numpy|from numpy cimport)", line)]
    assert not cimports, cimports


def test_the_compiled_modules_share_one_utility_module():
    """Cython's utility code is compiled once, into perceptron._cyutility,
    which every generated module imports."""
    import importlib

    importlib.import_module("perceptron._cyutility")
    generated = [p.with_suffix(".c") for p in sorted((ROOT / "perceptron").rglob("*.pyx"))]
    generated = [p for p in generated if p.exists()]
    if not generated:
        pytest.skip("no generated C files beside the .pyx files (an installed package)")
    lacking = [p.name for p in generated
               if '"perceptron._cyutility"' not in p.read_text(encoding="utf-8", errors="replace")]
    assert not lacking, f"modules with their own copy of the utility code: {lacking}"


def test_python_and_numpy_versions():
    project = _pyproject()["project"]
    assert project["requires-python"] == ">=3.11"
    (numpy,) = [r for r in project["dependencies"] if _name(r) == "numpy"]
    assert re.search(r"<\s*3(\b|$)", numpy), numpy
    assert project["dependencies"] == [numpy], "numpy is the only dependency"


def test_no_code_for_pythons_before_3_11():
    shims = [f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
             for folder in ("perceptron", "tests", "examples", "wheelhouse-config", "benchmarks")
             for path in sorted((ROOT / folder).rglob("*.py")) if path != pathlib.Path(__file__).resolve()
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"version_info\s*[<>]=?\s*\(3,\s*(9|10)\)|Python < 3\.1[01]|"
                          r"import tomli\b|\"tomli\"", line)]
    assert not shims, "\n".join(shims)


def test_the_wheel_matrix_lives_in_pyproject():
    """A plain ``cibuildwheel`` at the root reads pyproject.toml's table: no
    configuration elsewhere, every Python that requires-python admits, and
    the free-threaded 3.14."""
    assert not (ROOT / "wheelhouse-config" / "cibuildwheel.toml").exists()
    cibw = _pyproject()["tool"]["cibuildwheel"]
    assert cibw["build"] == ["cp311-*", "cp312-*", "cp313-*", "cp314-*", "cp315-*", "cp314t-*"]
    assert "run_installed_tests.py" in cibw["test-command"]
    threaded = [o for o in cibw["overrides"] if o["select"] == "cp314t-*"]
    assert threaded and "pytest>=7" in threaded[0]["test-requires"]
    if WORKFLOW.exists():
        assert "--config-file" not in WORKFLOW.read_text(encoding="utf-8")

"""The installed-package test runs (the wheels' and the sdist's) have what
the embedding and C tests build beside the tests: examples/ and csrc/, so
that those tests run there instead of skipping."""
import importlib.util
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIG = ROOT / "wheelhouse-config"


def _local_script():
    path = CONFIG / "build_and_test_local.py"
    if not path.exists():
        pytest.skip("wheelhouse-config/ is not beside the tests (installed-package run)")
    spec = importlib.util.spec_from_file_location("build_and_test_local", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_installed_run_copies_examples_and_csrc():
    local = _local_script()
    assert {"tests", "examples", "csrc"} <= set(local.TEST_SOURCES)
    for name in local.TEST_SOURCES:
        assert (ROOT / name).is_dir(), name
        assert f"{name}/" in local.SDIST_DIRS, name
    # cibuildwheel copies the same folders into its test folder
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as f:
        sources = set(tomllib.load(f)["tool"]["cibuildwheel"]["test-sources"])
    assert set(local.TEST_SOURCES) <= sources
    # and the sdist carries them (its test run extracts it)
    manifest = (ROOT / "MANIFEST.in").read_text()
    assert re.search(r"^recursive-include examples .*\*\.pyx", manifest, flags=re.M)
    assert re.search(r"^recursive-include csrc ", manifest, flags=re.M)

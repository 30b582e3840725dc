"""The version: one source (perceptron/_version.py), read by the package
metadata and by perceptron.__version__, with an entry in CHANGELOG.md."""
import importlib.metadata
import pathlib
import re

import pytest

import perceptron
from perceptron._version import DISTRIBUTION

CHANGELOG = pathlib.Path(__file__).resolve().parents[2] / "CHANGELOG.md"


PYPROJECT = CHANGELOG.with_name("pyproject.toml")


def test_version_is_the_installed_distributions():
    assert perceptron.__version__ == importlib.metadata.version(DISTRIBUTION)


def test_distribution_name_is_the_one_in_pyproject():
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside the tests (installed-package run)")
    names = re.findall(r'^name = "([^"]+)"', PYPROJECT.read_text(encoding="utf-8"), re.MULTILINE)
    assert names[:1] == [DISTRIBUTION]


def test_cli_version_names_the_distribution(capsys):
    from perceptron.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"{DISTRIBUTION} {perceptron.__version__}"


def test_version_has_a_changelog_entry():
    if not CHANGELOG.exists():
        pytest.skip("CHANGELOG.md is not beside the tests (installed-package run)")
    heading = re.compile(rf"^## \[{re.escape(perceptron.__version__)}\]", re.MULTILINE)
    assert heading.search(CHANGELOG.read_text(encoding="utf-8")), (
        f"CHANGELOG.md has no '## [{perceptron.__version__}]' section")

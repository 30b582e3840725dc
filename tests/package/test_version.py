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
    """A released version has its dated section; until the release, the one
    [Unreleased] section names the version it will be."""
    if not CHANGELOG.exists():
        pytest.skip("CHANGELOG.md is not beside the tests (installed-package run)")
    text = CHANGELOG.read_text(encoding="utf-8")
    version = re.escape(perceptron.__version__)
    if re.search(rf"^## \[{version}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.MULTILINE):
        return
    unreleased = re.search(r"^## \[Unreleased\]\n\n(.+?)\n\n", text, re.MULTILINE | re.DOTALL)
    assert unreleased, (f"CHANGELOG.md has neither a '## [{perceptron.__version__}] - <date>' "
                        "section nor an [Unreleased] one")
    assert re.search(rf"\b{version}\b", unreleased.group(1)), (
        f"the [Unreleased] section does not say it is {perceptron.__version__}")


def test_the_changelog_has_one_unreleased_section():
    if not CHANGELOG.exists():
        pytest.skip("CHANGELOG.md is not beside the tests (installed-package run)")
    headings = re.findall(r"^## .*$", CHANGELOG.read_text(encoding="utf-8"), re.MULTILINE)
    unreleased = [h for h in headings if "unreleased" in h.lower()]
    assert unreleased == ["## [Unreleased]"], headings

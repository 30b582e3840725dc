"""The version: one source (perceptron/_version.py), read by the package
metadata and by perceptron.__version__, with an entry in CHANGELOG.md."""
import importlib.metadata
import pathlib
import re

import pytest

import perceptron

CHANGELOG = pathlib.Path(__file__).resolve().parents[1] / "CHANGELOG.md"


def test_version_is_the_installed_distributions():
    assert perceptron.__version__ == importlib.metadata.version("perceptron")


def test_version_has_a_changelog_entry():
    if not CHANGELOG.exists():
        pytest.skip("CHANGELOG.md is not beside the tests (installed-package run)")
    heading = re.compile(rf"^## \[{re.escape(perceptron.__version__)}\]", re.MULTILINE)
    assert heading.search(CHANGELOG.read_text(encoding="utf-8")), (
        f"CHANGELOG.md has no '## [{perceptron.__version__}]' section")

"""The README's quick start and the user guide's examples run as written
(their >>> blocks are doctests)."""
import doctest
import pathlib
import warnings

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "user_guide"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_the_quick_start_in_the_readme_runs_as_shown():
    if not README.exists():
        pytest.skip("README.md is not beside the tests (installed-package run)")
    with warnings.catch_warnings():
        result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.attempted >= 15
    assert result.failed == 0, f"{result.failed} README example(s) failed; see the output above"


def test_the_tour_in_the_user_guide_runs_as_shown():
    if not GUIDE.exists():
        pytest.skip("docs/ is not beside the tests (installed-package run)")
    pytest.importorskip("matplotlib", reason="the tour draws a figure (pip install matplotlib)")
    pytest.importorskip("scipy", reason="the tour decides separability with scipy")
    attempted = failed = 0
    for page in sorted(GUIDE.glob("*.rst")):
        with warnings.catch_warnings():
            result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
        attempted += result.attempted
        failed += result.failed
    assert attempted > 20
    assert failed == 0, f"{failed} user guide example(s) failed; see the output above"

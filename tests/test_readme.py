"""The README's tour runs as written (its >>> blocks are doctests)."""
import doctest
import pathlib
import warnings

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_the_tour_in_the_readme_runs_as_shown():
    if not README.exists():
        pytest.skip("README.md is not beside the tests (installed-package run)")
    pytest.importorskip("matplotlib", reason="the tour draws a figure (pip install matplotlib)")
    pytest.importorskip("scipy", reason="the tour decides separability with scipy")
    with warnings.catch_warnings():
        result = doctest.testfile(str(README), module_relative=False,
                                  optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20
    assert result.failed == 0, f"{result.failed} README example(s) failed; see the output above"

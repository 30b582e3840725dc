"""The documentation's pages render as written: no Markdown in reStructuredText
pages, no option in single backquotes (where "--" becomes a dash), an index
page with more than a table of contents."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def rst_pages():
    if not DOCS.exists():
        pytest.skip("docs/ is not beside the tests (installed-package run)")
    return sorted(p for p in DOCS.rglob("*.rst")
                  if not {"_build", "auto_examples", "generated", "_templates"} & set(p.parts))


def test_no_markdown_heading_in_a_rst_page():
    found = [f"{p.relative_to(ROOT)}:{i}: {line}" for p in rst_pages()
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.match(r"#{1,6} \S", line)]
    assert not found, "Markdown headings in reStructuredText pages:\n" + "\n".join(found)


def test_no_double_hyphen_in_single_backquotes():
    """`text --flag` is interpreted text, whose "--" smart quotes turn into an
    en dash; a command or an option is a literal, ``text --flag``."""
    found = []
    for page in rst_pages():
        text = page.read_text(encoding="utf-8")
        # drop the literals, the roles (:math:`...`) and the links (`...`_)
        # first, so that what is left in single backquotes is interpreted text
        prose = re.sub(r"``.+?``", "", text, flags=re.S)
        prose = re.sub(r":[\w:+-]+:`[^`]*`", "", prose)
        prose = re.sub(r"`[^`]*`__?", "", prose)
        for match in re.finditer(r"`([^`]+)`", prose):
            if "--" in match.group(1):
                found.append(f"{page.relative_to(ROOT)}: `{match.group(1)}`")
    assert not found, "double hyphens in interpreted text:\n" + "\n".join(found)


def test_the_index_page_shows_the_picture_and_the_quick_start():
    index = DOCS / "index.md"
    if not index.exists():
        pytest.skip("docs/ is not beside the tests (installed-package run)")
    text = index.read_text(encoding="utf-8")
    assert "_static/boundary.png" in text
    assert (DOCS / "_static" / "boundary.png").exists()
    # quoted: the options are YAML, where " #" would start a comment
    start = re.search(r':start-after: "(.+)"', text).group(1)
    end = re.search(r':end-before: "(.+)"', text).group(1)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    included = readme[readme.index(start) + len(start):readme.index(end)]
    assert ">>> model = Perceptron(" in included

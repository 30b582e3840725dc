"""Sphinx configuration of perceptron's documentation.

Build (from the repository root, with ``pip install -e ".[docs]"``)::

    sphinx-build -W --keep-going -n -b html docs docs/_build/html
    sphinx-build -b doctest docs docs/_build/doctest   # runs the user guide's examples
"""
import os
import pathlib
import sys
import warnings

import matplotlib

matplotlib.use("Agg")

import perceptron  # noqa: E402
from perceptron import cli  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "perceptron"
author = "the perceptron authors"
copyright = "2026, the perceptron authors"
release = perceptron.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.md5", "auto_examples/*.json",
                    "sg_execution_times.rst", "**/sg_execution_times.rst"]
templates_path = ["_templates"]

# -- autodoc / autosummary / numpydoc ---------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False  # the types are prose ("ndarray of shape (n, d)"), kept as text
numpydoc_validation_checks = set()

# -- nitpicky: only genuinely external or informal type words ---------------
nitpicky = True
nitpick_ignore = [
    # numpy's glossary terms, not objects
    ("py:class", "array-like"),
    ("py:class", "array_like"),
    ("py:class", "numpy.typing.ArrayLike"),
]

# No intersphinx: the build must work offline (CI machines without network);
# references to numpy, scipy, matplotlib and the standard library stay text.

# -- doctest ------------------------------------------------------------------
doctest_global_setup = """
import warnings
import numpy as np
import matplotlib
matplotlib.use("Agg")
"""
doctest_default_flags = (__import__("doctest").ELLIPSIS | __import__("doctest").NORMALIZE_WHITESPACE
                         | __import__("doctest").DONT_ACCEPT_TRUE_FOR_1)

# -- sphinx-gallery -----------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(HERE.parent / "examples"),
    "gallery_dirs": "auto_examples",
    # every script runs (quickstart and compare_family print, plot_* draw);
    # embed_cython/ is a Cython build, not a gallery script
    "filename_pattern": r"\.py$",
    "ignore_pattern": r"(embed_cython|__init__\.py)",
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
}

# -- HTML ---------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"perceptron {release}"
html_static_path = ["_static"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}

myst_heading_anchors = 3
suppress_warnings = ["myst.header"]


# -- the command line's help, generated from its own parser -----------------
def _write_cli_help(app):
    parser = cli.build_parser()
    out = [parser.format_help()]

    def subcommands(parser, prefix):
        if parser._subparsers is None:
            return
        for action in parser._subparsers._group_actions:  # argparse keeps subcommands here
            for name, sub in (getattr(action, "choices", None) or {}).items():
                out.append(f"\n$ {prefix} {name} --help\n{sub.format_help()}")
                subcommands(sub, f"{prefix} {name}")

    subcommands(parser, "perceptron")
    target = HERE / "_generated"
    target.mkdir(exist_ok=True)
    text = "\n".join(out)
    path = target / "cli_help.txt"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def setup(app):
    app.connect("builder-inited", _write_cli_help)

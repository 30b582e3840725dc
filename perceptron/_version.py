# The single source of the package version: setup (pyproject.toml reads it
# through setuptools' dynamic metadata) and perceptron.__version__.
__version__ = "0.1.0"

# The single source of the package version: setup (pyproject.toml reads it
# through setuptools' dynamic metadata) and perceptron.__version__.
__version__ = "0.1.0"

# The name on PyPI (``pip install perceptron-family``); the import name is
# ``perceptron``.  The PyPI project named ``perceptron`` is an unrelated one.
DISTRIBUTION = "perceptron-family"

"""Data sets: the small real one of the demo, shipped with the package."""
from ._real import Dataset, load_breast_cancer

__all__ = ["Dataset", "load_breast_cancer"]

"""Data sets: the small real one of the demo, shipped with the package, and
synthetic ones with known geometry."""
from perceptron.datasets._real import Dataset, load_breast_cancer
from perceptron.datasets._synthetic import SeparableDataset, make_circles, make_separable, make_xor

__all__ = ["Dataset", "load_breast_cancer", "SeparableDataset", "make_separable", "make_xor",
           "make_circles"]

"""The kernel perceptron: the perceptron's dual form with a kernel function
(Aizerman, Braverman and Rozonoer 1964; Freund and Schapire 1999), and the
kernel matrix it is built on. Its compiled loops are
``perceptron._core.kernel`` and ``perceptron._core.kernel_scoring``.
"""
from perceptron.kernel._perceptron import KernelPerceptron, kernel_matrix

__all__ = ["KernelPerceptron", "kernel_matrix"]

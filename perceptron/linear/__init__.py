"""The linear family: the perceptron and its rules, the voted perceptron and
the centroid method.

Each estimator is a module of its own (``_perceptron``,
``_passive_aggressive``, ``_voted``, ``_centroid``); what a fit of :class:`Perceptron` goes through lives beside
it: the checked parameters and the route through fit (``_fit``), the
training state (``_state``), the epochs and the stopping rule
(``_training``), parameter mixing (``_mixing``), files streamed from disk
(``_stream``), the per-epoch reports (``_monitor``), and the scoring shared
by the linear models (``_base``). The compiled epochs are in
``perceptron._core``.
"""
from perceptron.linear._centroid import CentroidClassifier
from perceptron.linear._passive_aggressive import PassiveAggressiveClassifier
from perceptron.linear._perceptron import Perceptron
from perceptron.linear._voted import VotedPerceptron

__all__ = ["Perceptron", "PassiveAggressiveClassifier", "VotedPerceptron", "CentroidClassifier"]

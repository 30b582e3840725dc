"""The part-of-speech tagger (:class:`PerceptronTagger`), a structured
perceptron over hashed token features; it lives in ``perceptron.sequence``,
and this module is its public name."""
from perceptron.sequence._tagger import PerceptronTagger

__all__ = ["PerceptronTagger"]

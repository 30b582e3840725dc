"""Sequence labelling: the structured perceptron (Collins 2002), the
part-of-speech tagger built on it, its training on Dask (parameter mixing)
and the ``perceptron tag`` command. The CoNLL-U reader is a file format,
in :mod:`perceptron.io`; the compiled Viterbi and feature hashing are in
``perceptron._core``.
"""
from perceptron.sequence._structured import StructuredPerceptron
from perceptron.sequence._tagger import PerceptronTagger

__all__ = ["StructuredPerceptron", "PerceptronTagger"]

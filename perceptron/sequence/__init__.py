"""Sequence labelling: the structured perceptron (Collins 2002), the
part-of-speech tagger built on it, the span (named-entity) tagger, the
tagger of one's own feature dicts, span schemes and scores, its training on
Dask (parameter mixing) and the ``perceptron tag`` command. The CoNLL-U
reader is a file format, in :mod:`perceptron.io`; the compiled Viterbi and
feature hashing are in ``perceptron._core``.
"""
from perceptron.sequence._entities import EntityTagger
from perceptron.sequence._feature_tagger import FeatureTagger
from perceptron.sequence._spans import (allowed, convert_scheme, read_columns, span_scores,
                                        spans)
from perceptron.sequence._structured import StructuredPerceptron
from perceptron.sequence._tagger import PerceptronTagger

__all__ = ["StructuredPerceptron", "PerceptronTagger", "EntityTagger", "FeatureTagger",
           "allowed", "convert_scheme", "read_columns", "span_scores", "spans"]

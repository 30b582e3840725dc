"""Sequence labelling for users of words and labels: the part-of-speech
tagger (:class:`PerceptronTagger`), the morphological tagger and
lemmatizer of CoNLL-U treebanks (:class:`MorphTagger`) with the CoNLL 2018
shared task's scores (:func:`conll18_scores`; from raw text,
:func:`conll18_raw_scores`), the span tagger
(:class:`EntityTagger`), the tagger of one's own feature dicts with
sklearn-crfsuite's interface (:class:`FeatureTagger`), the span schemes
and scores (:func:`spans`, :func:`span_scores`, :func:`allowed`,
:func:`convert_scheme`, :func:`read_columns`), and the tokenizer and
sentence splitter of raw text (:class:`Tokenizer`) with its scores
(:func:`segmentation_scores`, :func:`raw_text`).  They live in
``perceptron.sequence``; this module is their public name."""
from perceptron.sequence._entities import EntityTagger
from perceptron.sequence._evaluate import conll18_raw_scores, conll18_scores
from perceptron.sequence._feature_tagger import FeatureTagger
from perceptron.sequence._morph import MorphTagger
from perceptron.sequence._spans import (allowed, convert_scheme, read_columns, span_scores,
                                        spans)
from perceptron.sequence._segmentation import segmentation_scores
from perceptron.sequence._tagger import PerceptronTagger
from perceptron.sequence._tokenizer import Token, Tokenizer, raw_text

__all__ = ["PerceptronTagger", "MorphTagger", "conll18_scores", "conll18_raw_scores",
           "EntityTagger",
           "FeatureTagger", "Tokenizer", "Token", "allowed", "convert_scheme", "raw_text",
           "read_columns", "segmentation_scores", "span_scores", "spans"]

"""Named-entity recognition (and any labelling of spans): the tagger of
``perceptron.tagging.PerceptronTagger`` with its decoding constrained to the
label sequences of a span scheme."""
from __future__ import annotations

from typing import Any, List

import numpy as np

from perceptron.io._registry import models, register_model
from perceptron.sequence._spans import allowed, check_scheme, span_scores, spans
from perceptron.sequence._structured import StructuredPerceptron
from perceptron.sequence._tagger import PerceptronTagger

__all__ = ["EntityTagger"]


class EntityTagger(PerceptronTagger):
    """Span tagger (named entities, chunks): BIO or BIOES labels decoded as
    valid spans.

    The features are those of :class:`PerceptronTagger`, none of them
    particular to a language: the word and its lower case, its first and
    last characters, its shape (upper case, lower case, digits and other
    characters by Unicode's classes), digits, hyphens, a capital first
    letter, the neighbouring words and their endings, and the labels each
    word had in training (its ambiguity class), hashed into ``n_features``
    columns.  The labels are decoded by Viterbi with the starts, transitions
    and ends the scheme forbids (``I-X`` after ``O`` or after ``B-Y``, ...)
    at minus infinity, in training as in tagging
    (``StructuredPerceptron(constraints=...)``), so every output is a
    sequence of well-formed spans.

    Parameters
    ----------
    scheme : {"iob2", "bio", "bioes", "iobes"}, default="iob2"
        The labels' scheme; every training sentence must keep to it.
    n_features, max_iter, average, shuffle, random_state
        As for :class:`PerceptronTagger` (``max_iter`` 10 by default).

    Examples
    --------
    >>> from perceptron.tagging import EntityTagger
    >>> train = [[("Ada", "B-PER"), ("Lovelace", "I-PER"), ("met", "O"),
    ...           ("Babbage", "B-PER"), ("in", "O"), ("London", "B-LOC")]] * 5
    >>> tagger = EntityTagger(n_features=2**14).fit(train)
    >>> tagger.spans(["Ada", "Lovelace", "met", "Babbage", "in", "London"])
    [('PER', 0, 1), ('PER', 3, 3), ('LOC', 5, 5)]
    """

    def __init__(self, scheme: str = "iob2", n_features: int = 2 ** 18, max_iter: int = 10,
                 average: bool = True, shuffle: bool = True, random_state: Any = 0) -> None:
        super().__init__(n_features=n_features, max_iter=max_iter, average=average,
                         shuffle=shuffle, random_state=random_state)
        self.scheme = scheme

    def _check_params(self):
        check_scheme(self.scheme)
        super()._check_params()

    def _sequence_model(self):
        # the tags of the fit under way, else those of the fitted tagger (a
        # model file's sequence model is rebuilt with its constraints)
        tags = vars(self).get("_fit_tags")
        if tags is None and "classes_" in vars(self):
            tags = self.classes_.tolist()
        constraints = None
        if tags is not None:
            constraints = allowed(tags, self.scheme)
        return StructuredPerceptron(max_iter=int(self.max_iter), average=bool(self.average),
                                    shuffle=bool(self.shuffle), random_state=self.random_state,
                                    constraints=constraints)

    def fit(self, sentences):
        """Learn the span labels of labelled sentences, ``[[(word, label),
        ...], ...]``, whose labels all belong to ``scheme`` and make valid
        sequences of it."""
        self._check_params()
        if not isinstance(sentences, list):
            sentences = list(sentences)
        tags: set = set()
        try:
            for sentence in sentences:
                tags.update(tag for _, tag in sentence)
            self._fit_tags = sorted(tags)
        except (TypeError, ValueError):
            pass   # split_tagged, in the fit, names what is wrong
        try:
            return super().fit(sentences)
        finally:
            vars(self).pop("_fit_tags", None)

    def spans(self, tokens) -> List[tuple]:
        """The spans of one sentence (a list of ``str`` tokens), as
        ``(type, first, last)`` token indices."""
        return spans([tag for _, tag in self.tag(tokens)])

    def evaluate_spans(self, gold, mode: str = "default") -> dict:
        """Span precision, recall and F1 (per type, micro, macro, weighted:
        :func:`perceptron.tagging.span_scores`) of the tags of labelled
        sentences against their labels."""
        if not isinstance(gold, list):
            gold = list(gold)
        words = [[w for w, _ in s] for s in gold]
        tags, lengths = self.predict_sents(words)
        pred: List[list] = []
        pos = 0
        for L in np.asarray(lengths).tolist():
            pred.append(tags[pos:pos + L].tolist())
            pos += L
        return span_scores([[t for _, t in s] for s in gold], pred,
                           scheme=check_scheme(self.scheme), mode=mode)


register_model(EntityTagger, check=models()[PerceptronTagger.__name__].check,
               fitted=models()[PerceptronTagger.__name__].fitted,
               training_state=models()[PerceptronTagger.__name__].training_state)

"""Scores of morphological tagging as the CoNLL 2018 shared task defines them.

Zeman et al. (2018, "CoNLL 2018 Shared Task: Multilingual Parsing from Raw
Text to Universal Dependencies", section 2) score a system's words against
the gold words they are aligned with.  UPOS and XPOS compare those columns;
UFeats compares the FEATS column reduced to the universal features (the
features of the UD guidelines' core list, sorted, the language-specific ones
dropped); AllTags asks for UPOS, XPOS and the universal FEATS all right;
Lemmas compares the LEMMA column, a gold lemma of ``_`` (not annotated)
counting as right whatever the system says.  Each score is an F1 over words,
``2 * correct / (gold words + system words)``.  With the gold tokenization,
as here, every word is aligned with the word of the same position, and the
F1 is the word accuracy.  Empty nodes (ID ``1.1``) are not words and
multiword tokens (ID ``1-2``) are not scored: their words are.

On a system's output from raw text (:func:`conll18_raw_scores`) the words
are first aligned as the shared task aligns them (``_segmentation``): each
metric counts the aligned words whose columns agree, and its F1 is over all
the words of both sides, so that a word the system split or merged wrongly
costs every column.
"""
from collections import Counter

from perceptron.sequence._segmentation import aligned_words, segmentation_scores

__all__ = ["UNIVERSAL_FEATURES", "universal_feats", "conll18_scores", "conll18_raw_scores",
           "tag_report", "METRICS"]

# the feature names the shared task's UFeats keeps (its evaluation script's
# list: the universal features of the UD v2 guidelines)
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy",
    "Number", "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice",
    "Evident", "Polarity", "Person", "Polite"})

METRICS = ("UPOS", "XPOS", "UFeats", "AllTags", "Lemmas")

# field positions of a CoNLL-U token line
_FORM, _LEMMA, _UPOS, _XPOS, _FEATS = 1, 2, 3, 4, 5


def universal_feats(feats):
    """The FEATS string reduced to its universal features, sorted, joined by
    ``|`` (``""`` for none: ``_`` and a string of only language-specific
    features compare equal)."""
    return "|".join(sorted(f for f in feats.split("|")
                           if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


def _words(sentences, what):
    out = []
    for i, sentence in enumerate(sentences):
        rows = getattr(sentence, "words", None)
        if rows is None:
            rows = [r for r in sentence if r[0].isascii() and r[0].isdigit()]
        for row in rows:
            if len(row) != 10:
                raise ValueError(f"{what}: sentence {i} has a row of {len(row)} fields, not 10")
        out.append(rows)
    return out


def _aligned(gold, system):
    gold = _words(gold, "gold")
    system = _words(system, "system")
    if len(gold) != len(system):
        raise ValueError(f"gold has {len(gold)} sentences, system {len(system)}: the scores "
                         "here assume the gold tokenization")
    for i, (g, s) in enumerate(zip(gold, system)):
        if len(g) != len(s) or any(a[_FORM] != b[_FORM] for a, b in zip(g, s)):
            raise ValueError(f"sentence {i}: the system's words are not the gold words (the "
                             "scores here assume the gold tokenization)")
    return [w for s in gold for w in s], [w for s in system for w in s]


def conll18_scores(gold, system):
    """UPOS, XPOS, UFeats, AllTags and Lemmas of a system against gold.

    Parameters
    ----------
    gold, system : sequences of sentences
        ``ConlluSentence`` objects (``perceptron.io.read_conllu_sentences``)
        or lists of ten-field rows, with the same words in the same order.

    Returns
    -------
    dict
        Each metric of ``METRICS`` -> its F1 (here the word accuracy), as the
        shared task's evaluation script reports it; ``"Words"``: the number of
        words.
    """
    g, s = _aligned(gold, system)
    n = len(g)
    correct: "Counter[str]" = Counter()
    for a, b in zip(g, s):
        correct.update(m for m, ok in _agree(a, b).items() if ok)
    scores = {m: (2 * correct[m] / (2 * n) if n else 0.0) for m in METRICS}
    scores["Words"] = n
    return scores


def _agree(a, b):
    """What each metric says of the gold word a and the system word b."""
    upos = a[_UPOS] == b[_UPOS]
    xpos = a[_XPOS] == b[_XPOS]
    feats = universal_feats(a[_FEATS]) == universal_feats(b[_FEATS])
    return {"UPOS": upos, "XPOS": xpos, "UFeats": feats, "AllTags": upos and xpos and feats,
            "Lemmas": a[_LEMMA] == "_" or a[_LEMMA] == b[_LEMMA]}


def conll18_raw_scores(gold, system):
    """Every score of the CoNLL 2018 shared task for a system that read raw
    text: its own tokens, words and sentences, and its columns.

    Parameters
    ----------
    gold, system : sequences of sentences
        ``ConlluSentence`` objects or lists of ten-field rows, whose tokens
        spell the same text (white space aside); the system's segmentation
        may differ from the gold one.

    Returns
    -------
    dict
        ``"Tokens"``, ``"Words"``, ``"Sentences"`` (as
        :func:`~perceptron.tagging.segmentation_scores` gives them) and each
        metric of ``METRICS``, as ``{"precision", "recall", "f1"}``; the
        column metrics also have ``"aligned_accuracy"``, the share of the
        aligned words right.  With the gold segmentation, every F1 is that
        of :func:`~perceptron.tagging.conll18_scores`.

    Raises
    ------
    ValueError
        When the two sides do not spell the same text.
    """
    pairs, n_gold, n_system = aligned_words(gold, system)
    correct: "Counter[str]" = Counter()
    for a, b in pairs:
        correct.update(m for m, ok in _agree(a, b).items() if ok)
    scores = dict(segmentation_scores(gold, system))
    for m in METRICS:
        c = correct[m]
        scores[m] = {"precision": c / n_system if n_system else 0.0,
                     "recall": c / n_gold if n_gold else 0.0,
                     "f1": 2 * c / (n_gold + n_system) if n_gold + n_system else 0.0,
                     "aligned_accuracy": c / len(pairs) if pairs else 0.0}
    return scores


def tag_report(gold, system, column="upos", known=None):
    """Per-tag and unknown-word accuracy of one column.

    Parameters
    ----------
    gold, system : as for :func:`conll18_scores`
    column : {"upos", "xpos", "feats", "lemma"}
    known : set of str or None
        The forms seen in training: the words outside it are the unknown
        words.

    Returns
    -------
    dict
        ``accuracy``; ``per_tag``: gold tag -> (words, accuracy);
        ``unknown``: (words, accuracy) of the unknown words (None without
        ``known``).
    """
    field = {"upos": _UPOS, "xpos": _XPOS, "feats": _FEATS, "lemma": _LEMMA}.get(column)
    if field is None:
        raise ValueError(f"column must be 'upos', 'xpos', 'feats' or 'lemma', got {column!r}")
    g, s = _aligned(gold, system)
    total: "Counter[str]" = Counter()
    right: "Counter[str]" = Counter()
    unknown = [0, 0]
    for a, b in zip(g, s):
        ok = a[field] == b[field]
        total[a[field]] += 1
        right[a[field]] += ok
        if known is not None and a[_FORM] not in known:
            unknown[0] += 1
            unknown[1] += ok
    n = sum(total.values())
    return {"accuracy": sum(right.values()) / n if n else 0.0,
            "per_tag": {t: (total[t], right[t] / total[t]) for t in sorted(total)},
            "unknown": None if known is None else
            (unknown[0], unknown[1] / unknown[0] if unknown[0] else 0.0)}

"""Scores of a segmentation of raw text, as the CoNLL 2018 shared task defines them.

Zeman et al. (2018, "CoNLL 2018 Shared Task: Multilingual Parsing from Raw
Text to Universal Dependencies", section 2) compare a system's tokens,
syntactic words and sentences with the gold ones over the text itself: the
forms of the tokens, white space removed (characters of the Unicode category
Zs, so that a Vietnamese word written with a space inside is one stretch),
are laid end to end, and each token, word and sentence becomes the stretch
[start, end) of that character sequence it covers.  Gold and system must
cover the same characters.

- Tokens and sentences: a system unit is right when a gold unit covers the
  same stretch.
- Words: a word outside multiword tokens covers its token's stretch and is
  right when a gold word covers the same one.  Words of a multiword token all
  cover the token's stretch; where a multiword token (gold or system) meets
  other words, the region of the overlapping words on both sides is aligned
  by the longest common subsequence of their lower-cased forms, and each
  word of that subsequence is right.

Each score is given as precision (right / system units), recall (right /
gold units) and F1 = 2 * right / (gold units + system units).  The aligned
words (``aligned_words``) are also what the shared task scores the other
columns over (``perceptron.sequence._evaluate.conll18_raw_scores``): within a
multiword region, the words of the common subsequence that a walk from the
region's start takes, a pair of equal forms at once, else a step past the
gold word when that loses no common word, else past the system word.
"""
import unicodedata
from typing import Any, Dict, List, Sequence, Tuple

__all__ = ["segmentation_scores", "aligned_words", "SEGMENTATION_METRICS"]

SEGMENTATION_METRICS = ("Tokens", "Words", "Sentences")

Span = Tuple[int, int]


class _Units:
    """A side's tokens, words and sentences as stretches of its characters."""

    __slots__ = ("chars", "tokens", "words", "sentences")

    def __init__(self) -> None:
        self.chars: List[str] = []
        self.tokens: List[Span] = []
        # (start, end, in a multiword token, the lower-cased form, the row)
        self.words: List[Tuple[int, int, bool, str, List[str]]] = []
        self.sentences: List[Span] = []


def _squeeze(form: str) -> str:
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def _units(sentences, what: str) -> _Units:
    u = _Units()
    at = 0
    for i, sentence in enumerate(sentences):
        rows = getattr(sentence, "rows", sentence)
        first = at
        k = 0
        while k < len(rows):
            row = rows[k]
            if len(row) != 10:
                raise ValueError(f"{what}: sentence {i} has a row of {len(row)} fields, not 10")
            rid = row[0]
            if "." in rid:  # an empty node: no text
                k += 1
                continue
            if "-" in rid:
                lo, hi = rid.split("-", 1)
                try:
                    n_words = int(hi) - int(lo) + 1
                except ValueError:
                    raise ValueError(f"{what}: sentence {i}: the range ID {rid!r} is not two "
                                     "integers") from None
                words = [r for r in rows[k + 1:k + 1 + n_words] if "." not in r[0]]
                k += 1 + n_words
                multi = True
            else:
                words = [row]
                k += 1
                multi = False
            chars = _squeeze(row[1])
            start, at = at, at + len(chars)
            u.chars.append(chars)
            u.tokens.append((start, at))
            for w in words:
                u.words.append((start, at, multi, w[1].lower(), w))
        if at > first:
            u.sentences.append((first, at))
    return u


def _matching(gold: Sequence[Span], system: Sequence[Span]) -> int:
    """Stretches present on both sides (each side in text order, none
    overlapping another of its side)."""
    right = gi = si = 0
    while gi < len(gold) and si < len(system):
        g, s = gold[gi], system[si]
        if s[0] < g[0]:
            si += 1
        elif g[0] < s[0]:
            gi += 1
        else:
            right += g[1] == s[1]
            gi += 1
            si += 1
    return right


def _lcs_pairs(a, b) -> List[Tuple[Any, Any]]:
    """The pairs of a longest common subsequence of the lower-cased forms of
    the words a and b, taken as described in the module's docstring."""
    n, m = len(a), len(b)
    # table[i][j]: the longest common subsequence of a[i:] and b[j:]
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i][3] == b[j][3] else max(below[j], row[j + 1])
    pairs = []
    i = j = 0
    while i < n and j < m:
        if a[i][3] == b[j][3]:
            pairs.append((a[i], b[j]))
            i += 1
            j += 1
        elif table[i][j] == table[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _past(words, i: int, end: int) -> bool:
    """Whether word i lies past a multiword region ending at `end`: a word
    of a multiword token once it starts at or after the end, another word
    once it ends after it."""
    if i >= len(words):
        return True
    w = words[i]
    return w[0] >= end if w[2] else w[1] > end


def _region(gold, system, gi: int, si: int) -> Tuple[int, int, int, int]:
    """The smallest region around the multiword token at gold[gi] or
    system[si] that every multiword token it meets lies inside: (gold
    start, system start, gold end, system end) as word positions."""
    if gold[gi][2]:
        end = gold[gi][1]
        if not system[si][2] and system[si][0] < gold[gi][0]:
            si += 1
    else:
        end = system[si][1]
        if not gold[gi][2] and gold[gi][0] < system[si][0]:
            gi += 1
    g0, s0 = gi, si
    while not (_past(gold, gi, end) and _past(system, si, end)):
        if gi < len(gold) and (si >= len(system) or gold[gi][0] <= system[si][0]):
            w, gi = gold[gi], gi + 1
        else:
            w, si = system[si], si + 1
        if w[2] and w[1] > end:
            end = w[1]
    return g0, s0, gi, si


def _aligned_pairs(gold, system) -> List[Tuple[Any, Any]]:
    pairs: List[Tuple[Any, Any]] = []
    gi = si = 0
    while gi < len(gold) and si < len(system):
        g, s = gold[gi], system[si]
        if g[2] or s[2]:
            g0, s0, gi, si = _region(gold, system, gi, si)
            pairs.extend(_lcs_pairs(gold[g0:gi], system[s0:si]))
        elif g[:2] == s[:2]:
            pairs.append((g, s))
            gi += 1
            si += 1
        elif g[0] <= s[0]:
            gi += 1
        else:
            si += 1
    return pairs


def _prf(right: int, gold: int, system: int) -> Dict[str, float]:
    return {"precision": right / system if system else 0.0,
            "recall": right / gold if gold else 0.0,
            "f1": 2 * right / (gold + system) if gold + system else 0.0}


def _both(gold, system) -> Tuple[_Units, _Units]:
    g, s = _units(gold, "gold"), _units(system, "system")
    gt, st = "".join(g.chars), "".join(s.chars)
    if gt != st:
        at = next((i for i, (a, b) in enumerate(zip(gt, st)) if a != b), min(len(gt), len(st)))
        raise ValueError(f"gold and system tokens spell different texts (white space aside): "
                         f"they part at character {at}: {gt[at:at + 20]!r} against "
                         f"{st[at:at + 20]!r}")
    return g, s


def aligned_words(gold, system) -> Tuple[List[Tuple[List[str], List[str]]], int, int]:
    """The word alignment of the CoNLL 2018 shared task (section 2).

    Parameters
    ----------
    gold, system : as for :func:`segmentation_scores`

    Returns
    -------
    pairs : list of (gold row, system row)
        The aligned words, in text order: the rows themselves.
    n_gold, n_system : int
        The words of each side.
    """
    g, s = _both(gold, system)
    return ([(a[4], b[4]) for a, b in _aligned_pairs(g.words, s.words)], len(g.words),
            len(s.words))


def segmentation_scores(gold, system) -> Dict[str, Dict[str, float]]:
    """Token, word and sentence precision, recall and F1 of a system's
    segmentation of a text against the gold one (CoNLL 2018, section 2).

    Parameters
    ----------
    gold, system : sequences of sentences
        ``ConlluSentence`` objects (``perceptron.io.read_conllu_sentences``)
        or lists of CoNLL-U rows (ten fields each): syntactic words,
        multiword tokens (ID ``1-2``, followed by their words) and empty
        nodes (ID ``1.1``, ignored).

    Returns
    -------
    dict
        ``{"Tokens": {"precision": ..., "recall": ..., "f1": ...},
        "Words": {...}, "Sentences": {...}}``.

    Raises
    ------
    ValueError
        When the two sides' tokens do not spell the same text (white space
        aside), naming the first character where they part.
    """
    g, s = _both(gold, system)
    return {"Tokens": _prf(_matching(g.tokens, s.tokens), len(g.tokens), len(s.tokens)),
            "Words": _prf(len(_aligned_pairs(g.words, s.words)), len(g.words), len(s.words)),
            "Sentences": _prf(_matching(g.sentences, s.sentences), len(g.sentences),
                              len(s.sentences))}

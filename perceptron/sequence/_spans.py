"""Spans from token labels: the BIO (IOB2) and BIOES schemes, the label
sequences they allow, and span-level precision, recall and F1.

A span (a named entity, a chunk) of type X over tokens i .. j-1 is written
token by token with labels that carry a prefix and the type, ``B-X``
(begins), ``I-X`` (inside), and in BIOES also ``E-X`` (ends) and ``S-X``
(a span of one token); ``O`` is outside every span.  IOB2 is the name of
Tjong Kim Sang and Veenstra (1999, "Representing Text Chunks", section 2)
for BIO; BIOES (also IOBES, BILOU) marks the ends as well (Ratinov and
Roth 2009, "Design Challenges and Misconceptions in Named Entity
Recognition", section 4.1).

Not every label sequence is a sequence of spans: in IOB2, ``I-X`` must
follow ``B-X`` or ``I-X``; in BIOES, ``B-X`` and ``I-X`` must be followed by
``I-X`` or ``E-X``, and ``E-X`` must follow ``B-X`` or ``I-X``.  A
first-order model decodes only valid sequences when the transitions,
starts and ends a scheme forbids score minus infinity (``allowed``).

Span scores are those of the CoNLL shared tasks' evaluation (Tjong Kim Sang
and De Meulder 2003, section 4): a predicted span counts when a gold span
has the same type, first and last token.  Two readings of a sequence that
breaks the scheme's rules exist, and ``span_scores`` gives either:

- ``mode="default"``: the reading of the CoNLL ``conlleval`` script, which
  seqeval's default mode follows: a span starts at any ``B``/``S`` label,
  at a change of type, and at an ``I``/``E`` label after ``O``, ``E`` or
  ``S``; it ends before the next start or ``O`` and after ``E``/``S``.
  Every label sequence reads as spans.
- ``mode="strict"``: only spans written as the scheme says count (IOB2:
  ``B-X I-X*``; BIOES: ``B-X I-X* E-X`` or ``S-X``); tokens that do not make
  one are no span.  seqeval's strict mode.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["SCHEMES", "parse_label", "allowed", "check_scheme", "valid_path", "spans",
           "span_scores", "read_columns", "convert_scheme"]

# scheme name -> the prefixes its labels may carry (besides the label O)
SCHEMES: Dict[str, str] = {"iob2": "BI", "bio": "BI", "bioes": "BIES", "iobes": "BIES"}

Span = Tuple[str, int, int]


def check_scheme(scheme) -> str:
    """The canonical name (``"iob2"`` or ``"bioes"``) of a scheme name."""
    if not isinstance(scheme, str) or scheme.lower() not in SCHEMES:
        raise ValueError(f"scheme must be one of {sorted(SCHEMES)}, got {scheme!r}")
    s = scheme.lower()
    return "iob2" if s in ("iob2", "bio") else "bioes"


def parse_label(label, scheme: str) -> Tuple[str, str]:
    """(prefix, type) of a label of the scheme: ``"B-PER"`` -> ``("B",
    "PER")``, ``"O"`` -> ``("O", "")``.  The type is what follows the first
    ``-``; a label the scheme does not have raises ValueError."""
    prefixes = SCHEMES[check_scheme(scheme)]
    if not isinstance(label, str):
        raise TypeError(f"labels must be str, got {label!r} ({type(label).__name__})")
    if label == "O":
        return "O", ""
    if len(label) >= 3 and label[1] == "-" and label[0] in prefixes:
        return label[0], label[2:]
    raise ValueError(f"label {label!r} is not a label of the {check_scheme(scheme)} scheme: "
                     f"'O' or one of the prefixes {', '.join(p + '-' for p in prefixes)} "
                     "followed by a type")


def allowed(labels: Sequence[str], scheme: str
            ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The label sequences a scheme allows, as boolean tables over ``labels``.

    Returns
    -------
    start : ndarray of bool, shape (K,)
        Labels that may begin a sequence.
    transition : ndarray of bool, shape (K, K)
        ``transition[i, j]``: ``labels[j]`` may follow ``labels[i]``.
    end : ndarray of bool, shape (K,)
        Labels that may end a sequence.
    """
    scheme = check_scheme(scheme)
    parsed = [parse_label(label, scheme) for label in labels]
    k = len(parsed)
    prefix = np.array([p for p, _ in parsed] or [""], dtype=object)[:k]
    kind = np.array([t for _, t in parsed] or [""], dtype=object)[:k]
    same = kind[:, None] == kind[None, :]
    opens = np.isin(prefix, ["B", "I"])          # a span goes on after this label
    continues = np.isin(prefix, ["I", "E"])      # this label goes on with the span before
    if scheme == "iob2":
        start = ~continues
        end = np.ones(k, dtype=bool)
        # I-X after B-X or I-X only; O and B-Y after anything
        transition = ~continues[None, :] | (opens[:, None] & same)
    else:
        start = ~continues
        end = ~opens
        # after B-X, I-X: I-X or E-X; after O, E-Y, S-Y: O, B-Z or S-Z
        transition = np.where(opens[:, None], continues[None, :] & same,
                              ~continues[None, :])
    return start.astype(bool), np.asarray(transition, dtype=bool), end.astype(bool)


def valid_path(path, start, transition, end) -> bool:
    """Whether a sequence of label indices is allowed by the tables of
    :func:`allowed` (an empty sequence is)."""
    p = np.asarray(path, dtype=np.intp)
    if not len(p):
        return True
    return bool(start[p[0]] and end[p[-1]] and transition[p[:-1], p[1:]].all())


def _split(label):
    """(prefix, type) as the conlleval reading takes them: the first
    character, and what follows the first ``-`` ("_" when nothing does)."""
    if label == "O" or not label:
        return "O", "_"
    rest = label[1:]
    kind = rest.split("-", 1)[-1] if rest else ""
    return label[0], kind or "_"


def _lenient_spans(labels) -> List[Span]:
    """Spans (type, first, last) by the conlleval reading of any labels."""
    out: List[Span] = []
    prev, prev_kind, begin = "O", "_", 0
    n = len(labels)
    for i in range(n + 1):
        tag, kind = _split(labels[i]) if i < n else ("O", "_")
        # the span before ends here ...
        if prev != "O" and (prev in "ES" or tag in "BSO" and prev in "BI" or
                            prev_kind != kind):
            out.append((prev_kind, begin, i - 1))
        # ... and one begins here
        if tag != "O" and (tag in "BS" or tag in "IE" and prev in "OES" or prev_kind != kind):
            begin = i
        prev, prev_kind = tag, kind
    return out


def _strict_spans(labels, scheme) -> List[Span]:
    """Spans written exactly as the scheme says; other tokens make none."""
    parsed = [parse_label(label, scheme) for label in labels]
    out: List[Span] = []
    n, i = len(parsed), 0
    while i < n:
        p, kind = parsed[i]
        if p not in "BS" or (p == "S" and scheme == "iob2"):
            i += 1
            continue
        j = i + 1
        if p == "B":
            while j < n and parsed[j][1] == kind and (
                    parsed[j][0] == "I" or parsed[j][0] == "E" and parsed[j - 1][0] != "E"):
                if parsed[j][0] == "E":
                    j += 1
                    break
                j += 1
        last = parsed[j - 1][0]
        if scheme == "iob2" or last in "ES":
            out.append((kind, i, j - 1))
        i = j
    return out


def spans(labels: Sequence[str], scheme: Optional[str] = None, mode: str = "default"
          ) -> List[Span]:
    """The spans of one label sequence, as ``(type, first, last)`` (token
    indices, inclusive), in order.

    Parameters
    ----------
    labels : sequence of str
    scheme : {"iob2", "bio", "bioes", "iobes"} or None
        Needed by ``mode="strict"``; the default mode reads every scheme.
    mode : {"default", "strict"}
        How a sequence that breaks the scheme's rules reads (see the module
        docstring).

    Examples
    --------
    >>> from perceptron.tagging import spans
    >>> spans(["B-PER", "I-PER", "O", "I-LOC"])
    [('PER', 0, 1), ('LOC', 3, 3)]
    >>> spans(["B-PER", "I-PER", "O", "I-LOC"], scheme="iob2", mode="strict")
    [('PER', 0, 1)]
    """
    labels = list(labels)
    for i, label in enumerate(labels):
        if not isinstance(label, str):
            raise TypeError(f"labels[{i}] is {label!r} ({type(label).__name__}), not a str")
    if mode == "default":
        return _lenient_spans(labels)
    if mode == "strict":
        if scheme is None:
            raise ValueError("mode='strict' needs the scheme ('iob2' or 'bioes')")
        return _strict_spans(labels, check_scheme(scheme))
    raise ValueError(f"mode must be 'default' or 'strict', got {mode!r}")


def convert_scheme(labels: Sequence[str], scheme: str) -> List[str]:
    """The same spans written in another scheme: the spans of ``labels``
    (read as :func:`spans` reads them by default, so any labels) written
    as ``scheme`` says.

    >>> from perceptron.tagging import convert_scheme
    >>> convert_scheme(["B-PER", "I-PER", "O", "B-LOC"], "bioes")
    ['B-PER', 'E-PER', 'O', 'S-LOC']
    >>> convert_scheme(['B-PER', 'E-PER', 'O', 'S-LOC'], "iob2")
    ['B-PER', 'I-PER', 'O', 'B-LOC']
    """
    scheme = check_scheme(scheme)
    labels = list(labels)
    out = ["O"] * len(labels)
    for kind, i, j in spans(labels):
        if scheme == "bioes" and i == j:
            out[i] = "S-" + kind
            continue
        out[i] = "B-" + kind
        for t in range(i + 1, j + 1):
            out[t] = "I-" + kind
        if scheme == "bioes":
            out[j] = "E-" + kind
    return out


def _sequences(y, name):
    if isinstance(y, str) or not hasattr(y, "__len__"):
        raise TypeError(f"{name} must be a list of label sequences, got {type(y).__name__}")
    out = []
    for i, s in enumerate(y):
        if isinstance(s, str) or not hasattr(s, "__len__"):
            raise TypeError(f"{name}[{i}] is not a sequence of labels: {s!r:.60}")
        out.append(list(s))
    return out


def _prf(tp, n_pred, n_true):
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_true if n_true else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def span_scores(y_true, y_pred, scheme: Optional[str] = None, mode: str = "default") -> dict:
    """Span-level precision, recall and F1 per type, and their micro, macro
    and weighted averages.

    Parameters
    ----------
    y_true, y_pred : list of sequences of str
        Gold and predicted labels, sentence by sentence (the same lengths).
    scheme, mode : as for :func:`spans`.

    Returns
    -------
    dict
        ``{type: {"precision", "recall", "f1", "support"}}`` for each type
        among the gold and predicted spans, and the same under
        ``"micro avg"`` (from the counts of all types), ``"macro avg"`` (the
        mean of the types' scores) and ``"weighted avg"`` (weighted by
        support).  A ratio with nothing to count is 0.  The numbers are those
        of ``seqeval.metrics.classification_report(..., output_dict=True)``
        with the same ``mode`` and ``scheme``.
    """
    true, pred = _sequences(y_true, "y_true"), _sequences(y_pred, "y_pred")
    if len(true) != len(pred):
        raise ValueError(f"y_true has {len(true)} sequences, y_pred {len(pred)}")
    gold: set = set()
    found: set = set()
    for i, (t, p) in enumerate(zip(true, pred)):
        if len(t) != len(p):
            raise ValueError(f"sequence {i}: y_true has {len(t)} labels, y_pred {len(p)}")
        gold.update((i,) + s for s in spans(t, scheme, mode))
        found.update((i,) + s for s in spans(p, scheme, mode))
    types = sorted({s[1] for s in gold} | {s[1] for s in found})
    hits = gold & found
    report: dict = {}
    for kind in types:
        n_true = sum(1 for s in gold if s[1] == kind)
        n_pred = sum(1 for s in found if s[1] == kind)
        tp = sum(1 for s in hits if s[1] == kind)
        p, r, f = _prf(tp, n_pred, n_true)
        report[kind] = {"precision": p, "recall": r, "f1": f, "support": n_true}
    p, r, f = _prf(len(hits), len(found), len(gold))
    per = [report[k] for k in types]
    total = sum(x["support"] for x in per)
    averages = {
        "micro avg": {"precision": p, "recall": r, "f1": f},
        "macro avg": {m: float(np.mean([x[m] for x in per])) if per else 0.0
                      for m in ("precision", "recall", "f1")},
        "weighted avg": {m: (sum(x[m] * x["support"] for x in per) / total) if total else 0.0
                         for m in ("precision", "recall", "f1")},
    }
    for name, scores in averages.items():
        scores["support"] = len(gold)
        report[name] = scores
    return report


def read_columns(path, form: int = 1, label: int = 2) -> List[List[Tuple[str, str]]]:
    """The labelled sentences of a column file, ``[[(form, label), ...], ...]``.

    The format of the CoNLL shared tasks and of Universal NER's ``.iob2``
    files: a token a line, its fields separated by tabs (or, in a line
    without a tab, by spaces), a blank line after each sentence; lines
    starting with ``#`` are comments.

    Parameters
    ----------
    path : str or os.PathLike
        A UTF-8 text file.
    form, label : int
        The 0-based columns of the word and of its label (Universal NER: 1
        and 2; CoNLL 2003: 0 and 3).
    """
    for name, value in (("form", form), ("label", label)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a non-negative int (a column), got {value!r}")
    need = max(form, label) + 1
    sentences: List[List[Tuple[str, str]]] = []
    current: List[Tuple[str, str]] = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.strip():
                if current:
                    sentences.append(current)
                    current = []
                continue
            if line.startswith("#"):
                continue
            fields = line.split("\t") if "\t" in line else line.split()
            if len(fields) < need:
                raise ValueError(f"{path}, line {number}: {len(fields)} fields, the form and "
                                 f"label columns ({form}, {label}) need {need}")
            current.append((fields[form], fields[label]))
    if current:
        sentences.append(current)
    return sentences

"""A tokenizer and sentence splitter learned from a treebank: a structured
perceptron over the characters of raw text.

Each character of the text gets one of four labels: ``O`` (white space
between tokens), ``I`` (inside a token, the token goes on: this includes the
spaces inside a Vietnamese word), ``T`` (the last character of a token) and
``S`` (the last character of a token that ends a sentence).  A training
file's sentences give the labels: the ``# text`` comment is the sentence's
text and its tokens (multiword tokens by their surface form) are found in it
one after the other; consecutive sentences are joined by a space, as the UD
tools write a treebank's raw text, and cut into sequences of a few sentences
(a new document or paragraph always starts a sequence).  UDPipe 1 (Straka et
al. 2016, "UDPipe: Trainable Pipeline for Processing CoNLL-U Files") trains its tokenizer, a small GRU network, on the same per-character
decisions from the same data; here the model is an averaged structured
perceptron (Collins 2002) over hashed features of the character window,
decoded by Viterbi.

The features assume no script or language: each character of a window of
``window`` characters either side by its lower-cased code point and by its
Unicode general category (Lu, Ll, Lo, Nd, Po, Zs, ...), the bigrams and
trigrams of both around the character, the character's own case, and the
white-space delimited chunk the character belongs to (its lower-cased text
and its shape, hashed, with the character's place in the chunk), which lets
the model learn abbreviations, and the chunks either side of a space.  Where
the training file writes words with a space inside (Vietnamese), a space
that greedy longest matching against those words puts inside a word says so
(Wong and Chan 1996, maximum matching).  They are computed for the whole text at once in
numpy and hashed (Weinberger et al. 2009) into ``n_features`` columns.

Multiword tokens become their syntactic words by what the training file
shows: a surface form split in most of its occurrences is split the same way
(its case carried over), and a suffix that ends most of the training tokens
that end in it as a separate word (English ``n't``, Spanish clitics) splits
a token it ends, seen in training or not.
"""
import copy
import numbers
import unicodedata
import zlib
from collections import Counter, defaultdict
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from perceptron._common.validation import CSRData, check_is_fitted
from perceptron.io._conllu_doc import ConlluSentence, read_conllu_sentences
from perceptron.io._registry import models, need, register_model
from perceptron.sequence._segmentation import segmentation_scores
from perceptron.sequence._structured import StructuredPerceptron

__all__ = ["Tokenizer", "Token", "raw_text"]

LABELS = np.array(["I", "O", "S", "T"])  # sorted, as the model's classes_
_I, _O, _S, _T = 0, 1, 2, 3

# the Unicode general categories, numbered
_CATEGORIES = ("Cc", "Cf", "Cn", "Co", "Cs", "Ll", "Lm", "Lo", "Lt", "Lu", "Mc", "Me", "Mn",
               "Nd", "Nl", "No", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Sc", "Sk", "Sm",
               "So", "Zl", "Zp", "Zs")
_CATEGORY = {c: i for i, c in enumerate(_CATEGORIES)}
_PAD = 0x110000  # beyond every code point: the edge of a sequence
_BATCH = 1 << 16  # characters tokenized at once (whole paragraphs)


def _mix(h):
    """A 64-bit finaliser (Steele et al. 2014, SplitMix64): every input bit
    reaches every output bit, so that the low bits taken as the column vary."""
    h = h ^ (h >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


def _combine(template, *values):
    h = np.uint64((template * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)
    for v in values:
        h = _mix(h ^ v.astype(np.uint64))
    return h


class Token:
    """A token of a text: its form, its place ``[start, end)`` in the text,
    whether white space follows it, and its syntactic words (the form
    itself, or the words of a multiword token)."""

    __slots__ = ("form", "start", "end", "space_after", "words")

    def __init__(self, form: str, start: int, end: int, space_after: bool,
                 words: Sequence[str]) -> None:
        self.form = form
        self.start = start
        self.end = end
        self.space_after = space_after
        self.words = list(words)

    def __repr__(self) -> str:
        words = "" if self.words == [self.form] else f", words={self.words!r}"
        return f"Token({self.form!r}, {self.start}, {self.end}{words})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Token) and (self.form, self.start, self.end, self.space_after,
                                             self.words) == (other.form, other.start, other.end,
                                                             other.space_after, other.words)


def _sentence_tokens(sentence: ConlluSentence) -> List[Tuple[str, List[str], bool]]:
    """(surface form, syntactic words, space after) of each token."""
    out = []
    rows = sentence.rows
    k = 0
    while k < len(rows):
        row = rows[k]
        rid = row[0]
        if "." in rid:
            k += 1
            continue
        if "-" in rid:
            lo, hi = rid.split("-", 1)
            n = int(hi) - int(lo) + 1
            words = [r[1] for r in rows[k + 1:k + 1 + n] if "." not in r[0]]
            k += 1 + n
        else:
            words = [row[1]]
            k += 1
        out.append((row[1], words, "SpaceAfter=No" not in row[9].split("|")))
    return out


def _sentence_text(sentence: ConlluSentence, tokens) -> str:
    for c in sentence.comments:
        if c.startswith("# text =") or c.startswith("# text="):
            return c.split("=", 1)[1].strip()
    return "".join(f + (" " if sp else "") for f, _, sp in tokens).strip()


def _place(text: str, tokens) -> Optional[List[Tuple[int, int]]]:
    """Where each token's form stands in the text, or None if they do not
    spell it (white space aside)."""
    spans = []
    at = 0
    for form, _, _ in tokens:
        while at < len(text) and text[at].isspace() and not text.startswith(form, at):
            at += 1
        if not form or not text.startswith(form, at):
            return None
        spans.append((at, at + len(form)))
        at += len(form)
    if text[at:].strip():
        return None
    return spans


def _starts_block(sentence: ConlluSentence) -> bool:
    return any(c.startswith("# newdoc") or c.startswith("# newpar") for c in sentence.comments)


def _case_like(form: str, word: str, first: bool) -> str:
    if form.isupper() and len(form) > 1:
        return word.upper()
    if first and form[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


class Tokenizer(StructuredPerceptron):
    """Token and sentence boundaries of raw text, learned from a CoNLL-U file.

    A :class:`~perceptron.StructuredPerceptron` (Collins 2002) over the
    characters of the text, each labelled ``I``, ``O``, ``S`` or ``T``
    (module ``perceptron.sequence._tokenizer`` says how); its parameters and
    attributes are this class's, and ``predict(X, lengths)`` gives the
    characters' labels of feature rows made by the tokenizer.

    Parameters
    ----------
    max_iter : int, default=10
        Epochs of the structured perceptron.
    window : int, default=4
        Characters either side that a character's features read (3 and 4
        measured alike on English, Afrikaans and Vietnamese, 4 a little
        better on each).
    n_features : int, default=2**20
        Columns the features are hashed into.
    sentences_per_sequence : int, default=8
        Consecutive sentences joined into one training sequence (the model
        learns sentence ends from what follows them).
    average, shuffle, eta0, early_stopping, validation_fraction
        As for :class:`~perceptron.StructuredPerceptron`.
    n_iter_no_change, tol, verbose, constraints, progress
        As for :class:`~perceptron.StructuredPerceptron` (the labels are
        ``I``, ``O``, ``S``, ``T``).
    random_state : int, default=0
        Seed of the epochs' order of sequences.

    Attributes
    ----------
    multiword_forms_ : dict
        Lower-cased surface forms split into words, with their words.
    multiword_suffixes_ : list of str
        Suffixes split off as words, longest first.
    spaced_words_ : list of str
        The training file's words written with a space inside, lower-cased.
    n_skipped_ : int
        Training sentences left out because their tokens do not spell their
        ``# text``.
    dev_scores_ : ndarray
        With ``fit(..., dev=...)``: each epoch's score on the development
        file (the mean of its token, word and sentence F1).

    Examples
    --------
    >>> from perceptron.tagging import Tokenizer
    >>> tok = Tokenizer().fit("en_ewt-ud-train.conllu")                # doctest: +SKIP
    >>> [[t.form for t in s] for s in tok.tokenize("I didn't. You did.")]  # doctest: +SKIP
    [['I', "didn't", '.'], ['You', 'did', '.']]
    """

    def __init__(self, max_iter: int = 10, window: int = 4, n_features: int = 2 ** 20,
                 sentences_per_sequence: int = 8, average: bool = True, shuffle: bool = True,
                 random_state: Any = 0, eta0: float = 1.0, early_stopping: bool = False,
                 validation_fraction: float = 0.1, n_iter_no_change: int = 5,
                 tol: Optional[float] = None, verbose: int = 0, constraints: Any = None,
                 progress: bool = False) -> None:
        super().__init__(max_iter=max_iter, average=average, shuffle=shuffle,
                         random_state=random_state, eta0=eta0, early_stopping=early_stopping,
                         validation_fraction=validation_fraction,
                         n_iter_no_change=n_iter_no_change, tol=tol, verbose=verbose,
                         constraints=constraints, progress=progress)
        self.window = window
        self.n_features = n_features
        self.sentences_per_sequence = sentences_per_sequence

    def _check(self) -> Tuple[int, int, int]:
        for name, lo, hi in (("window", 0, 16), ("n_features", 16, 2 ** 31 - 1),
                             ("sentences_per_sequence", 1, 10 ** 6)):
            v = getattr(self, name)
            if not isinstance(v, numbers.Integral) or isinstance(v, bool) or not lo <= int(v) <= hi:
                raise ValueError(f"{name} must be an int in [{lo}, {hi}], got {v!r}")
        return int(self.window), int(self.n_features), int(self.sentences_per_sequence)

    # -- the features -----------------------------------------------------

    def _rows(self, texts: Sequence[str]) -> CSRData:
        """The hashed feature rows of every character of the texts, text after text."""
        w, n_features, _ = self._check()
        lengths = np.array([len(t) for t in texts], dtype=np.intp)
        n = int(lengths.sum())
        # the texts laid end to end with w padding characters around each
        pieces = []
        pad = np.full(w, _PAD, dtype=np.uint32)
        for t in texts:
            pieces.append(pad)
            pieces.append(np.frombuffer(t.encode("utf-32-le"), dtype=np.uint32))
        pieces.append(pad)
        cp = np.concatenate(pieces) if pieces else np.zeros(0, np.uint32)
        starts = np.cumsum(np.concatenate(([0], lengths[:-1] + w))) + w if len(texts) else \
            np.zeros(0, np.intp)
        real = np.concatenate([np.arange(s, s + ln) for s, ln in zip(starts, lengths)]) \
            if n else np.zeros(0, np.intp)
        uniq, inv = np.unique(cp, return_inverse=True)
        lower_u = np.empty(len(uniq), dtype=np.uint64)
        cat_u = np.empty(len(uniq), dtype=np.uint64)
        upper_u = np.empty(len(uniq), dtype=np.uint64)
        space_u = np.empty(len(uniq), dtype=bool)
        for j, u in enumerate(uniq.tolist()):
            if u == _PAD:
                lower_u[j], cat_u[j], upper_u[j], space_u[j] = _PAD, len(_CATEGORIES), 2, True
                continue
            c = chr(u)
            if c.isspace():  # every white space reads as a space: line breaks
                c = " "      # of raw text are not a sign the training text shows
            low = c.lower()
            lower_u[j] = ord(low) if len(low) == 1 else u
            cat_u[j] = _CATEGORY.get(unicodedata.category(c), 2)
            upper_u[j] = 1 if low != c else 0
            space_u[j] = c.isspace()
        lower, cat, upper, space = lower_u[inv], cat_u[inv], upper_u[inv], space_u[inv]
        chunk, shape, at, back, at3, back3, before, after, covered = self._chunks(space, texts, w)

        cols = []
        zero = np.zeros(n, dtype=np.uint64)
        cols.append(_combine(0, zero))
        cols.append(_combine(1, upper[real]))
        for o in range(-w, w + 1):
            cols.append(_combine(2, np.uint64(o + 64) + zero, lower[real + o]))
            cols.append(_combine(3, np.uint64(o + 64) + zero, cat[real + o]))
        for o in range(-min(w, 2), min(w, 2)):
            cols.append(_combine(4, np.uint64(o + 64) + zero, lower[real + o], lower[real + o + 1]))
            cols.append(_combine(5, np.uint64(o + 64) + zero, cat[real + o], cat[real + o + 1]))
        for o in (-2, -1, 0):
            if -w <= o and o + 2 <= w:
                cols.append(_combine(6, np.uint64(o + 64) + zero, lower[real + o],
                                     lower[real + o + 1], lower[real + o + 2]))
                cols.append(_combine(7, np.uint64(o + 64) + zero, cat[real + o],
                                     cat[real + o + 1], cat[real + o + 2]))
        chunk, shape = chunk[real], shape[real]
        cols.append(_combine(8, chunk, back3[real]))
        cols.append(_combine(9, chunk, at3[real]))
        cols.append(_combine(10, chunk, at[real]))
        cols.append(_combine(11, shape, at[real]))
        cols.append(_combine(12, shape, back[real]))
        # the chunks either side of a space (or of a chunk's end): what
        # decides a space inside a word, as in Vietnamese, and a sentence's end
        before, after, white = before[real], after[real], space[real].astype(np.uint64)
        cols.append(_combine(13, before, after, white))
        cols.append(_combine(14, after, white))
        cols.append(_combine(15, before, white))
        cols.append(_combine(16, covered[real], white, back3[real]))
        f = len(cols)
        H = np.stack(cols, axis=1) % np.uint64(n_features)
        H.sort(axis=1)
        indices = H.astype(np.int32).ravel()
        # a column twice in a row (two features hashed together) becomes one
        # entry of value 2, as the hashing trick sums them
        data = np.ones(n * f, dtype=np.float32)
        dup = np.zeros((n, f), dtype=bool)
        dup[:, 1:] = H[:, 1:] == H[:, :-1]
        if dup.any():
            keep = ~dup.ravel()
            counts = np.ones(n * f, dtype=np.float32)
            # the run length of each kept entry
            pos = np.flatnonzero(keep)
            run = np.diff(np.append(pos, n * f))
            counts = run.astype(np.float32)
            indices, data = indices[keep], counts
            per_row = f - dup.sum(axis=1)
            indptr = np.concatenate(([0], np.cumsum(per_row))).astype(np.int64)
        else:
            indptr = np.arange(0, n * f + 1, f, dtype=np.int64)
        return CSRData(data, indices, indptr, (n, n_features))

    def _chunks(self, space, texts, w):
        """For each position: its white-space delimited chunk's lower-cased
        text and shape (hashed; 0 for white space), its place in the chunk
        from the start and from the end (exact), the same clipped at 3, and
        the texts of the chunk it is in or last follows and of the next."""
        m = len(space)
        full = "\0" * w + ("\0" * w).join(texts) + "\0" * w
        tok = ~space
        edge = np.diff(np.concatenate(([0], tok.view(np.int8), [0])))
        starts, ends = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)
        texts_h = np.zeros(len(starts) + 1, dtype=np.uint64)
        shapes_h = np.zeros(len(starts) + 1, dtype=np.uint64)
        seen: Dict[str, Tuple[int, int]] = {}
        for j, (a, b) in enumerate(zip(starts.tolist(), ends.tolist()), 1):
            piece = full[a:b]
            hs = seen.get(piece)
            if hs is None:
                hs = seen[piece] = (zlib.crc32(piece.lower().encode("utf-8", "surrogatepass")) + 1,
                                    zlib.crc32(_shape(piece).encode("utf-8", "surrogatepass")) + 1)
            texts_h[j], shapes_h[j] = hs
        cid = np.cumsum(edge[:-1] == 1) * tok  # 1-based chunk of each position, 0: space
        first = np.concatenate(([0], starts))[cid]
        last = np.concatenate(([0], ends - 1))[cid]
        pos = np.arange(m)
        from_start = np.where(tok, pos - first, 0).astype(np.uint64)
        to_end = np.where(tok, last - pos, 0).astype(np.uint64)
        three = np.uint64(3)
        # the chunk a position is in or last follows, and the next one
        started = np.cumsum(edge[:-1] == 1)
        after = np.append(texts_h, 0)[started + 1]
        covered = self._dictionary_spaces(full, starts, ends, space)
        # a chunk's characters also see whether the space after the chunk is
        # inside a word: its last character's label decides as much
        covered = covered | np.where(tok, covered[np.minimum(last + 1, m - 1)], 0).astype(np.uint64) \
            * np.uint64(2)
        return (texts_h[cid], shapes_h[cid], from_start, to_end,
                np.minimum(from_start, three), np.minimum(to_end, three),
                texts_h[started], after, covered)

    def _dictionary_spaces(self, full, starts, ends, space):
        """1 at the white space inside a word of the training file's words
        written with spaces (Vietnamese "Hà Nội"), matched greedily longest
        first from the left (the maximum matching of word segmentation,
        Wong and Chan 1996); 0 elsewhere.  No such words: all 0."""
        covered = np.zeros(len(space), dtype=np.uint64)
        words = {tuple(w.split(" ")) for w in getattr(self, "spaced_words_", ())}
        if not words:
            return covered
        longest = max(len(w) for w in words)
        chunks = [full[a:b].lower() for a, b in zip(starts.tolist(), ends.tolist())]
        gaps = [full[b:a] for a, b in zip(starts[1:].tolist(), ends[:-1].tolist())]
        j, n = 0, len(chunks)
        while j < n:
            for k in range(min(longest, n - j), 1, -1):
                if all("\0" not in g for g in gaps[j:j + k - 1]) and \
                        tuple(chunks[j:j + k]) in words:
                    for q in range(j, j + k - 1):
                        covered[ends[q]:starts[q + 1]] = 1
                    j += k - 1
                    break
            j += 1
        return covered

    # -- training ---------------------------------------------------------

    def _examples(self, sentences: Iterable[ConlluSentence]):
        """The training sequences (texts, per-character label codes) and the
        multiword statistics."""
        _, _, per = self._check()
        texts: List[str] = []
        labels: List[np.ndarray] = []
        cur_text: List[str] = []
        cur_lab: List[np.ndarray] = []
        n_in = 0
        forms: Counter = Counter()
        splits: Dict[str, Counter] = defaultdict(Counter)
        skipped = 0
        spaced: set = set()

        def flush():
            nonlocal n_in
            if cur_text:
                texts.append("".join(cur_text))
                labels.append(np.concatenate(cur_lab))
            cur_text.clear()
            cur_lab.clear()
            n_in = 0

        for sentence in sentences:
            tokens = _sentence_tokens(sentence)
            if not tokens:
                continue
            text = _sentence_text(sentence, tokens)
            spans = _place(text, tokens)
            if spans is None:
                skipped += 1
                continue
            for form, words, _ in tokens:
                forms[form.lower()] += 1
                if len(form.split()) > 1:
                    spaced.add(tuple(form.lower().split()))
                if len(words) > 1:
                    splits[form.lower()][tuple(words)] += 1
            if _starts_block(sentence) or n_in >= per:
                flush()
            lab = np.full(len(text), _O, dtype=np.int32)
            for a, b in spans:
                lab[a:b] = _I
                lab[b - 1] = _T
            lab[spans[-1][1] - 1] = _S
            if cur_text:
                cur_text.append(" ")
                cur_lab.append(np.array([_O], dtype=np.int32))
            cur_text.append(text)
            cur_lab.append(lab)
            n_in += 1
        flush()
        self.spaced_words_ = sorted(" ".join(w) for w in spaced)
        return texts, labels, forms, splits, skipped

    def _learn_multiwords(self, forms: Counter, splits: Dict[str, Counter]) -> None:
        full: Dict[str, List[str]] = {}
        suffix_split: Counter = Counter()
        for form, ways in splits.items():
            words, count = ways.most_common(1)[0]
            if 2 * sum(ways.values()) > forms[form]:
                full[form] = [w.lower() for w in words]
            if "".join(words).lower() == form and len(words) == 2:
                suffix_split[words[-1].lower()] += sum(ways.values())
        # a suffix is a rule when most training tokens longer than it that
        # end in it were split there
        ends: Counter = Counter()
        for form, count in forms.items():
            for s in suffix_split:
                if len(form) > len(s) and form.endswith(s):
                    ends[s] += count
        suffixes = [s for s, c in suffix_split.items() if c >= 2 and 2 * c > ends[s]]
        self.multiword_forms_ = full
        self.multiword_suffixes_ = sorted(suffixes, key=lambda s: (-len(s), s))

    def fit(self, conllu, y=None, dev=None, patience: int = 2) -> "Tokenizer":  # type: ignore[override]
        """Learn from a CoNLL-U file (a path or file object) or from its
        sentences (``perceptron.io.read_conllu_sentences``); ``y`` is
        ignored (the file holds the boundaries).

        ``dev`` (a CoNLL-U file or its sentences) stops the training at its
        best epoch: after each epoch, the raw text of ``dev``
        (:func:`raw_text`) is tokenized and scored as the CoNLL 2018 shared
        task scores it, the score being the mean of the token, word and
        sentence F1 (``dev_scores_``, one an epoch); the model of the best
        epoch is kept, after at most ``max_iter`` epochs or ``patience``
        epochs without a better one.  The model kept then holds no training
        state (``partial_fit`` cannot go on from it).
        """
        self._check()
        if dev is not None and (not isinstance(patience, numbers.Integral) or
                                isinstance(patience, bool) or patience < 1):
            raise ValueError(f"patience must be an int >= 1, got {patience!r}")
        for name in models()[Tokenizer.__name__].fitted:  # a refit starts afresh
            vars(self).pop(name, None)
        texts, labels, forms, splits, skipped = self._examples(_sentences_of(conllu))
        if not texts:
            raise ValueError("conllu: no sentence whose tokens spell its text: nothing to "
                             "learn from")
        X = self._rows(texts)
        y_labels = LABELS[np.concatenate(labels)]
        lengths = np.array([len(t) for t in texts], dtype=np.intp)
        if dev is None:
            super().fit(X, y_labels, lengths)
        self._learn_multiwords(forms, splits)
        self.n_skipped_ = skipped
        if dev is not None:
            self._fit_dev(X, y_labels, lengths, list(_sentences_of(dev)), int(patience))
        return self

    def _fit_dev(self, X, y, lengths, gold, patience) -> None:
        text = raw_text(gold)
        if not text.strip():
            raise ValueError("dev: no sentence with text to score the epochs on")
        spec = models()[StructuredPerceptron.__name__]
        kept = spec.fitted - spec.training_state
        scores: List[float] = []
        best: Dict[str, Any] = {}
        since = 0
        for _ in range(int(self.max_iter)):
            StructuredPerceptron.partial_fit(self, X, y, lengths, classes=LABELS)
            f1 = segmentation_scores(gold, self.to_conllu(text))
            scores.append(float(np.mean([v["f1"] for v in f1.values()])))
            if not best or scores[-1] > max(scores[:-1]):
                best = {k: copy.deepcopy(v) for k, v in vars(self).items() if k in kept}
                since = 0
            else:
                since += 1
                if since >= patience:
                    break
        if best["n_iter_"] != self.n_iter_:  # an earlier epoch: its weights, no state
            for name in spec.training_state:
                vars(self).pop(name, None)
            vars(self).update(best)
        self.dev_scores_ = np.array(scores)

    # -- use --------------------------------------------------------------

    def _words(self, form: str) -> List[str]:
        key = form.lower()
        words = self.multiword_forms_.get(key)
        if words is not None:
            return [_case_like(form, w, i == 0) for i, w in enumerate(words)]
        for s in self.multiword_suffixes_:
            if len(key) > len(s) and key.endswith(s):
                return [form[:-len(s)], form[-len(s):]]
        return [form]

    def tokenize(self, text: str) -> List[List[Token]]:
        """The sentences of ``text``, each a list of :class:`Token`.

        Paragraphs (blocks separated by an empty line) are decoded apart; a
        sentence never runs across one."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        check_is_fitted(self, "multiword_forms_")
        blocks = []
        at = 0
        for para in _paragraphs(text):
            k = text.index(para, at)
            blocks.append((k, para))
            at = k + len(para)
        # each paragraph without the white space around it
        blocks = [(k + len(p) - len(p.lstrip()), p.strip()) for k, p in blocks if p.strip()]
        sentences: List[List[Token]] = []
        # a few paragraphs at a time: the feature rows take about a kilobyte
        # a character, and each paragraph is decoded apart anyway
        group: List[Tuple[int, str]] = []
        size = 0
        for i, (k, para) in enumerate(blocks):
            group.append((k, para))
            size += len(para)
            if size >= _BATCH or i == len(blocks) - 1:
                X = self._rows([p for _, p in group])
                lengths = np.array([len(p) for _, p in group], dtype=np.intp)
                codes = np.searchsorted(LABELS, self.predict(X, lengths))
                pos = 0
                for start, p in group:
                    self._decode(text, start, p, codes[pos:pos + len(p)], sentences)
                    pos += len(p)
                group, size = [], 0
        return sentences

    def _decode(self, text, offset, para, codes, sentences) -> None:
        cur: List[Token] = []
        start = -1

        def close(end, sentence_end):
            nonlocal start
            form = para[start:end]
            a, b = offset + start, offset + end
            cur.append(Token(form, a, b, b < len(text) and text[b].isspace(), self._words(form)))
            start = -1
            if sentence_end:
                sentences.append(list(cur))
                cur.clear()

        for i, c in enumerate(para):
            code = codes[i]
            white = c.isspace()
            if start < 0:
                if white:
                    continue
                start = i
            elif white and code in (_O, _T, _S):
                close(i, code == _S)
                continue
            if not white and code in (_T, _S):
                close(i + 1, code == _S)
        if start >= 0:
            end = len(para.rstrip())
            close(end, False)
        if cur:
            sentences.append(list(cur))

    def to_conllu(self, text: str) -> List[ConlluSentence]:
        """The sentences of ``text`` as CoNLL-U: ``# newdoc`` before the
        first, ``# newpar`` before the first of each paragraph, ``# sent_id``
        and ``# text`` comments, the tokens' words (multiword tokens as
        ranges), ``SpaceAfter=No`` where no white space follows; the other
        columns ``_``."""
        out = []
        end = -1
        for n, tokens in enumerate(self.tokenize(text), 1):
            a, b = tokens[0].start, tokens[-1].end
            marks = ["# newdoc", "# newpar"] if end < 0 else \
                ["# newpar"] if _blank_line(text[end:a]) else []
            end = b
            rows: List[List[str]] = []
            i = 1
            for t in tokens:
                misc = "_" if t.space_after or t is tokens[-1] else "SpaceAfter=No"
                if len(t.words) > 1:
                    rows.append([f"{i}-{i + len(t.words) - 1}", t.form] + ["_"] * 7 + [misc])
                    for w in t.words:
                        rows.append([str(i), w] + ["_"] * 8)
                        i += 1
                else:
                    rows.append([str(i), t.form] + ["_"] * 7 + [misc])
                    i += 1
            sent_text = " ".join(text[a:b].split("\n"))
            out.append(ConlluSentence(marks + [f"# sent_id = {n}", f"# text = {sent_text}"],
                                      rows))
        return out


def _blank_line(gap: str) -> bool:
    """Whether the white space between two sentences holds an empty line (a
    whole line of white space: a paragraph break, as ``_paragraphs`` cuts)."""
    return any(not line.strip() and line.splitlines()[0] != line
               for line in gap.splitlines(keepends=True)[1:])


def _sentences_of(conllu):
    """The sentences of a CoNLL-U path or file object, or the sentences given."""
    if isinstance(conllu, (str, bytes)) or hasattr(conllu, "read") or \
            hasattr(conllu, "__fspath__"):
        return read_conllu_sentences(conllu)
    return conllu


def _shape(piece: str) -> str:
    """The chunk's shape in any script: letters by case (upper ``X``, lower
    ``x``, uncased ``o``), digits ``d``, other characters as themselves,
    runs of more than two of a class cut at two."""
    out: List[str] = []
    for c in piece:
        if c.isalpha():
            k = "X" if c.isupper() else "x" if c.islower() else "o"
        elif c.isdigit():
            k = "d"
        else:
            k = c
        if len(out) < 2 or not (out[-1] == k and out[-2] == k):
            out.append(k)
    return "".join(out)


def _paragraphs(text: str) -> List[str]:
    """The blocks of text between empty lines."""
    out = []
    cur: List[str] = []
    for line in text.splitlines(keepends=True):
        if line.strip():
            cur.append(line)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def raw_text(sentences: Iterable[ConlluSentence]) -> str:
    """The raw text of a treebank's sentences, as the UD tools write it: the
    sentences' ``# text`` joined by a space, an empty line before each new
    document or paragraph."""
    parts: List[str] = []
    for s in sentences:
        tokens = _sentence_tokens(s)
        if not tokens:
            continue
        t = _sentence_text(s, tokens)
        if parts and _starts_block(s):
            parts.append("\n\n")
        elif parts:
            parts.append(" ")
        parts.append(t)
    return "".join(parts) + ("\n" if parts else "")



def _check_saved(est):
    models()[StructuredPerceptron.__name__].check(est)
    est._check()
    need(est.coef_.shape[1] == est.n_features, "n_features and the width of coef_ disagree")
    need(est.classes_.tolist() == LABELS.tolist(), f"classes_ {LABELS.tolist()}")
    forms = est.multiword_forms_
    need(isinstance(forms, dict) and all(
        isinstance(k, str) and isinstance(v, list) and v and all(isinstance(x, str) for x in v)
        for k, v in forms.items()), "multiword_forms_: a dict of str to lists of str")
    for name in ("multiword_suffixes_", "spaced_words_"):
        v = getattr(est, name)
        need(isinstance(v, list) and all(isinstance(x, str) and x for x in v),
             f"{name}: a list of non-empty str")
    need(isinstance(est.n_skipped_, int) and est.n_skipped_ >= 0, "n_skipped_: an int >= 0")
    if "dev_scores_" in vars(est):
        v = est.dev_scores_
        need(isinstance(v, np.ndarray) and v.ndim == 1 and v.dtype == np.float64 and
             bool(np.all((v >= 0) & (v <= 1))), "dev_scores_: floats in [0, 1]")


register_model(Tokenizer, check=_check_saved,
               fitted=models()[StructuredPerceptron.__name__].fitted |
               {"multiword_forms_", "multiword_suffixes_", "spaced_words_", "n_skipped_",
                "dev_scores_"},
               training_state=models()[StructuredPerceptron.__name__].training_state)

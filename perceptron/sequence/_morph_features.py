"""Word features for morphology that assume no language and no script.

The tagger's compiled features (``perceptron._core.featurize``) describe a
word by its bytes: affixes of UTF-8 bytes and a shape that only knows
upper case, lower case and digits.  For morphology in any language the word
is also described by code points and by Unicode character classes, per
distinct word (a type), then the rows of the tokens are gathered from their
types' rows, so the Python work is proportional to the vocabulary, not to
the text:

- prefixes of 1 to 4 and suffixes of 1 to 5 code points of the lower case:
  inflection sits at the ends of words in most languages (Ratnaparkhi 1996,
  section 3; Chrupała 2006 builds lemma scripts on the same ends);
- the word's shape in any script: each code point as its Unicode general
  category (upper, lower and caseless letters, marks, digits, other
  numbers, punctuation, symbols, spaces), runs collapsed, and the script of
  its first letter (the first word of its Unicode name: LATIN, CYRILLIC,
  CJK, ...);
- the length in code points (up to 12), and for words with spaces or hyphens
  inside (Vietnamese syllables, compounds) the number of parts and the first
  and last part: a word of a non-segmented or agglutinative language is
  known by its pieces.

Each feature is a string hashed (FNV-1a, ``feature_hash``) into a block of
columns (Weinberger et al. 2009).  ``conjoined`` adds, for the classifiers
that label a token given its part of speech, the conjunctions of the part of
speech with the word, its shape and its suffixes.
"""
import unicodedata

import numpy as np

from perceptron._core import featurize as _featurize
from perceptron._common.validation import canonical_csr

__all__ = ["TypeFeatures", "hstack_rows"]

# general category -> shape symbol (the first letter of the category when
# its class is enough: marks, punctuation, symbols, separators, others)
_SHAPE = {"Lu": "A", "Lt": "A", "Ll": "a", "Lo": "o", "Lm": "o", "Nd": "9", "Nl": "n",
          "No": "n"}
_CONJ_SUFFIXES = 4
_SALT_CONJ = 0x9E3779B97F4A7C15


def _shape(word):
    out = []
    last = None
    for c in word:
        cat = unicodedata.category(c)
        k = _SHAPE.get(cat)
        if k is None:
            k = c if cat[0] == "P" else cat[0].lower()
        if k != last:
            out.append(k)
            last = k
    return "".join(out)


def _script(word):
    for c in word:
        if unicodedata.category(c)[0] == "L":
            return unicodedata.name(c, "UNKNOWN").split(" ", 1)[0]
    return "NONE"


def _hash(text):
    return _featurize.feature_hash(0, text.encode("utf-8", "surrogatepass"))


def _mix(x):
    """splitmix64 (Steele et al. 2014) of a uint64 array: a column from a
    combination of hashes."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


class TypeFeatures:
    """The feature rows of the distinct words of a token list.

    ``TypeFeatures(tokens)`` finds the types; ``rows(n)`` gives each token's
    type features hashed into ``n`` columns (CSR arrays); ``conjoined(tags,
    n)`` the conjunctions of each token's tag code with its word, shape and
    suffixes.
    """

    def __init__(self, tokens):
        index: dict = {}
        ids = np.empty(len(tokens), dtype=np.intp)
        for i, w in enumerate(tokens):
            k = index.get(w)
            if k is None:
                k = index[w] = len(index)
            ids[i] = k
        self.ids = ids
        self.types = list(index)
        hashes = []
        counts = np.empty(len(self.types), dtype=np.intp)
        conj = np.zeros((len(self.types), 2 + _CONJ_SUFFIXES), dtype=np.uint64)
        for t, word in enumerate(self.types):
            lower = word.lower()
            shape = _shape(word)
            feats = [f"p{k}:{lower[:k]}" for k in range(1, min(4, len(lower)) + 1)]
            feats += [f"s{k}:{lower[-k:]}" for k in range(1, min(5, len(lower)) + 1)]
            feats += [f"sh:{shape}", f"sc:{_script(word)}", f"len:{min(len(word), 12)}",
                      f"sh2:{shape[:2]}{shape[-2:]}"]
            parts = word.replace("-", " ").split()
            if len(parts) > 1:
                feats += [f"np:{min(len(parts), 5)}", f"fp:{parts[0].lower()}",
                          f"lp:{parts[-1].lower()}"]
            row = [_hash(f) for f in feats]
            hashes.extend(row)
            counts[t] = len(row)
            conj[t, 0] = _hash("w:" + lower)
            conj[t, 1] = _hash("sh:" + shape)
            for k in range(_CONJ_SUFFIXES):
                conj[t, 2 + k] = _hash(f"s{k + 1}:{lower[-(k + 1):]}") if len(lower) > k else 0
        self._hashes = np.array(hashes, dtype=np.uint64)
        self._counts = counts
        self._starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp) \
            if len(counts) else np.zeros(0, dtype=np.intp)
        self._conj = conj

    def rows(self, n_columns):
        """(indices int64, indptr int64) of each token's type features."""
        counts = self._counts[self.ids]
        indptr = np.zeros(len(self.ids) + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        first = np.repeat(self._starts[self.ids] - indptr[:-1], counts)
        take = np.arange(indptr[-1], dtype=np.intp) + first
        return (self._hashes[take] % np.uint64(n_columns)).astype(np.int64), indptr

    def conjoined(self, tags, n_columns):
        """(indices int64, indptr int64): each token's tag code (an int
        array, one a token) conjoined with its word, shape and suffixes, and
        the tag alone."""
        per = self._conj[self.ids]  # (n_tokens, 2 + suffixes)
        tag = _mix(np.asarray(tags, dtype=np.uint64) + np.uint64(_SALT_CONJ))
        cols = _mix(per ^ tag[:, None])
        cols = np.concatenate([cols, tag[:, None]], axis=1)
        width = cols.shape[1]
        indptr = np.arange(len(self.ids) + 1, dtype=np.int64) * width
        return (cols % np.uint64(n_columns)).astype(np.int64).reshape(-1), indptr


def hstack_rows(blocks, n_rows):
    """CSR arrays (data float32, indices int64, indptr int64) of the blocks
    side by side: ``blocks`` is a list of (indices, indptr, width), each
    block's columns shifted by the widths before it."""
    counts = sum(np.diff(ip) for _, ip, _ in blocks) if blocks else np.zeros(n_rows, np.int64)
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    indices = np.empty(indptr[-1], dtype=np.int64)
    offset = 0
    before = np.zeros(n_rows, dtype=np.int64)
    for idx, ip, width in blocks:
        c = np.diff(ip)
        pos = np.arange(len(idx), dtype=np.int64) - np.repeat(ip[:-1], c) + \
            np.repeat(indptr[:-1] + before, c)
        indices[pos] = idx + offset
        before += c
        offset += width
    return _canonical(indices, indptr)


def _canonical(indices, indptr):
    """Each row's columns sorted, repeats merged into their count (the
    canonical CSR the structured perceptron reads without copying), by the
    compiled pass of the input checks (only the rows out of order are
    sorted, in time linear in the values)."""
    data = np.ones(len(indices), dtype=np.float32)
    return canonical_csr(data, indices, np.ascontiguousarray(indptr, dtype=np.int64),
                         len(indptr) - 1)

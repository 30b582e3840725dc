# cython: language_level=3
"""The hashed token features of the tagger (csrc/featurize.c).

``featurize`` turns a flat list of tokens (``str``) and the lengths of its
sentences into the rows of a CSR matrix, one row a token: the columns are the
hashes of the token's features (``csrc/ptn_featurize.h`` lists them) modulo
``n_features``, sorted, repeats merged into a value of 2 (or more).  Each
token is read as UTF-8 once, through the string's own cached encoding (no
copy for ASCII text); an ASCII token's lower case and shape are made in C,
another token's by Python's Unicode rules (``str.lower``, ``str.isupper``,
...), the same rules as the ASCII path on ASCII.  Then the hashing of every
sentence runs in C without the GIL.  No Python object is made per token on
the ASCII path.
"""
import numpy as np

from cpython.buffer cimport PyBUF_FORMAT
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL
    bint PyUnicode_IS_ASCII(object s)
    bint PyUnicode_Check(object s)

cdef extern from "ptn_featurize.h" nogil:
    ctypedef struct ptn_token:
        const char *word
        const char *lower
        const char *shape
        int64_t word_len, lower_len, shape_len
        unsigned flags
    enum:
        PTN_F_BIAS, PTN_F_WORD, PTN_F_LOWER, PTN_F_PREFIX, PTN_F_SUFFIX, PTN_F_SHAPE
        PTN_F_DIGIT, PTN_F_HYPHEN, PTN_F_CAPITAL, PTN_F_PREV1, PTN_F_PREV2, PTN_F_NEXT1
        PTN_F_NEXT2, PTN_F_PREV1_SUFFIX, PTN_F_NEXT1_SUFFIX
        PTN_F_PREV_BIGRAM, PTN_F_NEXT_BIGRAM
        PTN_F_CAPITAL_FIRST, PTN_F_SUFFIX5, PTN_F_PREV2_BIGRAM
        PTN_F_PREV1_WORD, PTN_F_NEXT_SUFFIX_PAIR, PTN_F_AMBIG
        PTN_F_PREV1_AMBIG, PTN_F_NEXT1_AMBIG, PTN_F_N_TEMPLATES
        PTN_F_MAX_PER_TOKEN, PTN_F_HAS_DIGIT, PTN_F_HAS_HYPHEN, PTN_F_IS_CAPITAL
    uint64_t ptn_feature_hash(int template_id, const char *b, int64_t n)
    void ptn_token_ascii(ptn_token *t, const char *word, int64_t n, char *scratch)
    int64_t ptn_featurize_sentence(const ptn_token *tokens, int64_t n, uint64_t n_features,
                                   uint64_t templates, const uint64_t *classes,
                                   const uint64_t *table, uint64_t table_mask,
                                   int32_t *indices, float *data, int64_t *row_nnz)
    uint64_t ptn_lower_hash(const ptn_token *t)
    uint64_t ptn_dict_slot(uint64_t key, uint64_t mask)

cdef char *_FORMAT_BYTE = "B"


cdef class _Owned:
    """A malloc'd block lent to numpy through the buffer protocol; freed
    with the last array that uses it (so the output rows are never copied)."""
    cdef void *ptr
    cdef Py_ssize_t nbytes

    def __getbuffer__(self, Py_buffer *view, int flags):
        view.buf = self.ptr
        view.obj = self
        view.len = self.nbytes
        view.readonly = 0
        view.itemsize = 1
        view.format = _FORMAT_BYTE if flags & PyBUF_FORMAT else NULL
        view.ndim = 1
        view.shape = &self.nbytes
        view.strides = &view.itemsize
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer *view):
        pass

    def __dealloc__(self):
        free(self.ptr)


cdef object _adopt(void *ptr, int64_t count, dtype):
    """An ndarray of `count` items of `dtype` owning the malloc'd `ptr`
    (shrunk to its size)."""
    cdef _Owned owner = _Owned.__new__(_Owned)
    cdef void *smaller
    dtype = np.dtype(dtype)
    if count == 0:
        free(ptr)
        return np.empty(0, dtype=dtype)
    smaller = realloc(ptr, <size_t>count * dtype.itemsize)  # shrinking: in place
    owner.ptr = smaller if smaller != NULL else ptr
    owner.nbytes = <Py_ssize_t>count * dtype.itemsize
    return np.frombuffer(owner, dtype=dtype, count=count)


# the template numbers, in the order of the C enum (the tests' reference uses them)
TEMPLATES = {
    "bias": PTN_F_BIAS, "word": PTN_F_WORD, "lower": PTN_F_LOWER, "prefix": PTN_F_PREFIX,
    "suffix": PTN_F_SUFFIX, "shape": PTN_F_SHAPE, "digit": PTN_F_DIGIT,
    "hyphen": PTN_F_HYPHEN, "capital": PTN_F_CAPITAL, "prev1": PTN_F_PREV1,
    "prev2": PTN_F_PREV2, "next1": PTN_F_NEXT1, "next2": PTN_F_NEXT2,
    "prev1_suffix": PTN_F_PREV1_SUFFIX, "next1_suffix": PTN_F_NEXT1_SUFFIX,
    "prev_bigram": PTN_F_PREV_BIGRAM, "next_bigram": PTN_F_NEXT_BIGRAM,
    "capital_first": PTN_F_CAPITAL_FIRST,
    "suffix5": PTN_F_SUFFIX5, "prev2_bigram": PTN_F_PREV2_BIGRAM,
    "prev1_word": PTN_F_PREV1_WORD,
    "next_suffix_pair": PTN_F_NEXT_SUFFIX_PAIR, "ambig": PTN_F_AMBIG,
    "prev1_ambig": PTN_F_PREV1_AMBIG, "next1_ambig": PTN_F_NEXT1_AMBIG,
}
MAX_PER_TOKEN = PTN_F_MAX_PER_TOKEN
# n_features must leave every column an int32
MAX_FEATURES = 2 ** 31 - 1


def feature_hash(int template_id, bytes value):
    """The 64-bit hash of `value` under a template (before the modulo)."""
    if not 0 <= template_id < PTN_F_N_TEMPLATES:
        raise ValueError(f"template_id must be in [0, {PTN_F_N_TEMPLATES}), got {template_id}")
    return ptn_feature_hash(template_id, value, len(value))


def unicode_token(str word):
    """(lower, shape, flags) of a token by Python's Unicode rules: what the
    C code computes itself for an ASCII token."""
    cdef unsigned flags = 0
    shape = []
    last = None
    for c in word:
        k = "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
        if k != last:
            shape.append(k)
            last = k
    if any(c.isdigit() for c in word):
        flags |= PTN_F_HAS_DIGIT
    if "-" in word:
        flags |= PTN_F_HAS_HYPHEN
    if word[:1].isupper():
        flags |= PTN_F_IS_CAPITAL
    return word.lower(), "".join(shape), flags


cdef class ClassTable:
    """The ambiguity classes of words, as an open-addressing hash table that
    C reads: ``ClassTable(keys, values)`` with ``keys`` the distinct hashes of
    the words' lower case (``lower_hashes``; 0 is not a key) and ``values``
    their classes (uint64, 0: none)."""
    cdef uint64_t[::1] table
    cdef uint64_t mask
    cdef object given  # (keys, values) as given: what a pickle holds

    def __reduce__(self):
        return ClassTable, self.given

    def __init__(self, keys, values):
        k = np.ascontiguousarray(keys, dtype=np.uint64)
        v = np.ascontiguousarray(values, dtype=np.uint64)
        if k.ndim != 1 or v.shape != k.shape:
            raise ValueError(f"keys and values must be 1-d arrays of one length, got shapes "
                             f"{k.shape} and {v.shape}")
        if len(np.unique(k)) != len(k) or (len(k) and not k.all()):
            raise ValueError("keys must be distinct and non-zero")
        self.given = (k, v)
        cdef Py_ssize_t size = 2, i
        while size < 2 * len(k) + 1:
            size *= 2
        self.table = np.zeros(2 * size, dtype=np.uint64)
        self.mask = <uint64_t>(size - 1)
        cdef const uint64_t[::1] kk = k
        cdef const uint64_t[::1] vv = v
        cdef uint64_t slot
        for i in range(kk.shape[0]):
            slot = ptn_dict_slot(kk[i], self.mask)
            while self.table[2 * slot] != 0:
                slot = (slot + 1) & self.mask
            self.table[2 * slot] = kk[i]
            self.table[2 * slot + 1] = vv[i]


cdef char *_prepare(list tokens, ptn_token *toks, bint *is_ascii, list keep) except? NULL:
    """Fill toks (room for len(tokens)) from the tokens: their UTF-8 bytes,
    and for non-ASCII tokens their lower case and shape by Python's rules
    (kept alive in `keep`).  Returns the scratch buffer that holds the
    ASCII tokens' lower case and shape (the caller frees it)."""
    cdef Py_ssize_t n = len(tokens), i, size, ascii_bytes = 0
    cdef const char *utf8
    cdef char *scratch
    cdef char *pos
    for i in range(n):
        word = tokens[i]
        if not PyUnicode_Check(word):
            raise TypeError(f"token {i} is a {type(word).__name__} ({word!r:.40}), not a str")
        try:
            utf8 = PyUnicode_AsUTF8AndSize(word, &size)
        except UnicodeError as exc:
            raise ValueError(f"token {i} ({word!r:.40}) cannot be encoded as UTF-8: "
                             f"{exc.reason}") from None
        toks[i].word = utf8
        toks[i].word_len = size
        is_ascii[i] = PyUnicode_IS_ASCII(word)
        if is_ascii[i]:
            ascii_bytes += size
        else:
            # a str subclass (numpy.str_) is read as the str it holds
            lower, shape, flags = unicode_token(word if type(word) is str
                                                else str.__str__(word))
            keep.append(lower)
            keep.append(shape)
            toks[i].lower = PyUnicode_AsUTF8AndSize(lower, &size)
            toks[i].lower_len = size
            toks[i].shape = PyUnicode_AsUTF8AndSize(shape, &size)
            toks[i].shape_len = size
            toks[i].flags = flags
    scratch = <char *>malloc(max(2 * ascii_bytes, 1))
    if scratch == NULL:
        raise MemoryError(f"featurize: no memory for {ascii_bytes} bytes of tokens")
    with nogil:
        pos = scratch
        for i in range(n):
            if is_ascii[i]:
                ptn_token_ascii(&toks[i], toks[i].word, toks[i].word_len, pos)
                pos += 2 * toks[i].word_len
    return scratch


def lower_hashes(list tokens):
    """uint64 array: the FNV-1a hash of each token's lower case (the keys of
    a ``ClassTable``)."""
    cdef Py_ssize_t n = len(tokens), i
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] h = out
    cdef ptn_token *toks = <ptn_token *>malloc(max(n, 1) * sizeof(ptn_token))
    cdef bint *is_ascii = <bint *>malloc(max(n, 1) * sizeof(bint))
    cdef char *scratch = NULL
    keep = []
    try:
        if toks == NULL or is_ascii == NULL:
            raise MemoryError(f"lower_hashes: no memory for {n} tokens")
        scratch = _prepare(tokens, toks, is_ascii, keep)
        with nogil:
            for i in range(n):
                h[i] = ptn_lower_hash(&toks[i])
    finally:
        free(toks)
        free(is_ascii)
        free(scratch)
    return out


def featurize(list tokens, lengths, Py_ssize_t n_features, templates=None, classes=None):
    """CSR rows (data float32, indices, indptr) of the tokens' features.

    tokens : a flat list of ``str``, the sentences one after the other.
    lengths : int64 array, the tokens of each sentence (sum: ``len(tokens)``).
    n_features : the number of columns, 1 to 2**31 - 1.
    templates : the names of the templates to use (keys of ``TEMPLATES``);
        None: all of them.
    classes : the tokens' ambiguity classes: None (no ambiguity features),
        a uint64 array of one value a token, or a ``ClassTable`` (each
        token's lower case looked up in it).
    indices and indptr are int32 when the number of values fits, else int64.
    """
    cdef const int64_t[::1] lens = np.ascontiguousarray(lengths, dtype=np.int64)
    cdef Py_ssize_t n = len(tokens), n_sent = lens.shape[0], s, start, total = 0
    cdef ptn_token *toks = NULL
    cdef char *scratch = NULL
    cdef int64_t nnz = 0
    cdef bint *is_ascii = NULL
    cdef uint64_t mask = 0
    cdef const uint64_t[::1] given
    cdef const uint64_t *cls = NULL
    cdef ClassTable table = None
    if not 1 <= n_features <= MAX_FEATURES:
        raise ValueError(f"n_features must be in [1, 2**31 - 1], got {n_features}")
    if templates is None:
        mask = (1 << PTN_F_N_TEMPLATES) - 1
    else:
        for name in templates:
            if name not in TEMPLATES:
                raise ValueError(f"unknown feature template {name!r}; the templates are "
                                 f"{', '.join(TEMPLATES)}")
            mask |= 1 << TEMPLATES[name]
    for s in range(n_sent):
        if lens[s] < 0:
            raise ValueError(f"lengths[{s}] is negative ({lens[s]})")
    for s in range(n_sent):
        if lens[s] > n - total:  # checked before the sum, which could wrap around
            raise ValueError(f"lengths sum to {sum([int(v) for v in lens])}, but there are "
                             f"{n} tokens")
        total += lens[s]
    if total != n:
        raise ValueError(f"lengths sum to {total}, but there are {n} tokens")
    cdef const uint64_t *tab = NULL
    cdef uint64_t tab_mask = 0
    if isinstance(classes, ClassTable):
        table = classes
        tab = &table.table[0]
        tab_mask = table.mask
    elif classes is not None:
        class_array = np.asarray(classes)
        if class_array.dtype != np.uint64 or class_array.shape != (n,):
            raise ValueError(f"classes must be a uint64 array of one value a token ({n}), got "
                             f"{class_array.dtype} of shape {class_array.shape}")
        class_array = np.ascontiguousarray(class_array)
        if n:
            given = class_array
            cls = &given[0]
    row_nnz = np.empty(n + 1, dtype=np.int64)
    cdef int64_t[::1] rn = row_nnz
    cdef int32_t *ind = <int32_t *>malloc(max(n, 1) * PTN_F_MAX_PER_TOKEN * sizeof(int32_t))
    cdef float *dat = <float *>malloc(max(n, 1) * PTN_F_MAX_PER_TOKEN * sizeof(float))
    keep = []  # the lower case and shape strings of non-ASCII tokens, alive until the end
    toks = <ptn_token *>malloc(max(n, 1) * sizeof(ptn_token))
    is_ascii = <bint *>malloc(max(n, 1) * sizeof(bint))
    try:
        if toks == NULL or is_ascii == NULL or ind == NULL or dat == NULL:
            raise MemoryError(f"featurize: no memory for {n} tokens")
        scratch = _prepare(tokens, toks, is_ascii, keep)
        with nogil:
            start = 0
            for s in range(n_sent):
                nnz += ptn_featurize_sentence(&toks[start], lens[s], <uint64_t>n_features,
                                              mask, cls + start if cls != NULL else NULL,
                                              tab, tab_mask, ind + nnz, dat + nnz,
                                              &rn[start + 1])
                start += lens[s]
    except BaseException:
        free(ind)
        free(dat)
        raise
    finally:
        free(toks)
        free(is_ascii)
        free(scratch)
    indices = _adopt(ind, nnz, np.int32)
    data = _adopt(dat, nnz, np.float32)
    row_nnz[0] = 0
    indptr = np.cumsum(row_nnz)
    if nnz <= np.iinfo(np.int32).max:
        indptr = indptr.astype(np.int32)
    else:
        indices = indices.astype(np.int64)
    return data, indices, indptr


def split_tagged(sentences):
    """(tokens, tag codes, lengths, tags) of tagged sentences.

    sentences : a list of sequences of (word, tag) pairs.  tokens: the words,
    one flat list; codes: int64 array, each word's tag as an index into tags;
    lengths: int64 array, the words of each sentence; tags: the distinct tags,
    sorted.  (Compiled: one dict look-up a word, no tuple made.)
    """
    cdef Py_ssize_t i, j, n = 0, k = 0, n_sent = len(sentences)
    cdef int64_t code
    cdef dict index = {}
    cdef list tokens = [], sentence
    lengths = np.empty(n_sent, dtype=np.int64)
    cdef int64_t[::1] lens = lengths
    for i in range(n_sent):
        s = sentences[i]
        if isinstance(s, str) or not hasattr(s, "__len__"):
            raise TypeError(f"sentence {i} is not a list of (word, tag) pairs: {s!r:.80}")
        lens[i] = len(s)
        n += lens[i]
    codes = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] c = codes
    for i in range(n_sent):
        for pair in sentences[i]:
            if type(pair) is tuple and len(<tuple>pair) == 2:
                word = (<tuple>pair)[0]
                tag = (<tuple>pair)[1]
            else:
                try:
                    word, tag = pair
                except (TypeError, ValueError):
                    raise TypeError(f"sentence {i} holds {pair!r:.60}, not a (word, tag) "
                                    "pair") from None
            tokens.append(word)
            value = index.get(tag)
            if value is None:
                if not isinstance(tag, str):
                    raise TypeError(f"sentence {i}: tags must be str, got {tag!r:.40} "
                                    f"({type(tag).__name__})")
                code = len(index)
                index[tag] = code
            else:
                code = value
            if k >= n:
                raise ValueError(f"sentence {i} changed length while it was read")
            c[k] = code
            k += 1
    if k != n:
        raise ValueError("the sentences changed length while they were read")
    tags = sorted(index)
    rank = np.empty(len(tags), dtype=np.int64)
    for j, tag in enumerate(tags):
        rank[index[tag]] = j
    return tokens, rank[codes], lengths, tags


def pair_tags(list sentences, list tags):
    """``[[(word, tag), ...], ...]``: each sentence's words (a list of
    lists, as given to ``featurize``) paired with the flat list of tags, in
    compiled code (a tuple a word, no slices)."""
    cdef Py_ssize_t i, j, k = 0, n
    cdef list out = [], sentence, row
    cdef tuple pair
    for i in range(len(sentences)):
        s = sentences[i]
        if type(s) is not list:
            raise TypeError(f"sentence {i} is a {type(s).__name__}, not a list")
        sentence = <list>s
        n = len(sentence)
        if k + n > len(tags):
            raise ValueError("fewer tags than words")
        row = [None] * n
        for j in range(n):
            pair = (sentence[j], tags[k])
            row[j] = pair
            k += 1
        out.append(row)
    if k != len(tags):
        raise ValueError("more tags than words")
    return out

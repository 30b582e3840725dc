# cython: language_level=3
"""Feature dicts hashed into CSR rows, as python-crfsuite reads its items.

A sequence is a list of tokens; a token is a dict of features or a list of
feature names.  The attributes a token yields, each a name and a value
(the reading of python-crfsuite's ``ItemSequence``):

- in a list, each ``str`` is a name of value 1;
- in a dict, ``{"k": "v"}`` is the name ``k:v`` of value 1; ``{"k": x}`` with
  x a number (or a bool: 1 or 0) the name ``k`` of value x; ``{"k": {...}}``
  (or a list or set) the attributes of the inner dict (or list) with ``k:``
  before their names, to any depth.

Each name is hashed (64-bit FNV-1a over its UTF-8 bytes, Fowler, Noll and Vo
1991, then the finaliser of MurmurHash3, Appleby 2011, so that the low bits
mix) and taken modulo ``n_features`` (the hashing trick, Weinberger et al.
2009, "Feature Hashing for Large Scale Multitask Learning", section 2): a
nested name is hashed as its parts run, so ``{"a": {"b": "c"}}`` and
``{"a:b": "c"}`` are one feature, as in CRFsuite.  A row's columns are
sorted and the values of one column added; zero values are dropped (they
add nothing to a score or an update).
"""
import numpy as np

from libc.math cimport isfinite
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL
    char *PyBytes_AS_STRING(object b)
    Py_ssize_t PyBytes_GET_SIZE(object b)

# n_features must leave every column an int32
MAX_FEATURES = 2 ** 31 - 1
# nested dicts deeper than this are refused (a cycle would never end)
MAX_DEPTH = 32

cdef uint64_t FNV_OFFSET = 14695981039346656037ULL
cdef uint64_t FNV_PRIME = 1099511628211ULL


cdef inline uint64_t _fnv(uint64_t h, const char *b, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ <unsigned char>b[i]) * FNV_PRIME
    return h


cdef inline uint64_t _mix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef struct Buffer:
    int32_t *idx
    float *val
    int64_t n
    int64_t cap


cdef int _grow(Buffer *b) except -1:
    cdef int64_t cap = b.cap * 2 if b.cap else 1024
    cdef int32_t *i = <int32_t *>realloc(b.idx, <size_t>cap * sizeof(int32_t))
    if i == NULL:
        raise MemoryError("hashing the features: out of memory")
    b.idx = i
    cdef float *v = <float *>realloc(b.val, <size_t>cap * sizeof(float))
    if v == NULL:
        raise MemoryError("hashing the features: out of memory")
    b.val = v
    b.cap = cap
    return 0


cdef inline int _push(Buffer *b, uint64_t h, double value, uint64_t n_features) except -1:
    if value == 0.0:
        return 0
    if b.n == b.cap:
        _grow(b)
    b.idx[b.n] = <int32_t>(_mix(h) % n_features)
    b.val[b.n] = <float>value
    b.n += 1
    return 0


cdef inline uint64_t _name(uint64_t h, object s, str where) except? 0:
    """h continued over the UTF-8 bytes of a str (or the bytes of bytes)."""
    cdef Py_ssize_t size
    cdef const char *p
    if type(s) is str:
        p = PyUnicode_AsUTF8AndSize(s, &size)
        return _fnv(h, p, size)
    if isinstance(s, str):
        p = PyUnicode_AsUTF8AndSize(s, &size)
        return _fnv(h, p, size)
    if isinstance(s, bytes):
        return _fnv(h, PyBytes_AS_STRING(s), PyBytes_GET_SIZE(s))
    raise TypeError(f"{where}: feature names must be str, got {s!r:.40} ({type(s).__name__})")


cdef int _names(Buffer *b, uint64_t h, object items, bint prefixed, uint64_t n_features,
                str where) except -1:
    """The str of a list (or set, tuple) as names of value 1."""
    cdef uint64_t g
    for s in items:
        g = _fnv(h, b":", 1) if prefixed else h
        _push(b, _name(g, s, where), 1.0, n_features)
    return 0


cdef int _dict(Buffer *b, uint64_t h, dict d, bint prefixed, uint64_t n_features, int depth,
               str where) except -1:
    cdef uint64_t g
    cdef double x
    if depth > MAX_DEPTH:
        raise ValueError(f"{where}: feature dicts nested deeper than {MAX_DEPTH}")
    for key, value in d.items():
        g = _fnv(h, b":", 1) if prefixed else h
        g = _name(g, key, where)
        if type(value) is str or isinstance(value, (str, bytes)):
            g = _fnv(g, b":", 1)
            _push(b, _name(g, value, where), 1.0, n_features)
        elif isinstance(value, dict):
            _dict(b, g, <dict>value, True, n_features, depth + 1, where)
        elif isinstance(value, (list, tuple, set, frozenset)):
            _names(b, g, value, True, n_features, where)
        else:
            try:
                x = value
            except TypeError:
                raise TypeError(f"{where}: the value of {key!r:.40} is {value!r:.40} "
                                f"({type(value).__name__}); a feature value is a str, a "
                                "number, a bool, a dict or a list of str") from None
            if not isfinite(x):
                raise ValueError(f"{where}: the value of {key!r:.40} is {value!r}, not finite")
            _push(b, g, x, n_features)
    return 0


cdef void _sort_row(int32_t *idx, float *val, int64_t n) noexcept nogil:
    """Insertion sort of a row by column (rows are short)."""
    cdef int64_t i, j
    cdef int32_t c
    cdef float v
    for i in range(1, n):
        c = idx[i]
        v = val[i]
        j = i - 1
        while j >= 0 and idx[j] > c:
            idx[j + 1] = idx[j]
            val[j + 1] = val[j]
            j -= 1
        idx[j + 1] = c
        val[j + 1] = v


cdef int64_t _merge_row(int32_t *idx, float *val, int64_t n) noexcept nogil:
    """Add the values of repeated columns (sorted row); the new length."""
    cdef int64_t i, k = 0
    if n == 0:
        return 0
    for i in range(1, n):
        if idx[i] == idx[k]:
            val[k] += val[i]
        else:
            k += 1
            idx[k] = idx[i]
            val[k] = val[i]
    return k + 1


def hash_sequences(X, Py_ssize_t n_features):
    """(data float32, indices int32, indptr int64, lengths int64): the CSR
    rows of every token of every sequence of X, and the sequences' lengths.

    X : list of sequences of tokens, a token a dict of features or a list
        of feature names (see the module docstring).
    """
    cdef Buffer b
    cdef Py_ssize_t q, t, n_seq, L, total = 0
    cdef int64_t row_start, kept
    cdef uint64_t nf = <uint64_t>n_features
    if not 1 <= n_features <= MAX_FEATURES:
        raise ValueError(f"n_features must be in [1, 2**31 - 1], got {n_features}")
    if isinstance(X, (str, bytes, dict)) or not hasattr(X, "__len__"):
        raise TypeError(f"X must be a list of sequences of feature dicts, got "
                        f"{type(X).__name__}")
    n_seq = len(X)
    lengths = np.empty(n_seq, dtype=np.int64)
    cdef int64_t[::1] lens = lengths
    indptr_list = []
    b.idx = NULL
    b.val = NULL
    b.n = 0
    b.cap = 0
    ptr = np.zeros(1024, dtype=np.int64)
    cdef int64_t[::1] pv = ptr
    cdef Py_ssize_t n_rows = 0
    try:
        for q in range(n_seq):
            seq = X[q]
            if isinstance(seq, (str, bytes, dict)) or not hasattr(seq, "__len__"):
                raise TypeError(f"X[{q}] must be a sequence of feature dicts (one a token), "
                                f"got {type(seq).__name__}")
            L = len(seq)
            lens[q] = L
            for t in range(L):
                tok = seq[t]
                row_start = b.n
                if type(tok) is dict:
                    _dict(&b, FNV_OFFSET, <dict>tok, False, nf, 0, f"X[{q}][{t}]")
                elif isinstance(tok, dict):
                    _dict(&b, FNV_OFFSET, dict(tok), False, nf, 0, f"X[{q}][{t}]")
                elif isinstance(tok, (list, tuple, set, frozenset)):
                    _names(&b, FNV_OFFSET, tok, False, nf, f"X[{q}][{t}]")
                else:
                    raise TypeError(f"X[{q}][{t}] is {tok!r:.40} ({type(tok).__name__}); a "
                                    "token is a dict of features or a list of feature names")
                _sort_row(b.idx + row_start, b.val + row_start, b.n - row_start)
                kept = _merge_row(b.idx + row_start, b.val + row_start, b.n - row_start)
                b.n = row_start + kept
                n_rows += 1
                if n_rows >= pv.shape[0]:
                    ptr = np.concatenate([ptr, np.zeros(pv.shape[0], dtype=np.int64)])
                    pv = ptr
                pv[n_rows] = b.n
        data = np.empty(b.n, dtype=np.float32)
        indices = np.empty(b.n, dtype=np.int32)
        if b.n:
            data[:] = <float[:b.n]>b.val
            indices[:] = <int32_t[:b.n]>b.idx
    finally:
        free(b.idx)
        free(b.val)
    return data, indices, ptr[:n_rows + 1].copy(), lengths


def label_codes(y, const int64_t[::1] lengths):
    """(codes int64 by token, the distinct labels sorted) of label
    sequences y, whose lengths must be ``lengths``."""
    cdef Py_ssize_t q, t, k = 0, n = 0, L
    cdef dict index = {}
    if isinstance(y, (str, bytes)) or not hasattr(y, "__len__"):
        raise TypeError(f"y must be a list of label sequences, got {type(y).__name__}")
    if len(y) != lengths.shape[0]:
        raise ValueError(f"X has {lengths.shape[0]} sequences but y has {len(y)}")
    for q in range(lengths.shape[0]):
        n += lengths[q]
    codes = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] c = codes
    for q in range(lengths.shape[0]):
        seq = y[q]
        if isinstance(seq, (str, bytes)) or not hasattr(seq, "__len__"):
            raise TypeError(f"y[{q}] must be a sequence of labels, got {type(seq).__name__}")
        L = len(seq)
        if L != lengths[q]:
            raise ValueError(f"sequence {q}: X has {lengths[q]} tokens but y has {L} labels")
        for t in range(L):
            label = seq[t]
            code = index.get(label)
            if code is None:
                if not isinstance(label, str):
                    raise TypeError(f"y[{q}][{t}] is {label!r:.40} "
                                    f"({type(label).__name__}); labels must be str")
                code = len(index)
                index[label] = code
            c[k] = <int64_t>code
            k += 1
    labels = sorted(index)
    rank = np.empty(len(labels), dtype=np.int64)
    for t, label in enumerate(labels):
        rank[index[label]] = t
    return (rank[codes] if n else codes), labels

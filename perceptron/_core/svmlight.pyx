# cython: language_level=3
"""svmlight / libsvm text: the compiled parser (csrc/svmlight.c) and writer.

``Parser`` wraps one ``ptn_svm_parser``: ``feed`` hands it a buffer of bytes
(cut anywhere; a cut line is carried inside the parser) and parses without
the GIL; ``take`` hands the rows parsed so far to numpy without a copy (the
arrays own the C buffers).  ``format_rows`` writes CSR rows as text, every
number in the shortest form that reads back to the same value.  The
streaming, the checks against ``n_features`` and the error messages live in
``perceptron/io/__init__.py``.
"""
import numpy as np

from cpython.buffer cimport PyBUF_FORMAT
from cpython.mem cimport PyMem_Free, PyMem_RawFree, PyMem_RawRealloc
from cython cimport floating
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strlen
from perceptron._core.pyapi cimport _c_bytes

cdef extern from "ptn_svmlight.h" nogil:
    ctypedef struct ptn_svm_parser:
        pass

    ctypedef struct ptn_svm_options:
        int value_type
        int index_type
        int base
        int64_t max_rows

    ctypedef struct ptn_svm_allocator:
        void *(*resize)(void *block, size_t size)
        void (*release)(void *block)

    ctypedef struct ptn_svm_rows:
        int64_t n_rows
        int64_t nnz
        void *data
        void *indices
        void *indptr
        double *labels

    ctypedef struct ptn_svm_error:
        int code
        int64_t line
        char message[256]
        char text[128]

    enum:
        PTN_SVM_FLOAT32
        PTN_SVM_FLOAT64
        PTN_SVM_INT32
        PTN_SVM_INT64
        PTN_SVM_BASE_AUTO
        PTN_SVM_BASE_ZERO
        PTN_SVM_BASE_ONE
        PTN_SVM_OK
        PTN_SVM_FULL
        PTN_SVM_ERR_LABEL
        PTN_SVM_ERR_FEATURE
        PTN_SVM_ERR_INDEX
        PTN_SVM_ERR_VALUE
        PTN_SVM_ERR_QID
        PTN_SVM_ERR_ZERO_INDEX
        PTN_SVM_ERR_INDEX_RANGE
        PTN_SVM_ERR_DUPLICATE
        PTN_SVM_ERR_TOO_MANY
        PTN_SVM_ERR_NO_MEMORY
        PTN_SVM_ERR_USAGE
        PTN_SVM_ERR_LINE_TOO_LONG
        PTN_SVM_ERR_NOT_BINARY

    ptn_svm_parser *ptn_svm_new_with(const ptn_svm_options *options,
                                     const ptn_svm_allocator *allocator)
    int ptn_svm_set_binary(ptn_svm_parser *p)
    int ptn_svm_set_widening(ptn_svm_parser *p)
    int ptn_svm_current_index_type(const ptn_svm_parser *p)
    void ptn_svm_free(ptn_svm_parser *p)
    int ptn_svm_feed(ptn_svm_parser *p, const char *buf, size_t length, size_t *consumed)
    int ptn_svm_set_max_line(ptn_svm_parser *p, int64_t max_bytes)
    void ptn_svm_label_signs(const ptn_svm_parser *p, int64_t *plus, int64_t *bare)
    int ptn_svm_finish(ptn_svm_parser *p)
    int ptn_svm_resolve_base(ptn_svm_parser *p)
    int ptn_svm_current_base(const ptn_svm_parser *p)
    int ptn_svm_take(ptn_svm_parser *p, ptn_svm_rows *out)
    int64_t ptn_svm_pending_rows(const ptn_svm_parser *p)
    int64_t ptn_svm_max_index(const ptn_svm_parser *p)
    int64_t ptn_svm_max_index_line(const ptn_svm_parser *p)
    int64_t ptn_svm_first_zero_line(const ptn_svm_parser *p)
    int64_t ptn_svm_lines(const ptn_svm_parser *p)
    const ptn_svm_error *ptn_svm_last_error(const ptn_svm_parser *p)

cdef extern from "Python.h":
    char *PyOS_double_to_string(double val, char format_code, int precision, int flags,
                                int *ptype) except NULL
    double PyOS_string_to_double(const char *s, char **endptr, object overflow_exception) \
        except? -1.0

OK = PTN_SVM_OK
FULL = PTN_SVM_FULL
BASE_AUTO = PTN_SVM_BASE_AUTO
BASE_ZERO = PTN_SVM_BASE_ZERO
BASE_ONE = PTN_SVM_BASE_ONE
ERR_ZERO_INDEX = PTN_SVM_ERR_ZERO_INDEX
ERR_INDEX_RANGE = PTN_SVM_ERR_INDEX_RANGE
ERR_TOO_MANY = PTN_SVM_ERR_TOO_MANY
ERR_NO_MEMORY = PTN_SVM_ERR_NO_MEMORY
ERR_LINE_TOO_LONG = PTN_SVM_ERR_LINE_TOO_LONG
ERR_NOT_BINARY = PTN_SVM_ERR_NOT_BINARY


cdef char *_FORMAT_BYTE = "B"


cdef class _Owned:
    """A block of the parser's allocator (Python's raw allocator) lent to
    numpy through the buffer protocol; freed with the last array that uses
    it."""
    cdef void *ptr
    cdef Py_ssize_t nbytes

    def __getbuffer__(self, Py_buffer *view, int flags):
        view.buf = self.ptr
        view.obj = self
        view.len = self.nbytes
        view.readonly = 0
        view.itemsize = 1
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = _FORMAT_BYTE
        view.ndim = 1
        view.shape = &self.nbytes
        view.strides = &view.itemsize
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer *view):
        pass

    def __dealloc__(self):
        PyMem_RawFree(self.ptr)


cdef object _adopt(void *ptr, int64_t count, dtype):
    """An ndarray of `count` items of `dtype` owning the C buffer `ptr`."""
    cdef _Owned owner = _Owned.__new__(_Owned)
    owner.ptr = ptr
    dtype = np.dtype(dtype)
    if count == 0:
        return np.empty(0, dtype=dtype)  # owner frees the block when dropped
    owner.nbytes = <Py_ssize_t>count * dtype.itemsize
    return np.frombuffer(owner, dtype=dtype, count=count)


cdef class Parser:
    """One streaming svmlight parser (not to be shared between threads).

    Parameters
    ----------
    value_dtype : float32 or float64
    index_dtype : int32 or int64
        Type of the column indices and row pointers.
    base : BASE_AUTO, BASE_ZERO or BASE_ONE
    max_rows : int
        ``feed`` stops (returning FULL) once this many rows wait to be
        taken; 0 for no limit.
    max_line : int
        The longest line accepted, in bytes; 0 for no limit, -1 for the C
        parser's default.
    binary : bool
        Keep the indices alone (``take`` gives None for the values); a
        value other than 1 is an error (ERR_NOT_BINARY) naming its line.
    widen : bool
        int32 indices (``index_dtype``) that become int64 ones when the
        input needs them, instead of an error; ``index_dtype`` says which
        the rows taken have.

    Every block, the parser's and the rows', comes from Python's raw
    allocator, so that ``tracemalloc`` counts the memory a parse takes.
    """
    cdef ptn_svm_parser *p
    cdef readonly object value_dtype
    cdef readonly bint binary
    cdef readonly bint widen

    def __cinit__(self, value_dtype, index_dtype, int base, int64_t max_rows=0,
                  int64_t max_line=-1, bint binary=False, bint widen=False):
        cdef ptn_svm_options options
        cdef ptn_svm_allocator allocator
        allocator.resize = PyMem_RawRealloc
        allocator.release = PyMem_RawFree
        self.binary = binary
        self.widen = widen
        self.value_dtype = np.dtype(value_dtype)
        index_dtype = np.dtype(index_dtype)
        if self.value_dtype == np.float32:
            options.value_type = PTN_SVM_FLOAT32
        elif self.value_dtype == np.float64:
            options.value_type = PTN_SVM_FLOAT64
        else:
            raise TypeError(f"value dtype must be float32 or float64, got {self.value_dtype}")
        if index_dtype == np.int32:
            options.index_type = PTN_SVM_INT32
        elif index_dtype == np.int64:
            options.index_type = PTN_SVM_INT64
        else:
            raise TypeError(f"index dtype must be int32 or int64, got {index_dtype}")
        if widen and index_dtype != np.int32:
            raise ValueError(f"widen: int32 indices widen to int64, not {index_dtype}")
        if base not in (PTN_SVM_BASE_AUTO, PTN_SVM_BASE_ZERO, PTN_SVM_BASE_ONE):
            raise ValueError(f"unknown base {base}")
        if max_rows < 0:
            raise ValueError(f"max_rows must be >= 0, got {max_rows}")
        options.base = base
        options.max_rows = max_rows
        if max_line < -1:
            raise ValueError(f"max_line must be >= -1, got {max_line}")
        self.p = ptn_svm_new_with(&options, &allocator)
        if self.p == NULL:
            raise MemoryError("no memory for an svmlight parser")
        if max_line >= 0:
            ptn_svm_set_max_line(self.p, max_line)
        if binary:
            ptn_svm_set_binary(self.p)
        if widen:
            ptn_svm_set_widening(self.p)

    def __dealloc__(self):
        ptn_svm_free(self.p)

    def feed(self, const unsigned char[::1] buf):
        """Parse buf (without the GIL); returns (status, bytes consumed).

        status is OK (all consumed), FULL (take the rows, then feed
        buf[consumed:]) or a negative error code (see ``error()``)."""
        cdef size_t consumed = 0
        cdef size_t n = buf.shape[0]
        cdef int status
        if n == 0:
            with nogil:
                status = ptn_svm_feed(self.p, NULL, 0, &consumed)
        else:
            with nogil:
                status = ptn_svm_feed(self.p, <const char *>&buf[0], n, &consumed)
        return status, consumed

    def finish(self):
        """The end of the input: parse a last line without a newline."""
        return ptn_svm_finish(self.p)

    def resolve_base(self):
        """Decide an automatic base now; returns the status."""
        return ptn_svm_resolve_base(self.p)

    def take(self):
        """The waiting rows as (data, indices, indptr, labels) numpy arrays
        (data None for a binary parser)."""
        cdef ptn_svm_rows rows
        cdef int status = ptn_svm_take(self.p, &rows)
        if status < 0:
            return None
        # each array adopts its buffer as soon as it exists, so that an
        # exception on the way leaks nothing
        data = None if self.binary else _adopt(rows.data, rows.nnz, self.value_dtype)
        index_dtype = self.index_dtype
        indices = _adopt(rows.indices, rows.nnz, index_dtype)
        indptr = _adopt(rows.indptr, rows.n_rows + 1, index_dtype)
        labels = _adopt(rows.labels, rows.n_rows, np.float64)
        return data, indices, indptr, labels

    def error(self):
        """(code, line, message, text) of the error that stopped the parser."""
        cdef const ptn_svm_error *e = ptn_svm_last_error(self.p)
        message = _c_bytes(e.message, strlen(e.message))
        text = _c_bytes(e.text, strlen(e.text))
        return (e.code, e.line, message.decode("utf-8", "backslashreplace"),
                text.decode("utf-8", "backslashreplace"))

    @property
    def index_dtype(self):
        """The dtype of the indices and row pointers of the rows taken: the
        one asked for, or int64 once a widening parser has widened."""
        if ptn_svm_current_index_type(self.p) == PTN_SVM_INT32:
            return np.dtype(np.int32)
        return np.dtype(np.int64)

    @property
    def base(self):
        return ptn_svm_current_base(self.p)

    @property
    def pending_rows(self):
        return ptn_svm_pending_rows(self.p)

    @property
    def max_index(self):
        return ptn_svm_max_index(self.p)

    @property
    def max_index_line(self):
        return ptn_svm_max_index_line(self.p)

    @property
    def first_zero_line(self):
        return ptn_svm_first_zero_line(self.p)

    @property
    def label_signs(self):
        """(positive labels written with a leading '+', positive labels without)."""
        cdef int64_t plus = 0, bare = 0
        ptn_svm_label_signs(self.p, &plus, &bare)
        return plus, bare

    @property
    def lines(self):
        return ptn_svm_lines(self.p)


# ------------------------------------------------------------------ writing

ctypedef fused index_t:
    int32_t
    int64_t

ctypedef fused label_t:
    int64_t
    double

cdef struct Text:
    char *buf
    size_t length
    size_t capacity


cdef int _reserve(Text *t, size_t more) except -1:
    cdef size_t need = t.length + more
    cdef size_t capacity = t.capacity if t.capacity else 4096
    cdef char *q
    if need <= t.capacity:
        return 0
    while capacity < need:
        capacity *= 2
    q = <char *>realloc(t.buf, capacity)
    if q == NULL:
        raise MemoryError("no memory for the svmlight text")
    t.buf = q
    t.capacity = capacity
    return 0


cdef int _put(Text *t, const char *s, size_t n) except -1:
    _reserve(t, n)
    memcpy(t.buf + t.length, s, n)
    t.length += n
    return 0


cdef int _put_int(Text *t, int64_t v) except -1:
    cdef char digits[24]
    cdef int i = 24
    # the magnitude as unsigned: -INT64_MIN does not fit in int64
    cdef unsigned long long u = <unsigned long long>v
    if v < 0:
        u = 0ULL - u
    while True:
        i -= 1
        digits[i] = <char>(48 + u % 10)
        u //= 10
        if u == 0:
            break
    if v < 0:
        i -= 1
        digits[i] = 45  # '-'
    return _put(t, &digits[i], 24 - i)


cdef int _put_double(Text *t, double v) except -1:
    """The shortest text that reads back as v (Python's repr, without '.0')."""
    cdef char *s = PyOS_double_to_string(v, b'r', 0, 0, NULL)
    cdef size_t n = 0
    while s[n]:
        n += 1
    try:
        _put(t, s, n)
    finally:
        PyMem_Free(s)
    return 0


cdef int _put_float(Text *t, float v) except -1:
    """The shortest text (6 to 9 significant digits) that reads back as the
    float32 v through a double, as the reader converts."""
    cdef char *s = NULL
    cdef int precision
    cdef size_t n = 0
    if v != v or v - v != 0:  # nan, inf: the double's text is the float's
        return _put_double(t, v)
    for precision in range(6, 10):
        s = PyOS_double_to_string(<double>v, b'g', precision, 0, NULL)
        if precision == 9 or <float>PyOS_string_to_double(s, NULL, None) == v:
            break
        PyMem_Free(s)
    while s[n]:
        n += 1
    try:
        _put(t, s, n)
    finally:
        PyMem_Free(s)
    return 0


def format_rows(const floating[::1] data, const index_t[::1] indices,
                const index_t[::1] indptr, const label_t[::1] labels,
                Py_ssize_t start, Py_ssize_t stop, int64_t index_offset):
    """Rows start..stop of a CSR matrix as svmlight lines (bytes).

    ``label index:value ...`` with index + index_offset; integer labels as
    integers, float labels and values in their shortest exact form.  The
    caller checked the CSR structure (sorted, in-range indices).
    """
    cdef Text t
    cdef Py_ssize_t i, k
    t.buf = NULL
    t.length = 0
    t.capacity = 0
    try:
        for i in range(start, stop):
            if label_t is int64_t:
                _put_int(&t, labels[i])
            else:
                _put_double(&t, labels[i])
            for k in range(indptr[i], indptr[i + 1]):
                _put(&t, b" ", 1)
                _put_int(&t, <int64_t>indices[k] + index_offset)
                _put(&t, b":", 1)
                if floating is float:
                    _put_float(&t, data[k])
                else:
                    _put_double(&t, data[k])
            _put(&t, b"\n", 1)
        return _c_bytes(t.buf, <Py_ssize_t>t.length) if t.length else b""
    finally:
        free(t.buf)

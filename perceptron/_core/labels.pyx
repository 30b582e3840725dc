# cython: language_level=3
"""Labels of at most two distinct values, encoded in one pass.

The usual target of a binary fit is an array of integers, booleans, whole
floats or fixed-width strings holding two values.  ``encode_two`` finds
them and writes the int8 signs of the binary rule (the greater label +1,
the lesser -1) in one pass over the labels, where the general encoding
(``perceptron._common.validation``: the finiteness and whole-number checks of
float labels, the distinct labels, a comparison per row, the signs) makes
several passes and temporary arrays: most of the fixed cost of a small fit.
Anything else (more than two values, NaN, infinity, non-whole floats, -0.0,
object and other dtypes, byte-swapped arrays) is left to the general path,
which gives the same result or the same error.
"""
import numpy as np

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_STRIDES, PyBUF_FORMAT,
                             PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE)
from libc.math cimport isfinite, floor, signbit
from libc.string cimport memcmp, memcpy, memset
from perceptron._core.buffers cimport buffer_data, BUF_SIGNED, BUF_UNSIGNED
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

# looked up once: a small fit's labels are encoded in a few microseconds
_ndarray = np.ndarray
_empty = np.empty
_INT8 = np.dtype(np.int8)

ctypedef fused label_t:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t
    float
    double


cdef inline bint _whole(double v) noexcept nogil:
    """A float label the general path takes as it is: finite, whole, not -0.0
    (which np.unique merges with 0.0, keeping whichever sorts first)."""
    return isfinite(v) and floor(v) == v and not (v == 0.0 and signbit(v))


cdef inline bint _mark_rest(const label_t *labels, Py_ssize_t second, Py_ssize_t n, label_t a,
                            label_t b, signed char *out) noexcept nogil:
    """out[i] = +1 where label i equals b, -1 elsewhere, for i from `second`
    on; whether some label there equals neither a nor b.  No branch on a
    label (random labels would mispredict every other one), contiguous
    labels and constant marks: the form gcc vectorizes for labels of up to
    32 bits.  Integer labels (float32 labels come as their bits)."""
    cdef label_t v
    cdef Py_ssize_t i
    cdef int bad = 0, eq_a, eq_b
    for i in range(second, n):
        v = labels[i]
        eq_a = v == a
        eq_b = v == b
        bad |= (eq_a | eq_b) ^ 1
        out[i] = 1 if eq_b else -1
    return bad != 0


cdef inline bint _mark_rest_64(const uint32_t *words, Py_ssize_t second, Py_ssize_t n,
                               const void *a, const void *b, signed char *out) noexcept nogil:
    """``_mark_rest`` for contiguous 64-bit labels, compared as their bits, two
    32-bit words at a time: the baseline x86-64 instruction set has no 64-bit
    vector comparison, and gcc vectorizes this form (float64 labels: 61 ->
    13 us for 32,561).  Equal bits are equal labels for integers; for floats
    too, a and b being whole and not -0.0: a label of equal value and other
    bits is -0.0 beside 0.0, and NaN has the bits of neither, both labels the
    general path must see (np.unique may keep a -0.0 as its class's value)."""
    cdef uint32_t a0, a1, b0, b1, lo, hi
    cdef Py_ssize_t i
    cdef int bad = 0, eq_a, eq_b
    memcpy(&a0, a, 4)
    memcpy(&a1, <const char *>a + 4, 4)
    memcpy(&b0, b, 4)
    memcpy(&b1, <const char *>b + 4, 4)
    for i in range(second, n):
        lo = words[2 * i]
        hi = words[2 * i + 1]
        eq_a = (lo == a0) & (hi == a1)
        eq_b = (lo == b0) & (hi == b1)
        bad |= (eq_a | eq_b) ^ 1
        out[i] = 1 if eq_b else -1
    return bad != 0


cdef Py_ssize_t _encode(const char *base, Py_ssize_t n, label_t first,
                        signed char *out) noexcept nogil:
    """Writes the signs of the n contiguous labels at base to out (the
    greater of two distinct labels +1, the lesser -1; -1 everywhere for one
    label).  Returns the position of the second distinct label, 0 when
    there is one label, -1 when there are more than two or a float label
    the general path must see.  Two phases: the run of labels equal to the
    first, then, from the second distinct label on, every label compared
    with both without a branch (a9a's 32,561 float64 labels in a fit: 78 ->
    13 us)."""
    cdef const label_t *labels = <const label_t *>base
    cdef label_t a = labels[0]
    cdef label_t b, v
    cdef uint32_t a_bits, b_bits
    cdef Py_ssize_t i, second = 0
    cdef bint bad
    if label_t is float or label_t is double:
        if not _whole(a):
            return -1
    for i in range(1, n):
        v = labels[i]
        if label_t is float or label_t is double:
            if v == 0.0 and signbit(v):
                return -1
        if v != a:
            second = i
            break
    if second == 0:
        memset(out, -1, <size_t>n)
        return 0
    b = labels[second]
    if label_t is float or label_t is double:
        if not _whole(b):  # NaN included
            return -1
    memset(out, -1, <size_t>second)
    if label_t is double or label_t is int64_t or label_t is uint64_t:
        bad = _mark_rest_64(<const uint32_t *>base, second, n, &a, &b, out)
    elif label_t is float:  # as their bits, as _mark_rest_64 compares float64 labels
        memcpy(&a_bits, &a, 4)
        memcpy(&b_bits, &b, 4)
        bad = _mark_rest(<const uint32_t *>base, second, n, a_bits, b_bits, out)
    else:
        bad = _mark_rest(labels, second, n, a, b, out)
    if bad:
        return -1
    if b < a:  # b is the lesser label: its rows are -1
        for i in range(n):
            out[i] = -out[i]
    return second


cdef int _text_less(const char *a, const char *b, Py_ssize_t itemsize, bint ucs4) noexcept nogil:
    """a < b for fixed-width strings as numpy orders them: bytes as unsigned
    bytes, str as code points (UCS4, native order); the padding NULs are
    smaller than any character, so a prefix sorts first."""
    cdef Py_ssize_t j
    cdef const uint32_t *ua
    cdef const uint32_t *ub
    if not ucs4:
        return memcmp(a, b, <size_t>itemsize) < 0
    ua = <const uint32_t *>a
    ub = <const uint32_t *>b
    for j in range(itemsize // 4):
        if ua[j] != ub[j]:
            return ua[j] < ub[j]
    return False


cdef extern from "ptn_labels.h" nogil:
    uint64_t _differ "ptn_bytes_differ" (const char *a, const char *b, size_t size)
    int ptn_mark_two_text(const char *base, size_t first, size_t n, size_t stride, size_t size,
                          const char *a, const char *b, size_t key, signed char lo,
                          signed char hi, signed char *out)


cdef Py_ssize_t _encode_text(const char *base, Py_ssize_t n, Py_ssize_t stride,
                             Py_ssize_t itemsize, bint ucs4, signed char *out) noexcept nogil:
    """``_encode`` for fixed-width strings: equal labels are equal bytes
    (numpy pads every item with NULs to the width)."""
    cdef const char *a = base
    cdef const char *b
    cdef Py_ssize_t i, key, second = 0
    cdef signed char lo, hi
    cdef int bad
    for i in range(1, n):
        if _differ(base + i * stride, a, itemsize):
            second = i
            break
    if second == 0:
        memset(out, -1, <size_t>n)
        return 0
    b = base + second * stride
    lo, hi = (-1, 1) if _text_less(a, b, itemsize, ucs4) else (1, -1)
    for i in range(second):
        out[i] = lo
    key = 0
    while a[key] == b[key]:
        key += 1
    bad = ptn_mark_two_text(base, second, n, stride, itemsize, a, b, key, lo, hi, out)
    return -1 if bad else second


cdef int _text_format(const char *fmt) noexcept:
    """b's' or b'w' for the format of one fixed-width bytes or str item in
    native byte order ("9s", "<9w"), or 0."""
    cdef int one = 1
    if fmt == NULL:
        return 0
    if fmt[0] == b'@' or fmt[0] == b'=' or (fmt[0] == b'<' and (<char *>&one)[0] == 1):
        fmt += 1
    while b'0' <= fmt[0] <= b'9':
        fmt += 1
    if (fmt[0] == b's' or fmt[0] == b'w') and fmt[1] == 0:
        return fmt[0]
    return 0


cdef int _format_code(const char *fmt) noexcept:
    """The struct code of a one-item format in native byte order, or 0."""
    cdef int one = 1
    if fmt == NULL:
        return b'B'
    if fmt[0] == b'@' or fmt[0] == b'=' or (fmt[0] == b'<' and (<char *>&one)[0] == 1):
        fmt += 1
    if fmt[0] == 0 or fmt[1] != 0:
        return 0
    return fmt[0]


def encode_two(y):
    """(signs, classes) of a 1-D array `y` of at most two distinct labels, or None.

    signs : int8 array of len(y): +1 where y equals the greater label, -1
        elsewhere (every row is -1 when y holds one label).
    classes : the distinct labels, sorted, in y's dtype (1 or 2 of them).

    None when the general path must decide: more than two labels, a float
    label that is not finite, not whole or -0.0, an empty y, or a dtype (or
    byte order) other than bool, the integers, float32, float64 and
    fixed-width bytes and str."""
    cdef Py_buffer view, dest
    cdef Py_ssize_t n, stride, second = -1, lesser, greater
    cdef int code, text
    cdef signed char *out
    cdef Py_ssize_t shape[1]
    # (datetimes and other kinds have no buffer format: numpy refuses to export them)
    if type(y) is not _ndarray:
        return None
    dtype = y.dtype
    kind = dtype.kind
    if kind not in "biufSU":
        return None
    if kind in "biuf" and y.ndim == 1 and not y.flags.c_contiguous:
        y = np.ascontiguousarray(y)  # a view with strides: its labels, contiguous
    try:
        PyObject_GetBuffer(y, &view, PyBUF_STRIDES | PyBUF_FORMAT)
    except (BufferError, ValueError, TypeError):
        return None
    try:
        if view.ndim != 1 or view.shape[0] == 0:
            return None
        n = view.shape[0]
        stride = view.strides[0]
        code = _format_code(view.format)
        text = _text_format(view.format)
        signs = _empty(n, _INT8)
        out = <signed char *>buffer_data(signs, BUF_SIGNED, 1, 1, True, shape, "signs")
        with nogil:
            if (code == b'b') and view.itemsize == 1:
                second = _encode(<const char *>view.buf, n, <int8_t>0, out)
            elif (code == b'B' or code == b'?') and view.itemsize == 1:
                second = _encode(<const char *>view.buf, n, <uint8_t>0, out)
            elif (code == b'h') and view.itemsize == 2:
                second = _encode(<const char *>view.buf, n, <int16_t>0, out)
            elif (code == b'H') and view.itemsize == 2:
                second = _encode(<const char *>view.buf, n, <uint16_t>0, out)
            elif (code == b'i' or code == b'l') and view.itemsize == 4:
                second = _encode(<const char *>view.buf, n, <int32_t>0, out)
            elif (code == b'I' or code == b'L') and view.itemsize == 4:
                second = _encode(<const char *>view.buf, n, <uint32_t>0, out)
            elif (code == b'l' or code == b'q') and view.itemsize == 8:
                second = _encode(<const char *>view.buf, n, <int64_t>0, out)
            elif (code == b'L' or code == b'Q') and view.itemsize == 8:
                second = _encode(<const char *>view.buf, n, <uint64_t>0, out)
            elif code == b'f' and view.itemsize == 4:
                second = _encode(<const char *>view.buf, n, <float>0, out)
            elif code == b'd' and view.itemsize == 8:
                second = _encode(<const char *>view.buf, n, <double>0, out)
            elif text == b's' and view.itemsize > 0:
                second = _encode_text(<const char *>view.buf, n, stride, view.itemsize, False,
                                      out)
            elif text == b'w' and view.itemsize > 0 and view.itemsize % 4 == 0:
                second = _encode_text(<const char *>view.buf, n, stride, view.itemsize, True,
                                      out)
        if second < 0:
            return None
        # the distinct labels, the lesser first (its rows have sign -1), copied
        # from y's buffer: a new array of y's dtype
        lesser = 0 if out[0] < 0 else second
        greater = second - lesser
        classes = _empty(2 if second else 1, dtype)
        PyObject_GetBuffer(classes, &dest, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)
        memcpy(dest.buf, <const char *>view.buf + lesser * stride, <size_t>view.itemsize)
        if second:
            memcpy(<char *>dest.buf + view.itemsize, <const char *>view.buf + greater * stride,
                   <size_t>view.itemsize)
        PyBuffer_Release(&dest)
        return signs, classes
    finally:
        PyBuffer_Release(&view)


ctypedef fused int_label_t:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t


cdef Py_ssize_t _greatest(const char *base, Py_ssize_t n, Py_ssize_t stride, Py_ssize_t limit,
                          int_label_t first) noexcept nogil:
    """The greatest label, or -1 when a label is negative or above `limit`."""
    cdef Py_ssize_t i
    cdef int_label_t v, hi = 0
    for i in range(n):
        v = (<const int_label_t *>(base + i * stride))[0]
        if v < 0 or <uint64_t>v > <uint64_t>limit:
            return -1
        if v > hi:
            hi = v
    return <Py_ssize_t>hi


cdef Py_ssize_t _count_classes(const char *base, Py_ssize_t n, Py_ssize_t stride,
                               int32_t *table, Py_ssize_t hi, int_label_t first) noexcept nogil:
    """Marks the labels present in table[0..hi], numbers them in increasing
    order (each present label's table entry becomes its class index) and
    returns how many there are."""
    cdef Py_ssize_t i, v, k = 0
    for i in range(n):
        table[<Py_ssize_t>(<const int_label_t *>(base + i * stride))[0]] = 1
    for v in range(hi + 1):
        if table[v]:
            table[v] = <int32_t>k
            k += 1
        else:
            table[v] = -1
    return k


cdef void _index_of(const char *base, Py_ssize_t n, Py_ssize_t stride, const int32_t *table,
                    int32_t *index, int_label_t first) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        index[i] = table[<Py_ssize_t>(<const int_label_t *>(base + i * stride))[0]]


cdef Py_ssize_t _dispatch_greatest(int code, Py_ssize_t itemsize, const char *base, Py_ssize_t n,
                                   Py_ssize_t stride, Py_ssize_t limit) noexcept nogil:
    if code == b'b' and itemsize == 1:
        return _greatest(base, n, stride, limit, <int8_t>0)
    if code == b'B' and itemsize == 1:
        return _greatest(base, n, stride, limit, <uint8_t>0)
    if code == b'h' and itemsize == 2:
        return _greatest(base, n, stride, limit, <int16_t>0)
    if code == b'H' and itemsize == 2:
        return _greatest(base, n, stride, limit, <uint16_t>0)
    if (code == b'i' or code == b'l') and itemsize == 4:
        return _greatest(base, n, stride, limit, <int32_t>0)
    if (code == b'I' or code == b'L') and itemsize == 4:
        return _greatest(base, n, stride, limit, <uint32_t>0)
    if (code == b'l' or code == b'q') and itemsize == 8:
        return _greatest(base, n, stride, limit, <int64_t>0)
    if (code == b'L' or code == b'Q') and itemsize == 8:
        return _greatest(base, n, stride, limit, <uint64_t>0)
    return -1


def encode_small_ints(y):
    """(index, classes) of a 1-D integer array `y` of small non-negative
    labels, or None.

    classes : the distinct labels, sorted, in y's dtype: ``np.unique(y)``.
    index : int32 array of len(y), the class of each label:
        ``np.searchsorted(classes, y).astype(np.int32)``.

    Counting instead of sorting: one pass finds the greatest label, one
    marks the labels present in a table of that many entries, one reads
    each label's class from it.  None when the general path must decide: a
    dtype other than the integers (or byte-swapped), an empty y, a negative
    label, a label greater than ``2 * len(y) + 256`` (the table stays in
    proportion to the data), or fewer than two distinct labels."""
    cdef Py_buffer view
    cdef Py_ssize_t n, stride, hi, k = 0, v, limit, j
    cdef int code
    cdef int32_t *table
    cdef int32_t *index_p
    cdef char *classes_p
    cdef Py_ssize_t shape[1]
    if type(y) is not np.ndarray or y.dtype.kind not in "iu":
        return None
    try:
        PyObject_GetBuffer(y, &view, PyBUF_STRIDES | PyBUF_FORMAT)
    except (BufferError, ValueError, TypeError):
        return None
    try:
        if view.ndim != 1 or view.shape[0] == 0:
            return None
        n = view.shape[0]
        stride = view.strides[0]
        code = _format_code(view.format)
        limit = 2 * n + 256
        with nogil:
            hi = _dispatch_greatest(code, view.itemsize, <const char *>view.buf, n, stride, limit)
        if hi < 0:
            return None
        table_arr = np.zeros(hi + 1, dtype=np.int32)
        table = <int32_t *>buffer_data(table_arr, BUF_SIGNED, 4, 1, True, shape, "table")
        index = np.empty(n, dtype=np.int32)
        index_p = <int32_t *>buffer_data(index, BUF_SIGNED, 4, 1, True, shape, "index")
        with nogil:
            if view.itemsize == 1:
                k = _count_classes(<const char *>view.buf, n, stride, table, hi, <uint8_t>0)
            elif view.itemsize == 2:
                k = _count_classes(<const char *>view.buf, n, stride, table, hi, <uint16_t>0)
            elif view.itemsize == 4:
                k = _count_classes(<const char *>view.buf, n, stride, table, hi, <uint32_t>0)
            else:
                k = _count_classes(<const char *>view.buf, n, stride, table, hi, <uint64_t>0)
        if k < 2:
            return None
        classes = np.empty(k, dtype=y.dtype)
        classes_p = <char *>buffer_data(classes, BUF_SIGNED if code in b"bhilq" else BUF_UNSIGNED,
                                        view.itemsize, 1, True, shape, "classes")
        with nogil:
            # the labels are non-negative and at most hi: the same bits in
            # the signed and the unsigned type of their size
            j = 0
            for v in range(hi + 1):
                if table[v] >= 0:
                    if view.itemsize == 1:
                        (<uint8_t *>classes_p)[j] = <uint8_t>v
                    elif view.itemsize == 2:
                        (<uint16_t *>classes_p)[j] = <uint16_t>v
                    elif view.itemsize == 4:
                        (<uint32_t *>classes_p)[j] = <uint32_t>v
                    else:
                        (<uint64_t *>classes_p)[j] = <uint64_t>v
                    j += 1
            if view.itemsize == 1:
                _index_of(<const char *>view.buf, n, stride, table, index_p, <uint8_t>0)
            elif view.itemsize == 2:
                _index_of(<const char *>view.buf, n, stride, table, index_p, <uint16_t>0)
            elif view.itemsize == 4:
                _index_of(<const char *>view.buf, n, stride, table, index_p, <uint32_t>0)
            else:
                _index_of(<const char *>view.buf, n, stride, table, index_p, <uint64_t>0)
        return index, classes
    finally:
        PyBuffer_Release(&view)

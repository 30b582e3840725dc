# cython: language_level=3
"""Structure checks of CSR arrays, one pass over indptr and indices.

The training and scoring loops trust CSR input (csrc/ptn_simd.h reads
``w[idx[k]]`` unchecked): this pass, run once at the Python boundary, is what
makes that safe.  It allocates nothing, so a matrix that is already
canonical is used in place, without a copy.
"""
from libc.stdint cimport int32_t, int64_t, uint16_t

import numpy as np

from perceptron.simd cimport ptn_simd, active_simd
from perceptron._core.rows cimport longest_row, ROW_IDX16_MAX

#: the longest binary row whose 16-bit indices the loops read as stored
#: (perceptron/_core/rows.pxd); longer rows take int32 indices
ROW16_MAX = ROW_IDX16_MAX

cdef extern from "ptn_csr_online.h" nogil:
    bint ptn_all_ones_f32(const float *v, size_t n)
    bint ptn_all_ones_f64(const double *v, size_t n)

ctypedef fused csr_index:
    int32_t
    int64_t

# results of check_structure, most severe first
cdef enum:
    OK = 0
    BAD_INDPTR_START = 1
    BAD_INDPTR_END = 2
    BAD_INDPTR_ORDER = 3
    NEGATIVE_INDEX = 4
    INDEX_TOO_LARGE = 5
    NOT_CANONICAL = 6

STATUS_OK = OK
STATUS_BAD_INDPTR_START = BAD_INDPTR_START
STATUS_BAD_INDPTR_END = BAD_INDPTR_END
STATUS_BAD_INDPTR_ORDER = BAD_INDPTR_ORDER
STATUS_NEGATIVE_INDEX = NEGATIVE_INDEX
STATUS_INDEX_TOO_LARGE = INDEX_TOO_LARGE
STATUS_NOT_CANONICAL = NOT_CANONICAL


cdef enum:
    # indices checked a block at a time, the row starts of a block right
    # after it, while the block is still in cache (one pass over memory)
    CHECK_BLOCK = 16384


cdef bint _canonical(const csr_index[::1] indices, const csr_index[::1] indptr, Py_ssize_t n,
                     Py_ssize_t nnz, Py_ssize_t n_features) noexcept:
    """Whether the common case holds: row pointers that never decrease (from
    0 to nnz, checked by the caller), every index in [0, n_features), and
    increasing columns in every row.  The descents kernel (csrc/ptn_simd.h)
    over indptr, then over indices a block at a time, each block followed by
    its row starts: an index array has as many descents as row starts where
    it descends exactly when no row has a column out of order."""
    cdef const ptn_simd *K = active_simd()
    cdef Py_ssize_t i = 1, lo, hi, start, stop, at_starts = 0
    cdef size_t descents = 0
    cdef int32_t lo32, hi32
    cdef int64_t lo64, hi64
    with nogil:
        if csr_index is int32_t:
            if K.descents_i32(<size_t>(n + 1), &indptr[0], 1, &lo32, &hi32) != 0:
                return False
        else:
            if K.descents_i64(<size_t>(n + 1), &indptr[0], 1, &lo64, &hi64) != 0:
                return False
        start = 0
        while start < nnz:
            # positions [start, stop) and the comparison of start with start - 1
            stop = min(nnz, start + CHECK_BLOCK)
            lo = start - 1 if start > 0 else 0
            if csr_index is int32_t:
                descents += K.descents_i32(<size_t>(stop - lo), &indices[lo], 0, &lo32, &hi32)
                if lo32 < 0 or hi32 >= n_features:
                    return False
            else:
                descents += K.descents_i64(<size_t>(stop - lo), &indices[lo], 0, &lo64, &hi64)
                if lo64 < 0 or hi64 >= n_features:
                    return False
            # the descents at the first column of a row (not the matrix's first)
            while i < n and indptr[i] < stop:
                lo = <Py_ssize_t>indptr[i]
                hi = <Py_ssize_t>indptr[i + 1]
                if 0 < lo < hi:
                    at_starts += indices[lo] <= indices[lo - 1]
                i += 1
            start = stop
    return descents == <size_t>at_starts


def check_structure(const csr_index[::1] indices, const csr_index[::1] indptr,
                    Py_ssize_t n_features):
    """(code, position) for CSR arrays of n_features columns.

    code is OK, one of the BAD_*/NEGATIVE_INDEX/INDEX_TOO_LARGE errors
    (position: the offending entry of indptr or indices), or NOT_CANONICAL
    when the structure is valid but some row has its columns out of
    increasing order or repeated (position: the first such entry).  A
    repeated column must be summed before the loops see the row (the sparse
    update would add it twice, the dot product too, which a dense row
    cannot); unsorted columns would change the order of the dot product's
    sum relative to a dense row.
    """
    cdef Py_ssize_t n = indptr.shape[0] - 1, nnz = indices.shape[0], i, k
    cdef Py_ssize_t lo, hi, unsorted = -1, position = 0
    cdef int code = OK
    cdef csr_index col, prev
    if n < 0:
        return BAD_INDPTR_END, 0
    if indptr[0] != 0:
        return BAD_INDPTR_START, 0
    if indptr[n] != nnz:
        return BAD_INDPTR_END, n
    if _canonical(indices, indptr, n, nnz, n_features):
        return OK, 0
    with nogil:
        # something is off: find what, and where, entry by entry
        for i in range(n):
            lo = <Py_ssize_t>indptr[i]
            hi = <Py_ssize_t>indptr[i + 1]
            if hi < lo or hi > nnz:
                code = BAD_INDPTR_ORDER
                position = i + 1
                break
            prev = -1
            for k in range(lo, hi):
                col = indices[k]
                if col < 0:
                    code = NEGATIVE_INDEX
                elif col >= n_features:
                    code = INDEX_TOO_LARGE
                elif col <= prev and unsorted < 0:
                    unsorted = k
                if code != OK:
                    position = k
                    break
                prev = col
            if code != OK:
                break
    if code == OK and unsorted >= 0:
        return NOT_CANONICAL, unsorted
    return code, position


def all_ones(data):
    """Whether every value of the C-contiguous float32 or float64 array
    `data` is exactly 1.0: one pass that most other data ends in its first
    block (csrc/ptn_csr_online.h, ptn_all_ones)."""
    cdef const float[::1] f32
    cdef const double[::1] f64
    cdef bint ones
    if data.shape[0] == 0:
        return False
    if data.dtype.itemsize == 4:
        f32 = data
        with nogil:
            ones = ptn_all_ones_f32(&f32[0], <size_t>f32.shape[0])
    else:
        f64 = data
        with nogil:
            ones = ptn_all_ones_f64(&f64[0], <size_t>f64.shape[0])
    return ones


def is_binary_values(data):
    """Whether `data` holds the values of binary CSR rows: a read-only view
    repeating one 1.0 (stride 0), which stores nothing per value."""
    return data.ndim == 1 and data.shape[0] > 1 and data.strides[0] == 0 and data[0] == 1


def loop_values(data, indptr):
    """(values, n) for the compiled loops' CSR entry points: `data` itself
    and -1; or, for binary rows (``is_binary_values``), an array of n ones
    of data's dtype, n the length of the longest row (at least 1), which the
    loops read as every row's values (perceptron/_core/rows.pxd).  Any
    other view repeating one value is made contiguous."""
    if data.ndim == 1 and data.shape[0] > 1 and data.strides[0] == 0:
        if data[0] == 1:
            ones = np.ones(max(longest_row(indptr), 1), dtype=data.dtype)
            return ones, ones.shape[0]
        data = np.ascontiguousarray(data)
    return data, -1


def max_row_length(indptr):
    """The most values a row of the int32 or int64 row pointers holds."""
    return longest_row(indptr)


def check_structure_u16(const uint16_t[::1] indices, indptr, Py_ssize_t n_features):
    """check_structure for 16-bit indices (never negative) beside int32 or
    int64 row pointers, one row at a time."""
    cdef const int32_t[::1] p32
    cdef const int64_t[::1] p64
    cdef Py_ssize_t n = indptr.shape[0] - 1, nnz = indices.shape[0], i, k, lo, hi, prev
    cdef Py_ssize_t position = 0, unsorted = -1
    cdef int code = OK
    cdef bint wide = indptr.dtype.itemsize != 4
    if n < 0:
        return BAD_INDPTR_END, 0
    if indptr[0] != 0:
        return BAD_INDPTR_START, 0
    if indptr[n] != nnz:
        return BAD_INDPTR_END, n
    if wide:
        p64 = indptr
    else:
        p32 = indptr
    with nogil:
        for i in range(n):
            if not wide:
                lo, hi = p32[i], p32[i + 1]
            else:
                lo, hi = p64[i], p64[i + 1]
            if hi < lo or hi > nnz:
                code = BAD_INDPTR_ORDER
                position = i + 1
                break
            prev = -1
            for k in range(lo, hi):
                if indices[k] >= n_features:
                    code = INDEX_TOO_LARGE
                    position = k
                    break
                if indices[k] <= prev and unsorted < 0:
                    unsorted = k
                prev = indices[k]
            if code != OK:
                break
    if code == OK and unsorted >= 0:
        return NOT_CANONICAL, unsorted
    return code, position

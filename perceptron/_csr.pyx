# cython: language_level=3
"""Structure checks of CSR arrays, one pass over indptr and indices.

The training and scoring loops trust CSR input (csrc/ptn_kernels.h reads
``w[idx[k]]`` unchecked): this pass, run once at the Python boundary, is what
makes that safe.  It allocates nothing, so a matrix that is already
canonical is used in place, without a copy.
"""
from libc.stdint cimport int32_t, int64_t

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
    cdef Py_ssize_t descents = 0
    cdef int code = OK
    cdef csr_index col, prev
    if n < 0:
        return BAD_INDPTR_END, 0
    if indptr[0] != 0:
        return BAD_INDPTR_START, 0
    if indptr[n] != nnz:
        return BAD_INDPTR_END, n
    with nogil:
        # the common case, a canonical matrix, in a loop without early exits
        # (which the compiler vectorises): increasing columns make the first
        # and last of a row bound the others
        for i in range(n):
            lo = <Py_ssize_t>indptr[i]
            hi = <Py_ssize_t>indptr[i + 1]
            if hi < lo or hi > nnz:
                descents = 1
                break
            if hi > lo:
                if indices[lo] < 0 or indices[hi - 1] >= n_features:
                    descents = 1
                    break
                for k in range(lo + 1, hi):
                    descents += indices[k] <= indices[k - 1]
    if descents == 0:
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

# cython: language_level=3
"""Canonical CSR arrays (each row's columns increasing, repeats summed) made
row by row, in time linear in the stored values.

A matrix whose rows are almost all canonical (hashed or hand-built data,
where a few rows draw a column twice) is copied by runs of good rows, and
only the rows out of order are sorted and summed, in the copy.  A global
sort of all the values (row, column) would cost O(nnz log nnz) for the few
rows that need it.  The repeats of a column are summed in their stored
order, left to right (x = v0; x += v1; ...), as scipy's ``sum_duplicates``
and ``toarray`` sum them; the sort that brings them together is stable.
"""
import numpy as np

from cython cimport floating
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport realloc, free
from libc.string cimport memcpy

ctypedef fused csr_index:
    int32_t
    int64_t

cdef enum:
    # rows up to this length are sorted by insertion, longer ones by merging
    # runs of this length (both stable)
    RUN = 16


cdef inline bint _increasing(const csr_index *c, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(1, m):
        if c[k] <= c[k - 1]:
            return False
    return True


cdef inline bint _non_decreasing(const csr_index *c, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(1, m):
        if c[k] < c[k - 1]:
            return False
    return True


cdef void _insertion_sort(csr_index *c, floating *v, Py_ssize_t m) noexcept nogil:
    """Stable: an entry moves left only past strictly larger columns."""
    cdef Py_ssize_t k, j
    cdef csr_index col
    cdef floating val
    for k in range(1, m):
        col = c[k]
        val = v[k]
        j = k
        while j > 0 and c[j - 1] > col:
            c[j] = c[j - 1]
            v[j] = v[j - 1]
            j -= 1
        c[j] = col
        v[j] = val


cdef void _merge(const csr_index *c, const floating *v, Py_ssize_t lo, Py_ssize_t mid,
                 Py_ssize_t hi, csr_index *oc, floating *ov) noexcept nogil:
    """[lo, mid) and [mid, hi) of (c, v), each sorted, into [lo, hi) of (oc,
    ov); on equal columns the left run's entry first (stable)."""
    cdef Py_ssize_t a = lo, b = mid, o = lo
    while a < mid and b < hi:
        if c[b] < c[a]:
            oc[o] = c[b]
            ov[o] = v[b]
            b += 1
        else:
            oc[o] = c[a]
            ov[o] = v[a]
            a += 1
        o += 1
    while a < mid:
        oc[o] = c[a]
        ov[o] = v[a]
        a += 1
        o += 1
    while b < hi:
        oc[o] = c[b]
        ov[o] = v[b]
        b += 1
        o += 1


cdef void _merge_sort(csr_index *c, floating *v, Py_ssize_t m, csr_index *tc,
                      floating *tv) noexcept nogil:
    """Bottom-up stable merge sort of (c, v) by c, with scratch (tc, tv) of
    length m: runs of RUN sorted by insertion, then merged pairwise, the
    passes going back and forth between the row and the scratch."""
    cdef Py_ssize_t lo, width = RUN, mid, hi
    cdef csr_index *sc = c
    cdef floating *sv = v
    cdef csr_index *dc = tc
    cdef floating *dv = tv
    cdef csr_index *xc
    cdef floating *xv
    lo = 0
    while lo < m:
        _insertion_sort(c + lo, v + lo, min(<Py_ssize_t>RUN, m - lo))
        lo += RUN
    while width < m:
        lo = 0
        while lo < m:
            mid = min(lo + width, m)
            hi = min(lo + 2 * width, m)
            _merge(sc, sv, lo, mid, hi, dc, dv)
            lo = hi
        xc = sc; sc = dc; dc = xc
        xv = sv; sv = dv; dv = xv
        width *= 2
    if sc != c:
        memcpy(c, sc, <size_t>m * sizeof(csr_index))
        memcpy(v, sv, <size_t>m * sizeof(floating))


cdef Py_ssize_t _sum_repeats(csr_index *c, floating *v, Py_ssize_t m) noexcept nogil:
    """(c, v) sorted by c: each column's values summed into its first entry,
    left to right, the row compacted; returns its new length."""
    cdef Py_ssize_t k, out = 0
    for k in range(m):
        if out > 0 and c[k] == c[out - 1]:
            v[out - 1] += v[k]
        else:
            c[out] = c[k]
            v[out] = v[k]
            out += 1
    return out


def canonical_rows(const floating[::1] data, const csr_index[::1] indices,
                   const csr_index[::1] indptr):
    """New (data, indices, indptr) with every row's columns increasing and
    repeats summed, or None when every row already is so (nothing copied).

    The structure must be valid (perceptron._core.csr.check_structure): indptr
    from 0 to nnz, never decreasing.  The arrays given are never written;
    the new ones keep their dtypes (data and indices may be views of longer
    buffers when repeats were summed).
    """
    cdef Py_ssize_t n = indptr.shape[0] - 1, nnz = indices.shape[0]
    cdef Py_ssize_t i, lo, hi, m, kept, first = -1, shift = 0, pending = 0, cap = 0
    cdef csr_index *tc = NULL
    cdef floating *tv = NULL
    cdef void *grown
    cdef bint failed = False
    if nnz == 0:
        return None
    cdef const floating *sd = &data[0]
    cdef const csr_index *si = &indices[0]
    with nogil:
        for i in range(n):
            if not _increasing(si + indptr[i], <Py_ssize_t>(indptr[i + 1] - indptr[i])):
                first = i
                break
    if first < 0:
        return None
    out_data = np.empty(nnz, dtype=np.asarray(data).dtype)
    out_indices = np.empty(nnz, dtype=np.asarray(indices).dtype)
    out_indptr = np.empty(n + 1, dtype=np.asarray(indptr).dtype)
    cdef floating[::1] od_view = out_data
    cdef csr_index[::1] oi_view = out_indices
    cdef csr_index[::1] op = out_indptr
    cdef floating *od = &od_view[0]
    cdef csr_index *oi = &oi_view[0]
    with nogil:
        # rows before `first` are canonical: their pointers are unchanged and
        # their values are copied with the next run of good rows
        for i in range(first + 1):
            op[i] = indptr[i]
        for i in range(first, n):
            lo = <Py_ssize_t>indptr[i]
            hi = <Py_ssize_t>indptr[i + 1]
            m = hi - lo
            if not _increasing(si + lo, m):
                # the good rows since `pending`, then this row, into the copy
                if lo > pending:
                    memcpy(od + (pending - shift), sd + (pending), <size_t>(lo - pending) * sizeof(floating))
                    memcpy(oi + (pending - shift), si + (pending), <size_t>(lo - pending) * sizeof(csr_index))
                memcpy(od + (lo - shift), sd + (lo), <size_t>m * sizeof(floating))
                memcpy(oi + (lo - shift), si + (lo), <size_t>m * sizeof(csr_index))
                if not _non_decreasing(oi + (lo - shift), m):
                    if m <= RUN:
                        _insertion_sort(oi + (lo - shift), od + (lo - shift), m)
                    else:
                        if m > cap:
                            grown = realloc(tc, <size_t>m * sizeof(csr_index))
                            if grown == NULL:
                                failed = True
                                break
                            tc = <csr_index *>grown
                            grown = realloc(tv, <size_t>m * sizeof(floating))
                            if grown == NULL:
                                failed = True
                                break
                            tv = <floating *>grown
                            cap = m
                        _merge_sort(oi + (lo - shift), od + (lo - shift), m, tc, tv)
                kept = _sum_repeats(oi + (lo - shift), od + (lo - shift), m)
                shift += m - kept
                pending = hi
            op[i + 1] = <csr_index>(hi - shift)
        if not failed and nnz > pending:
            memcpy(od + (pending - shift), sd + (pending), <size_t>(nnz - pending) * sizeof(floating))
            memcpy(oi + (pending - shift), si + (pending), <size_t>(nnz - pending) * sizeof(csr_index))
    free(tc)
    free(tv)
    if failed:
        raise MemoryError("no memory for the scratch of a CSR row's sort")
    if shift:
        return out_data[:nnz - shift], out_indices[:nnz - shift], out_indptr
    return out_data, out_indices, out_indptr

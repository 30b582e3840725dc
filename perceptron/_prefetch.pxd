# Software prefetching of the rows a loop is about to read (csrc/ptn_prefetch.h).
#
# A loop over rows larger than the caches is bound by memory; naming the row a
# few kilobytes ahead keeps more cache-line requests in flight than the
# hardware prefetchers do on their own, and is the only help at all when the
# rows are visited in random order.  Data that fits in cache gains nothing,
# so the loops skip it there.

cdef extern from "ptn_prefetch.h" nogil:
    void ptn_prefetch_range(const void *p, size_t nbytes)

cdef enum:
    # how far ahead of the current row to prefetch, in bytes of rows
    PREFETCH_BYTES = 8192
    # data smaller than this stays in cache from one pass to the next
    PREFETCH_MIN_DATA_BYTES = 2097152


cdef inline Py_ssize_t rows_ahead(Py_ssize_t n_rows, size_t row_bytes) noexcept nogil:
    """Rows between the one read and the one prefetched; n_rows (never) for small data."""
    if <size_t>n_rows * row_bytes < PREFETCH_MIN_DATA_BYTES or row_bytes == 0:
        return n_rows
    return max(2, min(64, <Py_ssize_t>(PREFETCH_BYTES // row_bytes)))

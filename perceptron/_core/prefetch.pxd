# Software prefetching of the rows a loop is about to read (csrc/ptn_prefetch.h).
#
# A loop over rows larger than the caches is bound by memory; naming the row a
# few kilobytes ahead keeps more cache-line requests in flight than the
# hardware prefetchers do on their own, and is the only help at all when the
# rows are visited in random order.  Data that fits in cache gains nothing,
# so the loops skip it there.

from libc.stddef cimport ptrdiff_t

from perceptron.simd cimport prefetch_sequential

cdef extern from "ptn_prefetch.h" nogil:
    void ptn_prefetch_range(const void *p, size_t nbytes)
    void ptn_prefetch_range_l1(const void *p, size_t nbytes)
    # rows read out of order up to this size are also asked for into L1,
    # this many rows ahead (the reasons and figures are in the header)
    enum: PTN_PREFETCH_NEAR_ROWS
    enum: PTN_PREFETCH_NEAR_MAX_ROW_BYTES
    void ptn_prefetch_write_range(const void *p, size_t nbytes)

cdef enum:
    # how far ahead of the current row to prefetch, in bytes of rows: rows
    # that sit in the last-level cache read fastest named 10-25 KB ahead,
    # and rows from memory lose nothing there (200,000 rows of 400 B to
    # 2 KB, in order and shuffled, against benchmarks/floor.c's passes at
    # 4 to 48 rows ahead)
    PREFETCH_BYTES = 24576
    # ... and at most this many rows: a row of a few cache lines takes less
    # time than a memory access, so more rows must be in flight, but past
    # this count the extra requests only wait in the queues (random rows of
    # 128 bytes: 16 rows ahead 24 ns a row, 64 rows ahead 28 ns; 32 rows as
    # fast as 16)
    PREFETCH_MAX_ROWS = 32
    # CSR rows: their values and indices fit in L3 more often, whose latency
    # is a third of memory's (a9a shuffled: 8 rows ahead 702 us an epoch, 16
    # rows 779 us, 36 rows 808 us)
    PREFETCH_MAX_CSR_ROWS = 8
    # data smaller than this stays in cache from one pass to the next
    PREFETCH_MIN_DATA_BYTES = 2097152
    # A one-vs-rest epoch scores each row against every class, ten times a
    # binary row's work for ten classes: its shuffled rows smaller than this
    # are asked for into L1 only, PTN_PREFETCH_NEAR_ROWS ahead, and larger
    # ones as the scan asks for them (into L2 far ahead, and up to
    # PTN_PREFETCH_NEAR_MAX_ROW_BYTES into L1 near).  AMD EPYC, Zen 4, 10
    # classes, shuffled, ms an epoch, L2 alone / L2 and L1 / L1 alone: rows
    # of 200 B 42 / 23.6 / 23.1, 400 B 24 / 17.2 / 15.2, 800 B (float32)
    # 12.3 / 10.6 / 11.0, 800 B (float64) 10.8 / 8.7 / 9.7, 1 KB 8.2 /
    # 7.5 / 9.0; 3 classes of 400 B 13.9 with L2 alone, 8.9 with L1 alone
    OVR_L1_ONLY_MAX_ROW_BYTES = 512


cdef inline Py_ssize_t rows_ahead(Py_ssize_t n_rows, size_t row_bytes,
                                  Py_ssize_t max_rows=PREFETCH_MAX_ROWS) noexcept nogil:
    """Rows between the one read and the one prefetched; n_rows (never) for small data."""
    if <size_t>n_rows * row_bytes < PREFETCH_MIN_DATA_BYTES or row_bytes == 0:
        return n_rows
    return max(2, min(max_rows, <Py_ssize_t>(PREFETCH_BYTES // row_bytes)))


cdef inline bint rows_rise(const ptrdiff_t *rows, Py_ssize_t n_rows) noexcept nogil:
    """Whether the order `rows` starts by rising (0, 1, 2, ..., or the rows
    of positive weight in order): its first 16 entries, which a shuffled
    order of 16 rows or more passes once in 16! (about 2e13).  It decides
    a prefetch distance only, never a result."""
    cdef Py_ssize_t k
    for k in range(1, min(n_rows, 16)):
        if rows[k] <= rows[k - 1]:
            return False
    return True


cdef inline Py_ssize_t order_ahead(const ptrdiff_t *rows, Py_ssize_t n_rows, size_t row_bytes,
                                   Py_ssize_t max_rows=PREFETCH_MAX_ROWS) noexcept nogil:
    """rows_ahead for rows read in the order `rows` (NULL: 0, 1, 2, ...):
    n_rows (never) when they are read in rising order on a CPU whose own
    prefetchers stream such rows faster without software requests
    (perceptron.simd.prefetch_sequential)."""
    if not prefetch_sequential() and (rows == NULL or rows_rise(rows, n_rows)):
        return n_rows
    return rows_ahead(n_rows, row_bytes, max_rows)

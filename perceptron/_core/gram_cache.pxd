# The Gram cache of the kernel perceptron's dual fit (perceptron/_core/kernel.pyx):
# at most `capacity` columns of the Gram matrix, kept by a segmented LRU
# (Karedla, Love and Wherry 1994).

from libc.stdint cimport int64_t

cdef enum:
    # the two segments of the cache (Karedla, Love and Wherry 1994): new
    # columns enter on probation; a column used again is protected
    PROBATION = 0
    PROTECTED = 1


cdef struct GramCache:
    double *data                # capacity columns of n values each
    Py_ssize_t n
    Py_ssize_t capacity
    Py_ssize_t used
    Py_ssize_t protected_capacity
    Py_ssize_t *slot_of         # (n,) slot of a column, -1 when not cached
    Py_ssize_t *column_of       # (capacity,) column held by a slot
    Py_ssize_t *prev            # (capacity,) lists of the segments, head = most recent
    Py_ssize_t *next
    Py_ssize_t *seg             # (capacity,) segment of a slot
    Py_ssize_t *stamp           # (capacity,) round in which a slot was filled
    Py_ssize_t head[2]
    Py_ssize_t tail[2]
    Py_ssize_t size[2]
    Py_ssize_t round            # slots filled in the current round are never evicted
    int64_t computed            # columns computed (cache misses)
    int64_t reused              # updates served from a cached column (hits)


cdef inline void _cache_init(GramCache *c, double *data, Py_ssize_t n, Py_ssize_t capacity,
                      Py_ssize_t *slot_of, Py_ssize_t *slots) noexcept nogil:
    """An empty cache; slot_of (n,) and slots (5, capacity) filled with -1."""
    c.data = data
    c.n = n
    c.capacity = capacity
    c.used = 0
    c.protected_capacity = capacity * 4 // 5
    c.slot_of = slot_of
    c.column_of = slots
    c.prev = slots + capacity
    c.next = slots + 2 * capacity
    c.seg = slots + 3 * capacity
    c.stamp = slots + 4 * capacity
    c.head[0] = c.head[1] = c.tail[0] = c.tail[1] = -1
    c.size[0] = c.size[1] = 0
    c.round = 0
    c.computed = 0
    c.reused = 0


cdef inline void _lru_unlink(GramCache *c, Py_ssize_t s) noexcept nogil:
    cdef Py_ssize_t g = c.seg[s]
    if c.prev[s] >= 0:
        c.next[c.prev[s]] = c.next[s]
    else:
        c.head[g] = c.next[s]
    if c.next[s] >= 0:
        c.prev[c.next[s]] = c.prev[s]
    else:
        c.tail[g] = c.prev[s]
    c.size[g] -= 1


cdef inline void _lru_push_front(GramCache *c, Py_ssize_t s, Py_ssize_t g) noexcept nogil:
    c.seg[s] = g
    c.prev[s] = -1
    c.next[s] = c.head[g]
    if c.head[g] >= 0:
        c.prev[c.head[g]] = s
    c.head[g] = s
    if c.tail[g] < 0:
        c.tail[g] = s
    c.size[g] += 1


cdef inline void _cache_touch(GramCache *c, Py_ssize_t s) noexcept nogil:
    """A hit: the column becomes the most recent protected one; a protected
    column pushed out of its segment goes back on probation."""
    cdef Py_ssize_t t
    if c.seg[s] == PROTECTED and c.head[PROTECTED] == s:
        return
    _lru_unlink(c, s)
    _lru_push_front(c, s, PROTECTED)
    if c.size[PROTECTED] > c.protected_capacity:
        t = c.tail[PROTECTED]
        _lru_unlink(c, t)
        _lru_push_front(c, t, PROBATION)


cdef inline Py_ssize_t _cache_acquire(GramCache *c, Py_ssize_t j) noexcept nogil:
    """A slot for column j (not cached), on probation: a free one, else the
    least recent probation column's (the least recent protected one's if
    probation holds only columns of this round).  The caller fills it."""
    cdef Py_ssize_t s
    if c.used < c.capacity:
        s = c.used
        c.used += 1
    else:
        s = c.tail[PROBATION]
        while s >= 0 and c.stamp[s] == c.round:
            s = c.prev[s]
        if s < 0:
            s = c.tail[PROTECTED]
        c.slot_of[c.column_of[s]] = -1
        _lru_unlink(c, s)
    c.column_of[s] = j
    c.slot_of[j] = s
    c.stamp[s] = c.round
    _lru_push_front(c, s, PROBATION)
    return s

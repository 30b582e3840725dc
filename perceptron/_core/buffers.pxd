# The data pointer of a C-contiguous array, checked, through the buffer
# protocol (PEP 3118) without making a typed memoryview.
#
# A typed memoryview costs a memoryview object and its bookkeeping on every
# call; a call of the loops takes a dozen arrays (the state's, the labels,
# the weights), which made these acquisitions most of the fixed cost of a
# small fit.  Here the buffer is requested with the same flags a memoryview
# of ``T[::1]`` (or ``T[:, ::1]``) requests, its item type, size and number
# of dimensions are checked, and the view is released at once: the caller
# keeps a reference to the array for as long as it uses the pointer (numpy
# arrays do not move their data while they are referenced).

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_C_CONTIGUOUS,
                             PyBUF_FORMAT, PyBUF_WRITABLE)

# the item kinds a caller asks for
cdef enum:
    BUF_FLOAT = 0
    BUF_SIGNED = 1
    BUF_UNSIGNED = 2


cdef inline bint _little_endian() noexcept nogil:
    cdef int one = 1
    return (<char *>&one)[0] == 1


cdef inline int _kind_of(const char *fmt) noexcept:
    """The kind (BUF_*) of a one-item struct format in native byte order, or -1."""
    if fmt == NULL:
        return BUF_UNSIGNED  # no format: unsigned bytes (PEP 3118)
    if fmt[0] == b'@' or fmt[0] == b'=' or (fmt[0] == b'<' and _little_endian()):
        fmt += 1
    if fmt[0] == 0 or fmt[1] != 0:
        return -1
    if fmt[0] == b'f' or fmt[0] == b'd':
        return BUF_FLOAT
    if fmt[0] == b'b' or fmt[0] == b'h' or fmt[0] == b'i' or fmt[0] == b'l' or fmt[0] == b'q':
        return BUF_SIGNED
    if fmt[0] == b'B' or fmt[0] == b'H' or fmt[0] == b'I' or fmt[0] == b'L' or fmt[0] == b'Q':
        return BUF_UNSIGNED
    return -1


cdef inline void *buffer_data(obj, int kind, Py_ssize_t itemsize, int ndim, bint writable,
                              Py_ssize_t *shape, str name) except NULL:
    """The data of `obj`, a C-contiguous buffer of `ndim` dimensions of
    items of `kind` and `itemsize` bytes (writable when asked); its shape in
    shape[0:ndim].  Raises ValueError naming `name` otherwise (and the
    buffer protocol's own error for a non-contiguous or read-only array)."""
    cdef Py_buffer view
    cdef int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT
    cdef int i
    cdef void *data
    if obj is None:
        raise ValueError(f"run_epochs: {name} is None")
    if writable:
        flags |= PyBUF_WRITABLE
    PyObject_GetBuffer(obj, &view, flags)
    try:
        if _kind_of(view.format) != kind or view.itemsize != itemsize or view.ndim != ndim:
            raise ValueError(f"run_epochs: {name} has the wrong dtype or number of dimensions "
                             f"({view.itemsize} bytes an item, {view.ndim} dimension(s); "
                             f"expected {itemsize} and {ndim})")
        for i in range(ndim):
            shape[i] = view.shape[i]
        data = view.buf
        if data == NULL:
            raise ValueError(f"run_epochs: {name} has no data")
        return data
    finally:
        PyBuffer_Release(&view)

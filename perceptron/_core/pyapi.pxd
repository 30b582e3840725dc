# Python C-API functions that Cython's own cpython/*.pxd declare with other
# signatures: declared here once, cimported where used.

cdef extern from "Python.h":
    # bytes from a const buffer (cpython.bytes declares a char * one)
    bytes _c_bytes "PyBytes_FromStringAndSize" (const char *s, Py_ssize_t n)

# cython: language_level=3
"""The model file container, read by the C code of csrc/model_file.c.

``read_container`` runs ``ptn_model_file_open`` (every check of the binary
layout) on a buffer and returns what Python needs to rebuild an estimator:
the JSON header's bytes and the table of arrays.  ``linear_view`` runs
``ptn_model_file_linear``, the function a C program calls to score a linear
model from a file, so tests can check that C reads what Python wrote.  The
layout itself is documented in csrc/ptn_model_file.h; the writer is
``perceptron.io._model_file``.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from perceptron.model cimport ptn_linear_model
from perceptron._core.pyapi cimport _c_bytes

cdef extern from "ptn_model_file.h" nogil:
    ctypedef struct ptn_mf_array:
        char name[32]
        int32_t dtype
        int32_t ndim
        uint64_t shape[4]
        uint64_t count
        uint64_t offset
        uint64_t nbytes
        const void *data

    ctypedef struct ptn_model_file:
        const unsigned char *base
        uint64_t size
        uint32_t version
        uint32_t linear_kind
        uint32_t n_arrays
        const char *header
        uint64_t header_size
        char error[256]

    int ptn_model_file_open(ptn_model_file *mf, const void *buffer, size_t size)
    int ptn_model_file_array(ptn_model_file *mf, uint32_t i, ptn_mf_array *out)
    int ptn_model_file_linear(ptn_model_file *mf, ptn_linear_model *model)
    size_t ptn_mf_dtype_size(int dtype)
    uint32_t ptn_crc32(uint32_t crc, const void *data, size_t n)

    enum:
        PTN_MODEL_FILE_VERSION
        PTN_MODEL_FILE_PREAMBLE_SIZE
        PTN_MODEL_FILE_ENTRY_SIZE
        PTN_MODEL_FILE_ALIGN
        PTN_MODEL_FILE_MAX_ARRAYS
        PTN_MODEL_FILE_MAX_NDIM
        PTN_MF_OK
        PTN_MF_BOOL
        PTN_MF_INT8
        PTN_MF_UINT8
        PTN_MF_INT16
        PTN_MF_UINT16
        PTN_MF_INT32
        PTN_MF_UINT32
        PTN_MF_INT64
        PTN_MF_UINT64
        PTN_MF_FLOAT32
        PTN_MF_FLOAT64

    uint64_t PTN_MODEL_FILE_MAX_HEADER
    const char *PTN_MODEL_FILE_MAGIC

MAGIC = PTN_MODEL_FILE_MAGIC[:8]
VERSION = PTN_MODEL_FILE_VERSION
PREAMBLE_SIZE = PTN_MODEL_FILE_PREAMBLE_SIZE
ENTRY_SIZE = PTN_MODEL_FILE_ENTRY_SIZE
ALIGN = PTN_MODEL_FILE_ALIGN
MAX_ARRAYS = PTN_MODEL_FILE_MAX_ARRAYS
MAX_NDIM = PTN_MODEL_FILE_MAX_NDIM
MAX_HEADER = PTN_MODEL_FILE_MAX_HEADER

# dtype code -> numpy dtype string (little-endian), and back
DTYPES = {
    PTN_MF_BOOL: "|b1", PTN_MF_INT8: "|i1", PTN_MF_UINT8: "|u1", PTN_MF_INT16: "<i2",
    PTN_MF_UINT16: "<u2", PTN_MF_INT32: "<i4", PTN_MF_UINT32: "<u4", PTN_MF_INT64: "<i8",
    PTN_MF_UINT64: "<u8", PTN_MF_FLOAT32: "<f4", PTN_MF_FLOAT64: "<f8",
}
CODES = {v: k for k, v in DTYPES.items()}


class ContainerError(ValueError):
    """The C reader refused the buffer; args: (status, message)."""


cdef _error(int status, ptn_model_file *mf):
    raise ContainerError(status, mf.error.decode("utf-8", "backslashreplace"))


def read_container(const unsigned char[::1] buf):
    """Check a model file held in buf; return a dict with version,
    linear_kind, header (bytes) and arrays: a list of (name, dtype string,
    shape, offset, nbytes), in table order."""
    cdef ptn_model_file mf
    cdef ptn_mf_array a
    cdef int status
    cdef uint32_t i
    cdef size_t n = buf.shape[0]
    cdef const unsigned char *p = &buf[0] if n else <const unsigned char *>b""
    with nogil:
        status = ptn_model_file_open(&mf, p, n)
    if status != PTN_MF_OK:
        _error(status, &mf)
    arrays = []
    for i in range(mf.n_arrays):
        status = ptn_model_file_array(&mf, i, &a)
        if status != PTN_MF_OK:
            _error(status, &mf)
        arrays.append((a.name.decode("ascii"), DTYPES[a.dtype],
                       tuple(int(a.shape[d]) for d in range(a.ndim)), int(a.offset),
                       int(a.nbytes)))
    return {
        "version": int(mf.version),
        "linear_kind": int(mf.linear_kind),
        "header": _c_bytes(mf.header, <Py_ssize_t>mf.header_size),
        "arrays": arrays,
    }


def linear_view(const unsigned char[::1] buf):
    """What a C program sees of the linear model in buf, through
    ptn_model_file_linear: (kind, dtype code, n_rows, n_features, coef
    offset, intercept offset), offsets counted from the buffer's start."""
    cdef ptn_model_file mf
    cdef ptn_linear_model m
    cdef int status
    cdef size_t n = buf.shape[0]
    cdef const unsigned char *p = &buf[0] if n else <const unsigned char *>b""
    status = ptn_model_file_open(&mf, p, n)
    if status == PTN_MF_OK:
        status = ptn_model_file_linear(&mf, &m)
    if status != PTN_MF_OK:
        _error(status, &mf)
    return (m.kind, m.dtype, m.n_rows, m.n_features,
            <size_t>m.coef - <size_t>p, <size_t>m.intercept - <size_t>p)


def crc32(const unsigned char[::1] buf, uint32_t crc=0):
    """CRC-32 of buf by the C reader's code (the same as zlib.crc32)."""
    cdef size_t n = buf.shape[0]
    if n == 0:
        return crc
    return ptn_crc32(crc, &buf[0], n)

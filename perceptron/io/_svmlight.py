"""svmlight / libsvm data files: the Python side of the streaming parser in
C (``csrc/svmlight.c``) and of the writer.  The format and the three
functions, :func:`load_svmlight`, :func:`iter_svmlight` and
:func:`dump_svmlight`, are documented where they are public,
:mod:`perceptron.io`; they live here, below the estimators, so that
``fit_stream`` reads a file without importing the public facade.
"""
from __future__ import annotations

import io as _io
import numbers
import os
import stat
from typing import Any, Iterator, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from perceptron._core import csr as _csr
from perceptron._core import svmlight as _svmlight
from perceptron._common.validation import (CSR_INDEX_TOO_LARGE, CSR_NEGATIVE_INDEX,
                                           CSR_NOT_CANONICAL, CSR_OK, CSRData, binary_values,
                                           canonical_csr, csr_structure, csr_to_dense,
                                           csr_to_scipy)
from perceptron.exceptions import SvmlightFormatError

__all__ = ["load_svmlight", "iter_svmlight", "dump_svmlight", "DEFAULT_BUFFER_SIZE",
           "DEFAULT_MAX_LINE_LENGTH"]

#: Bytes read from the file at a time by the svmlight readers (1 MiB: a buffer that stays
#: in the CPU cache parses faster than a larger one).
DEFAULT_BUFFER_SIZE = 1 << 20

#: The longest line the svmlight readers accept by default, in bytes (64 MiB): far beyond
#: any real row, and a bound on the memory one line can take (an endless line, a binary
#: file read by mistake).
DEFAULT_MAX_LINE_LENGTH = 64 << 20

_OUTPUTS = ("scipy", "csr", "dense")


# ------------------------------------------------------------------ helpers

def _check_zero_based(zero_based):
    if isinstance(zero_based, str):
        if zero_based == "auto":
            return _svmlight.BASE_AUTO
    elif isinstance(zero_based, (bool, np.bool_)):
        return _svmlight.BASE_ZERO if zero_based else _svmlight.BASE_ONE
    raise ValueError(f"zero_based must be True, False or 'auto', got {zero_based!r}")


def _check_dtype(dtype, name, allowed):
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt not in [np.dtype(a) for a in allowed]:
        names = " or ".join(np.dtype(a).name for a in allowed)
        raise TypeError(f"{name} must be {names}, got {dtype!r}")
    return dt


def _check_positive_int(value, name, low=1):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value!r}")
    return int(value)


def _check_max_line(max_line_length):
    """The parser's limit: 0 (none) for None, else a positive int."""
    if max_line_length is None:
        return 0
    return _check_positive_int(max_line_length, "max_line_length")


def _check_read_args(n_features, dtype, zero_based, index_dtype, output, buffer_size):
    dtype = _check_dtype(dtype, "dtype", (np.float32, np.float64))
    index_dtype = _check_dtype(index_dtype, "index_dtype", (np.int32, np.int64))
    base = _check_zero_based(zero_based)
    if output not in _OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(map(repr, _OUTPUTS))}, got {output!r}")
    buffer_size = _check_positive_int(buffer_size, "buffer_size")
    if n_features is not None:
        n_features = _check_positive_int(n_features, "n_features")
        limit = np.iinfo(index_dtype).max
        if n_features > limit:
            raise ValueError(f"n_features={n_features} does not fit {index_dtype.name} "
                             f"indices (at most {limit}); use index_dtype=np.int64")
    return dtype, index_dtype, base, n_features, buffer_size


def _open_read(source):
    """(binary file, display name, whether to close it) for a path or a file object."""
    if isinstance(source, (str, bytes, os.PathLike)):
        path = os.fsdecode(source)
        lower = path.lower()
        if lower.endswith(".gz"):
            import gzip
            return gzip.open(path, "rb"), path, True
        if lower.endswith(".bz2"):
            import bz2
            return bz2.open(path, "rb"), path, True
        if lower.endswith(".xz"):
            import lzma
            return lzma.open(path, "rb"), path, True
        return open(path, "rb"), path, True
    if hasattr(source, "read"):
        if isinstance(source, _io.TextIOBase):
            raise TypeError("the file is open in text mode; open it in binary mode ('rb')")
        return source, str(getattr(source, "name", "<file>")), False
    raise TypeError(f"expected a path (str or os.PathLike) or a binary file object, got "
                    f"{type(source).__name__}")


def _blocks(f, buffer_size):
    """Successive memoryviews of up to buffer_size bytes read from f (one
    buffer, reused)."""
    try:  # no larger than a regular file needs (a device such as /dev/zero says size 0)
        st = os.fstat(f.fileno())
        size = st.st_size
        if stat.S_ISREG(st.st_mode) and getattr(f, "seekable", lambda: False)() and \
                type(f).__module__ in ("io", "_io"):
            buffer_size = max(1, min(buffer_size, size - f.tell() + 1))
    except (AttributeError, OSError, ValueError, _io.UnsupportedOperation):
        pass
    buf = np.empty(buffer_size, dtype=np.uint8)  # not zeroed: every byte used is read first
    view = buf.data
    readinto = getattr(f, "readinto", None)
    while True:
        if readinto is not None:
            n = readinto(buf)
        else:
            data = f.read(buffer_size)
            if isinstance(data, str):
                raise TypeError("the file is open in text mode; open it in binary mode ('rb')")
            n = len(data)
            buf[:n] = data
        if not n:
            return
        yield view[:n]


def _raise(parser, name, hint=""):
    code, line, reason, text = parser.error()
    if code == _svmlight.ERR_NO_MEMORY:
        raise MemoryError(f"{name}: {reason} (reading line {line})")
    where = f"{name}, line {line}" if line else name
    message = f"{where}: {reason}"
    if code in (_svmlight.ERR_INDEX_RANGE, _svmlight.ERR_TOO_MANY) and \
            parser.index_dtype == np.int32 and not parser.widen:
        message += "; pass index_dtype=np.int64"
    if code == _svmlight.ERR_LINE_TOO_LONG:
        message += " (max_line_length: pass a larger one, or None, for longer lines)"
    if code == _svmlight.ERR_NOT_BINARY:
        message += " (binary=True reads files whose every value is 1)"
    message += hint
    if text:
        message += f"\n  line {line}: {text}"
    raise SvmlightFormatError(message, source=name, line=line, reason=reason, text=text)


def _parse_stream(source, parser, buffer_size, hint=lambda: ""):
    """Feed the whole source to parser; yields each time the parser is full
    (the caller takes the rows), returns after the last line."""
    f, name, close = _open_read(source)
    try:
        for view in _blocks(f, buffer_size):
            offset = 0
            while True:
                status, used = parser.feed(view[offset:])
                offset += used
                if status == _svmlight.FULL:
                    yield name
                    continue
                if status < 0:
                    _raise(parser, name, hint())
                break
        status = parser.finish()
        if status < 0:
            _raise(parser, name, hint())
        if status == _svmlight.FULL:
            yield name
    finally:
        if close:
            f.close()
    return


def _resolve_base(parser, name):
    if parser.resolve_base() < 0:
        _raise(parser, name)


def _check_binary_flag(binary):
    if not isinstance(binary, (bool, np.bool_)):
        raise TypeError(f"binary must be True or False, got {binary!r}")
    return bool(binary)


def _check_width(parser, n_features, name):
    """n_features, or the width the rows need; an index beyond the n_features
    given is an error naming the line of the largest index read so far."""
    needed = max(parser.max_index, 0) + 1
    if n_features is None:
        return needed
    if parser.max_index >= n_features:
        raise ValueError(f"{name}, line {parser.max_index_line}: feature index "
                         f"{parser.max_index} (zero-based) does not fit n_features={n_features}; "
                         f"n_features must be at least {needed}")
    return n_features


def _output(arrays, width, output, what, dtype):
    data, indices, indptr, labels = arrays
    shape = (len(indptr) - 1, width)
    if data is None:  # binary rows, parsed without values
        if output == "csr":  # the rows are their indices
            return CSRData(binary_values(len(indices), dtype), indices, indptr, shape), labels
        # the other outputs store the ones (dense: written through a view of one 1.0)
        data = binary_values(len(indices), dtype) if output == "dense" else \
            np.ones(len(indices), dtype=dtype)
    if output == "csr":
        return CSRData(data, indices, indptr, shape), labels
    if output == "dense":
        return csr_to_dense(data, indices, indptr, shape), labels
    return csr_to_scipy(data, indices, indptr, shape, what), labels


# ------------------------------------------------------------------ reading

def load_svmlight(source: Any, n_features: Optional[int] = None,
                  dtype: npt.DTypeLike = np.float64, zero_based: Union[bool, str] = "auto",
                  index_dtype: Optional[npt.DTypeLike] = None, *, output: str = "scipy",
                  buffer_size: int = DEFAULT_BUFFER_SIZE,
                  max_line_length: Optional[int] = DEFAULT_MAX_LINE_LENGTH,
                  binary: bool = False) -> Tuple[Any, npt.NDArray[np.float64]]:
    """Read an svmlight / libsvm file into a sparse matrix and labels.

    The file is streamed through a compiled parser in blocks of
    ``buffer_size`` bytes (the GIL released while parsing); the result is
    built in place, without a copy of the file or of the arrays.

    Format, one sample a line: ``<label> [qid:<int>] <index>:<value> ...``.
    Labels and values are decimal numbers (``inf`` and ``nan`` too), read to
    the nearest double whatever the locale; a query id is checked and
    ignored; ``#`` starts a comment; empty lines are skipped; ``\\r\\n`` line
    ends, trailing spaces and a last line without a newline are fine.  The
    indices of a line may come in any order (each row is sorted); an index
    twice on one line is an error.  Any malformed line raises
    :class:`perceptron.exceptions.SvmlightFormatError` (a ``ValueError``)
    naming the line number and quoting it.

    Parameters
    ----------
    source : str, os.PathLike or binary file object
        A path (``.gz``, ``.bz2`` and ``.xz`` are decompressed on the fly) or
        a file opened in binary mode.
    n_features : int, optional
        Number of columns; at least the largest index + 1.  By default the
        largest index + 1 (at least 1), as scikit-learn's
        ``load_svmlight_file`` does.
    dtype : float64 or float32, default=np.float64
        dtype of the values (a float32 value is the nearest float to the
        nearest double of the text, as casting gives).  Labels are float64.
    zero_based : bool or "auto", default="auto"
        Whether the file's indices start at 0 (True) or 1 (False, as LIBSVM
        writes them; index 0 is then an error).  "auto", as scikit-learn
        defines it: one-based unless an index 0 appears anywhere in the file.
    index_dtype : None, int32 or int64, default=None
        dtype of the column indices and row pointers.  None: int32 when the
        columns, the rows and the non-zeros all stay below 2**31 (as
        scipy.sparse and scikit-learn's ``load_svmlight_file`` choose, and as
        ``LinearSVC`` and ``SGDClassifier`` require), else int64.  int32:
        always, and an error naming the line when the file needs more;
        int64: always.  With ``binary=True`` and ``output="csr"``, None
        gives uint16 indices (beside int32 row pointers) when the width is
        at most 65,536 and no row holds over 1,024 values.
    output : {"scipy", "csr", "dense"}, default="scipy"
        "scipy": a ``scipy.sparse.csr_matrix`` (scipy is needed only for
        this); "csr": a :class:`CSRData` of numpy arrays; "dense": an ndarray.
    buffer_size : int, default=1 MiB
        Bytes read at a time.
    max_line_length : int or None, default=64 MiB
        The longest line accepted, in bytes (without its newline); None for
        no limit.  A longer line raises ``SvmlightFormatError`` naming its
        line number as soon as its bytes pass the limit, so that memory
        stays bounded by the rows, the buffer and this limit whatever the
        input (one endless line, even compressed).  A line whose first byte
        cannot begin a label (a NUL, the start of a binary file) is refused
        as soon as it is read, without reading on to its end.
    binary : bool, default=False
        Binary rows: every value in the file must be 1 (``1``, ``1.0``,
        ``+1e0``, ...; with float32 `dtype`, any value that rounds to 1.0);
        any other value, 0 included, raises
        :class:`perceptron.exceptions.SvmlightFormatError` (a
        ``ValueError``) naming the file, the line and the feature, rather
        than being dropped.  The file is parsed without values: the memory
        a read takes is that of the indices, the row pointers and the
        labels.  With ``output="csr"`` the rows are kept as their indices
        alone (a :class:`CSRData` whose ``data`` is a read-only view of one
        1.0 of `dtype`, no memory per value: 4 bytes a non-zero with int32
        indices, 2 with uint16, where float64 values take 12), which
        ``Perceptron`` reads without values.  The other outputs store the
        ones.

    Returns
    -------
    X : scipy.sparse.csr_matrix, CSRData or ndarray of shape (n_samples, n_features)
        Indices sorted in each row, no duplicates, explicit zeros kept.
    y : ndarray of shape (n_samples,), float64

    See Also
    --------
    iter_svmlight : the same rows, a chunk at a time.
    dump_svmlight : write a file.

    Examples
    --------
    >>> from perceptron.io import load_svmlight
    >>> X, y = load_svmlight("a9a")                    # doctest: +SKIP
    >>> X.shape, X.indices.dtype                       # doctest: +SKIP
    ((32561, 123), dtype('int32'))
    """
    X, y, _ = load_svmlight_signs(source, n_features, dtype, zero_based, index_dtype,
                                  output=output, buffer_size=buffer_size,
                                  max_line_length=max_line_length, binary=binary)
    return X, y


def load_svmlight_signs(source, n_features=None, dtype=np.float64, zero_based="auto",
                        index_dtype=None, *, output="scipy", buffer_size=DEFAULT_BUFFER_SIZE,
                        max_line_length=DEFAULT_MAX_LINE_LENGTH, binary=False):
    """load_svmlight, and how the positive labels were written: (X, y, (number
    written with a leading '+', number written without)), so that labels can
    be written back as the file spelled them."""
    auto = index_dtype is None
    dtype, index_dtype, base, n_features, buffer_size = _check_read_args(
        n_features, dtype, zero_based, np.int64 if auto else index_dtype, output, buffer_size)
    binary = _check_binary_flag(binary)
    # index_dtype=None: int32 indices, widened by the parser the moment the
    # file needs int64 ones (4 bytes an index while parsing, not 8)
    parser = _svmlight.Parser(dtype, np.int32 if auto else index_dtype, base, 0,
                              _check_max_line(max_line_length), binary, auto)
    for _ in _parse_stream(source, parser, buffer_size):
        pass  # no row limit: never full
    name = _source_name(source)
    _resolve_base(parser, name)
    arrays = parser.take()
    width = _check_width(parser, n_features, name)
    if auto and arrays is not None:
        if binary and output == "csr":
            arrays = _indices16(arrays, width)
        arrays = _narrow_indices(arrays, width)
    X, y = _output(arrays, width, output, "load_svmlight(output='scipy')", dtype)
    return X, y, parser.label_signs


def _narrow_indices(arrays, width):
    """The parsed arrays with int32 indices and row pointers when every
    column, row and non-zero count fits int32 (scipy.sparse's own rule),
    else int64 ones: the parse is in int32, widened to int64 by the parser
    only when the file needs it, and the width asked for may need int64
    too."""
    data, indices, indptr, labels = arrays
    wide = np.int64 if max(width, len(indptr) - 1, len(indices)) > np.iinfo(np.int32).max \
        else np.int32
    if indices.dtype != np.uint16:  # (16-bit indices stay)
        indices = indices.astype(wide, copy=False)
    return data, indices, indptr.astype(wide, copy=False), labels


def _indices16(arrays, width):
    """Binary rows' arrays with 16-bit indices when the width is at most
    65,536 and no row holds more values than the loops read as stored
    (perceptron._core.csr.ROW16_MAX)."""
    data, indices, indptr, labels = arrays
    if width > 1 << 16 or max(len(indptr) - 1, len(indices)) > np.iinfo(np.int32).max or \
            _csr.max_row_length(indptr) > _csr.ROW16_MAX:
        return arrays  # (16-bit indices go beside int32 row pointers)
    return data, indices.astype(np.uint16), indptr, labels


def _source_name(source):
    if isinstance(source, (str, bytes, os.PathLike)):
        return os.fsdecode(source)
    return str(getattr(source, "name", "<file>"))


def iter_svmlight(source: Any, n_features: Optional[int] = None, *, chunk_rows: int = 10000,
                  dtype: npt.DTypeLike = np.float64, zero_based: Union[bool, str] = "auto",
                  index_dtype: npt.DTypeLike = np.int64, output: str = "scipy",
                  buffer_size: int = DEFAULT_BUFFER_SIZE,
                  max_line_length: Optional[int] = DEFAULT_MAX_LINE_LENGTH,
                  binary: bool = False
                  ) -> Iterator[Tuple[Any, npt.NDArray[np.float64]]]:
    """Read an svmlight / libsvm file a chunk of rows at a time.

    Yields ``(X_chunk, y_chunk)`` with ``chunk_rows`` rows each (the last
    chunk may have fewer) and the same number of columns in every chunk;
    memory stays bounded by the chunk, ``buffer_size`` and
    ``max_line_length``, whatever the size of the file.  The format and the errors are those of
    :func:`load_svmlight`; the arguments are checked when this function is
    called, the file is read while iterating.

    Parameters
    ----------
    source : str, os.PathLike or binary file object
        A path (``.gz``, ``.bz2``, ``.xz`` decompressed) or a binary file.
    n_features : int, optional
        Columns of every chunk.  When None, the file is read twice: a first
        pass (parsing, keeping nothing) finds the largest index, and the
        index base for ``zero_based="auto"``; the chunks then hold exactly
        the rows :func:`load_svmlight` returns.  A file object must then be
        seekable (it is rewound to where it was).
    chunk_rows : int, default=10000
        Rows per chunk (>= 1).
    dtype, index_dtype, output, buffer_size, max_line_length :
        As in :func:`load_svmlight`.
    binary : bool, default=False
        As in :func:`load_svmlight`: every value must be 1 (another value
        raises ``SvmlightFormatError`` naming its line, in the chunk that
        holds it, or before the first chunk when ``n_features`` is None),
        the file is parsed without values, and with ``output="csr"`` each
        chunk is a :class:`CSRData` of binary rows, its indices alone of
        ``index_dtype``.  ``partial_fit`` and ``fit_stream`` train on such
        chunks the model of the same rows with their ones stored, bit for
        bit.
    zero_based : bool or "auto", default="auto"
        As in :func:`load_svmlight`.  A chunk iterator cannot look ahead: with
        ``n_features`` given, "auto" decides from the first chunk (one-based
        unless an index 0 appears in it) and keeps that decision for the
        whole file; an index 0 in a later chunk of a file taken as one-based
        then raises an error that says so (pass ``zero_based=True`` for such
        files).  With ``n_features=None`` the first pass decides over the
        whole file, as :func:`load_svmlight` does.

    Yields
    ------
    X_chunk : scipy.sparse.csr_matrix, CSRData or ndarray of shape (n_rows, n_features)
    y_chunk : ndarray of shape (n_rows,), float64

    Examples
    --------
    >>> from perceptron.io import iter_svmlight
    >>> for X, y in iter_svmlight("a9a", n_features=123, chunk_rows=5000):  # doctest: +SKIP
    ...     model.partial_fit(X, y, classes=[-1.0, 1.0])
    """
    dtype, index_dtype, base, n_features, buffer_size = _check_read_args(
        n_features, dtype, zero_based, index_dtype, output, buffer_size)
    chunk_rows = _check_positive_int(chunk_rows, "chunk_rows")
    max_line = _check_max_line(max_line_length)
    binary = _check_binary_flag(binary)
    _open_read_check(source)
    return _iterate(source, n_features, chunk_rows, dtype, index_dtype, base, output,
                    buffer_size, max_line, binary)


def _open_read_check(source):
    if not (isinstance(source, (str, bytes, os.PathLike)) or hasattr(source, "read")):
        raise TypeError(f"expected a path (str or os.PathLike) or a binary file object, got "
                        f"{type(source).__name__}")
    if isinstance(source, _io.TextIOBase):
        raise TypeError("the file is open in text mode; open it in binary mode ('rb')")
    if isinstance(source, (str, bytes, os.PathLike)) and not os.path.exists(source):
        raise FileNotFoundError(f"no such file: {os.fsdecode(source)!r}")


def _iterate(source, n_features, chunk_rows, dtype, index_dtype, base, output, buffer_size,
             max_line, binary):
    name = _source_name(source)
    what = "iter_svmlight(output='scipy')"
    if n_features is None:
        start = None
        if not isinstance(source, (str, bytes, os.PathLike)):
            if not (hasattr(source, "seekable") and source.seekable()):
                raise ValueError(f"{name}: iter_svmlight needs n_features for a file object "
                                 "that cannot be rewound (n_features=None reads the file "
                                 "twice)")
            start = source.tell()
        scan = _svmlight.Parser(dtype, index_dtype, base, chunk_rows, max_line, binary)
        for _ in _parse_stream(source, scan, buffer_size):
            scan.take()  # the first pass keeps nothing
        _resolve_base(scan, name)
        n_features = _check_width(scan, None, name)
        base = scan.base
        if start is not None:
            source.seek(start)
        del scan
    parser = _svmlight.Parser(dtype, index_dtype, base, chunk_rows, max_line, binary)
    decided: list = []  # rows of the first chunk, once "auto" decided from it

    def hint():
        code = parser.error()[0]
        if code == _svmlight.ERR_ZERO_INDEX and decided:
            return (f" (zero_based='auto' took the file as one-based from its first chunk, "
                    f"the first {decided[0]} rows, which have no index 0; pass "
                    "zero_based=True)")
        return ""

    def chunk():
        if parser.base == _svmlight.BASE_AUTO:
            _resolve_base(parser, name)
            decided.append(parser.pending_rows)
        arrays = parser.take()
        _check_width(parser, n_features, name)
        return _output(arrays, n_features, output, what, dtype)

    for _ in _parse_stream(source, parser, buffer_size, hint):
        yield chunk()
    if parser.pending_rows:
        yield chunk()


# ------------------------------------------------------------------ writing

def _csr_parts(X):
    """(data, indices, indptr, n_rows, n_cols) of a sparse X, canonical
    (sorted, no duplicates), without modifying X; for a dense X,
    (None, the array, None, n_rows, n_cols)."""
    if isinstance(X, CSRData):
        data, indices, indptr = (np.asarray(a) for a in X[:3])
        n_rows, n_cols = (int(v) for v in X.shape)
        canonical = False
    elif hasattr(X, "tocsr") and hasattr(X, "nnz") and hasattr(X, "format"):
        X = X.tocsr()
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()  # sorts and merges, on the copy
        data, indices, indptr = X.data, X.indices, X.indptr
        n_rows, n_cols = X.shape
        canonical = True
    else:
        if isinstance(X, (str, bytes)):
            raise TypeError("X must be a 2-D array of numbers or a sparse matrix, got a string")
        arr = np.asarray(X)
        if arr.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {arr.shape}")
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"X must hold real numbers, got dtype {arr.dtype}")
        return None, arr, None, arr.shape[0], arr.shape[1]
    if data.dtype.kind not in "biuf":
        raise TypeError(f"X must hold real numbers, got dtype {data.dtype}")
    if indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
        raise TypeError("X's indices and indptr must be integer arrays")
    if (data.ndim, indices.ndim, indptr.ndim) != (1, 1, 1) or indptr.shape != (n_rows + 1,) \
            or len(data) != len(indices):
        raise ValueError("X is not a valid CSR matrix: data, indices and indptr do not agree "
                         "with its shape")
    indices, indptr = _index_array(indices), _index_array(indptr)
    if indptr.dtype != indices.dtype:
        indices, indptr = indices.astype(np.int64), indptr.astype(np.int64)
    code, _ = csr_structure(indices, indptr, n_cols)
    if code == CSR_NOT_CANONICAL:
        if not canonical:  # (scipy's own canonical flag is trusted, as it was summed above)
            data, indices, indptr = canonical_csr(data, indices, indptr, n_rows)
    elif code != CSR_OK:
        raise ValueError(_structure_message(code, n_cols))
    return data, indices, indptr, n_rows, n_cols


def _structure_message(code, n_cols):
    if code in (CSR_NEGATIVE_INDEX, CSR_INDEX_TOO_LARGE):
        return f"X is not a valid CSR matrix: column indices must lie in [0, {n_cols})"
    return ("X is not a valid CSR matrix: indptr must start at 0, never decrease and end at "
            "nnz")


def _value_array(data):
    if data.dtype == np.float32 or data.dtype == np.float64:
        return np.ascontiguousarray(data)
    return np.ascontiguousarray(data, dtype=np.float64)


def _index_array(a):
    if a.dtype == np.int32 or a.dtype == np.int64:
        return np.ascontiguousarray(a)
    return np.ascontiguousarray(a, dtype=np.int64)


def _open_write(target):
    if isinstance(target, (str, bytes, os.PathLike)):
        path = os.fsdecode(target)
        lower = path.lower()
        if lower.endswith(".gz"):
            import gzip
            return gzip.open(path, "wb"), True
        if lower.endswith(".bz2"):
            import bz2
            return bz2.open(path, "wb"), True
        if lower.endswith(".xz"):
            import lzma
            return lzma.open(path, "wb"), True
        return open(path, "wb"), True
    if hasattr(target, "write"):
        if isinstance(target, _io.TextIOBase):
            raise TypeError("the file is open in text mode; open it in binary mode ('wb')")
        return target, False
    raise TypeError(f"f must be a path (str or os.PathLike) or a binary file object, got "
                    f"{type(target).__name__}")


def dump_svmlight(X: Any, y: npt.ArrayLike, f: Any, zero_based: bool = False,
                  comment: Optional[str] = None) -> None:
    """Write X and y as an svmlight / libsvm file.

    One line per row: the label, then ``index:value`` for each non-zero of a
    dense X (each stored value of a sparse X, explicit zeros included), by
    increasing index.  Every number is written in the shortest form that
    reads back to the same value: Python's ``repr`` for float64 (at most 17
    significant digits), the shortest of 6 to 9 digits that gives back the
    float for float32, integers as integers.  So ``load_svmlight`` with the
    same ``dtype`` and ``zero_based`` returns exactly X and y (non-finite
    values are written as ``inf``, ``-inf``, ``nan``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), scipy sparse matrix or CSRData
        Real values; float32 and float64 are written as they are, other real
        dtypes as float64.  Not modified (a non-canonical sparse matrix is
        sorted and summed on a copy).
    y : array-like of shape (n_samples,)
        Numeric labels; integer (and boolean) labels are written as integers.
    f : str, os.PathLike or binary file object
        Where to write (a path ending in ``.gz``, ``.bz2`` or ``.xz`` is
        compressed).
    zero_based : bool, default=False
        Write column indices from 0 (True) or from 1 (False, LIBSVM's
        convention; scikit-learn's ``dump_svmlight_file`` defaults to True).
    comment : str, optional
        Written first, each of its lines after ``#`` and a space.

    Examples
    --------
    >>> import numpy as np, io
    >>> from perceptron.io import dump_svmlight
    >>> out = io.BytesIO()
    >>> dump_svmlight(np.array([[0.5, 0.0], [0.0, 1.0]]), [1, -1], out)
    >>> out.getvalue()
    b'1 1:0.5\\n-1 2:1\\n'
    """
    if not isinstance(zero_based, (bool, np.bool_)):
        raise TypeError(f"zero_based must be True or False, got {zero_based!r}")
    if comment is not None and not isinstance(comment, str):
        raise TypeError(f"comment must be a str or None, got {type(comment).__name__}")
    data, dense, indptr, n_rows, n_cols = _csr_parts(X)
    if isinstance(y, (str, bytes)):
        raise TypeError("y must be a 1-D array of numbers, got a string")
    labels = np.asarray(y)
    if labels.ndim != 1 or labels.shape[0] != n_rows:
        raise ValueError(f"y must be 1-D with one label per row of X ({n_rows}), got shape "
                         f"{labels.shape}")
    if labels.dtype.kind in "biu":
        if labels.dtype.kind == "u" and labels.size and labels.max() > np.iinfo(np.int64).max:
            raise ValueError("y holds integers above 2**63 - 1, which cannot be written exactly")
        labels = np.ascontiguousarray(labels, dtype=np.int64)
    elif labels.dtype.kind == "f":
        labels = np.ascontiguousarray(labels, dtype=np.float64)
    else:
        raise TypeError(f"y must hold numbers (svmlight labels are numbers), got dtype "
                        f"{labels.dtype}")
    offset = 0 if zero_based else 1
    out, close = _open_write(f)
    try:
        if comment is not None:
            for line in comment.splitlines() or [""]:
                out.write(b"# " + line.encode("utf-8") + b"\n")
        if data is None:
            _write_dense(out, dense, labels, offset)
        else:
            _write_csr(out, _value_array(data), _index_array(dense), _index_array(indptr),
                       labels, offset)
    finally:
        if close:
            out.close()


# rows are formatted in blocks of about this many values
_WRITE_BLOCK = 1 << 18


def _write_csr(out, data, indices, indptr, labels, offset):
    if indptr.dtype != indices.dtype:
        indptr = indptr.astype(indices.dtype)
    n = len(labels)
    start = 0
    while start < n:
        # as many rows as make about _WRITE_BLOCK values, at least one
        stop = int(np.searchsorted(indptr, indptr[start] + _WRITE_BLOCK, side="right")) - 1
        stop = min(max(stop, start + 1), n)
        out.write(_svmlight.format_rows(data, indices, indptr, labels, start, stop, offset))
        start = stop


def _write_dense(out, X, labels, offset):
    n, d = X.shape
    step = max(1, _WRITE_BLOCK // max(d, 1))
    for start in range(0, n, step):
        block = _value_array(X[start:start + step])
        rows, cols = np.nonzero(block)
        data = np.ascontiguousarray(block[rows, cols])
        indptr = np.zeros(len(block) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=len(block)), out=indptr[1:])
        out.write(_svmlight.format_rows(data, cols.astype(np.int64), indptr,
                                        labels[start:start + step], 0, len(block), offset))

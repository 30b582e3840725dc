"""The data files of the command line: svmlight/libsvm text, CSV and numpy
(.npy, .npz), compressed with gzip, bzip2 or xz or not, told by the name's
suffix or by the first bytes (``perceptron.cli``'s ``train``, ``predict``
and ``evaluate`` read them with :func:`load_data`).

svmlight files are read into a ``CSRData`` (numpy arrays), never a scipy
matrix: the command line needs numpy alone.
"""
import io
import math
import numbers
import os
import re
import sys

import numpy as np

from perceptron.io._svmlight import DEFAULT_MAX_LINE_LENGTH, load_svmlight_signs
from perceptron._common.validation import CSRData

_BY_NAME = {".csv": "csv", ".npz": "npz", ".npy": "npy", ".svm": "svmlight",
            ".libsvm": "svmlight", ".svmlight": "svmlight"}
_PACKED = {".gz": b"\x1f\x8b", ".bz2": b"BZh", ".xz": b"\xfd7zXZ\x00"}
_HEAD = 1 << 16  # bytes looked at to tell a format from the content

# one svmlight row, up to its comment: a label, an optional query id, index:value pairs
_SVMLIGHT_ROW = re.compile(
    r"[ \t\r\v\f]*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)"
    r"(?:[ \t\r\v\f]+qid:[+-]?[0-9]+)?(?:[ \t\r\v\f]+[+-]?[0-9]+:[^ \t\r\v\f]*)*"
    r"[ \t\r\v\f]*", re.IGNORECASE)

FORMATS_HELP = ("svmlight/libsvm text (<label> <index>:<value> ...), CSV, or numpy "
                "(.npy, .npz)")


class _Prefixed(io.RawIOBase):
    """A binary stream that serves `head` (bytes already read from `rest`)
    and then the rest: the first bytes of a pipe can be looked at without
    being lost."""

    def __init__(self, head, rest, name):
        super().__init__()
        self._head, self._pos, self._rest, self.name = head, 0, rest, name

    def readable(self):
        return True

    def readinto(self, b):
        b = memoryview(b).cast("B")
        if self._pos < len(self._head):
            n = min(len(b), len(self._head) - self._pos)
            b[:n] = self._head[self._pos:self._pos + n]
            self._pos += n
            return n
        if self._rest is None:
            return 0
        readinto = getattr(self._rest, "readinto", None)
        if readinto is not None:
            return readinto(b)
        data = self._rest.read(len(b))
        b[:len(data)] = data
        return len(data)


def _read_head(f, size=_HEAD):
    """Up to `size` first bytes of f (fewer only at its end)."""
    parts, got = [], 0
    while got < size:
        data = f.read(size - got)
        if not data:
            break
        parts.append(data)
        got += len(data)
    return b"".join(parts)


class DataSource:
    """A data file opened for reading: its decompressed bytes as a stream
    whose first bytes were looked at, and the format they tell."""

    def __init__(self, path, stdin=None):
        self.path, self.name = path, "<stdin>" if path == "-" else str(path)
        if path == "-":
            raw = (stdin if stdin is not None else sys.stdin.buffer)
            self._closer = None
        else:
            raw = open(path, "rb")
            self._closer = raw
        try:
            head = _read_head(raw, 8)
            self.packed = next((k for k, magic in _PACKED.items() if head.startswith(magic)),
                               None)
            stream = _Prefixed(head, raw, self.name)
            if self.packed is not None:
                stream = _decompressed(self.packed, stream)
            self.head = _read_head(stream)
            self.stream = _Prefixed(self.head, stream, self.name)
        except BaseException:
            self.close()
            raise

    def close(self):
        if self._closer is not None:
            self._closer.close()
            self._closer = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def format(self, given="auto"):
        if given != "auto":
            return given
        name = os.path.basename(self.name).lower()
        for suffix in _PACKED:
            if name.endswith(suffix):
                name = name[:-len(suffix)]
        by_name = _BY_NAME.get(os.path.splitext(name)[1])
        return by_name or sniff_format(self.head, self.name)


def _decompressed(kind, stream):
    if kind == ".gz":
        import gzip
        return gzip.GzipFile(fileobj=stream, mode="rb")
    if kind == ".bz2":
        import bz2
        return bz2.BZ2File(stream, mode="rb")
    import lzma
    return lzma.LZMAFile(stream, mode="rb")


def sniff_format(head, name="the data"):
    """The format the first bytes of a data file (decompressed) tell:
    "svmlight", "csv", "npy" or "npz"; a ValueError if none."""
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    if head.startswith(b"PK\x03\x04"):
        return "npz"
    if head.startswith(b"\x89PTN"):
        raise ValueError(f"{name} is a perceptron model file, not data")
    complete = len(head) < _HEAD
    if not complete:  # the last line may be cut: judge the lines before it
        cut = head.rfind(b"\n")
        head = head[:cut] if cut > 0 else head
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        raise ValueError(f"cannot tell the format of {name}: its first bytes are binary, not "
                         f"{FORMATS_HELP}")
    lines = [line for line in text.splitlines() if line.strip()]
    rows = [line.split("#", 1)[0] for line in lines if not line.lstrip().startswith("#")]
    if not rows:  # nothing but comments and blank lines: an svmlight file of no rows
        return "svmlight"
    first = rows[0]
    if not complete and len(lines) == 1 and " " in first.strip():
        first = first.rsplit(None, 1)[0]  # one long line: its last token may be cut
    if _SVMLIGHT_ROW.fullmatch(first):
        return "svmlight"
    if "," in lines[0]:
        return "csv"
    raise ValueError(f"cannot tell the format of {name}: its first line "
                     f"{_quote(lines[0])} is not {FORMATS_HELP}; pass --format")


def _quote(line, width=60):
    line = line.strip()
    return repr(line if len(line) <= width else line[:width] + "...")


def _read_csv(fh, name, label_column):
    import csv

    rows = [row for row in csv.reader(fh) if row]
    if not rows:
        raise ValueError(f"{name} holds no rows")

    def numeric(row):
        try:
            [float(v) for v in row]
            return True
        except ValueError:
            return False

    header = None
    unlabeled = label_column is not None and label_column.strip().lower() == "none"
    by_name = label_column is not None and not unlabeled and not _is_int(label_column)
    first = rows[0]
    if by_name or not numeric([v for i, v in enumerate(first)
                               if unlabeled or i != _column(label_column, first)]):
        header, rows = first, rows[1:]
    if not rows:
        raise ValueError(f"{name} has a header and no data")
    width = len(rows[0])
    for line, row in enumerate(rows, start=2 if header else 1):
        if len(row) != width:
            raise ValueError(f"{name}, line {line}: {len(row)} fields where the first row "
                             f"has {width}")
    if unlabeled:  # every column a feature
        try:
            X = np.array([[float(v) for v in row] for row in rows])
        except ValueError as exc:
            raise ValueError(f"{name}: a feature is not a number ({exc})") from None
        return X, None, False
    col = _column(label_column, header if header is not None else rows[0], header)
    labels = [row[col].strip() for row in rows]
    try:
        X = np.array([[float(v) for i, v in enumerate(row) if i != col] for row in rows])
    except ValueError as exc:
        raise ValueError(f"{name}: a feature is not a number ({exc})") from None
    y = np.array(labels)
    plus = False
    try:  # numeric labels stay numbers
        as_float = y.astype(np.float64)
        positive = [text for text, v in zip(labels, as_float) if v > 0]
        plus = bool(positive) and all(text.startswith("+") for text in positive)
        y = _integral(as_float)
    except ValueError:
        pass
    return X, y, plus


def _integral(y):
    """float labels as int64 when every one is an integer (exactly)."""
    y = np.asarray(y)
    if y.dtype.kind == "f" and y.size and np.all(np.isfinite(y)) and \
            np.all(np.abs(y) <= 2.0 ** 53) and np.all(y == np.round(y)):
        return y.astype(np.int64)
    return y


def _is_int(text):
    try:
        int(text)
        return True
    except ValueError:
        return False


def _column(label_column, first_row, header=None):
    """Index of the label column: an int (negative counts from the end) or a header name."""
    n = len(first_row)
    if label_column is None:
        return n - 1
    try:
        index = int(label_column)
    except ValueError:
        if header is None or label_column not in header:
            raise ValueError(f"--label-column {label_column!r} is not a column name of the "
                             "header") from None
        return header.index(label_column)
    if not -n <= index < n:
        raise ValueError(f"--label-column {index} is out of range for {n} columns")
    return index % n


class Data(tuple):
    """(X, y) of a data file, with `plus`: whether its positive labels were
    written with a leading '+' (each of them), as LIBSVM's +1/-1 files do;
    and `ignored`: the values of features beyond the width asked for that
    were dropped."""
    plus = False
    ignored = 0
    format = "svmlight"


def load_data(path, fmt="auto", labels=None, label_column=None, n_features=None,
              need_labels=True, max_line_length=DEFAULT_MAX_LINE_LENGTH, stdin=None,
              wider="error", binary=False):
    """(X, y) of a data file (a path, or "-" for standard input); y is None
    when the file has no labels and none are needed.  The format is the one
    given, else the name's suffix (.csv, .npz, .npy, .svm, .libsvm,
    .svmlight, compressed or not), else what the first bytes tell; .gz, .bz2
    and .xz files are told from their first bytes too.

    `n_features`: the width of an svmlight file's rows (else its largest
    index + 1).  A feature index beyond it is an error naming its line, or,
    with ``wider="ignore"``, a value dropped (as LIBLINEAR's predict drops
    the features its model never saw); `data.ignored` counts them.

    `binary`: an svmlight file whose every value is 1, parsed without values
    into binary rows (indices alone); a value other than 1 is an error
    naming its line, as is another format."""
    plus, ignored = False, 0
    if wider not in ("error", "ignore"):
        raise ValueError(f"wider must be 'error' or 'ignore', got {wider!r}")
    with DataSource(os.fsdecode(path), stdin) as src:
        fmt = src.format(fmt)
        if binary and fmt != "svmlight":
            raise ValueError(f"--binary reads svmlight files; {src.name} is {fmt}")
        if fmt == "svmlight":
            X, y, (n_plus, n_bare) = load_svmlight_signs(
                src.stream, n_features=n_features if wider == "error" else None,
                max_line_length=max_line_length, output="csr", binary=binary)
            y, plus = _integral(y), n_plus > 0 and n_bare == 0
            if n_features is not None and wider == "ignore":
                X, ignored = _narrowed(X, n_features)
        elif fmt == "csv":
            text = io.TextIOWrapper(src.stream, encoding="utf-8", newline="")
            X, y, plus = _read_csv(text, src.name, label_column)
        else:
            X, y = _load_numpy(src, fmt)
    if labels is not None:
        y = np.load(labels, allow_pickle=False)
    if y is None and need_labels:
        if fmt == "csv":
            raise ValueError(f"{path} holds no labels (--label-column none)")
        raise ValueError(f"{path} holds no labels: pass --labels FILE.npy")
    data = Data((X, y))
    data.plus, data.ignored, data.format = bool(plus), ignored, fmt
    return data


def _narrowed(X, n_features):
    """X (a CSRData) with `n_features` columns: the values of wider columns
    dropped; and how many were."""
    keep = X.indices < n_features
    ignored = int(keep.size - np.count_nonzero(keep))
    if ignored:
        rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        indptr = np.zeros(X.shape[0] + 1, X.indptr.dtype)
        np.cumsum(np.bincount(rows[keep], minlength=X.shape[0]), out=indptr[1:])
        X = CSRData(X.data[keep], X.indices[keep], indptr, X.shape)
    return CSRData(X.data, X.indices, X.indptr, (X.shape[0], n_features)), ignored


def _load_numpy(src, fmt):
    if src.path != "-" and src.packed is None:
        where = src.path  # a file as it is: .npy memory-mapped, not read
    else:
        where = io.BytesIO(src.stream.read())
    if fmt == "npy":
        return np.load(where, allow_pickle=False,
                       mmap_mode="r" if isinstance(where, str) else None), None
    with np.load(where, allow_pickle=False) as data:
        names = set(data.files)
        x_name = "X" if "X" in names else ("data" if "data" in names else None)
        y_name = "y" if "y" in names else ("target" if "target" in names else None)
        if x_name is None:
            raise ValueError(f"{src.name} has no array named X (or data); it has "
                             f"{sorted(names)}")
        return data[x_name], (data[y_name] if y_name is not None else None)


def label_text(value, plus=False):
    """A label as the data spelled it: integers without a fraction (``3``,
    not ``3.0``), with a leading ``+`` on positive ones when `plus`, other
    numbers in their shortest exact form, text as it is."""
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (numbers.Integral, np.integer)) or \
            (isinstance(value, (float, np.floating)) and math.isfinite(value) and
             float(value).is_integer() and abs(float(value)) <= 2.0 ** 53):
        v = int(value)
        return f"+{v}" if plus and v > 0 else str(v)
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)


def row_slice(X, start, stop):
    """Rows start:stop of X, a dense array or a CSRData (whose rows a tuple's
    slice would not give)."""
    if isinstance(X, CSRData):
        lo, hi = int(X.indptr[start]), int(X.indptr[stop])
        indptr = X.indptr[start:stop + 1] - X.indptr[start]
        data = None if X.data is None else X.data[lo:hi]  # None: binary rows, no values
        return CSRData(data, X.indices[lo:hi], indptr, (stop - start, X.shape[1]))
    return X[start:stop]

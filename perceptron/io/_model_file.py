"""Model files: ``model.save(path)`` and ``perceptron.load(path)``.

A model file is plain data, never a pickle: loading one cannot run code.

Binary container (csrc/ptn_model_file.h has the byte layout): a 64-byte
preamble (magic ``\\x89PTN\\r\\n\\x1a\\n``, format version, the kind of a
linear model, a CRC-32 of the file), a table of numeric arrays (name, dtype,
shape, offset, size), a UTF-8 JSON header, then the arrays, each 64-byte
aligned.  The C reader of csrc/model_file.c checks the container, for this
module (through ``perceptron._core.model_file``) and for C programs, which score a
linear model from the arrays ``coef_`` and ``intercept_`` without parsing the
JSON.

JSON header::

    {"format": "perceptron model", "format_version": 1,
     "package_version": "0.1.0", "class": "Perceptron",
     "params": {...get_params()...}, "fitted": {...fitted attributes...}}

Values are JSON numbers, strings, booleans and null, or one-key objects that
say what they stand for: ``{"array": name}`` (an array of the table),
``{"text_array": {"dtype": "<U3", "values": [...]}}`` (labels and feature
names that are strings; object arrays of strings, numbers and booleans),
``{"list": [...]}``, ``{"dict": [[key, value], ...]}``, ``{"float": "inf"}``,
``{"model": {"class": ..., "params": ..., "fitted": ...}}`` (an estimator of
the package held by another, as a tagger holds the tokenizer it was trained
with: checked on load as a file of its own would be, without its training
state) and ``{"online_state": {...}}`` (the training state of ``partial_fit`` and
``warm_start``, written only when asked for: ``training_state=True``).  Loading accepts only the estimator classes registered in
``perceptron.io._registry`` (each estimator module registers its own class,
with the fitted attributes it saves and the check run on load; this module
imports no estimator) and, for each, only its declared fitted attributes; it rebuilds the estimator from
its parameters and checks every shape, dtype and index that the compiled
code trusts, so a file that does not make a valid model is refused
(``ModelFileError``) rather than crashing at predict.
"""
import json
import math
import numbers
import os
import re
import stat
import sys
import warnings
from typing import Any, Optional

import numpy as np

from perceptron._core import model_file as _model_file
from perceptron.io._registry import KEEP_TRAINING_STATE, models, value_types
from perceptron._version import __version__
from perceptron.exceptions import ModelFileError

FORMAT = "perceptron model"
FORMAT_VERSION = _model_file.VERSION

# preamble fields (offsets in csrc/ptn_model_file.h)
_LINEAR_KINDS = {"binary": 1, "multiclass": 2, "multilabel": 3}

_NAME = re.compile(r"^[A-Za-z0-9_.]{1,31}$")
_TEXT_DTYPE = re.compile(r"^[<>|=]?[US][0-9]{1,9}$")


# ------------------------------------------------------------------ saving

class _Encoder:
    """Turns Python values into JSON values and a table of arrays."""

    def __init__(self, owner):
        self.owner = owner
        self.arrays = []            # (name, little-endian C-contiguous array)
        self.names = set()

    def refuse(self, path, value, why=""):
        raise ValueError(f"cannot save this {self.owner}: {path} holds {type(value).__name__} "
                         f"{_short_repr(value)}{why}; a model file holds numbers, strings, "
                         "booleans and numeric arrays (it never pickles)")

    def array_name(self, path):
        name = path if _NAME.match(path) else f"array.{len(self.arrays)}"
        while name in self.names:
            name = f"array.{len(self.arrays)}.{len(self.names)}"
        self.names.add(name)
        return name

    def encode(self, value, path):
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real):
            v = float(value)
            return v if math.isfinite(v) else {"float": repr(v)}
        if isinstance(value, np.ndarray):
            return self.encode_array(value, path)
        if isinstance(value, list):
            return {"list": [self.encode(v, f"{path}.{i}") for i, v in enumerate(value)]}
        if isinstance(value, dict):
            return {"dict": [[self.encode_key(k, path), self.encode(v, f"{path}.{k}")]
                             for k, v in value.items()]}
        spec = models().get(type(value).__name__)
        if spec is not None and spec.cls is type(value):
            content, schema = _content(value, spec, self, False, f"{path}.")
            if schema > 1:
                content["schema_version"] = schema
            return {"model": content}
        for kind in value_types().values():
            if type(value) is kind.cls:
                fields = {}
                for name, v in vars(value).items():
                    # a transient field (the row order of a training state) is rebuilt
                    fields[name] = None if name in kind.transient else \
                        self.encode(v, f"{path}.{name}")
                return {kind.tag: fields}
        self.refuse(path, value)

    def encode_key(self, key, path):
        if key is None or isinstance(key, (bool, str, np.bool_, numbers.Integral)) or (
                isinstance(key, numbers.Real) and math.isfinite(float(key))):
            return self.encode(key, path)
        self.refuse(f"a key of {path}", key)

    def encode_array(self, a, path):
        kind = a.dtype.kind
        if kind in "biuf":
            little = a.dtype.newbyteorder("<") if a.dtype.byteorder not in "|<" else a.dtype
            code = _model_file.CODES.get(little.str)
            if code is None:
                self.refuse(path, a, f" of dtype {a.dtype}")
            name = self.array_name(path)
            self.arrays.append((name, np.ascontiguousarray(a, dtype=little)))
            return {"array": name}
        if a.ndim != 1:
            self.refuse(path, a, f" ({a.ndim}-D, of dtype {a.dtype})")
        if kind == "U":
            return {"text_array": {"dtype": a.dtype.str, "values": a.tolist()}}
        if kind == "S":
            return {"text_array": {"dtype": a.dtype.str,
                                   "values": [v.decode("latin-1") for v in a.tolist()]}}
        if kind == "O":
            values = []
            for v in a.tolist():
                if isinstance(v, np.generic):
                    v = v.item()
                if v is None or not isinstance(v, (str, bool, int, float)) or (
                        isinstance(v, float) and not math.isfinite(v)):
                    raise ValueError(
                        f"cannot save this {self.owner}: {path} holds the value "
                        f"{_short_repr(v)} of type {type(v).__name__}; the labels (and names) "
                        "in a model file must be strings, booleans or finite numbers (a model "
                        "file never pickles): map them to such values before fitting")
                values.append(v)
            return {"text_array": {"dtype": "object", "values": values}}
        self.refuse(path, a, f" of dtype {a.dtype}")


def _short_repr(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _warn(message):
    """A UserWarning attributed to the first caller outside the package."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame: Any = sys._getframe(1)
    level = 2
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) \
            == package:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)


def _encode_params(est, encoder):
    params = {}
    for name, value in est.get_params().items():
        if name == "kernel" and callable(value):
            raise ValueError("cannot save a KernelPerceptron with a callable kernel: a model file "
                             "holds data, not code, and the model needs the kernel to predict; "
                             "use one of the named kernels or kernel='precomputed'")
        if name == "callback" and value is not None:
            _warn("the callback parameter is a function, which a model file cannot hold: it is "
                  "saved as None")
            value = None
        if name == "random_state" and isinstance(value, (np.random.Generator,
                                                          np.random.RandomState)):
            _warn("random_state is a numpy random generator, which a model file cannot hold: it "
                  "is saved as None (pass an int for a reproducible refit)")
            value = None
        if name == "dtype" and value is not None:
            # a numpy dtype or scalar type (the weights' dtype asked for) by its
            # name, which numpy reads back as the same dtype
            value = np.dtype(value).name
        params[name] = encoder.encode(value, f"the parameter {name}")
    return params


def _linear_kind(est, spec):
    kind = spec.linear_kind(est)
    return 0 if kind is None else _LINEAR_KINDS[kind]


def _pack(linear_kind, header, arrays):
    """The bytes of a model file (layout: csrc/ptn_model_file.h)."""
    import zlib

    n = len(arrays)
    align = _model_file.ALIGN
    header_offset = _model_file.PREAMBLE_SIZE + _model_file.ENTRY_SIZE * n
    header_end = header_offset + len(header)
    data_offset = -(-header_end // align) * align
    table = bytearray()
    offsets, end = [], data_offset
    for name, a in arrays:
        offset = -(-end // align) * align
        offsets.append(offset)
        end = offset + a.nbytes
        entry = bytearray(_model_file.ENTRY_SIZE)
        entry[0:len(name)] = name.encode("ascii")
        entry[32] = _model_file.CODES[a.dtype.str]
        entry[33] = a.ndim
        entry[40:48] = offset.to_bytes(8, "little")
        entry[48:56] = a.nbytes.to_bytes(8, "little")
        for d, size in enumerate(a.shape):
            entry[56 + 8 * d:64 + 8 * d] = int(size).to_bytes(8, "little")
        table += entry
    out = bytearray(end)
    out[0:8] = _model_file.MAGIC
    out[8:12] = FORMAT_VERSION.to_bytes(4, "little")
    out[12:16] = linear_kind.to_bytes(4, "little")
    out[16:20] = n.to_bytes(4, "little")
    out[24:32] = header_offset.to_bytes(8, "little")
    out[32:40] = len(header).to_bytes(8, "little")
    out[40:48] = data_offset.to_bytes(8, "little")
    out[48:56] = end.to_bytes(8, "little")
    out[64:header_offset] = table
    out[header_offset:header_end] = header
    for (name, a), offset in zip(arrays, offsets):
        out[offset:offset + a.nbytes] = a.tobytes()
    out[20:24] = zlib.crc32(out).to_bytes(4, "little")  # computed with these bytes zero
    return bytes(out)


def _content(model, spec, encoder, training_state, prefix):
    """The class, parameters and fitted attributes of `model` as JSON values
    (arrays named after `prefix` + their attribute), and its layout version."""
    name = type(model).__name__
    params = _encode_params(model, encoder)
    param_names = set(model.get_params())
    fitted = {}
    for attr, value in vars(model).items():
        if attr in param_names or attr == KEEP_TRAINING_STATE:
            continue
        if attr in spec.training_state and not training_state:
            continue  # prediction never reads it: a compact file
        if attr not in spec.fitted:
            raise ValueError(f"cannot save this {name}: its attribute {attr!r} is not part of the "
                             "model file format")
        if attr == "_kernel_fn" and value is not None:
            raise ValueError("cannot save a KernelPerceptron with a callable kernel: a model "
                             "file holds data, not code")
        fitted[attr] = encoder.encode(value, prefix + attr)
    schema = spec.schema_version
    if spec.training_state_schema_version is not None and spec.training_state & set(fitted):
        schema = spec.training_state_schema_version  # also read by older packages
    return {"class": name, "params": params, "fitted": fitted}, schema


def model_bytes(model, training_state=None):
    """The model file of `model`, as bytes (`training_state`: as in ``save_model``)."""
    specs = models()
    name = type(model).__name__
    spec = specs.get(name)
    if spec is None or spec.cls is not type(model):
        raise TypeError(f"save: only the estimators of the package ({', '.join(specs)}) can "
                        f"be saved, not a {type(model).__module__}.{type(model).__qualname__}")
    if training_state is None:
        training_state = bool(vars(model).get(KEEP_TRAINING_STATE, False))
    elif not isinstance(training_state, (bool, np.bool_)):
        raise TypeError(f"training_state must be True, False or None, got {training_state!r}")
    encoder = _Encoder(name)
    content, schema = _content(model, spec, encoder, training_state, "")
    if len(encoder.arrays) > _model_file.MAX_ARRAYS:
        raise ValueError(f"cannot save this {name}: {len(encoder.arrays)} arrays, more than the "
                         f"{_model_file.MAX_ARRAYS} a model file holds (lower max_vectors or the "
                         "number of classes)")
    content = {"format": FORMAT, "format_version": FORMAT_VERSION,
               "package_version": __version__, **content}
    if schema > 1:  # files of the first layout do not hold the key
        content["schema_version"] = schema
    text = json.dumps(content, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    try:
        header = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        where, value = _first_unencodable(content, "") or ("the header", exc.object[exc.start:])
        raise ValueError(f"cannot save this {name}: {where} holds the text {value!r:.80}, "
                         "which has a lone surrogate and cannot be written as UTF-8 (the model "
                         "file's text encoding); replace that label or name") from None
    if len(header) > _model_file.MAX_HEADER:
        raise ValueError(f"cannot save this {name}: its JSON header would take {len(header)} "
                         f"bytes, more than the {_model_file.MAX_HEADER} allowed (too many labels "
                         "or feature names)")
    return _pack(_linear_kind(model, spec), header, encoder.arrays)


def save_model(model: Any, f: Any, training_state: Optional[bool] = None) -> None:
    """Write a fitted (or unfitted) estimator of the package to a model file.

    The file holds the estimator's class, its parameters and its fitted
    attributes; ``load_model`` gives back an estimator that predicts exactly
    as this one.  By default the file is compact: it leaves out the training
    state of a ``Perceptron`` (its raw weights, averaging accumulators,
    pocket and counters, which only ``partial_fit`` and ``warm_start`` read),
    so a plain fit's file is about the size of ``coef_``.  It is plain data
    (a binary container of numeric arrays and a JSON header, see
    ``perceptron.io._model_file``), never a pickle; a C program can score a
    linear model from it (csrc/ptn_model_file.h).

    Parameters
    ----------
    model : Perceptron, VotedPerceptron, CentroidClassifier or KernelPerceptron
    f : str, os.PathLike or binary file object
        A path is written atomically (a temporary file in the same folder,
        then renamed), so an interrupted save never leaves half a model.
        A symbolic link is followed: its target is replaced and the link
        stays a link.  The path must be a regular file or not exist yet: a
        directory, a device, a named pipe or a socket is refused.  A new
        file gets the permissions ``open()`` would give it (0o666 less the
        umask); an existing file keeps its permissions.
    training_state : bool or None, default=None
        Keep the training state, so that the loaded model can go on with
        ``partial_fit``, or with ``fit`` and ``warm_start=True``, exactly
        where this one stopped (the file is then about twice the size of
        ``coef_``, three times when averaged).  None: keep it only if
        ``model.keep_training_state()`` was called.  A model loaded without
        its training state predicts the same; ``partial_fit`` refuses to go
        on, and ``warm_start`` starts from ``coef_`` and ``intercept_``.
        VotedPerceptron, CentroidClassifier and KernelPerceptron have no
        training state: their files are always whole.

    Raises
    ------
    ValueError
        If the model holds something a data file cannot: labels that are not
        numbers, strings or booleans, or a callable kernel.  A callback and a
        numpy random generator as ``random_state`` are saved as None, with a
        warning.
        Also if the path is something other than a regular file (a
        directory, a device, a named pipe).
    FileNotFoundError
        If the path's folder does not exist (checked before the model is
        encoded).
    TypeError
        If ``model`` is not an estimator of the package, or
        ``training_state`` is not a bool or None.
    """
    import io

    if isinstance(f, (str, bytes, os.PathLike)):
        target = _writable_target(os.fsdecode(f))
        _write_replacing(target, model_bytes(model, training_state))
    elif hasattr(f, "write"):
        if isinstance(f, io.TextIOBase):
            raise TypeError("the file is open in text mode; open it in binary mode ('wb')")
        f.write(model_bytes(model, training_state))
    else:
        raise TypeError(f"f must be a path (str or os.PathLike) or a binary file object, got "
                        f"{type(f).__name__}")


_FILE_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
               (stat.S_ISSOCK, "a socket"))


def _writable_target(path):
    """The file a save to `path` writes: a symbolic link's final target (the
    link stays a link), refused unless it is a regular file or does not
    exist yet in an existing folder."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            raise FileNotFoundError(f"cannot write the model to {path}: the folder {folder} "
                                    "does not exist") from None
        return target
    if not stat.S_ISREG(mode):
        kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a regular file")
        raise ValueError(f"cannot write the model to {path}: it is {kind}; a model is written "
                         "only to a regular file")
    return target


def _write_replacing(target, data):
    """Write `data` to `target` atomically: a temporary file in the same
    folder, then renamed over it.  A new file gets the mode ``open()`` would
    give it (0o666 less the umask, applied by the system when the file is
    created), an existing one keeps its mode."""
    folder = os.path.dirname(target)
    try:
        keep = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        keep = None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = os.path.join(folder, f".perceptron-{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"cannot create a temporary file in {folder}")
    try:
        with os.fdopen(fd, "wb") as out:
            if keep is not None:
                os.chmod(tmp, keep)
            out.write(data)
        os.replace(tmp, target)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


# ------------------------------------------------------------------ loading

# values of a valid file nest at most 4 deep (a list of states of arrays)
_MAX_DEPTH = 16

# A text array's dtype declares the width of every value (``|S999999999``
# is nine digits), so a few values could ask for gigabytes.  The arrays a
# file's text values make may take at most this multiple of the file's
# size in all, and at least _TEXT_FLOOR bytes: numpy's widths are those of
# the longest value, four bytes a character for ``<U``.
_TEXT_FACTOR = 16
_TEXT_FLOOR = 1 << 20


class _Decoder:
    """JSON values back into Python values; every array of the table used once."""

    def __init__(self, arrays, text_budget=_TEXT_FLOOR):
        self.arrays = arrays            # name -> ndarray
        self.used = set()
        self.text_budget = text_budget  # bytes the text arrays may still take
        self.version = None             # the package version the file names

    def decode(self, value, path, depth=0):
        if value is None or isinstance(value, (bool, str, int, float)):
            return value
        if depth > _MAX_DEPTH:
            raise ModelFileError(f"{path}: values nest more than {_MAX_DEPTH} deep")
        if isinstance(value, list):
            raise ModelFileError(f"{path}: a bare JSON list (lists are tagged)")
        if not isinstance(value, dict) or len(value) != 1:
            raise ModelFileError(f"{path}: an object that is not a tagged value")
        (tag, payload), = value.items()
        if tag == "array":
            if not isinstance(payload, str) or payload not in self.arrays:
                raise ModelFileError(f"{path}: refers to an array {payload!r} the file does not "
                                     "have")
            if payload in self.used:
                raise ModelFileError(f"{path}: the array {payload!r} is used twice")
            self.used.add(payload)
            return self.arrays[payload]
        if tag == "float":
            if payload not in ("inf", "-inf", "nan"):
                raise ModelFileError(f"{path}: {payload!r} is not a non-finite float")
            return float(payload)
        if tag == "list":
            if not isinstance(payload, list):
                raise ModelFileError(f"{path}: a list tag without a list")
            return [self.decode(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(payload)]
        if tag == "dict":
            if not isinstance(payload, list) or not all(
                    isinstance(kv, list) and len(kv) == 2 for kv in payload):
                raise ModelFileError(f"{path}: a dict tag without [key, value] pairs")
            out = {}
            for k, v in payload:
                if k is not None and not isinstance(k, (bool, str, int, float)):
                    raise ModelFileError(f"{path}: a key that is not a number or a string")
                out[k] = self.decode(v, f"{path}[{k!r}]", depth + 1)
            return out
        if tag == "text_array":
            return self.text_array(payload, path)
        if tag == "model":
            if not isinstance(payload, dict) or set(payload) - {"schema_version"} != \
                    {"class", "params", "fitted"}:
                raise ModelFileError(f"{path}: a model needs a class, params and fitted")
            est, spec = _estimator(payload, self, depth + 1)
            if payload["fitted"]:
                _check_loaded(est, spec)
            return est
        kind = value_types().get(tag)
        if kind is not None:
            return self.decode_fields(kind, payload, path, depth + 1)
        raise ModelFileError(f"{path}: unknown tag {tag!r}")

    def decode_fields(self, kind, payload, path, depth):
        if not isinstance(payload, dict):
            raise ModelFileError(f"{path}: a state that is not an object")
        value = object.__new__(kind.cls)
        template = set(vars(kind.template()))
        if not template <= set(payload) <= template | set(kind.optional):
            raise ModelFileError(f"{path}: the training state has the fields {sorted(payload)}, "
                                 f"expected {sorted(template)}")
        for name, v in payload.items():
            setattr(value, name, self.decode(v, f"{path}.{name}", depth + 1))
        return value

    def text_array(self, payload, path):
        """A text array, its size (declared width x values) checked against
        the budget before numpy allocates it."""
        if not (isinstance(payload, dict) and set(payload) == {"dtype", "values"}
                and isinstance(payload["values"], list)):
            raise ModelFileError(f"{path}: a text array needs a dtype and a list of values")
        dtype, values = payload["dtype"], payload["values"]
        if dtype != "object" and (not isinstance(dtype, str) or not _TEXT_DTYPE.match(dtype)):
            raise ModelFileError(f"{path}: {dtype!r} is not a string dtype")
        try:
            itemsize = 8 if dtype == "object" else np.dtype(dtype).itemsize
        except (TypeError, ValueError):  # wider than numpy's itemsize allows
            raise ModelFileError(f"{path}: the dtype {dtype} is wider than an array "
                                 "can hold") from None
        size = itemsize * len(values)
        if size > self.text_budget:
            raise ModelFileError(f"{path}: {len(values)} values of dtype {dtype} would take "
                                 f"{size:,} bytes, out of proportion to the file's size")
        self.text_budget -= size
        return _decode_text_array(dtype, values, path)


def _first_unencodable(value, where):
    """(where, text): the first text in the header's content that UTF-8
    cannot encode (a lone surrogate), with where it is, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where, value
        return None
    if isinstance(value, dict):
        items = [(f"{where}.{k}" if where else str(k), v) for k, v in value.items()]
        if "text_array" in value or "values" in value:  # an array: name it by its attribute
            items = [(where, v) for v in value.values()]
        for key in value:
            if isinstance(key, str) and _first_unencodable(key, where):
                return f"a key of {where or 'the header'}", key
    elif isinstance(value, list):
        items = [(where, v) for v in value]
    else:
        return None
    for at, item in items:
        found = _first_unencodable(item, at)
        if found:
            return found
    return None


def _decode_text_array(dtype, values, path):
    if dtype == "object":
        if not all(isinstance(v, (str, bool, int, float)) for v in values):
            raise ModelFileError(f"{path}: labels must be numbers, strings or booleans")
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    if not isinstance(dtype, str) or not _TEXT_DTYPE.match(dtype):
        raise ModelFileError(f"{path}: {dtype!r} is not a string dtype")
    if not all(isinstance(v, str) for v in values):
        raise ModelFileError(f"{path}: a string array with values that are not strings")
    try:
        if "S" in dtype:
            return np.array([v.encode("latin-1") for v in values], dtype=dtype)
        return np.array(values, dtype=dtype)
    except (UnicodeEncodeError, ValueError, TypeError) as exc:
        raise ModelFileError(f"{path}: the values do not fit the dtype {dtype}: {exc}") from None


def _read_aligned(f):
    """The file's bytes in a 64-byte aligned numpy uint8 buffer."""
    import io

    if isinstance(f, (str, bytes, os.PathLike)):
        path = os.fsdecode(f)
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            buf = _aligned(size)
            got = fh.readinto(memoryview(buf)) if size else 0
            extra = fh.read(1)
        if got != size or extra:
            raise ModelFileError(f"{path}: the file changed while it was read")
        return buf, path
    if hasattr(f, "read"):
        if isinstance(f, io.TextIOBase):
            raise TypeError("the file is open in text mode; open it in binary mode ('rb')")
        data = f.read()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("the file object's read() did not return bytes")
        buf = _aligned(len(data))
        buf[:] = np.frombuffer(data, dtype=np.uint8)
        return buf, str(getattr(f, "name", "<file>"))
    raise TypeError(f"f must be a path (str or os.PathLike) or a binary file object, got "
                    f"{type(f).__name__}")


def _aligned(size):
    raw = np.empty(size + 64, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64
    return raw[start:start + size]


def _looks_like(buf):
    head = bytes(buf[:8])
    if len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5:
        return ("it is a pickle: perceptron never loads pickles (unpickling can run any code); "
                "save models with model.save(path)")
    if head.startswith(b"PK\x03\x04"):
        return "it is a zip archive (.npz?), not a perceptron model file"
    if head.startswith(b"\x93NUMPY"):
        return "it is a .npy array, not a perceptron model file"
    return None


def load_model(f: Any) -> Any:
    """Load an estimator saved by ``save_model`` / ``model.save``.

    The container is checked by the package's C reader (magic bytes, format
    version, sizes, checksum, array table); the JSON header is parsed with
    the ``json`` module; the class must be one of the package's estimators
    (those the estimator modules register; nothing is imported by name) and
    is rebuilt with its parameters and fitted attributes, every array built
    from the file's bytes.  Every shape, dtype and index the compiled code relies on is
    checked before the estimator is returned.  Nothing is unpickled.

    Parameters
    ----------
    f : str, os.PathLike or binary file object

    Returns
    -------
    estimator : Perceptron, VotedPerceptron, CentroidClassifier or KernelPerceptron
        Predicts exactly as the saved one; ``partial_fit`` and ``warm_start``
        continue from the saved training state when the file holds it
        (``save(path, training_state=True)``).  Without it, ``partial_fit``
        raises a ValueError and ``warm_start`` starts from ``coef_``.

    Raises
    ------
    perceptron.exceptions.ModelFileError
        (a ``ValueError``) for anything that is not a valid model file of a
        format version this package reads: another kind of file (a pickle, an
        ``.npz``), a newer format version, a truncated or corrupt file, an
        oversized header, an unknown class or attribute, arrays whose shapes
        or dtypes do not make a valid model.
    """
    buf, name = _read_aligned(f)
    try:
        container = _model_file.read_container(buf)
    except _model_file.ContainerError as exc:
        status, reason = exc.args
        if status == -2:  # wrong magic
            hint = _looks_like(buf)
            if hint:
                reason = hint
        raise ModelFileError(f"{name}: {reason}") from None
    try:
        return _build(buf, container)
    except ModelFileError as exc:
        raise ModelFileError(f"{name}: {exc}") from None


def _reject_constant(value):
    raise ModelFileError(f"the header holds {value}, which JSON does not allow")


def _spec_of(content, version):
    """The registered layout of the class a header (or a model inside it)
    names, its layout version checked."""
    specs = models()
    name = content["class"]
    if not isinstance(name, str) or name not in specs:
        raise ModelFileError(f"the file holds a {name!r}, which is not an estimator of this "
                             f"package ({', '.join(specs)})")
    spec = specs[name]
    schema = content.get("schema_version", 1)
    if not (isinstance(schema, int) and not isinstance(schema, bool)
            and 1 <= schema <= spec.schema_version):
        raise ModelFileError(f"the file holds a {name} of layout version {schema!r}; this "
                             f"package reads versions 1 to {spec.schema_version} (the file may "
                             f"come from a newer version: {version!r})")
    if not isinstance(content["params"], dict) or not isinstance(content["fitted"], dict):
        raise ModelFileError("params and fitted must be JSON objects")
    return spec


def _estimator(content, decoder, depth=0):
    """(estimator, its layout) rebuilt from a header's (or a held model's)
    class, parameters and fitted attributes, not yet checked."""
    spec = _spec_of(content, decoder.version)
    cls, name = spec.cls, spec.cls.__name__
    params, fitted = content["params"], content["fitted"]
    where = "" if depth == 0 else f"the {name} inside: "
    unknown = set(params) - set(cls._param_names())
    if unknown:
        raise ModelFileError(f"{name} has no parameter {sorted(unknown)[0]!r} (the file may come "
                             f"from a newer version of the package: {decoder.version!r})")
    kwargs = {k: decoder.decode(v, f"{where}parameter {k}", depth) for k, v in params.items()}
    try:
        est = cls(**kwargs)
    except Exception as exc:  # any error of a constructor is a bad file
        raise ModelFileError(f"the parameters do not make a {name}: {exc}") from None
    for attr, value in fitted.items():
        if attr not in spec.fitted:
            raise ModelFileError(f"{attr!r} is not a fitted attribute of {name}")
        setattr(est, attr, decoder.decode(value, where + attr, depth))
    return est, spec


def _check_loaded(est, spec):
    """The registered check of a loaded, fitted estimator."""
    try:
        spec.check(est)
    except ModelFileError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        raise ModelFileError(f"the saved {spec.cls.__name__} is not valid: {exc}") from None


def _build(buf, container):
    try:
        text = container["header"].decode("utf-8")
        header = json.loads(text, parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise ModelFileError("the header is not UTF-8 text") from None
    except RecursionError:
        raise ModelFileError("the header nests too deeply") from None
    except ValueError as exc:
        raise ModelFileError(f"the header is not valid JSON: {exc}") from None
    if not isinstance(header, dict):
        raise ModelFileError("the header is not a JSON object")
    expected = {"format", "format_version", "package_version", "class", "params", "fitted"}
    if set(header) - {"schema_version"} != expected:
        raise ModelFileError(f"the header has the keys {sorted(header)}, expected "
                             f"{sorted(expected)}")
    if header["format"] != FORMAT or header["format_version"] != container["version"]:
        raise ModelFileError("the header does not describe a perceptron model of the file's "
                             "format version")
    _spec_of(header, header["package_version"])
    arrays = {}
    for array_name, dtype, shape, offset, nbytes in container["arrays"]:
        if any(size > sys.maxsize for size in shape):
            raise ModelFileError(f"the array {array_name!r} has a dimension too large for this "
                                 "platform")
        if nbytes == 0:
            arrays[array_name] = np.zeros(shape, dtype=np.dtype(dtype).newbyteorder("="))
            continue
        count = nbytes // np.dtype(dtype).itemsize
        a = np.frombuffer(buf, dtype=dtype, count=count, offset=offset).reshape(shape)
        if a.dtype == np.bool_:
            a = a.view(np.uint8) != 0  # any nonzero byte is True, as numpy reads it
        arrays[array_name] = np.array(a, dtype=a.dtype.newbyteorder("="), order="C")
    decoder = _Decoder(arrays, max(_TEXT_FACTOR * len(buf), _TEXT_FLOOR))
    decoder.version = header["package_version"]
    est, spec = _estimator(header, decoder)
    if decoder.used != set(arrays):
        raise ModelFileError(f"arrays {sorted(set(arrays) - decoder.used)} are not used by the "
                             "header")
    if header["fitted"]:
        _check_loaded(est, spec)
        if container["linear_kind"] != _linear_kind(est, spec):
            raise ModelFileError(f"the preamble's linear kind {container['linear_kind']} does not "
                                 f"match the {spec.cls.__name__} of the header")
    elif container["linear_kind"] != 0:
        raise ModelFileError("an unfitted estimator with a linear kind in the preamble")
    return est

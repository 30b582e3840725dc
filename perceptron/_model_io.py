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
``{"list": [...]}``, ``{"dict": [[key, value], ...]}``, ``{"float": "inf"}``
and ``{"online_state": {...}}`` (the training state of ``partial_fit`` and
``warm_start``).  Loading accepts only the package's estimator classes and,
for each, only its known fitted attributes; it rebuilds the estimator from
its parameters and checks every shape, dtype and index that the compiled
code trusts, so a file that does not make a valid model is refused
(``ModelFileError``) rather than crashing at predict.
"""
import json
import math
import numbers
import os
import re
import sys
import tempfile
import warnings
from typing import Any

import numpy as np

from ._core import kernel as _kernel, model_file as _model_file
from ._state import N_COUNTERS, OnlineState
from ._version import __version__
from .exceptions import ModelFileError

FORMAT = "perceptron model"
FORMAT_VERSION = _model_file.VERSION

# preamble fields (offsets in csrc/ptn_model_file.h)
_LINEAR_KINDS = {"binary": 1, "multiclass": 2, "multilabel": 3}

_NAME = re.compile(r"^[A-Za-z0-9_.]{1,31}$")
_TEXT_DTYPE = re.compile(r"^[<>|=]?[US][0-9]{1,9}$")


def _classes():
    from .centroid import CentroidClassifier
    from .kernel import KernelPerceptron
    from .linear import Perceptron
    from .voted import VotedPerceptron

    return {"Perceptron": Perceptron, "VotedPerceptron": VotedPerceptron,
            "CentroidClassifier": CentroidClassifier, "KernelPerceptron": KernelPerceptron}


# The fitted attributes each class may have; anything else is refused both
# ways (an unknown attribute at save is a bug to fix here, in a file it is
# not a model of this package).
_FITTED = {
    "Perceptron": {"coef_", "intercept_", "classes_", "n_features_in_", "n_iter_", "mistakes_",
                   "updates_", "loss_", "t_", "converged_", "validation_scores_",
                   "best_validation_score_", "feature_names_in_", "_mode", "_multilabel",
                   "_states", "_history"},  # _history: read from older files only
    "CentroidClassifier": {"centroids_", "coef_", "intercept_", "classes_", "n_features_in_",
                           "feature_names_in_"},
    "VotedPerceptron": {"vectors_", "vector_intercepts_", "vector_counts_",
                        "n_vectors_evicted_", "classes_", "n_features_in_", "n_iter_",
                        "mistakes_", "converged_", "feature_names_in_"},
    "KernelPerceptron": {"classes_", "n_features_in_", "support_", "support_vectors_", "alpha_",
                         "dual_coef_", "intercept_", "n_support_", "gamma_", "_kind",
                         "_kernel_fn", "_degree", "_coef0", "n_iter_", "converged_",
                         "mistakes_", "loss_", "t_", "n_removed_", "cache_stats_",
                         "feature_names_in_"},
}


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
        if type(value) is OnlineState:
            state = {}
            for name, v in vars(value).items():
                # the row order is rebuilt by every fit and partial_fit
                state[name] = None if name == "rows" else self.encode(v, f"{path}.{name}")
            return {"online_state": state}
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
        params[name] = encoder.encode(value, f"the parameter {name}")
    return params


def _linear_kind(est, name):
    if name == "Perceptron" and hasattr(est, "coef_"):
        if est._mode == "multilabel":
            return _LINEAR_KINDS["multilabel"]
        return _LINEAR_KINDS["binary" if est.coef_.shape[0] == 1 else "multiclass"]
    if name == "CentroidClassifier" and hasattr(est, "coef_"):
        return _LINEAR_KINDS["binary" if est.coef_.shape[0] == 1 else "multiclass"]
    return 0


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


def model_bytes(model):
    """The model file of `model`, as bytes."""
    classes = _classes()
    name = type(model).__name__
    if classes.get(name) is not type(model):
        raise TypeError(f"save: only the estimators of the package ({', '.join(classes)}) can "
                        f"be saved, not a {type(model).__module__}.{type(model).__qualname__}")
    encoder = _Encoder(name)
    params = _encode_params(model, encoder)
    param_names = set(model.get_params())
    fitted = {}
    for attr, value in vars(model).items():
        if attr in param_names:
            continue
        if attr not in _FITTED[name]:
            raise ValueError(f"cannot save this {name}: its attribute {attr!r} is not part of the "
                             "model file format")
        if attr == "_kernel_fn" and value is not None:
            raise ValueError("cannot save a KernelPerceptron with a callable kernel: a model "
                             "file holds data, not code")
        fitted[attr] = encoder.encode(value, attr)
    if len(encoder.arrays) > _model_file.MAX_ARRAYS:
        raise ValueError(f"cannot save this {name}: {len(encoder.arrays)} arrays, more than the "
                         f"{_model_file.MAX_ARRAYS} a model file holds (lower max_vectors or the "
                         "number of classes)")
    header = json.dumps({"format": FORMAT, "format_version": FORMAT_VERSION,
                         "package_version": __version__, "class": name, "params": params,
                         "fitted": fitted}, allow_nan=False, ensure_ascii=False,
                        separators=(",", ":")).encode("utf-8")
    if len(header) > _model_file.MAX_HEADER:
        raise ValueError(f"cannot save this {name}: its JSON header would take {len(header)} "
                         f"bytes, more than the {_model_file.MAX_HEADER} allowed (too many labels "
                         "or feature names)")
    return _pack(_linear_kind(model, name), header, encoder.arrays)


def save_model(model, f):
    """Write a fitted (or unfitted) estimator of the package to a model file.

    The file holds the estimator's class, its parameters and its fitted
    attributes, including the training state that ``partial_fit`` and
    ``warm_start`` continue from; ``load_model`` gives back an estimator that
    predicts exactly as this one.  It is plain data (a binary container of
    numeric arrays and a JSON header, see ``perceptron._model_io``), never a
    pickle; a C program can score a linear model from it (csrc/ptn_model_file.h).

    Parameters
    ----------
    model : Perceptron, VotedPerceptron, CentroidClassifier or KernelPerceptron
    f : str, os.PathLike or binary file object
        A path is written atomically (a temporary file in the same folder,
        then renamed), so an interrupted save never leaves half a model.

    Raises
    ------
    ValueError
        If the model holds something a data file cannot: labels that are not
        numbers, strings or booleans, or a callable kernel.  A callback and a
        numpy random generator as ``random_state`` are saved as None, with a
        warning.
    TypeError
        If ``model`` is not an estimator of the package.
    """
    import io

    if isinstance(f, (str, bytes, os.PathLike)):
        data = model_bytes(model)
        path = os.fsdecode(f)
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=".perceptron-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    elif hasattr(f, "write"):
        if isinstance(f, io.TextIOBase):
            raise TypeError("the file is open in text mode; open it in binary mode ('wb')")
        f.write(model_bytes(model))
    else:
        raise TypeError(f"f must be a path (str or os.PathLike) or a binary file object, got "
                        f"{type(f).__name__}")


# ------------------------------------------------------------------ loading

# values of a valid file nest at most 4 deep (a list of states of arrays)
_MAX_DEPTH = 16


class _Decoder:
    """JSON values back into Python values; every array of the table used once."""

    def __init__(self, arrays):
        self.arrays = arrays            # name -> ndarray
        self.used = set()

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
            return _decode_text_array(payload, path)
        if tag == "online_state":
            return self.decode_state(payload, path, depth + 1)
        raise ModelFileError(f"{path}: unknown tag {tag!r}")

    def decode_state(self, payload, path, depth):
        if not isinstance(payload, dict):
            raise ModelFileError(f"{path}: a state that is not an object")
        state = object.__new__(OnlineState)
        template = set(vars(OnlineState(1, 1, np.float64, multinomial=False, average=False,
                                        pocket=False, batch_size=None, seed=0)))
        if set(payload) != template:
            raise ModelFileError(f"{path}: the training state has the fields {sorted(payload)}, "
                                 f"expected {sorted(template)}")
        for name, v in payload.items():
            setattr(state, name, self.decode(v, f"{path}.{name}", depth + 1))
        return state


def _decode_text_array(payload, path):
    if not (isinstance(payload, dict) and set(payload) == {"dtype", "values"}
            and isinstance(payload["values"], list)):
        raise ModelFileError(f"{path}: a text array needs a dtype and a list of values")
    dtype, values = payload["dtype"], payload["values"]
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


def load_model(f):
    """Load an estimator saved by ``save_model`` / ``model.save``.

    The container is checked by the package's C reader (magic bytes, format
    version, sizes, checksum, array table); the JSON header is parsed with
    the ``json`` module; the class must be one of the package's estimators
    (a fixed list, nothing is imported by name) and is rebuilt with its
    parameters and fitted attributes, every array built from the file's
    bytes.  Every shape, dtype and index the compiled code relies on is
    checked before the estimator is returned.  Nothing is unpickled.

    Parameters
    ----------
    f : str, os.PathLike or binary file object

    Returns
    -------
    estimator : Perceptron, VotedPerceptron, CentroidClassifier or KernelPerceptron
        Predicts exactly as the saved one; ``partial_fit`` and ``warm_start``
        continue from the saved training state.

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
    if set(header) != expected:
        raise ModelFileError(f"the header has the keys {sorted(header)}, expected "
                             f"{sorted(expected)}")
    if header["format"] != FORMAT or header["format_version"] != container["version"]:
        raise ModelFileError("the header does not describe a perceptron model of the file's "
                             "format version")
    classes = _classes()
    name = header["class"]
    if not isinstance(name, str) or name not in classes:
        raise ModelFileError(f"the file holds a {name!r}, which is not an estimator of this "
                             f"package ({', '.join(classes)})")
    cls = classes[name]
    params, fitted = header["params"], header["fitted"]
    if not isinstance(params, dict) or not isinstance(fitted, dict):
        raise ModelFileError("params and fitted must be JSON objects")

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
    decoder = _Decoder(arrays)

    known = set(cls._param_names())
    unknown = set(params) - known
    if unknown:
        raise ModelFileError(f"{name} has no parameter {sorted(unknown)[0]!r} (the file may come "
                             f"from a newer version of the package: {header['package_version']!r})")
    kwargs = {k: decoder.decode(v, f"parameter {k}") for k, v in params.items()}
    try:
        est = cls(**kwargs)
    except Exception as exc:  # any error of a constructor is a bad file
        raise ModelFileError(f"the parameters do not make a {name}: {exc}") from None
    for attr, value in fitted.items():
        if attr not in _FITTED[name]:
            raise ModelFileError(f"{attr!r} is not a fitted attribute of {name}")
        setattr(est, attr, decoder.decode(value, attr))
    if decoder.used != set(arrays):
        raise ModelFileError(f"arrays {sorted(set(arrays) - decoder.used)} are not used by the "
                             "header")
    if fitted:
        try:
            _VALIDATORS[name](est)
        except ModelFileError:
            raise
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
            raise ModelFileError(f"the saved {name} is not valid: {exc}") from None
        if container["linear_kind"] != _linear_kind(est, name):
            raise ModelFileError(f"the preamble's linear kind {container['linear_kind']} does not "
                                 f"match the {name} of the header")
    elif container["linear_kind"] != 0:
        raise ModelFileError("an unfitted estimator with a linear kind in the preamble")
    if "_history" in vars(est):
        del est._history  # a file of an earlier version: mistakes_ ... hold the same
    return est


# ------------------------------------------------------------- validation
#
# The compiled loops trust their inputs (checked once in Python at fit and
# predict).  A loaded model skipped fit, so everything predict, partial_fit
# and warm_start read without checking is checked here.

def _attr(obj, name: str) -> Any:
    return getattr(obj, name, None)


def _bad(what):
    raise ModelFileError(f"invalid model: {what}")


def _need(cond, what):
    if not cond:
        _bad(what)


def _is_array(a, ndim, kinds):
    return isinstance(a, np.ndarray) and a.ndim == ndim and a.dtype.kind in kinds


def _int(value, what, low=0):
    _need(isinstance(value, int) and not isinstance(value, bool) and value >= low,
          f"{what} must be an int >= {low}")


def _check_common(est, min_classes=2):
    c = _attr(est, "classes_")
    _need(isinstance(c, np.ndarray) and c.ndim == 1 and len(c) >= min_classes,
          f"classes_ must be a 1-D array of at least {min_classes} labels")
    # sorted and distinct, as fit makes them: partial_fit maps labels to
    # class indices by binary search, which must stay inside the classes
    try:
        values = c.tolist()
        ordered = all(a < b for a, b in zip(values[:-1], values[1:]))
    except TypeError:
        ordered = False
    _need(ordered, "classes_ must hold distinct labels in increasing order")
    _int(_attr(est, "n_features_in_"), "n_features_in_", 1)
    names = _attr(est, "feature_names_in_")
    if hasattr(est, "feature_names_in_"):
        _need(_is_array(names, 1, "O") and len(names) == est.n_features_in_
              and all(isinstance(v, str) for v in names),
              "feature_names_in_ must hold n_features_in_ strings")


def _check_linear(est, k):
    W, b = _attr(est, "coef_"), _attr(est, "intercept_")
    _need(_is_array(W, 2, "f") and W.dtype in (np.float32, np.float64)
          and W.shape == (k, est.n_features_in_),
          f"coef_ must be a float32 or float64 array of shape ({k}, n_features_in_)")
    _need(_is_array(b, 1, "f") and b.dtype == W.dtype and b.shape == (k,),
          "intercept_ must be an array (k,) of coef_'s dtype")


def _check_history(est, *names, ndim=1):
    for name in names:
        a = _attr(est, name)
        _need(isinstance(a, np.ndarray) and a.ndim in (1, ndim), f"{name} must be an array")


def _check_perceptron(est):
    mode = _attr(est, "_mode")
    _need(mode in ("binary", "ovr", "multinomial", "multilabel"), "unknown _mode")
    _check_common(est)
    n_classes = len(est.classes_)
    _need(est._multilabel is (mode == "multilabel"), "_multilabel disagrees with _mode")
    if mode == "multilabel":
        _need(np.array_equal(est.classes_, np.arange(n_classes)),
              "a multi-label model's classes_ must be 0..n_labels-1")
    if mode == "binary":
        _need(n_classes == 2, "a binary model has two classes")
    if mode == "ovr":
        _need(n_classes >= 3, "a one-vs-rest model has three classes or more")
    k = 1 if mode == "binary" or (mode == "multinomial" and n_classes == 2) else n_classes
    _check_linear(est, k)
    for name in ("n_iter_", "t_"):
        _int(_attr(est, name), name)
    _need(isinstance(est.converged_, bool), "converged_ must be a bool")
    _check_history(est, "mistakes_", "updates_", "loss_")
    # files written before partial_fit kept its history in the arrays alone
    # also hold it as lists: checked, then dropped (load_model)
    history = getattr(est, "_history", None)
    _need(history is None or (
        isinstance(history, dict) and set(history) == {"mistakes", "updates", "loss"}
        and all(isinstance(v, list) and all(isinstance(x, (int, float)) and
                                            not isinstance(x, bool) for x in v)
                for v in history.values())),
          "_history must hold the lists mistakes, updates and loss")
    try:
        p = est._check_params()
    except (TypeError, ValueError) as exc:
        _bad(f"the parameters are not valid: {exc}")
    states = _attr(est, "_states")
    d, dtype = est.n_features_in_, est.coef_.dtype
    if mode == "multinomial":
        shapes = [(n_classes, True)]
    elif mode == "binary":
        shapes = [(1, False)]
    else:
        shapes = [(1, False)] * n_classes
    _need(isinstance(states, list) and len(states) == len(shapes),
          f"_states must hold {len(shapes)} training states")
    for j, (state, (rows, multinomial)) in enumerate(zip(states, shapes)):
        _check_state(state, OnlineState(rows, d, dtype, multinomial=multinomial,
                                        average=p["average"], pocket=p["pocket"],
                                        batch_size=p["batch_size"], seed=0), j)


def _check_state(state, template, j):
    _need(type(state) is OnlineState, f"_states[{j}] is not a training state")
    for name, ref in vars(template).items():
        value = _attr(state, name)
        if isinstance(ref, np.ndarray):
            _need(isinstance(value, np.ndarray) and value.shape == ref.shape
                  and value.dtype == ref.dtype,
                  f"_states[{j}].{name} must be {ref.dtype} of shape {ref.shape}")
        elif name == "rows":
            _need(value is None, f"_states[{j}].rows must be null")
        else:
            _need(type(value) is type(ref) and value == ref,
                  f"_states[{j}].{name} must be {ref!r}")
    _need(len(state.counters) == N_COUNTERS, "the state's counters")


def _check_centroid(est):
    _check_common(est)
    n_classes = len(est.classes_)
    _check_linear(est, 1 if n_classes == 2 else n_classes)
    mu = _attr(est, "centroids_")
    _need(_is_array(mu, 2, "f") and mu.shape == (n_classes, est.n_features_in_),
          "centroids_ must be an array (n_classes, n_features_in_)")


def _check_voted(est):
    _check_common(est)
    n_problems = 1 if len(est.classes_) == 2 else len(est.classes_)
    V, b, c = est.vectors_, est.vector_intercepts_, est.vector_counts_
    _need(all(isinstance(x, list) and len(x) == n_problems for x in (V, b, c)),
          f"vectors_, vector_intercepts_ and vector_counts_ must be lists of {n_problems}")
    for j in range(n_problems):
        _need(_is_array(V[j], 2, "f") and V[j].dtype in (np.float32, np.float64)
              and V[j].shape[1] == est.n_features_in_,
              f"vectors_[{j}] must be a float array (n_vectors, n_features_in_)")
        n = V[j].shape[0]
        _need(_is_array(b[j], 1, "f") and b[j].dtype == np.float64 and b[j].shape == (n,),
              f"vector_intercepts_[{j}] must be float64 ({n},)")
        _need(_is_array(c[j], 1, "i") and c[j].dtype == np.int64 and c[j].shape == (n,),
              f"vector_counts_[{j}] must be int64 ({n},)")
    for name in ("n_iter_", "n_vectors_evicted_"):
        _int(_attr(est, name), name)
    _need(isinstance(est.converged_, bool), "converged_ must be a bool")
    _check_history(est, "mistakes_")


_KERNEL_KINDS = {"linear": _kernel.KIND_LINEAR, "poly": _kernel.KIND_POLY,
                 "rbf": _kernel.KIND_RBF, "sigmoid": _kernel.KIND_SIGMOID,
                 "precomputed": _kernel.KIND_PRECOMPUTED}


def _check_kernel(est):
    _check_common(est)
    try:
        est._check_params()
    except (TypeError, ValueError) as exc:
        _bad(f"the parameters are not valid: {exc}")
    n_est = 1 if len(est.classes_) == 2 else len(est.classes_)
    kind = est._kind
    _need(est._kernel_fn is None, "a callable kernel cannot come from a file")
    _need(isinstance(est.kernel, str) and _KERNEL_KINDS.get(est.kernel) == kind,
          "_kind does not match the kernel parameter")
    support = est.support_
    _need(_is_array(support, 1, "i"), "support_ must be an integer array")
    support = est.support_ = support.astype(np.intp)
    n_sv = len(support)
    _need(n_sv == 0 or (support[0] >= 0 and (np.diff(support) > 0).all()),
          "support_ must be increasing non-negative indices")
    SV = est.support_vectors_
    d = est.n_features_in_
    _need(_is_array(SV, 2, "f") and SV.dtype in (np.float32, np.float64),
          "support_vectors_ must be a float32 or float64 matrix")
    if kind == _kernel.KIND_PRECOMPUTED:
        # predict reads column support_[j] of the kernel values against the
        # n_features_in_ training rows
        _need(n_sv == 0 or support[-1] < d, "support_ indexes past the training rows")
        _need(SV.shape == (0, d), "support_vectors_ must be empty (0, n_features_in_) for a "
                                  "precomputed kernel")
    else:
        _need(SV.shape == (n_sv, d), "support_vectors_ must be (n_support, n_features_in_)")
    _need(_is_array(est.alpha_, 2, "i") and est.alpha_.dtype == np.int64
          and est.alpha_.shape == (n_est, n_sv), f"alpha_ must be int64 ({n_est}, {n_sv})")
    _need(_is_array(est.dual_coef_, 2, "f") and est.dual_coef_.dtype == np.float64
          and est.dual_coef_.shape == (n_est, n_sv), f"dual_coef_ must be float64 ({n_est}, {n_sv})")
    _need(_is_array(est.intercept_, 1, "f") and est.intercept_.dtype == np.float64
          and est.intercept_.shape == (n_est,), f"intercept_ must be float64 ({n_est},)")
    _need(_is_array(est.n_support_, 1, "i") and est.n_support_.shape == (n_est,),
          "n_support_ must be an integer array (n_estimators,)")
    gamma = est.gamma_
    _need(gamma is None or (isinstance(gamma, float) and math.isfinite(gamma) and gamma > 0),
          "gamma_ must be None or a positive float")
    _need(gamma is not None or kind in (_kernel.KIND_LINEAR, _kernel.KIND_PRECOMPUTED),
          "gamma_ is needed by this kernel")
    _int(est._degree, "_degree", 1)
    _need(est._degree <= 2**31 - 1, "_degree must fit a C int")
    _need(isinstance(est._coef0, float) and math.isfinite(est._coef0), "_coef0 must be a float")
    for name in ("n_iter_", "t_", "n_removed_"):
        _int(_attr(est, name), name)
    _need(isinstance(est.converged_, bool), "converged_ must be a bool")
    _check_history(est, "mistakes_", "loss_", ndim=2)
    stats = est.cache_stats_
    _need(isinstance(stats, dict) and all(isinstance(k, str) and isinstance(v, int)
                                          for k, v in stats.items()),
          "cache_stats_ must map names to ints")


_VALIDATORS = {"Perceptron": _check_perceptron, "CentroidClassifier": _check_centroid,
               "VotedPerceptron": _check_voted, "KernelPerceptron": _check_kernel}

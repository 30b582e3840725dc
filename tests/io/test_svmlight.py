"""perceptron.io's svmlight / libsvm reader and writer: against scikit-learn's
load_svmlight_file, on edge cases cut at every byte, numbers read exactly,
every error message, and dump/load round trips."""
import bz2
import gzip
import io
import locale
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from perceptron.exceptions import SvmlightFormatError
from perceptron.io import CSRData, dump_svmlight, iter_svmlight, load_svmlight

sp = pytest.importorskip("scipy.sparse")


def sk_load(data, **kw):
    sk = pytest.importorskip("sklearn.datasets")
    return sk.load_svmlight_file(io.BytesIO(data) if isinstance(data, bytes) else data, **kw)


def load_bytes(data, **kw):
    return load_svmlight(io.BytesIO(data), **kw)


def assert_same_csr(X, Y, y=None, z=None):
    """X and Y hold the same CSR arrays (values, not dtypes of the indices)."""
    assert X.shape == Y.shape
    np.testing.assert_array_equal(X.indptr, Y.indptr)
    np.testing.assert_array_equal(X.indices, Y.indices)
    assert X.data.dtype == Y.data.dtype
    np.testing.assert_array_equal(X.data, Y.data)
    if y is not None:
        assert y.dtype == z.dtype == np.float64
        np.testing.assert_array_equal(y, z)


# ----------------------------------------------------------------- a9a

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a9a_same_as_scikit_learn(a9a_path, dtype):
    Xs, ys = sk_load(str(a9a_path), dtype=dtype)
    X, y = load_svmlight(a9a_path, dtype=dtype)
    assert isinstance(X, sp.csr_matrix)
    assert X.shape == (32561, 123)
    assert X.indices.dtype == X.indptr.dtype == np.int32
    assert_same_csr(X, Xs, y, ys)
    assert X.has_sorted_indices


def test_a9a_int32_indices_small_buffer_and_outputs(a9a_path):
    Xs, ys = sk_load(str(a9a_path))
    X, y = load_svmlight(str(a9a_path), index_dtype=np.int32, buffer_size=4093)
    assert X.indices.dtype == X.indptr.dtype == np.int32
    assert_same_csr(X, Xs, y, ys)
    C, yc = load_svmlight(a9a_path, output="csr")
    assert isinstance(C, CSRData) and C.shape == Xs.shape
    assert_same_csr(C, Xs, yc, ys)
    D, yd = load_svmlight(a9a_path, n_features=130, output="dense")
    assert D.shape == (32561, 130)
    np.testing.assert_array_equal(D[:, :123], Xs.toarray())
    assert not D[:, 123:].any()


def test_a9a_chunks_concatenate_to_the_file(a9a_path):
    X, y = load_svmlight(a9a_path)
    chunks = list(iter_svmlight(a9a_path, chunk_rows=5000, buffer_size=65536))
    assert [c.shape[0] for c, _ in chunks] == [5000] * 6 + [2561]
    assert all(c.shape[1] == 123 for c, _ in chunks)
    assert_same_csr(sp.vstack([c for c, _ in chunks]).tocsr(), X)
    np.testing.assert_array_equal(np.concatenate([t for _, t in chunks]), y)


# ----------------------------------------------------------- edge cases

EDGE = (b"# a comment line\n"
        b"\n"
        b"+1 qid:7 3:1.5 10:-2 \n"
        b"-1 1:0.25 2:1e-3   # trailing comment\r\n"
        b"   \t\n"
        b"2 5:3.0e+2 6:-.5\t7:7.\r\n"
        b"0\n"
        b"1 qid:12 8:1 9:0\n"
        b"-1 4:1E2 11:1")  # no newline at the end


def test_edge_cases_same_as_scikit_learn():
    Xs, ys = sk_load(EDGE)
    X, y = load_bytes(EDGE)
    assert_same_csr(X, Xs, y, ys)
    assert X.shape == (6, 11)


@pytest.mark.parametrize("zero_based", [True, False, "auto"])
def test_zero_based_as_scikit_learn(zero_based):
    for data in (b"1 1:1 3:2\n-1 2:5\n", b"1 0:1 3:2\n-1 2:5\n"):
        if zero_based is False and b" 0:" in data:
            with pytest.raises(SvmlightFormatError, match="line 1: feature index 0"):
                load_bytes(data, zero_based=False)
            continue
        Xs, ys = sk_load(data, zero_based=zero_based)
        X, y = load_bytes(data, zero_based=zero_based)
        assert_same_csr(X, Xs, y, ys)


def test_auto_decides_over_the_whole_file():
    data = b"1 1:1\n" * 5 + b"1 0:2\n"
    X, _ = load_bytes(data)
    assert X.shape == (6, 2)
    np.testing.assert_array_equal(X.indices, [1, 1, 1, 1, 1, 0])


def test_unsorted_indices_are_sorted():
    data = b"1 10:1 3:2 7:3\n-1 2:1 1:4\n1 5:1 4:2 3:3 2:4 1:5 6:6 40:7 39:8 38:9 37:1 36:2 " \
           b"35:3 34:4 33:5 32:6 31:7 30:8 29:9 28:1 27:2 26:3 25:4 24:5 23:6 22:7 21:8 20:9 " \
           b"19:1 18:2 17:3 16:4 15:5 14:6 13:7 12:8 11:9 10:1 9:2 8:3 7:4\n"
    X, y = load_bytes(data)
    lines = data.decode().splitlines()
    rows = []
    for line in lines:  # the same file with each row's features sorted
        label, *feats = line.split()
        feats.sort(key=lambda f: int(f.split(":")[0]))
        rows.append(" ".join([label, *feats]))
    Xs, ys = sk_load(("\n".join(rows) + "\n").encode())
    assert_same_csr(X, Xs, y, ys)


def test_empty_inputs():
    for data in (b"", b"\n\n", b"# only comments\n#\n", b"  \r\n"):
        X, y = load_bytes(data)
        assert X.shape == (0, 1) and y.shape == (0,)
    X, y = load_bytes(b"1\n-1\n")  # rows without features
    assert X.shape == (2, 1) and X.nnz == 0
    np.testing.assert_array_equal(y, [1, -1])
    assert list(iter_svmlight(io.BytesIO(b""), n_features=3)) == []


def test_huge_indices():
    big = 2**40
    X, _ = load_bytes(f"1 {big}:1 1:2\n".encode())
    assert X.shape == (1, big) and X.indices.tolist() == [0, big - 1]
    C, _ = load_bytes(f"1 {2**63 - 1}:1\n".encode(), zero_based=False, output="csr")
    assert C.indices.tolist() == [2**63 - 2] and C.shape == (1, 2**63 - 1)
    with pytest.raises(SvmlightFormatError, match=r"line 2: feature index 2147483648 is too large "
                                                  r"for int32.*index_dtype=np.int64"):
        load_bytes(b"1 1:1\n1 2147483648:1\n", index_dtype=np.int32)
    with pytest.raises(SvmlightFormatError, match="line 1: feature index 9223372036854775808 is "
                                                  "too large for int64"):
        load_bytes(b"1 9223372036854775808:1\n")
    with pytest.raises(SvmlightFormatError, match="line 1: feature index 99999999999999999999999"):
        load_bytes(b"1 99999999999999999999999:1\n")
    # one-based, the largest index that leaves room for n_features
    X, _ = load_bytes(b"1 2147483647:1\n", index_dtype=np.int32, output="csr")
    assert X.shape == (1, 2**31 - 1)


def test_every_byte_is_a_chunk_boundary():
    X0, y0 = load_bytes(EDGE)
    for size in range(1, len(EDGE) + 2):
        X, y = load_bytes(EDGE, buffer_size=size)
        assert_same_csr(X, X0, y, y0)
    for size in (1, 2, 3, 5, 8):
        for rows in (1, 2, 4):
            chunks = list(iter_svmlight(io.BytesIO(EDGE), chunk_rows=rows, buffer_size=size))
            assert all(c.shape == (min(rows, c.shape[0]), X0.shape[1]) for c, _ in chunks)
            assert_same_csr(sp.vstack([c for c, _ in chunks]).tocsr(), X0)
            np.testing.assert_array_equal(np.concatenate([t for _, t in chunks]), y0)


def test_an_error_line_is_found_at_every_boundary():
    data = EDGE.replace(b"2 5:3.0e+2", b"2 5:3.0e+x")
    for size in range(1, len(data) + 2, 3):
        with pytest.raises(SvmlightFormatError) as info:
            load_bytes(data, buffer_size=size)
        assert info.value.line == 6
        assert "'5:3.0e+x': the feature value is not a number" in str(info.value)


# -------------------------------------------------------------- numbers

NUMBERS = ["0", "-0", "+0.0", "1", "-1", "0.1", ".5", "5.", "-.5e+3", "1e-400", "1e400",
           "-1e400", "4.9406564584124654e-324", "2.4703282292062327e-324",
           "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072014e-308",
           "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
           "123456789012345678901234567890", "0.1000000000000000055511151231257827021181583404541015625",
           "9007199254740993", "9007199254740992.5", "0000000000000000000000000001",
           "0.000000000000000000000000000000000001e36", "1E22", "1e23", "8.98846567431158e307",
           "3.4028234663852886e38", "3.4028235677973366e38", "3.4028235677973362e38",
           "1.401298464324817e-45", "7.006492321624085e-46", "inf", "-Infinity", "INF"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numbers_read_exactly(dtype):
    text = "1 " + " ".join(f"{i + 1}:{s}" for i, s in enumerate(NUMBERS)) + "\n"
    C, _ = load_bytes(text.encode(), dtype=dtype, output="csr")
    with np.errstate(over="ignore"):
        expected = np.array([float(s) for s in NUMBERS]).astype(dtype)
    assert C.data.dtype == dtype
    np.testing.assert_array_equal(C.data.view(np.uint8), expected.view(np.uint8))


def test_nan_values_and_labels():
    C, y = load_bytes(b"nan 1:NaN 2:-nan\n", output="csr")
    assert np.isnan(C.data).all() and np.isnan(y).all()


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"\A[+-]?([0-9]{1,25}(\.[0-9]{0,25})?|\.[0-9]{1,25})([eE][+-]?[0-9]{1,3})?\Z"))
def test_decimal_text_reads_as_python_float(text):
    C, y = load_bytes(f"{text} 1:{text}\n".encode(), output="csr")
    assert y[0] == float(text) or (y[0] != y[0] and float(text) != float(text))
    assert C.data.view(np.uint64)[0] == np.array([float(text)]).view(np.uint64)[0]


LOCALE_CHECK = """
import io, locale, sys
import numpy as np
from perceptron.io import dump_svmlight, load_svmlight
locale.setlocale(locale.LC_NUMERIC, sys.argv[1])
assert locale.localeconv()["decimal_point"] == ","
C, y = load_svmlight(io.BytesIO(b"1.5 1:0.25 2:1e-400 3:123456789012345678901.5\\n"), output="csr")
assert C.data.tolist() == [0.25, 0.0, 123456789012345678901.5] and y[0] == 1.5, C.data
out = io.BytesIO()
dump_svmlight(np.array([[0.1, 2.5]], dtype=np.float32), [1.5], out)
assert out.getvalue() == b"1.5 1:0.1 2:2.5\\n", out.getvalue()
print("ok")
"""


@pytest.mark.slow  # a fresh interpreter
def test_numbers_do_not_depend_on_the_locale(tmp_path):
    """Under a locale with a decimal comma (LC_NUMERIC), where strtod would
    stop at the '.', numbers read and write the same (the slow path of the
    parser is taken by the long numbers)."""
    env = dict(os.environ)
    name = None
    for candidate in ("de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"):
        try:
            old = locale.setlocale(locale.LC_NUMERIC, candidate)
        except locale.Error:
            continue
        locale.setlocale(locale.LC_NUMERIC, old)
        name = candidate
        break
    if name is None and shutil.which("localedef"):
        # compile one for this test (glibc reads LOCPATH)
        made = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                               str(tmp_path / "de_DE.UTF-8")], capture_output=True)
        if (tmp_path / "de_DE.UTF-8").exists():
            env["LOCPATH"], name = str(tmp_path), "de_DE.UTF-8"
        del made
    if name is None:
        pytest.skip("no locale with a decimal comma is installed, and localedef cannot make one")
    run = subprocess.run([sys.executable, "-c", LOCALE_CHECK, name], capture_output=True,
                         text=True, env=env, cwd=str(tmp_path), timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


# --------------------------------------------------------------- errors

ERRORS = [
    (b"1 1:1\nabc 1:2\n", 2,
     "the label 'abc' is not a number (each line starts with its label)"),
    (b"1 1:1\n\n1 x:2\n", 3, "'x:2': the feature index is not a non-negative integer"),
    (b"1 1:2 3\n", 1, "'3' is not a feature (expected index:value)"),
    (b"1 1:2 3:\n", 1, "'3:': the feature value is not a number"),
    (b"1 1:2 3:1.2.3\n", 1, "'3:1.2.3': the feature value is not a number"),
    (b"1 1:0x10\n", 1, "'1:0x10': the feature value is not a number"),
    (b"1 qid:a 1:1\n", 1, "'qid:a': the query id must be a 64-bit integer"),
    (b"1 qid:1 qid:2 1:1\n", 1, "'qid:2': the feature index is not a non-negative integer"),
    (b"1 -3:1\n", 1, "feature index -3 is negative"),
    (b"# c\r\n1 2:1 5:1 2:3\r\n", 2, "feature index 2 appears more than once"),
    (b"1 4:1 4:1\n", 1, "feature index 4 appears more than once"),
    (b"1 :1\n", 1, "':1': the feature index is not a non-negative integer"),
    (b"1,2 1:1\n", 1, "the label '1,2' is not a number (each line starts with its label)"),
    (b"1 1:1_000\n", 1, "'1:1_000': the feature value is not a number"),
]


@pytest.mark.parametrize("data, line, reason", ERRORS)
def test_error_names_line_and_text(data, line, reason):
    with pytest.raises(SvmlightFormatError) as info:
        load_bytes(data)
    err = info.value
    assert isinstance(err, ValueError)
    text = data.splitlines()[line - 1].decode().rstrip("\r")
    assert err.line == line and err.reason == reason and err.text == text
    assert str(err) == f"<file>, line {line}: {reason}\n  line {line}: {text}"


def test_error_names_the_path(tmp_path):
    path = tmp_path / "bad.svm"
    path.write_bytes(b"1 1:1\n1 1:z\n")
    with pytest.raises(SvmlightFormatError, match=f"^{str(path)!s}, line 2: '1:z'") as info:
        load_svmlight(path)
    assert info.value.source == str(path)


def test_long_and_binary_lines_are_cut_and_escaped():
    data = b"1 " + b" ".join(b"%d:1" % i for i in range(1, 200)) + b" bad\n"
    with pytest.raises(SvmlightFormatError) as info:
        load_bytes(data)
    assert info.value.text.endswith("...") and len(info.value.text) == 83
    assert info.value.text.startswith("1 1:1 2:1 3:1")
    with pytest.raises(SvmlightFormatError) as info:
        load_bytes(b"1 1:1\n\x00\x01\xff 1:1\n")
    assert info.value.line == 2
    assert info.value.text == "\\x00\\x01\\xff 1:1"
    long_token = b"1 1:" + b"9" * 500 + b"x\n"
    with pytest.raises(SvmlightFormatError, match=r"'1:9{38}\.\.\.': the feature value"):
        load_bytes(long_token)


def test_zero_index_in_a_one_based_file():
    with pytest.raises(SvmlightFormatError, match="line 3: feature index 0 in a file read as "
                                                  "one-based"):
        load_bytes(b"1 1:1\n1 2:1\n1 0:1\n", zero_based=False)


def test_n_features_too_small_names_the_line():
    with pytest.raises(ValueError, match=r"line 2: feature index 9 \(zero-based\) does not fit "
                                         r"n_features=5; n_features must be at least 10"):
        load_bytes(b"1 1:1\n1 10:1\n1 3:1\n", n_features=5)
    with pytest.raises(ValueError, match="line 2: feature index 9"):
        list(iter_svmlight(io.BytesIO(b"1 1:1\n1 10:1\n1 3:1\n"), n_features=5, chunk_rows=1))


def test_iterator_auto_base_decided_by_the_first_chunk():
    data = b"1 1:1\n1 2:1\n1 0:1\n"
    # n_features given: the first chunk (one-based) decides; the later 0 is an error that says so
    chunks = iter_svmlight(io.BytesIO(data), n_features=3, chunk_rows=2)
    with pytest.raises(SvmlightFormatError, match=r"line 3: feature index 0 in a file read as "
                                                  r"one-based .*first 2 rows.*zero_based=True"):
        list(chunks)
    # an explicit base, or n_features=None (a first pass over the whole file), read it as load does
    X, _ = load_bytes(data)
    for kw in ({"n_features": 3, "zero_based": True}, {}):
        got = [c for c, _ in iter_svmlight(io.BytesIO(data), chunk_rows=2, **kw)]
        assert_same_csr(sp.vstack(got).tocsr(), X)
    # a first chunk with a 0 makes the file zero-based
    got = [c for c, _ in iter_svmlight(io.BytesIO(b"1 0:1\n1 2:1\n1 1:1\n"), n_features=3,
                                       chunk_rows=1)]
    assert [c.indices.tolist() for c in got] == [[0], [2], [1]]


def test_arguments_are_checked():
    f = io.BytesIO(b"1 1:1\n")
    with pytest.raises(ValueError, match="zero_based must be True, False or 'auto'"):
        load_svmlight(f, zero_based="yes")
    with pytest.raises(TypeError, match="dtype must be float32 or float64"):
        load_svmlight(f, dtype=np.int64)
    with pytest.raises(TypeError, match="index_dtype must be int32 or int64"):
        load_svmlight(f, index_dtype=np.uint8)
    with pytest.raises(ValueError, match="output must be one of"):
        load_svmlight(f, output="list")
    with pytest.raises(ValueError, match="n_features must be >= 1"):
        load_svmlight(f, n_features=0)
    with pytest.raises(ValueError, match="n_features=3000000000 does not fit int32"):
        load_svmlight(f, n_features=3_000_000_000, index_dtype=np.int32)
    with pytest.raises(TypeError, match="buffer_size must be an int"):
        load_svmlight(f, buffer_size=1.5)
    with pytest.raises(TypeError, match="binary mode"):
        load_svmlight(io.StringIO("1 1:1\n"))
    with pytest.raises(TypeError, match="a path"):
        load_svmlight(12)
    with pytest.raises(ValueError, match="chunk_rows must be >= 1"):
        iter_svmlight(f, chunk_rows=0)  # checked at the call, not at the first next()
    with pytest.raises(TypeError, match="binary mode"):
        iter_svmlight(io.StringIO("1 1:1\n"))


class _Stream(io.RawIOBase):
    """A readable stream that cannot seek."""

    def __init__(self, data):
        self._data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        return self._data.readinto(b)


def test_streams_files_and_compression(tmp_path):
    X0, y0 = load_bytes(EDGE)
    with pytest.raises(ValueError, match="needs n_features for a file object that cannot be "
                                         "rewound"):
        list(iter_svmlight(_Stream(EDGE)))
    got = list(iter_svmlight(_Stream(EDGE), n_features=11, chunk_rows=4))
    assert_same_csr(sp.vstack([c for c, _ in got]).tocsr(), X0)
    f = io.BytesIO(b"junk" + EDGE)
    f.seek(4)
    got = list(iter_svmlight(f, chunk_rows=4))  # rewound to where it was, not to 0
    assert_same_csr(sp.vstack([c for c, _ in got]).tocsr(), X0)
    for suffix, opener in ((".gz", gzip.open), (".bz2", bz2.open), ("", open)):
        path = tmp_path / f"edge.svm{suffix}"
        with opener(path, "wb") as out:
            out.write(EDGE)
        X, y = load_svmlight(path)
        assert_same_csr(X, X0, y, y0)
        with open(path, "rb") as fh:
            if suffix == "":
                X, y = load_svmlight(fh)
                assert_same_csr(X, X0, y, y0)


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.sparse", None)
    with pytest.raises(ImportError, match="needs scipy.*output='csr'.*output='dense'"):
        load_bytes(EDGE)
    C, y = load_bytes(EDGE, output="csr")
    D, _ = load_bytes(EDGE, output="dense")
    np.testing.assert_array_equal(C.toarray(), D)
    assert D.dtype == np.float64 and D.shape == (6, 11)


def test_output_arrays_own_their_memory():
    C, y = load_bytes(EDGE, output="csr")
    for a in (C.data, C.indices, C.indptr, y):
        assert a.flags.writeable and a.flags.c_contiguous
    C.data[:] = 7  # writable, and freed with the arrays
    del C, y


# --------------------------------------------------------------- writing

def test_dump_format():
    out = io.BytesIO()
    X = np.array([[0.0, 1.5, 0.0], [0.1, 0.0, -2.0], [0.0, 0.0, 0.0]])
    dump_svmlight(X, np.array([1, -1, 0]), out, comment="made by\na test")
    assert out.getvalue() == (b"# made by\n# a test\n1 2:1.5\n-1 1:0.1 3:-2\n0\n")
    out = io.BytesIO()
    dump_svmlight(X, np.array([0.5, 1.0, 2.0]), out, zero_based=True)
    assert out.getvalue() == b"0.5 1:1.5\n1 0:0.1 2:-2\n2\n"
    out = io.BytesIO()
    dump_svmlight(np.array([[0.1]], dtype=np.float32), [True], out)
    assert out.getvalue() == b"1 1:0.1\n"


def test_dump_reads_back_in_scikit_learn(tmp_path, rng):
    X = sp.random(50, 30, density=0.2, format="csr", random_state=0)
    y = rng.integers(-1, 2, 50)
    path = tmp_path / "out.svm"
    dump_svmlight(X, y, path)
    Xs, ys = sk_load(str(path), n_features=30)
    assert_same_csr(Xs.tocsr(), X, ys, y.astype(np.float64))


def test_dump_does_not_modify_its_input():
    data, indices, indptr = np.array([1.0, 2.0, 3.0]), np.array([2, 0, 2]), np.array([0, 3])
    X = sp.csr_matrix((data.copy(), indices.copy(), indptr.copy()), shape=(1, 3))
    X.has_canonical_format = False
    out = io.BytesIO()
    dump_svmlight(X, [1], out)
    assert out.getvalue() == b"1 1:2 3:4\n"
    np.testing.assert_array_equal(X.data, data)
    np.testing.assert_array_equal(X.indices, indices)
    C = CSRData(data.copy(), indices.copy(), indptr.copy(), (1, 3))
    out = io.BytesIO()
    dump_svmlight(C, [1], out)
    assert out.getvalue() == b"1 1:2 3:4\n"
    np.testing.assert_array_equal(C.indices, indices)


def test_dump_errors(tmp_path):
    X = np.eye(2)
    with pytest.raises(ValueError, match="one label per row of X"):
        dump_svmlight(X, [1, 2, 3], io.BytesIO())
    with pytest.raises(TypeError, match="y must hold numbers"):
        dump_svmlight(X, ["a", "b"], io.BytesIO())
    with pytest.raises(ValueError, match="X must be 2-D"):
        dump_svmlight(np.ones((2, 2, 2)), [1, 2], io.BytesIO())
    with pytest.raises(TypeError, match="X must hold real numbers"):
        dump_svmlight(np.array([["a"]]), [1], io.BytesIO())
    with pytest.raises(TypeError, match="comment must be a str"):
        dump_svmlight(X, [1, 2], io.BytesIO(), comment=3)
    with pytest.raises(TypeError, match="zero_based must be True or False"):
        dump_svmlight(X, [1, 2], io.BytesIO(), zero_based="auto")
    with pytest.raises(TypeError, match="binary mode"):
        dump_svmlight(X, [1, 2], io.StringIO())
    with pytest.raises(ValueError, match="column indices must lie in"):
        dump_svmlight(CSRData(np.ones(1), np.array([5]), np.array([0, 1]), (1, 3)), [1],
                      io.BytesIO())


FLOATS = {
    np.float64: st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True),
    np.float32: st.floats(width=32, allow_nan=False, allow_infinity=False, allow_subnormal=True),
}
EXTREMES = {  # subnormal, smallest normal, largest, and values whose shortest text is short
    np.float64: [5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0, 1e16, 0.1],
    np.float32: [1e-45, 1.1754943508222875e-38, 3.4028234663852886e38, -0.0, 1e16, 0.1],
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), dtype=st.sampled_from([np.float64, np.float32]),
       index_dtype=st.sampled_from([np.int32, np.int64]), zero_based=st.booleans(),
       sparse=st.booleans(), int_labels=st.booleans())
def test_dump_load_round_trip(data, dtype, index_dtype, zero_based, sparse, int_labels):
    shape = data.draw(st.tuples(st.integers(1, 12), st.integers(1, 9)))
    values = st.one_of(st.just(0.0), FLOATS[dtype],
                       st.sampled_from(EXTREMES[dtype]).map(lambda v: float(dtype(v))))
    X = data.draw(hnp.arrays(dtype, shape, elements=values))
    if int_labels:
        y = data.draw(hnp.arrays(np.int64, shape[0], elements=st.integers(-2**62, 2**62)))
    else:
        y = data.draw(hnp.arrays(np.float64, shape[0], elements=FLOATS[np.float64]))
    source = sp.csr_matrix(X) if sparse else X
    out = io.BytesIO()
    dump_svmlight(source, y, out, zero_based=zero_based)
    D, y2 = load_svmlight(io.BytesIO(out.getvalue()), n_features=shape[1], dtype=dtype,
                          zero_based=zero_based, index_dtype=index_dtype, output="dense")
    assert D.dtype == dtype
    np.testing.assert_array_equal(D, X)
    np.testing.assert_array_equal(y2, y.astype(np.float64))
    if not int_labels:
        np.testing.assert_array_equal(y2.view(np.uint64), y.view(np.uint64))  # -0.0 too


def test_round_trip_of_extremes_keeps_bits():
    for dtype in (np.float64, np.float32):
        info = np.finfo(dtype)
        values = np.array([info.max, -info.max, info.tiny, info.smallest_subnormal,
                           -info.smallest_subnormal, info.eps, -0.0, np.inf, -np.inf, np.nan],
                          dtype=dtype)
        C = CSRData(values, np.arange(len(values)), np.array([0, len(values)]),
                    (1, len(values)))
        out = io.BytesIO()
        dump_svmlight(C, [1], out)
        got, _ = load_svmlight(io.BytesIO(out.getvalue()), dtype=dtype, output="csr")
        np.testing.assert_array_equal(got.data.view(np.uint8), values.view(np.uint8))


# ------------------------------------------------------------ bounded reading

def test_max_line_length_names_the_line():
    data = b"1 1:1\n-1 " + b" ".join(b"%d:1" % i for i in range(1, 40)) + b"\n1 2:1\n"
    with pytest.raises(SvmlightFormatError, match=r"^<file>, line 2: the line is longer than "
                                                  r"50 bytes.*max_line_length") as info:
        load_bytes(data, max_line_length=50)
    assert info.value.line == 2
    for buffer_size in (1, 7, 64, 4096):  # wherever the blocks cut the line
        with pytest.raises(SvmlightFormatError) as info:
            load_bytes(data, max_line_length=50, buffer_size=buffer_size)
        assert info.value.line == 2 and "longer than 50 bytes" in info.value.reason
        with pytest.raises(SvmlightFormatError, match="line 2: the line is longer"):
            list(iter_svmlight(io.BytesIO(data), n_features=50, max_line_length=50,
                               buffer_size=buffer_size))
    X, _ = load_bytes(data, max_line_length=len(data.splitlines()[1]))  # the limit itself
    assert X.shape == (3, 39)
    X, _ = load_bytes(data, max_line_length=None)
    assert X.shape == (3, 39)
    with pytest.raises(ValueError, match="max_line_length must be >= 1"):
        load_bytes(data, max_line_length=0)
    with pytest.raises(TypeError, match="max_line_length must be an int"):
        iter_svmlight(io.BytesIO(data), max_line_length=1.5)


def test_binary_input_is_refused_at_its_first_bytes():
    for data, line in ((b"\x00" * 5000, 1), (b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4, 1),
                       (b"\x93NUMPY\x01\x00" + b"\x00" * 300, 1),
                       (b"1 1:1\n\x00\x00" + b"\x00" * 200, 2)):
        stream = _Endless(data)
        with pytest.raises(SvmlightFormatError, match="is not a number") as info:
            load_svmlight(stream, buffer_size=1024)
        assert info.value.line == line
        assert stream.served <= 2048  # the first blocks, not the (endless) rest


class _Endless(io.RawIOBase):
    """A stream that starts with `head` and then repeats its last byte forever
    (a pipe that never closes), counting the bytes it served."""

    def __init__(self, head, fill=None):
        self.head, self.fill, self.served = head, fill or head[-1:], 0

    def readable(self):
        return True

    def readinto(self, b):
        n = len(b)
        start = self.served
        for i in range(n):
            k = start + i
            b[i] = self.head[k] if k < len(self.head) else self.fill[(k - len(self.head))
                                                                       % len(self.fill)]
        self.served += n
        return n


def test_endless_line_stops_at_the_limit():
    stream = _Endless(b"1 ", b"1:1 ")
    with pytest.raises(SvmlightFormatError, match="line 1: the line is longer than 10000 bytes"):
        load_svmlight(stream, max_line_length=10_000, buffer_size=512)
    assert stream.served <= 10_000 + 512


def _run(code, timeout=120):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_is_refused_at_once():
    code = """if True:
        from perceptron.io import load_svmlight, iter_svmlight
        from perceptron.exceptions import SvmlightFormatError
        for read in (lambda: load_svmlight("/dev/zero"),
                     lambda: list(iter_svmlight("/dev/zero", n_features=3)),
                     lambda: list(iter_svmlight("/dev/zero"))):
            try:
                read()
            except SvmlightFormatError as exc:
                print(exc.line, exc.reason)
        """
    proc = _run(code, timeout=60)  # would never end (or exhaust memory) if read to the end
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 3 and all(line.startswith("1 the label '\\x00") for line in lines)


def _vm_hwm_code(path, max_line_length):
    return f"""if True:
        from perceptron.io import load_svmlight
        from perceptron.exceptions import SvmlightFormatError

        def hwm():
            with open("/proc/self/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024

        before = hwm()
        try:
            load_svmlight({str(path)!r}, max_line_length={max_line_length!r})
        except SvmlightFormatError as exc:
            print(exc.line, exc.reason.split(",")[0])
        print(hwm() - before)
        """


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_one_huge_line_in_a_small_bz2_is_read_in_bounded_memory(tmp_path):
    # 4 GiB of one line without a newline, in a bz2 file of a few hundred KiB:
    # a stream of 1 MiB, compressed once, repeated (bz2 readers read
    # concatenated streams as one)
    block = b"2:0.5 " * ((1 << 20) // 6)
    path = tmp_path / "one-line.svm.bz2"
    with open(path, "wb") as out:
        out.write(bz2.compress(b"1 " + block))
        packed = bz2.compress(block)
        total = len(block)
        while total < 4 << 30:
            out.write(packed)
            total += len(block)
    assert path.stat().st_size < 2 << 20
    for limit, bound in ((8 << 20, 48 << 20), (64 << 20, 160 << 20)):
        proc = _run(_vm_hwm_code(path, limit), timeout=300)
        assert proc.returncode == 0, proc.stderr
        message, grown = proc.stdout.splitlines()
        assert message == f"1 the line is longer than {limit} bytes"
        if "asan" not in os.environ.get("LD_PRELOAD", ""):  # (its quarantine keeps freed memory)
            assert int(grown) < bound, (limit, int(grown))  # the line is 4 GiB


def test_label_signs_are_counted():
    from perceptron.io._svmlight import load_svmlight_signs

    _, y, signs = load_svmlight_signs(io.BytesIO(b"+1 1:1\n-1 2:1\n+1 3:1\n"))
    assert signs == (2, 0) and y.tolist() == [1.0, -1.0, 1.0]
    _, _, signs = load_svmlight_signs(io.BytesIO(b"1 1:1\n-1 2:1\n+2 3:1\n0 1:1\n"))
    assert signs == (1, 1)


# ------------------------------------------------------- index dtype

def test_indices_are_int32_when_they_fit_int64_when_needed_or_asked():
    small = b"1 1:0.5 3:2\n-1 2:1\n"
    for output in ("scipy", "csr"):
        X, _ = load_bytes(small, output=output)
        assert X.indices.dtype == X.indptr.dtype == np.int32
        X, _ = load_bytes(small, output=output, index_dtype=np.int64)
        assert X.indices.dtype == X.indptr.dtype == np.int64
        X, _ = load_bytes(small, output=output, index_dtype="int32")
        assert X.indices.dtype == np.int32
    # a column past int32: int64 by default, an error naming the way out with int32
    big = b"1 1:0.5 3000000000:2\n-1 2:1\n"
    X, _ = load_bytes(big, output="csr")
    assert X.indices.dtype == X.indptr.dtype == np.int64
    assert X.shape == (2, 3000000000) and X.indices[-2] == 2999999999
    with pytest.raises(SvmlightFormatError, match="index_dtype=np.int64"):
        load_bytes(big, output="csr", index_dtype=np.int32)
    # n_features alone past int32 needs int64 too
    X, _ = load_bytes(small, output="csr", n_features=2**31)
    assert X.indices.dtype == np.int64 and X.shape[1] == 2**31
    # the same values whatever the index dtype
    a, ya = load_bytes(small, output="csr")
    b, yb = load_bytes(small, output="csr", index_dtype=np.int64)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(ya, yb)


def test_default_output_is_taken_by_scikit_learns_sparse_estimators(rng):
    pytest.importorskip("sklearn")
    from sklearn.linear_model import Perceptron as SkPerceptron, SGDClassifier
    from sklearn.svm import LinearSVC

    X = sp.random(60, 8, density=0.4, format="csr", random_state=0)
    y = np.where(rng.standard_normal(60) > 0, 1, -1)
    buf = io.BytesIO()
    dump_svmlight(X, y, buf)
    Xr, yr = load_bytes(buf.getvalue(), n_features=8)
    assert Xr.indices.dtype == np.int32
    for est in (LinearSVC(), SGDClassifier(max_iter=5, tol=None), SkPerceptron()):
        est.fit(Xr, yr)
        assert est.predict(Xr).shape == (60,)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_rows_as_indices_alone(dtype):
    text = b"1 1:1 3:1 # a comment\n\n-1 2:1\n+1 qid:3 1:1 2:1 3:1\n-1\n"
    X, y = load_svmlight(io.BytesIO(text), dtype=dtype, output="csr", binary=True)
    ref, ref_y = load_svmlight(io.BytesIO(text), dtype=dtype, output="csr")
    assert X.binary and X.dtype == dtype and X.nnz == ref.nnz == 6
    assert X.data.strides == (0,)  # no memory per value
    assert X.indices.dtype == np.uint16 and X.indptr.dtype == np.int32  # 4 columns
    np.testing.assert_array_equal(X.indices, ref.indices)
    np.testing.assert_array_equal(X.indptr, ref.indptr)
    np.testing.assert_array_equal(X.toarray(), ref.toarray())
    np.testing.assert_array_equal(y, ref_y)
    S, _ = load_svmlight(io.BytesIO(text), dtype=dtype, binary=True)  # scipy: the ones stored
    np.testing.assert_array_equal(S.toarray(), ref.toarray())
    D, _ = load_svmlight(io.BytesIO(text), dtype=dtype, output="dense", binary=True)
    np.testing.assert_array_equal(D, ref.toarray())


def test_binary_rows_refuse_other_values():
    text = b"1 1:1 3:1\n-1 2:1 4:0.5\n"
    with pytest.raises(SvmlightFormatError, match=r"line 2: '4:0.5': a value other than 1 in "
                                                  r"binary rows \(binary=True reads files "
                                                  r"whose every value is 1\)"):
        load_svmlight(io.BytesIO(text), output="csr", binary=True)
    with pytest.raises(TypeError, match="binary must be True or False"):
        load_svmlight(io.BytesIO(text), output="csr", binary="yes")

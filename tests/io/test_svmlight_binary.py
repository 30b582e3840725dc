"""svmlight files of binary rows (every value 1) read without values:
``load_svmlight(binary=True)`` and ``iter_svmlight(binary=True)`` give the
rows of the float reader, a value other than 1 is an error naming its line,
and the memory a read takes (the parser's blocks come from Python's raw
allocator, which tracemalloc counts) is that of the indices, the row
pointers and the labels."""
import io
import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron._core import svmlight as _svmlight
from perceptron.exceptions import SvmlightFormatError
from perceptron.io import CSRData, iter_svmlight, load_svmlight


def binary_text(rng, n, d, m, one="1"):
    """svmlight text of n rows of up to m distinct columns below d (one-based),
    each value written as `one`; and the dense 0/1 rows."""
    X = np.zeros((n, d))
    lines = []
    for i in range(n):
        cols = np.unique(rng.integers(0, d, size=rng.integers(0, m + 1)))
        X[i, cols] = 1
        lines.append(("+1" if i % 3 else "-1") + "".join(f" {c + 1}:{one}" for c in cols))
    return ("\n".join(lines) + "\n").encode(), X


@pytest.mark.parametrize("one", ["1", "1.0", "+1", "1e0", "0.1e1", "1.000"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("output", ["csr", "scipy", "dense"])
def test_the_float_reader_s_rows(one, dtype, output):
    if output == "scipy":
        pytest.importorskip("scipy.sparse")
    text, X = binary_text(np.random.default_rng(len(one)), 60, 40, 9, one)
    B, yb = load_svmlight(io.BytesIO(text), dtype=dtype, output=output, binary=True)
    F, yf = load_svmlight(io.BytesIO(text), dtype=dtype, output=output)
    np.testing.assert_array_equal(yb, yf)
    if output == "dense":
        assert B.dtype == dtype
        np.testing.assert_array_equal(B, F)
        np.testing.assert_array_equal(B, X)
        return
    assert B.dtype == F.dtype == dtype and B.shape == F.shape
    np.testing.assert_array_equal(B.indices, F.indices)
    np.testing.assert_array_equal(B.indptr, F.indptr)
    np.testing.assert_array_equal(B.toarray(), X)
    if output == "csr":
        assert B.binary and B.data.strides == (0,)


@pytest.mark.parametrize("value", ["0", "0.5", "2", "-1", "nan", "inf", "1.0000001"])
def test_another_value_names_its_file_and_line(tmp_path, value):
    path = tmp_path / "rows.svm"
    path.write_bytes(b"1 1:1 3:1\n# a comment\n-1 2:1 5:" + value.encode() + b" 7:1\n1 2:1\n")
    with pytest.raises(SvmlightFormatError) as info:
        load_svmlight(path, output="csr", binary=True)
    e = info.value
    assert e.line == 3 and e.source == str(path)
    assert str(e).startswith(f"{path}, line 3: '5:{value}': a value other than 1 in binary rows "
                             "(binary=True reads files whose every value is 1)")
    assert e.text == f"-1 2:1 5:{value} 7:1"
    # without binary the same file reads
    load_svmlight(path, output="csr")


def test_float32_takes_a_value_that_rounds_to_one():
    """As the float reader would store it: 1 + 2**-30 is 1.0 as a float32,
    not as a float64."""
    text = b"1 1:1.000000000931322574615478515625 2:1\n"
    X, _ = load_svmlight(io.BytesIO(text), dtype=np.float32, output="csr", binary=True)
    F, _ = load_svmlight(io.BytesIO(text), dtype=np.float32, output="csr")
    assert X.binary and np.all(F.data == 1)
    with pytest.raises(SvmlightFormatError, match="line 1: '1:1.0000000009"):
        load_svmlight(io.BytesIO(text), dtype=np.float64, output="csr", binary=True)


def test_the_parser_keeps_no_values():
    parser = _svmlight.Parser(np.float64, np.int64, _svmlight.BASE_ONE, 0, -1, True)
    assert parser.binary
    text = b"1 2:1 4:1\n-1 1:1\n"
    status, used = parser.feed(np.frombuffer(text, dtype=np.uint8))
    assert status == _svmlight.OK and used == len(text)
    data, indices, indptr, labels = parser.take()
    assert data is None
    np.testing.assert_array_equal(indices, [1, 3, 0])
    np.testing.assert_array_equal(indptr, [0, 2, 3])
    np.testing.assert_array_equal(labels, [1, -1])


def test_binary_must_be_a_bool():
    for call in (load_svmlight, iter_svmlight):
        with pytest.raises(TypeError, match="binary must be True or False, got 1"):
            call(io.BytesIO(b"1 1:1\n"), binary=1)


@pytest.mark.parametrize("index_dtype", [None, np.int32])
def test_peak_memory_is_that_of_the_indices(tmp_path, index_dtype):
    """tracemalloc sees the parser's blocks (Python's raw allocator) and
    numpy's.  A binary read holds the indices as parsed (int32, narrowed to
    uint16 at the end for index_dtype=None), the row pointers, the labels
    and the read buffer; never a value per non-zero, which the float
    reader's peak shows."""
    rng = np.random.default_rng(3)
    n, d, m = 8192, 3000, 130
    text, _ = binary_text(rng, n, d, m)
    path = tmp_path / "rows.svm"
    path.write_bytes(text)
    buffer_size = 1 << 16

    def peak(**kw):
        tracemalloc.start()
        try:
            X, y = load_svmlight(path, output="csr", index_dtype=index_dtype,
                                 buffer_size=buffer_size, **kw)
            return tracemalloc.get_traced_memory()[1], X
        finally:
            tracemalloc.stop()

    binary_peak, X = peak(binary=True)
    float_peak, F = peak()
    nnz = len(X.indices)
    assert nnz == len(F.indices) > 400000
    assert X.indices.dtype == (np.uint16 if index_dtype is None else np.int32)
    parsed = 4  # bytes of an index as parsed: int32 (widened only when the file needs it)
    # the parse's arrays grow by doubling from 1,024 non-zeros and 256 rows
    grown = 1024 << max(0, math.ceil(math.log2(nnz / 1024)))
    rows = 256 << max(0, math.ceil(math.log2(n / 256)))
    copy = X.indices.itemsize * nnz if index_dtype is None else 0  # the uint16 copy
    bound = parsed * grown + copy + 2 * 8 * (rows + 1) + buffer_size + (1 << 16)
    assert binary_peak <= bound, (binary_peak, bound, nnz)
    # the float reader's values (8 bytes a non-zero) are what the binary read saves
    assert float_peak >= binary_peak + 8 * nnz - X.indices.itemsize * nnz, \
        (float_peak, binary_peak, nnz)


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("text, base", [
    (b"1 1:1 3:1\n-1 2147483648:1\n1 5:1\n", "auto"),          # 2**31 - 1, one-based
    (b"1 2:1\n-1 4000000000:1 7:1\n", False),                  # far beyond int32
    (b"1 2147483647:1\n1 0:1\n", "auto"),                      # zero-based once resolved
    (b"1 2147483647:1\n1 1:1\n", True),
])
def test_indices_widen_when_the_file_needs_them(text, base, binary):
    """index_dtype=None parses int32 indices, widened to int64 in place by
    the parser when an index needs it: the rows of an int64 parse."""
    X, y = load_svmlight(io.BytesIO(text), zero_based=base, output="csr", binary=binary)
    R, z = load_svmlight(io.BytesIO(text), zero_based=base, output="csr", binary=binary,
                         index_dtype=np.int64)
    assert X.indices.dtype == X.indptr.dtype == np.int64 and X.shape == R.shape
    np.testing.assert_array_equal(X.indices, R.indices)
    np.testing.assert_array_equal(X.indptr, R.indptr)
    np.testing.assert_array_equal(y, z)
    with pytest.raises(SvmlightFormatError, match="pass index_dtype=np.int64"):
        load_svmlight(io.BytesIO(text), zero_based=base, output="csr", binary=binary,
                      index_dtype=np.int32)


def test_a_width_beyond_int32_gives_int64_indices():
    X, _ = load_svmlight(io.BytesIO(b"1 1:1 3:1\n"), n_features=1 << 31, output="csr",
                         binary=True)
    assert X.indices.dtype == X.indptr.dtype == np.int64 and X.shape == (1, 1 << 31)


@pytest.mark.parametrize("n_features", [None, 25])
@pytest.mark.parametrize("chunk_rows", [1, 7, 1000])
def test_chunks_are_the_loaded_rows(n_features, chunk_rows):
    text, X = binary_text(np.random.default_rng(chunk_rows), 90, 25, 6)
    chunks = list(iter_svmlight(io.BytesIO(text), n_features, chunk_rows=chunk_rows,
                                output="csr", binary=True, dtype=np.float32))
    # no memory per value (a chunk of one value or none is not told apart)
    assert all(isinstance(c, CSRData) and c.data.strides == (0,) and c.dtype == np.float32
               and c.indices.dtype == np.int64 for c, _ in chunks)
    assert [len(y) for _, y in chunks][:-1] == [chunk_rows] * (len(chunks) - 1)
    np.testing.assert_array_equal(np.vstack([c.toarray() for c, _ in chunks]), X[:, :25])
    floats = list(iter_svmlight(io.BytesIO(text), n_features, chunk_rows=chunk_rows,
                                output="csr", dtype=np.float32))
    for (b, yb), (f, yf) in zip(chunks, floats, strict=True):
        np.testing.assert_array_equal(b.indices, f.indices)
        np.testing.assert_array_equal(b.indptr, f.indptr)
        np.testing.assert_array_equal(yb, yf)


@pytest.mark.parametrize("n_features", [None, 10])
def test_a_chunk_with_another_value_names_its_line(n_features):
    text = b"".join(b"1 1:1 3:1\n" for _ in range(5)) + b"-1 2:1 4:3\n"
    chunks = iter_svmlight(io.BytesIO(text), n_features, chunk_rows=2, output="csr",
                           binary=True)
    read = []
    with pytest.raises(SvmlightFormatError, match=r"line 6: '4:3': a value other than 1"):
        for X, _ in chunks:
            read.append(X.shape[0])
    # n_features=None: the first pass finds it before any chunk
    assert read == ([] if n_features is None else [2, 2])


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.sets(st.integers(0, 70), max_size=12), min_size=1, max_size=30),
       zero_based=st.booleans(), cut=st.integers(1, 64))
def test_any_rows_cut_anywhere(rows, zero_based, cut):
    offset = 0 if zero_based else 1
    text = "".join(("1" if i % 2 else "-1") + "".join(f" {c + offset}:1" for c in sorted(r))
                   + "\n" for i, r in enumerate(rows)).encode()
    B, yb = load_svmlight(io.BytesIO(text), zero_based=zero_based, output="csr",
                          binary=True, buffer_size=cut)
    F, yf = load_svmlight(io.BytesIO(text), zero_based=zero_based, output="csr",
                          buffer_size=cut)
    assert B.shape == F.shape
    np.testing.assert_array_equal(B.indices, F.indices)
    np.testing.assert_array_equal(B.indptr, F.indptr)
    np.testing.assert_array_equal(yb, yf)

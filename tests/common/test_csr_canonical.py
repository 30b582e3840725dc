"""canonical_csr: CSR rows with unsorted or repeated columns made canonical
(columns increasing, repeats summed in stored order) by the compiled row
pass, against a numpy reference (a stable sort by (row, column), then each
column's values summed left to right) and against scipy's sort_indices and
sum_duplicates; the caller's arrays unchanged, and a canonical matrix never
copied."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from perceptron._common.validation import canonical_csr, check_X
from perceptron._core.csr_canonical import canonical_rows

sp = pytest.importorskip("scipy.sparse")


def reference(data, indices, indptr):
    """The definition: rows sorted stably by column, each column's values
    summed in their stored order (x = v0; x += v1; ...), in data's dtype."""
    n = len(indptr) - 1
    rows = np.repeat(np.arange(n), np.diff(indptr))
    order = np.lexsort((indices, rows))
    out_d, out_i, out_p = [], [], [0]
    k = 0
    for i in range(n):
        count = 0
        while k < len(order) and rows[order[k]] == i:
            col, val = indices[order[k]], data[order[k]]
            if count and out_i[-1] == col:
                out_d[-1] = data.dtype.type(out_d[-1] + val)
            else:
                out_i.append(col)
                out_d.append(val)
                count += 1
            k += 1
        out_p.append(out_p[-1] + count)
    return (np.array(out_d, dtype=data.dtype), np.array(out_i, dtype=indices.dtype),
            np.array(out_p, dtype=indptr.dtype))


@st.composite
def csr_arrays(draw, integer_values=False):
    """Rows of 0 to 40 entries over few or many columns: empty rows, rows of
    one column repeated, unsorted rows, canonical rows, long rows (merge sort)."""
    n = draw(st.integers(1, 12))
    d = draw(st.sampled_from([1, 3, 50, 100000]))
    fdtype = draw(st.sampled_from([np.float32, np.float64]))
    idtype = draw(st.sampled_from([np.int32, np.int64]))
    indices, lengths = [], []
    for _ in range(n):
        kind = draw(st.sampled_from(["empty", "repeat", "random", "sorted", "long"]))
        m = {"empty": 0, "repeat": draw(st.integers(2, 12)), "random": draw(st.integers(1, 20)),
             "sorted": draw(st.integers(1, 20)), "long": draw(st.integers(17, 80))}[kind]
        if kind == "repeat":
            row = [draw(st.integers(0, d - 1))] * m
        else:
            row = draw(st.lists(st.integers(0, d - 1), min_size=m, max_size=m))
            if kind == "sorted":
                row = sorted(set(row))
        indices += row
        lengths.append(len(row))
    nnz = len(indices)
    if integer_values:
        values = st.integers(-8, 8).map(float)
    else:
        values = st.floats(-1e6, 1e6, width=32 if fdtype == np.float32 else 64)
    data = np.array(draw(st.lists(values, min_size=nnz, max_size=nnz)), dtype=fdtype)
    indptr = np.zeros(n + 1, dtype=idtype)
    np.cumsum(lengths, out=indptr[1:])
    return data, np.array(indices, dtype=idtype), indptr, d


def same(a, b):
    assert a.dtype == b.dtype
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))  # the bits


@settings(max_examples=300, deadline=None)
@given(csr_arrays())
def test_against_the_numpy_reference_bit_for_bit(arrays):
    data, indices, indptr, _ = arrays
    before = [a.copy() for a in (data, indices, indptr)]
    got = canonical_csr(data, indices, indptr, len(indptr) - 1)
    for a, b in zip(before, (data, indices, indptr)):
        same(a, b)  # the caller's arrays are never written
    for g, r in zip(got, reference(data, indices, indptr)):
        same(np.ascontiguousarray(g), r)


@settings(max_examples=200, deadline=None)
@given(csr_arrays(integer_values=True))
def test_against_scipy_sum_duplicates(arrays):
    # integer values: every order of summation gives the same sum, so the
    # comparison does not depend on the order scipy's sort leaves repeats in
    data, indices, indptr, d = arrays
    A = sp.csr_matrix((data.copy(), indices.copy(), indptr.copy()), shape=(len(indptr) - 1, d))
    A.sum_duplicates()  # sorts the indices, then sums
    A.sort_indices()
    got = canonical_csr(data, indices, indptr, len(indptr) - 1)
    np.testing.assert_array_equal(got[0], A.data)
    np.testing.assert_array_equal(got[1], A.indices)
    np.testing.assert_array_equal(got[2], A.indptr)


@pytest.mark.parametrize("idtype", [np.int32, np.int64])
@pytest.mark.parametrize("fdtype", [np.float32, np.float64])
def test_canonical_arrays_are_not_copied(idtype, fdtype):
    data = np.arange(1, 7, dtype=fdtype)
    indices = np.array([0, 2, 5, 1, 3, 4], dtype=idtype)
    indptr = np.array([0, 3, 3, 6], dtype=idtype)
    assert canonical_rows(data, indices, indptr) is None
    out = canonical_csr(data, indices, indptr, 3)
    assert out[0] is data and out[1] is indices and out[2] is indptr


def test_only_rows_out_of_order_change():
    # a long matrix with a few bad rows: every other row is the caller's, byte for byte
    rng = np.random.default_rng(3)
    n, d, m = 2000, 1 << 18, 30
    cols = np.sort(rng.integers(0, d, size=(n, m)), axis=1).astype(np.int32)
    bad = rng.choice(n, 25, replace=False)
    cols[bad, 1] = cols[bad, 0]  # a repeated column
    cols[bad[:10]] = cols[bad[:10], ::-1]  # and unsorted
    data = rng.standard_normal(n * m)
    indptr = np.arange(0, n * m + 1, m, dtype=np.int32)
    got = canonical_csr(data, cols.ravel(), indptr, n)
    for g, r in zip(got, reference(data, cols.ravel(), indptr)):
        same(np.ascontiguousarray(g), r)
    A = sp.csr_matrix((data, cols.ravel(), indptr), shape=(n, d))
    C = check_X(A, accept_sparse=True)
    for g, r in zip((C.data, C.indices, C.indptr), got):
        same(np.ascontiguousarray(g), np.ascontiguousarray(r))


def test_other_value_dtypes_take_the_numpy_sort():
    data = np.array([3, 1, 2], dtype=np.int16)
    indices = np.array([2, 0, 2], dtype=np.int32)
    indptr = np.array([0, 3], dtype=np.int32)
    got = canonical_csr(data, indices, indptr, 1)
    for g, r in zip(got, reference(data, indices, indptr)):
        same(g, r)

"""What a model file declares cannot make load allocate out of proportion
to the file: a text array's declared width is checked against the file's
size before numpy allocates it (ModelFileError, never MemoryError)."""
import io
import json
import tracemalloc

import numpy as np
import pytest

from perceptron import Perceptron
from perceptron.exceptions import ModelFileError
from perceptron.io import load_model, save_model


def file_of(model):
    f = io.BytesIO()
    save_model(model, f)
    return f.getvalue()


def header_and_arrays(data):
    from perceptron._core import model_file as _mf

    info = _mf.read_container(np.frombuffer(data, dtype=np.uint8))
    buf = np.frombuffer(data, dtype=np.uint8)
    arrays = [(name, np.frombuffer(buf, dtype=dtype, count=nbytes // np.dtype(dtype).itemsize,
                                   offset=offset).reshape(shape))
              for name, dtype, shape, offset, nbytes in info["arrays"]]
    return json.loads(info["header"]), info["linear_kind"], arrays


def rebuilt(data, header):
    from perceptron.io import _model_file as _model_io

    _, kind, arrays = header_and_arrays(data)
    return _model_io._pack(kind, json.dumps(header).encode(), arrays)


def load_peak(data):
    """Load `data`; the peak of the memory traced while loading, in bytes."""
    tracemalloc.start()
    try:
        load_model(io.BytesIO(data))
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


@pytest.fixture(scope="module")
def string_model():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, -1.0]])
    return Perceptron(random_state=0).fit(X, ["no", "yes", "yes", "no"])


@pytest.mark.parametrize("width", [99_999_999, 999_999_999])
@pytest.mark.parametrize("kind", ["S", "U"])
def test_a_huge_declared_width_in_the_parameters_is_refused(width, kind):
    data = file_of(Perceptron())
    header, _, _ = header_and_arrays(data)
    header["params"]["class_weight"] = {"text_array": {"dtype": f"|{kind}{width}",
                                                       "values": ["a", "b"]}}
    bad = rebuilt(data, header)
    assert len(bad) < 1024
    message = (rf"parameter class_weight: (2 values of dtype \|{kind}{width} would take .* "
               rf"bytes, out of proportion to the file's size|the dtype \|{kind}{width} is "
               "wider than an array can hold)")
    with pytest.raises(ModelFileError, match=message):
        load_peak(bad)


@pytest.mark.parametrize("width", [99_999_999, 999_999_999])
def test_a_huge_declared_width_in_the_fitted_attributes_is_refused(string_model, width):
    data = file_of(string_model)
    header, _, _ = header_and_arrays(data)
    assert header["fitted"]["classes_"]["text_array"]["dtype"] == "<U3"
    header["fitted"]["classes_"]["text_array"]["dtype"] = f"<U{width}"
    bad = rebuilt(data, header)
    with pytest.raises(ModelFileError, match=r"classes_: (2 values of dtype .* would take|the "
                                             "dtype .* is wider than)"):
        load_peak(bad)


def test_many_values_share_one_budget():
    # each text array alone under the budget, together over it
    data = file_of(Perceptron())
    header, _, _ = header_and_arrays(data)
    value = {"text_array": {"dtype": "|S400000", "values": ["a", "b"]}}
    header["params"]["class_weight"] = {"list": [value] * 2}
    assert len(rebuilt(data, header)) * 16 < 800_000 < (1 << 20) < 1_600_000
    with pytest.raises(ModelFileError, match=r"class_weight\[1\]: 2 values.*out of proportion"):
        load_peak(rebuilt(data, header))


def test_a_file_loads_within_a_small_multiple_of_its_size(string_model):
    data = file_of(string_model)
    header, _, _ = header_and_arrays(data)
    header["fitted"]["classes_"]["text_array"]["dtype"] = "<U1000"  # wider than needed: fine
    good = rebuilt(data, header)
    loaded = load_model(io.BytesIO(good))
    assert loaded.classes_.dtype == np.dtype("<U1000")
    assert list(loaded.classes_) == ["no", "yes"]
    peak = load_peak(good)
    assert peak < 16 * len(good) + (1 << 20), (peak, len(good))

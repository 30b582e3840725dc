"""Loaded VotedPerceptron, StructuredPerceptron and PerceptronTagger files
are checked as Perceptron files are: their parameters, the shapes and
dtypes of their fitted attributes, and finite weights, at load (a
ModelFileError), not at predict or partial_fit."""
import io
import json

import numpy as np
import pytest

from perceptron import StructuredPerceptron, VotedPerceptron
from perceptron._core import model_file as _mf
from perceptron.exceptions import ModelFileError
from perceptron.io import _model_file as _model_io
from perceptron.io import load_model, save_model
from perceptron.tagging import PerceptronTagger


def file_of(model, training_state=None):
    f = io.BytesIO()
    if isinstance(model, PerceptronTagger):
        model.save(f, training_state=training_state)
    else:
        save_model(model, f, training_state=training_state)
    return f.getvalue()


def changed(data, params=None, fitted=None, arrays=None):
    """The file with some parameters, fitted values or arrays replaced."""
    info = _mf.read_container(np.frombuffer(data, dtype=np.uint8))
    header = json.loads(info["header"])
    header["params"].update(params or {})
    header["fitted"].update(fitted or {})
    buf = np.frombuffer(data, dtype=np.uint8)
    table = []
    for name, dtype, shape, offset, nbytes in info["arrays"]:
        a = np.frombuffer(buf, dtype=dtype, count=nbytes // np.dtype(dtype).itemsize,
                          offset=offset).reshape(shape)
        table.append((name, (arrays or {}).get(name, a)))
    return _model_io._pack(info["linear_kind"], json.dumps(header).encode(), table)


def load(data):
    return load_model(io.BytesIO(data))


@pytest.fixture(scope="module")
def voted():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y = np.argmax(X, axis=1)
    return VotedPerceptron(max_iter=3, random_state=0).fit(X, y), X


@pytest.fixture(scope="module")
def structured():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 4))
    y = np.argmax(X[:, :3], axis=1)
    lengths = [5] * 6
    model = StructuredPerceptron(max_iter=3, random_state=0)
    model.keep_training_state()
    return model.fit(X, y, lengths), X, y, lengths


@pytest.fixture(scope="module")
def tagger():
    sentences = [[("the", "DET"), ("dog", "NOUN"), ("barks", "VERB")],
                 [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")]] * 3
    return PerceptronTagger(n_features=256, max_iter=2).fit(sentences)


def test_the_unchanged_files_load(voted, structured, tagger):
    model, X = voted
    np.testing.assert_array_equal(load(file_of(model)).predict(X), model.predict(X))
    model, X, y, lengths = structured
    np.testing.assert_array_equal(load(file_of(model)).predict(X, lengths),
                                  model.predict(X, lengths))
    assert load(file_of(tagger)).tag(["the", "cat"]) == tagger.tag(["the", "cat"])


@pytest.mark.parametrize("params, message", [
    ({"n_jobs": "many"}, "n_jobs"),
    ({"max_iter": 0}, "max_iter"),
    ({"max_vectors": -1}, "max_vectors"),
    ({"shuffle": "yes"}, "shuffle"),
    ({"random_state": -5}, "random_state"),
])
def test_voted_parameters_are_checked_at_load(voted, params, message):
    with pytest.raises(ModelFileError, match=rf"the parameters are not valid: .*{message}"):
        load(changed(file_of(voted[0]), params=params))


def test_voted_fitted_attributes_are_checked_at_load(voted):
    model, _ = voted
    data = file_of(model)
    n = model.n_iter_
    mistakes = {"array": "mistakes_"}
    with pytest.raises(ModelFileError, match=r"mistakes_ must be int64 of shape \(n_iter_,\)"):
        load(changed(data, arrays={"mistakes_": np.zeros(n + 2, dtype=np.int64)},
                     fitted={"mistakes_": mistakes}))
    with pytest.raises(ModelFileError, match=r"mistakes_ must be int64"):
        load(changed(data, arrays={"mistakes_": np.zeros(n, dtype=np.float64)}))
    V = model.vectors_[1].copy()
    V[0, 0] = np.nan
    with pytest.raises(ModelFileError, match=r"vectors_\[1\] and vector_intercepts_\[1\] must "
                                             "be finite"):
        load(changed(data, arrays={_array_name(data, "vectors_", 1): V}))
    c = model.vector_counts_[0].copy()
    c[0] = -3
    with pytest.raises(ModelFileError, match=r"vector_counts_\[0\] must be non-negative"):
        load(changed(data, arrays={_array_name(data, "vector_counts_", 0): c}))


def _array_name(data, attr, j):
    info = _mf.read_container(np.frombuffer(data, dtype=np.uint8))
    header = json.loads(info["header"])
    return header["fitted"][attr]["list"][j]["array"]


@pytest.mark.parametrize("params, message", [
    ({"eta0": -1.0}, "eta0"),
    ({"max_iter": 0}, "max_iter"),
    ({"validation_fraction": 2.0}, "validation_fraction"),
    ({"average": 1.5}, "average"),
])
def test_structured_parameters_are_checked_at_load(structured, params, message):
    with pytest.raises(ModelFileError, match=rf"the parameters are not valid: .*{message}"):
        load(changed(file_of(structured[0]), params=params))


@pytest.mark.parametrize("name, value", [
    (name, value) for name in ("transition_", "start_", "end_", "intercept_", "coef_")
    for value in (np.nan, np.inf)] + [("intercept_", -np.inf), ("coef_", -np.inf)])
def test_structured_non_finite_weights_are_refused(structured, name, value):
    model = structured[0]
    a = getattr(model, name).copy()
    a.flat[a.size // 2] = value
    with pytest.raises(ModelFileError, match=f"{name} must be finite"):
        load(changed(file_of(model), arrays={name: np.ascontiguousarray(a)}))


def test_structured_history_and_training_state_are_checked(structured):
    model, X, y, lengths = structured
    data = file_of(model, training_state=True)
    n = model.n_iter_
    with pytest.raises(ModelFileError, match=r"mistakes_ must be non-negative int64 of shape "
                                             r"\(n_iter_,\)"):
        load(changed(data, arrays={"mistakes_": np.zeros(n + 1, dtype=np.int64)}))
    with pytest.raises(ModelFileError, match="mistakes_ must be"):
        load(changed(data, arrays={"mistakes_": np.full(n, -1, dtype=np.int64)}))
    with pytest.raises(ModelFileError, match="n_iter_ must be an int"):
        load(changed(data, fitted={"n_iter_": -1}))
    W = model._W.copy()
    W[0, 0] = np.nan
    with pytest.raises(ModelFileError, match="the training state must be finite"):
        load(changed(data, arrays={"_W": W}))
    # the loaded file goes on with partial_fit as the saved model does
    loaded = load(data)
    loaded.partial_fit(X, y, lengths)
    np.testing.assert_array_equal(loaded.mistakes_[:n], model.mistakes_)
    assert loaded.mistakes_.shape == (n + 1,)


def test_tagger_files_check_their_sequence_model(tagger):
    data = file_of(tagger)
    k = len(tagger.classes_)
    T = np.zeros((k, k))
    T[1, 2] = np.nan
    with pytest.raises(ModelFileError, match="transition_ must be finite"):
        load(changed(data, arrays={"sequence_model__transition_": T}))
    n = tagger.max_iter
    with pytest.raises(ModelFileError, match="mistakes_ must be"):
        load(changed(data, arrays={"sequence_model__mistakes_": np.zeros(n + 3, dtype=np.int64)}))
    with pytest.raises(ModelFileError, match="max_iter"):
        load(changed(data, params={"max_iter": 0}))
    with pytest.raises(ModelFileError, match="n_features"):
        load(changed(data, params={"n_features": 2 ** 40}))


def test_minus_infinity_only_where_the_constraints_forbid():
    # BIO over one type: O, B-X, I-X; I-X may not start nor follow O
    labels = np.array(["B-X", "I-X", "O"])
    rng = np.random.default_rng(2)
    seqs = [["O", "B-X", "I-X", "O"], ["B-X", "I-X", "I-X", "O"], ["O", "O", "B-X", "O"]] * 3
    y = np.array([t for s in seqs for t in s])
    X = rng.standard_normal((len(y), 3)) + (y[:, None] == labels[None, :])
    lengths = [len(s) for s in seqs]
    model = StructuredPerceptron(max_iter=3, random_state=0, constraints="iob2")
    model.fit(X, y, lengths)
    assert np.isneginf(model.transition_).any() and np.isneginf(model.start_).any()
    data = file_of(model)
    np.testing.assert_array_equal(load(data).transition_, model.transition_)
    allowed = np.flatnonzero(np.isfinite(model.transition_.ravel()))
    T = model.transition_.copy()
    T.flat[allowed[0]] = -np.inf
    with pytest.raises(ModelFileError, match="transition_ must be finite .*constraints forbids"):
        load(changed(data, arrays={"transition_": T}))
    T = model.transition_.copy()
    T.flat[allowed[0]] = np.nan
    with pytest.raises(ModelFileError, match="transition_ must be finite"):
        load(changed(data, arrays={"transition_": T}))
    # without the constraints parameter (a tagger's sequence model), minus
    # infinity is a forbidden move wherever it is; NaN is still refused
    assert load(changed(data, params={"constraints": None})).predict(X, lengths).shape == y.shape
    with pytest.raises(ModelFileError, match="transition_ must be finite"):
        load(changed(data, params={"constraints": None}, arrays={"transition_": T}))

"""Compact models: model files and pickles hold what prediction needs (about
the size of coef_) unless the training state is asked for
(``save(..., training_state=True)``, ``est.keep_training_state()``); a model
without it predicts the same, refuses partial_fit by name, and warm-starts
from coef_ as scikit-learn does."""
import copy
import io
import json
import pickle
import struct

import numpy as np
import pytest

import perceptron
from perceptron import CentroidClassifier, KernelPerceptron, Perceptron, VotedPerceptron
from perceptron.io import save_model

from helpers import quiet

# a file's fixed cost: the preamble, the table, the JSON header, the alignment
FILE_OVERHEAD = 4096
PICKLE_OVERHEAD = 2048


def data(n=200, d=5000, k=2, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    y = np.argmax(X[:, :k], axis=1) if k > 2 else (X[:, 0] > 0).astype(int)
    return X, y


def file_bytes(model, **kw):
    buf = io.BytesIO()
    model.save(buf, **kw)
    return buf.getvalue()


def header_of(raw):
    offset, size = struct.unpack_from("<2Q", raw, 24)
    return json.loads(raw[offset:offset + size])


def load(raw):
    return perceptron.load(io.BytesIO(raw))


CASES = {
    "plain": ({}, 2),
    "averaged": ({"average": True}, 2),
    "pocket": ({"pocket": True}, 2),
    "batch": ({"batch_size": 16}, 2),
    "ovr": ({}, 4),
    "multinomial": ({"multiclass": "multinomial", "average": True}, 4),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_fit_saves_and_pickles_about_the_size_of_coef(name, dtype):
    params, k = CASES[name]
    X, y = data(k=k, dtype=dtype)
    model = quiet(Perceptron(random_state=0, max_iter=3, **params).fit, X, y)
    weights = model.coef_.nbytes + model.intercept_.nbytes
    compact, whole = file_bytes(model), file_bytes(model, training_state=True)
    assert weights < len(compact) < weights + FILE_OVERHEAD
    # the training state is one more copy of the weights at least (W), and
    # the averaging accumulators (float64) on top when averaged
    assert len(whole) > len(compact) + model.coef_.nbytes
    if params.get("average"):
        assert len(whole) > len(compact) + 2 * model.coef_.nbytes
    pickled = pickle.dumps(model)
    assert weights < len(pickled) < weights + PICKLE_OVERHEAD
    assert len(pickle.dumps(copy.copy(model).keep_training_state())) > \
        len(pickled) + model.coef_.nbytes


@pytest.mark.parametrize("name", CASES)
def test_a_compact_model_predicts_the_same(name):
    params, k = CASES[name]
    X, y = data(n=120, d=50, k=k)
    model = quiet(Perceptron(random_state=0, max_iter=5, **params).fit, X, y)
    for copy_ in (load(file_bytes(model)), pickle.loads(pickle.dumps(model))):
        assert not hasattr(copy_, "_states")
        assert copy_.get_params() == model.get_params()
        np.testing.assert_array_equal(copy_.coef_, model.coef_)
        np.testing.assert_array_equal(copy_.intercept_, model.intercept_)
        np.testing.assert_array_equal(copy_.decision_function(X), model.decision_function(X))
        np.testing.assert_array_equal(copy_.predict(X), model.predict(X))
        np.testing.assert_array_equal(copy_.mistakes_, model.mistakes_)
        assert copy_.n_iter_ == model.n_iter_ and copy_.t_ == model.t_
    # the model itself keeps its state: saving and pickling never change it
    assert len(model._states) >= 1


def test_the_layout_versions():
    # a compact file is layout 2 (older packages refuse it by name); a file
    # with its training state stays layout 1, which every version reads
    X, y = data(d=20)
    model = quiet(Perceptron(random_state=0).fit, X, y)
    assert header_of(file_bytes(model))["schema_version"] == 2
    assert "_states" not in header_of(file_bytes(model))["fitted"]
    whole = header_of(file_bytes(model, training_state=True))
    assert "schema_version" not in whole and "_states" in whole["fitted"]


@pytest.mark.parametrize("how", ["file", "pickle"])
def test_partial_fit_without_the_training_state_says_why_and_what_to_do(how):
    X, y = data(d=20)
    model = quiet(Perceptron(random_state=0).partial_fit, X, y, classes=[0, 1])
    again = load(file_bytes(model)) if how == "file" else pickle.loads(pickle.dumps(model))
    with pytest.raises(ValueError, match=r"no training state.*training_state=True.*"
                                         r"keep_training_state\(\)"):
        again.partial_fit(X, y)
    # nothing changed
    np.testing.assert_array_equal(again.coef_, model.coef_)
    assert len(again.mistakes_) == 1


@pytest.mark.parametrize("params", [{}, {"average": True}, {"pocket": True},
                                    {"multiclass": "multinomial"}])
def test_the_training_state_when_asked_goes_on_exactly(params):
    X, y = data(n=150, d=30, k=3)
    model = quiet(Perceptron(random_state=0, **params).partial_fit, X[:75], y[:75],
                  classes=[0, 1, 2])
    from_file = load(file_bytes(model, training_state=True))
    from_pickle = pickle.loads(pickle.dumps(copy.copy(model).keep_training_state()))
    for est in (model, from_file, from_pickle):
        quiet(est.partial_fit, X[75:], y[75:])
    for est in (from_file, from_pickle):
        np.testing.assert_array_equal(est.coef_, model.coef_)
        np.testing.assert_array_equal(est.intercept_, model.intercept_)
        np.testing.assert_array_equal(est.mistakes_, model.mistakes_)


def test_keep_training_state_is_a_switch_of_the_estimator():
    X, y = data(d=20)
    model = quiet(Perceptron(random_state=0).fit, X, y)
    assert model.keep_training_state() is model
    assert "_states" in header_of(file_bytes(model))["fitted"]  # save follows it
    assert "_states" not in header_of(file_bytes(model, training_state=False))["fitted"]
    assert hasattr(pickle.loads(pickle.dumps(model)), "_states")
    # the unpickled copy keeps the switch
    assert hasattr(pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(model)))), "_states")
    assert model.keep_training_state(False) is model
    assert not hasattr(pickle.loads(pickle.dumps(model)), "_states")
    assert "_states" not in header_of(file_bytes(model))["fitted"]
    assert "_states" in header_of(file_bytes(model, training_state=True))["fitted"]
    with pytest.raises(TypeError, match="keep must be True or False"):
        model.keep_training_state("yes")
    with pytest.raises(TypeError, match="training_state must be True, False or None"):
        model.save(io.BytesIO(), training_state=1)
    # not a parameter: get_params and clone do not see it
    model.keep_training_state()
    assert "keep_training_state" not in model.get_params()
    sklearn_base = pytest.importorskip("sklearn.base")
    assert not hasattr(sklearn_base.clone(model), "_keep_training_state")


def test_copies_keep_everything():
    X, y = data(d=20)
    model = quiet(Perceptron(random_state=0, average=True).partial_fit, X, y, classes=[0, 1])
    for twin in (copy.copy(model), copy.deepcopy(model)):
        assert len(twin._states) == 1
        quiet(twin.partial_fit, X, y)
    deep = copy.deepcopy(model)
    assert deep._states[0].W is not model._states[0].W
    quiet(deep.partial_fit, X, y)
    quiet(model.partial_fit, X, y)
    np.testing.assert_array_equal(deep.coef_, model.coef_)


def test_warm_start_from_a_compact_model_starts_from_coef():
    # separable data, fitted to convergence: a warm start from coef_ makes no
    # update, whether the model kept its training state or not
    rng = np.random.default_rng(1)
    X = rng.standard_normal((200, 10))
    y = (X @ np.arange(1, 11) > 0).astype(int)
    model = Perceptron(random_state=0, max_iter=1000, tol=None, warm_start=True).fit(X, y)
    assert model.converged_
    compact = load(file_bytes(model))
    whole = load(file_bytes(model, training_state=True))
    for est in (compact, whole):
        est.fit(X, y)
        assert est.updates_[0] == 0 and est.n_iter_ == 1
        np.testing.assert_array_equal(est.coef_, model.coef_)
        np.testing.assert_array_equal(est.intercept_, model.intercept_)


@pytest.mark.parametrize("params", [{"average": True}, {"pocket": True},
                                    {"multiclass": "multinomial"}, {"multiclass": "ovr"}])
def test_warm_start_from_a_compact_model_continues_from_its_weights(params):
    X, y = data(n=150, d=30, k=3)
    model = quiet(Perceptron(random_state=0, max_iter=3, **params).fit, X, y)
    compact = pickle.loads(pickle.dumps(model)).set_params(warm_start=True, max_iter=2)
    # the same as a fresh state made of coef_ and intercept_: a hand-made warm start
    by_hand = quiet(Perceptron(random_state=0, max_iter=3, **params).fit, X, y)
    by_hand.set_params(warm_start=True, max_iter=2)
    for s, w, b in zip(by_hand._states, np.split(by_hand.coef_, len(by_hand._states)),
                       np.split(by_hand.intercept_, len(by_hand._states))):
        s.W[...] = w
        s.b[...] = b
    quiet(compact.fit, X, y)
    quiet(by_hand.fit, X, y)
    np.testing.assert_array_equal(compact.coef_, by_hand.coef_)
    np.testing.assert_array_equal(compact.intercept_, by_hand.intercept_)
    assert len(compact._states) >= 1  # and it can go on from here
    quiet(compact.partial_fit, X, y)


def test_warm_start_of_a_compact_two_class_multinomial_model():
    # partial_fit's multinomial rule keeps two rows for two classes; coef_ is
    # their difference, and a warm fit (binary) starts from it
    X, y = data(d=20)
    model = quiet(Perceptron(random_state=0, multiclass="multinomial").partial_fit, X, y)
    assert model.coef_.shape == (1, 20)
    compact = load(file_bytes(model)).set_params(warm_start=True, max_iter=1)
    quiet(compact.fit, X, y)
    assert compact.coef_.shape == (1, 20)


def test_the_other_estimators_have_no_training_state_to_leave_out():
    X, y = data(n=60, d=8, k=3)
    for est in (VotedPerceptron(random_state=0, max_iter=3), CentroidClassifier(),
                KernelPerceptron(random_state=0, max_iter=3)):
        model = quiet(est.fit, X, y)
        assert file_bytes(model) == file_bytes(model, training_state=True)
        assert pickle.dumps(model) == pickle.dumps(copy.copy(model).keep_training_state()
                                                   .keep_training_state(False))
        np.testing.assert_array_equal(load(file_bytes(model)).predict(X), model.predict(X))


def test_save_model_takes_the_switch(tmp_path):
    X, y = data(d=20)
    model = quiet(Perceptron(random_state=0).fit, X, y)
    save_model(model, tmp_path / "compact.ptn")
    save_model(model, tmp_path / "whole.ptn", training_state=True)
    assert not hasattr(perceptron.load(tmp_path / "compact.ptn"), "_states")
    assert hasattr(perceptron.load(tmp_path / "whole.ptn"), "_states")

"""Model files written by an earlier build of the package (perceptron 0.1.0,
before the model-file codec found the estimators through a registry) still
load, predict and score as they did, and are written again byte for byte.

The files and the predictions recorded with them are in
tests/data/model_files (made by make.py there)."""
import pathlib

import numpy as np
import pytest

import perceptron
from perceptron.io import load_model, save_model

FOLDER = pathlib.Path(__file__).resolve().parent / "data" / "model_files"
NAMES = sorted(p.stem for p in FOLDER.glob("*.ptn"))


def test_there_are_files_of_every_estimator():
    kinds = {name.split("_")[0] for name in NAMES}
    assert kinds == {"perceptron", "voted", "centroid", "kernel"}


@pytest.mark.parametrize("name", NAMES)
def test_an_older_file_loads_and_predicts_the_same(name):
    model = perceptron.load(FOLDER / f"{name}.ptn")
    with np.load(FOLDER / f"{name}.npz", allow_pickle=False) as expected:
        X = expected["X"]
        np.testing.assert_array_equal(model.predict(X), expected["predict"])
        np.testing.assert_array_equal(model.decision_function(X), expected["decision"])


@pytest.mark.parametrize("name", NAMES)
def test_an_older_file_is_written_again_unchanged(name, tmp_path):
    # with its training state (the files of 0.1.0 all hold it), as it was written
    path = FOLDER / f"{name}.ptn"
    out = tmp_path / "again.ptn"
    save_model(load_model(path), out, training_state=True)
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_an_older_file_saved_compact_predicts_the_same(name, tmp_path):
    path = FOLDER / f"{name}.ptn"
    out = tmp_path / "compact.ptn"
    save_model(load_model(path), out)
    model = load_model(out)
    assert not hasattr(model, "_states")
    assert out.stat().st_size <= path.stat().st_size
    with np.load(FOLDER / f"{name}.npz", allow_pickle=False) as expected:
        X = expected["X"]
        np.testing.assert_array_equal(model.predict(X), expected["predict"])
        np.testing.assert_array_equal(model.decision_function(X), expected["decision"])


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("perceptron")])
def test_an_older_file_with_its_state_goes_on_training(name):
    # the files of 0.1.0 hold the training state: partial_fit continues from it
    model = load_model(FOLDER / f"{name}.ptn")
    assert isinstance(model._states, list)
    with np.load(FOLDER / f"{name}.npz", allow_pickle=False) as expected:
        X = expected["X"]
    y = model.predict(X)
    before = len(model.mistakes_)
    model.set_params(early_stopping=False)  # partial_fit has none
    model.partial_fit(X.astype(model.coef_.dtype), y)
    assert len(model.mistakes_) == before + 1

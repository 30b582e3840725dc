"""Model files written by an earlier build of the package (perceptron 0.1.0,
before the model-file codec found the estimators through a registry) still
load, predict and score as they did, and are written again byte for byte.

The files and the predictions recorded with them are in
tests/io/data/model_files (made by make.py there)."""
import json
import pathlib

import numpy as np
import pytest

import perceptron
from perceptron.io import load_model, save_model

FOLDER = pathlib.Path(__file__).resolve().parent / "data" / "model_files"
NAMES = sorted(p.stem for p in FOLDER.glob("*.ptn"))


def assert_same_scores(actual, expected):
    """The recorded scores, to the rounding of the SIMD level: they were
    recorded at AVX-512, and each level sums a dot product in its own order
    (predictions, compared exactly, do not depend on it here)."""
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    rtol = 1e-9 if actual.dtype == np.float64 else 1e-5
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale)


def test_there_are_files_of_every_estimator():
    kinds = {name.split("_")[0] for name in NAMES}
    assert kinds == {"perceptron", "voted", "centroid", "kernel"}


@pytest.mark.parametrize("name", NAMES)
def test_an_older_file_loads_and_predicts_the_same(name):
    model = perceptron.load(FOLDER / f"{name}.ptn")
    with np.load(FOLDER / f"{name}.npz", allow_pickle=False) as expected:
        X = expected["X"]
        np.testing.assert_array_equal(model.predict(X), expected["predict"])
        assert_same_scores(model.decision_function(X), expected["decision"])


# Parameters the Perceptron gained after these files were written (scikit-learn's,
# mixing and dtype), and the progress bars of the VotedPerceptron and the KernelPerceptron:
# a file read back holds them at their defaults, and nothing else changes.
ADDED_SINCE = {"perceptron": {"penalty": None, "alpha": 0.0001, "l1_ratio": 0.15, "tol": 0.001,
                              "mixing": "uniform", "dtype": None},
               "voted": {"progress": False}, "kernel": {"progress": False}}


@pytest.mark.parametrize("name", NAMES)
def test_an_older_file_is_written_again_unchanged(name, tmp_path):
    # with its training state (the files of 0.1.0 all hold it), as it was written
    path = FOLDER / f"{name}.ptn"
    out = tmp_path / "again.ptn"
    save_model(load_model(path), out, training_state=True)
    added = ADDED_SINCE.get(name.split("_")[0])
    if not added:
        assert out.read_bytes() == path.read_bytes()
        return
    old, new = parts(path.read_bytes()), parts(out.read_bytes())
    assert new["preamble"] == old["preamble"]
    assert new["arrays"] == old["arrays"]  # names, dtypes, shapes and bytes
    expected = json.loads(old["header"])
    assert not set(added) & set(expected["params"])
    expected["params"] = dict(sorted({**expected["params"], **added}.items()))
    assert new["header"] == json.dumps(expected, allow_nan=False, ensure_ascii=False,
                                       separators=(",", ":")).encode("utf-8")


def parts(data):
    """A model file (layout: csrc/ptn_model_file.h) cut into what does not
    depend on the header's length: the preamble's fixed fields, the JSON
    header and each array's table entry (without its offset) and bytes."""
    def u64(at):
        return int.from_bytes(data[at:at + 8], "little")

    n = int.from_bytes(data[16:20], "little")
    header_offset, header_size = u64(24), u64(32)
    arrays = []
    for i in range(n):
        entry = data[64 + 96 * i:64 + 96 * (i + 1)]
        offset = int.from_bytes(entry[40:48], "little")
        nbytes = int.from_bytes(entry[48:56], "little")
        arrays.append((entry[:40] + entry[48:], data[offset:offset + nbytes]))
    assert header_offset == 64 + 96 * n
    return {"preamble": data[:16], "header": data[header_offset:header_offset + header_size],
            "arrays": arrays}


@pytest.mark.parametrize("name", NAMES)
def test_an_older_file_saved_compact_predicts_the_same(name, tmp_path):
    path = FOLDER / f"{name}.ptn"
    out = tmp_path / "compact.ptn"
    save_model(load_model(path), out)
    model = load_model(out)
    assert not hasattr(model, "_states")
    # no larger, but for the parameters added since, whose JSON may take the
    # header into one more 64-byte block
    added = json.dumps(ADDED_SINCE.get(name.split("_")[0], {}))
    slack = -(-len(added) // 64) * 64 if len(added) > 2 else 0
    assert out.stat().st_size <= path.stat().st_size + slack
    with np.load(FOLDER / f"{name}.npz", allow_pickle=False) as expected:
        X = expected["X"]
        np.testing.assert_array_equal(model.predict(X), expected["predict"])
        assert_same_scores(model.decision_function(X), expected["decision"])


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

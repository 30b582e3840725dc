"""The command line's train / predict / evaluate on files, and its errors."""
import io
import subprocess
import sys

import numpy as np
import pytest

import perceptron
from perceptron.cli import classification_report, load_data, main


def run(argv):
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def blobs(rng, n=300, labels=("cat", "dog", "eel")):
    centres = np.array([[0.0, 3.0, 0.0], [3.0, 0.0, 0.0], [0.0, 0.0, 3.0]])
    t = rng.integers(0, len(labels), n)
    X = centres[t] + rng.standard_normal((n, 3)) * 0.5
    return X, np.array(labels)[t]


def write_csv(path, X, y, header=True, label_first=False):
    with open(path, "w") as fh:
        if header:
            names = ["f0", "f1", "f2"]
            fh.write(",".join(["label"] + names if label_first else names + ["label"]) + "\n")
        for row, label in zip(X, y):
            values = [repr(float(v)) for v in row]
            fh.write(",".join([str(label)] + values if label_first else values + [str(label)])
                     + "\n")


@pytest.mark.parametrize("header", [True, False])
def test_csv_train_predict_evaluate(tmp_path, rng, header, capsys):
    X, y = blobs(rng)
    data, model = tmp_path / "train.csv", tmp_path / "m.ptn"
    write_csv(data, X, y, header=header)
    code, text = run(["train", str(data), "-o", str(model), "--algorithm", "averaged",
                      "--epochs", "5", "--quiet"])
    assert code == 0, text
    assert f"wrote {model}" in text and "300 rows x 3 features" in text
    saved = perceptron.load(model)
    assert list(saved.classes_) == ["cat", "dog", "eel"]
    expected = perceptron.Perceptron(average=True, max_iter=5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(saved.coef_, expected.coef_)

    labels_out = tmp_path / "labels.txt"
    code, text = run(["predict", str(model), str(data), "-o", str(labels_out)])
    assert code == 0 and "wrote 300 labels" in text
    assert labels_out.read_text().split() == list(expected.predict(X))
    code, text = run(["predict", str(model), str(data), "--scores"])
    scores = np.array([[float(v) for v in line.split(",")] for line in text.split()])
    np.testing.assert_allclose(scores, expected.decision_function(X), rtol=1e-15)

    code, text = run(["evaluate", str(model), str(data)])
    assert code == 0
    accuracy = float(text.split("accuracy")[1].split()[0])
    assert accuracy == pytest.approx(expected.score(X, y))
    assert "confusion matrix" in text and "precision" in text and "recall" in text
    for label in ("cat", "dog", "eel"):
        assert label in text


def test_csv_label_column_by_name_and_index(tmp_path, rng):
    X, y = blobs(rng, n=60)
    data = tmp_path / "first.csv"
    write_csv(data, X, y, header=True, label_first=True)
    for column in ("label", "0"):
        Xr, yr = load_data(data, label_column=column)
        np.testing.assert_array_equal(Xr, X)
        np.testing.assert_array_equal(yr, y)


def test_numeric_labels_and_npz_npy(tmp_path, rng):
    X, y = blobs(rng, labels=(1, 2, 3))
    np.savez(tmp_path / "d.npz", X=X, y=y)
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    code, _ = run(["train", str(tmp_path / "d.npz"), "-o", str(tmp_path / "a.ptn"), "-q"])
    assert code == 0
    code, _ = run(["train", str(tmp_path / "X.npy"), "--labels", str(tmp_path / "y.npy"),
                   "-o", str(tmp_path / "b.ptn"), "-q", "--algorithm", "voted"])
    assert code == 0
    a, b = perceptron.load(tmp_path / "a.ptn"), perceptron.load(tmp_path / "b.ptn")
    assert a.classes_.tolist() == [1, 2, 3] and isinstance(b, perceptron.VotedPerceptron)
    code, text = run(["evaluate", str(tmp_path / "a.ptn"), str(tmp_path / "d.npz")])
    assert code == 0 and float(text.split("accuracy")[1].split()[0]) > 0.9


def test_classification_report_by_hand():
    accuracy, confusion, rows = classification_report(["a", "a", "b", "b"], ["a", "b", "b", "b"],
                                                      ["a", "b"])
    assert accuracy == 0.75
    assert confusion.tolist() == [[1, 1], [0, 2]]
    assert rows[0] == ("a", 1.0, 0.5, pytest.approx(2 / 3), 2)
    assert rows[1] == ("b", pytest.approx(2 / 3), 1.0, pytest.approx(0.8), 2)


@pytest.mark.parametrize("argv, message", [
    (["train", "missing.csv", "-o", "m.ptn"], "No such file"),
    (["train", "data.weird", "-o", "m.ptn"], "cannot tell the format"),
    (["predict", "not-a-model.ptn", "data.csv"], "model"),
    (["train", "bad.svm", "-o", "m.ptn"], "line 2"),
    (["train", "ragged.csv", "-o", "m.ptn"], "line 2"),
    (["train", "X.npy", "-o", "m.ptn"], "--labels"),
])
def test_errors_are_one_line_and_exit_1(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.weird").write_text("1,2\n")
    (tmp_path / "not-a-model.ptn").write_bytes(b"not a model at all")
    (tmp_path / "data.csv").write_text("1,2,0\n")
    (tmp_path / "bad.svm").write_text("1 1:0.5\n-1 2:x\n")
    (tmp_path / "ragged.csv").write_text("1,2,a\n1,b\n")
    np.save(tmp_path / "X.npy", np.ones((3, 2)))
    assert main(argv, out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"perceptron {argv[0]}: error: ")
    assert message in err


def test_console_entry_point_runs(tmp_path, rng):
    X, y = blobs(rng, n=50)
    write_csv(tmp_path / "d.csv", X, y)
    proc = subprocess.run([sys.executable, "-m", "perceptron", "train", str(tmp_path / "d.csv"),
                           "-o", str(tmp_path / "m.ptn"), "--epochs", "3"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "m.ptn").exists()

"""The command line's train / predict / evaluate on files, and its errors."""
import io
import os
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
    (tmp_path / "data.weird").write_text("neither svmlight nor csv\n")
    (tmp_path / "not-a-model.ptn").write_bytes(b"not a model at all")
    (tmp_path / "data.csv").write_text("1,2,0\n")
    (tmp_path / "bad.svm").write_text("1 1:0.5\n-1 2:x\n")
    (tmp_path / "ragged.csv").write_text("1,2,a\n1,b\n")
    np.save(tmp_path / "X.npy", np.ones((3, 2)))
    assert main(argv, out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"perceptron {argv[0]}: error: ")
    assert message in err


@pytest.mark.slow  # a fresh interpreter
def test_console_entry_point_runs(tmp_path, rng):
    X, y = blobs(rng, n=50)
    write_csv(tmp_path / "d.csv", X, y)
    proc = subprocess.run([sys.executable, "-m", "perceptron", "train", str(tmp_path / "d.csv"),
                           "-o", str(tmp_path / "m.ptn"), "--epochs", "3"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "m.ptn").exists()


# ------------------------------------------------- formats, streams, labels

def svm_text(X, y, plus=True):
    lines = []
    for row, label in zip(X, y):
        label = f"+{label}" if plus and label > 0 else str(label)
        feats = " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(row.tolist()) if v != 0)
        lines.append(f"{label} {feats} \n")
    return "".join(lines)


def binary_data(rng, n=200, d=5):
    X = np.round(rng.standard_normal((n, d)), 3)
    w = rng.standard_normal(d)
    y = np.where(X @ w > 0, 1, -1)
    return X, y


def cli(args, stdin=None, timeout=120):
    """The command as a process: (status, stdout bytes, stderr text)."""
    proc = subprocess.run([sys.executable, "-m", "perceptron", *args], input=stdin,
                          capture_output=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr.decode()


def packed(path, data, kind):
    import bz2
    import gzip
    import lzma

    opener = {"gz": gzip.open, "bz2": bz2.open, "xz": lzma.open, "": open}[kind]
    with opener(path, "wb") as out:
        out.write(data)


@pytest.mark.parametrize("name, kind", [("a9a.t", ""), ("a9a.t.gz", "gz"), ("train", ""),
                                        ("data.weird", "bz2"), ("data.txt", "xz"),
                                        ("no-suffix-but-gzip", "gz")])
@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_svmlight_told_from_the_content(tmp_path, rng, name, kind):
    X, y = binary_data(rng)
    packed(tmp_path / name, svm_text(X, y).encode(), kind)
    expected = perceptron.Perceptron(max_iter=5, random_state=0).fit(X, y)
    code, text = run(["train", str(tmp_path / name), "-o", str(tmp_path / "m.ptn"),
                      "--epochs", "5", "-q"])
    assert code == 0, text
    model = perceptron.load(tmp_path / "m.ptn")
    assert model.classes_.tolist() == [-1, 1] and model.classes_.dtype.kind == "i"
    np.testing.assert_allclose(model.coef_, expected.coef_, rtol=1e-12)
    code, text = run(["evaluate", str(tmp_path / "m.ptn"), str(tmp_path / name)])
    assert code == 0 and "accuracy" in text


def test_csv_and_numpy_told_from_the_content(tmp_path, rng):
    X, y = blobs(rng, n=90)
    write_csv(tmp_path / "blobs.data", X, y)
    Xr, yr = load_data(tmp_path / "blobs.data")
    np.testing.assert_array_equal(Xr, X)
    assert yr.tolist() == y.tolist()
    np.save(tmp_path / "X.bin", X)  # numpy adds .npy to the name
    np.savez(tmp_path / "d.npz", X=X, y=np.arange(90) % 3)
    (tmp_path / "d.npz").rename(tmp_path / "d.archive")
    Xr, _ = load_data(tmp_path / "X.bin.npy", need_labels=False)
    (tmp_path / "X.bin.npy").rename(tmp_path / "X.bin")
    Xn, yn = load_data(tmp_path / "d.archive")
    np.testing.assert_array_equal(load_data(tmp_path / "X.bin", need_labels=False)[0], X)
    np.testing.assert_array_equal(Xn, X)
    assert yn.tolist() == (np.arange(90) % 3).tolist()


@pytest.mark.parametrize("content", [b"\x00" * 100, b"\x7fELF\x02\x01\x01" + bytes(range(200)),
                                     b"hello world\nsecond line\n"])
def test_unknown_content_is_one_line(tmp_path, capsys, content):
    (tmp_path / "data.bin").write_bytes(content)
    assert main(["train", str(tmp_path / "data.bin"), "-o", str(tmp_path / "m.ptn")],
                out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot tell the format of" in err
    assert not (tmp_path / "m.ptn").exists()


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_a9a_by_content(a9a_path, tmp_path):
    test = tmp_path / "a9a.t"
    with open(a9a_path, "rb") as fh:
        test.write_bytes(b"".join(fh.readline() for _ in range(2000)))
    code, text = run(["train", str(a9a_path), "-o", str(tmp_path / "a9a.ptn"), "--algorithm",
                      "averaged", "--epochs", "3", "-q"])
    assert code == 0, text
    code, text = run(["evaluate", str(tmp_path / "a9a.ptn"), str(test)])
    assert code == 0 and float(text.split("accuracy")[1].split()[0]) > 0.8
    assert "      +1" in text and "      -1" in text
    code, text = run(["predict", str(tmp_path / "a9a.ptn"), str(test)])
    assert set(text.split()) == {"+1", "-1"} and len(text.split()) == 2000


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_labels_are_written_as_read(tmp_path, rng):
    X, y = binary_data(rng, n=60)
    (tmp_path / "plus.svm").write_text(svm_text(X, y, plus=True))
    (tmp_path / "bare.svm").write_text(svm_text(X, y, plus=False))
    run(["train", str(tmp_path / "plus.svm"), "-o", str(tmp_path / "m.ptn"), "-q"])
    for name, positive in (("plus.svm", "+1"), ("bare.svm", "1")):
        code, text = run(["predict", str(tmp_path / "m.ptn"), str(tmp_path / name)])
        assert code == 0 and set(text.split()) == {positive, "-1"}, name
    # integer classes as integers, text labels as text
    y3 = np.where(y > 0, 3, 7)
    (tmp_path / "three.svm").write_text(svm_text(X, y3, plus=False))
    run(["train", str(tmp_path / "three.svm"), "-o", str(tmp_path / "m3.ptn"), "-q"])
    code, text = run(["predict", str(tmp_path / "m3.ptn"), str(tmp_path / "three.svm")])
    assert set(text.split()) == {"3", "7"}
    write_csv(tmp_path / "spam.csv", np.c_[X[:, :3]], np.where(y > 0, "spam", "ham"))
    run(["train", str(tmp_path / "spam.csv"), "-o", str(tmp_path / "ms.ptn"), "-q"])
    code, text = run(["predict", str(tmp_path / "ms.ptn"), str(tmp_path / "spam.csv")])
    assert set(text.split()) == {"spam", "ham"}


def test_label_text_rule():
    from perceptron.cli import label_text

    assert [label_text(v) for v in (1, -1, 3.0, 2.5, "spam", np.int64(4))] == \
        ["1", "-1", "3", "2.5", "spam", "4"]
    assert [label_text(v, plus=True) for v in (1, -1, 0, 1.0, 0.5)] == \
        ["+1", "-1", "0", "+1", "0.5"]


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_standard_input_and_output(tmp_path, rng):
    X, y = binary_data(rng, n=80)
    svm = svm_text(X, y).encode()
    code, model_bytes, err = cli(["train", "-", "-o", "-", "--epochs", "3", "-q"], stdin=svm)
    assert code == 0, err
    assert "trained" in err and "wrote the model to standard output" in err
    model = perceptron.load(io.BytesIO(model_bytes))
    expected = perceptron.Perceptron(max_iter=3, random_state=0).fit(X, y)
    np.testing.assert_allclose(model.coef_, expected.coef_, rtol=1e-12)
    (tmp_path / "m.ptn").write_bytes(model_bytes)
    code, out, err = cli(["predict", str(tmp_path / "m.ptn"), "-", "-o", "-"], stdin=svm)
    assert code == 0, err
    assert out.decode().split() == [("+1" if v > 0 else "-1") for v in expected.predict(X)]
    # csv on standard input, compressed too
    import gzip

    buf = io.StringIO()
    for row, label in zip(X, y):
        buf.write(",".join(map(repr, row.tolist())) + f",{label}\n")
    for data in (buf.getvalue().encode(), gzip.compress(buf.getvalue().encode())):
        code, out, err = cli(["evaluate", str(tmp_path / "m.ptn"), "-"], stdin=data)
        assert code == 0, err
        assert b"accuracy" in out


def test_output_that_is_an_input_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data.svm"
    data.write_text("+1 1:1\n-1 2:1\n")
    before = data.read_bytes()
    (tmp_path / "link.svm").symlink_to(data)
    for argv in (["train", "data.svm", "-o", "data.svm"],
                 ["train", "data.svm", "-o", str(tmp_path / "." / "data.svm")],
                 ["train", "link.svm", "-o", "data.svm"]):
        assert main(argv, out=io.StringIO()) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is the input" in err and "refusing" in err
        assert data.read_bytes() == before
    assert main(["train", "data.svm", "-o", "m.ptn", "-q"], out=io.StringIO()) == 0
    model_before = (tmp_path / "m.ptn").read_bytes()
    for argv in (["predict", "m.ptn", "data.svm", "-o", "m.ptn"],
                 ["predict", "m.ptn", "data.svm", "-o", "./data.svm"]):
        assert main(argv, out=io.StringIO()) == 1
        assert "is the input" in capsys.readouterr().err
    assert (tmp_path / "m.ptn").read_bytes() == model_before and data.read_bytes() == before


# ------------------------------------------------- progressive validation

def progressive_reference(X, y):
    """Mistakes of the plain perceptron scored before each update (numpy)."""
    w, b, wrong = np.zeros(X.shape[1]), 0.0, []
    for x, t in zip(X, y):
        a = float(x @ w) + b
        wrong.append((1 if a > 0 else -1) != t)
        if t * a <= 0:
            w, b = w + t * x, b + t
    return np.array(wrong), w, b


def test_progress_validation_against_numpy(tmp_path, rng):
    X, y = binary_data(rng, n=100, d=4)
    flip = rng.random(100) < 0.1  # not separable: mistakes all along
    y = np.where(flip, -y, y)
    (tmp_path / "d.svm").write_text(svm_text(X, y))
    code, text = run(["train", str(tmp_path / "d.svm"), "-o", str(tmp_path / "m.ptn"),
                      "--progress-validation", "--epochs", "1"])
    assert code == 0, text
    wrong, w, b = progressive_reference(X, y)
    lines = [line.split() for line in text.splitlines()]
    table = [line for line in lines if line and line[0].isdigit()]
    assert [int(t[0]) for t in table] == [1, 2, 4, 8, 16, 32, 64, 100]
    last = 0
    for row in table:
        rows = int(row[0])
        assert float(row[1]) == pytest.approx(wrong[:rows].mean(), abs=1e-6)
        assert float(row[2]) == pytest.approx(wrong[last:rows].mean(), abs=1e-6)
        assert row[3] == ("+1" if y[rows - 1] > 0 else "-1")
        last = rows
    model = perceptron.load(tmp_path / "m.ptn")
    np.testing.assert_allclose(model.coef_.ravel(), w, rtol=1e-12, atol=1e-12)
    assert float(np.ravel(model.intercept_)[0]) == pytest.approx(b)


def test_progress_validation_of_the_averaged_model(tmp_path, rng):
    # the averaged perceptron predicts with its averaged weights: each row is
    # scored by the model the rows before it trained, as predict gives it
    X, y = binary_data(rng, n=40, d=3)
    (tmp_path / "d.svm").write_text(svm_text(X, y))
    out = io.StringIO()
    model = perceptron.Perceptron(average=True)
    from perceptron.cli import progressive_validation

    mistakes = progressive_validation(model, X, y, out)
    ref = perceptron.Perceptron(average=True)
    expected = int(y[0] != -1)
    for i in range(len(y)):
        if i:
            expected += int(ref.predict(X[i:i + 1])[0] != y[i])
        ref.partial_fit(X[i:i + 1], y[i:i + 1], classes=[-1, 1])
    assert mistakes == expected
    np.testing.assert_array_equal(model.coef_, ref.coef_)
    code, text = run(["train", str(tmp_path / "d.svm"), "-o", str(tmp_path / "m.ptn"),
                      "--progress-validation", "--algorithm", "voted"])
    assert code == 1


# ------------------------------------------------- every failure is one line

@pytest.mark.slow  # a fresh interpreter
def test_failures_are_one_line_in_a_process(tmp_path):
    (tmp_path / "d.svm").write_text("+1 1:1\n-1 2:1\n")
    model = tmp_path / "m.ptn"
    assert cli(["train", str(tmp_path / "d.svm"), "-o", str(model), "-q"])[0] == 0
    huge = bytearray(model.read_bytes())
    huge[48:56] = (1 << 62).to_bytes(8, "little")  # the preamble's claimed file size
    (tmp_path / "huge.ptn").write_bytes(bytes(huge))
    long_line = tmp_path / "long.svm"
    long_line.write_text("+1 1:1\n-1 " + " ".join(f"{i}:1" for i in range(1, 400)) + "\n")
    cases = [
        (["train", str(tmp_path / "d.svm"), "-o", str(tmp_path / "x.ptn"),
          "--epochs", "99999999999999999999"], "out of range"),
        (["predict", str(tmp_path / "huge.ptn"), str(tmp_path / "d.svm")], "huge.ptn"),
        (["train", str(long_line), "-o", str(tmp_path / "x.ptn"), "--max-line-length", "1K"],
         "line 2: the line is longer than 1024 bytes"),
        (["train", str(tmp_path / "d.svm")], "the following arguments are required: -o"),
        (["train", str(tmp_path / "d.svm"), "-o", "x", "--epochs", "many"], "invalid int"),
        (["train", str(tmp_path / "d.svm"), "-o", "x", "--max-line-length", "lots"],
         "not a number of bytes"),
        (["frobnicate"], "invalid choice"),
    ]
    for argv, message in cases:
        code, out, err = cli(argv)
        assert code == 1, (argv, err)
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)
        assert err.startswith("perceptron") and ": error: " in err and message in err, (argv, err)
    assert not (tmp_path / "x.ptn").exists()


def test_memory_error_is_one_line(monkeypatch, capsys, tmp_path):
    import perceptron.cli as cli_module

    def no_memory(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(cli_module, "load_data", no_memory)
    assert main(["train", "whatever.svm", "-o", str(tmp_path / "m.ptn")], out=io.StringIO()) == 1
    assert capsys.readouterr().err == "perceptron train: error: out of memory\n"


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_returns_at_once(tmp_path):
    for argv, stdin in ((["train", "/dev/zero", "-o", str(tmp_path / "m.ptn")], None),
                        (["train", "/dev/zero", "--format", "svmlight", "-o",
                          str(tmp_path / "m.ptn")], None),
                        (["train", "-", "-o", str(tmp_path / "m.ptn")], "zero")):
        if stdin:
            with open("/dev/zero", "rb") as zero:
                proc = subprocess.run([sys.executable, "-m", "perceptron", *argv], stdin=zero,
                                      capture_output=True, timeout=60)
            code, err = proc.returncode, proc.stderr.decode()
        else:
            code, _, err = cli(argv, timeout=60)
        assert code == 1 and err.count("\n") == 1, err
        assert "binary" in err or "is not a number" in err, err
    assert not (tmp_path / "m.ptn").exists()

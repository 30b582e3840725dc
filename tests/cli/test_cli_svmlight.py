"""svmlight files at the command line: read into the package's own CSR
arrays (``CSRData``), so that ``train``, ``predict`` and ``evaluate`` need
numpy alone; features beyond a model's width; the memory a width asks for."""
import io
import json

import numpy as np
import pytest

import perceptron
from perceptron.cli import load_data, main
from perceptron.io import CSRData

from helpers import run_python


def svm_text(X, y):
    lines = []
    for row, label in zip(X, y):
        feats = " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(row.tolist()) if v != 0)
        lines.append(f"{label:+d} {feats}\n")
    return "".join(lines)


def sparse_data(rng, n=120, d=8):
    X = np.round(rng.standard_normal((n, d)), 3) * (rng.random((n, d)) < 0.5)
    y = np.where(X @ rng.standard_normal(d) > 0, 1, -1)
    return X, y


def as_csr(X):
    """CSRData of a dense X (the rows as the svmlight reader gives them)."""
    n, d = X.shape
    flat = np.flatnonzero(X.ravel())
    rows, cols = flat // d, flat % d
    return CSRData(X[rows, cols], cols.astype(np.int32),
                   np.searchsorted(rows, np.arange(n + 1)).astype(np.int32), (n, d))


def run(argv):
    out = io.StringIO()
    code = main([str(a) for a in argv], out=out)
    return code, out.getvalue()


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_svmlight_is_read_into_csr_arrays_and_trains_as_dense(tmp_path, rng):
    X, y = sparse_data(rng)
    path = tmp_path / "train.svm"
    path.write_text(svm_text(X, y))
    data_X, data_y = load_data(str(path))
    assert isinstance(data_X, CSRData) and data_X.shape == X.shape
    np.testing.assert_array_equal(data_X.toarray(), X)
    np.testing.assert_array_equal(data_y, y)
    assert run(["train", path, "-o", tmp_path / "m.ptn", "--epochs", 4, "-q"])[0] == 0
    model = perceptron.load(tmp_path / "m.ptn")
    dense = perceptron.Perceptron(max_iter=4, random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.coef_, dense.coef_)
    np.testing.assert_array_equal(model.intercept_, dense.intercept_)
    code, out = run(["predict", tmp_path / "m.ptn", path])
    assert code == 0 and out.split() == [f"{v:+d}" for v in dense.predict(X)]
    code, out = run(["evaluate", tmp_path / "m.ptn", path])
    assert code == 0 and f"accuracy {dense.score(X, y):.4f}" in out


def test_progressive_validation_of_csr_rows(tmp_path, rng):
    X, y = sparse_data(rng, n=40)
    path = tmp_path / "train.svm"
    path.write_text(svm_text(X, y))
    out = io.StringIO()
    assert main(["train", str(path), "-o", str(tmp_path / "m.ptn"), "--progress-validation",
                 "--epochs", "1"], out=out) == 0
    model = perceptron.load(tmp_path / "m.ptn")
    online = perceptron.Perceptron(random_state=0)
    for i in range(len(y)):  # the same row by row training, on dense rows
        online.partial_fit(X[i:i + 1], y[i:i + 1], classes=[-1, 1])
    np.testing.assert_array_equal(model.coef_, online.coef_)
    assert out.getvalue().splitlines()[1].split()[0] == "1"


WITHOUT_SCIPY = r"""
import contextlib, io, json, sys

class Block:
    # a numpy-only install: scipy (and scikit-learn, which needs it) cannot be imported
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("scipy", "sklearn"):
            raise ImportError(f"no {name} here")
sys.meta_path.insert(0, Block())

from perceptron.cli import main
folder = sys.argv[1]
results = []
for argv in (["train", f"{folder}/train.svm", "-o", f"{folder}/m.ptn", "-q"],
             ["train", f"{folder}/train.svm", "-o", f"{folder}/p.ptn", "--progress-validation"],
             ["train", f"{folder}/train.svm", "-o", f"{folder}/v.ptn", "--algorithm", "voted"],
             ["train", f"{folder}/train.svm", "-o", f"{folder}/c.ptn", "--algorithm", "centroid"],
             ["predict", f"{folder}/m.ptn", f"{folder}/train.svm"],
             ["predict", f"{folder}/v.ptn", f"{folder}/train.svm", "--scores"],
             ["evaluate", f"{folder}/c.ptn", f"{folder}/train.svm"]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(argv, out=out)
    results.append([code, err.getvalue()])
print(json.dumps({"results": results, "scipy": "scipy" in sys.modules}))
"""


@pytest.mark.slow  # a fresh interpreter
def test_train_predict_evaluate_svmlight_without_scipy(tmp_path, rng):
    X, y = sparse_data(rng)
    (tmp_path / "train.svm").write_text(svm_text(X, y))
    script = tmp_path / "numpy_only.py"
    script.write_text(WITHOUT_SCIPY)
    out, _ = run_python(f"import sys, runpy; sys.argv = ['x', {str(tmp_path)!r}]; "
                        f"runpy.run_path({str(script)!r}, run_name='__main__')")
    report = json.loads(out.strip().splitlines()[-1])
    assert report["results"] == [[0, ""]] * 7
    assert report["scipy"] is False


# ------------------------------------------ features the model never saw

def wider_rows(rng, X, extra=5):
    """X with `extra` more columns, some of them non-zero (indices the
    training file never had)."""
    shape = (X.shape[0], extra)
    more = np.round(rng.standard_normal(shape), 3) * (rng.random(shape) < 0.3)
    more[0, -1] = 1.5  # at least one
    return np.hstack([X, more])


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_unknown_features_are_ignored_as_liblinear_does(tmp_path, rng, capsys):
    X, y = sparse_data(rng)
    X[:, -1] = np.where(X[:, -1] == 0, 0.5, X[:, -1])  # the training file spans every column
    (tmp_path / "train.svm").write_text(svm_text(X, y))
    assert run(["train", tmp_path / "train.svm", "-o", tmp_path / "m.ptn", "-q"])[0] == 0
    model = perceptron.load(tmp_path / "m.ptn")
    assert model.n_features_in_ == X.shape[1]
    X_test = wider_rows(rng, sparse_data(rng, n=60)[0])
    y_test = np.where(X_test[:, 0] > 0, 1, -1)
    (tmp_path / "test.svm").write_text(svm_text(X_test, y_test))
    capsys.readouterr()
    code, out = run(["predict", tmp_path / "m.ptn", tmp_path / "test.svm", "--scores"])
    assert code == 0
    known = X_test[:, :X.shape[1]]  # what LIBLINEAR scores: the features the model has
    np.testing.assert_array_equal([float(v) for v in out.split()],
                                  model.decision_function(as_csr(known)))
    dropped = int(np.count_nonzero(X_test[:, X.shape[1]:]))
    assert capsys.readouterr().err == (
        f"perceptron predict: ignored {dropped} value(s) of features beyond the model's "
        f"{X.shape[1]} (--unknown-features error refuses them)\n")
    code, out = run(["evaluate", tmp_path / "m.ptn", tmp_path / "test.svm"])
    assert code == 0 and f"accuracy {model.score(as_csr(known), y_test):.4f}" in out
    # refused on request, naming the line of the largest index
    for command in ("predict", "evaluate"):
        code, _ = run([command, tmp_path / "m.ptn", tmp_path / "test.svm",
                       "--unknown-features", "error"])
        err = capsys.readouterr().err
        assert code == 1 and "line 1: feature index" in err and \
            f"does not fit n_features={X.shape[1]}" in err


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_train_n_features(tmp_path, rng, capsys):
    X, y = sparse_data(rng, d=6)
    (tmp_path / "train.svm").write_text(svm_text(X, y))
    X_test = wider_rows(rng, X, extra=4)
    (tmp_path / "test.svm").write_text(svm_text(X_test, y))
    assert run(["train", tmp_path / "train.svm", "-o", tmp_path / "m.ptn", "--n-features", 10,
                "-q"])[0] == 0
    model = perceptron.load(tmp_path / "m.ptn")
    assert model.n_features_in_ == 10
    padded = np.hstack([X, np.zeros((len(y), 4))])
    np.testing.assert_array_equal(
        model.coef_, perceptron.Perceptron(max_iter=10, random_state=0).fit(padded, y).coef_)
    code, out = run(["predict", tmp_path / "m.ptn", tmp_path / "test.svm", "--scores",
                     "--unknown-features", "error"])
    assert code == 0
    np.testing.assert_array_equal([float(v) for v in out.split()],
                                  model.decision_function(as_csr(X_test)))
    capsys.readouterr()
    # narrower than the file: refused, naming the line
    assert run(["train", tmp_path / "test.svm", "-o", tmp_path / "n.ptn",
                "--n-features", 6])[0] == 1
    assert "does not fit n_features=6" in capsys.readouterr().err
    assert not (tmp_path / "n.ptn").exists()
    # other formats: the option must be their width
    (tmp_path / "d.csv").write_text("".join(f"{a},{b},{c}\n" for a, b, c in
                                            [(0.5, 1.0, 1), (-1.0, 0.25, -1)]))
    assert run(["train", tmp_path / "d.csv", "-o", tmp_path / "c.ptn", "--n-features", 4])[0] == 1
    assert "--n-features 4" in capsys.readouterr().err


def test_narrowing_csr_rows_drops_exactly_the_wide_values(rng):
    from perceptron.io._data_files import _narrowed

    for n, d, width in [(7, 12, 5), (1, 3, 3), (5, 4, 1), (6, 9, 9)]:
        X = np.round(rng.standard_normal((n, d)), 2) * (rng.random((n, d)) < 0.4)
        X[2 % n] = 0  # an empty row
        csr = as_csr(X)
        narrow, ignored = _narrowed(csr, width)
        assert narrow.shape == (n, width) and narrow.indptr.dtype == np.int32
        np.testing.assert_array_equal(narrow.toarray(), X[:, :width])
        assert ignored == np.count_nonzero(X[:, width:])


# ------------------------------------------ the memory a width asks for

WIDE = b"1 2000000000:1\n-1 1:1\n"  # 22 bytes, a feature index of two billion


@pytest.mark.slow  # a fresh interpreter, under a memory limit
def test_a_huge_index_is_refused_before_allocating(tmp_path):
    (tmp_path / "wide.svm").write_bytes(WIDE)
    # under a 2 GiB address-space limit: the old command died in MemoryError (or, without
    # the limit, asked for 14.9 GiB)
    out, _ = run_python(f"""
import contextlib, io, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
from perceptron.cli import main
err = io.StringIO()
with contextlib.redirect_stderr(err):
    code = main(["train", {str(tmp_path / "wide.svm")!r}, "-o", {str(tmp_path / "m.ptn")!r}])
print(code)
print(err.getvalue())
""")
    code, err = out.split("\n", 1)
    assert code == "1", err
    assert "the weights would take at least 14.9 GiB (2,000,000,000 features" in err
    assert "more than --max-weight-memory 4.0 GiB" in err and "hash the features" in err
    assert not (tmp_path / "m.ptn").exists()


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_the_limit_can_be_raised(tmp_path, capsys, monkeypatch):
    (tmp_path / "mid.svm").write_bytes(b"1 200000:1\n-1 1:1 5:2\n")
    need = 200000 * 8  # one float64 vector
    assert run(["train", tmp_path / "mid.svm", "-o", tmp_path / "m.ptn",
                "--max-weight-memory", need - 1])[0] == 1
    assert "at least 1.5 MiB" in capsys.readouterr().err
    assert not (tmp_path / "m.ptn").exists()
    assert run(["train", tmp_path / "mid.svm", "-o", tmp_path / "m.ptn",
                "--max-weight-memory", need, "-q"])[0] == 0
    assert perceptron.load(tmp_path / "m.ptn").n_features_in_ == 200000
    # without the option, the library's limit, which the environment sets
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(need - 1))
    assert run(["train", tmp_path / "mid.svm", "-o", tmp_path / "e.ptn"])[0] == 1
    assert "more than --max-weight-memory 1.5 MiB" in capsys.readouterr().err


@pytest.mark.parametrize("algorithm, extra", [("perceptron", []), ("averaged", []),
                                              ("pocket", []), ("perceptron", ["--batch-size", "4"]),
                                              ("perceptron", ["--multiclass", "multinomial"])])
@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_the_estimate_is_the_training_state_arrays(algorithm, extra, rng):
    # the bytes counted are those of the state arrays a fit makes, n_features wide
    from perceptron.cli import build_parser, weight_memory

    args = build_parser().parse_args(["train", "x", "-o", "m", "--algorithm", algorithm, *extra])
    for n_classes in (2, 3):
        X = rng.standard_normal((40, 7)).astype(np.float32)
        y = np.arange(40) % n_classes
        model = perceptron.cli._estimator(args)
        model.set_params(max_iter=1, verbose=0, progress=False).fit(X, y)
        wide = sum(a.nbytes for state in model._states for a in vars(state).values()
                   if isinstance(a, np.ndarray) and a.ndim == 2 and a.shape[1] == 7)
        assert weight_memory(args, 7, n_classes, 4) == wide, (algorithm, extra, n_classes)


LIBRARY_WIDE = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # what the old fit asked for fails
import numpy as np
import perceptron
from perceptron.io import CSRData
from perceptron._common.validation import allowed_fit_bytes

X = CSRData(np.ones(2), np.array([1999999999, 0]), np.array([0, 1, 2]), (2, 2000000000))
for est in (perceptron.Perceptron(), perceptron.Perceptron(average=True),
            perceptron.PassiveAggressiveClassifier()):
    try:
        est.fit(X, [1, -1])
    except ValueError as exc:
        print(exc)
    except MemoryError:
        print("MemoryError")
with allowed_fit_bytes(64 << 30):  # raised: the fit then asks for the memory
    try:
        perceptron.Perceptron().fit(X, [1, -1])
    except MemoryError:
        print("MemoryError")
"""


@pytest.mark.slow  # a fresh interpreter, under a memory limit
def test_the_library_refuses_weights_of_a_huge_width():
    out, _ = run_python(LIBRARY_WIDE)
    lines = out.splitlines()
    assert len(lines) == 4, out
    for line, gib in zip(lines, ("14.90", "29.80", "14.90")):
        assert line.startswith("fit: the weights (1 vector(s) of n_features=2,000,000,000, "
                               f"the width of X) would take {gib} GiB, more than the limit of "
                               "4.00 GiB"), line
        assert "hash the features" in line and "PERCEPTRON_MAX_FIT_BYTES" in line
    assert lines[3] == "MemoryError"


def test_the_library_limit_is_read_from_the_context_and_the_environment(monkeypatch):
    from perceptron._common.validation import (allowed_fit_bytes, check_weight_memory,
                                               max_fit_bytes)

    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES", raising=False)
    assert max_fit_bytes() == 4 << 30
    check_weight_memory(1, 500_000_000, 8, "fit")  # 3.7 GiB
    with pytest.raises(ValueError, match=r"4\.47 GiB, more than the limit of 4\.00 GiB"):
        check_weight_memory(3, 200_000_000, 8, "fit")
    with allowed_fit_bytes(5 << 30):
        check_weight_memory(3, 200_000_000, 8, "fit")
        with allowed_fit_bytes(1 << 30):
            with pytest.raises(ValueError, match="more than the limit of 1.00 GiB"):
                check_weight_memory(1, 200_000_000, 8, "fit")
        check_weight_memory(3, 200_000_000, 8, "fit")
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(100 << 20))
    with pytest.raises(ValueError, match=r"more than the limit of 0\.10 GiB"):
        check_weight_memory(1, 20_000_000, 8, "fit")
    with allowed_fit_bytes(1 << 30):  # the command line's option wins over the environment
        check_weight_memory(1, 20_000_000, 8, "fit")


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("extra", [[], ["--progress-validation"], ["--algorithm", "averaged"]])
def test_train_binary_reads_indices_alone(tmp_path, rng, monkeypatch, capsys, extra):
    """--binary: the rows parsed without values, as binary rows; the model
    of the same file read with its ones stored (the float path), bit for bit."""
    from perceptron._core import csr as _csr

    X = (rng.random((150, 20)) < 0.2).astype(np.float64)
    y = np.where(X @ rng.standard_normal(20) > 0.3, 1, -1)
    path = tmp_path / "train.svm"
    path.write_text(svm_text(X, y))
    data_X, data_y = load_data(str(path), binary=True)
    assert isinstance(data_X, CSRData) and data_X.binary and data_X.data.strides == (0,)
    np.testing.assert_array_equal(data_X.toarray(), X)
    argv = ["train", path, "--epochs", 4, "-q", *extra]
    assert run([*argv, "-o", tmp_path / "b.ptn", "--binary"])[0] == 0
    with monkeypatch.context() as m:  # the ones as stored: no binary rows found
        m.setattr(_csr, "all_ones", lambda data: False)
        assert run([*argv, "-o", tmp_path / "f.ptn"])[0] == 0
    ours, theirs = perceptron.load(tmp_path / "b.ptn"), perceptron.load(tmp_path / "f.ptn")
    np.testing.assert_array_equal(ours.coef_, theirs.coef_)
    np.testing.assert_array_equal(ours.intercept_, theirs.intercept_)


def test_train_binary_refuses_other_values_and_formats(tmp_path, capsys):
    path = tmp_path / "train.svm"
    path.write_text("1 1:1 2:1\n-1 2:1 3:0.5\n")
    code, _ = run(["train", path, "-o", tmp_path / "m.ptn", "--binary"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{path}, line 2: '3:0.5': a value other than 1 in binary rows" in err
    assert not (tmp_path / "m.ptn").exists()
    csv = tmp_path / "train.csv"
    csv.write_text("1,0,1\n0,1,0\n")
    code, _ = run(["train", csv, "-o", tmp_path / "m.ptn", "--binary"])
    assert code == 1 and "--binary reads svmlight files" in capsys.readouterr().err

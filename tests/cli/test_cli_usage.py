"""The command line as a newcomer meets it: models on standard input, an
output path checked before training, ``| head``, a tagger model given to
``predict``, unlabeled CSV, and help text without markup."""
import argparse
import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import perceptron
from perceptron.cli import build_parser, main


def run(argv):
    out = io.StringIO()
    code = main([str(a) for a in argv], out=out)
    return code, out.getvalue()


def write_svm(path, X, y):
    path.write_text("".join(
        f"{label:+d} " + " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(row) if v) + "\n"
        for row, label in zip(X.tolist(), y.tolist())))


def data(rng, n=100, d=4):
    X = np.round(rng.standard_normal((n, d)), 3)
    return X, np.where(X @ rng.standard_normal(d) > 0, 1, -1)


def cli(args, stdin=None, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "perceptron", *map(str, args)], input=stdin,
                          capture_output=True, timeout=300, cwd=cwd)
    return proc.returncode, proc.stdout, proc.stderr.decode()


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_model_read_from_standard_input(tmp_path, rng):
    X, y = data(rng)
    write_svm(tmp_path / "d.svm", X, y)
    assert run(["train", tmp_path / "d.svm", "-o", tmp_path / "m.ptn", "-q"])[0] == 0
    model = perceptron.load(tmp_path / "m.ptn")
    model_bytes = (tmp_path / "m.ptn").read_bytes()
    code, out, err = cli(["predict", "-", tmp_path / "d.svm"], stdin=model_bytes)
    assert code == 0, err
    assert out.decode().split() == [f"{v:+d}" for v in model.predict(X)]
    code, out, err = cli(["evaluate", "-", tmp_path / "d.svm"], stdin=model_bytes)
    assert code == 0 and b"accuracy" in out, err
    # one standard input cannot be both
    code, _, err = cli(["predict", "-", "-"], stdin=model_bytes)
    assert code == 1 and "cannot both be standard input" in err


def test_output_in_a_missing_folder_is_refused_before_training(tmp_path, rng, capsys,
                                                                 monkeypatch):
    X, y = data(rng)
    write_svm(tmp_path / "d.svm", X, y)
    import perceptron.cli as cli_module

    def no_reading(*args, **kwargs):
        raise AssertionError("the data was read")

    monkeypatch.setattr(cli_module, "load_data", no_reading)
    missing = tmp_path / "no" / "such" / "dir" / "m"
    assert run(["train", tmp_path / "d.svm", "-o", missing])[0] == 1
    err = capsys.readouterr().err
    assert err == (f"perceptron train: error: -o {missing}: the folder {missing.parent} "
                   "does not exist\n")
    assert run(["train", tmp_path / "d.svm", "-o", tmp_path])[0] == 1
    assert f"-o {tmp_path}: that is a folder" in capsys.readouterr().err
    assert run(["predict", tmp_path / "m.ptn", tmp_path / "d.svm", "-o", missing])[0] == 1
    assert "does not exist" in capsys.readouterr().err
    assert not missing.parent.exists()


@pytest.mark.slow  # a fresh interpreter and a pipe
@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_a_closed_pipe_ends_quietly(tmp_path, rng):
    # 4 MB of scores: more than a pipe holds, so that the writer meets the closed pipe
    X, y = data(rng, n=200000, d=3)
    write_svm(tmp_path / "d.svm", X, y)
    assert run(["train", tmp_path / "d.svm", "-o", tmp_path / "m.ptn", "-q"])[0] == 0
    # as `perceptron predict ... | head -c 10`: the reader takes a few bytes and goes
    for unbuffered in ("", "1"):
        env = dict(os.environ, PYTHONUNBUFFERED=unbuffered)
        proc = subprocess.Popen([sys.executable, "-m", "perceptron", "predict",
                                 str(tmp_path / "m.ptn"), str(tmp_path / "d.svm"), "--scores"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert len(proc.stdout.read(10)) == 10
        proc.stdout.close()
        err = proc.stderr.read().decode()
        # 128 + SIGPIPE, as the shell reports `yes | head`
        assert proc.wait(timeout=300) == 141, (unbuffered, err)
        assert err == "", err  # no "error: [Errno 32] Broken pipe", no traceback


def test_a_tagger_model_points_to_tag_apply(tmp_path, capsys):
    from perceptron.tagging import PerceptronTagger

    sentences = [[("the", "DET"), ("dog", "NOUN"), ("runs", "VERB")],
                 [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")]]
    PerceptronTagger(max_iter=2).fit(sentences).save(tmp_path / "tagger.ptn")
    (tmp_path / "d.csv").write_text("1,2,1\n3,4,0\n")
    for command in ("predict", "evaluate"):
        assert run([command, tmp_path / "tagger.ptn", tmp_path / "d.csv"])[0] == 1
        err = capsys.readouterr().err
        assert "holds a PerceptronTagger" in err and "perceptron tag apply" in err, err


@pytest.mark.filterwarnings("ignore::perceptron.exceptions.ConvergenceWarning")
def test_unlabeled_csv_is_predicted_with_label_column_none(tmp_path, rng, capsys):
    X, y = data(rng)
    (tmp_path / "train.csv").write_text(
        "a,b,c,d,label\n" + "".join(",".join(map(repr, row)) + f",{label}\n"
                                    for row, label in zip(X.tolist(), y.tolist())))
    assert run(["train", tmp_path / "train.csv", "-o", tmp_path / "m.ptn", "-q"])[0] == 0
    model = perceptron.load(tmp_path / "m.ptn")
    for header in ("", "a,b,c,d\n"):
        (tmp_path / "new.csv").write_text(
            header + "".join(",".join(map(repr, row)) + "\n" for row in X.tolist()))
        code, out = run(["predict", tmp_path / "m.ptn", tmp_path / "new.csv",
                         "--label-column", "none"])
        assert code == 0
        assert out.split() == [str(v) for v in model.predict(X)]
        # without the option: the error says what to do
        assert run(["predict", tmp_path / "m.ptn", tmp_path / "new.csv"])[0] == 1
        assert "pass --label-column none" in capsys.readouterr().err
    # evaluate and train need labels
    assert run(["evaluate", tmp_path / "m.ptn", tmp_path / "new.csv",
                "--label-column", "none"])[0] == 1
    assert "holds no labels" in capsys.readouterr().err


def parsers():
    """The parser and its subcommands' parsers, but `tag`'s (its own module)."""
    parser = build_parser()
    found = [("perceptron", parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [(f"perceptron {name}", sub) for name, sub in action.choices.items()
                      if name != "tag"]
    return found


def test_every_option_has_help_text():
    for name, parser in parsers():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help and action.help.strip(), (name, action.option_strings or
                                                         action.dest)


def test_help_has_no_markup():
    markup = re.compile(r"``|:(?:class|func|meth|ref|doc|mod|attr):`|^\s*\.\. \w+::|`[^`]+`_",
                        re.MULTILINE)
    for name, parser in parsers():
        text = parser.format_help()
        assert not markup.search(text), (name, markup.search(text).group(0))

"""The command line's tag commands: train, evaluate and apply a tagger on
CoNLL-U and on one-sentence-a-line text."""
import io

import pytest

from perceptron.cli import main
from perceptron.tagging import PerceptronTagger

SENTENCES = [[("the", "DET"), ("dog", "NOUN"), ("barks", "VERB")],
             [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")],
             [("the", "DET"), ("big", "ADJ"), ("cat", "NOUN"), ("barks", "VERB")]] * 4


def conllu(sentences):
    lines = []
    for s in sentences:
        lines.append("# sent_id = x")
        for i, (w, t) in enumerate(s, 1):
            lines.append(f"{i}\t{w}\t{w}\t{t}\t{t.lower()}\t_\t0\troot\t_\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def tagged_text(sentences):
    return "".join(" ".join(f"{w}/{t}" for w, t in s) + "\n" for s in sentences)


def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


@pytest.fixture
def files(tmp_path):
    c = tmp_path / "train.conllu"
    c.write_text(conllu(SENTENCES), encoding="utf-8")
    t = tmp_path / "train.txt"
    t.write_text(tagged_text(SENTENCES), encoding="utf-8")
    return tmp_path, c, t


def test_train_evaluate_apply_conllu(files):
    tmp, data, _ = files
    model = tmp / "m.ptn"
    code, out = run(["tag", "train", str(data), "-o", str(model), "--n-features", "4096",
                     "--dev", str(data)])
    assert code == 0, out
    assert f"on {len(SENTENCES)} sentences, 40 tokens, 4 tags" in out
    assert "dev accuracy 1.0000 (40 tokens)" in out
    assert PerceptronTagger.load(model).n_features == 4096
    code, out = run(["tag", "evaluate", str(model), str(data)])
    assert code == 0 and out.startswith("accuracy 1.0000 on 12 sentences, 40 tokens")
    code, out = run(["tag", "apply", str(model), str(data), "--output-format", "text"])
    assert code == 0
    assert out.splitlines()[:2] == ["the/DET dog/NOUN barks/VERB", "a/DET cat/NOUN sleeps/VERB"]
    # CoNLL-U in, CoNLL-U out: the tags filled in, every other column kept
    code, out = run(["tag", "apply", str(model), str(data)])
    assert code == 0 and out == data.read_text(encoding="utf-8")


def test_xpos_column(files):
    tmp, data, _ = files
    model = tmp / "x.ptn"
    assert run(["tag", "train", str(data), "-o", str(model), "--column", "xpos",
                "--epochs", "3"])[0] == 0
    assert list(PerceptronTagger.load(model).classes_) == ["adj", "det", "noun", "verb"]
    assert PerceptronTagger.load(model).max_iter == 3


def test_text_files(files, monkeypatch):
    tmp, _, text = files
    model = tmp / "t.ptn"
    assert run(["tag", "train", str(text), "-o", str(model)])[0] == 0
    code, out = run(["tag", "evaluate", str(model), str(text)])
    assert code == 0 and "accuracy 1.0000" in out
    plain = tmp / "plain.txt"
    plain.write_text("the cat barks\n\n  a cat sleeps  \n", encoding="utf-8")
    out_file = tmp / "tagged.txt"
    assert run(["tag", "apply", str(model), str(plain), "-o", str(out_file)])[0] == 0
    assert out_file.read_text(encoding="utf-8").splitlines() == [
        "the/DET cat/NOUN barks/VERB", "", "a/DET cat/NOUN sleeps/VERB"]
    monkeypatch.setattr("sys.stdin", io.StringIO("the dog barks\n"))
    code, out = run(["tag", "apply", str(model), "-"])
    assert code == 0 and out == "the/DET dog/NOUN barks/VERB\n"


def test_errors_are_one_line(files, capsys):
    tmp, data, text = files
    bad = tmp / "bad.txt"
    bad.write_text("the/DET dog\n", encoding="utf-8")
    assert run(["tag", "train", str(bad), "-o", str(tmp / "m.ptn")])[0] == 1
    err = capsys.readouterr().err
    assert "perceptron tag: error:" in err and "line 1: the token 'dog' is not word/TAG" in err
    bad = tmp / "bad.conllu"
    bad.write_text("1\tA\n", encoding="utf-8")
    assert run(["tag", "train", str(bad), "-o", str(tmp / "m.ptn")])[0] == 1
    assert "bad.conllu, line 1" in capsys.readouterr().err
    assert run(["tag", "train", str(text), "-o", str(text)])[0] == 1
    assert "refusing to overwrite" in capsys.readouterr().err
    assert run(["tag", "evaluate", str(data), str(data)])[0] == 1
    assert "perceptron tag: error:" in capsys.readouterr().err
    assert run(["tag", "train", str(data), "-o", str(tmp / "m.ptn"), "--epochs", "0"])[0] == 1
    assert "--epochs" in capsys.readouterr().err


def test_help():
    code, out = run(["tag"])
    assert code == 2 and "train" in out and "apply" in out
    with pytest.raises(SystemExit):
        main(["tag", "train", "--help"])


def test_apply_keeps_every_line_of_text(files):
    tmp, _, text = files
    model = tmp / "t.ptn"
    assert run(["tag", "train", str(text), "-o", str(model)])[0] == 0
    plain = tmp / "plain.txt"
    plain.write_text("the cat barks\n\n \t \na cat sleeps\n\n", encoding="utf-8")
    code, out = run(["tag", "apply", str(model), str(plain)])
    assert code == 0
    assert out.split("\n") == ["the/DET cat/NOUN barks/VERB", "", "", "a/DET cat/NOUN sleeps/VERB",
                                "", ""]


def test_every_command_refuses_to_write_over_an_input(files, capsys):
    tmp, data, text = files
    model = tmp / "m.ptn"
    assert run(["tag", "train", str(text), "-o", str(model)])[0] == 0
    dev = tmp / "dev.conllu"
    dev.write_text(conllu(SENTENCES[:3]), encoding="utf-8")
    link = tmp / "link.txt"
    link.symlink_to(text)
    hard = tmp / "hard.txt"
    hard.hardlink_to(text)
    before = {p: p.read_bytes() for p in (model, data, text, dev)}
    refused = [
        ["tag", "apply", str(model), str(text), "-o", str(text)],
        ["tag", "apply", str(model), str(text), "-o", str(model)],
        ["tag", "apply", str(model), str(link), "-o", str(text)],
        ["tag", "apply", str(model), str(text), "-o", str(tmp / "." / "t.ptn" / ".." / "m.ptn")],
        ["tag", "train", str(data), "-o", str(dev), "--dev", str(dev)],
        ["tag", "train", str(data), "-o", str(data)],
        ["tag", "train", str(text), "-o", str(link)],
        ["tag", "apply", str(model), str(hard), "-o", str(text)],
    ]
    for argv in refused:
        assert run(argv)[0] == 1, argv
        err = capsys.readouterr().err
        assert "refusing to overwrite the input" in err, (argv, err)
    assert {p: p.read_bytes() for p in before} == before
    assert link.is_symlink()

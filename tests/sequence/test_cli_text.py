"""perceptron tag on raw text: the tokenizer learnt by tag train from the same
CoNLL-U file and kept in the tagger's model file, tag apply and tag tokenize
on raw text (CoNLL-U or text out), tag evaluate from raw text with the CoNLL
2018 scores; each compared with what the Python objects of the model file
give on the same text."""
import copy
import io
import pathlib

import numpy as np
import pytest

import perceptron
from perceptron.cli import main
from perceptron.io import read_conllu_sentences, write_conllu
from perceptron.sequence import _cli_text
from perceptron.sequence._evaluate import conll18_raw_scores
from perceptron.tagging import MorphTagger, PerceptronTagger, Tokenizer, raw_text

# (text, tokens): a token "form/UPOS", "form/UPOS+" when no space follows,
# a multiword token "form=word/UPOS=word/UPOS"
SENTENCES = [
    ("He didn't go.", ["He/PRON", "didn't=did/AUX=n't/PART", "go/VERB+", "./PUNCT"]),
    ("She came home.", ["She/PRON", "came/VERB", "home/ADV+", "./PUNCT"]),
    ("Mr. Li can't stay!", ["Mr./PROPN", "Li/PROPN", "can't=ca/AUX=n't/PART", "stay/VERB+",
                            "!/PUNCT"]),
    ("It works, he said.", ["It/PRON", "works/VERB+", ",/PUNCT", "he/PRON", "said/VERB+",
                            "./PUNCT"]),
    ("The dog barks.", ["The/DET", "dog/NOUN", "barks/VERB+", "./PUNCT"]),
]


def conllu(sentences, text=True):
    out = []
    for k, (sentence_text, tokens) in enumerate(sentences, 1):
        out.append(f"# sent_id = {k}")
        if text:
            out.append(f"# text = {sentence_text}")
        n = 0
        for t in tokens:
            misc = "SpaceAfter=No" if t.endswith("+") else "_"
            parts = t.rstrip("+").split("=")
            if len(parts) == 1:
                form, upos = parts[0].rsplit("/", 1)
                n += 1
                out.append("\t".join([str(n), form, form.lower(), upos, "_", "_", "_", "_",
                                      "_", misc]))
                continue
            out.append("\t".join([f"{n + 1}-{n + len(parts) - 1}", parts[0]] + ["_"] * 7 +
                                 [misc]))
            for w in parts[1:]:
                form, upos = w.rsplit("/", 1)
                n += 1
                out.append("\t".join([str(n), form, form.lower(), upos] + ["_"] * 6))
        out.append("")
    return "\n".join(out) + "\n"


RAW = "The dog didn't go. Mr. Li came home!\n\nIt works, she said.\n"
SMALL = ["--n-features", "4096", "--tokenizer-n-features", "65536", "--tokenizer-epochs", "6"]


def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("text")
    train = tmp / "train.conllu"
    train.write_text(conllu(SENTENCES * 6), encoding="utf-8")
    dev = tmp / "dev.conllu"
    dev.write_text(conllu(SENTENCES[::-1]), encoding="utf-8")
    raw = tmp / "raw.txt"
    raw.write_text(RAW, encoding="utf-8")
    model = tmp / "m.ptn"
    code, out = run(["tag", "train", str(train), "-o", str(model), *SMALL])
    assert code == 0, out
    return tmp, train, dev, raw, model, out


def reference_tokenizer(train, dev=None, **kw):
    """The tokenizer tag train makes with SMALL, made in Python."""
    return Tokenizer(max_iter=6, n_features=2 ** 16, random_state=0).fit(str(train), dev=dev,
                                                                        **kw)


def test_train_learns_the_tokenizer_of_the_same_file(trained):
    tmp, train, _, _, model, out = trained
    tagger = perceptron.load(model)
    assert isinstance(tagger, PerceptronTagger) and isinstance(tagger.tokenizer_, Tokenizer)
    ref = reference_tokenizer(train)
    assert f"trained the tokenizer on 30 sentences ({ref.n_iter_} epochs)" in out
    np.testing.assert_array_equal(tagger.tokenizer_.coef_, ref.coef_)
    assert tagger.tokenizer_.multiword_forms_ == ref.multiword_forms_ == {
        "didn't": ["did", "n't"], "can't": ["ca", "n't"]}
    assert tagger.tokenizer_.tokenize(RAW) == ref.tokenize(RAW)


def test_no_tokenizer(trained, capsys):
    tmp, train, _, raw, _, _ = trained
    model = tmp / "plain.ptn"
    code, out = run(["tag", "train", str(train), "-o", str(model), "--no-tokenizer", *SMALL])
    assert code == 0 and "tokenizer" not in out
    assert "tokenizer_" not in vars(perceptron.load(model))
    # without a tokenizer, text is read as tokens, one sentence a line, as before
    code, out = run(["tag", "apply", str(model), str(raw)])
    assert code == 0 and out.splitlines()[0].startswith("The/DET dog/NOUN didn't/")
    assert run(["tag", "apply", str(model), str(raw), "--format", "raw"])[0] == 1
    assert "holds a tagger without a tokenizer" in capsys.readouterr().err
    # a file without '# text' lines teaches no tokenizer, and says so
    bare = tmp / "bare.conllu"
    bare.write_text(conllu(SENTENCES * 2, text=False), encoding="utf-8")
    code, out = run(["tag", "train", str(bare), "-o", str(tmp / "bare.ptn"), *SMALL])
    assert code == 0 and "no tokenizer: the training file has no '# text' lines" in out


def expected_conllu(tagger, text):
    sentences = tagger.tokenizer_.to_conllu(text)
    tags, _ = tagger.predict_sents([[r[1] for r in s.words] for s in sentences])
    k = 0
    for s in sentences:
        for r in s.words:
            r[3] = tags[k]
            k += 1
    return sentences


def test_apply_raw_text(trained, capsys):
    tmp, _, _, raw, model, _ = trained
    tagger = perceptron.load(model)
    expected = expected_conllu(tagger, RAW)
    buf = io.StringIO()
    write_conllu(expected, buf)
    # raw text is the default for text when the model holds a tokenizer
    for extra in ([], ["--format", "raw"], ["--input-format", "raw"]):
        out_file = tmp / "tagged.conllu"
        code, _ = run(["tag", "apply", str(model), str(raw), "-o", str(out_file), *extra])
        assert code == 0 and out_file.read_text(encoding="utf-8") == buf.getvalue()
        # the default says on standard error how it read the file
        assert ("as raw text (the model holds a tokenizer" in capsys.readouterr().err) == \
            (extra == [])
    got = list(read_conllu_sentences(io.StringIO(buf.getvalue())))
    assert [s.comments for s in got] == [
        ["# newdoc", "# newpar", "# sent_id = 1", "# text = The dog didn't go."],
        ["# sent_id = 2", "# text = Mr. Li came home!"],
        ["# newpar", "# sent_id = 3", "# text = It works, she said."]]
    assert ["3-4", "didn't"] == got[0].rows[2][:2]
    assert [r[1] for r in got[0].words] == ["The", "dog", "did", "n't", "go", "."]
    assert got[0].rows[5][9] == "SpaceAfter=No"
    code, out = run(["tag", "apply", str(model), str(raw), "--output-format", "text"])
    assert code == 0
    assert out.splitlines() == [" ".join(f"{r[1]}/{r[3]}" for r in s.words) for s in expected]
    # tokens, one sentence a line, as before when asked for
    code, out = run(["tag", "apply", str(model), str(raw), "--format", "words"])
    assert code == 0 and out.splitlines()[0].split()[2].startswith("didn't/")


def test_apply_reads_raw_text_in_pieces_of_whole_paragraphs(trained, monkeypatch):
    tmp, _, _, _, model, _ = trained
    tagger = perceptron.load(model)
    text = "\n\n".join(["The dog barks. He didn't go.", "She came home.\nIt works!"] * 5) + "\n"
    raw = tmp / "long.txt"
    raw.write_text(text, encoding="utf-8")
    whole = io.StringIO()
    write_conllu(expected_conllu(tagger, text), whole)
    monkeypatch.setattr(_cli_text, "PIECE", 40)
    pieces = list(_cli_text.raw_pieces(str(raw)))
    assert len(pieces) > 3 and "".join(pieces) == text
    assert all(p.endswith("\n\n") or p is pieces[-1] for p in pieces)
    code, out = run(["tag", "apply", str(model), str(raw)])
    assert code == 0 and out == whole.getvalue()
    assert out.count("# newdoc") == 1 and out.count("# newpar") == 10
    # a paragraph longer than MAX_PARAGRAPH is cut at a line end (no new
    # paragraph there)
    monkeypatch.setattr(_cli_text, "MAX_PARAGRAPH", 20)
    raw.write_text("The dog barks.\nHe didn't go.\nShe came home.\n", encoding="utf-8")
    assert list(_cli_text.raw_pieces(str(raw))) == ["The dog barks.\nHe didn't go.\n",
                                                    "She came home.\n"]
    code, out = run(["tag", "apply", str(model), str(raw)])
    assert code == 0 and out.count("# newdoc") == 1 and out.count("# newpar") == 1


def test_tokenize(trained):
    tmp, train, _, raw, model, _ = trained
    tok = perceptron.load(model).tokenizer_
    expected = io.StringIO()
    write_conllu(tok.to_conllu(RAW), expected)
    code, out = run(["tag", "tokenize", str(model), str(raw)])
    assert code == 0 and out == expected.getvalue()
    code, out = run(["tag", "tokenize", str(model), str(raw), "--output-format", "text"])
    assert code == 0
    assert out.splitlines() == [" ".join(t.form for t in s) for s in tok.tokenize(RAW)]
    assert out.splitlines()[0] == "The dog didn't go ."
    # a Tokenizer's own model file
    alone = tmp / "tok.ptn"
    reference_tokenizer(train).save(alone)
    code, out = run(["tag", "tokenize", str(alone), str(raw)])
    assert code == 0 and out == expected.getvalue()


def test_evaluate_from_raw_text(trained):
    tmp, _, dev, _, model, _ = trained
    tagger = perceptron.load(model)
    gold = list(read_conllu_sentences(dev))
    system = expected_conllu(tagger, raw_text(gold))
    scores = conll18_raw_scores(gold, system)
    code, out = run(["tag", "evaluate", str(model), str(dev), "--format", "raw"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("metric") and "CoNLL 2018 scores from raw text" in lines[0]
    table = {ln.split()[0]: [float(v) for v in ln.split()[1:]] for ln in lines[1:]}
    assert list(table) == ["Tokens", "Words", "Sentences", "UPOS"]
    for m, values in table.items():
        want = [scores[m][k] for k in ("precision", "recall", "f1", "aligned_accuracy")
                if k in scores[m]]
        assert values == pytest.approx(want, abs=5e-5), m
    # a tokenizer alone: the segmentation scores
    alone = tmp / "tok-alone.ptn"
    tagger.tokenizer_.save(alone)
    code, out = run(["tag", "evaluate", str(alone), str(dev), "--format", "raw"])
    assert code == 0 and [ln.split()[0] for ln in out.splitlines()[1:]] == [
        "Tokens", "Words", "Sentences"]


def test_morph_tagger_with_its_tokenizer_and_dev(trained):
    tmp, train, dev, raw, _, _ = trained
    model = tmp / "morph.ptn"
    code, out = run(["tag", "train", str(train), "--columns", "upos,lemma", "--dev", str(dev),
                     "-o", str(model), *SMALL])
    assert code == 0, out
    assert "trained the tokenizer on 30 sentences (best of" in out
    assert "dev raw text: Tokens F1" in out
    tagger = perceptron.load(model)
    assert isinstance(tagger, MorphTagger)
    tok = tagger.tokenizer_
    # the epoch kept is the best on the dev file's raw text
    assert 1 <= len(tok.dev_scores_) <= 6
    assert tok.n_iter_ == int(np.argmax(tok.dev_scores_)) + 1
    ref = reference_tokenizer(train, dev=str(dev))
    np.testing.assert_array_equal(tok.coef_, ref.coef_)
    np.testing.assert_array_equal(tok.dev_scores_, ref.dev_scores_)
    code, out = run(["tag", "apply", str(model), str(raw)])
    assert code == 0
    expected = tok.to_conllu(RAW)
    tagger.annotate(expected)
    buf = io.StringIO()
    write_conllu(expected, buf)
    assert out == buf.getvalue()
    assert all(r[2] != "_" and r[3] != "_" for s in expected for r in s.words)


def test_train_from_standard_input(trained, monkeypatch):
    tmp, train, _, _, model, _ = trained
    monkeypatch.setattr("sys.stdin", io.StringIO(train.read_text(encoding="utf-8")))
    again = tmp / "stdin.ptn"
    code, out = run(["tag", "train", "-", "--format", "conllu", "-o", str(again), *SMALL])
    assert code == 0 and "trained the tokenizer on 30 sentences" in out
    np.testing.assert_array_equal(perceptron.load(again).tokenizer_.coef_,
                                  perceptron.load(model).tokenizer_.coef_)


def test_errors(trained, capsys):
    tmp, train, dev, raw, model, _ = trained
    before = {p: p.read_bytes() for p in (train, dev, raw, model)}
    for argv in (["tag", "tokenize", str(model), str(raw), "-o", str(raw)],
                 ["tag", "tokenize", str(model), str(raw), "-o", str(model)],
                 ["tag", "apply", str(model), str(raw), "--format", "raw", "-o", str(raw)]):
        assert run(argv)[0] == 1, argv
        assert "refusing to overwrite the input" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in before} == before
    assert run(["tag", "train", str(raw), "--format", "raw", "-o", str(tmp / "x.ptn")])[0] == 1
    assert "not raw text" in capsys.readouterr().err
    # CoNLL-U under another name is not taken for raw text
    hidden = tmp / "hidden.txt"
    hidden.write_text(train.read_text(encoding="utf-8"), encoding="utf-8")
    for argv in (["tag", "apply", str(model), str(hidden)],
                 ["tag", "tokenize", str(model), str(hidden)]):
        assert run(argv)[0] == 1
        assert "line 3: a CoNLL-U token line, not raw text" in capsys.readouterr().err
    alone = tmp / "tok-only.ptn"
    reference_tokenizer(train).save(alone)
    assert run(["tag", "apply", str(alone), str(raw)])[0] == 1
    assert "holds a Tokenizer alone: tag tokenize uses it" in capsys.readouterr().err
    no_text = tmp / "no-text.conllu"
    no_text.write_text(conllu(SENTENCES, text=False), encoding="utf-8")
    assert run(["tag", "evaluate", str(model), str(no_text), "--format", "raw"])[0] == 1
    assert "no '# text' lines" in capsys.readouterr().err
    assert run(["tag", "train", str(train), "-o", str(tmp / "y.ptn"),
                "--tokenizer-n-features", "8"])[0] == 1
    err = capsys.readouterr().err
    assert "the tokenizer: n_features must be" in err and "--no-tokenizer" in err


def test_dev_early_stopping_in_python(trained):
    _, train, dev, _, _, _ = trained
    tok = reference_tokenizer(train, dev=str(dev), patience=1)
    scores = tok.dev_scores_
    # stopped after the first epoch no better than the best so far
    assert len(scores) == 6 or scores[-1] <= scores[:-1].max()
    assert tok.n_iter_ == int(np.argmax(scores)) + 1
    gold = list(read_conllu_sentences(dev))
    best = np.mean([v["f1"] for v in conll18_raw_scores(
        gold, tok.to_conllu(raw_text(gold))).values() if "aligned_accuracy" not in v])
    assert best == pytest.approx(scores.max())
    with pytest.raises(ValueError, match="patience"):
        copy.deepcopy(tok).fit(str(train), dev=str(dev), patience=0)


@pytest.mark.slow
def test_the_installed_command_on_raw_text_from_standard_input(trained):
    # the command as a user runs it: a model trained by one process tags
    # raw text piped into another, as the in-process command does
    import subprocess
    import sys
    tmp, _, _, raw, model, _ = trained

    def command(*args, stdin=None):
        proc = subprocess.run([sys.executable, "-m", "perceptron", "tag", *args], input=stdin,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    text = raw.read_text(encoding="utf-8")
    assert command("apply", str(model), "-", "--format", "raw", stdin=text) == \
        run(["tag", "apply", str(model), str(raw)])[1]
    assert command("tokenize", str(model), "-", "--output-format", "text", stdin=text) == \
        run(["tag", "tokenize", str(model), str(raw), "--output-format", "text"])[1]
    proc = subprocess.run([sys.executable, "-m", "perceptron", "tag", "apply", str(model), "-"],
                          input=text, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "reading - as raw text" in proc.stderr


DATA = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.mark.slow
@pytest.mark.parametrize("folder, stem, floor", [("ud-afribooms", "af_afribooms-ud", 0.99),
                                                 ("ud-vtb", "vi_vtb-ud", 0.8)])
def test_a_treebank_from_raw_text(tmp_path, folder, stem, floor):
    # Afrikaans, and Vietnamese, whose words have spaces inside: trained,
    # applied to the dev file's raw text and scored from it by the command;
    # floors well below what benchmarks/bench_tokenizer.py measures
    train = DATA / folder / f"{stem}-train.conllu"
    dev = DATA / folder / f"{stem}-dev.conllu"
    if not train.exists():
        pytest.skip(f"{train} is not there (../shared beside the project)")
    model = tmp_path / "m.ptn"
    code, out = run(["tag", "train", str(train), "--dev", str(dev), "-o", str(model)])
    assert code == 0 and "dev raw text: Tokens F1" in out
    gold = list(read_conllu_sentences(dev))
    raw = tmp_path / "dev.txt"
    raw.write_text(raw_text(gold), encoding="utf-8")
    out_file = tmp_path / "dev-tagged.conllu"
    assert run(["tag", "apply", str(model), str(raw), "-o", str(out_file)])[0] == 0
    system = list(read_conllu_sentences(out_file))
    scores = conll18_raw_scores(gold, system)
    assert scores["Tokens"]["f1"] >= floor and scores["UPOS"]["f1"] >= floor - 0.1
    code, out = run(["tag", "evaluate", str(model), str(dev), "--format", "raw"])
    table = {ln.split()[0]: float(ln.split()[3]) for ln in out.splitlines()[1:]}
    assert table["Tokens"] == pytest.approx(scores["Tokens"]["f1"], abs=5e-5)
    assert table["UPOS"] == pytest.approx(scores["UPOS"]["f1"], abs=5e-5)


def test_outputs_only_to_regular_files_and_inputs_in_utf8(trained, tmp_path, capsys):
    _, _, _, raw, model, _ = trained
    folder = tmp_path / "folder"
    folder.mkdir()
    for fmt in ("conllu", "text"):
        for command in ("apply", "tokenize"):
            argv = ["tag", command, str(model), str(raw), "--output-format", fmt,
                    "-o", str(folder)]
            assert run(argv)[0] == 1, argv
            assert "is not a regular file" in capsys.readouterr().err
    assert folder.is_dir() and not any(folder.iterdir())
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Caf\xe9 au lait.\n".encode("latin-1"))
    assert run(["tag", "apply", str(model), str(latin)])[0] == 1
    assert f"{latin}: not UTF-8 text" in capsys.readouterr().err

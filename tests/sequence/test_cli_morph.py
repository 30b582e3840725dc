"""perceptron tag train --columns / evaluate / apply with a morphological
tagger: CoNLL-U in, CoNLL-U out with the predicted columns filled and the
rest kept, early stopping on --dev, per-tag and unknown-word accuracy and
the CoNLL 2018 scores in evaluate."""
import io

import pytest

from perceptron.cli import main
from perceptron.tagging import MorphTagger

from test_morph import WORDS, conllu


def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


@pytest.fixture
def files(tmp_path):
    train = tmp_path / "train.conllu"
    train.write_text(conllu(WORDS * 8), encoding="utf-8")
    dev = tmp_path / "dev.conllu"
    dev.write_text(conllu(WORDS), encoding="utf-8")
    return tmp_path, train, dev


def test_train_evaluate_apply(files):
    tmp, train, dev = files
    model = tmp / "m.ptn"
    code, out = run(["tag", "train", str(train), "--columns", "all", "--dev", str(dev),
                     "--n-features", "4096", "-o", str(model)])
    assert code == 0, out
    assert "MorphTagger (upos, xpos, feats, lemma)" in out
    assert "dev UPOS 1.0000  XPOS 1.0000  UFeats 1.0000  AllTags 1.0000  Lemmas 1.0000" in out
    assert MorphTagger.load(model).n_features == 4096
    code, out = run(["tag", "evaluate", str(model), str(dev)])
    assert code == 0
    assert "UPOS 1.0000" in out and "upos accuracy 1.0000; unknown words 0.0000 (0 words)" in out
    assert "  NOUN         1.0000  (6)" in out
    # a word unseen in training: counted among the unknown words
    unseen = tmp / "unseen.conllu"
    unseen.write_text(conllu([[("Die", "die", "DET", "LB", "Definite=Def|PronType=Art"),
                               ("hoede", "hoed", "NOUN", "NSM", "Number=Plur")]]),
                      encoding="utf-8")
    code, out = run(["tag", "evaluate", str(model), str(unseen)])
    assert code == 0 and "unknown words 1.0000 (1 words)" in out
    blank = tmp / "blank.conllu"
    text = dev.read_text(encoding="utf-8")
    emptied = "\n".join("\t".join(f[:2] + ["_"] * 4 + f[6:]) if len(f) == 10 else line
                        for line in text.split("\n") for f in [line.split("\t")])
    blank.write_text(emptied, encoding="utf-8")
    out_file = tmp / "tagged.conllu"
    code, _ = run(["tag", "apply", str(model), str(blank), "-o", str(out_file)])
    assert code == 0 and out_file.read_text(encoding="utf-8") == text
    code, out = run(["tag", "apply", str(model), str(blank), "--output-format", "text"])
    assert out.splitlines()[0] == "Die/DET katte/NOUN slaap/VERB ./PUNCT"


def test_columns_option(files, capsys):
    tmp, train, _ = files
    model = tmp / "m.ptn"
    code, out = run(["tag", "train", str(train), "--columns", "upos,lemma", "-o", str(model)])
    assert code == 0 and "(upos, lemma)" in out
    code, _ = run(["tag", "train", str(train), "--columns", "deprel", "-o", str(model)])
    assert code == 1 and "--columns must be" in capsys.readouterr().err

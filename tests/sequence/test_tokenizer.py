"""The tokenizer and sentence splitter learned from CoNLL-U: labels read off
training files, decoding into tokens, multiword tokens, CoNLL-U out, model
files, bad input; and on the shared treebanks, dev scores as the CoNLL 2018
shared task computes them."""
import io
import os

import numpy as np
import pytest

import perceptron
from perceptron.exceptions import NotFittedError
from perceptron.io._conllu_doc import read_conllu_sentences, write_conllu
from perceptron.sequence._tokenizer import LABELS, Tokenizer, _paragraphs, _shape, raw_text
from perceptron.tagging import segmentation_scores

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")


def conllu(*sentences):
    """CoNLL-U text of sentences given as (text, tokens); a token "form" or
    "form w1 w2" (a multiword token), "form+" for SpaceAfter=No."""
    out = []
    for text, tokens in sentences:
        out.append(f"# text = {text}")
        n = 0
        for t in tokens:
            glued = t.endswith("+")
            parts = t.rstrip("+").split("|")
            misc = "SpaceAfter=No" if glued else "_"
            if len(parts) == 1:
                n += 1
                out.append("\t".join([str(n), parts[0]] + ["_"] * 7 + [misc]))
            else:
                out.append("\t".join([f"{n + 1}-{n + len(parts) - 1}", parts[0]] +
                                     ["_"] * 7 + [misc]))
                for w in parts[1:]:
                    n += 1
                    out.append("\t".join([str(n), w] + ["_"] * 8))
        out.append("")
    return "\n".join(out) + "\n"


TRAIN = conllu(
    ("He didn't go.", ["He", "didn't|did|n't", "go+", "."]),
    ("She came home.", ["She", "came", "home+", "."]),
    ("Mr. Li can't stay!", ["Mr.", "Li", "can't|ca|n't", "stay+", "!"]),
    ("We went to Hà Nội today.", ["We", "went", "to", "Hà Nội", "today+", "."]),
    ("It works, he said.", ["It", "works+", ",", "he", "said+", "."]),
) * 6


@pytest.fixture(scope="module")
def small():
    return Tokenizer(max_iter=8, n_features=2 ** 16).fit(io.StringIO(TRAIN))


def test_training_labels_from_the_file():
    tok = Tokenizer(n_features=2 ** 16)
    texts, labels, forms, splits, skipped = tok._examples(
        read_conllu_sentences(io.StringIO(conllu(("Hà Nội, ok.", ["Hà Nội+", ",", "ok+", "."]),
                                                 ("Go!", ["Go+", "!"])))))
    assert skipped == 0
    assert texts == ["Hà Nội, ok. Go!"]
    got = "".join(LABELS[labels[0]])
    # H à ' ' N ộ i , ' ' o k . ' ' G o !
    assert got == "IIIIIT" + "T" + "O" + "IT" + "S" + "O" + "IT" + "S"
    assert tok.spaced_words_ == ["hà nội"]
    assert dict(splits) == {}
    assert forms["ok"] == 1


def test_sentence_whose_tokens_do_not_spell_its_text_is_skipped():
    tok = Tokenizer(n_features=2 ** 16)
    _, _, _, _, skipped = tok._examples(
        read_conllu_sentences(io.StringIO(conllu(("Hello there", ["Hallo", "there"])))))
    assert skipped == 1
    with pytest.raises(ValueError, match="no sentence whose tokens spell its text"):
        tok.fit(io.StringIO(conllu(("Hello there", ["Hallo", "there"]))))


def test_tokenize_small(small):
    sents = small.tokenize("He didn't go. She came home.")
    assert [[t.form for t in s] for s in sents] == [["He", "didn't", "go", "."],
                                                   ["She", "came", "home", "."]]
    t = sents[0][1]
    assert (t.start, t.end, t.space_after, t.words) == (3, 9, True, ["did", "n't"])
    assert sents[0][2].space_after is False
    # offsets index the text
    text = "He didn't go. She came home."
    assert all(text[t.start:t.end] == t.form for s in sents for t in s)


def test_space_inside_a_word_and_suffix_rule(small):
    # the space that greedy longest matching puts inside a training word is
    # marked (1), and the characters of the chunk before it see it (2)
    text = "to Hà Nội hà nội Nội"
    full = "\0" * 3 + text + "\0" * 3
    space = np.array([c.isspace() or c == "\0" for c in full])
    covered = small._chunks(space, [text], 3)[-1][3:-3]
    marks = "".join(str(int(v)) for v in covered)
    assert marks == "00" + "0" + "22" + "1" + "000" + "0" + "22" + "1" + "000" + "0" + "000"
    # a suffix split in most training tokens that end in it splits an unseen token
    assert small._words("won't") == ["wo", "n't"]
    assert small._words("Didn't") == ["Did", "n't"]
    assert small._words("DIDN'T") == ["DID", "N'T"]


def test_paragraphs_never_share_a_sentence(small):
    # and in CoNLL-U, the first sentence of each paragraph says so (# newpar),
    # so that the raw text of the output has the paragraphs of the input
    text = "She came home.  He didn't go.\n \t\nIt works!\nMr. Li came.\n\n\n"
    conll = small.to_conllu(text)
    assert [c[:2] for s in conll for c in [s.comments]] == [
        ["# newdoc", "# newpar"], ["# sent_id = 2", "# text = He didn't go."],
        ["# newpar", "# sent_id = 3"], ["# sent_id = 4", "# text = Mr. Li came."]]
    assert raw_text(conll) == "She came home. He didn't go.\n\nIt works! Mr. Li came.\n"
    sents = small.tokenize("She came home\n\nHe didn't go.")
    assert [[t.form for t in s] for s in sents] == [["She", "came", "home"],
                                                   ["He", "didn't", "go", "."]]
    assert _paragraphs("a\n \n\nb\nc\n") == ["a\n", "b\nc\n"]
    assert small.tokenize("") == [] and small.tokenize(" \n\n ") == []


def test_to_conllu_round_trip(small):
    text = "He didn't go. She came home."
    sents = small.to_conllu(text)
    buf = io.StringIO()
    write_conllu(sents, buf)
    back = list(read_conllu_sentences(io.StringIO(buf.getvalue())))
    assert back == sents
    assert sents[0].comments == ["# newdoc", "# newpar", "# sent_id = 1",
                                 "# text = He didn't go."]
    assert sents[1].comments == ["# sent_id = 2", "# text = She came home."]
    assert [r[:2] for r in sents[0].rows] == [["1", "He"], ["2-3", "didn't"], ["2", "did"],
                                              ["3", "n't"], ["4", "go"], ["5", "."]]
    assert sents[0].rows[4][9] == "SpaceAfter=No"
    # its own output scores 1 against itself, and the raw text of it is the text
    assert raw_text(sents) == text + "\n"
    assert all(v["f1"] == 1.0 for v in segmentation_scores(sents, sents).values())


def test_model_file_round_trip(small, tmp_path):
    path = tmp_path / "tok.model"
    small.save(path)
    back = perceptron.load(path)
    assert isinstance(back, Tokenizer)
    text = "Mr. Li can't stay! We went to Hà Nội today."
    assert back.tokenize(text) == small.tokenize(text)
    assert back.get_params() == small.get_params()


def test_bad_input(small):
    with pytest.raises(TypeError, match="text must be str"):
        small.tokenize(b"bytes")
    with pytest.raises(NotFittedError):
        Tokenizer().tokenize("x")
    for name, value in (("window", -1), ("n_features", 2), ("sentences_per_sequence", 0),
                        ("window", 1.5), ("n_features", True)):
        with pytest.raises(ValueError, match=name):
            Tokenizer(**{name: value}).fit(io.StringIO(TRAIN))


def test_shape_any_script():
    assert _shape("Mr.") == "Xx."
    assert _shape("2:30") == "d:dd"
    assert _shape("Hello") == "Xxx"
    assert _shape("東京") == "oo"


def test_features_are_the_same_in_any_process(small):
    # the hashes are fixed functions of the text (no Python hash()): a
    # model file scores the same rows in another process
    X = small._rows(["Ab c."])
    assert X.shape == (5, 2 ** 16)
    assert np.array_equal(X.indices, small._rows(["Ab c."]).indices)
    rows = np.split(X.indices, X.indptr[1:-1])
    assert all(np.all(np.diff(r) > 0) for r in rows)  # sorted, no column twice


# floors well below what the benchmark measures (benchmarks/bench_tokenizer.py)
TREEBANKS = [("ud-ewt", "en_ewt-ud", 0.985), ("ud-afribooms", "af_afribooms-ud", 0.99),
             ("ud-vtb", "vi_vtb-ud", 0.8)]


@pytest.mark.slow
@pytest.mark.parametrize("folder, stem, floor", TREEBANKS)
def test_dev_scores(folder, stem, floor):
    train = os.path.join(DATA, folder, stem + "-train.conllu")
    dev = os.path.join(DATA, folder, stem + "-dev.conllu")
    if not os.path.exists(train):
        pytest.skip(f"{train} is not there (../shared beside the project)")
    tok = Tokenizer(max_iter=5).fit(train)
    gold = list(read_conllu_sentences(dev))
    scores = segmentation_scores(gold, tok.to_conllu(raw_text(gold)))
    assert scores["Tokens"]["f1"] >= floor
    assert scores["Words"]["f1"] >= floor - 0.01
    assert scores["Sentences"]["f1"] >= 0.8


def test_paragraphs_are_tokenized_a_few_at_a_time_alike(small, monkeypatch):
    # the rows of a few paragraphs at a time: the same tokens as all at once
    from perceptron.sequence import _tokenizer
    text = "\n\n".join(["He didn't go. She came home.", "Mr. Li can't stay!",
                        "It works, he said."] * 4)
    whole = small.tokenize(text)
    monkeypatch.setattr(_tokenizer, "_BATCH", 20)
    assert small.tokenize(text) == whole
    assert len(whole) == 16

"""perceptron.io.read_conllu_sentences / write_conllu: CoNLL-U read whole
(comments, multiword tokens, empty nodes and all ten fields kept) and written
back byte for byte."""
import gzip
import io

import pytest

from perceptron.io import ConlluSentence, read_conllu_sentences, write_conllu

DOC = """# newdoc id = d1
# sent_id = 1
# text = Don't stop.
1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\t_
1\tDo\tdo\tAUX\tVBP\tMood=Ind\t3\taux\t_\t_
2\tn't\tnot\tPART\tRB\tPolarity=Neg\t3\tadvmod\t_\t_
3\tstop\tstop\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No
3.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t3:conj\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

# sent_id = 2
1\tchủ tịch\tchủ tịch\tNOUN\tN\t_\t0\troot\t_\t_

"""


def test_round_trip(tmp_path):
    sentences = list(read_conllu_sentences(io.StringIO(DOC)))
    assert len(sentences) == 2
    assert sentences[0].comments[0] == "# newdoc id = d1"
    assert [r[0] for r in sentences[0].rows] == ["1-2", "1", "2", "3", "3.1", "4"]
    assert [w[1] for w in sentences[0].words] == ["Do", "n't", "stop", "."]
    assert sentences[1].words[0][1] == "chủ tịch"
    out = io.StringIO()
    write_conllu(sentences, out)
    assert out.getvalue() == DOC
    binary = io.BytesIO()
    write_conllu(sentences, binary)
    assert binary.getvalue() == DOC.encode("utf-8")
    path = tmp_path / "a.conllu.gz"
    write_conllu(sentences, path)
    with gzip.open(path, "rt", encoding="utf-8") as f:
        assert f.read() == DOC
    assert list(read_conllu_sentences(path)) == sentences
    assert [p.name for p in tmp_path.iterdir()] == ["a.conllu.gz"]


def test_words_are_the_rows():
    sentence = next(read_conllu_sentences(io.StringIO(DOC)))
    sentence.words[0][3] = "VERB"
    assert sentence.rows[1][3] == "VERB"


def test_crlf_and_blank_lines():
    text = "\r\n\r\n" + DOC.replace("\n", "\r\n").replace("\r\n\r\n", "\r\n\r\n\r\n")
    out = io.StringIO()
    write_conllu(read_conllu_sentences(io.BytesIO(text.encode())), out)
    assert out.getvalue() == DOC


@pytest.mark.parametrize("text, message", [
    ("1\ta\tb\n", "10 tab-separated fields"),
    ("x\ta\t_\t_\t_\t_\t_\t_\t_\t_\n", "not an integer"),
    ("2\ta\t_\t_\t_\t_\t_\t_\t_\t_\n", "expected 1"),
    ("1\t\t_\t_\t_\t_\t_\t_\t_\t_\n", "empty FORM"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n# late\n", "comment after"),
])
def test_malformed(text, message):
    with pytest.raises(ValueError, match=message):
        list(read_conllu_sentences(io.StringIO(text)))


def test_bad_arguments(tmp_path):
    with pytest.raises(TypeError, match="path_or_file"):
        read_conllu_sentences(3)
    with pytest.raises(TypeError, match="ConlluSentence"):
        write_conllu([["1"]], io.StringIO())
    with pytest.raises(ValueError, match="fields"):
        write_conllu([ConlluSentence([], [["1", "a"]])], io.StringIO())
    with pytest.raises(ValueError, match="tabs"):
        write_conllu([ConlluSentence([], [["1", "a\tb"] + ["_"] * 8])], io.StringIO())
    with pytest.raises(ValueError, match="not a regular file"):
        write_conllu([], tmp_path)
    # a failed write leaves no file and no temporary behind
    with pytest.raises(ValueError):
        write_conllu([ConlluSentence([], [["1"]])], tmp_path / "b.conllu")
    assert list(tmp_path.iterdir()) == []


WORD = "1\tA\ta\tX\tX\t_\t0\troot\t_\t_\n"


def test_long_lines_byte_order_marks_white_space_and_long_ids():
    # the same rules as read_conllu's
    long_misc = WORD[:-2] + "x" * 500 + "\n"
    with pytest.raises(ValueError, match=r"line 3: longer than max_line_length=100 characters"):
        list(read_conllu_sentences(io.StringIO(WORD + "\n" + long_misc), max_line_length=100))
    assert len(list(read_conllu_sentences(io.StringIO(long_misc), max_line_length=None))) == 1
    with pytest.raises(ValueError, match="max_line_length must be a positive int or None"):
        read_conllu_sentences(io.StringIO(WORD), max_line_length=0)
    got = list(read_conllu_sentences(io.BytesIO(b"\xef\xbb\xbf" + WORD.encode())))
    assert got[0].rows == [WORD.rstrip("\n").split("\t")]
    with pytest.raises(ValueError, match="line 2: a line of only white space"):
        list(read_conllu_sentences(io.StringIO(WORD + " \t\n" + WORD)))
    with pytest.raises(ValueError, match=r"line 2: the ID 9{40} follows word 1"):
        list(read_conllu_sentences(io.StringIO(WORD + "9" * 5000 + WORD[1:])))

"""perceptron.io.read_conllu: the CoNLL-U format of Universal Dependencies
(https://universaldependencies.org/format.html) read as (form, tag)
sentences, streaming; multiword tokens and empty nodes skipped; every error
names its line."""
import bz2
import gzip
import io

import pytest

from perceptron.io import read_conllu

DOC = """# newdoc id = d1
# sent_id = 1
# text = Don't stop.
1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\t_
1\tDo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_
2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_
3\tstop\tstop\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No
3.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t3:conj\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

# sent_id = 2
1\tHello\thello\tINTJ\tUH\t_\t0\troot\t_\t_
2\tworld has space\tw\tNOUN\tNN\t_\t1\tvocative\t_\t_
"""

UPOS = [[("Do", "AUX"), ("n't", "PART"), ("stop", "VERB"), (".", "PUNCT")],
        [("Hello", "INTJ"), ("world has space", "NOUN")]]


def test_upos_and_xpos(tmp_path):
    path = tmp_path / "a.conllu"
    path.write_text(DOC, encoding="utf-8")
    assert list(read_conllu(path)) == UPOS
    assert list(read_conllu(str(path), column="xpos")) == [
        [("Do", "VBP"), ("n't", "RB"), ("stop", "VB"), (".", ".")],
        [("Hello", "UH"), ("world has space", "NN")]]


def test_file_objects_and_compression(tmp_path):
    assert list(read_conllu(io.StringIO(DOC))) == UPOS
    assert list(read_conllu(io.BytesIO(DOC.encode()))) == UPOS
    crlf = DOC.replace("\n", "\r\n")
    assert list(read_conllu(io.BytesIO(crlf.encode()))) == UPOS
    for suffix, opener in ((".gz", gzip.open), (".bz2", bz2.open)):
        path = tmp_path / f"a.conllu{suffix}"
        with opener(path, "wt", encoding="utf-8") as f:
            f.write(DOC)
        assert list(read_conllu(path)) == UPOS


def test_streaming_and_blank_lines():
    # several blank lines between sentences, none at the end; one at a time
    it = read_conllu(io.StringIO("\n\n" + DOC.replace("\n\n", "\n\n\n\n").rstrip("\n")))
    assert next(it) == UPOS[0]
    assert next(it) == UPOS[1]
    with pytest.raises(StopIteration):
        next(it)
    assert list(read_conllu(io.StringIO(""))) == []
    assert list(read_conllu(io.StringIO("# only a comment\n\n"))) == []


@pytest.mark.parametrize("text, message", [
    ("1\tA\ta\tX\n", r"line 1: a token line has 10 tab-separated fields, this one has 4"),
    ("# c\n1\tA\ta\tX\tX\t_\t0\troot\t_\t_\nx\tB\tb\tX\tX\t_\t0\troot\t_\t_\n",
     r"line 3: the ID 'x' is not an integer"),
    ("1-a\tA\ta\tX\tX\t_\t0\troot\t_\t_\n", r"line 1: the ID '1-a' is not an integer"),
    ("2\tA\ta\tX\tX\t_\t0\troot\t_\t_\n", r"line 1: the ID 2 follows word 0 .*expected 1"),
    ("1\t\ta\tX\tX\t_\t0\troot\t_\t_\n", r"line 1: an empty FORM field"),
    ("1\tA\ta\t\tX\t_\t0\troot\t_\t_\n", r"line 1: an empty tag field"),
])
def test_malformed_lines(text, message):
    with pytest.raises(ValueError, match=message):
        list(read_conllu(io.StringIO(text)))


def test_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.conllu"
    path.write_bytes(b"1\tA\ta\tX\n")
    with pytest.raises(ValueError, match="bad.conllu, line 1"):
        list(read_conllu(path))
    path.write_bytes(b"1\t\xff\ta\tX\tX\t_\t0\troot\t_\t_\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        list(read_conllu(path))


def test_bad_arguments():
    with pytest.raises(ValueError, match="column must be 'upos' or 'xpos'"):
        read_conllu(io.StringIO(DOC), column="lemma")
    with pytest.raises(TypeError, match="path_or_file must be a path"):
        read_conllu(42)


def test_ud_ewt(ewt_dir):
    sentences = list(read_conllu(ewt_dir / "en_ewt-ud-dev.conllu"))
    assert len(sentences) > 1000
    tags = {t for s in sentences for _, t in s}
    assert tags <= {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART",
                    "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"}
    assert sum(len(s) for s in read_conllu(ewt_dir / "en_ewt-ud-train.conllu")) > 200_000


def test_a_binary_file_of_the_caller_stays_open():
    import gc

    from perceptron.io import read_conllu

    f = io.BytesIO(b"1\tThe\tthe\tDET\tDT\t_\t0\troot\t_\t_\n\n")
    assert list(read_conllu(f)) == [[("The", "DET")]]
    gc.collect()
    assert not f.closed
    f.seek(0)
    assert f.read(1) == b"1"


WORD = "1\tA\ta\tX\tX\t_\t0\troot\t_\t_\n"


def test_a_line_longer_than_the_limit_is_refused_unread(tmp_path):
    long_misc = "1\tA\ta\tX\tX\t_\t0\troot\t_\t" + "x" * 500 + "\n"
    assert list(read_conllu(io.StringIO(long_misc), max_line_length=len(long_misc) - 1)) == \
        [[("A", "X")]]
    with pytest.raises(ValueError, match=r"line 2: longer than max_line_length=100 characters"):
        list(read_conllu(io.StringIO(WORD + long_misc), max_line_length=100))
    limit = len(long_misc) - 2
    with pytest.raises(ValueError, match=rf"line 1: longer than max_line_length={limit}"):
        list(read_conllu(io.StringIO(long_misc), max_line_length=limit))
    assert list(read_conllu(io.StringIO(long_misc.replace("\n", "\r\n")),
                            max_line_length=len(long_misc) - 1)) == [[("A", "X")]]
    assert list(read_conllu(io.StringIO(long_misc), max_line_length=None)) == [[("A", "X")]]

    # a compressed file holding one line of 64 MiB: refused after reading the
    # limit's worth, at the default limit
    path = tmp_path / "huge.conllu.gz"
    with gzip.open(path, "wb") as f:
        f.write(b"# " + b"a" * (64 << 20) + b"\n")
    assert path.stat().st_size < 1 << 20

    class Counting(io.RawIOBase):
        def __init__(self, raw):
            self.raw, self.read_chars = raw, 0

        def readable(self):
            return True

        def readinto(self, b):
            n = self.raw.readinto(b)
            self.read_chars += n
            return n

    with gzip.open(path, "rb") as raw:
        counted = Counting(raw)
        with pytest.raises(ValueError, match=r"line 1: longer than max_line_length=1048576"):
            list(read_conllu(io.BufferedReader(counted)))
        assert counted.read_chars < 4 << 20


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "10"])
def test_max_line_length_is_checked(bad):
    with pytest.raises(ValueError, match="max_line_length must be a positive int or None"):
        read_conllu(io.StringIO(DOC), max_line_length=bad)


def test_a_byte_order_mark_at_the_start_is_skipped(tmp_path):
    path = tmp_path / "bom.conllu"
    path.write_bytes(b"\xef\xbb\xbf" + DOC.encode("utf-8"))
    assert list(read_conllu(path)) == UPOS
    path.write_bytes(b"\xef\xbb\xbf" + WORD.encode("utf-8"))
    assert list(read_conllu(path)) == [[("A", "X")]]
    assert list(read_conllu(io.StringIO("\ufeff" + WORD))) == [[("A", "X")]]
    # only at the start of the file
    with pytest.raises(ValueError, match=r"line 3: the ID '\\ufeff1' is not an integer"):
        list(read_conllu(io.StringIO(WORD + "\n\ufeff" + WORD)))


@pytest.mark.parametrize("blank", [" ", "\t", "  \t ", " \r"])
def test_a_line_of_only_white_space_is_refused(blank):
    # the format has token lines, comment lines and empty lines: no other
    text = WORD + blank + "\n" + WORD.replace("\tA\t", "\tB\t")
    with pytest.raises(ValueError, match="line 2: a line of only white space"):
        list(read_conllu(io.StringIO(text)))
    # CRLF line ends are line ends, not white space
    assert list(read_conllu(io.StringIO((WORD + "\n" + WORD).replace("\n", "\r\n")))) == \
        [[("A", "X")], [("A", "X")]]


def test_an_over_long_id_names_its_line(tmp_path):
    path = tmp_path / "ids.conllu"
    path.write_text(WORD + "9" * 5000 + WORD[1:], encoding="utf-8")
    with pytest.raises(ValueError, match=r"ids.conllu, line 2: the ID 9{40} follows word 1 "
                                         r"of its sentence \(expected 2"):
        list(read_conllu(path))
    path.write_text("0" * 30 + WORD, encoding="utf-8")  # leading zeros: still word 1
    with pytest.raises(ValueError, match=r"line 1: the ID 0{30}1 follows word 0"):
        list(read_conllu(path))
    path.write_text("1-" + "9" * 5000 + WORD[1:], encoding="utf-8")
    assert list(read_conllu(path)) == []

"""CoNLL-U documents read whole and written back (Universal Dependencies).

``read_conllu`` (``perceptron.io._conllu``) streams (form, tag) pairs for
training a tagger; a morphological tagger must instead give back the file it
was given with some columns filled, every other column, comment and
multiword-token line untouched.  :func:`read_conllu_sentences` keeps each
sentence as its comment lines and its token lines split into their ten
fields, and :func:`write_conllu` writes such sentences back, so that reading
a file and writing it again reproduces it (up to the line endings, written
as ``\\n``, and blank lines between sentences, written as exactly one).
Public as ``perceptron.io.read_conllu_sentences`` and
``perceptron.io.write_conllu``.
"""
import os
from typing import List, Optional

from perceptron.io._conllu import (DEFAULT_MAX_LINE_LENGTH, check_source, close_text,
                                   not_utf8, numbered_lines, open_text, token_fields)

__all__ = ["ConlluSentence", "read_conllu_sentences", "write_conllu", "FIELDS"]

# the ten fields of a token line, in order (0-based index = position)
FIELDS = ("id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")
_N_FIELDS = len(FIELDS)


class ConlluSentence:
    """One sentence of a CoNLL-U file.

    Attributes
    ----------
    comments : list of str
        Its comment lines, ``#`` included, without line ends.
    rows : list of list of str
        Its token lines split at tabs (ten fields each), in file order:
        syntactic words, multiword tokens (ID ``1-2``) and empty nodes
        (ID ``1.1``).
    """

    __slots__ = ("comments", "rows")

    def __init__(self, comments=None, rows=None):
        self.comments = [] if comments is None else comments
        self.rows = [] if rows is None else rows

    @property
    def words(self):
        """The rows of the syntactic words (integer IDs), in order: the
        lists themselves, so that filling a field of one fills the sentence."""
        return [r for r in self.rows if r[0].isascii() and r[0].isdigit()]

    def __eq__(self, other):
        return isinstance(other, ConlluSentence) and self.comments == other.comments and \
            self.rows == other.rows

    def __repr__(self):
        return f"ConlluSentence({len(self.comments)} comments, {len(self.rows)} rows)"


def read_conllu_sentences(path_or_file,
                          max_line_length: Optional[int] = DEFAULT_MAX_LINE_LENGTH):
    """The sentences of a CoNLL-U file, whole, one at a time.

    Parameters
    ----------
    path_or_file : str, os.PathLike or file object
        A path (``.gz``, ``.bz2`` and ``.xz`` are decompressed on the fly) or
        a file open in text or binary mode (UTF-8).
    max_line_length : int or None, default=2**20
        The longest line read, in characters (its line end not counted); a
        longer line is refused without being read whole.  None: no limit.

    Yields
    ------
    ConlluSentence
        Its comments and its token lines (ten fields each).

    Raises
    ------
    ValueError
        On a malformed line, naming the file and the line number: a token
        line without ten tab-separated fields, an ID that is not an integer,
        a range or an empty node, a word ID out of the order 1, 2, 3, ..., an
        empty FORM, a line of only white space (the format has token,
        comment and empty lines), a line longer than ``max_line_length``.
        A UTF-8 byte order mark before the first line is skipped.
    """
    check_source(path_or_file, max_line_length, "read_conllu_sentences")
    return _sentences(path_or_file, max_line_length)


def _sentences(source, limit):
    f, name, close = open_text(source, "r", "read_conllu_sentences")
    try:
        comments: List[str] = []
        rows: List[List[str]] = []
        n_words = 0
        for number, line in numbered_lines(f, name, limit):
            if not line:
                if rows or comments:
                    yield ConlluSentence(comments, rows)
                    comments, rows, n_words = [], [], 0
                continue
            if line.startswith("#"):
                if rows:
                    raise ValueError(f"{name}, line {number}: a comment after the token lines "
                                     "of a sentence (a blank line may be missing)")
                comments.append(line)
                continue
            fields, word = token_fields(line, name, number, n_words)
            n_words += word
            rows.append(fields)
        if rows or comments:
            yield ConlluSentence(comments, rows)
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    finally:
        close_text(f, close)


def write_conllu(sentences, path_or_file):
    """Write sentences as CoNLL-U: each one's comments, its token lines and a
    blank line.

    Parameters
    ----------
    sentences : iterable of ConlluSentence
    path_or_file : str, os.PathLike or file object
        A path is written through a temporary file in its folder, renamed
        when complete (``.gz``, ``.bz2``, ``.xz``: compressed); a file object
        (text or binary) is written to and left open.

    Raises
    ------
    ValueError
        If a row has not ten fields, or a field holds a tab or a line end.
    """
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        path = os.fsdecode(path_or_file)
        if os.path.exists(path) and not os.path.isfile(path):
            raise ValueError(f"write_conllu: {path!r} exists and is not a regular file")
        folder = os.path.dirname(os.path.abspath(path))
        temp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
        # the temporary name keeps the suffix that selects the compression
        for suffix in (".gz", ".bz2", ".xz"):
            if path.lower().endswith(suffix):
                temp += suffix
        try:
            f, _, _ = open_text(temp, "w", "write_conllu")
            with f:
                _write(sentences, f)
            os.replace(temp, path)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
        return
    f, _, close = open_text(path_or_file, "w", "write_conllu")
    try:
        _write(sentences, f)
    finally:
        f.flush()
        if close == "detach":
            f.detach()


def _write(sentences, f):
    for i, sentence in enumerate(sentences):
        if not isinstance(sentence, ConlluSentence):
            raise TypeError(f"sentence {i} is a {type(sentence).__name__}, not a "
                            "ConlluSentence")
        lines = list(sentence.comments)
        for row in sentence.rows:
            if len(row) != _N_FIELDS:
                raise ValueError(f"sentence {i}: a row has {len(row)} fields, not "
                                 f"{_N_FIELDS}: {row!r:.80}")
            for field in row:
                if not isinstance(field, str) or "\t" in field or "\n" in field or \
                        "\r" in field:
                    raise ValueError(f"sentence {i}: the field {field!r:.40} is not a str "
                                     "without tabs and line ends")
            lines.append("\t".join(row))
        f.write("\n".join(lines))
        f.write("\n\n")

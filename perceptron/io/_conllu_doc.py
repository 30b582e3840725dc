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
import io
import os
from typing import Any, Callable, List, Optional

__all__ = ["ConlluSentence", "read_conllu_sentences", "write_conllu", "FIELDS"]

# as read_conllu's: no line is read past this many characters
DEFAULT_MAX_LINE_LENGTH = 1 << 20
# an ID with more digits than this is out of any sentence's order
_MAX_ID_DIGITS = 18

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


def _open(source, mode):
    if isinstance(source, (str, bytes, os.PathLike)):
        path = os.fsdecode(source)
        lower = path.lower()
        opener: Callable[..., Any] = open
        if lower.endswith(".gz"):
            import gzip
            opener = gzip.open
        elif lower.endswith(".bz2"):
            import bz2
            opener = bz2.open
        elif lower.endswith(".xz"):
            import lzma
            opener = lzma.open
        return opener(path, mode + "t", encoding="utf-8", newline=""), path, True
    if mode == "r" and hasattr(source, "read") or mode == "w" and hasattr(source, "write"):
        name = str(getattr(source, "name", "<file>"))
        if isinstance(source, io.TextIOBase):
            return source, name, False
        wrapper = io.TextIOWrapper(source, encoding="utf-8", newline="")
        return wrapper, name, "detach"
    what = "read" if mode == "r" else "write"
    raise TypeError(f"path_or_file must be a path (str or os.PathLike) or a file object with "
                    f"{what}(), got {type(source).__name__}")


def _is_int(text):
    return text.isascii() and text.isdigit()


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
    if not (isinstance(path_or_file, (str, bytes, os.PathLike)) or
            hasattr(path_or_file, "read")):
        raise TypeError(f"read_conllu_sentences: path_or_file must be a path (str or "
                        f"os.PathLike) or a file object, got {type(path_or_file).__name__}")
    if max_line_length is not None and (
            not isinstance(max_line_length, int) or isinstance(max_line_length, bool) or
            max_line_length < 1):
        raise ValueError(f"read_conllu_sentences: max_line_length must be a positive int or "
                         f"None, got {max_line_length!r}")
    return _sentences(path_or_file, max_line_length)


def _lines(f, name, limit):
    """(number, line without its line end) for each line of f, none read
    past `limit` characters (a compressed file can hold a line of
    gigabytes); a byte order mark before the first line dropped."""
    number = 0
    while True:
        # two characters more than the limit: room for a "\r\n" line end
        line = f.readline() if limit is None else f.readline(limit + 2)
        if not line:
            return
        number += 1
        text = line.rstrip("\r\n")
        if limit is not None and len(text) > limit:
            raise ValueError(f"{name}, line {number}: longer than max_line_length={limit} "
                             "characters (pass a larger one, or None, for longer lines)")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield number, text


def _sentences(source, limit):
    f, name, close = _open(source, "r")
    try:
        comments: List[str] = []
        rows: List[List[str]] = []
        n_words = 0
        for number, line in _lines(f, name, limit):
            if not line:
                if rows or comments:
                    yield ConlluSentence(comments, rows)
                    comments, rows, n_words = [], [], 0
                continue
            if line.isspace():
                raise ValueError(f"{name}, line {number}: a line of only white space (CoNLL-U "
                                 "has token lines, comment lines and empty lines)")
            if line.startswith("#"):
                if rows:
                    raise ValueError(f"{name}, line {number}: a comment after the token lines "
                                     "of a sentence (a blank line may be missing)")
                comments.append(line)
                continue
            fields = line.split("\t")
            if len(fields) != _N_FIELDS:
                raise ValueError(f"{name}, line {number}: a token line has {_N_FIELDS} "
                                 f"tab-separated fields, this one has {len(fields)}: "
                                 f"{line[:60]!r}")
            ident = fields[0]
            if "-" in ident or "." in ident:
                low, _, high = ident.partition("-" if "-" in ident else ".")
                if not (_is_int(low) and _is_int(high)):
                    raise ValueError(f"{name}, line {number}: the ID {ident!r:.40} is not an "
                                     "integer, a range (1-2) or an empty node (1.1)")
            elif not _is_int(ident):
                raise ValueError(f"{name}, line {number}: the ID {ident!r:.40} is not an "
                                 "integer, a range (1-2) or an empty node (1.1)")
            elif len(ident) > _MAX_ID_DIGITS or int(ident) != n_words + 1:
                raise ValueError(f"{name}, line {number}: the ID {ident:.40} follows word "
                                 f"{n_words} of its sentence (expected {n_words + 1}; a blank "
                                 "line may be missing)")
            else:
                n_words += 1
            if not fields[1]:
                raise ValueError(f"{name}, line {number}: an empty FORM field")
            rows.append(fields)
        if rows or comments:
            yield ConlluSentence(comments, rows)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start} of a "
                         "block)") from None
    finally:
        if close == "detach":
            f.detach()
        elif close:
            f.close()


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
            f, _, _ = _open(temp, "w")
            with f:
                _write(sentences, f)
            os.replace(temp, path)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
        return
    f, _, close = _open(path_or_file, "w")
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

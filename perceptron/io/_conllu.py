"""CoNLL-U text (Universal Dependencies): sentences of (form, tag) pairs.

The format (https://universaldependencies.org/format.html): one token a
line, ten tab-separated fields (ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD,
DEPREL, DEPS, MISC); a blank line ends a sentence; lines starting with ``#``
are comments.  The format knows no other kind of line: a line of only
spaces or tabs is refused (with its file and line), not taken as a blank
line.  A UTF-8 byte order mark before the first line is skipped.  A
multiword token (ID ``1-2``) spans syntactic words listed after it, and an
empty node (ID ``1.1``) is no word of the surface text: both are skipped,
so a sentence is its syntactic words, which is what the tags annotate.
Public as ``perceptron.io.read_conllu``.
"""
import io
import os
from typing import Any, Callable, Optional

__all__ = ["read_conllu", "COLUMNS", "DEFAULT_MAX_LINE_LENGTH"]

# the column of each tag set (0-based)
COLUMNS = {"upos": 3, "xpos": 4}
_N_FIELDS = 10

# A token line is ten short fields and a comment a sentence's text: 1 Mi
# characters leaves room for any of them, and a line is never read past it
# (a compressed file can hold a line of gigabytes).
DEFAULT_MAX_LINE_LENGTH = 1 << 20
# an ID with more digits than this is out of any sentence's order
_MAX_ID_DIGITS = 18


def open_text(source, mode="r", who="read_conllu"):
    """(text file, display name, what to do when done: True close, "detach"
    detach, False nothing) for a path or a file object, read (``mode="r"``)
    or written (``"w"``) as UTF-8; ``.gz``, ``.bz2`` and ``.xz`` paths
    (de)compressed on the fly.  ``who`` names the caller in the error."""
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
    if hasattr(source, "read" if mode == "r" else "write"):
        name = str(getattr(source, "name", "<file>"))
        if isinstance(source, io.TextIOBase):
            return source, name, False
        # ours to detach when done: a collected wrapper would close the caller's file
        return io.TextIOWrapper(source, encoding="utf-8", newline=""), name, "detach"
    what = "read" if mode == "r" else "write"
    raise TypeError(f"{who}: path_or_file must be a path (str or os.PathLike) or a file object "
                    f"with {what}(), got {type(source).__name__}")


def close_text(f, close):
    """Undo what ``open_text`` did: close the file it opened, detach the
    wrapper it put around the caller's binary file (which stays open)."""
    if close == "detach":
        f.detach()
    elif close:
        f.close()


def check_source(path_or_file, max_line_length, who):
    """The checks of a reader's arguments, made when it is called (the file
    is opened when the first sentence is asked for)."""
    if not (isinstance(path_or_file, (str, bytes, os.PathLike)) or
            hasattr(path_or_file, "read")):
        raise TypeError(f"{who}: path_or_file must be a path (str or os.PathLike) or a "
                        f"file object, got {type(path_or_file).__name__}")
    if max_line_length is not None and (
            not isinstance(max_line_length, int) or isinstance(max_line_length, bool) or
            max_line_length < 1):
        raise ValueError(f"{who}: max_line_length must be a positive int or None, got "
                         f"{max_line_length!r}")


def is_int(text):
    """Whether a CoNLL-U ID is a plain integer (ASCII digits only)."""
    return text.isascii() and text.isdigit()


def read_conllu(path_or_file, column="upos",
                max_line_length: Optional[int] = DEFAULT_MAX_LINE_LENGTH):
    """The sentences of a CoNLL-U file, one at a time, as ``[(form, tag), ...]``.

    Parameters
    ----------
    path_or_file : str, os.PathLike or file object
        A path (``.gz``, ``.bz2`` and ``.xz`` are decompressed on the fly) or
        a file open in text or binary mode (UTF-8).
    column : {"upos", "xpos"}
        The tag of each word: the universal part of speech (column 4) or the
        treebank's own (column 5).
    max_line_length : int or None, default=2**20
        The longest line read, in characters (its line end not counted); a
        longer line is refused without being read whole.  None: no limit.

    Yields
    ------
    list of (str, str)
        The syntactic words of a sentence and their tags, in order; multiword
        token lines (ID ``1-2``) and empty nodes (ID ``1.1``) are skipped, and
        so are comment lines.

    Raises
    ------
    ValueError
        On a malformed line, naming the file and the line number: a token line
        without ten tab-separated fields, an ID that is not an integer, a
        range or an empty node, or that breaks the order 1, 2, 3, ... of its
        sentence, an empty form or tag, a line of only white space, a line
        longer than ``max_line_length``.

    The file is read line by line, never whole; arguments are checked when
    this function is called, the file is opened when the first sentence is
    asked for.
    """
    if not isinstance(column, str) or column not in COLUMNS:
        raise ValueError(f"read_conllu: column must be 'upos' or 'xpos', got {column!r}")
    check_source(path_or_file, max_line_length, "read_conllu")
    return _sentences(path_or_file, COLUMNS[column], max_line_length)


def numbered_lines(f, name, limit):
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
            text = text[1:]  # a byte order mark (UTF-8 needs none, some editors write it)
        yield number, text


def token_fields(line, name, number, n_words):
    """The ten fields of a line that is neither empty nor a comment, and
    whether it is a syntactic word (an integer ID) rather than a multiword
    token (``1-2``) or an empty node (``1.1``), after the rules every
    reader of the format keeps: no line of only white space, ten
    tab-separated fields, an ID of one of those three kinds, word IDs 1, 2,
    3, ... in order (``n_words`` words before this line), a FORM."""
    if line.isspace():
        raise ValueError(f"{name}, line {number}: a line of only white space (CoNLL-U "
                         "has token lines, comment lines and empty lines)")
    fields = line.split("\t")
    if len(fields) != _N_FIELDS:
        raise ValueError(f"{name}, line {number}: a token line has {_N_FIELDS} "
                         f"tab-separated fields, this one has {len(fields)}: "
                         f"{line[:60]!r}")
    ident = fields[0]
    word = not ("-" in ident or "." in ident)
    if not word:
        low, _, high = ident.partition("-" if "-" in ident else ".")
        if not (is_int(low) and is_int(high)):
            raise ValueError(f"{name}, line {number}: the ID {ident!r:.40} is not an "
                             "integer, a range (1-2) or an empty node (1.1)")
    elif not is_int(ident):
        raise ValueError(f"{name}, line {number}: the ID {ident!r:.40} is not an "
                         "integer, a range (1-2) or an empty node (1.1)")
    elif len(ident) > _MAX_ID_DIGITS or int(ident) != n_words + 1:
        raise ValueError(f"{name}, line {number}: the ID {ident:.40} follows word "
                         f"{n_words} of its sentence (expected {n_words + 1}; a blank "
                         "line may be missing)")
    if not fields[1]:
        raise ValueError(f"{name}, line {number}: an empty FORM field")
    return fields, word


def not_utf8(name, exc):
    """The error of a file that is not UTF-8."""
    return ValueError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start} of a block)")


def _sentences(source, col, limit):
    f, name, close = open_text(source)
    try:
        sentence: list = []
        for number, line in numbered_lines(f, name, limit):
            if not line:
                if sentence:
                    yield sentence
                    sentence = []
                continue
            if line.startswith("#"):
                continue
            fields, word = token_fields(line, name, number, len(sentence))
            if not word:
                continue  # a multiword token or an empty node: not a syntactic word
            tag = fields[col]
            if not tag:
                raise ValueError(f"{name}, line {number}: an empty tag field")
            sentence.append((fields[1], tag))
        if sentence:
            yield sentence
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    finally:
        close_text(f, close)

"""The ``tag`` commands on raw text: the tokenizer learnt with a tagger from
the same CoNLL-U file, ``tag tokenize``, ``tag apply`` and ``tag evaluate``
on raw text.

A tagger trained on CoNLL-U whose sentences have ``# text`` lines holds the
tokenizer learnt from them (its ``tokenizer_``, saved inside the tagger's
model file), as a UDPipe 1 model holds its tokenizer beside its tagger
(Straka et al. 2016).  Raw text is read a few paragraphs at a time (blocks
between empty lines; a paragraph longer than ``MAX_PARAGRAPH`` characters is
cut at a line end), so that the tokenizer's features, about a kilobyte a
character, take memory in proportion to a piece, not to the file.
"""
import sys
import time
from typing import Tuple

from perceptron.io import read_conllu_sentences, write_conllu
from perceptron.sequence._cli_morph import check_tagger, fill_columns, open_output
from perceptron.sequence._evaluate import METRICS, conll18_raw_scores
from perceptron.sequence._morph import MorphTagger
from perceptron.sequence._segmentation import segmentation_scores
from perceptron.sequence._tokenizer import Tokenizer, raw_text

__all__ = ["open_text", "has_text", "train_tokenizer", "load_tokenizing", "raw_pieces",
           "apply_raw", "tokenize_raw", "evaluate_raw", "PIECE", "MAX_PARAGRAPH"]

# characters tokenized at once (whole paragraphs), and the longest paragraph
# read before it is cut at a line end
PIECE = 1 << 16
MAX_PARAGRAPH = 1 << 17
_FIELD = {"upos": 3, "xpos": 4}


def open_text(path):
    """(text file, whether to close it) of a path, '-' (standard input) or
    a compressed file (.gz, .bz2, .xz), read as UTF-8."""
    if path == "-":
        return sys.stdin, False
    name = path.lower()
    if name.endswith(".gz"):
        import gzip
        return gzip.open(path, "rt", encoding="utf-8"), True
    if name.endswith(".bz2"):
        import bz2
        return bz2.open(path, "rt", encoding="utf-8"), True
    if name.endswith(".xz"):
        import lzma
        return lzma.open(path, "rt", encoding="utf-8"), True
    return open(path, encoding="utf-8"), True


def has_text(sentences):
    """Whether a sentence has a ``# text`` comment, the raw text a tokenizer
    learns from."""
    return any(c.split("=", 1)[0].strip() == "# text" and "=" in c
               for s in sentences for c in s.comments)


def train_tokenizer(args, train, dev, out):
    """The tokenizer of a tagger trained by ``tag train`` on the CoNLL-U
    sentences `train` (None with --no-tokenizer or without ``# text``
    lines), stopped at its best epoch on `dev` when given."""
    if args.no_tokenizer:
        return None
    if not has_text(train):
        print("no tokenizer: the training file has no '# text' lines (tag apply then needs "
              "tokens, one sentence a line, or CoNLL-U)", file=out)
        return None
    dev = dev if dev is not None and has_text(dev) else None
    tok = Tokenizer(max_iter=args.tokenizer_epochs, n_features=args.tokenizer_n_features,
                    random_state=args.seed)
    start = time.perf_counter()
    try:
        tok.fit(train, dev=dev)
    except ValueError as exc:
        raise ValueError(f"the tokenizer: {exc} (--no-tokenizer trains the tagger alone)") \
            from None
    seconds = time.perf_counter() - start
    epochs = f"{tok.n_iter_} epochs" if dev is None else \
        f"best of {len(tok.dev_scores_)} epochs on --dev: {tok.n_iter_}"
    print(f"trained the tokenizer on {len(train) - tok.n_skipped_} sentences ({epochs}) in "
          f"{seconds:.3f} s", file=out)
    if dev is not None:
        scores = segmentation_scores(dev, tok.to_conllu(raw_text(dev)))
        print("dev raw text: " + "  ".join(f"{k} F1 {v['f1']:.4f}" for k, v in scores.items()),
              file=out)
    return tok


def load_tokenizing(path, need_tokenizer=True):
    """(tagger or None, tokenizer or None) of a model file: a tagger (with
    the tokenizer it was trained with, if any) or a Tokenizer alone."""
    from perceptron.io import load_model
    if path == "-":
        model = load_model(sys.stdin.buffer)
    else:
        model = load_model(path)
    if isinstance(model, Tokenizer):
        return None, model
    tagger = check_tagger(model, path)
    tok = getattr(tagger, "tokenizer_", None)
    if tok is None and need_tokenizer:
        raise ValueError(f"{path} holds a tagger without a tokenizer (trained from a file "
                         "without '# text' lines, from word/TAG text, or with --no-tokenizer): "
                         "give it tokens, one sentence a line (--format words), or CoNLL-U")
    return tagger, tok


def _looks_like_conllu(line):
    """A token line of CoNLL-U: ten tab-separated fields, an ID first."""
    fields = line.rstrip("\r\n").split("\t")
    return len(fields) == 10 and fields[0].replace("-", "").replace(".", "").isdigit()


def raw_pieces(path, refuse_conllu=False):
    """The raw text of a file in pieces of whole paragraphs, about PIECE
    characters each (a longer paragraph alone, cut at a line end after
    MAX_PARAGRAPH characters); with `refuse_conllu`, a ValueError if its
    first lines look like CoNLL-U rather than raw text."""
    f, close = open_text(path)
    try:
        yield from _pieces(f, path, refuse_conllu)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start} of a "
                         "block)") from None
    finally:
        if close:
            f.close()


def _pieces(f, path, refuse_conllu):
    """The pieces of the open file f (see raw_pieces)."""
    piece, size, para = [], 0, 0
    for number, line in enumerate(f, 1):
        if refuse_conllu and number <= 100 and _looks_like_conllu(line):
            raise ValueError(f"{path}, line {number}: a CoNLL-U token line, not raw text: "
                             "give --format conllu (or --format raw to tokenize it as text)")
        piece.append(line)
        size += len(line)
        para = 0 if not line.strip() else para + len(line)
        if (not line.strip() and size >= PIECE) or para >= MAX_PARAGRAPH:
            yield "".join(piece)
            piece, size, para = [], 0, 0
    if piece:
        yield "".join(piece)


def _tokenized(tok, tagger, path, column, refuse_conllu):
    """The sentences of the raw text of `path` as CoNLL-U, numbered from 1,
    tagged when there is a tagger."""
    n = 0
    after_break = True  # the previous piece ended at an empty line
    for piece in raw_pieces(path, refuse_conllu):
        sentences = tok.to_conllu(piece)
        if sentences:
            # a piece's first sentence is the document's first only in the
            # first piece, a paragraph's first when the piece before ended one
            drop: Tuple[str, ...] = () if n == 0 else ("# newdoc",) if after_break else \
                ("# newdoc", "# newpar")
            sentences[0].comments = [c for c in sentences[0].comments if c not in drop]
        after_break = not piece.splitlines()[-1].strip() if piece.strip() else after_break
        for s in sentences:
            n += 1
            s.comments = [f"# sent_id = {n}" if c.startswith("# sent_id") else c
                          for c in s.comments]
        if tagger is not None and sentences:
            fill_columns(tagger, sentences, column)
        yield from sentences


def _write_lines(lines, target, out):
    f = open_output(target, out)
    try:
        for line in lines:
            f.write(line)
            f.write("\n")
    finally:
        if f is not out:
            f.close()


def _write(sentences, form, target, out, line_of):
    if form == "conllu":
        write_conllu(sentences, out if target in (None, "-") else target)
    else:
        _write_lines((line_of(s) for s in sentences), target, out)


def apply_raw(args, out, tagger, tok):
    """tag apply on raw text: tokenized, tagged, written as CoNLL-U (or
    word/TAG text, a sentence a line)."""
    if tok is None:
        load_tokenizing(args.model)  # the error that says why
    if tagger is None:
        raise ValueError(f"{args.model} holds a Tokenizer alone: tag tokenize uses it")
    column = "upos" if isinstance(tagger, MorphTagger) else args.column
    form = "conllu" if args.output_format == "auto" else args.output_format
    field = _FIELD[column]
    if args.format == "auto":
        print(f"reading {args.data} as raw text (the model holds a tokenizer; --format words "
              "reads tokens, one sentence a line)", file=sys.stderr)
    _write(_tokenized(tok, tagger, args.data, column, args.format == "auto"), form,
           args.output, out,
           lambda s: " ".join(f"{r[1]}/{r[field]}" for r in s.words))
    return 0


def tokenize_raw(args, out):
    """tag tokenize: raw text to CoNLL-U tokens (or a sentence a line, its
    tokens separated by spaces)."""
    _, tok = load_tokenizing(args.model)
    _write(_tokenized(tok, None, args.data, None, True), args.output_format, args.output, out,
           _token_line)
    return 0


def _token_line(sentence):
    """The tokens of a sentence separated by spaces: a multiword token by
    its surface form, not its words."""
    forms, covered = [], 0
    for r in sentence.rows:
        if "." in r[0]:
            continue
        if "-" in r[0]:
            forms.append(r[1])
            covered = int(r[0].split("-", 1)[1])
        elif int(r[0]) > covered:
            forms.append(r[1])
    return " ".join(forms)


def evaluate_raw(args, out):
    """tag evaluate on raw text: the CoNLL-U file's raw text (its ``# text``
    lines) tokenized and tagged, scored as the CoNLL 2018 shared task scores
    a system that read raw text."""
    tagger, tok = load_tokenizing(args.model)
    gold = list(read_conllu_sentences(sys.stdin if args.data == "-" else args.data))
    if not has_text(gold):
        raise ValueError(f"{args.data}: no '# text' lines, no raw text to start from")
    text = raw_text(gold)
    start = time.perf_counter()
    system = tok.to_conllu(text)
    column = None
    if tagger is not None:
        column = "upos" if isinstance(tagger, MorphTagger) else args.column
        fill_columns(tagger, system, column)
    seconds = time.perf_counter() - start
    scores = conll18_raw_scores(gold, system)
    shown = ["Tokens", "Words", "Sentences"]
    if isinstance(tagger, MorphTagger):
        learnt = set(tagger.columns_.tolist())
        needs = {"UPOS": {"upos"}, "XPOS": {"xpos"}, "UFeats": {"feats"},
                 "AllTags": {"upos", "xpos", "feats"}, "Lemmas": {"lemma"}}
        shown += [m for m in METRICS if needs[m] <= learnt]
    elif tagger is not None:
        shown.append(args.column.upper())
    print(f"{'metric':<10} {'precision':>9} {'recall':>9} {'F1':>9} {'aligned':>9}  "
          f"(CoNLL 2018 scores from raw text: {len(text):,} characters in {seconds:.2f} s)",
          file=out)
    for m in shown:
        v = scores[m]
        aligned = f"{v['aligned_accuracy']:9.4f}" if "aligned_accuracy" in v else " " * 9
        print(f"{m:<10} {v['precision']:9.4f} {v['recall']:9.4f} {v['f1']:9.4f} {aligned}",
              file=out)
    return 0

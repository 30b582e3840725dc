"""The command line's ``tag`` commands: train, evaluate and apply a tagger,
tokenize raw text.

perceptron tag train DATA -o MODEL, perceptron tag evaluate MODEL DATA,
perceptron tag apply MODEL DATA and perceptron tag tokenize MODEL DATA.
DATA is CoNLL-U (a name ending in .conllu, optionally compressed, or
--format conllu), text with one sentence a line, tokens separated by white
space (--format words: for train and evaluate each token is word/TAG, split
at its last /, for apply plain words), or raw text (--format raw).  train on
CoNLL-U with '# text' lines also learns a tokenizer from them, kept in the
model file (--no-tokenizer: not); apply then reads any file that is not
CoNLL-U as raw text, tokenizes it and writes CoNLL-U (# sent_id, # text,
multiword tokens, SpaceAfter=No) with the predicted columns filled, or
word/TAG text (--output-format text).  CoNLL-U input is written back with
the predicted columns filled.  train --columns all learns UPOS, XPOS, FEATS
and lemmas (a morphological tagger); evaluate reports per-tag and
unknown-word accuracy, a morphological tagger's CoNLL 2018 scores, and with
--format raw the scores of the file's raw text tokenized and tagged (token,
word and sentence F1, the columns over the aligned words).
"""
import argparse
import io
import os
import sys
import time

from perceptron.io import read_conllu, read_conllu_sentences
from perceptron.sequence._cli_morph import apply_model, evaluate_model, load_tagger, train_morph
from perceptron.sequence._cli_text import (apply_raw, evaluate_raw, load_tokenizing, open_text,
                                           tokenize_raw, train_tokenizer)
from perceptron.sequence._tagger import PerceptronTagger

__all__ = ["add_tag_commands"]

_COMPRESSED = (".gz", ".bz2", ".xz")


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: at least 1")
    return value


def _format(path, given):
    """conllu, text (one sentence a line) or raw; auto: conllu for a name
    ending in .conllu (optionally compressed), else text."""
    if given == "words":
        return "text"
    if given != "auto":
        return given
    name = os.fsdecode(path).lower()
    for suffix in _COMPRESSED:
        name = name.removesuffix(suffix)
    return "conllu" if name.endswith(".conllu") else "text"


def _text_sentences(path, tagged):
    """The sentences of a text file, one a line: token lists (a blank line an
    empty list, so that apply writes a line for every line it reads), or
    (word, tag) lists of the non-blank lines when `tagged` (tokens
    ``word/TAG``)."""
    f, close = open_text(path)
    try:
        for number, line in enumerate(f, 1):
            tokens = line.split()
            if not tagged:
                yield tokens
                continue
            if not tokens:
                continue
            sentence = []
            for token in tokens:
                word, sep, tag = token.rpartition("/")
                if not sep or not word or not tag:
                    raise ValueError(f"{path}, line {number}: the token {token!r:.40} is not "
                                     "word/TAG")
                sentence.append((word, tag))
            yield sentence
    finally:
        if close:
            f.close()


def _tagged(args, source):
    if _format(args.data, args.format) == "conllu":
        return read_conllu(source, column=args.column)
    return _text_sentences(args.data, tagged=True)


def _no_raw(args, command):
    if args.format == "raw":
        raise ValueError(f"tag {command} learns from tagged sentences, not raw text: give "
                         "CoNLL-U (its '# text' lines teach the tokenizer) or word/TAG text")


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)  # the same inode: also through links
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def _refuse_overwrite(output, *inputs):
    """A ValueError, before anything is read, when the output is one of the
    inputs (the same file by device and inode, or by resolved path)."""
    if output is None or output == "-":
        return
    for path in inputs:
        if path is not None and path != "-" and _same_file(output, path):
            raise ValueError(f"refusing to overwrite the input {path} with the output "
                             f"{output}")


def cmd_tag_train(args, out):
    _refuse_overwrite(args.output, args.data, args.dev)
    _no_raw(args, "train")
    is_conllu = _format(args.data, args.format) == "conllu"
    if args.columns is not None:
        if not is_conllu:
            raise ValueError("--columns trains on CoNLL-U: give a .conllu file or --format "
                             "conllu")
        return train_morph(args, out, lambda train, dev: train_tokenizer(args, train, dev, out))
    source = sys.stdin if args.data == "-" else args.data
    if is_conllu and args.data == "-" and not args.no_tokenizer:
        source = io.StringIO(sys.stdin.read())  # read twice: tags, then sentences
    sentences = list(_tagged(args, source))
    n_tokens = sum(len(s) for s in sentences)
    tagger = PerceptronTagger(n_features=args.n_features, max_iter=args.epochs,
                              random_state=args.seed)
    start = time.perf_counter()
    tagger.fit(sentences)
    seconds = time.perf_counter() - start
    print(f"trained {tagger!r} on {len(sentences)} sentences, {n_tokens} tokens, "
          f"{len(tagger.classes_)} tags in {seconds:.3f} s", file=out)
    dev_is_conllu = args.dev is not None and _format(args.dev, "auto") == "conllu"
    if is_conllu:
        if isinstance(source, io.StringIO):
            source.seek(0)
        train = list(read_conllu_sentences(source))
        dev_docs = list(read_conllu_sentences(args.dev)) if dev_is_conllu else None
        tok = train_tokenizer(args, train, dev_docs, out)
        if tok is not None:
            setattr(tagger, "tokenizer_", tok)  # saved in its model file
    tagger.save(args.output)
    if args.dev:
        dev = list(read_conllu(args.dev, column=args.column) if dev_is_conllu else
                   _text_sentences(args.dev, tagged=True))
        print(f"dev accuracy {tagger.evaluate(dev):.4f} ({sum(map(len, dev))} tokens)",
              file=out)
    print(f"wrote {args.output}", file=out)
    return 0


def cmd_tag_evaluate(args, out):
    if args.format == "raw":
        return evaluate_raw(args, out)
    tagger = load_tagger(args.model)
    is_conllu = _format(args.data, args.format) == "conllu"
    pairs = None if is_conllu else list(_text_sentences(args.data, tagged=True))
    return evaluate_model(tagger, args, pairs, is_conllu, out)


def cmd_tag_apply(args, out):
    _refuse_overwrite(args.output, args.model, args.data)
    tagger, tok = load_tokenizing(args.model, need_tokenizer=args.format == "raw")
    if tagger is None:
        raise ValueError(f"{args.model} holds a Tokenizer alone: tag tokenize uses it")
    form = _format(args.data, args.format)
    if form == "raw" or form == "text" and args.format == "auto" and tok is not None:
        return apply_raw(args, out, tagger, tok)
    is_conllu = form == "conllu"
    words = None if is_conllu else list(_text_sentences(args.data, tagged=False))
    return apply_model(tagger, args, words, is_conllu, out)


def cmd_tag_tokenize(args, out):
    _refuse_overwrite(args.output, args.model, args.data)
    return tokenize_raw(args, out)


_FORMATS = ["auto", "conllu", "words", "text", "raw"]


def _data_options(p, auto):
    p.add_argument("--format", "--input-format", dest="format", choices=_FORMATS,
                   default="auto", help="conllu; words: one sentence a line, tokens separated "
                   "by white space ('text' is the same); raw: raw text (default: conllu for a "
                   f"name ending in .conllu, optionally .gz/.bz2/.xz, else {auto})")
    p.add_argument("--column", choices=["upos", "xpos"], default="upos",
                   help="CoNLL-U: the tags to learn or score (default upos)")


def _tag_help(parser):
    def show(args, out):
        parser.print_help(out)
        return 2
    return show


def add_tag_commands(sub):
    """Add ``tag train|evaluate|apply`` to the command line's subparsers."""
    tag = sub.add_parser("tag", help="tagging and tokenizing: train, evaluate, apply, "
                         "tokenize",
                         description=__doc__.split("\n\n")[1],
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    tag.set_defaults(func=_tag_help(tag))
    commands = tag.add_subparsers(dest="tag_command", metavar="command")
    train = commands.add_parser("train", help="train a tagger on tagged sentences")
    train.add_argument("data", help="tagged sentences (CoNLL-U, or word/TAG text; '-': "
                       "standard input)")
    train.add_argument("-o", "--output", required=True, metavar="MODEL")
    _data_options(train, "words")
    train.add_argument("--epochs", type=_positive, default=5, help="max_iter (default 5)")
    train.add_argument("--n-features", type=_positive, default=2 ** 18,
                       help="hashed feature columns (default 2**18 = 262144)")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--dev", metavar="FILE", help="also report the accuracy on this file "
                       "(with --columns: and stop each column's training at its best epoch "
                       "on it)")
    train.add_argument("--columns", metavar="LIST", default=None,
                       help="CoNLL-U: train a morphological tagger of these columns, 'all' "
                       "(those the file fills) or a comma-separated list of upos, xpos, "
                       "feats, lemma")
    train.add_argument("--no-tokenizer", action="store_true",
                       help="CoNLL-U: do not learn a tokenizer (by default one is learnt "
                       "from the file's '# text' lines, SpaceAfter=No and multiword tokens, "
                       "when it has such lines, and saved in the model; with --dev, it stops "
                       "at its best epoch on the dev file's raw text)")
    train.add_argument("--tokenizer-epochs", type=_positive, default=10,
                       help="the tokenizer's epochs, at most (default 10)")
    train.add_argument("--tokenizer-n-features", type=_positive, default=2 ** 20,
                       help="the tokenizer's hashed feature columns (default 2**20 = 1048576)")
    train.set_defaults(func=cmd_tag_train)
    evaluate = commands.add_parser("evaluate", help="scores on tagged sentences (or on their "
                                   "raw text)")
    evaluate.add_argument("model")
    evaluate.add_argument("data")
    _data_options(evaluate, "words; raw: the file is CoNLL-U, the system starts from its "
                  "'# text' lines and is scored as the CoNLL 2018 shared task scores raw "
                  "text: token, word and sentence F1 and the columns over the aligned words")
    evaluate.set_defaults(func=cmd_tag_evaluate)
    apply = commands.add_parser("apply", help="tag raw text, tokens or CoNLL-U")
    apply.add_argument("model")
    apply.add_argument("data", help="CoNLL-U (its tags are ignored), tokens one sentence a "
                       "line, or raw text ('-': standard input)")
    apply.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    apply.add_argument("--output-format", choices=["auto", "conllu", "text"], default="auto",
                       help="CoNLL-U with the predicted columns filled, every other column "
                       "and comment kept, or word/TAG text, one sentence a line (default: "
                       "conllu for CoNLL-U or raw text input, text for words)")
    _data_options(apply, "raw text when the model holds a tokenizer, words when not")
    apply.set_defaults(func=cmd_tag_apply)
    tokenize = commands.add_parser("tokenize", help="raw text to tokens and sentences")
    tokenize.add_argument("model", help="a tagger's model file holding a tokenizer, or a "
                          "Tokenizer's")
    tokenize.add_argument("data", help="raw text ('-': standard input)")
    tokenize.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    tokenize.add_argument("--output-format", choices=["conllu", "text"], default="conllu",
                          help="CoNLL-U (# sent_id, # text, multiword tokens, SpaceAfter=No; "
                          "the other columns _) or a sentence a line, its tokens separated by "
                          "spaces (default conllu)")
    tokenize.set_defaults(func=cmd_tag_tokenize)

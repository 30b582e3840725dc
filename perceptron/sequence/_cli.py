"""The command line's ``tag`` commands: train, evaluate and apply a tagger.

perceptron tag train DATA -o MODEL, perceptron tag evaluate MODEL DATA and
perceptron tag apply MODEL DATA.  DATA is CoNLL-U (a name ending in .conllu,
optionally compressed, or --format conllu), or text with one sentence a
line, tokens separated by white space: for train and evaluate each token is
word/TAG (split at its last /), for apply plain words.  apply writes
CoNLL-U input back as CoNLL-U with the predicted columns filled, text as one
sentence a line of word/TAG tokens.  train --columns all learns UPOS, XPOS,
FEATS and lemmas (a morphological tagger); evaluate reports per-tag and
unknown-word accuracy, and a morphological tagger's CoNLL 2018 scores.
"""
import argparse
import os
import sys
import time

from perceptron.io import read_conllu
from perceptron.sequence._cli_morph import apply_model, evaluate_model, load_tagger, train_morph
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
    if given != "auto":
        return given
    name = os.fsdecode(path).lower()
    for suffix in _COMPRESSED:
        name = name.removesuffix(suffix)
    return "conllu" if name.endswith(".conllu") else "text"


def _open_text(path):
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


def _text_sentences(path, tagged):
    """The sentences of a text file, one a line: token lists (a blank line an
    empty list, so that apply writes a line for every line it reads), or
    (word, tag) lists of the non-blank lines when `tagged` (tokens
    ``word/TAG``)."""
    f, close = _open_text(path)
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


def _tagged(args):
    if _format(args.data, args.format) == "conllu":
        return read_conllu(sys.stdin if args.data == "-" else args.data, column=args.column)
    return _text_sentences(args.data, tagged=True)


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
    if args.columns is not None:
        if _format(args.data, args.format) != "conllu":
            raise ValueError("--columns trains on CoNLL-U: give a .conllu file or --format "
                             "conllu")
        return train_morph(args, out)
    sentences = list(_tagged(args))
    n_tokens = sum(len(s) for s in sentences)
    tagger = PerceptronTagger(n_features=args.n_features, max_iter=args.epochs,
                              random_state=args.seed)
    start = time.perf_counter()
    tagger.fit(sentences)
    seconds = time.perf_counter() - start
    tagger.save(args.output)
    print(f"trained {tagger!r} on {len(sentences)} sentences, {n_tokens} tokens, "
          f"{len(tagger.classes_)} tags in {seconds:.3f} s", file=out)
    if args.dev:
        dev = list(read_conllu(args.dev, column=args.column)
                   if _format(args.dev, "auto") == "conllu" else
                   _text_sentences(args.dev, tagged=True))
        print(f"dev accuracy {tagger.evaluate(dev):.4f} ({sum(map(len, dev))} tokens)",
              file=out)
    print(f"wrote {args.output}", file=out)
    return 0


def cmd_tag_evaluate(args, out):
    tagger = load_tagger(args.model)
    is_conllu = _format(args.data, args.format) == "conllu"
    pairs = None if is_conllu else list(_text_sentences(args.data, tagged=True))
    return evaluate_model(tagger, args, pairs, is_conllu, out)


def cmd_tag_apply(args, out):
    _refuse_overwrite(args.output, args.model, args.data)
    tagger = load_tagger(args.model)
    is_conllu = _format(args.data, args.format) == "conllu"
    words = None if is_conllu else list(_text_sentences(args.data, tagged=False))
    return apply_model(tagger, args, words, is_conllu, out)


def _data_options(p):
    p.add_argument("--format", choices=["auto", "conllu", "text"], default="auto",
                   help="CoNLL-U or one sentence a line (default: conllu for a name ending "
                   "in .conllu, optionally .gz/.bz2/.xz, else text)")
    p.add_argument("--column", choices=["upos", "xpos"], default="upos",
                   help="CoNLL-U: the tags to learn or score (default upos)")


def _tag_help(parser):
    def show(args, out):
        parser.print_help(out)
        return 2
    return show


def add_tag_commands(sub):
    """Add ``tag train|evaluate|apply`` to the command line's subparsers."""
    tag = sub.add_parser("tag", help="part-of-speech tagging: train, evaluate, apply",
                         description=__doc__.split("\n\n")[1],
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    tag.set_defaults(func=_tag_help(tag))
    commands = tag.add_subparsers(dest="tag_command", metavar="command")
    train = commands.add_parser("train", help="train a tagger on tagged sentences")
    train.add_argument("data", help="tagged sentences (CoNLL-U, or word/TAG text; '-': "
                       "standard input)")
    train.add_argument("-o", "--output", required=True, metavar="MODEL")
    _data_options(train)
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
    train.set_defaults(func=cmd_tag_train)
    evaluate = commands.add_parser("evaluate", help="token accuracy on tagged sentences")
    evaluate.add_argument("model")
    evaluate.add_argument("data")
    _data_options(evaluate)
    evaluate.set_defaults(func=cmd_tag_evaluate)
    apply = commands.add_parser("apply", help="tag sentences: one a line, word/TAG tokens")
    apply.add_argument("model")
    apply.add_argument("data", help="CoNLL-U (its tags are ignored) or text, one sentence a "
                       "line ('-': standard input)")
    apply.add_argument("-o", "--output", metavar="FILE", help="default: standard output")
    apply.add_argument("--output-format", choices=["auto", "conllu", "text"], default="auto",
                       help="CoNLL-U with the predicted columns filled, every other column "
                       "and comment kept, or word/TAG text (default: conllu for CoNLL-U input, "
                       "else text)")
    _data_options(apply)
    apply.set_defaults(func=cmd_tag_apply)

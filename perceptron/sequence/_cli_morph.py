"""The ``tag`` commands on CoNLL-U documents: the morphological tagger's
training, and for both taggers the evaluation with per-tag and unknown-word
accuracy and the CoNLL 2018 scores, and CoNLL-U written back with the
predicted columns filled."""
import copy
import os
import sys
import time

import numpy as np

from perceptron._core import featurize as _featurize
from perceptron.io import ConlluSentence, read_conllu_sentences, write_conllu
from perceptron.sequence._evaluate import METRICS, conll18_scores, tag_report
from perceptron.sequence._morph import COLUMNS, MorphTagger
from perceptron.sequence._tagger import PerceptronTagger

__all__ = ["parse_columns", "train_morph", "evaluate_model", "apply_model", "load_tagger",
           "check_tagger", "fill_columns", "open_output"]

_FIELD = {"upos": 3, "xpos": 4, "feats": 5, "lemma": 2}


def parse_columns(text):
    """None for "all" (every column the file fills), else the list."""
    if text == "all":
        return None
    cols = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in cols if c not in COLUMNS]
    if bad or not cols:
        raise ValueError(f"--columns must be 'all' or a comma-separated list of "
                         f"{', '.join(COLUMNS)}, got {text!r}")
    return cols


def _documents(path):
    return list(read_conllu_sentences(sys.stdin if path == "-" else path))


def train_morph(args, out, tokenizer=None):
    """tag train --columns: a MorphTagger on a CoNLL-U file, early stopping
    on --dev; ``tokenizer(train, dev)``, when given, makes the tokenizer the
    model file holds beside it (or None)."""
    train = _documents(args.data)
    dev = _documents(args.dev) if args.dev else None
    tagger = MorphTagger(columns=parse_columns(args.columns), n_features=args.n_features,
                         max_iter=args.epochs, random_state=args.seed)
    start = time.perf_counter()
    tagger.fit(train, dev=dev)
    seconds = time.perf_counter() - start
    n_words = sum(len(s.words) for s in train)
    print(f"trained MorphTagger ({', '.join(tagger.columns_)}) on {len(train)} sentences, "
          f"{n_words} words in {seconds:.3f} s", file=out)
    tok = None if tokenizer is None else tokenizer(train, dev)
    if tok is not None:
        setattr(tagger, "tokenizer_", tok)  # saved in its model file
    tagger.save(args.output)
    if dev is not None:
        system = _predict(tagger, dev)
        _print_scores(tagger, dev, system, out, prefix="dev ")
    print(f"wrote {args.output}", file=out)
    return 0


def _predict(tagger, gold):
    system = copy.deepcopy(gold)
    tagger.annotate(system)
    return system


def _known(tagger, gold):
    forms = [r[1] for s in gold for r in s.words]
    if isinstance(tagger, MorphTagger):
        mask = tagger.known_words(forms)
    else:
        keys = tagger.ambiguity_keys_
        h = _featurize.lower_hashes(forms)
        pos = np.minimum(np.searchsorted(keys, h), max(len(keys) - 1, 0))
        mask = keys[pos] == h if len(keys) else np.zeros(len(h), dtype=bool)
    return {f for f, k in zip(forms, mask.tolist()) if k}


def _print_scores(tagger, gold, system, out, prefix="", column=None):
    if isinstance(tagger, MorphTagger):
        scores = conll18_scores(gold, system)
        learnt = set(tagger.columns_.tolist())
        needs = {"UPOS": {"upos"}, "XPOS": {"xpos"}, "UFeats": {"feats"},
                 "AllTags": {"upos", "xpos", "feats"}, "Lemmas": {"lemma"}}
        shown = [m for m in METRICS if needs[m] <= learnt]
        print(prefix + "  ".join(f"{m} {scores[m]:.4f}" for m in shown) +
              f"  ({scores['Words']} words; CoNLL 2018 scores, gold tokenization)", file=out)
        columns = [c for c in tagger.columns_.tolist() if c != "lemma"][:1]
    else:
        columns = [column or "upos"]
    known = _known(tagger, gold)
    for c in columns:
        report = tag_report(gold, system, c, known=known)
        n_unknown, unknown = report["unknown"]
        print(f"{prefix}{c} accuracy {report['accuracy']:.4f}; unknown words "
              f"{unknown:.4f} ({n_unknown} words)", file=out)
        for tag, (n, acc) in report["per_tag"].items():
            print(f"  {tag:<12} {acc:.4f}  ({n})", file=out)


def _text_documents(sentences, column):
    """word/TAG sentences as CoNLL-U rows with the tag in its column."""
    out = []
    for s in sentences:
        rows = []
        for i, (w, t) in enumerate(s, 1):
            row = [str(i), w] + ["_"] * 8
            row[_FIELD[column]] = t
            rows.append(row)
        out.append(ConlluSentence([], rows))
    return out


def evaluate_model(tagger, args, gold_pairs, is_conllu, out):
    """tag evaluate: accuracy, per-tag and unknown-word accuracy (and the
    CoNLL 2018 scores of a MorphTagger)."""
    column = getattr(args, "column", "upos")
    if is_conllu:
        gold = _documents(args.data)
    else:
        if isinstance(tagger, MorphTagger):
            column = "upos"
        gold = _text_documents(gold_pairs, column)
    start = time.perf_counter()
    if isinstance(tagger, MorphTagger) and not is_conllu:
        system = copy.deepcopy(gold)
        predicted, _ = tagger.predict_columns([[r[1] for r in s.words] for s in system])
        k = 0
        for s in system:
            for r in s.words:
                r[3] = predicted["upos"][k]
                k += 1
        seconds = time.perf_counter() - start
        n = sum(len(s.words) for s in gold)
        report = tag_report(gold, system, "upos", known=_known(tagger, gold))
        print(f"accuracy {report['accuracy']:.4f} on {len(gold)} sentences, {n} tokens "
              f"({n / max(seconds, 1e-9):,.0f} tokens/s)", file=out)
        return 0
    system = _predict(tagger, gold) if isinstance(tagger, MorphTagger) else \
        _predict_column(tagger, gold, column)
    seconds = time.perf_counter() - start
    n = sum(len(s.words) for s in gold)
    if not isinstance(tagger, MorphTagger):
        report = tag_report(gold, system, column)
        print(f"accuracy {report['accuracy']:.4f} on {len(gold)} sentences, {n} tokens "
              f"({n / max(seconds, 1e-9):,.0f} tokens/s)", file=out)
    else:
        print(f"tagged {len(gold)} sentences, {n} words ({n / max(seconds, 1e-9):,.0f} "
              "words/s)", file=out)
    _print_scores(tagger, gold, system, out, column=column)
    return 0


def _predict_column(tagger, gold, column):
    system = copy.deepcopy(gold)
    fill_columns(tagger, system, column)
    return system


def fill_columns(tagger, sentences, column="upos"):
    """Fill, in place, the columns a MorphTagger learnt, or the `column` a
    PerceptronTagger predicts, of CoNLL-U sentences."""
    if isinstance(tagger, MorphTagger):
        tagger.annotate(sentences)
        return
    tags, _ = tagger.predict_sents([[r[1] for r in s.words] for s in sentences])
    k = 0
    for s in sentences:
        for r in s.words:
            r[_FIELD[column]] = tags[k]
            k += 1


def apply_model(tagger, args, words, is_conllu, out):
    """tag apply: CoNLL-U in, CoNLL-U out with the predicted columns filled
    (or word/TAG text with --output-format text); text in, word/TAG out."""
    form = args.output_format
    if form == "auto":
        form = "conllu" if is_conllu else "text"
    column = getattr(args, "column", "upos")
    if is_conllu:
        docs = _documents(args.data)
    else:
        docs = [ConlluSentence([], [[str(i), w] + ["_"] * 8 for i, w in enumerate(s, 1)])
                for s in words]
    if isinstance(tagger, MorphTagger):
        tagger.annotate(docs)
        column = "upos"
    else:
        filled = _predict_column(tagger, docs, column)
        docs = filled
    target = args.output
    if form == "conllu":
        write_conllu(docs, out if target in (None, "-") else target)
        return 0
    f = open_output(target, out)
    try:
        for s in docs:
            f.write(" ".join(f"{r[1]}/{r[_FIELD[column]]}" for r in s.words))
            f.write("\n")
    finally:
        if f is not out:
            f.close()
    return 0


def open_output(target, out):
    """The text file an output is written to: `out` for None or '-', else
    the regular file `target` (made, or replaced), refused when something
    other than a regular file (a folder, a device, a pipe) has its name."""
    if target in (None, "-"):
        return out
    if os.path.exists(target) and not os.path.isfile(target):
        raise ValueError(f"{target!r} exists and is not a regular file: an output is written "
                         "only to a regular file")
    return open(target, "w", encoding="utf-8")


def load_tagger(path):
    """The PerceptronTagger or MorphTagger of a model file."""
    from perceptron.io import load_model
    return check_tagger(load_model(sys.stdin.buffer if path == "-" else path), path)


def check_tagger(model, path):
    """The model loaded from `path`, refused unless a tagger."""
    if not isinstance(model, (PerceptronTagger, MorphTagger)):
        raise TypeError(f"{path!r} holds a {type(model).__name__}, not a tagger (train one "
                        "with perceptron tag train)")
    return model

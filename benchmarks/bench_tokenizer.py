"""Tokenizing raw text: perceptron.tagging.Tokenizer trained on a treebank's
train split, scored on the raw text of its dev split.

For each treebank of ``../shared/data`` (UD English EWT, Afrikaans
AfriBooms, Vietnamese VTB): the tokenizer is trained on the train file
(``Tokenizer(max_iter=...).fit(path)``), the dev file's raw text is made as
the UD tools write it (``raw_text``: the sentences' ``# text`` joined by a
space, an empty line before each new document or paragraph), tokenized
(``to_conllu``), and scored against the dev file by ``segmentation_scores``:
token, word and sentence precision, recall and F1 as the CoNLL 2018 shared
task defines them (Zeman et al. 2018, section 2).  Training and tokenizing
are timed in CPU seconds of this process (one core).

Target (EWT): token F1 on dev >= 0.99, beside UDPipe 1's tokenizer trained
on the same file.

UDPipe 1 (``pip install ufal.udpipe``, a benchmark dependency only; Straka
and Straková 2017) trains its tokenizer, a GRU network over characters, on
the same train file with its default tokenizer options and no tagger or
parser (``Trainer.train("morphodita_parsito", train, no heldout, "", "none",
"none")``); its output on the same raw text is scored the same way.  Its
training takes long, so the figures measured once are kept below
(``UDPIPE``) with their date and settings and printed beside ours;
``--udpipe`` trains and scores it again (``--udpipe-options "epochs=1"`` to
time one epoch).

Data: ``../shared/data`` beside the checkout, or ``--data DIR``.
"""
import argparse
import io
import os
import pathlib
import time

from perceptron.io._conllu_doc import read_conllu_sentences
from perceptron.tagging import Tokenizer, raw_text, segmentation_scores

TREEBANKS = (("ud-ewt", "en_ewt-ud"), ("ud-afribooms", "af_afribooms-ud"),
             ("ud-vtb", "vi_vtb-ud"))

# UDPipe 1.4.0.1 (ufal.udpipe from PyPI), its tokenizer alone, trained with
# this script's --udpipe on this machine's EWT train file with its default
# options (tokenize_url=1, allow_spaces=0, dimension=24, epochs=100,
# batch_size=50, segment_size=50, learning_rate=0.005, dropout=0.1, no
# early stopping without a heldout file); F1 on the raw text of EWT dev,
# CPU seconds of training (one core).  Measured 2026-11-29, 05:11-05:34 UTC,
# on a 2-core AMD EPYC shared with other work (the time is CPU time).
UDPIPE = {
    "ud-ewt": {"Tokens": 0.9939, "Words": 0.9903, "Sentences": 0.8720, "seconds": 441.9},
}


def udpipe(train_path, dev_path, options=""):
    """UDPipe 1's tokenizer trained on train_path (tokenizer options
    `options`, "" for the defaults): its scores on the raw text of dev_path
    and its training CPU seconds."""
    from ufal.udpipe import InputFormat, Model, Pipeline, ProcessingError, Sentence, Sentences, \
        Trainer
    fmt = InputFormat.newConlluInputFormat()
    fmt.setText(pathlib.Path(train_path).read_text(encoding="utf-8"))
    sentences, err, s = Sentences(), ProcessingError(), Sentence()
    while fmt.nextSentence(s, err):
        sentences.push_back(s)
        s = Sentence()
    start = time.process_time()
    blob = Trainer.train("morphodita_parsito", sentences, Sentences(), options, "none", "none",
                         err)
    seconds = time.process_time() - start
    if err.occurred():
        raise RuntimeError(err.message)
    path = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"udpipe-tok-{os.getpid()}.model"
    path.write_bytes(blob if isinstance(blob, bytes) else blob.encode("latin-1"))
    model = Model.load(str(path))
    path.unlink()
    gold = list(read_conllu_sentences(dev_path))
    out = Pipeline(model, "tokenize", Pipeline.NONE, Pipeline.NONE, "conllu").process(
        raw_text(gold), err)
    if err.occurred():
        raise RuntimeError(err.message)
    return segmentation_scores(gold, list(read_conllu_sentences(io.StringIO(out)))), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).resolve().parent
    parser.add_argument("--data", default=str(here.parent.parent / "shared" / "data"))
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--udpipe", action="store_true",
                        help="train and score UDPipe 1's tokenizer on EWT now instead of "
                        "printing its kept figures (takes long)")
    parser.add_argument("--udpipe-options", default="",
                        help="UDPipe's tokenizer options with --udpipe (default: its defaults)")
    parser.add_argument("--only-udpipe", action="store_true",
                        help="with --udpipe: UDPipe alone")
    args = parser.parse_args()
    if args.udpipe:
        folder, stem = TREEBANKS[0]
        train = os.path.join(args.data, folder, stem + "-train.conllu")
        dev = os.path.join(args.data, folder, stem + "-dev.conllu")
        s, seconds = udpipe(train, dev, args.udpipe_options)
        print(f"{folder}: UDPipe 1 tokenizer ({args.udpipe_options or 'default options'}): "
              + ", ".join(f"{k} F1 {v['f1']:.4f}" for k, v in s.items())
              + f"; training {seconds:.1f} s CPU")
        if args.only_udpipe:
            return
    print(f"## tokenizer: train split -> raw text of the dev split, {args.max_iter} epochs")
    for folder, stem in TREEBANKS:
        train = os.path.join(args.data, folder, stem + "-train.conllu")
        dev = os.path.join(args.data, folder, stem + "-dev.conllu")
        if not (os.path.exists(train) and os.path.exists(dev)):
            print(f"{folder}: SKIPPED ({train} or {dev} is missing)")
            continue
        t0 = time.process_time()
        tok = Tokenizer(max_iter=args.max_iter).fit(train)
        t_train = time.process_time() - t0
        gold = list(read_conllu_sentences(dev))
        text = raw_text(gold)
        t0 = time.process_time()
        system = tok.to_conllu(text)
        t_tok = time.process_time() - t0
        s = segmentation_scores(gold, system)
        line = ", ".join(f"{k} F1 {v['f1']:.4f} (P {v['precision']:.4f} R {v['recall']:.4f})"
                         for k, v in s.items())
        print(f"{folder}: {line}; training {t_train:.1f} s CPU, tokenizing {len(text):,} "
              f"characters {t_tok:.2f} s CPU")
        theirs = UDPIPE.get(folder)
        if theirs is not None:
            print(f"    UDPipe 1 tokenizer (default options): "
                  + ", ".join(f"{k} F1 {theirs[k]:.4f}" for k in s)
                  + f"; training {theirs['seconds']:.1f} s CPU")
        if folder == "ud-ewt":
            f1 = s["Tokens"]["f1"]
            print(f"    EWT dev token F1 {f1:.4f} [target >= 0.99: "
                  f"{'met' if f1 >= 0.99 else 'MISSED'}]")


if __name__ == "__main__":
    main()

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

Target (EWT): token F1 on dev >= 0.99.

Data: ``../shared/data`` beside the checkout, or ``--data DIR``.
"""
import argparse
import os
import pathlib
import time

from perceptron.io._conllu_doc import read_conllu_sentences
from perceptron.tagging import Tokenizer, raw_text, segmentation_scores

TREEBANKS = (("ud-ewt", "en_ewt-ud"), ("ud-afribooms", "af_afribooms-ud"),
             ("ud-vtb", "vi_vtb-ud"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).resolve().parent
    parser.add_argument("--data", default=str(here.parent.parent / "shared" / "data"))
    parser.add_argument("--max-iter", type=int, default=10)
    args = parser.parse_args()
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
        if folder == "ud-ewt":
            f1 = s["Tokens"]["f1"]
            print(f"    EWT dev token F1 {f1:.4f} [target >= 0.99: "
                  f"{'met' if f1 >= 0.99 else 'MISSED'}]")


if __name__ == "__main__":
    main()

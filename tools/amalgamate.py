"""Make the one-file scoring subset of the C sources: embed/ptn_scoring.h and
embed/ptn_scoring.c (setup.py copies them into perceptron.get_include()).

A C project that scores saved models copies these two files: the model-file
reader, the labels, and the scoring of dense rows in scalar code, with no
training kernels and no SIMD dispatch.  They are the package's own sources
in csrc/ (the files of PARTS, which the package builds), put together with
their includes of each other removed, so that they cannot differ from what
the package runs; tests/compiled/test_c_scoring.py checks that they are
current.  Generated, they are kept beside csrc/ rather than in it: csrc/
holds the sources a maintainer edits.

    python tools/amalgamate.py           # write them
    python tools/amalgamate.py --check   # exit 1 if they are not current
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"
OUT = ROOT / "embed"

# in the order they are pasted: each after what it uses
HEADER_PARTS = ["ptn_config.h", "ptn_model_types.h", "ptn_scalar_sum.h", "ptn_model_file.h",
                "ptn_model_scalar.h"]
SOURCE_PARTS = ["model_file.c", "model_labels.c"]
PARTS = HEADER_PARTS + SOURCE_PARTS

LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s+"[^"]+"\s*$')

PREAMBLE = """/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * {name} - the scoring subset of the perceptron package's C sources, in
 * two files: ptn_scoring.h and ptn_scoring.c.  Made by tools/amalgamate.py
 * from the package's own files of csrc/, each below under its name:
 *   {parts}
 * Do not edit: edit those and run the script.
 *
 * Read a model file written by model.save(path) (ptn_model_file_open,
 * ptn_model_file_linear), its labels (ptn_model_file_n_labels,
 * ptn_model_file_label), and score dense rows in scalar C
 * (ptn_scalar_decision, ptn_scalar_decision_all, ptn_scalar_predict).
 * Compile ptn_scoring.c with the program: cc -std=c99 prog.c ptn_scoring.c
 */
"""


def _part(name):
    text = (CSRC / name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not LOCAL_INCLUDE.match(line)]
    return f"\n/* ---- {name} ---- */\n\n" + "\n".join(lines).strip("\n") + "\n"


def render():
    """{file name: text} of the two files."""
    header = (PREAMBLE.format(name="ptn_scoring.h", parts=" ".join(HEADER_PARTS))
              + "#ifndef PTN_SCORING_H\n#define PTN_SCORING_H\n"
              + "".join(_part(name) for name in HEADER_PARTS)
              + "\n#endif /* PTN_SCORING_H */\n")
    source = (PREAMBLE.format(name="ptn_scoring.c", parts=" ".join(SOURCE_PARTS))
              + '#include "ptn_scoring.h"\n'
              + "".join(_part(name) for name in SOURCE_PARTS))
    return {"ptn_scoring.h": header, "ptn_scoring.c": source}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the files differ from what the sources make")
    args = parser.parse_args(argv)
    stale = []
    for name, text in render().items():
        path = OUT / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8", newline="\n")
    if args.check and stale:
        print(f"not current: {', '.join(stale)}; run python tools/amalgamate.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

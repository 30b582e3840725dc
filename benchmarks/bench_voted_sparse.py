"""The voted perceptron on wide hashed text: its vectors kept as the updates
that made them, against the dense store it kept before.

The case: every sentence of UD English EWT's training file (12,544) hashed
by scikit-learn's HashingVectorizer into 2**18 columns, the label the
sentence's genre (answers, email, newsgroup, reviews, weblog: 5 classes),
``VotedPerceptron()`` with its defaults (10 epochs, 1,000 voters a
one-vs-rest problem).  Each measurement runs in a fresh process, which
reports its peak resident memory (ru_maxrss) beside the memory it held with
the rows loaded:

- updates: ``VotedPerceptron().fit(X, y)``, which over sparse rows keeps
  each vector as its update (the row's values, with the label's sign);
- dense store: the same compiled loop keeping each voter as a dense vector
  (``fit_voted(..., sparse=False)`` and ``decision_voted``, problem after
  problem, as ``fit`` did before the updates; ``fit`` now refuses this
  budget over dense rows, 9.8 GiB of vectors), ``--dense-store`` only: it
  needs about 12 GB of memory.

    python benchmarks/bench_voted_sparse.py [--ewt PATH] [--dense-store]
"""
import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
EWT = HERE.parent.parent / "shared" / "data" / "ud-ewt" / "en_ewt-ud-train.conllu"


def sentences(path):
    """(text, genre) of every sentence: '# text = ' and the sent_id's prefix."""
    out, text = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# text = "):
                text = line[len("# text = "):].rstrip("\n")
            elif line.startswith("# sent_id = "):
                genre = line[len("# sent_id = "):].split("-", 1)[0]
            elif not line.strip() and text is not None:
                out.append((text, genre))
                text = None
    return out


def rss_mb():
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(path, case):
    from sklearn.feature_extraction.text import HashingVectorizer

    from perceptron import VotedPerceptron

    texts, genres = zip(*sentences(path))
    X = HashingVectorizer(n_features=2**18).fit_transform(texts).tocsr()
    y = np.array(genres)
    loaded = rss_mb()
    if case == "updates":
        t0 = time.perf_counter()
        model = VotedPerceptron(random_state=0, n_jobs=1).fit(X, y)  # one thread, as below
        t1 = time.perf_counter()
        predicted = model.predict(X)
        t2 = time.perf_counter()
        stored = sum(v.nbytes + i.nbytes for v, i in zip(model.update_values_,
                                                         model.update_indices_))
    else:
        predicted, stored, (t0, t1, t2) = dense_store(X, y)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"rows": X.shape[0], "cols": X.shape[1], "nnz": X.nnz,
                      "classes": len(set(genres)), "fit": t1 - t0, "predict": t2 - t1,
                      "loaded_mb": loaded, "peak_mb": peak, "stored_mb": stored / 2**20,
                      "accuracy": float((predicted == y).mean())}))


def dense_store(X, y):
    """The fit and predict of the dense store: each voter a dense vector."""
    from perceptron._common.validation import check_X, check_random_seed, label_signs, mix64
    from perceptron._core import voted as _voted

    A = check_X(X, accept_sparse=True)
    classes = np.unique(y)
    seed = check_random_seed(0)
    n = A.shape[0]
    t0 = time.perf_counter()
    kept = [_voted.fit_voted(A, label_signs(y == label), np.arange(n, dtype=np.intp),
                             fit_intercept=True, shuffle=True, max_iter=10,
                             seed=mix64(seed ^ (j + 1)), max_vectors=1000)
            for j, label in enumerate(classes)]
    t1 = time.perf_counter()
    votes = np.empty((len(classes), n))
    for j, res in enumerate(kept):
        _voted.decision_voted(A, res["vectors"], res["intercepts"], res["counts"], votes[j])
    t2 = time.perf_counter()
    stored = sum(res["vectors"].nbytes for res in kept)
    return classes[np.argmax(votes, axis=0)], stored, (t0, t1, t2)


def run(path, case):
    out = subprocess.run([sys.executable, __file__, "--ewt", str(path), "--child", case],
                         capture_output=True, text=True, cwd=HERE.parent)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ewt", default=str(EWT), help="en_ewt-ud-train.conllu")
    parser.add_argument("--dense-store", action="store_true",
                        help="also measure the dense store (about 12 GB of memory)")
    parser.add_argument("--child", choices=["updates", "dense"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.ewt, args.child)
    if not os.path.exists(args.ewt):
        raise SystemExit(f"{args.ewt}: not found (--ewt PATH)")
    cases = ["updates"] + (["dense"] if args.dense_store else [])
    results = {case: run(args.ewt, case) for case in cases}
    r = results["updates"]
    print(f"## VotedPerceptron() on {r['rows']:,} EWT sentences hashed into {r['cols']:,} "
          f"columns ({r['nnz']:,} stored values), {r['classes']} classes (genre)")
    for case, r in results.items():
        name = "updates" if case == "updates" else "dense store"
        print(f"{name:12s}: fit {r['fit']:.2f} s, predict {r['predict']:.2f} s, peak RSS "
              f"{r['peak_mb']:,.0f} MB ({r['peak_mb'] - r['loaded_mb']:,.0f} MB beyond the "
              f"rows loaded), voters kept in {r['stored_mb']:,.1f} MB, training accuracy "
              f"{r['accuracy']:.3f}")
    if "dense" in results:
        u, d = results["updates"], results["dense"]
        print(f"dense store / updates: fit {d['fit'] / u['fit']:.1f}x, predict "
              f"{d['predict'] / u['predict']:.1f}x, peak beyond the rows "
              f"{(d['peak_mb'] - d['loaded_mb']) / max(u['peak_mb'] - u['loaded_mb'], 1):.1f}x")


if __name__ == "__main__":
    main()

"""The command line: ``python -m perceptron <command>`` or ``perceptron <command>``.

Commands
--------
train     fit a model on a data file and write it to a model file
predict   labels (or scores) of a data file's rows, by a saved model
evaluate  accuracy, confusion matrix and per-class precision/recall of a saved model
demo      train on the breast cancer data shipped with the package, print results
info      the package version, its SIMD level and the CPU's capabilities
tag       part-of-speech tagging: ``tag train|evaluate|apply`` (see ``tag --help``)

Data files: svmlight/libsvm text, CSV (numbers, the label in the last column
unless ``--label-column`` says otherwise, an optional header line) and numpy
(``.npz`` with arrays ``X`` and ``y``; ``.npy`` for X with ``--labels`` for
y), compressed or not (gzip, bzip2, xz).  The format is the name's when its
suffix tells (``.svm``, ``.libsvm``, ``.svmlight``, ``.csv``, ``.npz``,
``.npy``), else the one the first bytes show (``a9a``, ``a9a.t``,
``data.txt.gz``, standard input as ``-``).  Predicted labels are written as
the data spells them: integers as integers, with a ``+`` on positive ones
when the data file writes its positive labels so (LIBSVM's ``+1``).
Errors print one line on standard error and exit with status 1; a closed
output pipe (``| head``) ends the command quietly with status 141.
"""
import argparse
import os
import sys
import time
import warnings

import numpy as np

from perceptron import io as pio
from perceptron.sequence._cli import add_tag_commands
from perceptron.io._data_files import DEFAULT_MAX_LINE_LENGTH, label_text, load_data, row_slice
from perceptron._version import DISTRIBUTION, __version__
from perceptron.simd import simd_info
from perceptron.datasets import load_breast_cancer
from perceptron.exceptions import ConvergenceWarning
from perceptron._common.validation import allowed_fit_bytes, max_fit_bytes
from perceptron.linear._centroid import CentroidClassifier
from perceptron.linear._perceptron import Perceptron
from perceptron.linear._voted import VotedPerceptron


def _split(n, test_fraction, seed):
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    n_test = int(round(n * test_fraction))
    return order[n_test:], order[:n_test]


def cmd_demo(args, out):
    ds = load_breast_cancer()
    X, y = ds.data, ds.target
    train, test = _split(len(y), 0.25, args.seed)
    mean, std = X[train].mean(axis=0), X[train].std(axis=0)
    X = (X - mean) / std  # the perceptron is sensitive to feature scale
    print(f"data: Breast Cancer Wisconsin (Diagnostic), {X.shape[0]} samples x "
          f"{X.shape[1]} features, classes {', '.join(map(str, np.unique(y)))}", file=out)
    print("      UCI Machine Learning Repository (Wolberg, Mangasarian, Street and Street, "
          "1995), CC BY 4.0; shipped in perceptron/datasets/data", file=out)
    print(f"split: {len(train)} train / {len(test)} test (seed {args.seed}), features "
          "standardised with the training mean and std", file=out)
    model = Perceptron(max_iter=args.epochs, random_state=args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X[train], y[train])
        seconds = time.perf_counter() - start
    print(f"model: {model!r}", file=out)
    print(f"  train accuracy  {model.score(X[train], y[train]):.4f}", file=out)
    print(f"  test accuracy   {model.score(X[test], y[test]):.4f}", file=out)
    print(f"  epochs          {model.n_iter_} (max_iter={args.epochs})", file=out)
    print(f"  updates         {model.t_} in all; mistakes in the first epochs "
          f"{model.mistakes_[:5].tolist()}, in the last {model.mistakes_[-5:].tolist()}", file=out)
    if model.converged_:
        verdict = "yes: an epoch without mistakes, the training set is separated"
    elif model.n_iter_ < args.epochs:
        verdict = (f"no: stopped by the tol rule, the epoch loss did not beat the best so far by "
                   f"tol={model.tol} per row for {model.n_iter_no_change} epochs in a row")
    else:
        verdict = (f"no: every one of the {model.n_iter_} epochs made mistakes (the training "
                   "set may not be linearly separable)")
    print(f"  converged       {verdict}", file=out)
    print(f"  fit time        {seconds * 1e3:.2f} ms with the {simd_info()['level']} kernels",
          file=out)
    print("the family on the same split (test accuracy):", file=out)
    family = [
        ("Perceptron(average=True)", Perceptron(average=True, max_iter=args.epochs,
                                                random_state=args.seed)),
        ("Perceptron(pocket=True)", Perceptron(pocket=True, max_iter=args.epochs,
                                               random_state=args.seed)),
        ("Perceptron(early_stopping=True, average=True)",
         Perceptron(early_stopping=True, average=True, max_iter=args.epochs,
                    random_state=args.seed)),
        ("VotedPerceptron()", VotedPerceptron(random_state=args.seed)),
        ("CentroidClassifier()", CentroidClassifier()),
    ]
    for name, estimator in family:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            estimator.fit(X[train], y[train])
        print(f"  {name:46s} {estimator.score(X[test], y[test]):.4f}", file=out)
    if args.plot:
        _demo_plot(args, X, y, train, test, out)
    return 0


def _demo_plot(args, X, y, train, test, out):
    """The learning curves of the demo (Daume III's figure 3.3) as an image."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from perceptron.plotting import learning_curve, plot_learning_curve

    fig, ax = plt.subplots(figsize=(8, 5))
    epochs = min(args.epochs, 60)
    for label, average in (("perceptron", False), ("averaged", True)):
        curve = learning_curve(Perceptron(max_iter=epochs, random_state=args.seed, average=average),
                               X[train], y[train], X[test], y[test])
        plot_learning_curve(curve, ax=ax, label=label)
    ax.set_title(f"breast cancer: training and held-out error per epoch ({epochs} epochs)")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=100)
    plt.close(fig)
    print(f"wrote {args.plot}", file=out)


def cmd_info(args, out):
    info = simd_info()
    print(f"{DISTRIBUTION} {__version__} (import name perceptron)", file=out)
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}", file=out)
    print(f"simd level {info['level']} (best supported: {info['best']}; "
          f"PERCEPTRON_SIMD={info['requested'] or 'unset'})", file=out)
    print(f"supported levels {', '.join(info['supported'])}; compiled "
          f"{', '.join(info['compiled'])}", file=out)
    features = ", ".join(k for k, v in info["cpu"].items() if v)
    print(f"cpu {info['machine']}: {features}", file=out)
    return 0


def _estimator(args):
    if args.progress_validation and args.algorithm in ("voted", "centroid"):
        raise ValueError(f"--progress-validation trains row by row, which --algorithm "
                         f"{args.algorithm} does not (it has no partial_fit)")
    if args.progress_validation and args.batch_size not in (None, 1):
        raise ValueError("--progress-validation trains row by row: it takes no --batch-size")
    params = {"max_iter": args.epochs, "eta0": args.eta0, "random_state": args.seed}
    if args.algorithm == "centroid":
        return CentroidClassifier()
    if args.algorithm == "voted":
        return VotedPerceptron(max_iter=args.epochs, random_state=args.seed)
    params.update(average=args.algorithm == "averaged", pocket=args.algorithm == "pocket",
                  margin=args.margin, batch_size=args.batch_size, multiclass=args.multiclass)
    if not (args.quiet or args.progress_validation):
        try:
            import tqdm  # noqa: F401

            params["progress"] = True
        except ImportError:
            params["verbose"] = 1
    return Perceptron(**params)


def _same_file(a, b):
    try:
        if os.path.samefile(a, b):
            return True
    except OSError:  # one of them does not exist (yet)
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def refuse_overwrite(output, *inputs):
    """A ValueError when the output path is one of the inputs (before
    anything is read or written)."""
    if output is None or output == "-":
        return
    for path in inputs:
        if path is not None and path != "-" and _same_file(output, path):
            raise ValueError(f"the output {output} is the input {path}: refusing to overwrite "
                             "it")


def check_output_path(path, option="-o"):
    """A ValueError naming the path when a file cannot be written there: a
    folder that does not exist or cannot be written in, or a folder given as
    the file (checked before anything is read or trained)."""
    if path is None or path == "-":
        return
    if os.path.isdir(path):
        raise ValueError(f"{option} {path}: that is a folder, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path}: the folder {folder} is not writable")


def _gib(n):
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"


def weight_memory(args, n_features, n_classes, itemsize):
    """The least number of bytes of the weight arrays a fit of `args` makes,
    n_features wide: one vector per class (one for two classes; a class per
    label column of a multi-label y) of the weights the loops update, and,
    with averaging, mini-batches or the pocket, of the float64 sums, the
    summed steps or the kept copy.  The voted perceptron keeps a vector a
    mistake besides (at least one), the centroid classifier float64 sums."""
    k = 1 if n_classes <= 2 else n_classes
    if args.algorithm == "voted":
        per_value = 2 * itemsize
    elif args.algorithm == "centroid":
        k, per_value = max(n_classes, 1), 8 + itemsize
    else:
        per_value = itemsize + 8 * (args.algorithm == "averaged") \
            + itemsize * (args.algorithm == "pocket") + 8 * (args.batch_size is not None)
    return k * n_features * per_value


def check_weight_memory(args, X, y):
    """A ValueError before training when the weights would take more than
    --max-weight-memory: an svmlight file's width is its largest index, and
    one line of 26 bytes can ask for gigabytes."""
    y = np.asarray(y)
    n_classes = y.shape[1] if y.ndim == 2 else len(np.unique(y))
    dtype = np.dtype(getattr(X, "dtype", np.float64))
    itemsize = dtype.itemsize if dtype in (np.float32, np.float64) else 8
    n_features = int(X.shape[1])
    need = weight_memory(args, n_features, n_classes, itemsize)
    if args.max_weight_memory is None:  # the library's limit: $PERCEPTRON_MAX_FIT_BYTES or 4G
        args.max_weight_memory = max_fit_bytes()
    if need > args.max_weight_memory:
        k = 1 if n_classes <= 2 and args.algorithm != "centroid" else n_classes
        raise ValueError(
            f"the weights would take at least {_gib(need)} ({n_features:,} features, the largest "
            f"feature index of {args.data} (or --n-features), x {k} weight vector(s), with "
            f"what --algorithm {args.algorithm} keeps while training), more than "
            f"--max-weight-memory {_gib(args.max_weight_memory)}: raise --max-weight-memory "
            "if the machine has the memory, or, for data this wide, hash the features into "
            "fewer columns (the hashing trick: index mod 2**20, say)")


def _binary(out):
    """The binary stream under a text output (sys.stdout's buffer)."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        raise ValueError("-o -: this output takes no bytes")
    out.flush()
    return buffer


def cmd_train(args, out):
    refuse_overwrite(args.output, args.data, args.labels)
    check_output_path(args.output)
    to_stdout = args.output == "-"
    report = sys.stderr if to_stdout else out  # standard output carries the model
    X, y = data = load_data(args.data, args.format, args.labels, args.label_column,
                            n_features=args.n_features, max_line_length=args.max_line_length,
                            binary=args.binary)
    if args.n_features is not None and X.shape[1] != args.n_features:
        raise ValueError(f"--n-features {args.n_features}: {args.data} has {X.shape[1]} "
                         "columns (the option sets the width of svmlight rows)")
    check_weight_memory(args, X, y)
    model = _estimator(args)
    start = time.perf_counter()
    with warnings.catch_warnings(), allowed_fit_bytes(args.max_weight_memory):
        warnings.simplefilter("ignore", ConvergenceWarning)
        if args.progress_validation:
            progressive_validation(model, X, y, report, plus=data.plus)
            for _ in range(args.epochs - 1):
                model.partial_fit(X, y)
        else:
            model.fit(X, y)
    seconds = time.perf_counter() - start
    if to_stdout:
        pio.save_model(model, _binary(out))
        out.flush()
    else:
        model.save(args.output)
    print(f"trained {model!r} on {X.shape[0]} rows x {X.shape[1]} features in "
          f"{seconds:.3f} s", file=report)
    if args.progress_validation:  # one partial_fit a row: n_iter_ counts rows, not epochs
        print(f"epochs {args.epochs} (the first progressive, in the file's order); training "
              f"accuracy {model.score(X, y):.4f}", file=report)
    elif hasattr(model, "n_iter_"):
        state = "converged" if getattr(model, "converged_", False) else "did not converge"
        print(f"epochs {model.n_iter_}, {state}; training accuracy "
              f"{model.score(X, y):.4f}", file=report)
    print(f"wrote {'the model to standard output' if to_stdout else args.output}", file=report)
    return 0


def _row(X, i):
    return row_slice(X, i, i + 1)


def progressive_validation(model, X, y, out, plus=False):
    """Train `model` row by row in the file's order, each row first scored
    by the model trained on the rows before it (progressive validation:
    Blum, Kalai and Langford 1999, as Vowpal Wabbit reports it), and print
    the mistake rate so far and since the last line at rows 1, 2, 4, 8, ...
    and at the last row.  Returns the number of mistakes.

    Before the first row the model has no weights: its score is zero, which
    predicts the first of the sorted classes, as a model of zero weights
    does."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError("--progress-validation needs one label per row")
    classes = np.unique(y)
    n = y.shape[0]
    print(f"{'rows':>12} {'mistake rate':>13} {'since last':>11}  label  predicted", file=out)
    mistakes = since = 0
    last, report_at = 0, 1
    for i in range(n):
        row = _row(X, i)
        predicted = model.predict(row)[0] if i else classes[0]
        wrong = bool(predicted != y[i])
        mistakes += wrong
        since += wrong
        if i == 0:
            model.partial_fit(row, y[:1], classes=classes)
        else:
            model.partial_fit(row, y[i:i + 1])
        rows = i + 1
        if rows == report_at or rows == n:
            print(f"{rows:>12d} {mistakes / rows:>13.6f} {since / (rows - last):>11.6f}  "
                  f"{label_text(y[i], plus):>5}  {label_text(predicted, plus)}", file=out)
            last, since = rows, 0
            while report_at <= rows:
                report_at *= 2
    return mistakes


def _load_for(args):
    refuse_overwrite(getattr(args, "output", None), args.model, args.data, args.labels)
    check_output_path(getattr(args, "output", None))
    if args.model == "-" and args.data == "-":
        raise ValueError("the model and the data cannot both be standard input ('-')")
    model = pio.load_model(sys.stdin.buffer if args.model == "-" else args.model)
    if type(model).__module__.startswith("perceptron.sequence."):
        raise ValueError(f"{args.model} holds a {type(model).__name__}, a model of tag "
                         "sequences, not of data rows: tag text with `perceptron tag apply "
                         "MODEL FILE` (see perceptron tag --help)")
    data = load_data(args.data, args.format, args.labels, args.label_column,
                     n_features=getattr(model, "n_features_in_", None),
                     need_labels=args.command == "evaluate",
                     max_line_length=args.max_line_length, wider=args.unknown_features)
    n_features = getattr(model, "n_features_in_", None)
    if data.format == "csv" and args.label_column is None and n_features is not None \
            and data[0].shape[1] + 1 == n_features:
        raise ValueError(f"{args.data} has {n_features} columns, the last taken as the "
                         f"labels, and the model {n_features} features: pass --label-column "
                         "none for a file without labels")
    if data.ignored:
        print(f"perceptron {args.command}: ignored {data.ignored} value(s) of features beyond "
              f"the model's {model.n_features_in_} (--unknown-features error refuses them)",
              file=sys.stderr)
    return model, data


def _write_lines(out, lines, block=4096):
    """The lines, `block` at a time: a reader that goes away (``| head``) is
    met at the next block, even on an unbuffered stream, whose one large
    write would end short without an error."""
    for start in range(0, len(lines), block):
        out.write("\n".join(lines[start:start + block]) + "\n")


def cmd_predict(args, out):
    model, data = _load_for(args)
    X = data[0]
    if args.scores:
        values = np.asarray(model.decision_function(X))
        lines = [",".join(repr(float(v)) for v in np.atleast_1d(row)) for row in values]
    else:
        lines = [label_text(v, data.plus) if np.ndim(v) == 0 else
                 " ".join(label_text(u) for u in v)
                 for v in np.asarray(model.predict(X)).tolist()]
    if args.output in (None, "-"):
        _write_lines(out, lines)
    else:
        with open(args.output, "w") as fh:
            _write_lines(fh, lines)
        print(f"wrote {len(lines)} {'scores' if args.scores else 'labels'} to {args.output}",
              file=out)
    return 0


def classification_report(y_true, y_pred, classes):
    """(accuracy, confusion matrix, [(class, precision, recall, f1, support)])."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    index = {c: i for i, c in enumerate(np.asarray(classes).tolist())}
    k = len(index)
    confusion = np.zeros((k, k), dtype=np.int64)
    for t, p in zip(y_true.tolist(), y_pred.tolist()):
        if t not in index:
            raise ValueError(f"the data has the label {t!r}, which the model does not know "
                             f"(its classes: {list(index)})")
        confusion[index[t], index[p]] += 1
    rows = []
    for c, i in index.items():
        tp = confusion[i, i]
        predicted, support = confusion[:, i].sum(), confusion[i, :].sum()
        precision = tp / predicted if predicted else 0.0
        recall = tp / support if support else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        rows.append((c, float(precision), float(recall), float(f1), int(support)))
    accuracy = float(np.trace(confusion) / max(confusion.sum(), 1))
    return accuracy, confusion, rows


def cmd_evaluate(args, out):
    model, data = _load_for(args)
    X, y = data
    if np.asarray(y).ndim != 1:
        raise ValueError("evaluate needs one label per row")
    accuracy, confusion, rows = classification_report(y, model.predict(X), model.classes_)
    names = [label_text(c, data.plus) for c in np.asarray(model.classes_).tolist()]
    width = max(8, max(len(n) for n in names) + 1)
    print(f"{type(model).__name__} on {len(y)} rows of {args.data}", file=out)
    print(f"accuracy {accuracy:.4f}", file=out)
    print("confusion matrix (rows: true class, columns: predicted)", file=out)
    print(" " * width + "".join(f"{n:>{width}}" for n in names), file=out)
    for name, row in zip(names, confusion):
        print(f"{name:>{width}}" + "".join(f"{v:>{width}d}" for v in row), file=out)
    print(f"{'class':>{width}}{'precision':>11}{'recall':>9}{'f1':>9}{'support':>9}", file=out)
    for c, precision, recall, f1, support in rows:
        print(f"{label_text(c, data.plus):>{width}}{precision:>11.4f}{recall:>9.4f}"
              f"{f1:>9.4f}{support:>9d}", file=out)
    return 0


def _byte_count(text):
    """A number of bytes: an integer, optionally with K, M or G (binary units)."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    t = text.strip().lower().removesuffix("ib").removesuffix("b")
    scale = units.get(t[-1:], 1)
    try:
        value = int(t[:-1] if scale > 1 else t) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bytes (e.g. 65536, "
                                         "64M, 1G)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1 byte")
    return value


def _data_options(p, labels_help="labels of an .npy X (an .npy file)"):
    p.add_argument("--format", choices=["auto", "svmlight", "csv", "npz", "npy"], default="auto",
                   help="the data file's format (default: from its name, else from its first "
                   "bytes)")
    p.add_argument("--labels", metavar="FILE", help=labels_help)
    p.add_argument("--label-column", metavar="COLUMN",
                   help="CSV: the label column, an index or a header name (default: the "
                   "last); none: no labels, every column a feature")
    p.add_argument("--max-line-length", type=_byte_count, metavar="BYTES",
                   default=DEFAULT_MAX_LINE_LENGTH,
                   help="svmlight: the longest line read, in bytes, K, M or G "
                   "(default 64M); a longer line is an error naming it")


def _unknown_features_option(p):
    p.add_argument("--unknown-features", choices=["ignore", "error"], default="ignore",
                   help="svmlight: a feature index beyond the model's number of features "
                   "(one the training data never had) is ignored, as LIBLINEAR does, with a "
                   "count on standard error (default), or an error naming its line")


_INT64_MAX = (1 << 63) - 1


def _count(text):
    """A positive integer that the compiled loops can count to."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not 1 <= value <= _INT64_MAX:
        raise argparse.ArgumentTypeError(f"{text} is out of range (1 to 2**63 - 1)")
    return value


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, whose mistakes are one line and status 1, as every other error."""

    def error(self, message):
        raise _UsageError(f"{message} (see {self.prog} --help)")


def build_parser():
    parser = _Parser(prog="perceptron", description="The perceptron family at the command "
                     "line (also: python -m perceptron COMMAND).\nperceptron COMMAND --help "
                     "describes a command.",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{DISTRIBUTION} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="command")
    demo = sub.add_parser("demo", help="train on the shipped breast cancer data and report")
    demo.add_argument("--epochs", type=_count, default=1000, help="max_iter (default 1000)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the split and the shuffles")
    demo.add_argument("--plot", metavar="PATH", help="also write the learning curves as an image "
                      "(needs matplotlib)")
    demo.set_defaults(func=cmd_demo)
    info = sub.add_parser("info", help="version, SIMD level and CPU capabilities")
    info.set_defaults(func=cmd_info)

    train = sub.add_parser("train", help="fit a model on a data file and write a model file")
    train.add_argument("data", help="the training data ('-': standard input)")
    train.add_argument("-o", "--output", required=True, metavar="MODEL",
                       help="the model file to write ('-': standard output, as bytes; the "
                       "report then goes to standard error)")
    _data_options(train)
    train.add_argument("--max-weight-memory", type=_byte_count, metavar="BYTES",
                       help="refuse to train when the weights would take more than this, in "
                       "bytes, K, M or G (default: $PERCEPTRON_MAX_FIT_BYTES, else 4G); "
                       "checked before anything is allocated")
    train.add_argument("--n-features", type=_count, metavar="N",
                       help="svmlight: the number of features (default: the largest index "
                       "in the file); a model of N features takes test rows of indices up to "
                       "N")
    train.add_argument("--binary", action="store_true",
                       help="svmlight: every value in the file is 1 (one-hot or presence "
                       "features): the rows are read as their indices alone, without a value "
                       "per non-zero (the same model); a value other than 1 is an error "
                       "naming its line")
    train.add_argument("--algorithm", choices=["perceptron", "averaged", "pocket", "voted",
                                               "centroid"], default="perceptron",
                       help="the estimator: Perceptron, averaged (average=True), pocket "
                       "(pocket=True), VotedPerceptron or CentroidClassifier (default "
                       "perceptron)")
    train.add_argument("--epochs", type=_count, default=10, help="max_iter (default 10)")
    train.add_argument("--eta0", type=float, default=1.0,
                       help="the learning rate: each update adds eta0 * y * x (default 1.0)")
    train.add_argument("--margin", type=float, default=0.0,
                       help="update when y * score <= margin, a margin of at least 0 "
                       "(default 0.0)")
    train.add_argument("--batch-size", type=_count, default=None, metavar="N",
                       help="rows per mini-batch step (default: the online rule, a step "
                       "after each row)")
    train.add_argument("--multiclass", choices=["ovr", "multinomial"], default="ovr",
                       help="more than two classes: one-vs-rest binary models, or one "
                       "multinomial model updating the true and the best-scoring class "
                       "(default ovr)")
    train.add_argument("--seed", type=int, default=0,
                       help="seed of the shuffle of the rows at each epoch (default 0)")
    train.add_argument("--progress-validation", action="store_true",
                       help="train row by row in the file's order, each row scored before it "
                       "trains, and print the mistake rate so far and since the last line at "
                       "rows 1, 2, 4, 8, ... (the first epoch; --epochs - 1 more follow)")
    train.add_argument("-q", "--quiet", action="store_true",
                       help="no progress bar or per-epoch lines")
    train.set_defaults(func=cmd_train)

    predict = sub.add_parser("predict", help="labels or scores of a data file by a saved model")
    predict.add_argument("model", help="a model file written by train (or model.save; '-': "
                         "standard input)")
    predict.add_argument("data", help="the rows to predict ('-': standard input; labels in "
                         "the file are ignored)")
    predict.add_argument("-o", "--output", metavar="FILE",
                         help="where to write one line per row (default, or '-': standard "
                         "output)")
    predict.add_argument("--scores", action="store_true",
                         help="write the decision function (comma-separated per class)")
    _data_options(predict)
    _unknown_features_option(predict)
    predict.set_defaults(func=cmd_predict)

    evaluate = sub.add_parser("evaluate", help="accuracy, confusion matrix, precision/recall")
    evaluate.add_argument("model", help="a model file written by train (or model.save; "
                          "'-': standard input)")
    evaluate.add_argument("data", help="the rows and their labels ('-': standard input)")
    _data_options(evaluate)
    _unknown_features_option(evaluate)
    evaluate.set_defaults(func=cmd_evaluate)
    add_tag_commands(sub)
    return parser


def _one_line(exc):
    """An exception as one line of text."""
    message = " ".join(str(exc).split())
    if isinstance(exc, MemoryError):
        return f"out of memory{': ' + message if message else ''}"
    if isinstance(exc, OverflowError):
        return f"a number too large: {message}"
    if isinstance(exc, RecursionError):
        return f"nested too deeply: {message}"
    return message or type(exc).__name__


def _reader_gone():
    """The reader of standard output has closed it (``| head``): stop without
    a message, as a command killed by SIGPIPE does, and with its status
    (128 + 13).  Standard output is pointed at the null device, so that the
    interpreter's final flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return 141


def main(argv=None, out=None):
    out = sys.stdout if out is None else out
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print(f"perceptron: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    if args.command is None:
        parser.print_help(out)
        return 2
    try:
        return args.func(args, out)
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        print(f"perceptron {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # every failure is one line, never a traceback
        print(f"perceptron {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1

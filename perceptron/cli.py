"""The command line: ``python -m perceptron <command>`` or ``perceptron <command>``.

Commands
--------
train     fit a model on a data file and write it to a model file
predict   labels (or scores) of a data file's rows, by a saved model
evaluate  accuracy, confusion matrix and per-class precision/recall of a saved model
demo      train on the breast cancer data shipped with the package, print results
info      the package version, its SIMD level and the CPU's capabilities

Data files: svmlight/libsvm text (``.svm``, ``.libsvm``, ``.svmlight``, ``.txt``,
or any name with ``--format svmlight``; compressed ``.gz``/``.bz2``/``.xz``
too), CSV (``.csv``: numbers, the label in the last column unless
``--label-column`` says otherwise, an optional header line), and numpy
(``.npz`` with arrays ``X`` and ``y``; ``.npy`` for X with ``--labels`` for y).
Errors print one line and exit with status 1.
"""
import argparse
import sys
import time
import warnings

import numpy as np

from . import io as pio
from ._version import DISTRIBUTION, __version__
from .simd import simd_info
from .datasets import load_breast_cancer
from .exceptions import ConvergenceWarning
from .centroid import CentroidClassifier
from .linear import Perceptron
from .voted import VotedPerceptron


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
    verdict = ("yes: an epoch without mistakes, the training set is separated"
               if model.converged_ else
               f"no: every one of the {model.n_iter_} epochs made mistakes (the training set "
               "may not be linearly separable)")
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

    from .plotting import learning_curve, plot_learning_curve

    fig, ax = plt.subplots(figsize=(8, 5))
    epochs = min(args.epochs, 60)
    for label, kw in (("perceptron", {}), ("averaged", {"average": True})):
        curve = learning_curve(Perceptron(max_iter=epochs, random_state=args.seed, **kw),
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


# --------------------------------------------------------------- data files

_SVMLIGHT_SUFFIXES = (".svm", ".libsvm", ".svmlight", ".txt")


def _format_of(path, given):
    if given != "auto":
        return given
    name = str(path).lower()
    for packed in (".gz", ".bz2", ".xz"):
        if name.endswith(packed):
            name = name[: -len(packed)]
    if name.endswith(".csv"):
        return "csv"
    if name.endswith(".npz"):
        return "npz"
    if name.endswith(".npy"):
        return "npy"
    if name.endswith(_SVMLIGHT_SUFFIXES) or "." not in name.rsplit("/", 1)[-1]:
        return "svmlight"
    raise ValueError(f"cannot tell the format of {path} from its name; pass --format "
                     "svmlight, csv, npz or npy")


def _read_csv(path, label_column):
    import csv

    with open(path, newline="") as fh:
        rows = [row for row in csv.reader(fh) if row]
    if not rows:
        raise ValueError(f"{path} holds no rows")

    def numeric(row):
        try:
            [float(v) for v in row]
            return True
        except ValueError:
            return False

    header = None
    by_name = label_column is not None and not _is_int(label_column)
    first = rows[0]
    if by_name or not numeric([v for i, v in enumerate(first) if i != _column(label_column, first)]):
        header, rows = first, rows[1:]
    if not rows:
        raise ValueError(f"{path} has a header and no data")
    width = len(rows[0])
    for line, row in enumerate(rows, start=2 if header else 1):
        if len(row) != width:
            raise ValueError(f"{path}, line {line}: {len(row)} fields where the first row "
                             f"has {width}")
    col = _column(label_column, header if header is not None else rows[0], header)
    labels = [row[col] for row in rows]
    try:
        X = np.array([[float(v) for i, v in enumerate(row) if i != col] for row in rows])
    except ValueError as exc:
        raise ValueError(f"{path}: a feature is not a number ({exc})") from None
    y = np.array(labels)
    try:  # numeric labels stay numbers
        as_float = y.astype(np.float64)
        y = as_float.astype(np.int64) if np.all(as_float == np.round(as_float)) else as_float
    except ValueError:
        pass
    return X, y


def _is_int(text):
    try:
        int(text)
        return True
    except ValueError:
        return False


def _column(label_column, first_row, header=None):
    """Index of the label column: an int (negative counts from the end) or a header name."""
    n = len(first_row)
    if label_column is None:
        return n - 1
    try:
        index = int(label_column)
    except ValueError:
        if header is None or label_column not in header:
            raise ValueError(f"--label-column {label_column!r} is not a column name of the "
                             "header") from None
        return header.index(label_column)
    if not -n <= index < n:
        raise ValueError(f"--label-column {index} is out of range for {n} columns")
    return index % n


def load_data(path, fmt="auto", labels=None, label_column=None, n_features=None,
              need_labels=True):
    """(X, y) of a data file; y is None when the file has no labels and none are needed."""
    fmt = _format_of(path, fmt)
    if fmt == "svmlight":
        return pio.load_svmlight(path, n_features=n_features)
    if fmt == "csv":
        return _read_csv(path, label_column)
    if fmt == "npz":
        with np.load(path, allow_pickle=False) as data:
            names = set(data.files)
            x_name = "X" if "X" in names else ("data" if "data" in names else None)
            y_name = "y" if "y" in names else ("target" if "target" in names else None)
            if x_name is None:
                raise ValueError(f"{path} has no array named X (or data); it has "
                                 f"{sorted(names)}")
            X = data[x_name]
            y = data[y_name] if y_name is not None else None
    else:  # npy: X only, the labels from --labels
        X = np.load(path, allow_pickle=False, mmap_mode="r")
        y = None
    if labels is not None:
        y = np.load(labels, allow_pickle=False)
    if y is None and need_labels:
        raise ValueError(f"{path} holds no labels: pass --labels FILE.npy")
    return X, y


def _estimator(args):
    params = {"max_iter": args.epochs, "eta0": args.eta0, "random_state": args.seed}
    if args.algorithm == "centroid":
        return CentroidClassifier()
    if args.algorithm == "voted":
        return VotedPerceptron(max_iter=args.epochs, random_state=args.seed)
    params.update(average=args.algorithm == "averaged", pocket=args.algorithm == "pocket",
                  margin=args.margin, batch_size=args.batch_size, multiclass=args.multiclass)
    if not args.quiet:
        try:
            import tqdm  # noqa: F401

            params["progress"] = True
        except ImportError:
            params["verbose"] = 1
    return Perceptron(**params)


def cmd_train(args, out):
    X, y = load_data(args.data, args.format, args.labels, args.label_column)
    model = _estimator(args)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    seconds = time.perf_counter() - start
    model.save(args.output)
    print(f"trained {model!r} on {X.shape[0]} rows x {X.shape[1]} features in "
          f"{seconds:.3f} s", file=out)
    if hasattr(model, "n_iter_"):
        state = "converged" if getattr(model, "converged_", False) else "did not converge"
        print(f"epochs {model.n_iter_}, {state}; training accuracy "
              f"{model.score(X, y):.4f}", file=out)
    print(f"wrote {args.output}", file=out)
    return 0


def _load_for(args):
    model = pio.load_model(args.model)
    X, y = load_data(args.data, args.format, args.labels, args.label_column,
                     n_features=getattr(model, "n_features_in_", None),
                     need_labels=args.command == "evaluate")
    return model, X, y


def cmd_predict(args, out):
    model, X, _ = _load_for(args)
    if args.scores:
        values = np.asarray(model.decision_function(X))
        lines = [",".join(repr(float(v)) for v in np.atleast_1d(row)) for row in values]
    else:
        lines = [str(v) for v in np.asarray(model.predict(X)).tolist()]
    text = "\n".join(lines) + ("\n" if lines else "")
    if args.output in (None, "-"):
        out.write(text)
    else:
        with open(args.output, "w") as fh:
            fh.write(text)
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
    model, X, y = _load_for(args)
    if np.asarray(y).ndim != 1:
        raise ValueError("evaluate needs one label per row")
    accuracy, confusion, rows = classification_report(y, model.predict(X), model.classes_)
    names = [str(c) for c in np.asarray(model.classes_).tolist()]
    width = max(8, max(len(n) for n in names) + 1)
    print(f"{type(model).__name__} on {len(y)} rows of {args.data}", file=out)
    print(f"accuracy {accuracy:.4f}", file=out)
    print("confusion matrix (rows: true class, columns: predicted)", file=out)
    print(" " * width + "".join(f"{n:>{width}}" for n in names), file=out)
    for name, row in zip(names, confusion):
        print(f"{name:>{width}}" + "".join(f"{v:>{width}d}" for v in row), file=out)
    print(f"{'class':>{width}}{'precision':>11}{'recall':>9}{'f1':>9}{'support':>9}", file=out)
    for c, precision, recall, f1, support in rows:
        print(f"{str(c):>{width}}{precision:>11.4f}{recall:>9.4f}{f1:>9.4f}{support:>9d}",
              file=out)
    return 0


def _data_options(p, labels_help="labels of an .npy X (an .npy file)"):
    p.add_argument("--format", choices=["auto", "svmlight", "csv", "npz", "npy"], default="auto",
                   help="the data file's format (default: from its name)")
    p.add_argument("--labels", metavar="FILE", help=labels_help)
    p.add_argument("--label-column", metavar="COLUMN",
                   help="CSV: the label column, an index or a header name (default: the last)")


def build_parser():
    parser = argparse.ArgumentParser(prog="perceptron", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{DISTRIBUTION} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="command")
    demo = sub.add_parser("demo", help="train on the shipped breast cancer data and report")
    demo.add_argument("--epochs", type=int, default=1000, help="max_iter (default 1000)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the split and the shuffles")
    demo.add_argument("--plot", metavar="PATH", help="also write the learning curves as an image "
                      "(needs matplotlib)")
    demo.set_defaults(func=cmd_demo)
    info = sub.add_parser("info", help="version, SIMD level and CPU capabilities")
    info.set_defaults(func=cmd_info)

    train = sub.add_parser("train", help="fit a model on a data file and write a model file")
    train.add_argument("data", help="the training data")
    train.add_argument("-o", "--output", required=True, metavar="MODEL",
                       help="the model file to write")
    _data_options(train)
    train.add_argument("--algorithm", choices=["perceptron", "averaged", "pocket", "voted",
                                               "centroid"], default="perceptron")
    train.add_argument("--epochs", type=int, default=10, help="max_iter (default 10)")
    train.add_argument("--eta0", type=float, default=1.0)
    train.add_argument("--margin", type=float, default=0.0)
    train.add_argument("--batch-size", type=int, default=None)
    train.add_argument("--multiclass", choices=["ovr", "multinomial"], default="ovr")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("-q", "--quiet", action="store_true",
                       help="no progress bar or per-epoch lines")
    train.set_defaults(func=cmd_train)

    predict = sub.add_parser("predict", help="labels or scores of a data file by a saved model")
    predict.add_argument("model", help="a model file written by train (or model.save)")
    predict.add_argument("data", help="the rows to predict (labels in the file are ignored)")
    predict.add_argument("-o", "--output", metavar="FILE",
                         help="where to write one line per row (default: standard output)")
    predict.add_argument("--scores", action="store_true",
                         help="write the decision function (comma-separated per class)")
    _data_options(predict)
    predict.set_defaults(func=cmd_predict)

    evaluate = sub.add_parser("evaluate", help="accuracy, confusion matrix, precision/recall")
    evaluate.add_argument("model")
    evaluate.add_argument("data")
    _data_options(evaluate)
    evaluate.set_defaults(func=cmd_evaluate)
    return parser


def main(argv=None, out=None):
    out = sys.stdout if out is None else out
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(out)
        return 2
    try:
        return args.func(args, out)
    except (ValueError, TypeError, OSError, ImportError, FloatingPointError) as exc:
        message = " ".join(str(exc).split())  # one line
        print(f"perceptron {args.command}: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"perceptron {args.command}: interrupted", file=sys.stderr)
        return 130

"""The command line: ``python -m perceptron <command>`` or ``perceptron <command>``.

Commands
--------
demo   train on the breast cancer data shipped with the package, print results
info   the package version, its SIMD level and the CPU's capabilities
"""
import argparse
import sys
import time
import warnings

import numpy as np

from . import __version__, simd_info
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
    print(f"perceptron {__version__}", file=out)
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}", file=out)
    print(f"simd level {info['level']} (best supported: {info['best']}; "
          f"PERCEPTRON_SIMD={info['requested'] or 'unset'})", file=out)
    print(f"supported levels {', '.join(info['supported'])}; compiled "
          f"{', '.join(info['compiled'])}", file=out)
    features = ", ".join(k for k, v in info["cpu"].items() if v)
    print(f"cpu {info['machine']}: {features}", file=out)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="perceptron", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"perceptron {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="command")
    demo = sub.add_parser("demo", help="train on the shipped breast cancer data and report")
    demo.add_argument("--epochs", type=int, default=1000, help="max_iter (default 1000)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the split and the shuffles")
    demo.add_argument("--plot", metavar="PATH", help="also write the learning curves as an image "
                      "(needs matplotlib)")
    demo.set_defaults(func=cmd_demo)
    info = sub.add_parser("info", help="version, SIMD level and CPU capabilities")
    info.set_defaults(func=cmd_info)
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
    except (ValueError, TypeError, OSError, ImportError) as exc:
        print(f"perceptron {args.command}: error: {exc}", file=sys.stderr)
        return 1

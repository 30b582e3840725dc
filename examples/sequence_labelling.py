"""
Sequence labelling
==================

Label every token of a sequence with the structured perceptron (Collins
2002), and see what the label transitions add to per-token emission scores.

The sequences come from a hidden chain: each label is usually followed by
the next one (A -> B -> C -> D -> A), and a token's features show its label
only half of the time.  A classifier of single tokens (the multiclass
``Perceptron``) can only read the features; ``StructuredPerceptron`` also
learns the transitions and decodes whole sequences with Viterbi.  The
figure (with matplotlib, when it is installed) shows the transition weights
it learned.

Run:  python examples/sequence_labelling.py
"""
import warnings

import numpy as np

from perceptron import ConvergenceWarning, Perceptron, StructuredPerceptron


def make_sequences(rng, n_seq, labels="ABCD", d=8):
    K = len(labels)
    lengths = rng.integers(4, 15, n_seq)
    y = np.empty(lengths.sum(), dtype=int)
    X = np.zeros((lengths.sum(), d), dtype=np.float32)
    pos = 0
    for L in lengths:
        label = rng.integers(K)
        for _ in range(L):
            y[pos] = label
            # the label's own feature half of the time, a random one otherwise
            X[pos, label if rng.random() < 0.5 else rng.integers(d)] = 1.0
            pos += 1
            label = (label + 1) % K if rng.random() < 0.9 else rng.integers(K)
    return X, np.array(list(labels))[y], lengths


def main() -> None:
    rng = np.random.default_rng(0)
    X, y, lengths = make_sequences(rng, 400)
    X_test, y_test, lengths_test = make_sequences(rng, 200)

    with warnings.catch_warnings():
        # single tokens are not separable here, which the Perceptron reports
        warnings.simplefilter("ignore", ConvergenceWarning)
        tokens = Perceptron(average=True, max_iter=10, random_state=0).fit(X, y)
    seq = StructuredPerceptron(max_iter=10, random_state=0).fit(X, y, lengths)

    print(f"{len(lengths)} training sequences, {len(y)} tokens, labels {seq.classes_.tolist()}")
    print(f"per-token Perceptron accuracy:   {tokens.score(X_test, y_test):.3f}")
    print(f"StructuredPerceptron accuracy:   {seq.score(X_test, y_test, lengths_test):.3f}")
    best_next = seq.classes_[np.argmax(seq.transition_, axis=1)]
    print("most likely next label learned: "
          + ", ".join(f"{a} -> {b}" for a, b in zip(seq.classes_, best_next)))
    print("first test sequence:", " ".join(seq.predict(X_test, lengths_test)[:lengths_test[0]]))

    try:
        import matplotlib.pyplot as plt
    except ImportError:  # matplotlib is optional: pip install "perceptron-family[plot]"
        return
    fig, ax = plt.subplots(figsize=(4.5, 3.8), layout="constrained")
    image = ax.imshow(seq.transition_, cmap="RdBu_r",
                      vmin=-np.abs(seq.transition_).max(), vmax=np.abs(seq.transition_).max())
    labels = seq.classes_.tolist()
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("next label")
    ax.set_ylabel("label")
    ax.set_title("Learned transition weights")
    fig.colorbar(image, ax=ax)
    show(fig)


def show(fig) -> None:
    """Show the figure on screen, unless matplotlib draws off screen (a
    headless run, or the documentation's gallery, which keeps the figure)."""
    import matplotlib
    import matplotlib.pyplot as plt

    if matplotlib.get_backend().lower() != "agg":
        plt.show()


if __name__ == "__main__":
    main()

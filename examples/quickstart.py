"""
Quick start
===========

Train a perceptron on a separable problem, look at what it learned, predict,
and draw the mistakes of each epoch (with matplotlib, when it is installed).

Run:  python examples/quickstart.py
"""
import numpy as np

from perceptron import Perceptron, simd_info


def main() -> None:
    rng = np.random.default_rng(0)
    # a separable problem: the label is the side of a hidden hyperplane
    X = rng.standard_normal((2000, 20)).astype(np.float32)
    w_hidden = rng.standard_normal(20)
    y = np.where(X @ w_hidden > 0, "yes", "no")

    # tol=None: no stop on the loss; train until an epoch makes no mistake
    model = Perceptron(tol=None, random_state=0).fit(X, y)
    print(f"kernels: {simd_info()['level']}")
    print(f"converged after {model.n_iter_} epochs and {model.t_} updates "
          f"(mistakes per epoch: {model.mistakes_[:8].tolist()} ...)")
    print(f"training accuracy {model.score(X, y):.4f}; weights stay {model.coef_.dtype}")
    cosine = model.coef_[0] @ w_hidden / (np.linalg.norm(model.coef_) * np.linalg.norm(w_hidden))
    print(f"cosine between the learned and the hidden hyperplane: {cosine:.3f}")
    print("predictions for 3 new rows:", model.predict(rng.standard_normal((3, 20))))

    try:
        import matplotlib.pyplot as plt
    except ImportError:  # matplotlib is optional: pip install "perceptron-family[plot]"
        return
    fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    epochs = np.arange(1, model.n_iter_ + 1)
    ax.plot(epochs, model.mistakes_[:model.n_iter_], marker=".")
    ax.set_yscale("symlog")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mistakes")
    ax.set_title(f"Perceptron: mistakes per epoch until one without ({model.n_iter_} epochs)")
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

"""
Pictures of the perceptron
==========================

The learning algorithm step by step on 2-D data (a grid of its updates, and
the same as a GIF), the final line with its margin band, and the updates made
against the (R/gamma)^2 bound.

Run:  python examples/plot_learning.py [output directory]
With a directory, the four pictures are written there as pla_steps.png,
pla.gif, boundary.png and mistake_bound.png. Needs matplotlib
(pip install "perceptron-family[plot]").
"""
import os
import sys
import tempfile
from typing import Optional

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from perceptron import Perceptron  # noqa: E402
from perceptron import plotting  # noqa: E402

# %%
# A separable sample: points of the square on either side of the line
# ``0.6 x1 - 0.8 x2 + 0.1 = 0``, with a gap of 0.15 around it.
rng = np.random.default_rng(3)
w_star = np.array([0.6, -0.8])
X = rng.uniform(-1, 1, size=(80, 2))
X = X[np.abs(X @ w_star + 0.1) > 0.15]
y = np.where(X @ w_star + 0.1 > 0, 1, -1)
out_dir: Optional[str] = sys.argv[1] if len(sys.argv) > 1 else None
if out_dir is not None:
    os.makedirs(out_dir, exist_ok=True)


def save(fig, name: str) -> None:
    """Write the figure when an output directory was given."""
    if out_dir is not None:
        fig.savefig(os.path.join(out_dir, name), dpi=80)


# %%
# The perceptron learning algorithm, one update a panel: the point it got
# wrong (circled), the line before and after ``w += y x``, ``b += y``.
fig = plotting.plot_learning_steps(X, y, n_steps=6)
save(fig, "pla_steps.png")

# %%
# The same run as an animation (a GIF: one frame an update, sampled evenly
# down to 60 frames for a longer run).
gif = os.path.join(out_dir if out_dir is not None else tempfile.mkdtemp(), "pla.gif")
frames = plotting.animate_learning(X, y, gif)

# %%
# The line a perceptron with a margin (PAUM, ``margin=0.2``) ends with, and
# the band of its geometric margin.
model = Perceptron(random_state=0, margin=0.2).fit(X, y)
ax = plotting.plot_decision_boundary(model, X, y)
save(ax.figure, "boundary.png")

# %%
# Updates made against Novikoff's bound ``(R/gamma)^2`` for the separator
# ``w_star``, as the data are scaled.
ax = plotting.plot_mistake_bound(X, y, w_star, b_star=0.1)
save(ax.figure, "mistake_bound.png")

if out_dir is not None:
    plt.close("all")
    print(f"wrote pla_steps.png, pla.gif ({frames} frames), boundary.png and "
          f"mistake_bound.png to {os.path.abspath(out_dir)}")

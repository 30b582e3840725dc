"""Real data sets shipped inside the package (see data/README.md)."""
import csv
import io
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

__all__ = ["Dataset", "load_breast_cancer"]


@dataclass
class Dataset:
    """A data set: ``data`` (n_samples, n_features), ``target`` (n_samples,)
    and their description.  Unpacks as ``X, y = dataset``."""

    data: np.ndarray
    target: np.ndarray
    feature_names: list = field(default_factory=list)
    target_names: list = field(default_factory=list)
    description: str = ""

    def __iter__(self):
        return iter((self.data, self.target))


def load_breast_cancer(dtype=np.float64):
    """The Breast Cancer Wisconsin (Diagnostic) data: 569 x 30, two classes.

    UCI Machine Learning Repository (Wolberg, Mangasarian, Street and Street,
    1995), licensed CC BY 4.0; the file ships inside the package, so this
    needs no network.

    Parameters
    ----------
    dtype : numpy dtype, default=float64
        dtype of ``data``.

    Returns
    -------
    Dataset
        ``data`` (569, 30); ``target`` of strings ``"malignant"`` or
        ``"benign"``; ``feature_names``; ``target_names``; ``description``.
    """
    folder = resources.files(__package__).joinpath("data")
    rows = list(csv.reader(io.StringIO(folder.joinpath("wdbc.csv").read_text(), newline="")))
    header, body = rows[0], rows[1:]
    data = np.array([r[:-1] for r in body], dtype=dtype)
    target = np.array([r[-1] for r in body])
    description = folder.joinpath("README.md").read_text()
    return Dataset(data=data, target=target, feature_names=header[:-1],
                   target_names=["benign", "malignant"], description=description)

"""A structured perceptron over one's own token features: feature dicts as
python-crfsuite and sklearn-crfsuite take them, hashed in compiled code."""
from __future__ import annotations

import numbers
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from perceptron._core import feature_dicts as _fd
from perceptron._common.validation import CSRData, check_is_fitted
from perceptron.io._registry import models, need, register_model
from perceptron.sequence._structured import StructuredPerceptron

__all__ = ["FeatureTagger"]


class FeatureTagger(StructuredPerceptron):
    """Sequence labelling from feature dicts: the interface of
    sklearn-crfsuite's ``CRF`` over an averaged structured perceptron.

    ``X`` is a list of sequences, each a list of tokens, each token a dict of
    features (or a list of feature names); ``y`` a list of label sequences.
    The features are read as python-crfsuite reads them: a ``str`` value
    ``{"word": "Paris"}`` is the indicator feature ``word:Paris``; a number
    ``{"len": 5}`` the feature ``len`` with that value (a bool: 1 or 0); a
    nested dict ``{"prev": {"word": "in"}}`` the feature ``prev:word:in``, to
    any depth; a list ``{"tags": ["a", "b"]}`` the indicators ``tags:a`` and
    ``tags:b``; a token given as a list of ``str``, an indicator each.  The
    names are hashed (Weinberger et al. 2009) into ``n_features`` columns in
    compiled code (``perceptron._core.feature_dicts``), so no vocabulary is
    kept, and the model is a :class:`~perceptron.StructuredPerceptron`
    (Collins 2002) trained on those rows: its parameters and attributes are
    this class's.

    From sklearn-crfsuite, ``from sklearn_crfsuite import CRF`` becomes
    ``from perceptron.tagging import FeatureTagger as CRF``; ``fit``,
    ``predict``, ``predict_single`` and ``score`` take and return what
    ``CRF``'s do.  What differs:

    - the constructor: no ``algorithm``, ``c1``, ``c2``, ``all_possible_*``
      or other CRFsuite options; ``max_iter`` (epochs, 10) stands for
      ``max_iterations``, and ``constraints`` (below) is new;
    - no ``predict_marginals``: a perceptron's scores are not
      probabilities, and normalising them would give numbers that look like
      probabilities without being calibrated ones; ``decision_function``
      gives the per-token label scores;
    - ``fit``'s ``X_dev``, ``y_dev`` measure the token accuracy on them
      after each epoch (``dev_scores_``) instead of CRFsuite's log;
    - ``classes_`` is a sorted array, not a list in order of appearance;
      there is no ``state_features_`` (hashed features have no names) and
      no ``tagger_``, ``training_log_``, ``size_``, ``num_attributes_``;
      ``transition_features_`` is there;
    - feature values are float32 in the hashed rows (CRFsuite: double);
    - the model is saved with :meth:`save` (a model file) or pickled.

    Parameters
    ----------
    n_features : int, default=2**20
        Columns of the hashed rows.  Fewer make smaller, faster models, at
        the price of more features sharing a column.
    max_iter, average, shuffle, random_state, eta0, early_stopping,
    validation_fraction, n_iter_no_change, tol, verbose, constraints, progress
        As for :class:`~perceptron.StructuredPerceptron`; ``random_state``
        is 0 by default (a fit is repeatable).  ``constraints="iob2"`` (or
        ``"bioes"``) decodes only label sequences of valid spans.

    Examples
    --------
    >>> from perceptron.tagging import FeatureTagger
    >>> def token(w):
    ...     return {"lower": w.lower(), "title": w.istitle()}
    >>> X = [[token(w) for w in "Ada lives in Paris".split()],
    ...      [token(w) for w in "Paris likes Ada".split()]]
    >>> y = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O", "B-PER"]]
    >>> tagger = FeatureTagger(n_features=2**12, constraints="iob2").fit(X, y)
    >>> tagger.predict_single([token(w) for w in "Ada likes Paris".split()])
    ['B-PER', 'O', 'B-LOC']
    """

    def __init__(self, n_features: int = 2 ** 20, max_iter: int = 10, average: bool = True,
                 shuffle: bool = True, random_state: Any = 0, eta0: float = 1.0,
                 early_stopping: bool = False, validation_fraction: float = 0.1,
                 n_iter_no_change: int = 5, tol: Optional[float] = None, verbose: int = 0,
                 constraints: Any = None, progress: bool = False) -> None:
        super().__init__(max_iter=max_iter, average=average, shuffle=shuffle,
                         random_state=random_state, eta0=eta0, early_stopping=early_stopping,
                         validation_fraction=validation_fraction,
                         n_iter_no_change=n_iter_no_change, tol=tol, verbose=verbose,
                         constraints=constraints, progress=progress)
        self.n_features = n_features

    def _check_n_features(self) -> int:
        n = self.n_features
        if not isinstance(n, numbers.Integral) or isinstance(n, bool) or \
                not 1 <= int(n) <= _fd.MAX_FEATURES:
            raise ValueError(f"n_features must be an int in [1, 2**31 - 1], got {n!r}")
        if "coef_" in vars(self) and self.coef_.shape[1] != int(n):
            raise ValueError(f"n_features is {n}, but the model was trained with "
                             f"{self.coef_.shape[1]}: set it back, or fit again")
        return int(n)

    def transform(self, X) -> Tuple[CSRData, np.ndarray]:
        """The hashed rows of X (one a token, float32) and the sequences'
        lengths."""
        n = self._check_n_features()
        if not isinstance(X, (str, bytes, dict)) and not hasattr(X, "__len__"):
            X = list(X)   # a generator of sequences, as sklearn-crfsuite takes
        data, indices, indptr, lengths = _fd.hash_sequences(X, n)
        if len(indices) > np.iinfo(np.int32).max:
            indptr = indptr.astype(np.int64)
            indices = indices.astype(np.int64)
        else:
            indptr = indptr.astype(np.int32)
        return CSRData(data, indices, indptr, (len(indptr) - 1, n)), lengths

    def fit(self, X, y, X_dev=None, y_dev=None):
        """Learn from sequences of feature dicts and their labels.

        Parameters
        ----------
        X : list of lists of dict (or of lists of str)
            The tokens' features, sequence by sequence.
        y : list of lists of str
            The labels, sequence by sequence.
        X_dev, y_dev : the same, optional
            Sequences whose token accuracy is measured after each epoch
            (``dev_scores_``); they do not change the model.

        Returns
        -------
        self
        """
        rows, lengths = self.transform(X)
        if not isinstance(y, (str, bytes)) and not hasattr(y, "__len__"):
            y = list(y)
        codes, labels = _fd.label_codes(y, lengths)
        flat = np.array(labels, dtype=object)[codes] if len(codes) else \
            np.zeros(0, dtype=object)
        if X_dev is None and y_dev is None:
            super().fit(rows, flat, lengths)
            vars(self).pop("dev_scores_", None)
            return self
        if X_dev is None or y_dev is None:
            raise ValueError("X_dev and y_dev come together")
        dev_rows, dev_lengths = self.transform(X_dev)
        dev_codes, dev_labels = _fd.label_codes(y_dev, dev_lengths)
        dev_flat = np.array(dev_labels, dtype=object)[dev_codes]
        p = self._check_params()
        if p["early_stopping"]:
            raise ValueError("X_dev is measured epoch by epoch: turn early_stopping off")
        for name in ("classes_", "coef_", "_W"):
            vars(self).pop(name, None)
        scores = []
        for epoch in range(p["max_iter"]):
            StructuredPerceptron.partial_fit(self, rows, flat, lengths,
                                             classes=np.array(labels, dtype=object))
            scores.append(float(np.mean(
                StructuredPerceptron.predict(self, dev_rows, dev_lengths) == dev_flat))
                if len(dev_flat) else 1.0)
            if self.mistakes_[-1] == 0:
                break
        self.n_iter_ = len(scores)
        self.dev_scores_ = np.asarray(scores)
        return self

    def partial_fit(self, X, y, classes=None):  # type: ignore[override]
        """One epoch over sequences of feature dicts, from the current
        weights (``classes``: every label, at the first call)."""
        rows, lengths = self.transform(X)
        codes, labels = _fd.label_codes(y, lengths)
        flat = np.array(labels, dtype=object)[codes]
        return super().partial_fit(rows, flat, lengths, classes=classes)

    def _split(self, flat, lengths) -> List[List[str]]:
        out, pos, labels = [], 0, flat.tolist()
        for L in lengths.tolist():
            out.append(labels[pos:pos + L])
            pos += L
        return out

    def predict(self, X) -> List[List[str]]:  # type: ignore[override]
        """The labels of each sequence of X, a list of lists of str."""
        check_is_fitted(self, "coef_")
        rows, lengths = self.transform(X)
        if rows.shape[0] == 0:
            return [[] for _ in lengths]
        return self._split(super().predict(rows, lengths), lengths)

    def predict_single(self, xseq) -> List[str]:
        """The labels of one sequence of feature dicts."""
        return self.predict([xseq])[0]

    def decision_function(self, X) -> List[np.ndarray]:  # type: ignore[override]
        """The per-token label scores of each sequence, arrays of shape
        (n_tokens, n_classes) (emissions only; decoding adds transitions)."""
        check_is_fitted(self, "coef_")
        rows, lengths = self.transform(X)
        scores = super().decision_function(rows) if rows.shape[0] else \
            np.zeros((0, len(self.classes_)))
        return np.split(scores, np.cumsum(lengths)[:-1]) if len(lengths) else []

    def score(self, X, y) -> float:  # type: ignore[override]
        """Token accuracy of :meth:`predict` against y (sklearn-crfsuite's
        ``flat_accuracy_score``)."""
        pred = self.predict(X)
        y = list(y)
        if len(pred) != len(y):
            raise ValueError(f"X has {len(pred)} sequences but y has {len(y)}")
        right = total = 0
        for i, (p, g) in enumerate(zip(pred, y)):
            g = list(g)
            if len(p) != len(g):
                raise ValueError(f"sequence {i}: X has {len(p)} tokens but y has {len(g)} labels")
            right += sum(a == b for a, b in zip(p, g))
            total += len(g)
        return right / total if total else 1.0

    @property
    def transition_features_(self) -> Dict[Tuple[str, str], float]:
        """``{(label_from, label_to): weight}``, as sklearn-crfsuite's (the
        forbidden transitions of ``constraints`` are ``-inf``)."""
        check_is_fitted(self, "coef_")
        labels = self.classes_.tolist()
        return {(a, b): float(self.transition_[i, j]) for i, a in enumerate(labels)
                for j, b in enumerate(labels)}


def _check_saved(est):
    spec = models()[StructuredPerceptron.__name__]
    spec.check(est)
    need(est.coef_.shape[1] == est._check_n_features(),
         "n_features and the width of coef_ disagree")
    need(all(isinstance(c, str) for c in est.classes_.tolist()), "classes_ of str labels")


register_model(FeatureTagger, check=_check_saved,
               fitted=models()[StructuredPerceptron.__name__].fitted | {"dev_scores_"},
               training_state=models()[StructuredPerceptron.__name__].training_state)

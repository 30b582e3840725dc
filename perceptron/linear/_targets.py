"""The labels of a ``Perceptron`` fit: the classes, each row's class or sign,
and the classes' weights.

``encode_targets`` takes the usual labels with the least fixed cost: labels
of two distinct values (integers, booleans, whole floats) are encoded in one
compiled pass (``perceptron._core.labels.encode_two``), and more classes of
small non-negative integers by counting (``encode_small_ints``) instead of
np.unique's sort and a binary search per label; anything else takes
np.unique, with the same result.
"""
import numpy as np

from perceptron._common.validation import (check_array, check_labels, check_scalar,
                                           require_two_classes, unique_labels)
from perceptron._core.labels import encode_small_ints, encode_two


def encode_targets(y, n):
    """(kind, classes, class_index, signs) for binary, multiclass or multi-label y.

    class_index: int32 class of each row (the 0/1 indicator matrix for
    multi-label y), or None when ``signs`` holds the labels: the int8 signs
    of a binary y (``classes[1]`` is +1) that ``encode_two`` encoded in one
    pass; ``class_index_of(signs)`` gives the index then.  signs is None on
    the general path."""
    if type(y) is np.ndarray and y.ndim == 1 and y.shape[0] == n:
        fast = encode_two(y)
        if fast is not None and len(fast[1]) == 2:
            return "binary", fast[1], None, fast[0]
        if fast is None:  # more than two labels: small non-negative integers are counted
            counted = encode_small_ints(y)
            if counted is not None:
                index, classes = counted  # (two or more classes)
                return ("binary" if len(classes) == 2 else "multiclass"), classes, index, None
    arr = np.asarray(y) if not hasattr(y, "toarray") else y
    if getattr(arr, "ndim", 1) == 2 and arr.shape[1] > 1:
        Y = check_array(arr, "y") if arr.dtype.kind not in "b" else np.asarray(arr)
        if Y.shape[0] != n:
            raise ValueError(f"X has {n} samples but y has {Y.shape[0]}; they must match")
        if not np.isin(Y, (0, 1)).all():
            raise ValueError("a 2-D y must be a 0/1 indicator matrix (multi-label): it "
                             "holds other values")
        return "multilabel", np.arange(Y.shape[1]), (Y != 0), None
    y = check_labels(y, n)
    classes = unique_labels(y)
    require_two_classes(classes)
    if len(classes) == 2:  # one comparison instead of a binary search per label
        index = (y == classes[1]).astype(np.int32)
    else:
        index = np.searchsorted(classes, y).astype(np.int32)
    kind = "binary" if len(classes) == 2 else "multiclass"
    return kind, classes, index, None


def class_index_of(signs):
    """The int32 class index (0 or 1) of binary signs: what the general path
    of ``encode_targets`` returns as class_index."""
    return (signs > 0).astype(np.int32)


def known_binary_signs(y, n, known):
    """The int8 signs of a partial_fit chunk y against two known classes
    (``known[1]`` is +1), or None when the general path must decide (y not
    a 1-D array of n labels of known's dtype, labels outside known, labels
    the general checks refuse)."""
    if type(y) is not np.ndarray or y.ndim != 1 or y.shape[0] != n or y.dtype != known.dtype \
            or len(known) != 2:
        return None
    fast = encode_two(y)
    if fast is None:
        return None
    signs, seen = fast
    if len(seen) == 2:
        if seen.tobytes() == known.tobytes():  # the same labels, bit for bit (no NaN in seen)
            return signs
        return signs if seen[0] == known[0] and seen[1] == known[1] else None
    if seen[0] == known[0]:
        return signs  # one label, the lesser: every sign is -1
    if seen[0] == known[1]:
        return -signs
    return None


def class_weights(class_weight, classes, class_index):
    """Weight of each class, from None, "balanced" or a {label: weight} dict."""
    k = len(classes)
    if class_weight is None:
        return None
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise ValueError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
        counts = np.bincount(class_index, minlength=k).astype(np.float64)
        # n / (k * n_c), as scikit-learn defines "balanced"
        with np.errstate(divide="ignore"):
            return np.where(counts > 0, len(class_index) / (k * counts), 0.0)
    if not isinstance(class_weight, dict):
        raise TypeError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
    weights = np.ones(k)
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    for label, value in class_weight.items():
        if label not in lookup:
            raise ValueError(f"class_weight has the label {label!r}, which is not a class of y "
                             f"({classes.tolist()})")
        value = check_scalar(value, f"class_weight[{label!r}]", "float", low=0.0)
        weights[lookup[label]] = value
    return weights


def labels_not_in(seen, known):
    """The labels of `seen` (sorted, distinct) that `known` (sorted, distinct)
    lacks.  Numbers against numbers, or text against text: a binary search
    of each, as np.setdiff1d would find them but without its sort (a
    partial_fit call's fixed cost); other pairs through np.setdiff1d."""
    numeric = seen.dtype.kind in "iufb" and known.dtype.kind in "iufb"
    if not (numeric or seen.dtype.kind == known.dtype.kind) or not len(known):
        return np.setdiff1d(seen, known)
    pos = np.minimum(np.searchsorted(known, seen), len(known) - 1)
    return seen[known[pos] != seen]


def partial_targets(y, classes, states, multiclass, known_classes, mode):
    """Class indices of a partial_fit chunk, and the (possibly grown)
    classes; a new class (multinomial) gets a zero row in `states` (None on
    the first call; then `known_classes` and `mode`, the model's, are not
    read)."""
    first = states is None
    if first:
        if classes is None:
            if multiclass != "multinomial":
                raise ValueError("classes must be given on the first call to partial_fit "
                                 "(all the labels the model will see); only "
                                 "multiclass='multinomial' can add classes later")
            known = unique_labels(y)
        else:
            known = unique_labels(check_labels(classes, len(classes), name="classes"),
                                  name="classes")
            if len(known) < 2:
                raise ValueError("classes must hold at least two labels")
    else:
        if classes is not None and not np.array_equal(unique_labels(np.asarray(classes)),
                                                       known_classes):
            raise ValueError("classes differs from the previous call to partial_fit")
        known = known_classes
    new = labels_not_in(unique_labels(y), known)
    if len(new):
        if first or mode != "multinomial":
            raise ValueError(f"y has labels {new.tolist()} that are not in classes "
                             f"{known.tolist()}")
        for label in new:
            position = int(np.searchsorted(known, label))
            known = np.insert(known, position, label)
            for s in states:
                s.insert_class(position)
    return np.searchsorted(known, y).astype(np.int32), known

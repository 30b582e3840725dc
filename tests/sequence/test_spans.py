"""Span schemes, constrained Viterbi decoding and span scores.

Constrained decoding is checked against brute force over every allowed label
sequence; span scores against seqeval (a test dependency) in its default and
strict modes."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import StructuredPerceptron
from perceptron._core import structured as compiled
from perceptron.tagging import allowed, span_scores, spans

from structured_reference import features, path_score, viterbi

TYPES = ["PER", "LOC", "A-B"]


def scheme_labels(scheme):
    prefixes = "BI" if scheme == "iob2" else "BIES"
    return sorted(["O"] + [f"{p}-{t}" for p in prefixes for t in TYPES[:2]])


def encode(found, n, scheme):
    """The labels of spans (type, first, last) over n tokens, written as the
    scheme says."""
    out = ["O"] * n
    for kind, i, j in found:
        if scheme == "bioes" and i == j:
            out[i] = "S-" + kind
            continue
        out[i] = "B-" + kind
        for t in range(i + 1, j + 1):
            out[t] = "I-" + kind
        if scheme == "bioes":
            out[j] = "E-" + kind
    return out


def random_valid(rng, n, scheme):
    """A random label sequence the scheme allows: random spans, encoded."""
    found, t = [], 0
    while t < n:
        if rng.random() < 0.4:
            j = min(n - 1, t + int(rng.integers(0, 3)))
            found.append((TYPES[int(rng.integers(0, 2))], t, j))
            t = j + 1
        else:
            t += 1
    return encode(found, n, scheme)


# ------------------------------------------------------------------ schemes

@pytest.mark.parametrize("scheme", ["iob2", "bioes"])
def test_allowed_is_what_spans_write_back(scheme):
    """A sequence is allowed exactly when its strict spans, written back in
    the scheme, give the sequence itself (every sequence of up to 4 labels)."""
    labels = scheme_labels(scheme)
    start, transition, end = allowed(labels, scheme)
    for n in range(1, 5):
        for seq in itertools.product(range(len(labels)), repeat=n):
            names = [labels[i] for i in seq]
            ok = bool(start[seq[0]] and end[seq[-1]] and
                      all(transition[a, b] for a, b in zip(seq, seq[1:])))
            assert ok == (encode(spans(names, scheme, "strict"), n, scheme) == names), names


def test_scheme_aliases_and_bad_labels():
    labels = scheme_labels("iob2")
    for a, b in zip(allowed(labels, "bio"), allowed(labels, "IOB2")):
        np.testing.assert_array_equal(a, b)
    labels = scheme_labels("bioes")
    for a, b in zip(allowed(labels, "iobes"), allowed(labels, "bioes")):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="'E-PER' is not a label of the iob2 scheme"):
        allowed(["O", "B-PER", "E-PER"], "iob2")
    with pytest.raises(ValueError, match="'PER'"):
        allowed(["O", "PER"], "bioes")
    with pytest.raises(ValueError, match="scheme must be one of"):
        allowed(["O"], "bilou")
    with pytest.raises(ValueError, match="needs the scheme"):
        spans(["B-PER"], mode="strict")
    with pytest.raises(ValueError, match="mode must be"):
        spans(["B-PER"], mode="lenient")
    with pytest.raises(TypeError, match=r"labels\[1\]"):
        spans(["B-PER", 3])


# ------------------------------------------------------- constrained Viterbi

def decode_scores(E, T, start, end):
    """The compiled decoder on emission scores E: tokens X = E against
    identity weights."""
    L, K = E.shape
    head = np.concatenate([np.zeros(K), T.ravel(), start, end])
    return compiled.decode(np.ascontiguousarray(E), np.eye(K), head,
                           np.array([0, L], dtype=np.int64))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), scheme=st.sampled_from(["iob2", "bioes"]),
       L=st.integers(1, 5), grid=st.sampled_from([3, 100]))
def test_constrained_viterbi_against_brute_force(seed, scheme, L, grid):
    """The compiled decoder with the forbidden moves at minus infinity
    returns an allowed sequence of the best score among allowed sequences
    (brute force over all K^L; small integer scores make ties common)."""
    rng = np.random.default_rng(seed)
    labels = scheme_labels(scheme)
    K = len(labels)
    ok_start, ok_T, ok_end = allowed(labels, scheme)
    E = rng.integers(-grid, grid + 1, (L, K)).astype(np.float64)
    T = np.where(ok_T, rng.integers(-grid, grid + 1, (K, K)), -np.inf)
    start = np.where(ok_start, rng.integers(-grid, grid + 1, K), -np.inf)
    end = np.where(ok_end, rng.integers(-grid, grid + 1, K), -np.inf)
    got = decode_scores(E, T, start, end)
    best, paths = -np.inf, []
    for z in itertools.product(range(K), repeat=L):
        s = path_score(E, T, start, end, z)
        if s > best:
            best, paths = s, [z]
        elif s == best:
            paths.append(z)
    assert np.isfinite(best)
    assert tuple(got.tolist()) in paths
    # ties broken as the numpy reference breaks them (first maximum)
    np.testing.assert_array_equal(got, viterbi(E, T, start, end))


def bio_data(seed, scheme, n_seq=30, d=5, max_len=6):
    """Integer-valued tokens with valid labels of the scheme; some features
    tell the label, others are noise."""
    rng = np.random.default_rng(seed)
    labels = scheme_labels(scheme)
    lengths = rng.integers(1, max_len + 1, n_seq)
    y = []
    for L in lengths:
        y.extend(random_valid(rng, int(L), scheme))
    y = np.array(y, dtype=object)
    codes = np.searchsorted(labels, y.astype(str))
    X = rng.integers(-1, 2, (len(y), d)).astype(np.float64)
    X[:, 0] = codes % 3 - 1
    return X, y, lengths


def constrained_reference(X, codes, lengths, K, tables, max_iter):
    """Collins (2002) with the forbidden moves at minus infinity in the
    decoder only; shuffle off; (the last parameters, their averages, the
    minus-infinity tables)."""
    neg = [np.where(a, 0.0, -np.inf) for a in tables]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    params = [np.zeros((K, X.shape[1])), np.zeros(K), np.zeros((K, K)), np.zeros(K), np.zeros(K)]
    sums = [np.zeros_like(p) for p in params]
    visits = 0
    for _ in range(max_iter):
        wrong = 0
        for q in range(len(lengths)):
            x, gold = X[offsets[q]:offsets[q + 1]], codes[offsets[q]:offsets[q + 1]]
            W, b, T, s, e = params
            z = viterbi(x @ W.T + b, T + neg[1], s + neg[0], e + neg[2])
            if (z != gold).any():
                wrong += 1
                for p, f, g in zip(params, features(x, gold, K), features(x, z, K)):
                    p += f - g
            visits += 1
            for acc, p in zip(sums, params):
                acc += p
        if not wrong:
            break
    return params, [acc / visits for acc in sums], neg


@pytest.mark.parametrize("scheme", ["iob2", "bioes"])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("average", [False, True])
def test_constrained_training_against_reference(scheme, seed, average):
    """Training decodes with the constraints: the weights equal the
    reference's, exactly without averaging (integer sums) and to rounding
    with it (the lazy average w - U/c against the explicit mean)."""
    X, y, lengths = bio_data(seed, scheme)
    est = StructuredPerceptron(max_iter=4, shuffle=False, average=average,
                               constraints=scheme).fit(X, y, lengths)
    labels = est.classes_.tolist()
    K = len(labels)
    tables = allowed(labels, scheme)
    codes = np.searchsorted(est.classes_.astype(str), y.astype(str))
    last, avg, neg = constrained_reference(X, codes, lengths, K, tables, est.n_iter_)
    W, b, T, s, e = avg if average else last
    same = (lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)) if average \
        else np.testing.assert_array_equal
    same(est.coef_, W)
    same(est.intercept_, b)
    same(est.transition_, T + neg[1])
    same(est.start_, s + neg[0])
    same(est.end_, e + neg[2])
    # every prediction is allowed, even on noise
    rng = np.random.default_rng(seed)
    sizes = [*range(1, 20), 3]
    noise = rng.normal(size=(sum(sizes), X.shape[1])) * 5
    pred = est.predict(noise, sizes)
    off = np.concatenate([[0], np.cumsum(sizes)])
    for lo, hi in zip(off[:-1], off[1:]):
        names = pred[lo:hi].tolist()
        assert encode(spans(names, scheme, "strict"), len(names), scheme) == names


def test_constraints_as_tables_and_errors():
    X, y, lengths = bio_data(5, "iob2")
    labels = sorted(set(y.tolist()))
    tables = allowed(labels, "iob2")
    a = StructuredPerceptron(max_iter=3, shuffle=False, constraints="iob2").fit(X, y, lengths)
    b = StructuredPerceptron(max_iter=3, shuffle=False, constraints=tables).fit(X, y, lengths)
    np.testing.assert_array_equal(a.transition_, b.transition_)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    bad = y.copy()
    bad[0] = "I-PER"   # a sequence that starts inside a span
    with pytest.raises(ValueError, match="sequence 0 of y breaks the constraints"):
        StructuredPerceptron(constraints="iob2").fit(X, bad, lengths)
    with pytest.raises(ValueError, match="start must be a boolean array of shape"):
        StructuredPerceptron(constraints=(tables[0][:-1], tables[1], tables[2])).fit(X, y, lengths)
    with pytest.raises(TypeError, match="constraints must be None"):
        StructuredPerceptron(constraints=3).fit(X, y, lengths)
    with pytest.raises(TypeError, match="needs str labels"):
        StructuredPerceptron(constraints="iob2").fit(X, np.arange(len(y)) % 2, lengths)
    never = (np.zeros(len(labels), dtype=bool), tables[1], tables[2])
    with pytest.raises(ValueError, match="no label that may begin and end"):
        StructuredPerceptron(constraints=never).fit(X, y, lengths)


def test_constraints_partial_fit_and_model_file(tmp_path):
    X, y, lengths = bio_data(3, "bioes")
    est = StructuredPerceptron(shuffle=False, constraints="bioes")
    est.partial_fit(X, y, lengths)
    est.partial_fit(X, y, lengths)
    assert np.isneginf(est.transition_).any()
    est.set_params(constraints=None)
    with pytest.raises(ValueError, match="constraints changed"):
        est.partial_fit(X, y, lengths)
    est.set_params(constraints="bioes")
    path = tmp_path / "m.ptn"
    est.save(path)
    from perceptron import load
    back = load(path)
    np.testing.assert_array_equal(back.transition_, est.transition_)
    np.testing.assert_array_equal(back.predict(X, lengths), est.predict(X, lengths))


# ----------------------------------------------------------------- scores

def random_labels(rng, scheme, n_seq):
    labels = scheme_labels(scheme) + ["B-A-B", "I-A-B"]
    return [[labels[int(i)] for i in rng.integers(0, len(labels), int(n))]
            for n in rng.integers(0, 8, n_seq)]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), scheme=st.sampled_from(["iob2", "bioes"]),
       mode=st.sampled_from(["default", "strict"]), n_seq=st.integers(1, 5),
       valid=st.booleans())
def test_span_scores_equal_seqeval(seed, scheme, mode, n_seq, valid):
    seqeval_metrics = pytest.importorskip("seqeval.metrics")
    from seqeval.scheme import IOB2, IOBES
    rng = np.random.default_rng(seed)
    if valid:
        y_true = [random_valid(rng, int(n), scheme) for n in rng.integers(0, 8, n_seq)]
    else:
        y_true = random_labels(rng, scheme, n_seq)
    y_pred = [list(s) for s in y_true]
    for s in y_pred:
        for t in range(len(s)):
            if rng.random() < 0.4:
                s[t] = random_labels(rng, scheme, 1)[0][:1] or ["O"]
                s[t] = s[t][0]
    ours = span_scores(y_true, y_pred, scheme=scheme, mode=mode)
    kw = {} if mode == "default" else {"mode": "strict",
                                       "scheme": IOB2 if scheme == "iob2" else IOBES}
    any_span = any(ours[k]["support"] for k in ours) or \
        any(spans(s, scheme, mode) for s in y_pred)
    if not any_span:
        assert ours["micro avg"]["f1"] == 0.0
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = seqeval_metrics.classification_report(y_true, y_pred, output_dict=True,
                                                    zero_division=0, **kw)
        micro = seqeval_metrics.f1_score(y_true, y_pred, zero_division=0, **kw)
    assert set(ref) == set(ours)
    for kind, row in ref.items():
        for name in ("precision", "recall", "support"):
            assert ours[kind][name] == pytest.approx(row[name], abs=1e-12), (kind, name)
        assert ours[kind]["f1"] == pytest.approx(row["f1-score"], abs=1e-12), kind
    assert ours["micro avg"]["f1"] == pytest.approx(micro, abs=1e-12)


def test_default_spans_equal_seqeval_entities():
    pytest.importorskip("seqeval")
    from seqeval.metrics.sequence_labeling import get_entities
    rng = np.random.default_rng(7)
    for scheme in ("iob2", "bioes"):
        for seq in random_labels(rng, scheme, 300):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert spans(seq) == [tuple(e) for e in get_entities(seq)], seq


def test_span_scores_errors():
    with pytest.raises(ValueError, match="y_true has 1 sequences, y_pred 2"):
        span_scores([["O"]], [["O"], ["O"]])
    with pytest.raises(ValueError, match="sequence 0: y_true has 1 labels, y_pred 2"):
        span_scores([["O"]], [["O", "O"]])
    with pytest.raises(TypeError, match="y_true must be a list of label sequences"):
        span_scores("O", [["O"]])


@pytest.mark.parametrize("scheme", ["iob2", "bioes"])
def test_convert_scheme_keeps_the_spans(scheme):
    """Written in the other scheme, the spans are the same, the labels valid
    there, and written back they are the labels themselves (valid input)."""
    from perceptron.tagging import convert_scheme
    other = "bioes" if scheme == "iob2" else "iob2"
    rng = np.random.default_rng(11)
    start, transition, end = allowed(scheme_labels(other), other)
    index = {label: i for i, label in enumerate(scheme_labels(other))}
    for n in range(0, 9):
        for _ in range(20):
            labels = random_valid(rng, n, scheme)
            moved = convert_scheme(labels, other)
            assert spans(moved) == spans(labels)
            path = [index[label] for label in moved]
            assert not path or (start[path[0]] and end[path[-1]] and
                                all(transition[a, b] for a, b in zip(path, path[1:])))
            assert convert_scheme(moved, scheme) == labels

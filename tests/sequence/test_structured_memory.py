"""The structured perceptron's memory: Viterbi's back-pointers are 16-bit
label indices (not doubles) and delta keeps two rows; the memory a fit will
need is checked before it is allocated (PERCEPTRON_MAX_FIT_BYTES raises the
limit); Ctrl-C stops an epoch between sequences."""
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc

import numpy as np
import pytest

from perceptron import StructuredPerceptron
from perceptron._core import structured as _structured
from perceptron.io import CSRData
from perceptron.tagging import PerceptronTagger

from structured_reference import viterbi


def decode_peak(X, W, head, offsets):
    tracemalloc.start()
    try:
        z = _structured.decode(X, W, head, offsets)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return z, peak


def test_decoding_a_long_sequence_takes_ten_bytes_a_token_and_label(rng):
    # one sequence of L tokens, K labels: emissions (8 bytes) and
    # back-pointers (2 bytes) a token and label; doubles took 24
    L, K, d = 3000, 200, 3
    X = rng.standard_normal((L, d))
    W = rng.standard_normal((K, d))
    head = rng.standard_normal(K * K + 3 * K)
    offsets = np.array([0, L], dtype=np.int64)
    z, peak = decode_peak(X, W, head, offsets)
    assert peak < 12 * L * K, peak
    E = X @ W.T + head[:K]
    T = head[K:K + K * K].reshape(K, K)
    np.testing.assert_array_equal(z, viterbi(E, T, head[K + K * K:2 * K + K * K],
                                             head[2 * K + K * K:]))


@pytest.mark.parametrize("K", [2, 3, 255, 256, 257, 1000])
def test_paths_through_many_labels_equal_the_reference(rng, K):
    L, d = 7, 4
    X = rng.standard_normal((2 * L, d))
    W = rng.standard_normal((K, d))
    head = rng.standard_normal(K * K + 3 * K)
    offsets = np.array([0, L, 2 * L], dtype=np.int64)
    z = _structured.decode(X, W, head, offsets)
    E = X @ W.T + head[:K]
    T = head[K:K + K * K].reshape(K, K)
    s, e = head[K + K * K:2 * K + K * K], head[2 * K + K * K:]
    for q in range(2):
        np.testing.assert_array_equal(z[q * L:(q + 1) * L], viterbi(E[q * L:(q + 1) * L], T, s, e))


def wide(n_features, k=3, n=12):
    """CSR tokens over n_features columns (three used), k labels."""
    indptr = np.arange(n + 1, dtype=np.int64)
    indices = (np.arange(n) % 3).astype(np.int64)
    X = CSRData(np.ones(n), indices, indptr, (n, n_features))
    y = np.arange(n) % k
    return X, y, [4] * (n // 4)


def test_a_fit_too_large_is_refused_before_anything_is_allocated(monkeypatch):
    monkeypatch.delenv("PERCEPTRON_MAX_FIT_BYTES", raising=False)
    X, y, lengths = wide(2 ** 30)  # 3 x 2**30 weights, averaged: 72 GiB
    model = StructuredPerceptron(max_iter=1)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"3 labels and 1073741824 features \(3 x "
                                             r"1073741824 weights of 8 bytes with their float64 "
                                             r"averages, a 3 x 3 transition table\) would take "
                                             r"72\.00 GiB, more than the limit of 4\.00 GiB.*"
                                             "PERCEPTRON_MAX_FIT_BYTES"):
            model.fit(X, y, lengths)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20  # megabytes of checks, not gigabytes of weights
    assert not hasattr(model, "coef_")
    with pytest.raises(ValueError, match="would take"):
        StructuredPerceptron().partial_fit(X, y, lengths)


def test_the_limit_can_be_raised_and_lowered(monkeypatch):
    X, y, lengths = wide(50000)
    need = 3 * 50000 * (8 + 8 + 8)
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(need))
    with pytest.raises(ValueError, match=r"more than the limit of 0\.00 GiB"):
        StructuredPerceptron(max_iter=1).fit(X, y, lengths)
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(10 * need))
    model = StructuredPerceptron(max_iter=1).fit(X, y, lengths)
    assert model.coef_.shape == (3, 50000)
    # without averaging the fit needs less
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(3 * 50000 * 16 + 10000))
    StructuredPerceptron(max_iter=1, average=False).fit(X, y, lengths)
    for bad in ("lots", "-5", "0", "1.5e9"):
        monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", bad)
        with pytest.raises(ValueError, match="PERCEPTRON_MAX_FIT_BYTES=.*a number of bytes"):
            StructuredPerceptron(max_iter=1).fit(X, y, lengths)


def test_a_tagger_with_too_many_features_is_refused(monkeypatch):
    monkeypatch.setenv("PERCEPTRON_MAX_FIT_BYTES", str(1 << 20))
    sentences = [[("the", "DET"), ("dog", "NOUN"), ("barks", "VERB")]] * 2
    with pytest.raises(ValueError, match=r"3 labels and 262144 features .* would take .*GiB"):
        PerceptronTagger().fit(sentences)
    PerceptronTagger(n_features=1024).fit(sentences)


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is sent differently on Windows")
def test_ctrl_c_stops_a_structured_epoch():
    # one epoch of 2,000 labels over 200,000 tokens: 4 * 10**6 label pairs a
    # token, many minutes of work (longer than the guard below); Ctrl-C
    # must end it between two sequences, not at the end of the epoch
    script = textwrap.dedent("""
        import sys
        import numpy as np
        from perceptron import StructuredPerceptron
        rng = np.random.default_rng(0)
        K, n = 2000, 200000
        X = rng.standard_normal((n, 4))
        y = rng.permutation(np.arange(n) % K)
        model = StructuredPerceptron(max_iter=1, average=False)
        print("ready", flush=True)
        try:
            model.fit(X, y, [20] * (n // 20))
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
        print("finished", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(2.0)  # inside the epoch
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)  # a guard against a hang, not a timing
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert out.strip() == "interrupted"

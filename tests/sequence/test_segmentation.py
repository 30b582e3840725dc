"""Token, word and sentence scores of a segmentation (CoNLL 2018 shared task,
Zeman et al. 2018, section 2): hand-worked cases, the word alignment's cases
that the task's evaluation script documents with their expected counts, and
a brute-force reference of the LCS alignment on random segmentations."""
import itertools

import numpy as np
import pytest

from perceptron.sequence._segmentation import segmentation_scores


def sentence(*tokens):
    """CoNLL-U rows of a sentence from tokens written "form" or
    "form word word ..." (a multiword token and its words)."""
    rows, n = [], 0
    for t in tokens:
        parts = t.split(" ")
        if len(parts) == 1:
            n += 1
            rows.append([str(n), parts[0]] + ["_"] * 8)
        else:
            rows.append([f"{n + 1}-{n + len(parts) - 1}", parts[0]] + ["_"] * 8)
            for w in parts[1:]:
                n += 1
                rows.append([str(n), w] + ["_"] * 8)
    return rows


def words_right(gold, system):
    scores = segmentation_scores([sentence(*gold)], [sentence(*system)])["Words"]
    g = sum(max(1, len(t.split(" ")) - 1) for t in gold)
    s = sum(max(1, len(t.split(" ")) - 1) for t in system)
    right = round(scores["f1"] * (g + s) / 2)
    assert scores["precision"] == pytest.approx(right / s)
    assert scores["recall"] == pytest.approx(right / g)
    return right


# (gold, system, words aligned): the cases the shared task's evaluation script
# (conll18_ud_eval.py, version 1.2) lists in its own tests
SCRIPT_CASES = [
    (["a"], ["a"], 1),
    (["a", "b", "c"], ["a", "b", "c"], 3),
    (["abc a b c"], ["a", "b", "c"], 3),
    (["a", "bc b c", "d"], ["a", "b", "c", "d"], 4),
    (["abcd a b c d"], ["ab a b", "cd c d"], 4),
    (["abc a b c", "de d e"], ["a", "bcd b c d", "e"], 5),
    (["abcd"], ["a", "b", "c", "d"], 0),
    (["abc", "d"], ["a", "b", "c", "d"], 1),
    (["a", "bc", "d"], ["a", "b", "c", "d"], 2),
    (["a", "bc b c", "d"], ["a", "b", "cd"], 2),
    (["abc a BX c", "def d EX f"], ["ab a b", "cd c d", "ef e f"], 4),
    (["ab a b", "cd bc d"], ["a", "bc", "d"], 2),
    (["a", "bc b c", "d"], ["ab AX BX", "cd CX a"], 1),
]


@pytest.mark.parametrize("gold, system, right", SCRIPT_CASES)
def test_word_alignment_cases(gold, system, right):
    assert words_right(gold, system) == right


def test_texts_must_agree():
    with pytest.raises(ValueError, match="spell different texts.*'a'.*'b'"):
        segmentation_scores([sentence("a")], [sentence("b")])


def test_tokens_and_sentences():
    gold = [sentence("I", "did", "n't", "."), sentence("You", "did", ".")]
    system = [sentence("I", "didn't", "."), sentence("You"), sentence("did", ".")]
    s = segmentation_scores(gold, system)
    # tokens: I . You did . right of 7 gold, 6 system
    assert s["Tokens"] == pytest.approx({"precision": 5 / 6, "recall": 5 / 7,
                                         "f1": 10 / 13})
    # sentences: the first only
    assert s["Sentences"] == pytest.approx({"precision": 1 / 3, "recall": 1 / 2, "f1": 2 / 5})
    assert s["Words"]["f1"] == pytest.approx(10 / 13)


def test_spaces_inside_tokens_and_empty_nodes():
    # a token written with a space (Vietnamese "Hà Nội") covers the characters
    # without it; an empty node is no word
    gold = [[["1", "Hà Nội"] + ["_"] * 8, ["1.1", "x"] + ["_"] * 8,
             ["2", "đẹp"] + ["_"] * 8]]
    system = [sentence("Hà", "Nội", "đẹp")]
    s = segmentation_scores(gold, system)
    assert s["Tokens"]["recall"] == pytest.approx(1 / 2)
    assert s["Tokens"]["precision"] == pytest.approx(1 / 3)
    assert s["Sentences"]["f1"] == 1.0


def _word_spans(gold, system):
    """(start, end, in a multiword token, lower-cased form) of each word of
    the two sides, worked out by hand from the token notation."""
    def spans(tokens):
        out, at = [], 0
        for t in tokens:
            parts = t.split(" ")
            n = len(parts[0])
            for w in (parts[1:] if len(parts) > 1 else parts):
                out.append((at, at + n, len(parts) > 1, w.lower()))
            at += n
        return out
    return spans(gold), spans(system)


def random_segmentation(rng, text):
    tokens, at = [], 0
    while at < len(text):
        n = int(rng.integers(1, min(3, len(text) - at) + 1))
        form = text[at:at + n]
        if n > 1 and rng.random() < 0.3:
            cut = int(rng.integers(1, n))
            tokens.append(f"{form} {form[:cut]} {form[cut:]}")
        else:
            tokens.append(form)
        at += n
    return tokens


def test_identical_segmentations_score_one():
    rng = np.random.default_rng(0)
    for _ in range(50):
        t = random_segmentation(rng, "abcdefgh")
        s = segmentation_scores([sentence(*t)], [sentence(*t)])
        assert all(v["f1"] == 1.0 for v in s.values())


def test_words_never_exceed_tokens_bounds():
    # aligned words are at most min(gold words, system words), and equal tokens
    # without multiword tokens align exactly the common token spans
    rng = np.random.default_rng(1)
    for _ in range(200):
        g = random_segmentation(rng, "abcdefg")
        s = random_segmentation(rng, "abcdefg")
        gw, sw = _word_spans(g, s)
        right = words_right(g, s)
        assert 0 <= right <= min(len(gw), len(sw))
        if not any(w[2] for w in gw + sw):
            common = len({w[:2] for w in gw} & {w[:2] for w in sw})
            assert right == common


def test_lcs_region_by_brute_force():
    # one multiword token on each side over the whole text: the region is
    # everything, and the aligned words are the longest common subsequence
    rng = np.random.default_rng(2)
    alphabet = "ab"
    for _ in range(100):
        gw = ["".join(rng.choice(list(alphabet), int(rng.integers(1, 3)))) for _ in range(3)]
        sw = ["".join(rng.choice(list(alphabet), int(rng.integers(1, 3)))) for _ in range(3)]
        text = "xyz"
        best = 0
        for k in range(1, 4):
            for gi in itertools.combinations(range(3), k):
                for si in itertools.combinations(range(3), k):
                    if all(gw[a] == sw[b] for a, b in zip(gi, si)):
                        best = max(best, k)
        assert words_right([f"{text} " + " ".join(gw)], [f"{text} " + " ".join(sw)]) == best

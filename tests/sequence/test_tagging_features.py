"""The tagger's hashed token features (perceptron._core.featurize, in C)
against a pure-Python reference written from their definition: the feature
strings of each template (Ratnaparkhi 1996, section 3: the word, affixes,
the neighbouring words; Collins 2002, section 4), 64-bit FNV-1a from a
XOR a per-template seed, the murmur3 finaliser, the high 32 bits mapped to
[0, n_features) by multiply-shift (Lemire 2019); each row sorted, repeats
summed."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron._core import featurize as fz

M64 = (1 << 64) - 1
FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3


def fmix64(h):
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & M64
    h ^= h >> 33
    h = (h * 0xc4ceb9fe1a85ec53) & M64
    return h ^ (h >> 33)


def seed(template):
    return fmix64((0x9e3779b97f4a7c15 * (template + 1)) & M64)


def fnv(value):
    h = FNV_OFFSET
    for b in value.encode("utf-8"):
        h = ((h ^ b) * FNV_PRIME) & M64
    return h


def ref_hash(template, value):
    return fmix64(fnv(value) ^ seed(template))


def ref_pair_hash(template, a, b):
    s = seed(template)
    return fmix64(fmix64(fnv(a) ^ s) ^ fnv(b) ^ s)


def ref_column(h, n_features):
    return ((h >> 32) * n_features) >> 32


def ref_token(word):
    shape = []
    for c in word:
        k = "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
        if not shape or shape[-1] != k:
            shape.append(k)
    return word.lower(), "".join(shape)


def ref_features(sentence, classes=None):
    """(template number, hash) pairs of each token of a sentence; `classes`:
    the tokens' ambiguity classes (ints), or None (no such features)."""
    T = fz.TEMPLATES
    lowers = [ref_token(w)[0] for w in sentence]

    def at(j):
        """(word, lower case, shape) of position j, "<s>" / "</s>" outside."""
        if j < 0:
            return "<s>", "<s>", "<s>"
        if j >= len(sentence):
            return "</s>", "</s>", "</s>"
        return (sentence[j],) + ref_token(sentence[j])

    rows = []
    for i, word in enumerate(sentence):
        _, lower, shape = at(i)
        p2, p1, n1, n2 = at(i - 2), at(i - 1), at(i + 1), at(i + 2)
        f = [("bias", ""), ("word", word), ("lower", lower)]
        f += [("prefix", lower[:k]) for k in range(1, min(4, len(lower)) + 1)]
        f += [("suffix", lower[-k:]) for k in range(1, min(4, len(lower)) + 1)]
        if len(lower) >= 5:
            f.append(("suffix5", lower[-5:]))
        f.append(("shape", shape))
        if any(c.isdigit() for c in word):
            f.append(("digit", ""))
        if "-" in word:
            f.append(("hyphen", ""))
        if word[:1].isupper():
            f.append(("capital_first" if i == 0 else "capital", ""))
        f += [("prev1", p1[1]), ("prev1_suffix", p1[1][-3:]), ("prev2", p2[1]),
              ("next1", n1[1]), ("next1_suffix", n1[1][-3:]), ("next2", n2[1]),
              ("prev1_word", p1[0])]
        row = [(T[name], ref_hash(T[name], value)) for name, value in f]
        pairs = [("prev_bigram", p1[1], lower), ("next_bigram", lower, n1[1]),
                 ("prev2_bigram", p2[1], p1[1]), ("next_suffix_pair", lower, n1[1][-3:])]
        row += [(T[name], ref_pair_hash(T[name], a, b)) for name, a, b in pairs]
        if classes is not None:
            # a class is its own hash; beyond the sentence, the hash of <s> or </s>
            prev = classes[i - 1] if i else fnv("<s>")
            nxt = classes[i + 1] if i + 1 < len(sentence) else fnv("</s>")
            row += [(T[name], fmix64(value ^ seed(T[name]))) for name, value in
                    [("ambig", classes[i]), ("prev1_ambig", prev), ("next1_ambig", nxt)]]
        rows.append(row)
    return rows


def ref_csr(sentences, n_features, classes=None):
    data, indices, indptr = [], [], [0]
    start = 0
    for sentence in sentences:
        cls = None if classes is None else [int(c) for c in classes[start:start + len(sentence)]]
        start += len(sentence)
        for row in ref_features(sentence, cls):
            cols = {}
            for template, h in row:
                c = ref_column(h, n_features)
                cols[c] = cols.get(c, 0) + 1
            for c in sorted(cols):
                indices.append(c)
                data.append(cols[c])
            indptr.append(len(indices))
    return np.array(data, np.float32), np.array(indices), np.array(indptr)


def run(sentences, n_features, classes=None):
    tokens = [w for s in sentences for w in s]
    return fz.featurize(tokens, np.array([len(s) for s in sentences], np.int64), n_features,
                        classes=classes)


def assert_same(sentences, n_features, classes=None):
    data, indices, indptr = run(sentences, n_features, classes)
    rdata, rindices, rindptr = ref_csr(sentences, n_features, classes)
    assert data.dtype == np.float32 and indices.dtype == np.int32 and indptr.dtype == np.int32
    np.testing.assert_array_equal(indptr, rindptr)
    np.testing.assert_array_equal(indices, rindices)
    np.testing.assert_array_equal(data, rdata)


def test_hash_matches_reference():
    for template in fz.TEMPLATES.values():
        for value in ["", "a", "the", "Übergröße", "x" * 100]:
            assert fz.feature_hash(template, value.encode()) == ref_hash(template, value)


def test_templates_differ():
    # the same string under two templates is two features
    hashes = {fz.feature_hash(t, b"the") for t in fz.TEMPLATES.values()}
    assert len(hashes) == len(fz.TEMPLATES)


SENTENCES = [
    ["The", "U.S.", "economy", "grew", "3.5", "%", "in", "mid-2005", "."],
    ["I"],
    ["naïve", "Café", "ÉCOLE", "straße", "İstanbul", "٣", "x²", "日本語", "🙂ok"],
    ["", "a", "AB", "abcd", "abcde", "--", "12-34"],
]


def some_classes(sentences, seed=0):
    """Ambiguity classes for the tokens: 0 (unknown), small masks, and any
    64-bit value."""
    n = sum(map(len, sentences))
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 2 ** 63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    c[::3] = 0
    c[1::3] %= np.uint64(1 << 17)
    return c


@pytest.mark.parametrize("n_features", [1, 2, 7, 1 << 10, 1 << 20, 2 ** 31 - 1])
def test_featurize_matches_reference(n_features):
    assert_same(SENTENCES, n_features)
    assert_same(SENTENCES, n_features, some_classes(SENTENCES))


def test_lower_hashes_and_class_table():
    words = ["The", "the", "THE", "Café", "CAFÉ", "dog", "", "unseen", "İ"]
    hashes = fz.lower_hashes(words)
    assert hashes.dtype == np.uint64
    assert hashes.tolist() == [fnv(w.lower()) for w in words]
    known = {"the": 5, "café": 1 << 63, "dog": 2, "": 9}
    table = fz.ClassTable(np.array([fnv(w) for w in known], np.uint64),
                          np.array(list(known.values()), np.uint64))
    expected = np.array([known.get(w.lower(), 0) for w in words], np.uint64)
    # looking the tokens up in the table is giving each token its class
    for n_features in (7, 1 << 20):
        got = fz.featurize(words, np.array([4, 5]), n_features, classes=table)
        want = fz.featurize(words, np.array([4, 5]), n_features, classes=expected)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    # a table of many keys (collisions in the probing) and the empty table
    keys = np.arange(1, 5000, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    big = fz.ClassTable(np.concatenate([keys, table.__reduce__()[1][0]]),
                        np.concatenate([keys + np.uint64(1), table.__reduce__()[1][1]]))
    got = fz.featurize(words, np.array([9]), 1 << 20, classes=big)
    want = fz.featurize(words, np.array([9]), 1 << 20, classes=expected)
    np.testing.assert_array_equal(got[1], want[1])
    empty = fz.ClassTable(np.zeros(0, np.uint64), np.zeros(0, np.uint64))
    got = fz.featurize(words, np.array([9]), 1 << 20, classes=empty)
    want = fz.featurize(words, np.array([9]), 1 << 20, classes=np.zeros(9, np.uint64))
    np.testing.assert_array_equal(got[1], want[1])
    with pytest.raises(ValueError, match="distinct and non-zero"):
        fz.ClassTable(np.array([0], np.uint64), np.array([1], np.uint64))
    with pytest.raises(ValueError, match="distinct and non-zero"):
        fz.ClassTable(np.array([3, 3], np.uint64), np.array([1, 2], np.uint64))
    with pytest.raises(ValueError, match="one length"):
        fz.ClassTable(np.array([3], np.uint64), np.array([1, 2], np.uint64))
    with pytest.raises(ValueError, match="classes must be a uint64 array"):
        fz.featurize(["a", "b"], np.array([2]), 16, classes=np.array([1, 2]))
    with pytest.raises(ValueError, match="classes must be a uint64 array"):
        fz.featurize(["a", "b"], np.array([2]), 16, classes=np.array([1], np.uint64))


def test_repeats_merged():
    # with 2 columns nearly every feature collides: rows hold counts, sorted
    data, indices, indptr = run([["Hello", "world"]], 2)
    assert np.all(np.diff(indices[indptr[0]:indptr[1]]) > 0)
    assert data.sum() == sum(len(r) for r in ref_features(["Hello", "world"]))
    assert max(len(r) for r in ref_features(["Hello-1", "worlds", "x"], [1, 2, 3])) == \
        fz.MAX_PER_TOKEN


def test_template_selection():
    sentences = [["The", "cat", "sat"], ["A-1"]]
    T = fz.TEMPLATES
    for chosen in (["bias"], ["word", "prev_bigram"], ["ambig", "next1_ambig"], list(T)):
        tokens = [w for s in sentences for w in s]
        data, indices, indptr = fz.featurize(tokens, np.array([3, 1]), 1 << 20, chosen,
                                             np.array([1, 2, 3, 4], np.uint64))
        expected = [sorted({ref_column(h, 1 << 20) for t, h in row if t in {T[c] for c in chosen}})
                    for s, c in zip(sentences, [[1, 2, 3], [4]]) for row in ref_features(s, c)]
        got = [indices[indptr[i]:indptr[i + 1]].tolist() for i in range(len(indptr) - 1)]
        assert got == expected
    with pytest.raises(ValueError, match="unknown feature template 'nope'"):
        fz.featurize(["a"], np.array([1]), 16, ["nope"])


def test_empty_input():
    data, indices, indptr = run([], 16)
    assert len(data) == len(indices) == 0 and indptr.tolist() == [0]
    data, indices, indptr = run([[], ["a"], []], 16)
    assert indptr.tolist() == [0, len(data)]


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(text, max_size=6), max_size=4),
       st.integers(1, 2 ** 31 - 1))
def test_featurize_property(sentences, n_features):
    assert_same(sentences, n_features)
    assert_same(sentences, n_features, some_classes(sentences, n_features))


def test_bad_input():
    with pytest.raises(TypeError, match="token 1 is a int"):
        fz.featurize(["a", 3], np.array([2]), 16)
    with pytest.raises(ValueError, match="lengths sum to 3, but there are 2 tokens"):
        fz.featurize(["a", "b"], np.array([3]), 16)
    with pytest.raises(ValueError, match="negative"):
        fz.featurize(["a", "b"], np.array([3, -1]), 16)
    with pytest.raises(ValueError, match="n_features"):
        fz.featurize(["a"], np.array([1]), 0)
    with pytest.raises(ValueError, match="cannot be encoded as UTF-8"):
        fz.featurize(["a\ud800"], np.array([1]), 16)


def test_split_tagged_and_pair_tags():
    sents = [[("The", "DET"), ("cat", "NOUN")], [], [("runs", "VERB"), ("fast", "ADV")]]
    tokens, codes, lengths, tags = fz.split_tagged(sents)
    assert tokens == ["The", "cat", "runs", "fast"]
    assert tags == ["ADV", "DET", "NOUN", "VERB"]
    assert [tags[c] for c in codes] == ["DET", "NOUN", "VERB", "ADV"]
    assert lengths.tolist() == [2, 0, 2]
    words = [["The", "cat"], [], ["runs", "fast"]]
    assert fz.pair_tags(words, [tags[c] for c in codes]) == sents
    with pytest.raises(ValueError, match="fewer tags"):
        fz.pair_tags(words, ["A"])
    with pytest.raises(ValueError, match="more tags"):
        fz.pair_tags(words, ["A"] * 5)
    with pytest.raises(TypeError, match="sentence 0 is a tuple"):
        fz.pair_tags([("a",)], ["A"])
    with pytest.raises(TypeError, match="sentence 0 is a NoneType"):
        fz.pair_tags([None], ["A"])
    with pytest.raises(TypeError, match="not a .word, tag. pair"):
        fz.split_tagged([[("a", "B", "C")]])
    with pytest.raises(TypeError, match="tags must be str"):
        fz.split_tagged([[("a", None)]])


def test_lengths_that_wrap_around_are_refused():
    # four lengths whose sum wraps around a 64-bit integer to the one token
    lengths = np.array([2**62, 2**62, 2**62, 2**62 + 1], dtype=np.int64)
    with pytest.raises(ValueError, match=f"lengths sum to {4 * 2**62 + 1}, but there are 1 "):
        fz.featurize(["a"], lengths, 1024)

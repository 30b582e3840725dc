"""Lemma edit scripts (Chrupała 2006): the script of (form, lemma) applied to
the form gives the lemma, the script of (lemma, form) applied to the lemma
gives the form back, and scripts generalise across words; against a
brute-force reference of the longest common substring."""
from hypothesis import given, settings, strategies as st
import pytest

from perceptron.sequence._lemma import apply_rule, lemma_rule, rule_parts

WORDS = st.text(alphabet=st.sampled_from("abcAB ÉéşİıßΣσ的-1"), max_size=8)


def _longest_common(a, b):
    """Brute force: the length of the longest common substring."""
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            k = 0
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            best = max(best, k)
    return best


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_applied_and_inverted(form, lemma):
    rule = lemma_rule(form, lemma)
    assert apply_rule(form, rule) == lemma
    assert apply_rule(lemma, lemma_rule(lemma, form)) == form
    case, pcut, prefix, scut, suffix = rule_parts(rule)
    source = form.lower() if case == "l" else form
    kept = len(source) - pcut - scut
    # the kept part is a longest common substring of the case-mapped form
    # and the lemma, and lower-casing is chosen only when it keeps more
    assert kept == _longest_common(source, lemma)
    assert kept >= _longest_common(form, lemma)
    assert source[pcut:len(source) - scut] == lemma[len(prefix):len(lemma) - len(suffix)]


@pytest.mark.parametrize("form, lemma, other, other_lemma", [
    ("studies", "study", "flies", "fly"),
    ("Regeringsdienste", "regeringsdiens", "Gesinsdienste", "gesinsdiens"),
    ("ungehalten", "halten", "ungemacht", "macht"),
    ("The", "the", "A", "a"),
])
def test_scripts_generalise(form, lemma, other, other_lemma):
    assert apply_rule(other, lemma_rule(form, lemma)) == other_lemma


def test_identity_and_irregular():
    assert lemma_rule("chủ tịch", "chủ tịch") == "k,0,0,0,"
    rule = lemma_rule("went", "go")
    assert apply_rule("went", rule) == "go"
    assert apply_rule("a", lemma_rule("abc", "x")) is None  # cuts more than the word has


def test_bad_scripts():
    for bad in ("", "k,1", "x,0,0,0,", "k,-1,0,0,", "k,0,5,0,ab", None):
        with pytest.raises(ValueError, match="edit script"):
            rule_parts(bad)
    with pytest.raises(TypeError, match="str"):
        lemma_rule("a", 1)

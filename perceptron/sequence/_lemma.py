"""Lemmas as edit scripts: the rule that turns a word form into its lemma.

Chrupała (2006, "Simple data-driven context-sensitive lemmatization",
section 3) makes lemmatization a classification problem: each (form, lemma)
pair of the training data becomes the shortest edit script that rewrites the
form into the lemma, the scripts are the classes, and a classifier picks one
per token from its context.  Because a script names the edits relative to the
ends of the word, not the word itself, one script serves a whole class of
words (English ``-ies`` -> ``-y``, Afrikaans ``-e`` -> ``''``), and applying
it to a word never seen in training gives a lemma.

Here a script is: a case step (keep the form's case, or lower-case it
first), then a prefix edit (remove ``p`` code points from the start, add a
string) and a suffix edit (remove ``s`` code points from the end, add a
string); what is kept is the longest common substring of the (case-mapped)
form and the lemma, as in UDPipe 1's lemma rules and Chrupała's reversed
suffix scripts.  Lengths count code points, so scripts work the same in any
script and in words with spaces inside.  A script is encoded as one ``str``
(``"k,2,1,3,xyz"``: case, prefix cut, length of the added prefix, suffix
cut, then the added prefix and suffix), so that it can be a class label.
"""
from difflib import SequenceMatcher

__all__ = ["lemma_rule", "apply_rule", "rule_parts"]

_KEEP, _LOWER = "k", "l"


def _common(a, b):
    """(start in a, start in b, length) of the longest common substring,
    the first one in ``a`` on ties."""
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return m.a, m.b, m.size


def lemma_rule(form, lemma):
    """The edit script that rewrites ``form`` into ``lemma`` (a ``str``).

    The case step is lower-casing when that makes the kept part longer,
    else keeping the case; the kept part is the longest common substring of
    the case-mapped form and the lemma (nothing when they share no code
    point: the script then removes the whole form and adds the lemma).
    """
    if not isinstance(form, str) or not isinstance(lemma, str):
        raise TypeError(f"form and lemma must be str, got {type(form).__name__} and "
                        f"{type(lemma).__name__}")
    case, source = _KEEP, form
    i, j, size = _common(form, lemma)
    lower = form.lower()
    if lower != form and len(lower) == len(form):
        li, lj, lsize = _common(lower, lemma)
        if lsize > size:
            case, source, i, j, size = _LOWER, lower, li, lj, lsize
    if size == 0:
        i, j = 0, 0
    prefix_add = lemma[:j]
    suffix_add = lemma[j + size:]
    prefix_cut = i
    suffix_cut = len(source) - i - size
    return f"{case},{prefix_cut},{len(prefix_add)},{suffix_cut},{prefix_add}{suffix_add}"


def rule_parts(rule):
    """(case, prefix cut, prefix added, suffix cut, suffix added) of a script."""
    try:
        case, pcut, plen, scut, added = rule.split(",", 4)
        pcut, plen, scut = int(pcut), int(plen), int(scut)
    except (AttributeError, ValueError):
        raise ValueError(f"{rule!r:.60} is not an edit script (case,cut,len,cut,text)") \
            from None
    if case not in (_KEEP, _LOWER) or min(pcut, plen, scut) < 0 or plen > len(added):
        raise ValueError(f"{rule!r:.60} is not an edit script (case,cut,len,cut,text)")
    return case, pcut, added[:plen], scut, added[plen:]


def apply_rule(form, rule):
    """The lemma the script ``rule`` makes of ``form``, or None when the
    script removes more code points than the form has."""
    case, pcut, prefix, scut, suffix = rule_parts(rule)
    if case == _LOWER:
        lower = form.lower()
        # a lower case of another length (a few code points, e.g. U+0130)
        # would shift the cuts: the script then does not apply
        if len(lower) != len(form):
            return None
        form = lower
    if pcut + scut > len(form):
        return None
    return prefix + form[pcut:len(form) - scut] + suffix

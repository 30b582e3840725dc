"""A morphological tagger and lemmatizer for any Universal Dependencies treebank.

``MorphTagger`` learns from CoNLL-U the columns the training file fills:
UPOS, XPOS, FEATS and LEMMA.  Every token is described by the part-of-speech
tagger's hashed features (``perceptron._core.featurize``: words, affixes,
shapes and neighbours, the ambiguity classes of the words and their
neighbours) and by features of the word that assume no language
(``_morph_features``: affixes by code point, Unicode shape and script,
the parts of words with spaces or hyphens inside).

- UPOS and XPOS are each decoded by Viterbi in a first-order structured
  perceptron (Collins 2002), as the part-of-speech tagger does; an XPOS (and
  a FEATS string) never seen in training with the predicted UPOS is replaced
  by the best-scoring one that was, so that the columns predicted apart make
  a combination of the training data, as a joint tag would.
- FEATS is one label per token, the whole feature string, classified token
  by token (the averaged multiclass perceptron, ``_candidates``) from the
  same features, folded into fewer columns, and their conjunctions with the
  token's part of speech, among the strings seen with that part of speech
  in training: hundreds of feature strings make first-order decoding (the
  square of the labels per token) too slow, while the part of speech and
  the neighbours' words carry most of what the string's context decides,
  and the part of speech leaves a few strings of the hundreds possible.
- LEMMA is an edit script (Chrupała 2006, section 3; ``_lemma``): a word
  seen in training with its part of speech takes its most frequent script
  there; another word the script a multiclass perceptron scores highest
  among those seen with its part of speech that apply to it, from its
  code-point affixes and shape conjoined with its part of speech.

The part of speech the FEATS and LEMMA classifiers read is the gold one in
training and the predicted one in tagging, as in a pipeline.
"""
import copy
import numbers
from collections import Counter, defaultdict
from typing import Any

import numpy as np

from perceptron._core import featurize as _featurize
from perceptron._common.base import BaseEstimator
from perceptron._common.validation import CSRData, check_is_fitted, check_random_seed
from perceptron.io._model_file import save_model
from perceptron.io._registry import check_held, models, need, register_model
from perceptron.sequence._candidates import STATE, CandidateClassifier
from perceptron.sequence._lemma import apply_rule, lemma_rule
from perceptron.sequence._morph_features import TypeFeatures, hstack_rows
from perceptron.sequence._structured import StructuredPerceptron
from perceptron.sequence._tagger import (ambiguity_classes, class_table, flatten_tokens,
                                         load_tagger)

__all__ = ["MorphTagger", "COLUMNS"]

# the columns learnt, in the order they are trained and predicted (FEATS and
# LEMMA read the predicted UPOS), and their fields in a CoNLL-U row
COLUMNS = ("upos", "xpos", "feats", "lemma")
_FIELD = {"upos": 3, "xpos": 4, "feats": 5, "lemma": 2}
_SEQUENTIAL = ("upos", "xpos")
# edit scripts seen fewer times are left to the lexicon (a classifier cannot
# learn a class from one example, and most such scripts are irregular words)
_MIN_RULE_COUNT = 2


def _rows(sentence, i):
    rows = getattr(sentence, "words", None)
    if rows is None:
        if isinstance(sentence, str):
            raise TypeError(f"sentence {i} is a str, not CoNLL-U rows")
        rows = [r for r in sentence if r[0].isascii() and r[0].isdigit()]
    for r in rows:
        if len(r) != 10:
            raise ValueError(f"sentence {i}: a row of {len(r)} fields, not the 10 of CoNLL-U")
    return rows


def _encode(values):
    """(classes, codes): the distinct strings of a list, sorted (an object
    array, as np.unique gives them), and each value's index among them, in
    one pass of dict look-ups rather than a sort of every value."""
    index: dict = {}
    first = [index.setdefault(v, len(index)) for v in values]
    ordered = sorted(index)
    rank = np.empty(len(ordered), dtype=np.intp)
    rank[[index[v] for v in ordered]] = np.arange(len(ordered))
    return np.array(ordered, dtype=object), rank[np.array(first, dtype=np.intp)]


def _flatten(sentences):
    words, lengths = [], []
    for i, s in enumerate(sentences):
        rows = _rows(s, i)
        words.extend(rows)
        lengths.append(len(rows))
    return words, np.array(lengths, dtype=np.int64)


class MorphTagger(BaseEstimator):
    """Morphological tagging and lemmatization of CoNLL-U sentences.

    Parameters
    ----------
    columns : sequence of {"upos", "xpos", "feats", "lemma"} or None
        The columns to learn; None: each of them that the training data fills
        (a column of only ``_`` is not learnt).
    n_features : int, default=2**18
        Hashed columns of the UPOS and XPOS models (as ``PerceptronTagger``).
    n_class_features : int, default=2**14
        Hashed columns of each feature block of the FEATS and LEMMA
        classifiers, whose labels are many (their weights take
        ``3 * n_class_features`` numbers a label).
    max_iter : int, default=5
        Epochs (at most, with a development set).
    average, shuffle, random_state
        As for :class:`~perceptron.StructuredPerceptron`.

    Examples
    --------
    >>> from perceptron.tagging import MorphTagger
    >>> rows = lambda *w: [[str(i + 1), f, l, u, "_", t, "_", "_", "_", "_"]
    ...                    for i, (f, l, u, t) in enumerate(w)]
    >>> train = [rows(("the", "the", "DET", "_"), ("cats", "cat", "NOUN", "Number=Plur")),
    ...          rows(("a", "a", "DET", "_"), ("dog", "dog", "NOUN", "Number=Sing")),
    ...          rows(("the", "the", "DET", "_"), ("hens", "hen", "NOUN", "Number=Plur")),
    ...          rows(("a", "a", "DET", "_"), ("cow", "cow", "NOUN", "Number=Sing"))] * 5
    >>> tagger = MorphTagger(n_features=2**12, n_class_features=2**10).fit(train)
    >>> [(r[1], r[2], r[3], r[5]) for r in tagger.tag(["the", "dogs"])]
    [('the', 'the', 'DET', '_'), ('dogs', 'dog', 'NOUN', 'Number=Plur')]
    """

    def __init__(self, columns=None, n_features=2 ** 18, n_class_features=2 ** 14, max_iter=5,
                 average=True, shuffle=True, random_state=0):
        self.columns = columns
        self.n_features = n_features
        self.n_class_features = n_class_features
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state

    def _check_params(self):
        for name in ("n_features", "n_class_features", "max_iter"):
            v = getattr(self, name)
            top = _featurize.MAX_FEATURES if name != "max_iter" else 10 ** 6
            if not isinstance(v, numbers.Integral) or isinstance(v, bool) or not 1 <= int(v) <= top:
                raise ValueError(f"{name} must be an int in [1, {top}], got {v!r}")
        for name in ("average", "shuffle"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        check_random_seed(self.random_state)
        if self.columns is not None:
            cols = [self.columns] if isinstance(self.columns, str) else list(self.columns)
            bad = [c for c in cols if c not in COLUMNS]
            if bad or not cols:
                raise ValueError(f"columns must be None or some of {COLUMNS}, got "
                                 f"{self.columns!r}")
            return tuple(c for c in COLUMNS if c in cols)
        return None

    def _model(self):
        return StructuredPerceptron(max_iter=int(self.max_iter), average=bool(self.average),
                                    shuffle=bool(self.shuffle), random_state=self.random_state)

    # ------------------------------------------------------------ features
    def _tag_X(self, forms, lengths, types, classes):
        data, indices, indptr = _featurize.featurize(forms, lengths, int(self.n_features),
                                                     classes=classes)
        n = len(forms)
        t_idx, t_ptr = types.rows(self.n_class_features)
        data, idx, ptr = hstack_rows([(indices.astype(np.int64), indptr.astype(np.int64),
                                    int(self.n_features)),
                                   (t_idx, t_ptr, int(self.n_class_features))], n)
        return CSRData(data, idx, ptr,
                       (n, int(self.n_features) + int(self.n_class_features))), (indices, indptr)

    def _class_X(self, base, types, upos_codes, with_context):
        m = int(self.n_class_features)
        n = len(types.ids)
        blocks = []
        if with_context:
            indices, indptr = base
            blocks.append(((indices % m).astype(np.int64), indptr.astype(np.int64), m))
        t_idx, t_ptr = types.rows(m)
        blocks.append((t_idx, t_ptr, m))
        c_idx, c_ptr = types.conjoined(upos_codes, m)
        blocks.append((c_idx, c_ptr, m))
        data, idx, ptr = hstack_rows(blocks, n)
        return CSRData(data, idx, ptr, (n, m * len(blocks)))

    # ------------------------------------------------------------ fit
    def fit(self, sentences, dev=None, patience=2):
        """Learn the columns of CoNLL-U sentences.

        Parameters
        ----------
        sentences : iterable of ConlluSentence or of lists of ten-field rows
            (``perceptron.io.read_conllu_sentences``).
        dev : same, optional
            Development sentences: each column's model is then trained one
            epoch at a time, up to ``max_iter``, and kept at the epoch of its
            best accuracy on them, stopping after ``patience`` epochs without
            a better one (early stopping).
        patience : int, default=2

        Returns
        -------
        self
        """
        wanted = self._check_params()
        words, lengths = _flatten(sentences)
        if not words:
            raise ValueError("fit needs at least one word")
        forms = [r[1] for r in words]
        filled = [c for c in COLUMNS if any(r[_FIELD[c]] != "_" for r in words)]
        columns = [c for c in (wanted or filled) if c in filled]
        if wanted is not None and len(columns) < len(wanted):
            missing = sorted(set(wanted) - set(columns), key=COLUMNS.index)
            raise ValueError(f"the training data does not fill the column(s) {missing}")
        if not columns:
            raise ValueError("the training data fills none of UPOS, XPOS, FEATS, LEMMA")
        if any(c in ("feats", "lemma") for c in columns) and "upos" not in columns:
            raise ValueError("FEATS and LEMMA are learnt with UPOS: add 'upos' to columns")
        dev_data: Any = None
        if dev is not None:
            dev_words, dev_lengths = _flatten(dev)
            if dev_words:
                dev_data = (dev_words, dev_lengths, [r[1] for r in dev_words])
        for name in [k for k in vars(self) if k.endswith("_") or k == "_table"]:
            delattr(self, name)
        tags = {c: np.array([r[_FIELD[c]] for r in words], dtype=object) for c in columns}
        classes, codes_of = {}, {}
        for c in columns:
            if c != "lemma":
                classes[c], codes_of[c] = _encode(tags[c].tolist())
        upos_codes = None
        if "upos" in columns:
            upos_codes = codes_of["upos"]
            keys, masks, train_classes = ambiguity_classes(forms, upos_codes, lengths)
        else:
            keys, masks, train_classes = ambiguity_classes(forms, codes_of[columns[0]], lengths)
        self.ambiguity_keys_, self.ambiguity_classes_ = keys, masks
        self.columns_ = np.array(columns, dtype=object)
        types = TypeFeatures(forms)
        X, base = self._tag_X(forms, lengths, types, train_classes)
        dev_feats: Any = None
        if dev_data is not None:
            d_forms = dev_data[2]
            d_types = TypeFeatures(d_forms)
            d_X, d_base = self._tag_X(d_forms, dev_data[1], d_types, class_table(self))
            dev_feats = (d_X, d_base, d_types)
        dev_upos = None
        for c in columns:
            if c in _SEQUENTIAL:
                y = codes_of[c]
                dev_xy = None
                if dev_feats is not None:
                    dev_xy = (dev_feats[0], self._dev_codes(dev_data[0], c, classes[c]),
                              dev_data[1])
                model = self._train(X, y, lengths, dev_xy, patience, len(classes[c]))
                setattr(self, f"{c}_classes_", classes[c])
                setattr(self, f"{c}_model_", model)
                if c == "xpos" and upos_codes is not None:
                    self.xpos_allowed_ = _pairs(upos_codes, y, len(classes["upos"]),
                                                len(classes[c]))
                if c == "upos" and dev_feats is not None:
                    dev_upos = model.predict(dev_feats[0], dev_data[1])
            elif c == "feats":
                Xf = self._class_X(base, types, upos_codes, True)
                y = codes_of[c]
                dev_xy = None
                if dev_feats is not None:
                    dXf = self._class_X(dev_feats[1], dev_feats[2], dev_upos, True)
                    dev_xy = (dXf, dev_upos, self._dev_codes(dev_data[0], c, classes[c]))
                self.feats_classes_ = classes[c]
                self.feats_model_ = self._classify(Xf, y, upos_codes, len(classes[c]),
                                                   len(classes["upos"]), dev_xy, patience)
            else:
                self._fit_lemmas(forms, tags, upos_codes, types, dev_data, dev_feats, dev_upos,
                                 patience)
        vars(self).pop("_table", None)
        return self

    def _classify(self, X, y, groups, n_labels, n_groups, dev, patience):
        if n_labels < 2:
            return _Constant(0)
        model = CandidateClassifier(int(self.max_iter), bool(self.average), bool(self.shuffle),
                                    self.random_state)
        return model.fit(X, y, groups, n_labels, n_groups, dev, patience)

    def _dev_codes(self, dev_words, c, classes):
        gold = np.array([r[_FIELD[c]] for r in dev_words], dtype=object)
        codes = np.minimum(np.searchsorted(classes, gold), len(classes) - 1)
        # a dev tag unseen in training counts as a mistake whatever is predicted
        codes[classes[codes] != gold] = -1
        return codes

    def _train(self, X, y, lengths, dev, patience, n_classes):
        if n_classes < 2:
            # one label: nothing to learn, a model that always predicts it
            return _Constant(0)
        model = self._model()
        if dev is None:
            return model.fit(X, y, lengths)
        best: Any = None
        best_score, since = -1.0, 0
        labels = np.arange(n_classes)
        for _ in range(int(self.max_iter)):
            model.partial_fit(X, y, lengths, classes=labels)
            score = float(np.mean(model.predict(dev[0], dev[2]) == dev[1]))
            if score > best_score:
                best, best_score, since = copy.deepcopy(model), score, 0
            else:
                since += 1
                if since >= patience:
                    break
        best.dev_score_ = best_score
        return best

    def _fit_lemmas(self, forms, tags, upos_codes, types, dev_data, dev_feats, dev_upos,
                    patience):
        lemmas, upos = tags["lemma"], tags["upos"]
        cache: dict = {}
        rules = []
        for f, l in zip(forms, lemmas.tolist()):
            r = cache.get((f, l))
            if r is None:
                r = cache[(f, l)] = lemma_rule(f, l)
            rules.append(r)
        by_key: dict = defaultdict(Counter)
        for f, u, r in zip(forms, upos.tolist(), rules):
            by_key[f + "\t" + u][r] += 1
        keys = sorted(by_key)
        self.lemma_keys_ = np.array(keys, dtype=object)
        self.lemma_rules_ = np.array([by_key[k].most_common(1)[0][0] for k in keys],
                                     dtype=object)
        counts = Counter(rules)
        frequent = np.array([counts[r] >= _MIN_RULE_COUNT for r in rules])
        rule_classes = np.array(sorted(r for r in counts if counts[r] >= _MIN_RULE_COUNT),
                                dtype=object)
        self.lemma_classes_ = rule_classes
        if len(rule_classes) < 2:
            self.lemma_model_ = _Constant(0)
            return
        rows = np.flatnonzero(frequent)
        y = np.searchsorted(rule_classes, np.array(rules, dtype=object)[rows])
        # A token's row holds features of its word and part of speech alone,
        # so the tokens of a (word, part of speech, script) share one row: it
        # is learnt once, from the distinct words rather than their running
        # tokens.  The classifier serves the words the lexicon lacks, which
        # are rare words, as TnT estimates its model of unknown words from the
        # infrequent ones (Brants 2000, section 2.3); the most frequent words
        # no longer outweigh them, and an epoch is a tenth of the tokens.
        groups = np.asarray(upos_codes, dtype=np.int64)[rows]
        key = (types.ids[rows].astype(np.int64) * (int(groups.max()) + 1) + groups) * \
            len(rule_classes) + y
        first = np.sort(np.unique(key, return_index=True)[1])
        rows, y = rows[first], y[first]
        X = self._class_X(None, _subset(types, rows), groups[first], False)
        dev_xy = None
        if dev_data is not None:
            d_forms = dev_data[2]
            d_rules = np.array([lemma_rule(f, r[2]) for f, r in zip(d_forms, dev_data[0])],
                               dtype=object)
            codes = np.minimum(np.searchsorted(rule_classes, d_rules), len(rule_classes) - 1)
            codes[rule_classes[codes] != d_rules] = -1
            dX = self._class_X(None, dev_feats[2], dev_upos, False)
            dev_xy = (dX, np.zeros(len(codes), np.int32), codes)
        # every script a candidate of every word (one group): the scripts
        # seen with a part of speech would leave a word whose part of speech
        # is predicted wrong without its script
        self.lemma_model_ = self._classify(X, y, np.zeros(len(rows), np.int32), len(rule_classes),
                                           1, dev_xy, patience)

    # ------------------------------------------------------------ tagging
    def predict_columns(self, sentences):
        """The predicted columns of token lists: a dict column -> list of str
        over all tokens, and the sentence lengths."""
        check_is_fitted(self, "columns_")
        forms, lengths = flatten_tokens(sentences)
        out = {}
        if not forms:
            return {c: [] for c in self.columns_}, lengths
        types = TypeFeatures(forms)
        X, base = self._tag_X(forms, lengths, types, class_table(self))
        upos_codes = None
        for c in self.columns_.tolist():
            if c in _SEQUENTIAL:
                model = getattr(self, f"{c}_model_")
                codes = np.asarray(model.predict(X, lengths))
                if c == "upos":
                    upos_codes = codes
                elif upos_codes is not None and "xpos_allowed_" in vars(self):
                    codes = _consistent(model, X, codes, self.xpos_allowed_[upos_codes])
                out[c] = getattr(self, f"{c}_classes_")[codes].tolist()
            elif c == "feats":
                Xf = self._class_X(base, types, upos_codes, True)
                codes = self.feats_model_.predict(Xf, upos_codes)
                out[c] = self.feats_classes_[codes].tolist()
            else:
                out[c] = self._predict_lemmas(forms, types, upos_codes, out["upos"])
        return out, lengths

    def _predict_lemmas(self, forms, types, upos_codes, upos):
        keys = self.lemma_keys_
        query = np.array([f + "\t" + u for f, u in zip(forms, upos)], dtype=object)
        pos = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
        known = keys[pos] == query
        lemmas = [None] * len(forms)
        for i in np.flatnonzero(known).tolist():
            lemmas[i] = apply_rule(forms[i], self.lemma_rules_[pos[i]])
        unknown = [i for i in range(len(forms)) if lemmas[i] is None]
        if unknown:
            rows = np.array(unknown, dtype=np.intp)
            classes = self.lemma_classes_
            model = self.lemma_model_
            X = self._class_X(None, _subset(types, rows), np.asarray(upos_codes)[rows], False)
            scores = model.decision_function(X, np.zeros(len(rows), np.int32))
            order = np.argsort(-scores, axis=1, kind="stable")
            for k, i in enumerate(unknown):
                lemma = None
                for code in order[k]:
                    lemma = apply_rule(forms[i], classes[code])
                    if lemma:
                        break
                lemmas[i] = lemma or forms[i]
        return lemmas

    def tag(self, tokens):
        """Rows of CoNLL-U (ten fields) for one sentence of ``str`` tokens,
        the learnt columns filled, the others ``_``."""
        if isinstance(tokens, str):
            raise TypeError("tag takes a list of tokens, not a str")
        tokens = list(tokens)
        rows = [[str(i + 1), w] + ["_"] * 8 for i, w in enumerate(tokens)]
        self._fill([rows])
        return rows

    def annotate(self, sentences):
        """Fill the learnt columns of CoNLL-U sentences in place (every other
        column, comment and multiword-token line is kept); returns them."""
        if not isinstance(sentences, list):
            sentences = list(sentences)
        self._fill([_rows(s, i) for i, s in enumerate(sentences)])
        return sentences

    def _fill(self, rows_of_sentences):
        predicted, _ = self.predict_columns([[r[1] for r in rows] for rows in
                                             rows_of_sentences])
        k = 0
        for rows in rows_of_sentences:
            for r in rows:
                for c, values in predicted.items():
                    r[_FIELD[c]] = values[k]
                k += 1

    def known_words(self, forms):
        """Boolean array: which forms (by their lower case) were seen in
        training (the others are the unknown words of ``evaluate``)."""
        check_is_fitted(self, "columns_")
        h = _featurize.lower_hashes(list(forms))
        pos = np.minimum(np.searchsorted(self.ambiguity_keys_, h),
                         max(len(self.ambiguity_keys_) - 1, 0))
        return self.ambiguity_keys_[pos] == h if len(self.ambiguity_keys_) else \
            np.zeros(len(h), dtype=bool)

    # ------------------------------------------------------------ persistence
    def save(self, path, *, training_state=None):
        """Write this tagger to a model file (:meth:`load` reads it); the
        file never holds training state (``training_state`` must be None or
        False: the tagger is not trained further)."""
        if training_state:
            raise ValueError("a MorphTagger's file holds no training state: training_state "
                             "must be None or False")
        view = type(self).__new__(type(self))
        vars(view).update(self.get_params())
        for name, value in vars(self).items():
            if not name.endswith("_"):
                continue
            if name.endswith("_model_"):  # a column's model, flattened
                for k, v in _model_state(value).items():
                    setattr(view, f"{name}_{k}", v)
            else:
                setattr(view, name, value)
        save_model(view, path, training_state=False)

    @classmethod
    def load(cls, path):
        """The tagger of a file written by :meth:`save`."""
        return load_tagger(cls, path)


class _Constant:
    """The model of a column with one label in training: always that label."""

    def __init__(self, code):
        self.code = code

    def predict(self, X, lengths):
        return np.full(X.shape[0], self.code, dtype=np.intp)

    def decision_function(self, X, groups=None):
        return np.zeros((X.shape[0], 1))


def _pairs(upos_codes, codes, n_upos, n_codes):
    """uint8 table (n_upos, n_codes): 1 where a tag was seen with a part of
    speech in training."""
    table = np.zeros((n_upos, n_codes), dtype=np.uint8)
    table[np.asarray(upos_codes), np.asarray(codes)] = 1
    return table


def _consistent(model, X, codes, allowed):
    """The codes, where a token's code was never seen with its predicted
    part of speech replaced by the best-scoring code that was (the emission
    scores of the token): UPOS, XPOS and FEATS predicted apart must still
    make a combination of the training data, as a joint tag would."""
    codes = np.asarray(codes, dtype=np.intp)
    if isinstance(model, _Constant):
        return codes
    bad = np.flatnonzero(allowed[np.arange(len(codes)), codes] == 0)
    bad = bad[allowed[bad].any(axis=1)]
    if len(bad):
        scores = np.asarray(model.decision_function(_take_rows(X, bad)), dtype=np.float64)
        scores[allowed[bad] == 0] = -np.inf
        codes = codes.copy()
        codes[bad] = np.argmax(scores, axis=1)
    return codes


def _subset(types, rows):
    """The type features of some of the tokens (their rows are made for
    those tokens alone)."""
    sub = copy.copy(types)
    sub.ids = types.ids[rows]
    return sub


def _take_rows(X, rows):
    indptr = np.asarray(X.indptr, dtype=np.int64)
    counts = indptr[rows + 1] - indptr[rows]
    new_ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(counts, out=new_ptr[1:])
    take = np.arange(new_ptr[-1], dtype=np.int64) - np.repeat(new_ptr[:-1] - indptr[rows],
                                                               counts)
    return CSRData(np.asarray(X.data)[take], np.asarray(X.indices)[take], new_ptr,
                   (len(rows), X.shape[1]))


def _seq_fitted():
    return sorted(models()[StructuredPerceptron.__name__].fitted -
                  models()[StructuredPerceptron.__name__].training_state)


def _model_state(model):
    if isinstance(model, _Constant):
        return {"constant": int(model.code)}
    if isinstance(model, CandidateClassifier):
        return model.state()
    return {k: v for k, v in vars(model).items() if k in set(_seq_fitted())}


def _check_saved(est):
    for c in ("upos", "xpos", "feats", "lemma"):
        name = f"{c}_model_"
        state = {k[len(name) + 1:]: vars(est).pop(k) for k in list(vars(est))
                 if k.startswith(name + "_")}
        if not state:
            continue
        if "constant" in state:
            model = _Constant(int(state["constant"]))
        elif "cand_" in state:
            model = CandidateClassifier.from_state(state)
            labels = vars(est).get(f"{c}_classes_")
            groups = 1 if c == "lemma" else len(vars(est).get("upos_classes_", ()))
            need(labels is not None and model.coef_.shape[1] == len(labels) and
                 len(model.cand_ptr_) - 1 == groups,
                 f"{name}: a label a class of {c}_classes_, a candidate list a UPOS")
        else:
            # FEATS and lemmas are candidate classifiers; a sequence model
            # there is a file of an earlier development version, refused
            # here rather than failing when it tags
            need(c in ("upos", "xpos"),
                 f"{name}: a candidate classifier (the file's {c} model is a sequence "
                 "model, as an earlier development version wrote it: train the tagger again)")
            model = est._model()
            for k, v in state.items():
                setattr(model, k, v)
            model.coef_ = np.asfortranarray(model.coef_)
            models()[StructuredPerceptron.__name__].check(model)
        setattr(est, name, model)
    need(is_columns(est.columns_), "columns_ of upos, xpos, feats, lemma")
    check_held(est, "tokenizer_", "Tokenizer")
    est._check_params()


def is_columns(value):
    return isinstance(value, np.ndarray) and all(c in COLUMNS for c in value.tolist())


def _fitted_names():
    names = {"columns_", "ambiguity_keys_", "ambiguity_classes_", "lemma_keys_",
             "lemma_rules_", "lemma_classes_", "xpos_allowed_", "tokenizer_"}
    names |= {f"{c}_classes_" for c in COLUMNS}
    for c in COLUMNS:
        names |= {f"{c}_model__{k}" for k in _seq_fitted() + list(STATE) + ["constant"]}
    return names


register_model(MorphTagger, check=_check_saved, fitted=frozenset(_fitted_names()))

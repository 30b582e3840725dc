"""Part-of-speech tagging: hashed token features and a structured perceptron.

``PerceptronTagger`` tags sentences (lists of ``str`` tokens).  Each token
is described by the usual features of perceptron taggers (Ratnaparkhi 1996,
section 3; Collins 2002, section 4): the word, its lower case, its prefixes
and suffixes of 1 to 4 characters, its shape (``Xx``, ``d.d``: upper case,
lower case and digits as X, x and d, runs collapsed), whether it has a
digit or a hyphen or starts with a capital, the lower-cased words two to
the left and two to the right, the 3-character suffixes of the adjacent
words, and a bias; and the ambiguity classes (the sets of tags seen in
training) of the word and of its two neighbours (Cutting et al. 1992;
Daelemans et al. 1996; Gimenez and Marquez 2004).  The features are hashed
into ``n_features`` columns (Weinberger et al. 2009) in compiled code
(``perceptron._core.featurize``), so no vocabulary of features is stored
(only the ambiguity class of each training word, by the hash of its lower
case) and no Python object is made per token.  The tag
of the previous word is not a feature: the tags are decoded jointly by
Viterbi in a first-order :class:`~perceptron.StructuredPerceptron`, whose
transition scores play that part (Collins 2002).
"""
import numbers

import numpy as np

from perceptron._core import featurize as _featurize
from perceptron._common.base import BaseEstimator
from perceptron.io._model_file import load_model, save_model
from perceptron.io._registry import (KEEP_TRAINING_STATE, check_held, is_array, models, need,
                                     register_model)
from perceptron._common.validation import CSRData, check_is_fitted, check_random_seed
from perceptron.sequence._structured import StructuredPerceptron

__all__ = ["PerceptronTagger"]

# the fitted attributes of the structured model, kept in the tagger's model
# files under this prefix (the file holds one estimator: the tagger)
_PREFIX = "sequence_model__"
# folds of the training sentences for their ambiguity classes (see _ambiguity)
_FOLDS = 10


def _ambiguity(tokens, codes, lengths):
    """(keys, classes, classes of the training tokens).

    The ambiguity class of a word (Cutting et al. 1992, "A Practical
    Part-of-Speech Tagger", section 3) is the set of tags its lower case has
    in the training data, as a 64-bit mask (bit ``tag % 64``); keys are the
    distinct hashes of the lower cases (``lower_hashes``), classes their
    masks.  A training token's own class is taken from the other folds of
    the sentences only (sentence q in fold q % 10): a word seen in one
    sentence has no class there, as an unseen word has none when tagging,
    and a word's class does not hold the tag being learnt unless another
    fold has it (features of held-out predictions, as in stacking: Wolpert
    1992, "Stacked Generalization", section 2).  Without this the model
    learns to trust the class, which at training time always holds the
    right tag.
    """
    hashes = _featurize.lower_hashes(tokens)
    keys, word = np.unique(hashes, return_inverse=True)
    word = word.reshape(-1)
    bit = np.left_shift(np.uint64(1), (np.asarray(codes) % 64).astype(np.uint64))
    fold = np.repeat(np.arange(len(lengths)) % _FOLDS, lengths)
    masks = np.zeros((len(keys), _FOLDS), dtype=np.uint64)
    np.bitwise_or.at(masks, (word, fold), bit)
    before = np.bitwise_or.accumulate(masks, axis=1)
    after = np.bitwise_or.accumulate(masks[:, ::-1], axis=1)[:, ::-1]
    others = np.zeros_like(masks)
    others[:, 1:] |= before[:, :-1]
    others[:, :-1] |= after[:, 1:]
    known = keys != 0  # 0 marks an empty slot of the table (a hash of 0 is one in 2**64)
    return keys[known], before[known, -1], others[word, fold]


# public for the morphological tagger, which gives its words the same classes
ambiguity_classes = _ambiguity


def flatten_tokens(sentences):
    """(tokens, lengths): the tokens of token lists in one flat list, and
    the int64 number of tokens of each list (a ``str`` is refused: it would
    be read as a list of characters)."""
    tokens: list = []
    lengths = []
    for i, sentence in enumerate(sentences):
        if isinstance(sentence, str):
            raise TypeError(f"sentence {i} is a str, not a list of tokens (split it first, "
                            "e.g. text.split())")
        before = len(tokens)
        tokens.extend(sentence)
        lengths.append(len(tokens) - before)
    return tokens, np.array(lengths, dtype=np.int64)


def class_table(tagger):
    """The ambiguity classes of a tagger's words (``ambiguity_keys_``,
    ``ambiguity_classes_``) as the table the featurizer reads, made once and
    kept as its ``_table`` (None before fit)."""
    if "ambiguity_keys_" not in vars(tagger):
        return None
    table = vars(tagger).get("_table")
    if table is None:
        table = _featurize.ClassTable(tagger.ambiguity_keys_, tagger.ambiguity_classes_)
        tagger._table = table
    return table


def load_tagger(cls, path):
    """The estimator of class ``cls`` a model file holds (a TypeError
    naming the class it holds otherwise)."""
    est = load_model(path)
    if not isinstance(est, cls):
        raise TypeError(f"{path!r} holds a {type(est).__name__}, not a {cls.__name__}")
    return est


class PerceptronTagger(BaseEstimator):
    """A part-of-speech tagger: hashed token features, Viterbi decoding and
    the averaged structured perceptron (Collins 2002).

    Parameters
    ----------
    n_features : int, default=2**18
        Columns of the hashed feature space (1 to 2**31 - 1).  The weights
        take ``n_features * n_tags`` numbers (and during training, with
        averaging, about three times as many); fewer columns make more
        features share a weight.  On the English Web Treebank (about a
        750,000 distinct features) 2**18 columns tag as well as 2**20 and
        train more than twice as fast, the weights staying in cache.
    max_iter : int, default=5
        Epochs over the training sentences.
    average : bool, default=True
        Predict with the averaged weights (Collins 2002, section 2.5).
    shuffle : bool, default=True
        Visit the sentences in a new order each epoch.
    random_state : int, default=0
        Seed of the shuffles.
    progress : bool, default=False
        Show a tqdm progress bar of the epochs (tqdm must be installed).

    Attributes
    ----------
    classes_ : ndarray of str
        The tags, sorted.
    model_ : StructuredPerceptron
        The sequence model over the hashed features; its labels are the
        indices into ``classes_``.
    ambiguity_keys_ : ndarray of uint64
        The hashes of the lower-cased training words (sorted).
    ambiguity_classes_ : ndarray of uint64
        Their ambiguity classes: bit ``k % 64`` set when the word had tag
        ``classes_[k]`` in training.

    Examples
    --------
    >>> from perceptron.tagging import PerceptronTagger
    >>> train = [[("the", "DET"), ("dog", "NOUN"), ("barks", "VERB")],
    ...          [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")]] * 5
    >>> tagger = PerceptronTagger(n_features=2**16).fit(train)
    >>> tagger.tag(["the", "cat", "barks"])
    [('the', 'DET'), ('cat', 'NOUN'), ('barks', 'VERB')]
    """

    def __init__(self, n_features=2 ** 18, max_iter=5, average=True, shuffle=True,
                 random_state=0, progress=False):
        self.n_features = n_features
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state
        self.progress = progress

    # ------------------------------------------------------------ checks
    def _check_params(self):
        n = self.n_features
        if not isinstance(n, numbers.Integral) or isinstance(n, bool) or \
                not 1 <= int(n) <= _featurize.MAX_FEATURES:
            raise ValueError(f"n_features must be an int in [1, 2**31 - 1], got {n!r}")
        m = self.max_iter
        if not isinstance(m, numbers.Integral) or isinstance(m, bool) or int(m) < 1:
            raise ValueError(f"max_iter must be a positive int, got {m!r}")
        for name in ("average", "shuffle", "progress"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        check_random_seed(self.random_state)

    def _sequence_model(self):
        return StructuredPerceptron(max_iter=int(self.max_iter), average=bool(self.average),
                                    shuffle=bool(self.shuffle), random_state=self.random_state,
                                    progress=bool(self.progress))

    # ------------------------------------------------------------ features
    def featurize(self, sentences):
        """The hashed feature rows of token lists, and the sentence lengths.

        Once fitted, the tokens' ambiguity classes are those of the whole
        training data (``ambiguity_keys_``, ``ambiguity_classes_``), as when
        tagging; before, the rows have no ambiguity features.

        Parameters
        ----------
        sentences : iterable of list of str

        Returns
        -------
        X : perceptron.io.CSRData of shape (n_tokens, n_features)
            One row a token, float32 counts (1.0, or more where two features
            of a token hash to one column), columns sorted.
        lengths : ndarray of int64
            The tokens of each sentence.
        """
        self._check_params()
        return self._features(*flatten_tokens(sentences))

    def _features(self, tokens, lengths, classes=None):
        if classes is None:
            classes = class_table(self)
        data, indices, indptr = _featurize.featurize(tokens, lengths, int(self.n_features),
                                                     classes=classes)
        return CSRData(data, indices, indptr, (len(tokens), int(self.n_features))), lengths

    # ------------------------------------------------------------ fit
    def fit(self, sentences):
        """Learn the tags of tagged sentences.

        Parameters
        ----------
        sentences : iterable of list of (str, str)
            Each sentence as ``[(word, tag), ...]`` (what
            :func:`perceptron.io.read_conllu` yields).

        Returns
        -------
        self
        """
        self._check_params()
        if not isinstance(sentences, list):
            sentences = list(sentences)
        tokens, y, lengths, tags = _featurize.split_tagged(sentences)
        if not tokens:
            raise ValueError("fit needs at least one tagged word")
        classes = np.array(tags, dtype=object)
        keys, masks, train_classes = _ambiguity(tokens, y, lengths)
        X, lengths = self._features(tokens, lengths, train_classes)
        model = self._sequence_model()
        model.fit(X, y, lengths)
        self.model_ = model
        self.classes_ = classes
        self.ambiguity_keys_ = keys
        self.ambiguity_classes_ = masks
        vars(self).pop("_table", None)
        for name in [k for k in vars(self) if k.startswith(_PREFIX)]:
            delattr(self, name)
        return self

    # ------------------------------------------------------------ tagging
    def _model(self):
        check_is_fitted(self, "classes_")
        if "model_" not in vars(self):
            self._rebuild_model()
        trained = getattr(self.model_, "n_features_in_", None)
        if trained is not None and trained != self.n_features:
            raise ValueError(f"n_features is {self.n_features}, but the tagger was trained with "
                             f"{trained}: set it back, or fit again")
        return self.model_

    def predict_sents(self, sentences):
        """The tags of token lists, as one array over all tokens, and the
        sentence lengths (the fast path of :meth:`tag_sents`)."""
        model = self._model()
        X, lengths = self.featurize(sentences)
        if X.shape[0] == 0:
            return np.empty(0, dtype=object), lengths
        return self.classes_[np.asarray(model.predict(X, lengths), dtype=np.intp)], lengths

    def tag_sents(self, sentences):
        """Tag token lists.

        Parameters
        ----------
        sentences : iterable of list of str

        Returns
        -------
        list of list of (str, str)
            Each sentence's tokens paired with their tags.
        """
        if isinstance(sentences, str):
            raise TypeError("tag_sents takes a list of token lists, not a str")
        sentences = [s if type(s) is list else _tokens(s, i) for i, s in enumerate(sentences)]
        tags, _ = self.predict_sents(sentences)
        return _featurize.pair_tags(sentences, tags.tolist())

    def tag(self, tokens):
        """Tag one sentence: a list of ``str`` tokens -> ``[(token, tag), ...]``."""
        if isinstance(tokens, str):
            raise TypeError("tag takes a list of tokens, not a str (split it first, e.g. "
                            "text.split())")
        return self.tag_sents([list(tokens)])[0]

    def evaluate(self, gold):
        """The token accuracy of the tags of tagged sentences.

        Parameters
        ----------
        gold : iterable of list of (str, str)

        Returns
        -------
        float
        """
        model = self._model()
        if not isinstance(gold, list):
            gold = list(gold)
        tokens, codes, lengths, tags = _featurize.split_tagged(gold)
        if not tokens:
            raise ValueError("evaluate needs at least one tagged word")
        X, lengths = self._features(tokens, lengths)
        predicted = self.classes_[np.asarray(model.predict(X, lengths), dtype=np.intp)]
        return float(np.mean(predicted == np.array(tags, dtype=object)[codes]))

    # ------------------------------------------------------------ persistence
    def save(self, path, *, training_state=None):
        """Write this tagger to a model file (``perceptron.load`` or
        :meth:`load` reads it back).  The file holds the parameters, the tags
        and the sequence model's fitted attributes; ``training_state`` is that
        of the sequence model (see ``StructuredPerceptron.save``)."""
        view = type(self).__new__(type(self))
        vars(view).update(self.get_params())
        if "classes_" in vars(self):
            model = self._model()
            keep = training_state if training_state is not None else \
                bool(vars(model).get(KEEP_TRAINING_STATE, False))
            spec = models()[type(model).__name__]
            params = set(model.get_params())
            for name, value in vars(model).items():
                if name in params or name not in spec.fitted:
                    continue
                if name in spec.training_state and not keep:
                    continue
                setattr(view, _PREFIX + name, value)
            view.classes_ = self.classes_
            view.ambiguity_keys_ = self.ambiguity_keys_
            view.ambiguity_classes_ = self.ambiguity_classes_
            if "tokenizer_" in vars(self):  # the tokenizer trained with it, if any
                setattr(view, "tokenizer_", vars(self)["tokenizer_"])
        save_model(view, path, training_state=training_state)

    @classmethod
    def load(cls, path):
        """The tagger of a file written by :meth:`save`."""
        return load_tagger(cls, path)

    def _rebuild_model(self):
        model = self._sequence_model()
        for name in [k for k in vars(self) if k.startswith(_PREFIX)]:
            setattr(model, name[len(_PREFIX):], vars(self).pop(name))
        if "coef_" in vars(model):
            # the tagger scores CSR rows, which read the weights (n_features, K)
            # row by row: coef_.T C-contiguous, as after a fit on CSR rows
            model.coef_ = np.asfortranarray(model.coef_)
        self.model_ = model


def _tokens(sentence, i):
    if isinstance(sentence, str):
        raise TypeError(f"sentence {i} is a str, not a list of tokens (split it first, e.g. "
                        "text.split())")
    return list(sentence)


def _check_saved(est):
    need(is_array(est.classes_, 1, "OU") and len(est.classes_) >= 1 and
         all(isinstance(t, str) for t in est.classes_.tolist()), "classes_ of str tags")
    est.classes_ = np.asarray(est.classes_, dtype=object)
    keys, masks = est.ambiguity_keys_, est.ambiguity_classes_
    # increasing keys compared pairwise (np.diff of uint64 would wrap around)
    need(is_array(keys, 1, "u") and keys.dtype == np.uint64 and is_array(masks, 1, "u") and
         masks.dtype == np.uint64 and len(keys) == len(masks) and
         bool(np.all(keys[1:] > keys[:-1])) and (len(keys) == 0 or keys[0] != 0),
         "ambiguity_keys_ (increasing non-zero uint64) and ambiguity_classes_ of one length")
    check_held(est, "tokenizer_", "Tokenizer")
    est._check_params()
    est._rebuild_model()
    model = est.model_
    models()[type(model).__name__].check(model)
    need(model.n_features_in_ == est.n_features,
         "n_features and the sequence model's n_features_in_ disagree")
    need(np.array_equal(np.asarray(model.classes_), np.arange(len(est.classes_))),
         "the sequence model's labels are the indices of classes_")


register_model(PerceptronTagger, check=_check_saved,
               fitted={"classes_", "ambiguity_keys_", "ambiguity_classes_", "tokenizer_"} | {
                   _PREFIX + name for name in models()[StructuredPerceptron.__name__].fitted},
               training_state={_PREFIX + name for name in
                               models()[StructuredPerceptron.__name__].training_state})

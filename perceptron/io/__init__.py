"""Files in and out: svmlight / libsvm data, and model files.

svmlight / libsvm text (Joachims' SVMlight, Chang and Lin's LIBSVM), one
sample a line::

    <label> [qid:<int>] <index>:<value> <index>:<value> ...  [# comment]

is read by a streaming parser in C (``csrc/svmlight.c``), which releases the
GIL and never needs the whole file in memory: :func:`load_svmlight` returns
the whole file, :func:`iter_svmlight` chunks of rows; :func:`dump_svmlight`
writes.  Model files: :func:`save_model` (also ``model.save(path)``) and
:func:`load_model` (also ``perceptron.load(path)``); a file holds what
prediction needs unless ``training_state=True`` asks for what ``partial_fit``
continues from.  The format is described in the user guide (the model file
format) and ``csrc/ptn_model_file.h``.  CoNLL-U treebanks (Universal
Dependencies): :func:`read_conllu` yields their sentences as (form, tag)
pairs, streaming; :func:`read_conllu_sentences` keeps every column and
comment of each sentence and :func:`write_conllu` writes them back.

This module is the public face of those functions; they live in
``perceptron.io._svmlight`` and ``perceptron.io._model_file``, below the estimators,
so that the estimators can save and stream without importing this module.
"""
from perceptron.io._conllu import read_conllu
from perceptron.io._conllu_doc import ConlluSentence, read_conllu_sentences, write_conllu
from perceptron.io._model_file import load_model, save_model
from perceptron.io._svmlight import DEFAULT_BUFFER_SIZE, dump_svmlight, iter_svmlight, load_svmlight
from perceptron._common.validation import CSRData, binary_csr

__all__ = ["CSRData", "binary_csr", "load_svmlight", "iter_svmlight", "dump_svmlight", "save_model",
           "load_model", "read_conllu", "read_conllu_sentences", "write_conllu", "ConlluSentence",
           "DEFAULT_BUFFER_SIZE"]

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * ptn_featurize.h - hashed token features for sequence labelling.
 *
 * The features of a token are the usual ones of perceptron taggers
 * (Ratnaparkhi, 1996, section 3; Collins, 2002, section 4; Toutanova et al.,
 * 2003, section 3): the word, as written and lower-cased; prefixes of 1-4
 * and suffixes of 1-5 characters of its lower case; its shape (X upper, x
 * lower, d digit, other characters kept, runs collapsed: "Xx", "d.d");
 * whether it has a digit or a hyphen or starts with a capital (a separate
 * feature for the first word of a sentence); the lower-cased words two to
 * the left and two to the right, the previous word as written, the
 * adjacent words' 3-character suffixes; the word pairs (w-2, w-1), (w-1, w)
 * and (w, w+1), and (w, suffix of w+1); a bias.  (The next word as written,
 * the shapes of the adjacent words and the pairs (w+1, w+2) and (w-1, w+1)
 * were features too: with the ambiguity classes below they did not change
 * the accuracy on the English Web Treebank, and they cost tagging time.)
 * Sentence boundaries are the words "<s>" and "</s>".  The tags of the
 * neighbours are not features: a first-order structured model scores them
 * through its transitions.  When the caller gives each token an ambiguity
 * class (a 64-bit value standing for the set of tags its lower case had in
 * training, 0 for none; Cutting et al., 1992, "A Practical Part-of-Speech
 * Tagger", section 3; as features of the word and its neighbours,
 * Daelemans et al., 1996, "MBT: A Memory-Based Part of Speech
 * Tagger-Generator", section 3, and Gimenez and Marquez, 2004, "SVMTool",
 * section 3), the classes of the token and of its two neighbours are three
 * more features.
 *
 * Each (template, string) is hashed into [0, n_features) (Weinberger et al.,
 * 2009, "Feature Hashing for Large Scale Multitask Learning"): 64-bit FNV-1a
 * of the string's UTF-8 bytes, computed once per string (a token's lower
 * case is also its neighbours' feature), XOR the template's seed, then the
 * murmur3 finaliser (Appleby, MurmurHash3) so that every bit mixes; the high
 * 32 bits are mapped to a column by a multiply and a shift (Lemire, 2019).
 * A pair (a, b) hashes as fmix64(fmix64(fnv(a) ^ s) ^ fnv(b) ^ s).
 *
 * Plain C99, no Python headers.  The caller describes each token once
 * (ptn_token); ASCII tokens get their lower case and shape from
 * ptn_token_ascii, others from the caller (which knows Unicode).  The
 * reference, in Python, is tests/sequence/test_tagging_features.py.
 */
#ifndef PTN_FEATURIZE_H
#define PTN_FEATURIZE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the templates: their numbers seed the hashes (a file's features depend on them) */
enum {
    PTN_F_BIAS = 0, PTN_F_WORD, PTN_F_LOWER, PTN_F_PREFIX, PTN_F_SUFFIX, PTN_F_SHAPE,
    PTN_F_DIGIT, PTN_F_HYPHEN, PTN_F_CAPITAL, PTN_F_PREV1, PTN_F_PREV2, PTN_F_NEXT1,
    PTN_F_NEXT2, PTN_F_PREV1_SUFFIX, PTN_F_NEXT1_SUFFIX,
    PTN_F_PREV_BIGRAM, PTN_F_NEXT_BIGRAM, PTN_F_CAPITAL_FIRST, PTN_F_SUFFIX5,
    PTN_F_PREV2_BIGRAM, PTN_F_PREV1_WORD, PTN_F_NEXT_SUFFIX_PAIR,
    PTN_F_AMBIG, PTN_F_PREV1_AMBIG, PTN_F_NEXT1_AMBIG,
    PTN_F_N_TEMPLATES
};

/* at most 3 (bias, word, lower case) + 4 prefixes + 5 suffixes + 1 shape + 3
 * flags + 4 neighbours + 3 neighbours' forms and suffixes + 4 pairs + 3
 * ambiguity classes */
#define PTN_F_MAX_PER_TOKEN 30
/* the longest prefix and suffix, in characters */
#define PTN_F_AFFIX 4
/* the suffix of the neighbouring words, in characters */
#define PTN_F_NEIGHBOUR_SUFFIX 3

#define PTN_F_HAS_DIGIT 1u
#define PTN_F_HAS_HYPHEN 2u
#define PTN_F_IS_CAPITAL 4u

typedef struct {
    const char *word;   /* UTF-8 bytes of the token */
    const char *lower;  /* its lower case */
    const char *shape;  /* its shape: X upper, x lower, d digit, others kept; runs collapsed */
    int64_t word_len, lower_len, shape_len;
    unsigned flags;     /* PTN_F_HAS_DIGIT | PTN_F_HAS_HYPHEN | PTN_F_IS_CAPITAL */
} ptn_token;

/* The seed of a template (what the hash of its strings starts from). */
uint64_t ptn_template_seed(int template_id);

/* The hash of `len` bytes under template `template_id`, before the mapping to
 * a column. */
uint64_t ptn_feature_hash(int template_id, const char *bytes, int64_t len);

/* Fill `t` for an ASCII token of `len` bytes: lower case and shape are written
 * to `scratch` (room for 2 * len bytes), which must outlive `t`. */
void ptn_token_ascii(ptn_token *t, const char *word, int64_t len, char *scratch);

/* The FNV-1a hash of a token's lower case (the key of its ambiguity class). */
uint64_t ptn_lower_hash(const ptn_token *t);

/* The tables of ambiguity classes that ptn_featurize_sentence reads: mask + 1
 * slots (a power of two), slot s being table[2 s] (the key: the
 * ptn_lower_hash of a word, 0 for an empty slot) and table[2 s + 1] (its
 * class), key and value in one cache line; linear probing from
 * ptn_dict_slot; at least one slot empty. */

/* The first slot probed for `key` in a table of mask + 1 slots. */
uint64_t ptn_dict_slot(uint64_t key, uint64_t mask);

/* The features of the `n` tokens of one sentence, those of the templates whose
 * bit is set in `templates` (bit PTN_F_WORD, ...).  The tokens' ambiguity
 * classes are `classes` (one a token), or, when that is NULL, looked up in
 * `table` (see above); with both NULL the three ambiguity
 * templates give no feature.  Token i's columns go to
 * indices[nnz_i ...], sorted increasing, repeats merged (data holds their
 * count), and row_nnz[i] is how many.  `indices` and `data` need room for
 * PTN_F_MAX_PER_TOKEN * n values.  Returns the total written. */
int64_t ptn_featurize_sentence(const ptn_token *tokens, int64_t n, uint64_t n_features,
                               uint64_t templates, const uint64_t *classes,
                               const uint64_t *table, uint64_t table_mask,
                               int32_t *indices, float *data, int64_t *row_nnz);

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026, the perceptron developers (LICENSE) */
/*
 * featurize.c - the hashed token features of ptn_featurize.h.
 */
#include "ptn_featurize.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* murmur3's 64-bit finaliser (Appleby, MurmurHash3, fmix64) */
static uint64_t fmix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t ptn_template_seed(int template_id)
{
    return fmix64(0x9e3779b97f4a7c15ULL * (uint64_t)(template_id + 1));
}

static uint64_t fnv1a(uint64_t h, const char *bytes, int64_t len)
{
    const unsigned char *p = (const unsigned char *)bytes;
    int64_t i;
    for (i = 0; i < len; i++) {
        h ^= p[i];
        h *= FNV_PRIME;
    }
    return h;
}

void ptn_token_ascii(ptn_token *t, const char *word, int64_t len, char *scratch)
{
    char *lower = scratch, *shape = scratch + len;
    int64_t i, s = 0;
    unsigned flags = 0;
    for (i = 0; i < len; i++) {
        char c = word[i], k;
        if (c >= 'A' && c <= 'Z') {
            lower[i] = (char)(c - 'A' + 'a');
            k = 'X';
        } else if (c >= 'a' && c <= 'z') {
            lower[i] = c;
            k = 'x';
        } else if (c >= '0' && c <= '9') {
            lower[i] = c;
            k = 'd';
            flags |= PTN_F_HAS_DIGIT;
        } else {
            lower[i] = c;
            k = c;
            if (c == '-') {
                flags |= PTN_F_HAS_HYPHEN;
            }
        }
        if (s == 0 || shape[s - 1] != k) {
            shape[s++] = k;
        }
    }
    if (len > 0 && word[0] >= 'A' && word[0] <= 'Z') {
        flags |= PTN_F_IS_CAPITAL;
    }
    t->word = word;
    t->word_len = len;
    t->lower = lower;
    t->lower_len = len;
    t->shape = shape;
    t->shape_len = s;
    t->flags = flags;
}

static int is_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* the byte offset where the last k characters of s start (0 if it has fewer) */
static int64_t suffix_start(const char *s, int64_t len, int k)
{
    int64_t i = len;
    while (k > 0 && i > 0) {
        i--;
        while (i > 0 && is_continuation(s[i])) {
            i--;
        }
        k--;
    }
    return i;
}

static const ptn_token PAD_BEFORE = {"<s>", "<s>", "<s>", 3, 3, 3, 0};
static const ptn_token PAD_AFTER = {"</s>", "</s>", "</s>", 4, 4, 4, 0};

/* The string hashes of a token that its own features and its neighbours'
 * share: each string is hashed once, then combined with the seed of every
 * template that uses it (ptn_feature_hash). */
typedef struct {
    uint64_t word, lower, shape, suffix3, suffix5;
    int has5;
    uint64_t prefix[PTN_F_AFFIX], suffix[PTN_F_AFFIX];
    int n_affix;  /* characters in the lower case, at most PTN_F_AFFIX */
    uint64_t cls; /* the ambiguity class (the hash of "<s>" or "</s>" for the padding) */
} token_hashes;

static void hash_token(const ptn_token *t, token_hashes *th)
{
    int64_t pos = 0, start;
    uint64_t h = FNV_OFFSET;
    int k;
    th->word = fnv1a(FNV_OFFSET, t->word, t->word_len);
    th->lower = fnv1a(FNV_OFFSET, t->lower, t->lower_len);
    th->shape = fnv1a(FNV_OFFSET, t->shape, t->shape_len);
    /* prefixes of 1..4 characters: one pass, the hash state after each character */
    for (k = 0; k < PTN_F_AFFIX && pos < t->lower_len; k++) {
        int64_t next = pos + 1;
        while (next < t->lower_len && is_continuation(t->lower[next])) {
            next++;
        }
        h = fnv1a(h, t->lower + pos, next - pos);
        th->prefix[k] = h;
        pos = next;
    }
    th->n_affix = k;
    for (k = 0; k < th->n_affix; k++) {
        start = suffix_start(t->lower, t->lower_len, k + 1);
        th->suffix[k] = fnv1a(FNV_OFFSET, t->lower + start, t->lower_len - start);
    }
    start = suffix_start(t->lower, t->lower_len, 5);
    /* at least 5 characters: the 5-character suffix starts after the
     * beginning, or the 4-character one does */
    th->has5 = start > 0 || suffix_start(t->lower, t->lower_len, 4) > 0;
    th->suffix5 = fnv1a(FNV_OFFSET, t->lower + start, t->lower_len - start);
    start = suffix_start(t->lower, t->lower_len, PTN_F_NEIGHBOUR_SUFFIX);
    th->suffix3 = fnv1a(FNV_OFFSET, t->lower + start, t->lower_len - start);
}

uint64_t ptn_lower_hash(const ptn_token *t)
{
    return fnv1a(FNV_OFFSET, t->lower, t->lower_len);
}

uint64_t ptn_dict_slot(uint64_t key, uint64_t mask)
{
    return fmix64(key) & mask;
}

/* the value of key h in the table (0 if absent); the table is never full
 * (the caller leaves an empty slot), so the probing ends */
static uint64_t lookup(const uint64_t *table, uint64_t mask, uint64_t h)
{
    uint64_t s = ptn_dict_slot(h, mask);
    while (table[2 * s] != 0) {
        if (table[2 * s] == h) {
            return table[2 * s + 1];
        }
        s = (s + 1) & mask;
    }
    return 0;
}

uint64_t ptn_feature_hash(int template_id, const char *bytes, int64_t len)
{
    return fmix64(fnv1a(FNV_OFFSET, bytes, len) ^ ptn_template_seed(template_id));
}

/* a 64-bit hash to [0, n): the high 32 bits times n, the high half of the
 * product (Lemire, 2019, "Fast random integer generation in an interval",
 * section 3), which needs no division; n < 2**31 */
static int32_t column(uint64_t h, uint64_t n)
{
    return (int32_t)(((h >> 32) * n) >> 32);
}

int64_t ptn_featurize_sentence(const ptn_token *tokens, int64_t n, uint64_t n_features,
                               uint64_t templates, const uint64_t *classes,
                               const uint64_t *table, uint64_t table_mask,
                               int32_t *indices, float *data, int64_t *row_nnz)
{
    enum { W = PTN_F_MAX_PER_TOKEN + 3 };  /* room for the padding of the rank count */
    uint64_t seed[PTN_F_N_TEMPLATES];
    token_hashes window[5], pad_before, pad_after;
    const token_hashes *prev2, *prev1, *next1, *next2, *self;
    int32_t col[W], sorted[W];
    int64_t i, nnz = 0;
    int t, k, a, b, wm;
    for (t = 0; t < PTN_F_N_TEMPLATES; t++) {
        seed[t] = ptn_template_seed(t);
    }
    hash_token(&PAD_BEFORE, &pad_before);
    hash_token(&PAD_AFTER, &pad_after);
    pad_before.cls = pad_before.lower;
    pad_after.cls = pad_after.lower;
    if (classes == NULL && table == NULL) {
        templates &= ~((1ull << PTN_F_AMBIG) | (1ull << PTN_F_PREV1_AMBIG) |
                       (1ull << PTN_F_NEXT1_AMBIG));
    }
    /* a token's class: given, or looked up by the hash of its lower case
     * (computed once, in hash_token) */
#define PTN_CLASS(j, th) do { \
        (th)->cls = classes != NULL ? classes[j] : \
            table != NULL ? lookup(table, table_mask, (th)->lower) : 0; \
    } while (0)
    /* window[(i + d) % 5] holds token i + d - 2's hashes for d = 0..4 */
    for (i = 0; i < 2 && i < n; i++) {
        hash_token(&tokens[i], &window[(i + 2) % 5]);
        PTN_CLASS(i, &window[(i + 2) % 5]);
    }
    for (i = 0; i < n; i++) {
        int m = 0, r = 0;
        if (i + 2 < n) {
            hash_token(&tokens[i + 2], &window[(i + 4) % 5]);
            PTN_CLASS(i + 2, &window[(i + 4) % 5]);
        }
        self = &window[(i + 2) % 5];
        prev1 = i >= 1 ? &window[(i + 1) % 5] : &pad_before;
        prev2 = i >= 2 ? &window[i % 5] : &pad_before;
        next1 = i + 1 < n ? &window[(i + 3) % 5] : &pad_after;
        next2 = i + 2 < n ? &window[(i + 4) % 5] : &pad_after;
#define PTN_ADD(template, h) do { \
        if ((templates >> (template)) & 1u) { \
            col[m++] = column(fmix64((h) ^ seed[template]), n_features); \
        } \
    } while (0)
        PTN_ADD(PTN_F_BIAS, FNV_OFFSET);
        PTN_ADD(PTN_F_WORD, self->word);
        PTN_ADD(PTN_F_LOWER, self->lower);
        for (k = 0; k < self->n_affix; k++) {
            PTN_ADD(PTN_F_PREFIX, self->prefix[k]);
            PTN_ADD(PTN_F_SUFFIX, self->suffix[k]);
        }
        PTN_ADD(PTN_F_SHAPE, self->shape);
        if (tokens[i].flags & PTN_F_HAS_DIGIT) {
            PTN_ADD(PTN_F_DIGIT, FNV_OFFSET);
        }
        if (tokens[i].flags & PTN_F_HAS_HYPHEN) {
            PTN_ADD(PTN_F_HYPHEN, FNV_OFFSET);
        }
        if (tokens[i].flags & PTN_F_IS_CAPITAL) {
            PTN_ADD(i == 0 ? PTN_F_CAPITAL_FIRST : PTN_F_CAPITAL, FNV_OFFSET);
        }
        PTN_ADD(PTN_F_PREV1, prev1->lower);
        PTN_ADD(PTN_F_PREV1_SUFFIX, prev1->suffix3);
        PTN_ADD(PTN_F_PREV2, prev2->lower);
        PTN_ADD(PTN_F_NEXT1, next1->lower);
        PTN_ADD(PTN_F_NEXT1_SUFFIX, next1->suffix3);
        PTN_ADD(PTN_F_NEXT2, next2->lower);
        PTN_ADD(PTN_F_PREV_BIGRAM,
                fmix64(prev1->lower ^ seed[PTN_F_PREV_BIGRAM]) ^ self->lower);
        PTN_ADD(PTN_F_NEXT_BIGRAM,
                fmix64(self->lower ^ seed[PTN_F_NEXT_BIGRAM]) ^ next1->lower);
        if (self->has5) {
            PTN_ADD(PTN_F_SUFFIX5, self->suffix5);
        }
        PTN_ADD(PTN_F_PREV2_BIGRAM, fmix64(prev2->lower ^ seed[PTN_F_PREV2_BIGRAM]) ^ prev1->lower);
        PTN_ADD(PTN_F_PREV1_WORD, prev1->word);
        PTN_ADD(PTN_F_NEXT_SUFFIX_PAIR, fmix64(self->lower ^ seed[PTN_F_NEXT_SUFFIX_PAIR]) ^ next1->suffix3);
        /* a class is a value, not a string: it is its own hash */
        PTN_ADD(PTN_F_AMBIG, self->cls);
        PTN_ADD(PTN_F_PREV1_AMBIG, prev1->cls);
        PTN_ADD(PTN_F_NEXT1_AMBIG, next1->cls);
#undef PTN_ADD
        /* a canonical CSR row (increasing columns, a repeat counted in its
         * value): each column goes to its rank, counted without branches
         * (random hashes make a comparison sort mispredict) over m columns
         * padded to a multiple of 4 with a value above every column */
        wm = (m + 3) & ~3;
        for (a = m; a < wm; a++) {
            col[a] = INT32_MAX;  /* n_features < 2**31 */
        }
        for (a = 0; a < m; a++) {
            int32_t v = col[a];
            int rank = 0;
            for (b = 0; b < wm; b++) {
                rank += (col[b] < v) | ((col[b] == v) & (b < a));
            }
            sorted[rank] = v;
        }
        for (a = 0; a < m; a++) {
            if (r > 0 && indices[nnz + r - 1] == sorted[a]) {
                data[nnz + r - 1] += 1.0f;
            } else {
                indices[nnz + r] = sorted[a];
                data[nnz + r] = 1.0f;
                r++;
            }
        }
        row_nnz[i] = r;
        nnz += r;
    }
    return nnz;
#undef PTN_CLASS
}

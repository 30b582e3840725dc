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
    return FNV_OFFSET ^ fmix64(0x9e3779b97f4a7c15ULL * (uint64_t)(template_id + 1));
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

uint64_t ptn_feature_hash(int template_id, const char *bytes, int64_t len)
{
    return fmix64(fnv1a(ptn_template_seed(template_id), bytes, len));
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

typedef struct {
    uint64_t n_features;
    int32_t *col;
    int n;
} row_buf;

static void add(row_buf *r, uint64_t h)
{
    r->col[r->n++] = (int32_t)(h % r->n_features);
}

static void add_hash(row_buf *r, int template_id, const char *bytes, int64_t len)
{
    add(r, ptn_feature_hash(template_id, bytes, len));
}

static const ptn_token *at(const ptn_token *tokens, int64_t n, int64_t j)
{
    return j < 0 ? &PAD_BEFORE : (j >= n ? &PAD_AFTER : &tokens[j]);
}

static void token_features(const ptn_token *tokens, int64_t n, int64_t i, row_buf *r)
{
    const ptn_token *t = &tokens[i], *u;
    uint64_t h;
    int64_t pos, start, chars;
    int k;

    add_hash(r, PTN_F_BIAS, "", 0);
    add_hash(r, PTN_F_WORD, t->word, t->word_len);
    add_hash(r, PTN_F_LOWER, t->lower, t->lower_len);
    /* prefixes of 1..4 characters: one pass, the hash state after each character */
    h = ptn_template_seed(PTN_F_PREFIX);
    pos = 0;
    for (k = 1; k <= PTN_F_AFFIX && pos < t->lower_len; k++) {
        int64_t next = pos + 1;
        while (next < t->lower_len && is_continuation(t->lower[next])) {
            next++;
        }
        h = fnv1a(h, t->lower + pos, next - pos);
        add(r, fmix64(h));
        pos = next;
    }
    chars = k - 1;  /* the characters seen, at most 4 */
    for (k = 1; k <= chars; k++) {
        start = suffix_start(t->lower, t->lower_len, k);
        add_hash(r, PTN_F_SUFFIX, t->lower + start, t->lower_len - start);
    }
    add_hash(r, PTN_F_SHAPE, t->shape, t->shape_len);
    if (t->flags & PTN_F_HAS_DIGIT) {
        add_hash(r, PTN_F_DIGIT, "", 0);
    }
    if (t->flags & PTN_F_HAS_HYPHEN) {
        add_hash(r, PTN_F_HYPHEN, "", 0);
    }
    if (t->flags & PTN_F_IS_CAPITAL) {
        add_hash(r, PTN_F_CAPITAL, "", 0);
    }
    u = at(tokens, n, i - 1);
    add_hash(r, PTN_F_PREV1, u->lower, u->lower_len);
    start = suffix_start(u->lower, u->lower_len, PTN_F_NEIGHBOUR_SUFFIX);
    add_hash(r, PTN_F_PREV1_SUFFIX, u->lower + start, u->lower_len - start);
    u = at(tokens, n, i - 2);
    add_hash(r, PTN_F_PREV2, u->lower, u->lower_len);
    u = at(tokens, n, i + 1);
    add_hash(r, PTN_F_NEXT1, u->lower, u->lower_len);
    start = suffix_start(u->lower, u->lower_len, PTN_F_NEIGHBOUR_SUFFIX);
    add_hash(r, PTN_F_NEXT1_SUFFIX, u->lower + start, u->lower_len - start);
    u = at(tokens, n, i + 2);
    add_hash(r, PTN_F_NEXT2, u->lower, u->lower_len);
}

int64_t ptn_featurize_sentence(const ptn_token *tokens, int64_t n, uint64_t n_features,
                               int32_t *indices, float *data, int64_t *row_nnz)
{
    int64_t i, nnz = 0;
    int32_t col[PTN_F_MAX_PER_TOKEN];
    row_buf r;
    r.n_features = n_features;
    r.col = col;
    for (i = 0; i < n; i++) {
        int a, b, m = 0;
        r.n = 0;
        token_features(tokens, n, i, &r);
        /* insertion sort of at most 21 columns, then repeats merged: a
         * canonical CSR row (increasing columns, a repeat counted in its value) */
        for (a = 1; a < r.n; a++) {
            int32_t v = col[a];
            for (b = a - 1; b >= 0 && col[b] > v; b--) {
                col[b + 1] = col[b];
            }
            col[b + 1] = v;
        }
        for (a = 0; a < r.n; a++) {
            if (m > 0 && indices[nnz + m - 1] == col[a]) {
                data[nnz + m - 1] += 1.0f;
            } else {
                indices[nnz + m] = col[a];
                data[nnz + m] = 1.0f;
                m++;
            }
        }
        row_nnz[i] = m;
        nnz += m;
    }
    return nnz;
}

/* Union lengths of index ranges of an interval sequence: the offline
 * method rangeunion.h describes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/rangeunion.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"

/* A segment tree node's last cover: an interval index, or one of these. */
#define COVER_NONE UINT32_MAX
#define COVER_MIXED (UINT32_MAX - 1)

struct cover {
    const int64_t *x;  /* the distinct endpoints; segment s is [x[s], x[s+1]) */
    uint32_t *owner;   /* per tree node: the last cover of all its segments, or MIXED */
    uint64_t *fenwick; /* per interval index + 1: length last covered by it (mod 2^64) */
    size_t n;          /* intervals */
};

static void fenwick_add(struct cover *c, size_t i, uint64_t v)
{
    for (i++; i <= c->n; i += i & -i)
        c->fenwick[i] += v;
}

/* The sum over indices below i. */
static uint64_t fenwick_sum(const struct cover *c, size_t i)
{
    uint64_t s = 0;
    for (; i; i -= i & -i)
        s += c->fenwick[i];
    return s;
}

/* Length of segments [a, b) (unsigned: endpoints may lie 2^63 apart). */
static uint64_t span(const struct cover *c, size_t a, size_t b)
{
    return (uint64_t)c->x[b] - (uint64_t)c->x[a];
}

/* Make segments [l, r) last covered by interval i, taking their length
 * from whatever covered them before. Node `node` spans segments [nl, nr).
 * Recursion follows the tree's height (log2 of the segments), never the
 * input's shape; each call either settles a uniform node or splits one,
 * and the uniform runs an assignment removes were made by earlier ones,
 * so the work is O(log) per interval amortized. */
static void assign(struct cover *c, size_t node, size_t nl, size_t nr, size_t l, size_t r,
                   uint32_t i)
{
    if (r <= nl || nr <= l)
        return;
    uint32_t o = c->owner[node];
    if (l <= nl && nr <= r && o != COVER_MIXED) {
        if (o != COVER_NONE)
            fenwick_add(c, o, -span(c, nl, nr));
        c->owner[node] = i;
        return;
    }
    if (o != COVER_MIXED)
        c->owner[2 * node] = c->owner[2 * node + 1] = o;
    size_t mid = nl + (nr - nl) / 2;
    assign(c, 2 * node, nl, mid, l, r, i);
    assign(c, 2 * node + 1, mid, nr, l, r, i);
    c->owner[node] =
        c->owner[2 * node] == c->owner[2 * node + 1] ? c->owner[2 * node] : COVER_MIXED;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Position of v in the sorted distinct x[0..m). */
static size_t find(const int64_t *x, size_t m, int64_t v)
{
    size_t a = 0, b = m;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (x[mid] < v)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

struct qorder {
    uint32_t hi, k;
};
#define QORDER_LESS(a, b) ((a)->hi != (b)->hi ? (a)->hi < (b)->hi : (a)->k < (b)->k)
SORT_DEFINE(qorder_sort, struct qorder, QORDER_LESS)

void rangeunion_lengths(const struct ival *iv, size_t n, const struct rangeunion_query *q,
                        size_t nq, int64_t *out)
{
    int64_t *x = xmalloc((2 * n + 1) * sizeof(int64_t));
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (iv[i].end > iv[i].start) {
            x[m++] = iv[i].start;
            x[m++] = iv[i].end;
        }
    sort_items(x, m, sizeof(*x), cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || x[i] != x[u - 1])
            x[u++] = x[i];
    size_t segs = u ? u - 1 : 0, leaves = 1;
    while (leaves < segs)
        leaves *= 2;
    struct cover c = {x, xmalloc(2 * leaves * sizeof(uint32_t)), xcalloc(n + 1, sizeof(uint64_t)),
                      n};
    memset(c.owner, 0xff, 2 * leaves * sizeof(uint32_t)); /* COVER_NONE */
    struct qorder *ord = xmalloc((nq + 1) * sizeof(*ord));
    for (size_t k = 0; k < nq; k++)
        ord[k] = (struct qorder){q[k].hi, (uint32_t)k};
    qorder_sort(ord, nq);
    size_t taken = 0;
    for (size_t k = 0; k < nq; k++) {
        for (; taken < ord[k].hi; taken++) {
            const struct ival *v = &iv[taken];
            if (v->end <= v->start)
                continue;
            size_t l = find(x, u, v->start), r = find(x, u, v->end);
            assign(&c, 1, 0, leaves, l, r, (uint32_t)taken);
            fenwick_add(&c, taken, span(&c, l, r));
        }
        const struct rangeunion_query *qk = &q[ord[k].k];
        out[ord[k].k] = (int64_t)(fenwick_sum(&c, qk->hi) - fenwick_sum(&c, qk->lo));
    }
    free(ord);
    free(c.owner);
    free(c.fenwick);
    free(x);
}

/* Direct and subtree GPU time of host events, computed lazily. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/analysis/gputime.h"
#include "core/base/interval.h"
#include "core/base/rangeunion.h"
#include "core/base/sort.h"
#include "core/base/hmap.h"
#include "core/trace/capture.h"

struct tcache {
    struct hmap idx; /* event -> index into val */
    VEC(int64_t) val;
    int64_t *dense; /* per event, TCACHE_UNSET until computed; NULL: sparse */
};

#define TCACHE_UNSET INT64_MIN

struct gputime {
    const struct trace *t;
    /* Pre-order position of every host span in its thread's tree, and the
     * size of its subtree: a subtree is the range [pre, pre + size). */
    uint32_t *pre, *size;
    /* GPU work sorted by the pre-order position of its launch. */
    uint32_t *by_pre;     /* event indices */
    uint32_t *by_pre_key; /* pre of each one's launch */
    uint32_t n_by_pre;
    /* GPU work per launcher, start order (CSR over the launchers only: a
     * launcher is found by binary search, so no array spans every event). */
    uint32_t *launchers; /* the events with GPU work in launched, ascending */
    uint32_t nlaunchers;
    uint32_t *launched_first; /* nlaunchers + 1 offsets into launched */
    uint32_t *launched;
    /* Computed values: [0] without comm, [1] with comm. Sparse, since only
     * launchers and the rows someone looks at are ever asked for. */
    struct tcache direct[2], subtree[2];
    ivals_t scratch;
    uint32_t nspans; /* host spans numbered (pre-order positions 0..nspans) */
    /* Subtree values of every span at once (by pre-order position), made
     * when the ones asked for one at a time have cost more than a few
     * passes over all the GPU events: nested subtrees asked one by one
     * cost the sum of their sizes, quadratic in a deep tree's depth. */
    int64_t *sub_all[2];
    uint64_t sub_work[2]; /* GPU events gone through by subtree values so far */
};

/* The grafts of captured copies under event ev (capture.h) as a range
 * [*gi, *ge) of trace.grafts. */
static void graft_range(const struct trace *t, uint32_t ev, uint32_t *gi, uint32_t *ge)
{
    uint32_t n = 0;
    const struct capture_graft *g = t->grafts.n ? capture_grafts(t, ev, &n) : NULL;
    *gi = g ? (uint32_t)(g - t->grafts.v) : 0;
    *ge = *gi + n;
}

static void number_subtrees(struct gputime *g)
{
    const struct trace *t = g->t;
    g->pre = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    g->size = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    memset(g->pre, 0xff, (t->ev.n + 1) * sizeof(uint32_t));
    uint32_t counter = 0;
    /* Iterative pre-order walk: each frame holds a node, the next child
     * to visit and, once its children are done, the rows of captured
     * copies grafted under it still to visit; a node's size is known when
     * its frame is popped. */
    uint32_t *node = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    uint32_t *next = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    uint32_t *gi = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    uint32_t *ge = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    for (uint32_t r = 0; r < t->rows.n; r++) {
        if (t->grafts.n && capture_graft_launch(t, r) != IDX_NONE)
            continue; /* numbered under its graph launch */
        for (uint32_t root = t->rows.v[r].first_root; root != IDX_NONE;
             root = t->ev.v[root].next_sibling) {
            size_t depth = 0;
            node[depth] = root;
            graft_range(t, root, &gi[depth], &ge[depth]);
            next[depth++] = t->ev.v[root].first_child;
            g->pre[root] = counter++;
            while (depth) {
                uint32_t c = next[depth - 1];
                if (c == IDX_NONE && gi[depth - 1] < ge[depth - 1]) {
                    next[depth - 1] = t->rows.v[t->grafts.v[gi[depth - 1]++].row].first_root;
                    continue;
                }
                if (c == IDX_NONE) {
                    uint32_t done = node[--depth];
                    g->size[done] = counter - g->pre[done];
                    continue;
                }
                next[depth - 1] = t->ev.v[c].next_sibling;
                g->pre[c] = counter++;
                node[depth] = c;
                graft_range(t, c, &gi[depth], &ge[depth]);
                next[depth++] = t->ev.v[c].first_child;
            }
        }
    }
    free(node);
    free(next);
    free(gi);
    free(ge);
    g->nspans = counter;
}

/* The numbering, made again when gputime_drop_numbering let it go. */
static void numbering(struct gputime *g)
{
    if (!g->pre)
        number_subtrees(g);
}

void gputime_drop_numbering(struct gputime *g)
{
    free(g->pre);
    free(g->size);
    g->pre = g->size = NULL;
}

struct pre_key {
    uint32_t pre, ev;
};

static inline bool pre_less(const struct pre_key *a, const struct pre_key *b)
{
    return a->pre < b->pre || (a->pre == b->pre && a->ev < b->ev);
}

SORT_DEFINE(pre_sort, struct pre_key, pre_less)

struct start_key {
    uint32_t launcher;
    int64_t ts;
    uint32_t ev;
};

static inline bool start_less(const struct start_key *a, const struct start_key *b)
{
    if (a->launcher != b->launcher)
        return a->launcher < b->launcher;
    if (a->ts != b->ts)
        return a->ts < b->ts;
    return a->ev < b->ev;
}

SORT_DEFINE(start_sort, struct start_key, start_less)

struct gputime *gputime_new(const struct trace *t)
{
    struct gputime *g = xcalloc(1, sizeof(*g));
    g->t = t;
    number_subtrees(g);

    VEC(struct pre_key) keys = {0};
    VEC(struct start_key) starts = {0};
    /* The GPU events with a launch are the launches' lists (trace.launch_gpu):
     * far fewer than the events; both key orders are total, so the order
     * they are visited in does not matter. */
    for (size_t l = 0; l < t->launches.n; l++) {
        const struct launch_info *li = &t->launches.v[l];
        for (uint32_t k = 0; k < li->gpu_count; k++) {
            uint32_t i = t->launch_gpu[li->gpu_first + k];
            const struct event *e = &t->ev.v[i];
            const struct gpu_info *gi = &t->gpus.v[e->aux];
            if (g->pre[gi->launch] != IDX_NONE)
                VEC_PUSH(&keys, ((struct pre_key){g->pre[gi->launch], i}));
            if (gi->launcher != IDX_NONE)
                VEC_PUSH(&starts, ((struct start_key){gi->launcher, e->ts, i}));
        }
    }
    pre_sort(keys.v, keys.n);
    g->n_by_pre = (uint32_t)keys.n;
    g->by_pre = xmalloc((keys.n + 1) * sizeof(uint32_t));
    g->by_pre_key = xmalloc((keys.n + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < keys.n; k++) {
        g->by_pre[k] = keys.v[k].ev;
        g->by_pre_key[k] = keys.v[k].pre;
    }
    VEC_FREE(&keys);

    start_sort(starts.v, starts.n);
    g->launched = xmalloc((starts.n + 1) * sizeof(uint32_t));
    g->launchers = xmalloc((starts.n + 1) * sizeof(uint32_t));
    g->launched_first = xmalloc((starts.n + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < starts.n; k++) {
        g->launched[k] = starts.v[k].ev;
        if (!k || starts.v[k].launcher != starts.v[k - 1].launcher) {
            g->launched_first[g->nlaunchers] = (uint32_t)k;
            g->launchers[g->nlaunchers++] = starts.v[k].launcher;
        }
    }
    g->launched_first[g->nlaunchers] = (uint32_t)starts.n;
    VEC_FREE(&starts);
    return g;
}

void gputime_free(struct gputime *g)
{
    if (!g)
        return;
    free(g->pre);
    free(g->size);
    free(g->by_pre);
    free(g->by_pre_key);
    free(g->launched_first);
    free(g->launched);
    free(g->launchers);
    for (int k = 0; k < 2; k++) {
        hmap_free(&g->direct[k].idx);
        VEC_FREE(&g->direct[k].val);
        hmap_free(&g->subtree[k].idx);
        VEC_FREE(&g->subtree[k].val);
        free(g->direct[k].dense);
        free(g->subtree[k].dense);
    }
    VEC_FREE(&g->scratch);
    free(g->sub_all[0]);
    free(g->sub_all[1]);
    free(g);
}

static bool tcache_get(struct tcache *c, uint32_t ev, int64_t *out)
{
    if (c->dense) {
        *out = c->dense[ev];
        return *out != TCACHE_UNSET;
    }
    uint32_t k = hmap_get(&c->idx, ev);
    if (k == IDX_NONE)
        return false;
    *out = c->val.v[k];
    return true;
}

static int64_t tcache_put(struct tcache *c, uint32_t ev, int64_t v)
{
    if (c->dense) {
        c->dense[ev] = v;
        return v;
    }
    if (!c->idx.vals)
        hmap_init(&c->idx, 1024);
    hmap_put(&c->idx, ev, (uint32_t)c->val.n);
    VEC_PUSH(&c->val, v);
    return v;
}

static int64_t union_of(struct gputime *g, const uint32_t *evs, uint32_t n, bool with_comm)
{
    g->scratch.n = 0;
    VEC_RESERVE(&g->scratch, n);
    for (uint32_t k = 0; k < n; k++) {
        const struct event *e = &g->t->ev.v[evs[k]];
        if (!with_comm && (e->flags & EVF_COMM))
            continue;
        g->scratch.v[g->scratch.n++] = (struct ival){e->ts, ev_end(e)};
    }
    return ival_union_length(g->scratch.v, g->scratch.n);
}

void gputime_dense(struct gputime *g)
{
    struct tcache *all[] = {&g->direct[0], &g->direct[1], &g->subtree[0], &g->subtree[1]};
    size_t n = g->t->ev.n ? g->t->ev.n : 1;
    for (size_t k = 0; k < ARRAY_SIZE(all); k++) {
        struct tcache *c = all[k];
        if (c->dense)
            continue;
        c->dense = xmalloc(n * sizeof(int64_t));
        for (size_t i = 0; i < n; i++)
            c->dense[i] = TCACHE_UNSET;
        /* Values already computed carry over. */
        for (size_t i = 0; i < g->t->ev.n && c->val.n; i++) {
            uint32_t at = hmap_get(&c->idx, (uint32_t)i);
            if (at != IDX_NONE)
                c->dense[i] = c->val.v[at];
        }
    }
}

const uint32_t *gputime_launched(struct gputime *g, uint32_t ev, uint32_t *count)
{
    size_t lo = 0, hi = g->nlaunchers;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->launchers[mid] < ev)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == g->nlaunchers || g->launchers[lo] != ev) {
        *count = 0;
        return g->launched;
    }
    *count = g->launched_first[lo + 1] - g->launched_first[lo];
    return g->launched + g->launched_first[lo];
}

const uint32_t *gputime_launchers(const struct gputime *g, uint32_t *count)
{
    *count = g->nlaunchers;
    return g->launchers;
}

/* The index range of by_pre holding pre-order positions [lo_key, hi_key). */
static void by_pre_range(const struct gputime *g, uint32_t lo_key, uint32_t hi_key, uint32_t *first,
                         uint32_t *end)
{
    const uint32_t *k = g->by_pre_key;
    size_t a = 0, b = g->n_by_pre;
    while (a < b) {
        size_t mid = (a + b) / 2;
        if (k[mid] < lo_key)
            a = mid + 1;
        else
            b = mid;
    }
    *first = (uint32_t)a;
    b = g->n_by_pre;
    while (a < b) {
        size_t mid = (a + b) / 2;
        if (k[mid] < hi_key)
            a = mid + 1;
        else
            b = mid;
    }
    *end = (uint32_t)a;
}

const uint32_t *gputime_subtree_events(struct gputime *g, uint32_t ev, uint32_t *count)
{
    *count = 0;
    numbering(g);
    if (ev >= g->t->ev.n || g->pre[ev] == IDX_NONE)
        return g->by_pre;
    uint32_t first, end;
    by_pre_range(g, g->pre[ev], g->pre[ev] + g->size[ev], &first, &end);
    *count = end - first;
    return g->by_pre + first;
}

const uint32_t *gputime_tree_events(const struct gputime *g, uint32_t *count)
{
    *count = g->n_by_pre;
    return g->by_pre;
}

int64_t gputime_direct_once(struct gputime *g, uint32_t ev, bool with_comm)
{
    uint32_t n;
    const uint32_t *evs = gputime_launched(g, ev, &n);
    return union_of(g, evs, n, with_comm);
}

int64_t gputime_direct(struct gputime *g, uint32_t ev, bool with_comm)
{
    int64_t v;
    if (tcache_get(&g->direct[with_comm], ev, &v))
        return v;
    return tcache_put(&g->direct[with_comm], ev, gputime_direct_once(g, ev, with_comm));
}

bool gputime_span_range(struct gputime *g, uint32_t ev, uint32_t *lo, uint32_t *hi)
{
    numbering(g);
    if (ev >= g->t->ev.n || g->pre[ev] == IDX_NONE)
        return false;
    *lo = g->pre[ev];
    *hi = g->pre[ev] + g->size[ev];
    return true;
}

/* Every span's subtree value in one pass (rangeunion.h): the subtrees are
 * ranges of by_pre. */
static void subtree_all(struct gputime *g, bool with_comm)
{
    const struct trace *t = g->t;
    struct ival *iv = xmalloc(((size_t)g->n_by_pre + 1) * sizeof(*iv));
    for (uint32_t k = 0; k < g->n_by_pre; k++) {
        const struct event *e = &t->ev.v[g->by_pre[k]];
        iv[k] = !with_comm && (e->flags & EVF_COMM) ? (struct ival){0, 0}
                                                    : (struct ival){e->ts, ev_end(e)};
    }
    struct rangeunion_query *q = xmalloc(((size_t)g->nspans + 1) * sizeof(*q));
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (g->pre[i] != IDX_NONE) {
            uint32_t lo, hi;
            by_pre_range(g, g->pre[i], g->pre[i] + g->size[i], &lo, &hi);
            q[g->pre[i]] = (struct rangeunion_query){lo, hi};
        }
    g->sub_all[with_comm] = xmalloc(((size_t)g->nspans + 1) * sizeof(int64_t));
    rangeunion_lengths(iv, g->n_by_pre, q, g->nspans, g->sub_all[with_comm]);
    free(q);
    free(iv);
}

int64_t gputime_subtree_once(struct gputime *g, uint32_t ev, bool with_comm)
{
    numbering(g);
    if (ev < g->t->ev.n && g->pre[ev] != IDX_NONE && !g->sub_all[with_comm] &&
        g->sub_work[with_comm] > 4 * (uint64_t)g->n_by_pre + 65536)
        subtree_all(g, with_comm);
    if (g->sub_all[with_comm])
        return ev < g->t->ev.n && g->pre[ev] != IDX_NONE ? g->sub_all[with_comm][g->pre[ev]] : 0;
    uint32_t n;
    const uint32_t *evs = gputime_subtree_events(g, ev, &n);
    g->sub_work[with_comm] += n;
    return union_of(g, evs, n, with_comm);
}

int64_t gputime_subtree(struct gputime *g, uint32_t ev, bool with_comm)
{
    int64_t v;
    if (tcache_get(&g->subtree[with_comm], ev, &v))
        return v;
    return tcache_put(&g->subtree[with_comm], ev, gputime_subtree_once(g, ev, with_comm));
}

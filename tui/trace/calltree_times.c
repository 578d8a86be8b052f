/* The explorer's call tree: CPU and GPU time of nodes, kept on the nodes
 * and, for roots and groups, across rebuilds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/trace/calltree.h"
#include "tui/trace/calltree_internal.h"
#include "core/base/sort.h"
#include "core/base/wide.h"

static void add_gpu_ivals(struct calltree *ct, uint32_t ev)
{
    const struct event *e = &ct->t->ev.v[ev];
    if (evk_is_gpu(e->kind)) {
        VEC_PUSH(&ct->iv, ((struct ival){e->ts, ev_end(e)}));
        return;
    }
    uint32_t cnt;
    const uint32_t *evs = gputime_subtree_events(ct->gt, ev, &cnt);
    VEC_RESERVE(&ct->iv, ct->iv.n + cnt);
    for (uint32_t k = 0; k < cnt; k++) {
        const struct event *g = &ct->t->ev.v[evs[k]];
        ct->iv.v[ct->iv.n++] = (struct ival){g->ts, ev_end(g)};
    }
}

static int64_t union_now(struct calltree *ct)
{
    int64_t len = ival_union_length(ct->iv.v, ct->iv.n);
    ct->iv.n = 0;
    return len;
}

struct mspan {
    int64_t lo, hi, val; /* GPU work of a member: first start, last end, union */
    uint32_t ev;
};

static int mspan_cmp(const void *pa, const void *pb)
{
    const struct mspan *a = pa, *b = pb;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Union of the GPU work of events m[0..n) (siblings, or a thread's
 * top-level spans). Members whose GPU work does not overlap another's add
 * their own union (cached by gputime); only overlapping runs are merged
 * interval by interval. */
static int64_t members_gpu(struct calltree *ct, const uint32_t *m, uint32_t n)
{
    const struct trace *t = ct->t;
    struct mspan *sp = xmalloc(((size_t)n + 1) * sizeof(*sp));
    uint32_t k = 0;
    bool sorted = true;
    for (uint32_t i = 0; i < n; i++) {
        const struct event *e = &t->ev.v[m[i]];
        struct mspan s = {0, 0, 0, m[i]};
        if (evk_is_gpu(e->kind)) {
            s.lo = e->ts;
            s.hi = ev_end(e);
            s.val = e->dur;
        } else {
            uint32_t cnt;
            const uint32_t *g = gputime_subtree_events(ct->gt, m[i], &cnt);
            if (!cnt)
                continue;
            s.lo = INT64_MAX;
            s.hi = INT64_MIN;
            for (uint32_t j = 0; j < cnt; j++) {
                const struct event *ge = &t->ev.v[g[j]];
                s.lo = MIN(s.lo, ge->ts);
                s.hi = MAX(s.hi, ev_end(ge));
            }
            s.val = gputime_subtree(ct->gt, m[i], true);
        }
        if (k && s.lo < sp[k - 1].lo)
            sorted = false;
        sp[k++] = s;
    }
    if (!sorted)
        sort_items(sp, k, sizeof(*sp), mspan_cmp);
    int64_t total = 0;
    for (uint32_t i = 0; i < k;) {
        uint32_t j = i + 1;
        int64_t hi = sp[i].hi;
        while (j < k && sp[j].lo < hi) {
            hi = MAX(hi, sp[j].hi);
            j++;
        }
        if (j == i + 1) {
            total += sp[i].val;
        } else {
            ct->iv.n = 0;
            for (uint32_t x = i; x < j; x++)
                add_gpu_ivals(ct, sp[x].ev);
            total += union_now(ct);
        }
        i = j;
    }
    free(sp);
    return total;
}

/* The remembered times of group node n, made when missing. */
static struct ct_gtime *group_times(struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    uint32_t first = ct->members.v[node->members];
    uint32_t i = hmap_get(&ct->group_times, first);
    struct ct_gtime *g = i != IDX_NONE ? &ct->gtimes.v[i] : NULL;
    uint32_t gen = ct->filtered ? ct->filter_gen : 0;
    if (g && g->count == node->count && g->hide_python == ct->hide_python && g->filter_gen == gen)
        return g;
    if (!g) {
        hmap_put(&ct->group_times, first, (uint32_t)ct->gtimes.n);
        g = VEC_ADD(&ct->gtimes);
    }
    *g = (struct ct_gtime){first, node->count, gen, ct->hide_python, CT_UNKNOWN, CT_UNKNOWN};
    return g;
}

/* GPU time of the root of kind TN_THREAD or TN_UNLINKED on trace row r
 * (once per row). */
static int64_t root_gpu(struct calltree *ct, uint8_t kind, uint32_t r)
{
    const struct trace *t = ct->t;
    if (ct->row_gpu[r] != CT_UNKNOWN)
        return ct->row_gpu[r];
    ct->iv.n = 0;
    if (kind == TN_THREAD) {
        uint32_t lo = ct->tops_first[r], hi = ct->tops_first[r + 1];
        ct->row_gpu[r] = members_gpu(ct, ct->tops + lo, hi - lo);
    } else {
        const struct row *row = &t->rows.v[r];
        for (uint32_t j = 0; j < row->nevents; j++)
            if (ct_is_unlinked_gpu(&t->ev.v[row->order[j]]))
                add_gpu_ivals(ct, row->order[j]);
        ct->row_gpu[r] = union_now(ct);
    }
    return ct->row_gpu[r];
}

int64_t calltree_gpu(struct calltree *ct, uint32_t n)
{
    struct tnode *node = &ct->nodes.v[n];
    if (node->gpu != CT_UNKNOWN)
        return node->gpu;
    const struct trace *t = ct->t;
    int64_t v = 0;
    ct->iv.n = 0;
    switch (node->kind) {
    case TN_EVENT: {
        const struct event *e = &t->ev.v[node->ref];
        v = evk_is_gpu(e->kind) ? e->dur : gputime_subtree(ct->gt, node->ref, true);
        break;
    }
    case TN_GROUP: {
        struct ct_gtime *g = group_times(ct, n);
        if (g->gpu == CT_UNKNOWN)
            g->gpu = members_gpu(ct, ct->members.v + node->members, node->count);
        v = g->gpu;
        break;
    }
    case TN_THREAD:
    case TN_UNLINKED:
        v = root_gpu(ct, node->kind, node->ref);
        break;
    }
    ct->nodes.v[n].gpu = v;
    return v;
}

/* CPU time and count of the top-level spans of host row r (once). */
static void thread_sums(struct calltree *ct, uint32_t r)
{
    if (ct->row_cpu[r] != CT_UNKNOWN)
        return;
    /* Overlapping spans near the loader's time limit add up past int64. */
    __int128 cpu = 0;
    for (uint32_t k = ct->tops_first[r]; k < ct->tops_first[r + 1]; k++)
        cpu += ct->t->ev.v[ct->tops[k]].dur;
    ct->row_cpu[r] = wide_clamp(cpu);
    ct->row_spans[r] = ct->tops_first[r + 1] - ct->tops_first[r];
}

uint32_t calltree_unlinked_events(const struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    if (node->kind != TN_UNLINKED)
        return 0;
    const struct row *row = &ct->t->rows.v[node->ref];
    uint32_t k = 0;
    for (uint32_t j = 0; j < row->nevents; j++)
        k += ct_is_unlinked_gpu(&ct->t->ev.v[row->order[j]]);
    return k;
}

uint32_t calltree_thread_spans(struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    if (node->kind != TN_THREAD)
        return 0;
    thread_sums(ct, node->ref);
    return ct->row_spans[node->ref];
}

int64_t calltree_cpu(struct calltree *ct, uint32_t n)
{
    struct tnode *node = &ct->nodes.v[n];
    if (node->cpu != CT_UNKNOWN)
        return node->cpu;
    const struct trace *t = ct->t;
    int64_t v = -1;
    switch (node->kind) {
    case TN_EVENT:
        if (!evk_is_gpu(t->ev.v[node->ref].kind))
            v = t->ev.v[node->ref].dur;
        break;
    case TN_GROUP:
        if (!evk_is_gpu(t->ev.v[node->ref].kind)) {
            struct ct_gtime *g = group_times(ct, n);
            if (g->cpu == CT_UNKNOWN) {
                __int128 sum = 0;
                for (uint32_t k = 0; k < node->count; k++)
                    sum += t->ev.v[ct->members.v[node->members + k]].dur;
                g->cpu = wide_clamp(sum);
            }
            v = g->cpu;
        }
        break;
    case TN_THREAD:
        thread_sums(ct, node->ref);
        v = ct->row_cpu[node->ref];
        break;
    case TN_UNLINKED:
        break;
    }
    node->cpu = v;
    return v;
}

int64_t calltree_parent_gpu(struct calltree *ct, uint32_t n)
{
    uint32_t p = ct->nodes.v[n].parent;
    if (p != IDX_NONE)
        return calltree_gpu(ct, p);
    /* The roots' GPU times summed, every root's whatever the filter
     * shows: GPU work of two threads that overlaps in time counts under
     * both, so against the union of all GPU work the roots would add to
     * more than 100 %. */
    if (ct->total_gpu == CT_UNKNOWN) {
        __int128 sum = 0;
        for (size_t i = 0; i < ct->all_roots.n; i++)
            sum += root_gpu(ct, ct->all_roots.v[i].kind, ct->all_roots.v[i].row);
        ct->total_gpu = wide_clamp(sum);
    }
    return ct->total_gpu;
}

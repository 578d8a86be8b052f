/* The explorer's call tree: filters. A node stays when a match lies in its
 * subtree; subtrees are ranges of gputime's pre-order numbering
 * (gputime_span_range), so a filter is the sorted numbers of its matches
 * and each node is one search, not a walk up from every match. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tui/trace/calltree.h"
#include "tui/trace/calltree_internal.h"

size_t ct_fpos_lower(const uint32_t *pos, size_t n, uint32_t lo)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (pos[m] < lo)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

bool ct_any_in(const uint32_t *pos, size_t n, uint32_t lo, uint32_t hi)
{
    size_t a = ct_fpos_lower(pos, n, lo);
    return a < n && pos[a] < hi;
}

/* Whether a match lies in [lo, hi) of the numbering. */
static bool match_in(const struct calltree *ct, uint32_t lo, uint32_t hi)
{
    return ct_any_in(ct->fpos.v, ct->fpos.n, lo, hi);
}

/* While filtered: whether ev is a match or has one below it (GPU work
 * has nothing below it). */
bool ct_on_path(const struct calltree *ct, uint32_t ev)
{
    uint32_t lo, hi;
    if (ct_is_match(ct, ev))
        return true;
    return gputime_span_range(ct->gt, ev, &lo, &hi) && match_in(ct, lo, hi);
}

/* Sort v (LSD radix, 11-bit digits: as many passes as the largest value
 * needs; the buckets stay in cache) using tmp. */
static void sort_u32(void *vv, void *tmpv)
{
    enum { BITS = 11, NB = 1 << BITS };
    VEC(uint32_t) *v = vv, *tmp = tmpv;
    size_t n = v->n;
    uint32_t max = 0;
    for (size_t i = 0; i < n; i++)
        max = MAX(max, v->v[i]);
    VEC_RESERVE(tmp, n);
    uint32_t *a = v->v, *b = tmp->v;
    uint32_t cnt[NB + 1];
    for (int shift = 0; shift < 32 && (max >> shift); shift += BITS) {
        memset(cnt, 0, sizeof(cnt));
        for (size_t i = 0; i < n; i++)
            cnt[((a[i] >> shift) & (NB - 1)) + 1]++;
        for (size_t k = 1; k <= NB; k++)
            cnt[k] += cnt[k - 1];
        for (size_t i = 0; i < n; i++)
            b[cnt[(a[i] >> shift) & (NB - 1)]++] = a[i];
        uint32_t *x = a;
        a = b;
        b = x;
    }
    if (a != v->v)
        memcpy(v->v, a, n * sizeof(uint32_t));
}

/* Smallest index >= at into the sorted filter numbers whose number is
 * >= lo, found by galloping from at (callers go up in number). */
size_t ct_fpos_from(const struct calltree *ct, size_t at, uint32_t lo)
{
    size_t n = ct->fpos.n, step = 1, hi = at;
    while (hi < n && ct->fpos.v[hi] < lo) {
        at = hi + 1;
        hi += step;
        step *= 2;
    }
    if (hi > n)
        hi = n;
    while (at < hi) {
        size_t m = at + (hi - at) / 2;
        if (ct->fpos.v[m] < lo)
            at = m + 1;
        else
            hi = m;
    }
    return at;
}

/* Whether node c (parent side: `in`) is kept while filtered; *cur is the
 * cursor into the matches' numbers, which only goes up. */
bool ct_keep_at(struct calltree *ct, uint32_t c, bool in, size_t *cur)
{
    uint32_t lo, hi;
    if (!ct->filtered || in || ct_is_match(ct, c))
        return true;
    if (!gputime_span_range(ct->gt, c, &lo, &hi))
        return false;
    *cur = ct_fpos_from(ct, *cur, lo);
    return *cur < ct->fpos.n && ct->fpos.v[*cur] < hi;
}

uint32_t ct_next_kept(struct calltree *ct, uint32_t c, size_t *cur)
{
    const struct trace *t = ct->t;
    uint32_t lo, hi, plo, phi;
    if (c == IDX_NONE || !ct->filtered)
        return c;
    uint32_t parent = t->ev.v[c].parent;
    /* Top-level spans are listed apart (collect_tops); anything without a
     * number is left to the walk. */
    if (parent == IDX_NONE || !gputime_span_range(ct->gt, c, &lo, &hi) ||
        !gputime_span_range(ct->gt, parent, &plo, &phi))
        return c;
    *cur = ct_fpos_from(ct, *cur, lo);
    if (*cur >= ct->fpos.n || ct->fpos.v[*cur] >= phi)
        return IDX_NONE;
    uint32_t p = ct->fpos.v[*cur];
    if (p < hi || p >= ct->npre)
        return c; /* c itself is kept: no need to climb */
    /* The match's ancestor among c's siblings: numbers go up along the
     * chain, so it is c or one after it. */
    uint32_t x = ct->pre_ev[p];
    while (x != IDX_NONE && t->ev.v[x].parent != parent)
        x = t->ev.v[x].parent;
    return x != IDX_NONE ? x : c;
}

/* Start a filter: what is open now kept for when it is cleared, the
 * matches forgotten. */
static void filter_begin(struct calltree *ct)
{
    const struct trace *t = ct->t;
    if (!ct->filtered && !ct->have_saved) {
        ct_collect_keys(ct, &ct->saved_unfiltered);
        ct->have_saved = true;
    }
    if (!ct->rowmark)
        ct->rowmark = xmalloc(t->rows.n + 1);
    memset(ct->rowmark, 0, t->rows.n + 1);
    ct->fpos.n = 0;
    ct->fpat = NULL;
}

/* With the matches' numbers in fpos: the rows to show, and the tree. */
static size_t filter_end(struct calltree *ct, size_t matches)
{
    for (size_t i = 0; i < ct->all_roots.n; i++) {
        const struct ct_root *r = &ct->all_roots.v[i];
        uint32_t a = ct->tops_first[r->row], b = ct->tops_first[r->row + 1], lo, hi, lo2, hi2;
        if (r->kind == TN_THREAD && a < b && gputime_span_range(ct->gt, ct->tops[a], &lo, &hi) &&
            gputime_span_range(ct->gt, ct->tops[b - 1], &lo2, &hi2) && match_in(ct, lo, hi2))
            ct->rowmark[r->row] |= CT_MARK_PATH;
    }
    ct->filtered = true;
    ct->filter_gen++;
    ct_rebuild(ct, NULL);
    return matches;
}

/* The number of tree event x for filters (a host span's own, GPU work's
 * launch's), IDX_NONE for unlinked GPU work. */
uint32_t ct_event_pos(const struct calltree *ct, uint32_t x)
{
    const struct trace *t = ct->t;
    const struct event *e = &t->ev.v[x];
    uint32_t lo = IDX_NONE, hi;
    if (!evk_is_gpu(e->kind))
        gputime_span_range(ct->gt, x, &lo, &hi);
    else if ((e->flags & EVF_LINKED) && e->aux != IDX_NONE && e->aux < t->gpus.n)
        lo = ct->gpu_pre[e->aux];
    return lo;
}

size_t calltree_set_filter(struct calltree *ct, const uint32_t *events, size_t n)
{
    const struct trace *t = ct->t;
    ct_filter_ready(ct);
    if (!events) {
        if (!ct->filtered)
            return 0;
        ct->filtered = false;
        ct->fpat = NULL;
        if (ct->have_saved) {
            ct->have_saved = false;
            ct_rebuild(ct, &ct->saved_unfiltered);
        } else {
            struct hmap keys;
            ct_collect_keys(ct, &keys);
            ct_rebuild(ct, &keys);
        }
        return 0;
    }
    filter_begin(ct);
    if (!ct->fmatch)
        ct->fmatch = xmalloc((t->ev.n / 64 + 1) * sizeof(uint64_t));
    memset(ct->fmatch, 0, (t->ev.n / 64 + 1) * sizeof(uint64_t));
    size_t matches = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = events[i];
        if (!calltree_is_tree_event(t, x) || ct_is_match(ct, x))
            continue;
        matches++;
        ct->fmatch[x >> 6] |= 1ULL << (x & 63);
        uint32_t pos = ct_event_pos(ct, x);
        if (pos != IDX_NONE)
            VEC_PUSH(&ct->fpos, pos);
        else
            ct->rowmark[t->ev.v[x].row] |= CT_MARK_PATH; /* unlinked GPU work */
    }
    sort_u32(&ct->fpos, &ct->fscratch);
    return filter_end(ct, matches);
}

size_t ct_pattern_positions(struct calltree *ct, struct pattern *p, void *outv, size_t limit)
{
    VEC(uint32_t) *out = outv;
    const struct trace *t = ct->t;
    ct_filter_ready(ct);
    size_t nstr = strtab_count(&t->strs), matches = 0;
    out->n = 0;
    for (uint32_t k = 0; k < ct->nnames; k++) {
        uint32_t id = ct->name_ids[k];
        if (!pattern_match_id(p, id, trace_str(t, id), nstr))
            continue;
        uint32_t lo = ct->name_first[k], hi = ct->name_first[k + 1];
        matches += hi - lo;
        if (matches > limit)
            return matches;
        VEC_RESERVE(out, out->n + (hi - lo));
        for (uint32_t i = lo; i < hi; i++)
            if (ct->name_pos[i] != IDX_NONE)
                out->v[out->n++] = ct->name_pos[i];
    }
    sort_u32(out, &ct->fscratch);
    return matches;
}

size_t calltree_set_filter_pattern(struct calltree *ct, struct pattern *p)
{
    const struct trace *t = ct->t;
    size_t nstr = strtab_count(&t->strs);
    ct_filter_ready(ct);
    filter_begin(ct);
    size_t matches = ct_pattern_positions(ct, p, &ct->fpos, SIZE_MAX);
    /* Unlinked GPU work has no number: its stream's root shows instead. */
    for (size_t i = 0; i < ct->unlinked.n; i += 2) {
        uint32_t id = ct->name_ids[ct->unlinked.v[i]];
        if (pattern_match_id(p, id, trace_str(t, id), nstr))
            ct->rowmark[ct->unlinked.v[i + 1]] |= CT_MARK_PATH;
    }
    ct->fpat = p;
    return filter_end(ct, matches);
}

/* The number of each GPU event's launch (calltree.gpu_pre). */
static void number_gpu(struct calltree *ct)
{
    const struct trace *t = ct->t;
    ct->gpu_pre = xmalloc((t->gpus.n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < t->gpus.n; i++) {
        uint32_t lo = IDX_NONE, hi, l = t->gpus.v[i].launch;
        if (l == IDX_NONE || !gputime_span_range(ct->gt, l, &lo, &hi))
            lo = IDX_NONE;
        ct->gpu_pre[i] = lo;
    }
}

/* The tree events by name (calltree.name_*): their filter numbers. */
static void index_names(struct calltree *ct)
{
    const struct trace *t = ct->t;
    size_t nstr = strtab_count(&t->strs);
    uint32_t *slot = xmalloc((nstr + 1) * sizeof(uint32_t));
    memset(slot, 0xff, (nstr + 1) * sizeof(uint32_t));
    VEC(uint32_t) ids = {0};
    VEC(uint32_t) cnt = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        if (!calltree_is_tree_event(t, i))
            continue;
        uint32_t id = t->ev.v[i].name;
        if (id > nstr)
            continue;
        if (slot[id] == IDX_NONE) {
            slot[id] = (uint32_t)ids.n;
            VEC_PUSH(&ids, id);
            VEC_PUSH(&cnt, 0);
        }
        cnt.v[slot[id]]++;
    }
    ct->nnames = (uint32_t)ids.n;
    ct->name_ids = ids.v;
    ct->name_first = xmalloc((ids.n + 1) * sizeof(uint32_t));
    uint32_t total = 0;
    for (size_t k = 0; k < ids.n; k++) {
        ct->name_first[k] = total;
        total += cnt.v[k];
        cnt.v[k] = ct->name_first[k];
    }
    ct->name_first[ids.n] = total;
    ct->name_pos = xmalloc(((size_t)total + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < t->ev.n; i++) {
        if (!calltree_is_tree_event(t, i))
            continue;
        uint32_t id = t->ev.v[i].name;
        if (id > nstr)
            continue;
        uint32_t pos = ct_event_pos(ct, i);
        ct->name_pos[cnt.v[slot[id]]++] = pos;
        if (pos == IDX_NONE) {
            VEC_PUSH(&ct->unlinked, slot[id]);
            VEC_PUSH(&ct->unlinked, t->ev.v[i].row);
        }
    }
    VEC_FREE(&cnt);
    free(slot);
}

/* calltree.pre_ev: the host span of each number. */
static void invert_numbers(struct calltree *ct)
{
    const struct trace *t = ct->t;
    uint32_t lo, hi, n = 0;
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (gputime_span_range(ct->gt, i, &lo, &hi))
            n = MAX(n, lo + 1);
    ct->npre = n;
    ct->pre_ev = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
    memset(ct->pre_ev, 0xff, ((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (gputime_span_range(ct->gt, i, &lo, &hi))
            ct->pre_ev[lo] = i;
}

/* The filter's indices; reads only the trace and gputime's numbering,
 * which nothing writes once they are built, and writes only the fields
 * ct_filter_ready hands over. */
static void *build_index(void *arg)
{
    struct calltree *ct = arg;
    number_gpu(ct);
    if (!atomic_load(&ct->filter_stop))
        index_names(ct);
    if (!atomic_load(&ct->filter_stop))
        invert_numbers(ct);
    return NULL;
}

void ct_filter_init(struct calltree *ct)
{
    ct->filter_building = pthread_create(&ct->filter_th, NULL, build_index, ct) == 0;
    if (!ct->filter_building)
        build_index(ct);
}

void ct_filter_ready(struct calltree *ct)
{
    if (ct->filter_building) {
        pthread_join(ct->filter_th, NULL);
        ct->filter_building = false;
    }
}

void ct_filter_stop(struct calltree *ct)
{
    atomic_store(&ct->filter_stop, true);
    ct_filter_ready(ct);
}

void ct_filter_free(struct calltree *ct)
{
    ct_filter_ready(ct);
    free(ct->gpu_pre);
    free(ct->pre_ev);
    free(ct->name_ids);
    free(ct->name_first);
    free(ct->name_pos);
    VEC_FREE(&ct->unlinked);
    free(ct->fmatch);
    VEC_FREE(&ct->fpos);
    VEC_FREE(&ct->fscratch);
    VEC_FREE(&ct->spos);
    free(ct->spat);
    VEC_FREE(&ct->rpos);
    free(ct->rpat);
    free(ct->rowmark);
}

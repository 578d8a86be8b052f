/* Memory snapshot queries: per-device totals, the memory_viz replay
 * (allocations, series, peaks), live allocations, sites, fragmentation. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/sort.h"
#include "core/snapshot/snapshot.h"
#include "core/base/hmap.h"
#include "core/base/xalloc.h"

/* hmap has no delete: a freed address keeps this value. */
#define GONE (IDX_NONE - 1)

static inline bool held(uint32_t v)
{
    return v != IDX_NONE && v != GONE;
}

static uint32_t add_alloc(struct snapshot *s, uint64_t addr, uint64_t size, uint32_t alloc_idx,
                          uint32_t free_idx, uint32_t frames, uint32_t block)
{
    struct snap_alloc a = {.addr = addr,
                           .size = size,
                           .alloc_idx = alloc_idx,
                           .free_idx = free_idx,
                           .frames = frames,
                           .block = block};
    VEC_PUSH(&s->allocs, a);
    return (uint32_t)s->allocs.n - 1;
}

/* Whether the free entries of device d carry the free's stack: PyTorch
 * records a free with the stack of the free under context="all", else with
 * the allocation's context, so that every alloc / free_completed pair then
 * has one stack. When they carry the allocation's, an allocation whose
 * alloc entry is missing takes its free's stack as its own. Runs on the
 * allocations the entries made (d->first_alloc on). */
static void note_free_stacks(struct snapshot *s, struct snap_device *d, const struct snap_entry *e)
{
    uint64_t paired = 0, differ = 0;
    for (size_t k = d->first_alloc; k < s->allocs.n; k++) {
        const struct snap_alloc *a = &s->allocs.v[k];
        if (a->alloc_idx == IDX_NONE || a->free_idx == IDX_NONE)
            continue;
        paired++;
        differ += e[a->alloc_idx].frames != e[a->free_idx].frames;
    }
    d->free_stacks = paired == 0 || differ > 0;
    if (d->free_stacks)
        return;
    for (size_t k = d->first_alloc; k < s->allocs.n; k++) {
        struct snap_alloc *a = &s->allocs.v[k];
        if (a->alloc_idx == IDX_NONE && a->free_idx != IDX_NONE)
            a->frames = e[a->free_idx].frames;
    }
}

uint32_t snapshot_alloc_free_stack(const struct snapshot *s, uint32_t dev,
                                   const struct snap_alloc *a)
{
    const struct snap_device *d = &s->devices.v[dev];
    if (a->free_idx == IDX_NONE || !d->free_stacks)
        return 0;
    return s->entries.v[d->first_entry + a->free_idx].frames;
}

/* The allocated-bytes replay of one device (MemoryViz.js process_alloc_data
 * with plot_segments false). */
static void replay_allocated(struct snapshot *s, uint32_t dev)
{
    struct snap_device *d = &s->devices.v[dev];
    const struct snap_entry *e = d->nentries ? s->entries.v + d->first_entry : NULL;
    struct hmap live;
    hmap_init(&live, 1024);
    d->first_alloc = (uint32_t)s->allocs.n;
    int64_t *after = xmalloc((d->nentries ? d->nentries : 1) * sizeof(*after));
    int64_t base = 0, cur = 0, best = INT64_MIN;
    uint32_t best_idx = IDX_NONE;
    for (uint32_t i = 0; i < d->nentries; i++) {
        bool action = false;
        if (e[i].action == SA_ALLOC) {
            uint32_t k = add_alloc(s, e[i].addr, e[i].size, i, IDX_NONE, e[i].frames, IDX_NONE);
            hmap_put(&live, e[i].addr, k);
            cur += (int64_t)e[i].size;
            action = true;
        } else if (e[i].action == SA_FREE_COMPLETED) {
            uint32_t k = hmap_get(&live, e[i].addr);
            if (held(k)) {
                s->allocs.v[k].free_idx = i;
                hmap_put(&live, e[i].addr, GONE);
                cur -= (int64_t)s->allocs.v[k].size;
            } else {
                /* Allocated before recording started: live from the start.
                 * The free's stack is not the allocation's (see below). */
                add_alloc(s, e[i].addr, e[i].size, IDX_NONE, i, 0, IDX_NONE);
                base += (int64_t)e[i].size;
                cur -= (int64_t)e[i].size;
            }
            action = true;
        }
        after[i] = cur;
        if (action && cur > best) {
            best = cur;
            best_idx = i;
        }
    }
    note_free_stacks(s, d, e);
    for (size_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *seg = &s->segments.v[g];
        if (seg->device != dev)
            continue;
        for (uint32_t j = 0; j < seg->nblocks; j++) {
            uint32_t bi = seg->first_block + j;
            const struct snap_block *b = &s->blocks.v[bi];
            if (b->state != BS_ACTIVE_ALLOCATED)
                continue;
            uint32_t k = hmap_get(&live, b->address);
            if (held(k)) {
                s->allocs.v[k].block = bi;
                continue;
            }
            add_alloc(s, b->address, b->requested_size, IDX_NONE, IDX_NONE, b->frames, bi);
            base += (int64_t)b->requested_size;
        }
    }
    for (uint32_t i = 0; i < d->nentries; i++)
        after[i] += base;
    d->allocated_after = after;
    d->base_allocated = base;
    d->peak_allocated = best_idx == IDX_NONE ? base : base + best;
    d->peak_idx = best_idx;
    d->nallocs = (uint32_t)(s->allocs.n - d->first_alloc);
    hmap_free(&live);
}

/* A request as the caching allocator rounds it (round_size without
 * roundup_power2_divisions). */
static uint64_t rounded_request(uint64_t size)
{
    return size < 512 ? 512 : (size + 511) / 512 * 512;
}

uint64_t snapshot_alloc_block_bytes(const struct snapshot *s, const struct snap_alloc *a)
{
    return a->block != IDX_NONE ? s->blocks.v[a->block].size : rounded_request(a->size);
}

/* The allocated replay's peak in block sizes (see snapshot.h); after
 * replay_allocated, which links allocations to their final blocks. */
static void replay_block_peak(struct snapshot *s, uint32_t dev)
{
    struct snap_device *d = &s->devices.v[dev];
    const struct snap_entry *e = d->nentries ? s->entries.v + d->first_entry : NULL;
    int64_t *delta = xcalloc(d->nentries + 1, sizeof(*delta));
    int64_t cur = 0, best = INT64_MIN;
    uint32_t best_idx = IDX_NONE;
    for (uint32_t k = d->first_alloc; k < d->first_alloc + d->nallocs; k++) {
        const struct snap_alloc *a = &s->allocs.v[k];
        int64_t size = (int64_t)snapshot_alloc_block_bytes(s, a);
        if (a->alloc_idx == IDX_NONE)
            cur += size;
        else
            delta[a->alloc_idx] += size;
        if (a->free_idx != IDX_NONE)
            delta[a->free_idx] -= size;
    }
    int64_t base = cur;
    for (uint32_t i = 0; i < d->nentries; i++) {
        cur += delta[i];
        if ((e[i].action == SA_ALLOC || e[i].action == SA_FREE_COMPLETED) && cur > best) {
            best = cur;
            best_idx = i;
        }
    }
    d->peak_block_bytes = best_idx == IDX_NONE ? base : best;
    d->peak_block_idx = best_idx;
    d->base_block_bytes = base;
    free(delta);
}

/* The reserved-bytes replay (process_alloc_data with plot_segments true). */
static void replay_reserved(struct snapshot *s, uint32_t dev)
{
    struct snap_device *d = &s->devices.v[dev];
    const struct snap_entry *e = d->nentries ? s->entries.v + d->first_entry : NULL;
    struct hmap live;
    hmap_init(&live, 64);
    int64_t *after = xmalloc((d->nentries ? d->nentries : 1) * sizeof(*after));
    int64_t base = 0, cur = 0, best = INT64_MIN;
    uint32_t best_idx = IDX_NONE;
    VEC(uint64_t) sizes = {0};
    for (uint32_t i = 0; i < d->nentries; i++) {
        bool action = false;
        if (e[i].action == SA_SEGMENT_ALLOC) {
            hmap_put(&live, e[i].addr, (uint32_t)sizes.n);
            VEC_PUSH(&sizes, e[i].size);
            cur += (int64_t)e[i].size;
            action = true;
        } else if (e[i].action == SA_SEGMENT_FREE) {
            uint32_t k = hmap_get(&live, e[i].addr);
            if (held(k)) {
                hmap_put(&live, e[i].addr, GONE);
                cur -= (int64_t)sizes.v[k];
            } else {
                base += (int64_t)e[i].size;
                cur -= (int64_t)e[i].size;
            }
            action = true;
        }
        after[i] = cur;
        if (action && cur > best) {
            best = cur;
            best_idx = i;
        }
    }
    for (size_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *seg = &s->segments.v[g];
        if (seg->device == dev && !held(hmap_get(&live, seg->address)))
            base += (int64_t)seg->total_size;
    }
    for (uint32_t i = 0; i < d->nentries; i++)
        after[i] += base;
    d->reserved_after = after;
    d->base_reserved = base;
    d->peak_reserved = best_idx == IDX_NONE ? base : base + best;
    d->peak_reserved_idx = best_idx;
    VEC_FREE(&sizes);
    hmap_free(&live);
}

void snapshot_index(struct snapshot *s)
{
    VEC_FREE(&s->allocs);
    for (size_t i = 0; i < s->devices.n; i++) {
        struct snap_device *d = &s->devices.v[i];
        free(d->allocated_after);
        free(d->reserved_after);
        uint32_t first = d->first_entry, n = d->nentries;
        int32_t id = d->id;
        bool host = d->host;
        memset(d, 0, sizeof(*d));
        d->id = id;
        d->host = host;
        d->first_entry = first;
        d->nentries = n;
        for (uint32_t j = 0; j < n; j++)
            d->nactions[s->entries.v[first + j].action]++;
    }
    for (size_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *seg = &s->segments.v[g];
        struct snap_device *d = &s->devices.v[seg->device];
        d->nsegments++;
        d->nblocks += seg->nblocks;
        d->reserved += seg->total_size;
        d->allocated += seg->allocated_size;
        d->active += seg->active_size;
        d->requested += seg->requested_size;
        for (uint32_t j = 0; j < seg->nblocks; j++) {
            const struct snap_block *b = &s->blocks.v[seg->first_block + j];
            d->block_bytes[b->state] += b->size;
            d->block_count[b->state]++;
        }
    }
    for (uint32_t i = 0; i < s->devices.n; i++) {
        replay_allocated(s, i);
        replay_block_peak(s, i);
        replay_reserved(s, i);
    }
}

/* ------------------------------------------------------------------------ */
/* Time queries                                                             */
/* ------------------------------------------------------------------------ */

int64_t snapshot_allocated_at(const struct snapshot *s, uint32_t dev, uint32_t idx)
{
    const struct snap_device *d = &s->devices.v[dev];
    if (idx == IDX_NONE || d->nentries == 0)
        return d->base_allocated;
    return d->allocated_after[MIN(idx, d->nentries - 1)];
}

bool snapshot_alloc_live(const struct snap_alloc *a, uint32_t idx)
{
    int64_t pos = idx == IDX_NONE ? -1 : (int64_t)idx;
    bool started = a->alloc_idx == IDX_NONE || (int64_t)a->alloc_idx <= pos;
    bool ended = a->free_idx != IDX_NONE && (int64_t)a->free_idx <= pos;
    return started && !ended;
}

struct live_key {
    uint64_t size, addr;
    uint32_t idx;
};

static int cmp_live(const void *x, const void *y)
{
    const struct live_key *a = x, *b = y;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

size_t snapshot_live_at(const struct snapshot *s, uint32_t dev, uint32_t idx, uint32_t **out)
{
    const struct snap_device *d = &s->devices.v[dev];
    struct live_key *keys = xmalloc((d->nallocs ? d->nallocs : 1) * sizeof(*keys));
    size_t n = 0;
    for (uint32_t i = d->first_alloc; i < d->first_alloc + d->nallocs; i++) {
        const struct snap_alloc *a = &s->allocs.v[i];
        if (snapshot_alloc_live(a, idx))
            keys[n++] = (struct live_key){.size = a->size, .addr = a->addr, .idx = i};
    }
    if (n)
        sort_items(keys, n, sizeof(*keys), cmp_live);
    uint32_t *ids = xmalloc((n ? n : 1) * sizeof(*ids));
    for (size_t i = 0; i < n; i++)
        ids[i] = keys[i].idx;
    free(keys);
    *out = ids;
    return n;
}

void snapshot_series_buckets(const struct snapshot *s, uint32_t dev, uint32_t from, uint32_t to,
                             size_t n, int64_t *out)
{
    const struct snap_device *d = &s->devices.v[dev];
    if (to > d->nentries)
        to = d->nentries;
    int64_t prev = snapshot_allocated_at(s, dev, from > 0 ? from - 1 : IDX_NONE);
    uint64_t span = to > from ? to - from : 0;
    for (size_t b = 0; b < n; b++) {
        uint64_t lo = from + span * b / n, hi = from + span * (b + 1) / n;
        if (hi <= lo) {
            out[b] = prev;
            continue;
        }
        int64_t m = INT64_MIN;
        for (uint64_t i = lo; i < hi; i++)
            m = MAX(m, d->allocated_after[i]);
        out[b] = m;
        prev = d->allocated_after[hi - 1];
    }
}

uint32_t snapshot_find_action(const struct snapshot *s, uint32_t dev, uint32_t from,
                              enum snap_action a)
{
    const struct snap_device *d = &s->devices.v[dev];
    for (uint32_t i = from; i < d->nentries; i++)
        if (s->entries.v[d->first_entry + i].action == a)
            return i;
    return IDX_NONE;
}

/* ------------------------------------------------------------------------ */
/* Sites                                                                    */
/* ------------------------------------------------------------------------ */

struct site_index {
    struct hmap ids;      /* key frames -> site */
    VEC(uint32_t) hashes; /* per site: low bits of hash_bytes of its key frames */
    VEC(uint32_t) frames; /* key frames */
    VEC(struct snap_site) sites;
};

/* Key frames looked up among the sites. */
struct site_probe {
    const struct site_index *x;
    const uint32_t *key;
    size_t n;
    uint32_t hash;
    bool freed; /* a site of free stacks */
};

static bool site_eq(const void *probe, uint32_t id)
{
    const struct site_probe *p = probe;
    const struct snap_site *st = &p->x->sites.v[id];
    return p->x->hashes.v[id] == p->hash && st->nframes == p->n &&
           (st->free_stack != 0) == p->freed &&
           (p->n == 0 ||
            memcmp(p->x->frames.v + st->first_frame, p->key, p->n * sizeof(*p->key)) == 0);
}

static uint32_t site_hash_of(const void *x, uint32_t id)
{
    return ((const struct site_index *)x)->hashes.v[id];
}

/* The site of key frames `key` taken from `stack`: an allocation stack, or
 * when `freed` a free stack (sites of free stacks are apart from the others
 * even with the same key frames). */
static uint32_t site_find(struct site_index *x, const uint32_t *key, size_t n, uint32_t stack,
                          bool freed)
{
    uint32_t h = (uint32_t)hash_bytes(key, n * sizeof(*key)) ^ (freed ? 0x9e3779b9u : 0);
    struct site_probe probe = {x, key, n, h, freed};
    uint32_t found = hmap_find(&x->ids, h, site_eq, &probe);
    if (found != IDX_NONE)
        return found;
    struct snap_site st = {.first_frame = (uint32_t)x->frames.n,
                           .nframes = (uint32_t)n,
                           .stack = freed ? 0 : stack,
                           .free_stack = freed ? stack : 0,
                           .largest = IDX_NONE};
    for (size_t k = 0; k < n; k++)
        VEC_PUSH(&x->frames, key[k]);
    VEC_PUSH(&x->sites, st);
    VEC_PUSH(&x->hashes, h);
    hmap_add(&x->ids, h, (uint32_t)x->sites.n - 1, site_hash_of, x);
    return (uint32_t)x->sites.n - 1;
}

static int cmp_site(const void *x, const void *y)
{
    const struct snap_site *a = x, *b = y;
    if (a->peak_bytes != b->peak_bytes)
        return a->peak_bytes > b->peak_bytes ? -1 : 1;
    if (a->total_bytes != b->total_bytes)
        return a->total_bytes > b->total_bytes ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->first_frame < b->first_frame ? -1 : a->first_frame > b->first_frame;
}

struct idvec {
    uint32_t *v;
    size_t n, cap;
};

static void site_add(const struct snapshot *s, struct site_index *x, uint32_t dev, uint32_t ai,
                     unsigned depth, struct idvec *key)
{
    const struct snap_device *d = &s->devices.v[dev];
    const struct snap_alloc *a = &s->allocs.v[ai];
    uint32_t stack = a->frames, free_stack = 0;
    if (stack == 0 && a->alloc_idx == IDX_NONE)
        stack = free_stack = snapshot_alloc_free_stack(s, dev, a);
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f);
    key->n = 0;
    if (depth == 0) {
        for (size_t i = 0; i < n; i++)
            VEC_PUSH(key, f[i]);
    }
    for (size_t i = depth ? snapshot_site_start(s, stack) : n; i < n && key->n < depth; i++)
        if (!(s->frames.v[f[i]].flags & SFF_HIDDEN))
            VEC_PUSH(key, f[i]);
    uint32_t si = site_find(x, key->v, key->n, stack, free_stack != 0);
    struct snap_site *st = &x->sites.v[si];
    st->count++;
    st->total_bytes += a->size;
    if (st->largest == IDX_NONE || a->size > st->max_bytes) {
        st->max_bytes = a->size;
        st->largest = ai;
        if (free_stack)
            st->free_stack = free_stack;
        else
            st->stack = stack;
    }
    if (snapshot_alloc_live(a, d->peak_idx))
        st->peak_bytes += a->size;
    if (a->alloc_idx != IDX_NONE && a->free_idx != IDX_NONE) {
        const struct snap_entry *e0 = &s->entries.v[d->first_entry + a->alloc_idx];
        const struct snap_entry *e1 = &s->entries.v[d->first_entry + a->free_idx];
        if ((e0->flags & e1->flags & SEF_TIME)) {
            /* Running sum in mean_lifetime_us; divided at the end. */
            st->mean_lifetime_us += (double)(e1->time_us - e0->time_us);
            st->nlifetimes++;
        }
    }
}

void snapshot_sites(const struct snapshot *s, uint32_t dev, unsigned depth, struct snap_sites *out)
{
    struct site_index x = {0};
    hmap_init(&x.ids, 512);
    VEC_RESERVE(&x.frames, 64); /* never NULL, even with no frames at all */
    struct idvec key = {0};
    for (uint32_t di = 0; di < s->devices.n; di++) {
        if (dev != IDX_NONE && di != dev)
            continue;
        const struct snap_device *d = &s->devices.v[di];
        for (uint32_t ai = d->first_alloc; ai < d->first_alloc + d->nallocs; ai++)
            site_add(s, &x, di, ai, depth, &key);
    }
    for (size_t i = 0; i < x.sites.n; i++) {
        struct snap_site *st = &x.sites.v[i];
        st->mean_lifetime_us = st->nlifetimes ? st->mean_lifetime_us / (double)st->nlifetimes : NAN;
    }
    if (x.sites.n)
        sort_items(x.sites.v, x.sites.n, sizeof(*x.sites.v), cmp_site);
    out->v = x.sites.v;
    out->n = x.sites.n;
    out->frames = x.frames.v;
    hmap_free(&x.ids);
    VEC_FREE(&x.hashes);
    VEC_FREE(&key);
}

void snapshot_sites_free(struct snap_sites *ss)
{
    free(ss->v);
    free(ss->frames);
    memset(ss, 0, sizeof(*ss));
}

/* ------------------------------------------------------------------------ */
/* Segments                                                                 */
/* ------------------------------------------------------------------------ */

void snapshot_segment_frag(const struct snapshot *s, uint32_t seg, struct snap_frag *out)
{
    memset(out, 0, sizeof(*out));
    const struct snap_segment *g = &s->segments.v[seg];
    for (uint32_t j = 0; j < g->nblocks; j++) {
        const struct snap_block *b = &s->blocks.v[g->first_block + j];
        switch (b->state) {
        case BS_ACTIVE_ALLOCATED:
            out->allocated += b->size;
            out->requested += b->requested_size;
            break;
        case BS_ACTIVE_PENDING_FREE:
            out->pending += b->size;
            break;
        case BS_INACTIVE:
            out->free += b->size;
            out->nfree++;
            out->largest_free = MAX(out->largest_free, b->size);
            break;
        default:
            break;
        }
    }
}

/* Segments at a trace entry: the final segments rolled back past the
 * entries after it (memory_viz's simulate_memory), with the allocations
 * live then placed in them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/snapshot/snapshot.h"
#include "core/base/hmap.h"
#include "core/base/xalloc.h"

typedef VEC(struct snap_seg_at) seg_vec;

/* Index of the last segment whose address is <= addr, -1 when none. */
static ptrdiff_t seg_floor(const seg_vec *v, uint64_t addr)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)v->n - 1, at = -1;
    while (lo <= hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (v->v[mid].address <= addr) {
            at = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return at;
}

/* Index of the segment holding [addr, addr + size), -1 when none. */
static ptrdiff_t seg_holding(const seg_vec *v, uint64_t addr, uint64_t size)
{
    ptrdiff_t i = seg_floor(v, addr);
    if (i < 0)
        return -1;
    const struct snap_seg_at *g = &v->v[i];
    return addr - g->address + size <= g->size ? i : -1;
}

static void seg_insert(seg_vec *v, size_t at, const struct snap_seg_at *g)
{
    VEC_RESERVE(v, v->n + 1);
    memmove(v->v + at + 1, v->v + at, (v->n - at) * sizeof(*v->v));
    v->v[at] = *g;
    v->n++;
}

static void seg_remove(seg_vec *v, size_t at)
{
    memmove(v->v + at, v->v + at + 1, (v->n - at - 1) * sizeof(*v->v));
    v->n--;
}

/* Undo a segment_map of [addr, addr + size): the expandable segment holding
 * it shrinks from either end, or splits in two around it. */
static void undo_map(seg_vec *v, uint64_t addr, uint64_t size)
{
    ptrdiff_t i = seg_holding(v, addr, size);
    if (i < 0 || size == 0)
        return; /* mapped before the final segments knew it: nothing to take back */
    struct snap_seg_at *g = &v->v[i];
    uint64_t end = addr + size, gend = g->address + g->size;
    if (g->address == addr) {
        g->address = end;
        g->size -= size;
        if (g->size == 0)
            seg_remove(v, (size_t)i);
    } else if (gend == end) {
        g->size -= size;
    } else {
        struct snap_seg_at tail = *g;
        tail.address = end;
        tail.size = gend - end;
        g->size = addr - g->address;
        seg_insert(v, (size_t)i + 1, &tail);
    }
}

/* Undo a segment_free or segment_unmap of [addr, addr + size) at entry j:
 * the range is a segment again; an unmapped range joins the expandable
 * segments it touches on the same stream. */
static void undo_free(seg_vec *v, const struct snap_entry *e, uint32_t j, bool unmap)
{
    ptrdiff_t i = seg_floor(v, e->addr);
    if (i >= 0 && e->addr < v->v[i].address + v->v[i].size)
        return; /* overlaps a segment already there: an inconsistent file */
    size_t at = (size_t)(i + 1);
    if (at < v->n && e->addr + e->size > v->v[at].address)
        return;
    if (unmap) {
        struct snap_seg_at *prev = i >= 0 ? &v->v[i] : NULL;
        struct snap_seg_at *next = at < v->n ? &v->v[at] : NULL;
        bool join_prev = prev && prev->is_expandable && prev->stream == e->stream &&
                         prev->address + prev->size == e->addr;
        bool join_next = next && next->is_expandable && next->stream == e->stream &&
                         e->addr + e->size == next->address;
        if (join_prev) {
            prev->size += e->size;
            if (join_next) {
                prev->size += next->size;
                seg_remove(v, at);
            }
            return;
        }
        if (join_next) {
            next->address = e->addr;
            next->size += e->size;
            return;
        }
    }
    struct snap_seg_at g = {.address = e->addr,
                            .size = e->size,
                            .stream = e->stream,
                            .segment = IDX_NONE,
                            .freed = j,
                            .is_expandable = unmap};
    seg_insert(v, at, &g);
}

static int cmp_seg(const void *x, const void *y)
{
    const struct snap_seg_at *a = x, *b = y;
    return a->address < b->address ? -1 : a->address > b->address;
}

static int cmp_live(const void *x, const void *y)
{
    const struct snap_seg_live *a = x, *b = y;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->alloc < b->alloc ? -1 : a->alloc > b->alloc;
}

/* Pending-free state of addresses after entry idx: 1 after a free_requested,
 * 0 after an alloc or free_completed. anyreq gets every address with a
 * free_requested anywhere in the trace. */
static void pending_states(const struct snapshot *s, uint32_t dev, uint32_t idx, struct hmap *at,
                           struct hmap *anyreq)
{
    const struct snap_device *d = &s->devices.v[dev];
    for (uint32_t j = 0; j < d->nentries; j++) {
        const struct snap_entry *e = snapshot_entry(s, dev, j);
        bool before = idx != IDX_NONE && j <= idx;
        if (e->action == SA_FREE_REQUESTED) {
            hmap_put(anyreq, e->addr, 1);
            if (before)
                hmap_put(at, e->addr, 1);
        } else if (before && (e->action == SA_ALLOC || e->action == SA_FREE_COMPLETED)) {
            hmap_put(at, e->addr, 0);
        }
    }
}

typedef VEC(struct snap_seg_live) live_vec;

/* The allocations live after idx, with their block bytes: a live allocation
 * still live at the end takes the size of the final block at its address
 * (pending-free blocks are not linked to allocations by the replay). */
static void collect_live(const struct snapshot *s, uint32_t dev, uint32_t idx, live_vec *out)
{
    const struct snap_device *d = &s->devices.v[dev];
    struct hmap at, anyreq, blocks;
    hmap_init(&at, 256);
    hmap_init(&anyreq, 256);
    hmap_init(&blocks, 256);
    pending_states(s, dev, idx, &at, &anyreq);
    for (size_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *sg = &s->segments.v[g];
        if (sg->device != dev)
            continue;
        for (uint32_t k = 0; k < sg->nblocks; k++) {
            const struct snap_block *b = &s->blocks.v[sg->first_block + k];
            if (b->state == BS_ACTIVE_ALLOCATED || b->state == BS_ACTIVE_PENDING_FREE)
                hmap_put(&blocks, b->address, sg->first_block + k);
        }
    }
    struct hmap held; /* addresses an allocation live at the end accounts for */
    hmap_init(&held, 256);
    for (uint32_t k = d->first_alloc; k < d->first_alloc + d->nallocs; k++) {
        const struct snap_alloc *a = &s->allocs.v[k];
        uint32_t bi = a->block;
        if (a->free_idx == IDX_NONE) {
            if (bi == IDX_NONE)
                bi = hmap_get(&blocks, a->addr);
            hmap_put(&held, a->addr, k);
        }
        if (!snapshot_alloc_live(a, idx))
            continue;
        struct snap_seg_live l = {.addr = a->addr,
                                  .size = bi != IDX_NONE ? s->blocks.v[bi].size
                                                         : snapshot_alloc_block_bytes(s, a),
                                  .requested = a->size,
                                  .alloc = k,
                                  .frames = a->frames,
                                  .pending = hmap_get(&at, a->addr) == 1};
        VEC_PUSH(out, l);
    }
    /* Final pending-free blocks no allocation accounts for were allocated
     * before the trace: live throughout, pending since their free_requested
     * (always, when the trace has none). */
    for (size_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *sg = &s->segments.v[g];
        if (sg->device != dev)
            continue;
        for (uint32_t k = 0; k < sg->nblocks; k++) {
            const struct snap_block *b = &s->blocks.v[sg->first_block + k];
            if (b->state != BS_ACTIVE_PENDING_FREE || hmap_get(&held, b->address) != IDX_NONE)
                continue;
            bool pending =
                hmap_get(&anyreq, b->address) == IDX_NONE || hmap_get(&at, b->address) == 1;
            struct snap_seg_live l = {.addr = b->address,
                                      .size = b->size,
                                      .requested = b->requested_size,
                                      .alloc = IDX_NONE,
                                      .frames = b->frames,
                                      .pending = pending};
            VEC_PUSH(out, l);
        }
    }
    hmap_free(&held);
    hmap_free(&blocks);
    hmap_free(&anyreq);
    hmap_free(&at);
    if (out->n)
        sort_items(out->v, out->n, sizeof(*out->v), cmp_live);
}

/* Fill a segment's numbers from its allocations (by address). */
static void seg_frag(struct snap_seg_at *g, const struct snap_seg_live *l, size_t n)
{
    struct snap_frag *f = &g->frag;
    memset(f, 0, sizeof(*f));
    uint64_t pos = g->address, end = g->address + g->size;
    for (size_t i = 0; i <= n; i++) {
        uint64_t start = i < n ? MIN(l[i].addr, end) : end;
        if (start > pos) {
            f->free += start - pos;
            f->largest_free = MAX(f->largest_free, start - pos);
            f->nfree++;
        }
        if (i == n)
            break;
        uint64_t stop = MIN(l[i].addr + l[i].size, end);
        /* Sizes rounded for allocations without a final block can overlap
         * the next one; count each byte once. */
        uint64_t bytes = stop > MAX(pos, l[i].addr) ? stop - MAX(pos, l[i].addr) : 0;
        if (l[i].pending) {
            f->pending += bytes;
        } else {
            f->allocated += bytes;
            f->requested += l[i].requested;
        }
        pos = MAX(pos, stop);
    }
}

void snapshot_segments_at(const struct snapshot *s, uint32_t dev, uint32_t idx,
                          struct snap_seg_state *out)
{
    memset(out, 0, sizeof(*out));
    const struct snap_device *d = &s->devices.v[dev];
    if (idx != IDX_NONE && d->nentries && idx >= d->nentries)
        idx = d->nentries - 1;
    out->idx = idx;
    out->final = d->nentries == 0 || idx == d->nentries - 1;
    seg_vec v = {0};
    for (uint32_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *sg = &s->segments.v[g];
        if (sg->device != dev)
            continue;
        struct snap_seg_at a = {.address = sg->address,
                                .size = sg->total_size,
                                .stream = sg->stream,
                                .segment = g,
                                .freed = IDX_NONE,
                                .is_expandable = sg->is_expandable};
        VEC_PUSH(&v, a);
    }
    if (v.n)
        sort_items(v.v, v.n, sizeof(*v.v), cmp_seg);
    uint32_t stop = idx == IDX_NONE ? 0 : idx + 1;
    for (uint32_t j = d->nentries; j-- > stop;) {
        const struct snap_entry *e = snapshot_entry(s, dev, j);
        switch (e->action) {
        case SA_SEGMENT_ALLOC: {
            ptrdiff_t i = seg_floor(&v, e->addr);
            if (i >= 0 && v.v[i].address == e->addr)
                seg_remove(&v, (size_t)i);
            break;
        }
        case SA_SEGMENT_MAP:
            undo_map(&v, e->addr, e->size);
            break;
        case SA_SEGMENT_FREE:
        case SA_SEGMENT_UNMAP:
            undo_free(&v, e, j, e->action == SA_SEGMENT_UNMAP);
            break;
        default:
            break;
        }
    }
    live_vec all = {0}, kept = {0};
    collect_live(s, dev, idx, &all);
    for (size_t i = 0; i < all.n; i++) {
        ptrdiff_t g = seg_floor(&v, all.v[i].addr);
        if (g < 0 || all.v[i].addr >= v.v[g].address + v.v[g].size) {
            out->outside += all.v[i].size;
            continue;
        }
        if (v.v[g].nlive++ == 0)
            v.v[g].first_live = (uint32_t)kept.n;
        VEC_PUSH(&kept, all.v[i]);
    }
    VEC_FREE(&all);
    for (size_t g = 0; g < v.n; g++) {
        struct snap_seg_at *sg = &v.v[g];
        seg_frag(sg, sg->nlive ? kept.v + sg->first_live : NULL, sg->nlive);
        out->reserved += sg->size;
        out->allocated += sg->frag.allocated;
        out->pending += sg->frag.pending;
    }
    out->segs = v.v;
    out->nsegs = v.n;
    out->live = kept.v;
    out->nlive = kept.n;
}

void snapshot_seg_state_free(struct snap_seg_state *st)
{
    free(st->segs);
    free(st->live);
    memset(st, 0, sizeof(*st));
}

/* Report tables of a memory snapshot: summary, allocation sites, segments
 * and the trace listing. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols/kname.h"
#include "core/snapshot/snaplabel.h"
#include "core/snapshot/snapreport.h"
#include "core/base/strbuf.h"

static void device_label(const struct snapshot *s, uint32_t dev, char *buf, size_t n)
{
    const struct snap_device *d = &s->devices.v[dev];
    if (d->host)
        snprintf(buf, n, "host");
    else
        snprintf(buf, n, "cuda:%d", d->id);
}

static void set_u64(struct table *t, size_t row, size_t col, uint64_t v)
{
    table_set_int(t, row, col, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static void set_hex(struct table *t, size_t row, size_t col, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
    table_set_text(t, row, col, buf);
}

static void set_frame(const struct snapshot *s, struct table *t, size_t row, size_t col,
                      uint32_t stack)
{
    uint32_t f = snapshot_site_frame(s, stack);
    if (f == IDX_NONE)
        return;
    struct strbuf sb = STRBUF_INIT;
    snapshot_frame_format(s, f, &sb);
    table_set_text(t, row, col, sb_str(&sb));
    sb_free(&sb);
}

/* ------------------------------------------------------------------------ */
/* Summary                                                                  */
/* ------------------------------------------------------------------------ */

enum {
    SU_DEVICE,
    SU_SEGMENTS,
    SU_BLOCKS,
    SU_RESERVED,
    SU_ALLOCATED,
    SU_ACTIVE,
    SU_REQUESTED,
    SU_STATE0, /* block bytes by state, BS__COUNT columns */
    SU_ENTRIES = SU_STATE0 + BS__COUNT,
    SU_ACTION0, /* entries by action, SA__COUNT columns */
    SU_PEAK_REQUESTED = SU_ACTION0 + SA__COUNT,
    SU_PEAK_INDEX,
    SU_PEAK_TIME,
    SU_PEAK,
    SU_BASE,
    SU_PEAK_RESERVED,
    SU_FRAMES,
    SU_STACKS,
    SU__COUNT
};

static const struct table_col summary_cols[SU__COUNT] = {
    [SU_DEVICE] = {"device", NULL, COL_TEXT, 0, COLF_ASC},
    [SU_SEGMENTS] = {"segments", "segs", COL_INT, 0, 0},
    [SU_BLOCKS] = {"blocks", NULL, COL_INT, 0, 0},
    [SU_RESERVED] = {"reserved_bytes", "reserved", COL_INT, 0, COLF_BYTES},
    [SU_ALLOCATED] = {"allocated_bytes", "allocated", COL_INT, 0, COLF_BYTES},
    [SU_ACTIVE] = {"active_bytes", "active", COL_INT, 0, COLF_BYTES},
    [SU_REQUESTED] = {"requested_bytes", "requested", COL_INT, 0, COLF_BYTES},
    [SU_STATE0 + BS_ACTIVE_ALLOCATED] = {"active_allocated_bytes", NULL, COL_INT, 0,
                                         COLF_DETAIL | COLF_BYTES},
    [SU_STATE0 + BS_ACTIVE_PENDING_FREE] = {"active_pending_free_bytes", NULL, COL_INT, 0,
                                            COLF_DETAIL | COLF_BYTES},
    [SU_STATE0 + BS_INACTIVE] = {"inactive_bytes", NULL, COL_INT, 0, COLF_DETAIL | COLF_BYTES},
    [SU_STATE0 + BS_OTHER] = {"other_state_bytes", NULL, COL_INT, 0, COLF_DETAIL | COLF_BYTES},
    [SU_ENTRIES] = {"trace_entries", "entries", COL_INT, 0, 0},
    [SU_ACTION0 + SA_ALLOC] = {"alloc", "allocs", COL_INT, 0, 0},
    [SU_ACTION0 + SA_FREE_REQUESTED] = {"free_requested", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_FREE_COMPLETED] = {"free_completed", "frees", COL_INT, 0, 0},
    [SU_ACTION0 + SA_SEGMENT_ALLOC] = {"segment_alloc", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_SEGMENT_FREE] = {"segment_free", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_SEGMENT_MAP] = {"segment_map", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_SEGMENT_UNMAP] = {"segment_unmap", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_OOM] = {"oom", "ooms", COL_INT, 0, 0},
    [SU_ACTION0 + SA_SNAPSHOT] = {"snapshot", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_ANNOTATE] = {"annotate", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_ACTION0 + SA_OTHER] = {"other_actions", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_PEAK] = {"peak_allocated_bytes", "peak allocated (est.)", COL_INT, 0,
                 COLF_DETAIL | COLF_BYTES},
    [SU_PEAK_INDEX] = {"peak_index", "peak at entry", COL_INT, 0, 0},
    [SU_PEAK_TIME] = {"peak_time_us", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_PEAK_REQUESTED] = {"peak_requested_bytes", "peak requested", COL_INT, 0, COLF_BYTES},
    [SU_BASE] = {"allocated_before_trace_bytes", NULL, COL_INT, 0, COLF_DETAIL | COLF_BYTES},
    [SU_PEAK_RESERVED] = {"peak_reserved_bytes", NULL, COL_INT, 0, COLF_DETAIL | COLF_BYTES},
    [SU_FRAMES] = {"distinct_frames", NULL, COL_INT, 0, COLF_DETAIL},
    [SU_STACKS] = {"distinct_stacks", NULL, COL_INT, 0, COLF_DETAIL},
};

static void summary_row(const struct snapshot *s, struct table *t, const struct snap_device *d,
                        const char *label)
{
    size_t r = table_add_row(t);
    table_set_text(t, r, SU_DEVICE, label);
    table_set_int(t, r, SU_SEGMENTS, d->nsegments);
    table_set_int(t, r, SU_BLOCKS, d->nblocks);
    set_u64(t, r, SU_RESERVED, d->reserved);
    set_u64(t, r, SU_ALLOCATED, d->allocated);
    set_u64(t, r, SU_ACTIVE, d->active);
    set_u64(t, r, SU_REQUESTED, d->requested);
    for (int k = 0; k < BS__COUNT; k++)
        set_u64(t, r, SU_STATE0 + k, d->block_bytes[k]);
    table_set_int(t, r, SU_ENTRIES, d->nentries);
    for (int a = 0; a < SA__COUNT; a++)
        set_u64(t, r, SU_ACTION0 + a, d->nactions[a]);
    table_set_int(t, r, SU_PEAK, d->peak_block_bytes);
    table_set_int(t, r, SU_PEAK_REQUESTED, d->peak_allocated);
    table_set_int(t, r, SU_BASE, d->base_block_bytes);
    table_set_int(t, r, SU_PEAK_RESERVED, d->peak_reserved);
    if (d->peak_idx != IDX_NONE) {
        table_set_int(t, r, SU_PEAK_INDEX, d->peak_idx);
        const struct snap_entry *e = &s->entries.v[d->first_entry + d->peak_idx];
        if (e->flags & SEF_TIME)
            table_set_int(t, r, SU_PEAK_TIME, e->time_us);
    }
}

struct table *snapreport_summary(const struct snapshot *s)
{
    struct table *t = table_new("memory_summary",
                                "Memory by device: segments, blocks, trace entries and the "
                                "peak of requested memory",
                                summary_cols, SU__COUNT);
    t->whole = true;
    struct snap_device all = {0};
    uint64_t ann = 0;
    char label[32];
    for (uint32_t i = 0; i < s->devices.n; i++) {
        const struct snap_device *d = &s->devices.v[i];
        device_label(s, i, label, sizeof(label));
        summary_row(s, t, d, label);
        table_set_ref(t, t->nrows - 1, i);
        all.nsegments += d->nsegments;
        all.nblocks += d->nblocks;
        all.reserved += d->reserved;
        all.allocated += d->allocated;
        all.active += d->active;
        all.requested += d->requested;
        for (int k = 0; k < BS__COUNT; k++)
            all.block_bytes[k] += d->block_bytes[k];
        all.nentries += d->nentries;
        for (int a = 0; a < SA__COUNT; a++)
            all.nactions[a] += d->nactions[a];
        all.peak_allocated += d->peak_allocated;
        all.peak_block_bytes += d->peak_block_bytes;
        all.base_block_bytes += d->base_block_bytes;
        all.peak_reserved += d->peak_reserved;
    }
    all.peak_idx = all.peak_block_idx = IDX_NONE;
    summary_row(s, t, &all, "all");
    size_t r = t->nrows - 1;
    /* Peaks of different devices happen at different times: no sum. */
    bool one = s->devices.n == 1;
    table_set_int(t, r, SU_PEAK, one ? s->devices.v[0].peak_block_bytes : TABLE_NO_INT);
    table_set_int(t, r, SU_PEAK_REQUESTED, one ? s->devices.v[0].peak_allocated : TABLE_NO_INT);
    table_set_int(t, r, SU_PEAK_RESERVED, one ? s->devices.v[0].peak_reserved : TABLE_NO_INT);
    table_set_int(t, r, SU_FRAMES, (int64_t)s->frames.n);
    table_set_int(t, r, SU_STACKS, (int64_t)snapshot_nstacks(s) - 1);
    ann = s->annotations.n;
    table_add_note(t, "peak requested: the most bytes requested at once, memory_viz's peak (the "
                      "memory-over-time chart); peak at entry: the trace entry index (-t trace) "
                      "where it was first reached, empty if before the trace; "
                      "peak_allocated_bytes: an estimate of the same peak in block sizes like "
                      "allocated (requests rounded up to 512 bytes where the final blocks do not "
                      "tell), never below allocated");
    size_t nstacks = snapshot_nstacks(s) - 1;
    table_add_note(t, "pickle protocol %d%s; %zu distinct frame%s in %zu distinct stack%s",
                   s->protocol, s->gzip ? " (gzip)" : "", s->frames.n, s->frames.n == 1 ? "" : "s",
                   nstacks, nstacks == 1 ? "" : "s");
    if (s->legacy_list)
        table_add_note(t, "old format: a bare list of segments, without trace entries");
    if (s->n_raw_frames)
        table_add_note(t, "%u native %s unresolved library offsets (re-resolvable)",
                       s->n_raw_frames, s->n_raw_frames == 1 ? "frame is an" : "frames are");
    if (ann)
        table_add_note(t, "%llu external annotation%s", (unsigned long long)ann,
                       ann == 1 ? "" : "s");
    for (size_t i = 0; i < s->unknown.n; i++)
        table_add_note(t, "key '%s' in %s not interpreted (%llu time%s)",
                       snapshot_str(s, s->unknown.v[i].key), s->unknown.v[i].where,
                       (unsigned long long)s->unknown.v[i].count,
                       s->unknown.v[i].count == 1 ? "" : "s");
    if (s->n_bad_values)
        table_add_note(t, "%llu %s an unexpected type and %s ignored",
                       (unsigned long long)s->n_bad_values,
                       s->n_bad_values == 1 ? "value had" : "values had",
                       s->n_bad_values == 1 ? "was" : "were");
    return t;
}

struct table *snapreport_settings(const struct snapshot *s)
{
    static const struct table_col cols[] = {
        {"key", NULL, COL_TEXT, 0, COLF_ASC},
        {"value", NULL, COL_TEXT, 0, COLF_WIDE},
    };
    if (!s->has_settings)
        return NULL;
    struct table *t =
        table_new("allocator_settings", "CUDA caching allocator settings", cols, ARRAY_SIZE(cols));
    t->whole = true;
    for (size_t i = 0; i < s->settings.n; i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, snapshot_str(s, s->settings.v[i].key));
        table_set_text(t, r, 1, snapshot_str(s, s->settings.v[i].value));
    }
    return t;
}

/* ------------------------------------------------------------------------ */
/* Sites                                                                    */
/* ------------------------------------------------------------------------ */

enum { SI_SITE, SI_COUNT, SI_TOTAL, SI_MAX, SI_PEAK, SI_LIFE, SI_NFRAMES, SI_STACK, SI__COUNT };

/* A site's name: a Python or unresolved frame as snapshot_frame_format writes
 * it, a C++ function by its simplified name (no parameters, no anonymous
 * namespaces), which tells sites apart in a narrow column. Owned. */
static char *site_label(const struct snapshot *s, uint32_t f)
{
    const struct snap_frame *fr = snapshot_frame(s, f);
    struct strbuf sb = STRBUF_INIT;
    if (fr->flags & (SFF_PYTHON | SFF_RAW))
        snapshot_frame_format(s, f, &sb);
    else
        kname_simplify_put(&sb, snapshot_str(s, fr->name), strtab_len(&s->strs, fr->name));
    return sb_steal(&sb);
}

/* A site grouped by its first frames is named by them, not by one of its
 * allocations: the innermost Python frame among them, else the first. */
static uint32_t key_label_frame(const struct snapshot *s, const uint32_t *key, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s->frames.v[key[i]].flags & SFF_PYTHON)
            return key[i];
    return key[0];
}

/* The frame that names site i: of its key frames when grouped by depth,
 * else of its stack (the free's for sites of free stacks); IDX_NONE when
 * it has none. */
static uint32_t site_label_frame(const struct snapshot *s, const struct snap_sites *ss,
                                 unsigned depth, size_t i)
{
    const struct snap_site *st = &ss->v[i];
    uint32_t stack = st->free_stack ? st->free_stack : st->stack;
    if (stack == 0)
        return IDX_NONE;
    if (depth && st->nframes)
        return key_label_frame(s, ss->frames + st->first_frame, st->nframes);
    return snapshot_site_frame(s, stack);
}

struct table *snapreport_sites(const struct snapshot *s, uint32_t dev, unsigned depth,
                               size_t printed)
{
    static const struct table_col cols[SI__COUNT] = {
        [SI_SITE] = {"site", NULL, COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [SI_COUNT] = {"allocations", "allocs", COL_INT, 0, 0},
        [SI_TOTAL] = {"total_bytes", "total", COL_INT, 0, COLF_BYTES},
        [SI_MAX] = {"max_bytes", "max", COL_INT, 0, COLF_BYTES},
        [SI_PEAK] = {"peak_bytes", "at peak", COL_INT, 0, COLF_BYTES},
        [SI_LIFE] = {"mean_lifetime_us", "mean life us", COL_FLOAT, 0, 0},
        [SI_NFRAMES] = {"frames", NULL, COL_INT, 0, COLF_DETAIL},
        [SI_STACK] = {"stack", NULL, COL_TEXT, 0, COLF_DETAIL},
    };
    char title[160];
    if (depth)
        snprintf(title, sizeof(title),
                 "Allocation sites: allocations grouped by their first %u frame%s past the "
                 "allocator's own, by bytes live at the peak",
                 depth, depth == 1 ? "" : "s");
    else
        snprintf(title, sizeof(title),
                 "Allocation sites: allocations grouped by traceback, by bytes live at the peak");
    struct table *t = table_new("allocation_sites", title, cols, SI__COUNT);
    t->top_default = printed;
    struct snap_sites ss;
    snapshot_sites(s, dev, depth, &ss);
    struct strbuf sb = STRBUF_INIT;
    char **labels = xcalloc(ss.n ? ss.n : 1, sizeof(*labels));
    size_t nfreed = 0;
    for (size_t i = 0; i < ss.n; i++) {
        const struct snap_site *st = &ss.v[i];
        uint32_t lf = site_label_frame(s, &ss, depth, i);
        if (lf == IDX_NONE)
            continue;
        char *name = site_label(s, lf);
        if (st->free_stack) {
            /* Apart from the allocation sites, also among same-reading labels. */
            sb_clear(&sb);
            sb_printf(&sb, "%s%s", SNAPREPORT_FREED_PREFIX, name);
            free(name);
            name = xstrdup(sb_str(&sb));
            nfreed++;
        }
        labels[i] = name;
    }
    /* Sites that read the same say what tells them apart (docs/metrics.md §10.3). */
    char **via = snaplabel_via(s, &ss, depth, (const char *const *)labels);
    for (size_t i = 0; i < ss.n; i++) {
        const struct snap_site *st = &ss.v[i];
        uint32_t stack = st->free_stack ? st->free_stack : st->stack;
        size_t r = table_add_row(t);
        table_set_ref(t, r,
                      st->free_stack ? SNAPREPORT_FREE_STACK_REF | st->free_stack : st->stack);
        if (stack == 0) {
            table_set_text(t, r, SI_SITE, "<allocated before recording or no context>");
        } else if (via[i] || st->free_stack) {
            /* Short, so that what tells the site apart (and the prefix)
             * stays in a narrow column: the labelling Python frame by its
             * file's base name. */
            uint32_t lf = site_label_frame(s, &ss, depth, i);
            sb_clear(&sb);
            if (st->free_stack)
                sb_puts(&sb, SNAPREPORT_FREED_PREFIX);
            if (snapshot_frame(s, lf)->flags & SFF_PYTHON) {
                snaplabel_short_site(s, lf, &sb);
            } else {
                sb_puts(&sb, labels[i] + (st->free_stack ? strlen(SNAPREPORT_FREED_PREFIX) : 0));
            }
            if (via[i])
                sb_puts(&sb, via[i]);
            table_set_text(t, r, SI_SITE, sb_str(&sb));
        } else if (labels[i]) {
            table_set_text(t, r, SI_SITE, labels[i]);
        }
        set_u64(t, r, SI_COUNT, st->count);
        set_u64(t, r, SI_TOTAL, st->total_bytes);
        set_u64(t, r, SI_MAX, st->max_bytes);
        set_u64(t, r, SI_PEAK, st->peak_bytes);
        table_set_float(t, r, SI_LIFE, st->mean_lifetime_us);
        const uint32_t *f;
        size_t nf = snapshot_stack(s, stack, &f);
        table_set_int(t, r, SI_NFRAMES, (int64_t)nf);
        sb_clear(&sb);
        if (st->free_stack)
            sb_puts(&sb, "freed at: ");
        size_t shown = 0;
        for (size_t k = snapshot_site_start(s, stack); k < nf && shown < 8; k++) {
            if (s->frames.v[f[k]].flags & SFF_HIDDEN)
                continue;
            if (shown++)
                sb_puts(&sb, " < ");
            snapshot_frame_format(s, f[k], &sb);
        }
        table_set_text(t, r, SI_STACK, sb_str(&sb));
    }
    /* The replay counts requests, while the summary's allocated counts
     * blocks: say so, and which moment "at peak" is. */
    sb_clear(&sb);
    char label[32];
    for (uint32_t di = 0; di < s->devices.n; di++) {
        const struct snap_device *d = &s->devices.v[di];
        if ((dev != IDX_NONE && di != dev) || d->peak_idx == IDX_NONE)
            continue;
        device_label(s, di, label, sizeof(label));
        sb_printf(&sb, "%safter entry %u on %s", sb.len ? ", " : " (", d->peak_idx, label);
    }
    table_add_note(t,
                   "bytes are requested sizes (the trace entries', else the blocks' "
                   "requested_size); at peak: live at the peak of requested bytes%s%s",
                   sb_str(&sb), sb.len ? ")" : " (no trace entries: the snapshot's live blocks)");
    if (nfreed)
        table_add_note(t,
                       "%sF: allocations made before recording began and freed during it, "
                       "grouped by where they were freed; F and their stack are the free's "
                       "(the trace holds no allocation stack for them)",
                       SNAPREPORT_FREED_PREFIX);
    sb_free(&sb);
    snaplabel_free(via, ss.n);
    snaplabel_free(labels, ss.n);
    snapshot_sites_free(&ss);
    return t;
}

/* ------------------------------------------------------------------------ */
/* Segments                                                                 */
/* ------------------------------------------------------------------------ */

enum {
    SG_DEVICE,
    SG_ADDRESS,
    SG_TOTAL,
    SG_ALLOCATED,
    SG_PENDING,
    SG_FREE,
    SG_LARGEST,
    SG_FRAG,
    SG_BLOCKS,
    SG_NFREE,
    SG_REQUESTED,
    SG_TYPE,
    SG_STREAM,
    SG_POOL,
    SG_EXPANDABLE,
    SG_SITE,
    SG__COUNT
};

struct table *snapreport_segments(const struct snapshot *s)
{
    static const struct table_col cols[SG__COUNT] = {
        [SG_DEVICE] = {"device", NULL, COL_TEXT, 0, COLF_ASC},
        [SG_ADDRESS] = {"address", NULL, COL_TEXT, 0, COLF_ASC},
        [SG_TOTAL] = {"total_bytes", "size", COL_INT, 0, COLF_BYTES},
        [SG_ALLOCATED] = {"allocated_bytes", "allocated", COL_INT, 0, COLF_BYTES},
        [SG_PENDING] = {"pending_free_bytes", "pending", COL_INT, 0, COLF_BYTES},
        [SG_FREE] = {"free_bytes", "free", COL_INT, 0, COLF_BYTES},
        [SG_LARGEST] = {"largest_free_bytes", "largest free", COL_INT, 0, COLF_BYTES},
        [SG_FRAG] = {"fragmentation_pct", "frag %", COL_PERCENT, 1, 0},
        [SG_BLOCKS] = {"blocks", NULL, COL_INT, 0, 0},
        [SG_NFREE] = {"free_blocks", NULL, COL_INT, 0, COLF_DETAIL},
        [SG_REQUESTED] = {"requested_bytes", NULL, COL_INT, 0, COLF_DETAIL | COLF_BYTES},
        [SG_TYPE] = {"segment_type", "type", COL_TEXT, 0, COLF_ASC},
        [SG_STREAM] = {"stream", NULL, COL_INT, 0, COLF_DETAIL},
        [SG_POOL] = {"pool", NULL, COL_TEXT, 0, COLF_DETAIL},
        [SG_EXPANDABLE] = {"expandable", NULL, COL_INT, 0, COLF_DETAIL},
        [SG_SITE] = {"site", NULL, COL_TEXT, 0, COLF_WIDE | COLF_DETAIL},
    };
    struct table *t = table_new("segments",
                                "Segments: allocated, pending-free and free bytes; "
                                "fragmentation = 1 - largest free block / free bytes",
                                cols, SG__COUNT);
    char buf[64];
    for (uint32_t g = 0; g < s->segments.n; g++) {
        const struct snap_segment *seg = &s->segments.v[g];
        struct snap_frag fr;
        snapshot_segment_frag(s, g, &fr);
        size_t r = table_add_row(t);
        table_set_ref(t, r, g);
        device_label(s, seg->device, buf, sizeof(buf));
        table_set_text(t, r, SG_DEVICE, buf);
        set_hex(t, r, SG_ADDRESS, seg->address);
        set_u64(t, r, SG_TOTAL, seg->total_size);
        set_u64(t, r, SG_ALLOCATED, fr.allocated);
        set_u64(t, r, SG_PENDING, fr.pending);
        set_u64(t, r, SG_FREE, fr.free);
        set_u64(t, r, SG_LARGEST, fr.largest_free);
        table_set_float(t, r, SG_FRAG,
                        fr.free ? 100.0 * (1.0 - (double)fr.largest_free / (double)fr.free) : 0.0);
        table_set_int(t, r, SG_BLOCKS, seg->nblocks);
        table_set_int(t, r, SG_NFREE, fr.nfree);
        set_u64(t, r, SG_REQUESTED, fr.requested);
        table_set_text(t, r, SG_TYPE, snapshot_str(s, seg->segment_type));
        table_set_int(t, r, SG_STREAM, seg->stream);
        snprintf(buf, sizeof(buf), "%lld,%lld", (long long)seg->pool_id[0],
                 (long long)seg->pool_id[1]);
        table_set_text(t, r, SG_POOL, buf);
        table_set_int(t, r, SG_EXPANDABLE, seg->is_expandable);
        set_frame(s, t, r, SG_SITE, seg->frames);
    }
    return t;
}

/* ------------------------------------------------------------------------ */
/* Trace                                                                    */
/* ------------------------------------------------------------------------ */

enum {
    TR_DEVICE,
    TR_INDEX,
    TR_TIME,
    TR_MS,
    TR_ACTION,
    TR_ADDRESS,
    TR_SIZE,
    TR_STREAM,
    TR_ALLOCATED,
    TR_FRAME,
    TR__COUNT
};

struct table *snapreport_trace(const struct snapshot *s, uint32_t dev)
{
    static const struct table_col cols[TR__COUNT] = {
        [TR_DEVICE] = {"device", NULL, COL_TEXT, 0, COLF_ASC},
        [TR_INDEX] = {"index", NULL, COL_INT, 0, COLF_ASC},
        [TR_TIME] = {"time_us", NULL, COL_INT, 0, COLF_DETAIL | COLF_ASC},
        [TR_MS] = {"t_ms", "ms", COL_FLOAT, 3, COLF_ASC},
        [TR_ACTION] = {"action", NULL, COL_TEXT, 0, COLF_ASC},
        [TR_ADDRESS] = {"address", NULL, COL_TEXT, 0, COLF_ASC},
        [TR_SIZE] = {"size", NULL, COL_INT, 0, COLF_BYTES},
        [TR_STREAM] = {"stream", NULL, COL_INT, 0, COLF_DETAIL},
        [TR_ALLOCATED] = {"allocated_bytes", "allocated", COL_INT, 0, COLF_BYTES},
        [TR_FRAME] = {"top_frame", "frame", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
    };
    struct table *t = table_new("trace_entries",
                                "Trace entries; allocated = requested bytes allocated after the "
                                "entry, as memory_viz replays them (oom: address = bytes free on "
                                "the device)",
                                cols, TR__COUNT);
    char label[32];
    for (uint32_t di = 0; di < s->devices.n; di++) {
        if (dev != IDX_NONE && di != dev)
            continue;
        const struct snap_device *d = &s->devices.v[di];
        device_label(s, di, label, sizeof(label));
        bool have_t0 = false;
        int64_t t0 = 0;
        for (uint32_t i = 0; i < d->nentries; i++) {
            const struct snap_entry *e = snapshot_entry(s, di, i);
            size_t r = table_add_row(t);
            table_set_ref(t, r, d->first_entry + i);
            table_set_text(t, r, TR_DEVICE, label);
            table_set_int(t, r, TR_INDEX, i);
            if (e->flags & SEF_TIME) {
                if (!have_t0) {
                    t0 = e->time_us;
                    have_t0 = true;
                }
                table_set_int(t, r, TR_TIME, e->time_us);
                table_set_float(t, r, TR_MS, (double)(e->time_us - t0) / 1000.0);
            }
            table_set_text(t, r, TR_ACTION,
                           e->action == SA_OTHER ? snapshot_str(s, e->action_name)
                                                 : snapshot_action_name(e->action));
            set_hex(t, r, TR_ADDRESS, e->addr);
            set_u64(t, r, TR_SIZE, e->size);
            table_set_int(t, r, TR_STREAM, e->stream);
            table_set_int(t, r, TR_ALLOCATED, d->allocated_after[i]);
            set_frame(s, t, r, TR_FRAME, e->frames);
        }
    }
    return t;
}

/* ------------------------------------------------------------------------ */

bool snapshot_table_known(const char *name)
{
    return strcmp(name, "summary") == 0 || strcmp(name, "sites") == 0 ||
           strcmp(name, "segments") == 0 || strcmp(name, "trace") == 0;
}

void snapshot_tables(const struct snapshot *s, const char *table, size_t sites_shown,
                     struct table_list *out)
{
    if (!table || strcmp(table, "summary") == 0) {
        table_list_add(out, snapreport_summary(s));
        struct table *t = snapreport_settings(s);
        if (t)
            table_list_add(out, t);
    }
    if (!table || strcmp(table, "sites") == 0)
        table_list_add(out, snapreport_sites(s, IDX_NONE, 0, sites_shown));
    if (!table || strcmp(table, "segments") == 0)
        table_list_add(out, snapreport_segments(s));
    if (table && strcmp(table, "trace") == 0)
        table_list_add(out, snapreport_trace(s, IDX_NONE));
}

/* The memory pane of snapshot mode: the allocations live at the memory
 * cursor, largest first ("live"), or the segments map at the cursor, each
 * segment's allocations and free gaps as a bar of allocated, pending-free
 * and free bytes ("map"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/snapshot/snaplabel.h"
#include "core/snapshot/snapreport.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/detail.h"
#include "tui/frame/draw.h"
#include "tui/snapshot/memchart.h"
#include "tui/snapshot/snap_memory_pane.h"
#include "tui/snapshot/snapview.h"

enum { MV_LIVE, MV_MAP, MV__COUNT };

#define SIZE_W 9
#define SINCE_W 7
#define ADDR_W 14

struct mem_pane {
    int view;
    struct listview lv[MV__COUNT];
    unsigned gen; /* snapview.gen the rows were made for */
    bool built;
    VEC(uint32_t) live;         /* indices into snapview.live that pass the filter */
    struct snap_seg_state segs; /* the device's segments at the cursor */
    VEC(uint64_t) sizes;        /* scratch: block sizes of a segment */
    VEC(uint8_t) states;        /* scratch: their states */
    uint8_t *cells;             /* scratch: bar cells */
    int ncells;
    struct strbuf sb;
};

static struct mem_pane *mp_of(struct pane *p)
{
    return pane_priv(p, &snap_memory_pane_ops);
}

/* "name (file:line)" of the frame that best names where an allocation was
 * made; for one made before recording, where it was freed when the trace
 * says (never as if it were where it was made). */
static void site_text(const struct snapshot *s, uint32_t dev, const struct snap_alloc *al,
                      struct strbuf *out)
{
    uint32_t f = snapshot_site_frame(s, al->frames);
    if (f != IDX_NONE) {
        snapshot_frame_format(s, f, out);
        return;
    }
    uint32_t freed = al->alloc_idx == IDX_NONE ? snapshot_alloc_free_stack(s, dev, al) : 0;
    f = snapshot_site_frame(s, freed);
    if (f == IDX_NONE) {
        sb_puts(out, "<allocated before recording or no context>");
        return;
    }
    sb_puts(out, SNAPREPORT_FREED_PREFIX);
    snaplabel_short_site(s, f, out);
}

static void build(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    const struct snapview *sv = a->snap;
    const struct snapshot *s = sv->s;
    bool moved = !mp->built || mp->gen != sv->gen;
    mp->live.n = 0;
    for (size_t i = 0; i < sv->nlive; i++) {
        if (pattern_active(&a->filter)) {
            sb_clear(&mp->sb);
            site_text(s, sv->dev, &s->allocs.v[sv->live[i]], &mp->sb);
            if (!pattern_match(&a->filter, sb_str(&mp->sb)))
                continue;
        }
        VEC_PUSH(&mp->live, (uint32_t)i);
    }
    snapshot_seg_state_free(&mp->segs);
    if (sv->dev < s->devices.n)
        snapshot_segments_at(s, sv->dev, sv->cursor, &mp->segs);
    mp->lv[MV_LIVE].n = mp->live.n;
    mp->lv[MV_MAP].n = mp->segs.nsegs;
    if (moved) {
        /* A new cursor position: the largest allocation first. */
        mp->lv[MV_LIVE].cur = mp->lv[MV_LIVE].top = 0;
    }
    for (int v = 0; v < MV__COUNT; v++)
        listview_clamp(&mp->lv[v]);
    mp->gen = sv->gen;
    mp->built = true;
}

static void ensure_built(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    if (!mp->built || mp->gen != a->snap->gen)
        build(p, a);
}

static const struct snap_alloc *cur_alloc(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    ensure_built(p, a);
    struct listview *lv = &mp->lv[MV_LIVE];
    if (mp->view != MV_LIVE || lv->cur >= mp->live.n)
        return NULL;
    return &a->snap->s->allocs.v[a->snap->live[mp->live.v[lv->cur]]];
}

static const struct snap_seg_at *cur_segment(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    ensure_built(p, a);
    struct listview *lv = &mp->lv[MV_MAP];
    if (mp->view != MV_MAP || lv->cur >= mp->segs.nsegs)
        return NULL;
    return &mp->segs.segs[lv->cur];
}

/* The allocations of segment g in address order with the free gaps between
 * them, as block sizes and states. */
static void seg_tiles(struct mem_pane *mp, const struct snap_seg_at *g)
{
    mp->sizes.n = mp->states.n = 0;
    uint64_t pos = g->address, end = g->address + g->size;
    for (uint32_t k = 0; k <= g->nlive; k++) {
        const struct snap_seg_live *l = k < g->nlive ? &mp->segs.live[g->first_live + k] : NULL;
        uint64_t start = l ? MIN(l->addr, end) : end;
        if (start > pos) {
            VEC_PUSH(&mp->sizes, start - pos);
            VEC_PUSH(&mp->states, BS_INACTIVE);
        }
        if (!l)
            break;
        uint64_t stop = MIN(l->addr + l->size, end), from = MAX(pos, l->addr);
        if (stop > from) {
            VEC_PUSH(&mp->sizes, stop - from);
            VEC_PUSH(&mp->states, l->pending ? BS_ACTIVE_PENDING_FREE : BS_ACTIVE_ALLOCATED);
        }
        pos = MAX(pos, stop);
    }
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static void draw_title(struct pane *p, struct view *a, const char *text, size_t n)
{
    attr_t attr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, 0, p->r.w, text, n, false, false, attr, a->ascii);
}

static void fmt_since(const struct snap_alloc *al, char *buf, size_t n)
{
    if (al->alloc_idx == IDX_NONE)
        snprintf(buf, n, "before");
    else
        snprintf(buf, n, "%u", al->alloc_idx);
}

static void draw_live(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    const struct snapview *sv = a->snap;
    const struct snapshot *s = sv->s;
    struct listview *lv = &mp->lv[MV_LIVE];
    char b[32], dev[32];
    text_bytes(b, sizeof(b), sv->live_bytes > 0 ? (uint64_t)sv->live_bytes : 0);
    snapview_device_label(s, sv->dev, dev, sizeof(dev));
    sb_clear(&mp->sb);
    sb_printf(&mp->sb, " live: %zu allocation%s, %s on %s ", sv->nlive, sv->nlive == 1 ? "" : "s",
              b, dev);
    uint32_t nent = sv->dev < s->devices.n ? s->devices.v[sv->dev].nentries : 0;
    if (sv->cursor == IDX_NONE)
        sb_puts(&mp->sb, nent ? "before the first entry" : "at snapshot time");
    else
        sb_printf(&mp->sb, "after entry %u of %u", sv->cursor, nent);
    if (mp->live.n != sv->nlive)
        sb_printf(&mp->sb, "  %zu match \"%s\"", mp->live.n, a->filter.text);
    draw_title(p, a, sb_str(&mp->sb), mp->sb.len);
    if (p->r.h < 2)
        return;
    int w = p->r.w, sx = SIZE_W + 1 + SINCE_W + 1 + ADDR_W + 1;
    draw_blank(p->win, 1, 0, w, color_attr(C_COLHEAD));
    draw_fit(p->win, 1, 0, SIZE_W, "size", 4, false, true, color_attr(C_COLHEAD_SORT), a->ascii);
    draw_fit(p->win, 1, SIZE_W + 1, SINCE_W, "since", 5, false, true, color_attr(C_COLHEAD),
             a->ascii);
    draw_fit(p->win, 1, SIZE_W + SINCE_W + 2, ADDR_W, "address", 7, false, false,
             color_attr(C_COLHEAD), a->ascii);
    draw_fit(p->win, 1, sx, w - sx, "allocated at", 12, false, false, color_attr(C_COLHEAD),
             a->ascii);
    lv->height = MAX(1, p->r.h - 2);
    listview_clamp(lv);
    if (!mp->live.n) {
        draw_str(p->win, 2, 1, w - 1,
                 sv->nlive ? "(no allocation matches the filter)" : "(nothing allocated here)",
                 color_attr(C_DIM), a->ascii);
        return;
    }
    for (int y = 0; y < lv->height; y++) {
        size_t i = lv->top + (size_t)y;
        if (i >= mp->live.n)
            break;
        const struct snap_alloc *al = &s->allocs.v[sv->live[mp->live.v[i]]];
        bool cur = i == lv->cur;
        attr_t base = cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : 0;
        if (cur)
            draw_blank(p->win, 2 + y, 0, w, base);
        char num[40];
        text_bytes(num, sizeof(num), al->size);
        draw_fit(p->win, 2 + y, 0, SIZE_W, num, strlen(num), false, true,
                 base ? base : color_attr(C_NUMBER), a->ascii);
        fmt_since(al, num, sizeof(num));
        draw_fit(p->win, 2 + y, SIZE_W + 1, SINCE_W, num, strlen(num), false, true,
                 base ? base : color_attr(C_DIM), a->ascii);
        snprintf(num, sizeof(num), "0x%llx", (unsigned long long)al->addr);
        draw_fit(p->win, 2 + y, SIZE_W + SINCE_W + 2, ADDR_W, num, strlen(num), false, false,
                 base ? base : color_attr(C_DIM), a->ascii);
        sb_clear(&mp->sb);
        site_text(s, sv->dev, al, &mp->sb);
        attr_t at = base ? base : color_attr(C_DEFAULT);
        if (!base && pattern_active(&a->search) && pattern_match(&a->search, sb_str(&mp->sb)))
            at = color_attr(C_MATCH);
        draw_fit(p->win, 2 + y, sx, w - sx, sb_str(&mp->sb), mp->sb.len, true, false, at, a->ascii);
    }
}

static const char *state_glyph(struct view *a, uint8_t st)
{
    switch (st) {
    case BS_ACTIVE_ALLOCATED:
        return a->g->full;
    case BS_ACTIVE_PENDING_FREE:
        return a->g->shade_memcpy;
    case MEMCHART_EMPTY:
        return " ";
    default:
        return a->g->shade_idle;
    }
}

static enum color_elem state_elem(uint8_t st)
{
    switch (st) {
    case BS_ACTIVE_ALLOCATED:
        return C_COMP;
    case BS_ACTIVE_PENDING_FREE:
        return C_MEMCPY;
    default:
        return C_IDLE;
    }
}

static void draw_map(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    const struct snapview *sv = a->snap;
    const struct snapshot *s = sv->s;
    struct listview *lv = &mp->lv[MV_MAP];
    const struct snap_seg_state *st = &mp->segs;
    char b[2][32];
    text_bytes(b[0], sizeof(b[0]), st->reserved);
    text_bytes(b[1], sizeof(b[1]), st->allocated);
    uint32_t nent = sv->dev < s->devices.n ? s->devices.v[sv->dev].nentries : 0;
    sb_clear(&mp->sb);
    if (st->final)
        sb_puts(&mp->sb, " map, final state: ");
    else if (st->idx == IDX_NONE)
        sb_puts(&mp->sb, " map before the first entry: ");
    else
        sb_printf(&mp->sb, " map at entry %u of %u: ", st->idx, nent);
    /* The device is in the header; the legend goes last, cut first. */
    sb_printf(&mp->sb, "%zu segment%s, %s reserved, %s allocated  %s allocated %s pending %s free",
              st->nsegs, st->nsegs == 1 ? "" : "s", b[0], b[1], a->g->full, a->g->shade_memcpy,
              a->g->shade_idle);
    draw_title(p, a, sb_str(&mp->sb), mp->sb.len);
    lv->height = MAX(1, p->r.h - 1);
    listview_clamp(lv);
    if (!st->nsegs) {
        draw_str(p->win, 1, 1, p->r.w - 1, "(no segments on this device)", color_attr(C_DIM),
                 a->ascii);
        return;
    }
    int w = p->r.w;
    int bx = ADDR_W + 1 + SIZE_W + 2, fw = 9;
    int bw = w - bx - 1 - fw;
    if (bw > mp->ncells) {
        mp->cells = xreallocarray(mp->cells, (size_t)bw, 1);
        mp->ncells = bw;
    }
    for (int y = 0; y < lv->height; y++) {
        size_t i = lv->top + (size_t)y;
        if (i >= st->nsegs)
            break;
        const struct snap_seg_at *sg = &st->segs[i];
        bool cur = i == lv->cur;
        attr_t base = cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : 0;
        if (cur)
            draw_blank(p->win, 1 + y, 0, w, base);
        char num[40];
        snprintf(num, sizeof(num), "0x%llx", (unsigned long long)sg->address);
        draw_fit(p->win, 1 + y, 0, ADDR_W, num, strlen(num), false, false,
                 base ? base : color_attr(C_DIM), a->ascii);
        text_bytes(num, sizeof(num), sg->size);
        draw_fit(p->win, 1 + y, ADDR_W + 1, SIZE_W, num, strlen(num), false, true,
                 base ? base : color_attr(C_NUMBER), a->ascii);
        if (bw < 4)
            continue;
        seg_tiles(mp, sg);
        memchart_segbar(mp->sizes.v, mp->states.v, mp->sizes.n, bw, mp->cells);
        draw_raw(p->win, 1 + y, bx - 1, "[", base ? base : color_attr(C_GUIDE));
        for (int c = 0; c < bw; c++)
            draw_raw(p->win, 1 + y, bx + c, state_glyph(a, mp->cells[c]),
                     color_attr(state_elem(mp->cells[c])));
        draw_raw(p->win, 1 + y, bx + bw, "]", base ? base : color_attr(C_GUIDE));
        const struct snap_frag *fr = &sg->frag;
        if (fr->free && fr->nfree > 1)
            snprintf(num, sizeof(num), "frag %2.0f%%",
                     100.0 * (1.0 - (double)fr->largest_free / (double)fr->free));
        else
            snprintf(num, sizeof(num), "%u blk", sg->nlive + fr->nfree);
        draw_fit(p->win, 1 + y, bx + bw + 1, fw, num, strlen(num), false, true,
                 base ? base : color_attr(C_DIM), a->ascii);
    }
}

static void mem_draw(struct pane *p, struct view *a)
{
    struct mem_pane *mp = mp_of(p);
    ensure_built(p, a);
    werase(p->win);
    if (mp->view == MV_LIVE)
        draw_live(p, a);
    else
        draw_map(p, a);
}

/* ------------------------------------------------------------------------ */
/* Description                                                              */
/* ------------------------------------------------------------------------ */

static void put_entry(struct detail_out *d, struct view *a, const char *key, uint32_t idx,
                      const char *none)
{
    const struct snapview *sv = a->snap;
    if (idx == IDX_NONE) {
        detail_kv(d, key, none, strlen(none));
        return;
    }
    char when[40];
    snapview_entry_time(sv->s, sv->dev, idx, a->ascii, when, sizeof(when));
    if (when[0])
        detail_kvf(d, key, "entry %u (%s)", idx, when);
    else
        detail_kvf(d, key, "entry %u", idx);
}

/* The first frames of a stack that name its site (snapshot_site_start), as
 * lines of the detail text; the traceback pane has them all. */
static void put_frames(struct detail_out *d, const struct snapshot *s, uint32_t stack)
{
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f), shown = 0, start = snapshot_site_start(s, stack);
    if (!n) {
        detail_textf(d, C_DIM,
                     "no traceback recorded (before _record_memory_history, or "
                     "without context)");
        return;
    }
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = start < n ? start : 0; i < n && shown < 6; i++) {
        const struct snap_frame *fr = snapshot_frame(s, f[i]);
        if (fr->flags & SFF_HIDDEN)
            continue;
        sb_clear(&sb);
        snapshot_frame_format(s, f[i], &sb);
        detail_wrap(d, NULL, sb_str(&sb), sb.len, (fr->flags & SFF_PYTHON) ? C_PYTHON : C_DEFAULT);
        shown++;
    }
    sb_free(&sb);
    detail_textf(d, C_DIM, "%zu frame%s; t shows the traceback", n, n == 1 ? "" : "s");
}

static void describe_alloc(struct detail_out *d, struct view *a, const struct snap_alloc *al)
{
    const struct snapshot *s = a->snap->s;
    char b[32];
    text_bytes(b, sizeof(b), al->size);
    detail_heading(d, "Allocation");
    detail_kvf(d, "size", "%s (%llu bytes)", b, (unsigned long long)al->size);
    detail_kvf(d, "address", "0x%llx", (unsigned long long)al->addr);
    put_entry(d, a, "allocated", al->alloc_idx, "before the trace (not recorded)");
    put_entry(d, a, "freed", al->free_idx, "still live at snapshot time");
    int64_t t0 = snapview_entry_us(s, a->snap->dev, al->alloc_idx);
    int64_t t1 = snapview_entry_us(s, a->snap->dev, al->free_idx);
    if (t0 >= 0 && t1 >= t0) {
        char life[32];
        text_duration(life, sizeof(life), (t1 - t0) * 1000, a->ascii);
        detail_kv(d, "lifetime", life, strlen(life));
    }
    if (al->alloc_idx != IDX_NONE) {
        const struct snap_entry *e = snapshot_entry(s, a->snap->dev, al->alloc_idx);
        detail_kvf(d, "stream", "%lld", (long long)e->stream);
    }
    if (al->block != IDX_NONE) {
        const struct snap_block *bl = &s->blocks.v[al->block];
        const struct snap_segment *sg = &s->segments.v[bl->segment];
        detail_kvf(d, "block", "%s in segment 0x%llx (%s)", snapshot_state_name(bl->state),
                   (unsigned long long)sg->address, snapshot_str(s, sg->segment_type));
    }
    detail_heading(d, "Allocated at");
    put_frames(d, s, al->frames);
    uint32_t freed = al->frames == 0 ? snapshot_alloc_free_stack(s, a->snap->dev, al) : 0;
    if (freed) {
        /* All the trace says of an allocation made before recording. */
        detail_heading(d, "Freed at");
        put_frames(d, s, freed);
    }
}

/* The stack that says where segment g comes from: its segment_alloc's
 * (the final segment's frames), else the segment_free that gave it back. */
static uint32_t seg_stack(const struct snapview *sv, const struct snap_seg_at *g)
{
    if (g->segment != IDX_NONE)
        return sv->s->segments.v[g->segment].frames;
    return snapshot_entry(sv->s, sv->dev, g->freed)->frames;
}

static void describe_segment(struct detail_out *d, struct view *a, struct pane *p,
                             const struct snap_seg_at *g)
{
    const struct snapshot *s = a->snap->s;
    const struct snap_segment *sg = g->segment != IDX_NONE ? &s->segments.v[g->segment] : NULL;
    const struct snap_frag *fr = &g->frag;
    char b[4][32];
    text_bytes(b[0], sizeof(b[0]), g->size);
    text_bytes(b[1], sizeof(b[1]), fr->allocated);
    text_bytes(b[2], sizeof(b[2]), fr->pending);
    text_bytes(b[3], sizeof(b[3]), fr->free);
    detail_heading(d, "Segment");
    detail_kvf(d, "address", "0x%llx", (unsigned long long)g->address);
    detail_kvf(d, "size", "%s (%llu bytes)", b[0], (unsigned long long)g->size);
    if (sg)
        detail_kvf(d, "type", "%s%s", snapshot_str(s, sg->segment_type),
                   g->is_expandable ? ", expandable" : "");
    else if (g->is_expandable)
        detail_kv(d, "type", "expandable", 10);
    detail_kvf(d, "stream", "%lld", (long long)g->stream);
    if (sg && (sg->pool_id[0] || sg->pool_id[1]))
        detail_kvf(d, "pool", "(%lld, %lld)", (long long)sg->pool_id[0], (long long)sg->pool_id[1]);
    if (g->freed != IDX_NONE)
        put_entry(d, a, "given back", g->freed, "");
    detail_kvf(d, "allocated", "%s", b[1]);
    detail_kvf(d, "pending free", "%s", b[2]);
    detail_kvf(d, "free", "%s in %u block%s", b[3], fr->nfree, fr->nfree == 1 ? "" : "s");
    if (fr->free) {
        char lf[32];
        text_bytes(lf, sizeof(lf), fr->largest_free);
        detail_kvf(d, "largest free", "%s (fragmentation %.1f%%)", lf,
                   100.0 * (1.0 - (double)fr->largest_free / (double)fr->free));
    }
    detail_heading(d, "Blocks");
    struct mem_pane *mp = mp_of(p);
    seg_tiles(mp, g);
    enum { SHOW = 24 };
    uint64_t at = g->address;
    for (size_t k = 0; k < mp->sizes.n && k < SHOW; k++) {
        char sz[32];
        text_bytes(sz, sizeof(sz), mp->sizes.v[k]);
        detail_kvf(d, sz, "%s at 0x%llx", snapshot_state_name(mp->states.v[k]),
                   (unsigned long long)at);
        at += mp->sizes.v[k];
    }
    if (mp->sizes.n > SHOW)
        detail_textf(d, C_DIM, "... and %zu more", mp->sizes.n - SHOW);
    detail_heading(d, sg ? "Segment allocated at" : "Segment freed at");
    put_frames(d, s, seg_stack(a->snap, g));
}

static void mem_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    const struct snap_alloc *al = cur_alloc(p, a);
    if (al) {
        describe_alloc(d, a, al);
        return;
    }
    const struct snap_seg_at *g = cur_segment(p, a);
    if (g)
        describe_segment(d, a, p, g);
}

static bool mem_pick(struct pane *p, struct view *a, struct snap_pick *out)
{
    const struct snapshot *s = a->snap->s;
    const struct snap_alloc *al = cur_alloc(p, a);
    char b[32];
    if (al) {
        text_bytes(b, sizeof(b), al->size);
        uint32_t freed = al->frames == 0 ? snapshot_alloc_free_stack(s, a->snap->dev, al) : 0;
        out->stack = freed ? freed : al->frames;
        out->key = (3ull << 62) | (uint64_t)(al - s->allocs.v);
        snprintf(out->what, sizeof(out->what), "%s allocation, 0x%llx%s", b,
                 (unsigned long long)al->addr,
                 freed ? ", allocated before recording: where it was freed" : "");
        return true;
    }
    const struct snap_seg_at *g = cur_segment(p, a);
    if (!g)
        return false;
    text_bytes(b, sizeof(b), g->size);
    out->stack = seg_stack(a->snap, g);
    /* A final segment by its index, one given back later by that entry. */
    out->key = (2ull << 62) |
               (g->segment != IDX_NONE ? (uint64_t)g->segment << 1 : (uint64_t)g->freed << 1 | 1);
    snprintf(out->what, sizeof(out->what), "%s segment, 0x%llx", b, (unsigned long long)g->address);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static unsigned mem_action(struct pane *p, struct view *a, enum action act,
                           struct pane_request *req)
{
    struct mem_pane *mp = mp_of(p);
    ensure_built(p, a);
    if (listview_action(&mp->lv[mp->view], act))
        return R_HANDLED | R_DIRTY | R_SYNC;
    switch (act) {
    case A_VIEW_NEXT:
    case A_VIEW_PREV:
        mp->view = (mp->view + 1) % MV__COUNT;
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_ACTIVATE:
        req->kind = REQ_TRACEBACK;
        return R_HANDLED;
    case A_MOVE_LEFT:
    case A_MOVE_RIGHT:
        return R_HANDLED;
    default:
        return R_NONE;
    }
}

static unsigned mem_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                          struct pane_request *req)
{
    struct mem_pane *mp = mp_of(p);
    int first = mp->view == MV_LIVE ? 2 : 1;
    struct listview *lv = &mp->lv[mp->view];
    if (y < first)
        return R_HANDLED;
    size_t row = lv->top + (size_t)(y - first);
    if (row >= lv->n)
        return R_HANDLED;
    listview_set(lv, row);
    if (dbl) {
        req->kind = REQ_TRACEBACK;
        return R_HANDLED | R_DIRTY;
    }
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static unsigned mem_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    struct mem_pane *mp = mp_of(p);
    ensure_built(p, a);
    if (mp->view != MV_LIVE || !mp->live.n) {
        view_error(a, "search looks through the live allocations' sites (v: live)");
        return R_HANDLED;
    }
    const struct snapshot *s = a->snap->s;
    struct listview *lv = &mp->lv[MV_LIVE];
    size_t n = mp->live.n;
    bool *hit = xcalloc(n, sizeof(*hit));
    for (size_t i = 0; i < n; i++) {
        sb_clear(&mp->sb);
        site_text(s, a->snap->dev, &s->allocs.v[a->snap->live[mp->live.v[i]]], &mp->sb);
        hit[i] = pattern_match(&a->search, sb_str(&mp->sb));
    }
    size_t rank, total;
    bool wrapped;
    size_t i = pattern_next_hit(hit, n, lv->cur, dir, &rank, &total, &wrapped);
    free(hit);
    if (i == SIZE_MAX) {
        view_error(a, "/%s: no live allocation from there", a->search.text);
        return R_HANDLED;
    }
    listview_jump(lv, i);
    view_message(a, "/%s: match %zu of %zu (allocation %zu of %zu)%s", a->search.text, rank, total,
                 i + 1, n, wrapped ? " (wrapped)" : "");
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static void mem_rebuild(struct pane *p, struct view *a)
{
    build(p, a);
}

static void mem_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct mem_pane *mp = mp_of(p);
    ensure_built(p, a);
    const struct listview *lv = &mp->lv[mp->view];
    snprintf(buf, n, "%zu/%zu", lv->n ? lv->cur + 1 : 0, lv->n);
}

static int mem_keytab(struct pane *p, struct view *a)
{
    return KEYS_SNAP_MEMORY;
}

static void mem_free(struct pane *p)
{
    struct mem_pane *mp = mp_of(p);
    VEC_FREE(&mp->live);
    snapshot_seg_state_free(&mp->segs);
    VEC_FREE(&mp->sizes);
    VEC_FREE(&mp->states);
    free(mp->cells);
    sb_free(&mp->sb);
    free(mp);
}

const struct pane_ops snap_memory_pane_ops = {
    .name = "memory",
    .draw = mem_draw,
    .on_action = mem_action,
    .on_click = mem_click,
    .describe = mem_describe,
    .search = mem_search,
    .rebuild = mem_rebuild,
    .position = mem_position,
    .free = mem_free,
    .keytab = mem_keytab,
    .pick = mem_pick,
};

struct pane *snap_memory_pane_new(struct view *a)
{
    return pane_new(&snap_memory_pane_ops, PANE_TREE, xcalloc(1, sizeof(struct mem_pane)));
}

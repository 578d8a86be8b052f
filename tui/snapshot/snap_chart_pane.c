/* The memory chart of snapshot mode: bytes allocated after each trace
 * entry of the device, as bars across the width (one column per run of
 * entries, its tallest value), with the memory cursor, the peak and the
 * out-of-memory events marked on the axis. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/detail.h"
#include "tui/frame/draw.h"
#include "tui/snapshot/memchart.h"
#include "tui/snapshot/snap_chart_pane.h"
#include "tui/snapshot/snapview.h"

#define LABEL_W 11

struct chart_pane {
    uint32_t v0, v1; /* entries shown: [v0, v1) */
    uint32_t dev;    /* device the view is for */
    bool init;
    int64_t *vals; /* scratch: one value per column */
    int nvals;
};

static struct chart_pane *cp_of(struct pane *p)
{
    return pane_priv(p, &snap_chart_pane_ops);
}

static uint32_t nentries(struct view *a)
{
    const struct snapview *sv = a->snap;
    return sv->dev < sv->s->devices.n ? sv->s->devices.v[sv->dev].nentries : 0;
}

static int plot_w(struct pane *p)
{
    return MAX(1, p->r.w - LABEL_W);
}

static void clamp_view(struct pane *p, struct view *a)
{
    struct chart_pane *cp = cp_of(p);
    uint32_t n = nentries(a);
    if (!cp->init || cp->dev != a->snap->dev) {
        cp->v0 = 0;
        cp->v1 = n;
        cp->dev = a->snap->dev;
        cp->init = true;
    }
    uint32_t span = cp->v1 > cp->v0 ? cp->v1 - cp->v0 : n;
    span = CLAMP(span, MIN(n, 8u), n);
    uint32_t cur = a->snap->cursor;
    if (cur != IDX_NONE && (cur < cp->v0 || cur >= cp->v0 + span))
        cp->v0 = cur > span / 2 ? cur - span / 2 : 0;
    if (cp->v0 + span > n)
        cp->v0 = n - span;
    cp->v1 = cp->v0 + span;
}

/* The entry with the most bytes allocated among column col's entries. */
static uint32_t column_entry(struct pane *p, struct view *a, int col)
{
    struct chart_pane *cp = cp_of(p);
    const struct snapview *sv = a->snap;
    int w = plot_w(p);
    uint32_t lo = memchart_first(cp->v0, cp->v1, w, col);
    uint32_t hi = memchart_first(cp->v0, cp->v1, w, col + 1);
    if (hi <= lo)
        return lo;
    const int64_t *after = sv->s->devices.v[sv->dev].allocated_after;
    uint32_t best = lo;
    for (uint32_t i = lo + 1; i < hi; i++)
        if (after[i] > after[best])
            best = i;
    return best;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static void draw_title(struct pane *p, struct view *a)
{
    struct chart_pane *cp = cp_of(p);
    const struct snapview *sv = a->snap;
    char dev[32], b[32];
    snapview_device_label(sv->s, sv->dev, dev, sizeof(dev));
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " Memory over time: %s", dev);
    uint32_t n = nentries(a);
    if (n) {
        sb_printf(&sb, "  entries %u..%u of %u", cp->v0, cp->v1, n);
        if (sv->cursor != IDX_NONE) {
            const struct snap_entry *e = snapshot_entry(sv->s, sv->dev, sv->cursor);
            text_bytes(b, sizeof(b), e->size);
            sb_printf(&sb, "  cursor %u: %s %s", sv->cursor, snapshot_str(sv->s, e->action_name),
                      b);
        }
        text_bytes(b, sizeof(b), sv->live_bytes > 0 ? (uint64_t)sv->live_bytes : 0);
        sb_printf(&sb, ", %s allocated", b);
    }
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, 0, p->r.w, sb_str(&sb), sb.len, false, false, tattr, a->ascii);
    sb_free(&sb);
}

static void draw_axis(struct pane *p, struct view *a, int y, int cursor_col)
{
    struct chart_pane *cp = cp_of(p);
    const struct snapview *sv = a->snap;
    const struct snap_device *d = &sv->s->devices.v[sv->dev];
    int w = plot_w(p);
    char buf[48];
    snapview_entry_time(sv->s, sv->dev, sv->cursor, a->ascii, buf, sizeof(buf));
    if (sv->cursor == IDX_NONE)
        snprintf(buf, sizeof(buf), "start");
    else if (!buf[0])
        snprintf(buf, sizeof(buf), "#%u", sv->cursor);
    draw_fit(p->win, y, 0, LABEL_W - 1, buf, strlen(buf), false, false, color_attr(C_DIM),
             a->ascii);
    for (int col = 0; col < w; col++) {
        const char *g = col % 10 == 0 ? a->g->tick : a->g->axis;
        draw_raw(p->win, y, LABEL_W + col, g, color_attr(C_GUIDE));
    }
    /* Out-of-memory events, then the peak, then the cursor over them. */
    for (uint32_t i = snapshot_find_action(sv->s, sv->dev, cp->v0, SA_OOM);
         i != IDX_NONE && i < cp->v1; i = snapshot_find_action(sv->s, sv->dev, i + 1, SA_OOM))
        draw_raw(p->win, y, LABEL_W + memchart_col(cp->v0, cp->v1, w, i), "!", color_attr(C_ERROR));
    if (d->peak_idx != IDX_NONE && d->peak_idx >= cp->v0 && d->peak_idx < cp->v1)
        draw_raw(p->win, y, LABEL_W + memchart_col(cp->v0, cp->v1, w, d->peak_idx), "*",
                 color_attr(C_CURSOR));
    if (cursor_col >= 0 && cursor_col < w)
        draw_raw(p->win, y, LABEL_W + cursor_col, a->g->cursor,
                 color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_CURSOR));
}

static void chart_draw(struct pane *p, struct view *a)
{
    struct chart_pane *cp = cp_of(p);
    const struct snapview *sv = a->snap;
    werase(p->win);
    clamp_view(p, a);
    draw_title(p, a);
    int rows = p->r.h - 2, w = plot_w(p);
    if (!nentries(a)) {
        draw_str(p->win, 1, 1, p->r.w - 1,
                 sv->dev < sv->s->devices.n
                     ? "no trace entries on this device (memory history was not recorded); the "
                       "live list shows the blocks at snapshot time"
                     : "no devices in this snapshot",
                 color_attr(C_DIM), a->ascii);
        return;
    }
    if (rows < 1)
        return;
    if (w > cp->nvals) {
        cp->vals = xreallocarray(cp->vals, (size_t)w, sizeof(int64_t));
        cp->nvals = w;
    }
    snapshot_series_buckets(sv->s, sv->dev, cp->v0, cp->v1, (size_t)w, cp->vals);
    int64_t max = 1, min = INT64_MAX;
    for (int c = 0; c < w; c++) {
        max = MAX(max, cp->vals[c]);
        min = MIN(min, cp->vals[c]);
    }
    /* Memory that never drops below a large floor would fill the bars
     * alike: the scale then starts near the floor (the label says where). */
    int64_t base = min > max / 4 ? min - (max - min) / 8 : 0;
    base = CLAMP(base, (int64_t)0, max - 1);
    char lab[32];
    text_bytes(lab, sizeof(lab), (uint64_t)max);
    draw_fit(p->win, 1, 0, LABEL_W - 1, lab, strlen(lab), false, true, color_attr(C_DIM), a->ascii);
    if (rows > 1) {
        text_bytes(lab, sizeof(lab), (uint64_t)base);
        draw_fit(p->win, rows, 0, LABEL_W - 1, base ? lab : "0", base ? strlen(lab) : 1, false,
                 true, color_attr(C_DIM), a->ascii);
    }
    int cursor_col = sv->cursor == IDX_NONE ? -1 : memchart_col(cp->v0, cp->v1, w, sv->cursor);
    bool focus = a->focus == p->id;
    for (int c = 0; c < w; c++) {
        int e = memchart_eighths(cp->vals[c] - base, max - base, rows);
        for (int r = 0; r < rows; r++) {
            int level = memchart_level(e, rows - 1 - r);
            const char *glyph = a->g->levels[level];
            attr_t at = color_attr(level ? C_COMP : C_IDLE);
            if (c == cursor_col && focus) {
                at = color_attr(C_SELECT_FOCUS);
                if (!level)
                    glyph = a->ascii ? "|" : a->g->vline;
            }
            draw_raw(p->win, 1 + r, LABEL_W + c, glyph, at);
        }
    }
    draw_axis(p, a, p->r.h - 1, cursor_col);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static unsigned move_to(struct view *a, uint32_t idx)
{
    snapview_set_cursor(a->snap, idx);
    /* The allocations live at the cursor and the segment map follow. */
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

static unsigned move_cols(struct pane *p, struct view *a, int delta)
{
    struct chart_pane *cp = cp_of(p);
    uint32_t n = nentries(a), cur = a->snap->cursor;
    int w = plot_w(p);
    if (cur == IDX_NONE)
        return move_to(a, 0);
    int col = memchart_col(cp->v0, cp->v1, w, cur) + delta;
    if (col < 0 || col >= w) {
        /* Off the view: by entries at the edge, the view follows. */
        uint32_t step = MAX(1u, (cp->v1 - cp->v0) / (uint32_t)w);
        uint32_t to = delta < 0 ? (cur > step ? cur - step : 0) : MIN(cur + step, n - 1);
        return move_to(a, to);
    }
    uint32_t to = column_entry(p, a, col);
    if (delta > 0 && to <= cur)
        to = MIN(cur + 1, n - 1);
    if (delta < 0 && to >= cur)
        to = cur ? cur - 1 : 0;
    return move_to(a, to);
}

static void zoom(struct pane *p, struct view *a, double factor)
{
    struct chart_pane *cp = cp_of(p);
    uint32_t n = nentries(a), cur = a->snap->cursor == IDX_NONE ? 0 : a->snap->cursor;
    uint32_t span = cp->v1 - cp->v0;
    double at = span ? (double)(cur - cp->v0) / span : 0.5;
    uint32_t ns = (uint32_t)CLAMP((double)span * factor, (double)MIN(n, 8u), (double)n);
    uint32_t left = (uint32_t)(at * ns);
    cp->v0 = cur > left ? cur - left : 0;
    cp->v1 = cp->v0 + ns;
    clamp_view(p, a);
}

static unsigned chart_action(struct pane *p, struct view *a, enum action act,
                             struct pane_request *req)
{
    struct chart_pane *cp = cp_of(p);
    uint32_t n = nentries(a);
    if (!n) {
        switch (act) {
        case A_MOVE_LEFT:
        case A_MOVE_RIGHT:
        case A_MOVE_UP:
        case A_MOVE_DOWN:
            return R_HANDLED;
        default:
            return R_NONE;
        }
    }
    clamp_view(p, a);
    uint32_t cur = a->snap->cursor, span = cp->v1 - cp->v0;
    int w = plot_w(p);
    switch (act) {
    case A_MOVE_LEFT:
        return move_cols(p, a, -1);
    case A_MOVE_RIGHT:
        return move_cols(p, a, 1);
    case A_PAGE_UP:
        return move_cols(p, a, -MAX(1, w / 4));
    case A_PAGE_DOWN:
        return move_cols(p, a, MAX(1, w / 4));
    case A_EVENT_PREV:
        return move_to(a, cur == IDX_NONE || cur == 0 ? 0 : cur - 1);
    case A_EVENT_NEXT:
        return move_to(a, cur == IDX_NONE ? 0 : MIN(cur + 1, n - 1));
    case A_MOVE_FIRST:
        return move_to(a, 0);
    case A_MOVE_LAST:
        return move_to(a, n - 1);
    case A_MOVE_UP:
    case A_MOVE_DOWN:
        return R_HANDLED;
    case A_ZOOM_IN:
        zoom(p, a, 0.5);
        return R_HANDLED | R_DIRTY;
    case A_ZOOM_OUT:
        zoom(p, a, 2);
        return R_HANDLED | R_DIRTY;
    case A_ZOOM_FIT:
        cp->v0 = 0;
        cp->v1 = n;
        return R_HANDLED | R_DIRTY;
    case A_PAN_LEFT:
    case A_PAN_RIGHT: {
        uint32_t half = MAX(1u, span / 2);
        if (act == A_PAN_LEFT)
            cp->v0 = cp->v0 > half ? cp->v0 - half : 0;
        else
            cp->v0 = MIN(cp->v0 + half, n - span);
        cp->v1 = cp->v0 + span;
        /* The cursor stays in view: to the middle column. */
        return move_to(a, column_entry(p, a, w / 2));
    }
    default:
        return R_NONE;
    }
}

static unsigned chart_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                            struct pane_request *req)
{
    if (!nentries(a) || x < LABEL_W)
        return R_HANDLED;
    clamp_view(p, a);
    unsigned r = move_to(a, column_entry(p, a, MIN(x - LABEL_W, plot_w(p) - 1)));
    if (dbl)
        req->kind = REQ_TRACEBACK;
    return r;
}

/* ------------------------------------------------------------------------ */
/* Description                                                              */
/* ------------------------------------------------------------------------ */

static void chart_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    const struct snapview *sv = a->snap;
    const struct snapshot *s = sv->s;
    char b[32];
    if (sv->cursor == IDX_NONE) {
        text_bytes(b, sizeof(b), sv->live_bytes > 0 ? (uint64_t)sv->live_bytes : 0);
        detail_heading(d, "Before the first entry");
        detail_kvf(d, "allocated", "%s", b);
        return;
    }
    const struct snap_device *dv = &s->devices.v[sv->dev];
    const struct snap_entry *e = snapshot_entry(s, sv->dev, sv->cursor);
    detail_heading(d, "Trace entry");
    detail_kvf(d, "entry", "%u of %u%s", sv->cursor, dv->nentries,
               sv->cursor == dv->peak_idx ? " (the peak)" : "");
    detail_kv(d, "action", snapshot_str(s, e->action_name),
              strlen(snapshot_str(s, e->action_name)));
    text_bytes(b, sizeof(b), e->size);
    detail_kvf(d, "size", "%s (%llu bytes)", b, (unsigned long long)e->size);
    if (e->action == SA_OOM) {
        text_bytes(b, sizeof(b), e->addr);
        detail_kvf(d, "device free", "%s", b);
    } else {
        detail_kvf(d, "address", "0x%llx", (unsigned long long)e->addr);
    }
    detail_kvf(d, "stream", "%lld", (long long)e->stream);
    char when[40];
    snapview_entry_time(s, sv->dev, sv->cursor, a->ascii, when, sizeof(when));
    if (when[0])
        detail_kv(d, "time", when, strlen(when));
    text_bytes(b, sizeof(b), (uint64_t)MAX(dv->allocated_after[sv->cursor], 0));
    detail_kvf(d, "allocated after", "%s", b);
    text_bytes(b, sizeof(b), (uint64_t)MAX(dv->reserved_after[sv->cursor], 0));
    detail_kvf(d, "reserved after", "%s", b);
    if (e->compile_context && snapshot_str(s, e->compile_context)[0])
        detail_kv(d, "compile context", snapshot_str(s, e->compile_context),
                  strlen(snapshot_str(s, e->compile_context)));
    if (e->user_metadata && snapshot_str(s, e->user_metadata)[0])
        detail_kv(d, "user metadata", snapshot_str(s, e->user_metadata),
                  strlen(snapshot_str(s, e->user_metadata)));
    detail_heading(d, "Recorded at");
    uint32_t f = snapshot_top_frame(s, e->frames);
    if (f == IDX_NONE) {
        detail_textf(d, C_DIM, "no traceback recorded");
    } else {
        struct strbuf sb = STRBUF_INIT;
        snapshot_frame_format(s, snapshot_site_frame(s, e->frames), &sb);
        detail_wrap(d, NULL, sb_str(&sb), sb.len, C_PYTHON);
        sb_free(&sb);
        detail_textf(d, C_DIM, "Enter or t shows the traceback");
    }
}

static bool chart_pick(struct pane *p, struct view *a, struct snap_pick *out)
{
    const struct snapview *sv = a->snap;
    if (sv->cursor == IDX_NONE || !nentries(a))
        return false;
    const struct snap_entry *e = snapshot_entry(sv->s, sv->dev, sv->cursor);
    char b[32];
    text_bytes(b, sizeof(b), e->size);
    out->stack = e->frames;
    out->key = (1ull << 63) | ((uint64_t)sv->dev << 32) | sv->cursor;
    snprintf(out->what, sizeof(out->what), "entry %u, %s %s, 0x%llx", sv->cursor,
             snapshot_str(sv->s, e->action_name), b, (unsigned long long)e->addr);
    return true;
}

static void chart_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    uint32_t cur = a->snap->cursor;
    if (cur == IDX_NONE)
        snprintf(buf, n, "start/%u", nentries(a));
    else
        snprintf(buf, n, "%u/%u", cur + 1, nentries(a));
}

static int chart_keytab(struct pane *p, struct view *a)
{
    return KEYS_SNAP_CHART;
}

static void chart_free(struct pane *p)
{
    struct chart_pane *cp = cp_of(p);
    free(cp->vals);
    free(cp);
}

const struct pane_ops snap_chart_pane_ops = {
    .name = "chart",
    .draw = chart_draw,
    .on_action = chart_action,
    .on_click = chart_click,
    .describe = chart_describe,
    .position = chart_position,
    .free = chart_free,
    .keytab = chart_keytab,
    .pick = chart_pick,
};

struct pane *snap_chart_pane_new(struct view *a)
{
    return pane_new(&snap_chart_pane_ops, PANE_TIMELINE, xcalloc(1, sizeof(struct chart_pane)));
}

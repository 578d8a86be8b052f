/* The timeline pane: one lane per GPU stream and one for a thread's CPU
 * ops, binned into columns and drawn with block characters coloured by
 * class; zoom, pan, a cursor, and a marker on the selected event. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/analysis/ctracks.h"
#include "core/analysis/memtrace.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/detail.h"
#include "tui/trace/event_detail.h"
#include "tui/frame/draw.h"
#include "tui/trace/critpath_view.h"
#include "tui/trace/knames.h"
#include "tui/trace/lanes.h"
#include "tui/trace/timeline_pane.h"
#include "core/base/sort.h"
#include "core/trace/devkind.h"

#define LABEL_W 12

struct tl_pane {
    struct lane *lanes; /* GPU streams, then the CPU lane (last) */
    int nlanes;
    int lane;       /* current lane */
    int lane_top;   /* first lane shown */
    int64_t v0, v1; /* view, ns (trace time) */
    int64_t cursor; /* cursor time */
    uint32_t under; /* event under the cursor on the current lane */
    float *occ;     /* bins scratch */
    int occ_cols;
    struct lane *more; /* the other threads' CPU lanes, busiest first (drawn when the
                          pane has rows to spare, e.g. maximized); built on first use */
    int nmore;
    bool more_built;
    int nthreads;       /* threads with CPU ops (lanes_cpu_threads), -1: not counted */
    lane_bars_t bars;   /* scratch of draw_lane */
    bool *crit;         /* scratch of draw_lane: columns on the critical path */
    struct ctracks *ct; /* the trace's counter series (one lane each, after the
                           lanes above); built on first use, NULL before */
    bool marking;       /* a range's start is marked (m): at mark, its end at the cursor */
    int64_t mark;
};

static struct tl_pane *tl_of(struct pane *p)
{
    return pane_priv(p, &timeline_pane_ops);
}

/* Whether column col lies in the range being marked (from the mark to the
 * cursor, either way round). */
static bool in_marked_range(const struct tl_pane *tl, int col, int cursor_col, int64_t cns)
{
    if (!tl->marking)
        return false;
    int64_t mc = (tl->mark - tl->v0) / cns;
    return col >= MIN(mc, (int64_t)cursor_col) && col <= MAX(mc, (int64_t)cursor_col);
}

static int plot_w(struct pane *p)
{
    return MAX(1, p->r.w - LABEL_W);
}

static int64_t col_ns(struct pane *p)
{
    struct tl_pane *tl = tl_of(p);
    return MAX((int64_t)1, (tl->v1 - tl->v0) / plot_w(p));
}

static struct lane *cpu_lane(struct tl_pane *tl)
{
    return &tl->lanes[tl->nlanes - 1];
}

/* Keep the view inside the trace and at least one ns per column. */
static void clamp_view(struct pane *p, struct view *a)
{
    struct tl_pane *tl = tl_of(p);
    int64_t lo = a->t->t_start, hi = MAX(a->t->t_end, a->t->t_start + 1);
    int64_t span = tl->v1 - tl->v0;
    int64_t min_span = plot_w(p);
    if (span < min_span)
        span = min_span;
    if (span > hi - lo)
        span = hi - lo;
    if (tl->v0 < lo)
        tl->v0 = lo;
    tl->v1 = tl->v0 + span;
    if (tl->v1 > hi) {
        tl->v1 = hi;
        tl->v0 = hi - span;
    }
    tl->cursor = CLAMP(tl->cursor, lo, hi);
}

/* Pan so that time x is in view, keeping the zoom. */
static void show_time(struct pane *p, struct view *a, int64_t x)
{
    struct tl_pane *tl = tl_of(p);
    int64_t span = tl->v1 - tl->v0;
    if (x < tl->v0 || x >= tl->v1) {
        tl->v0 = x - span / 2;
        tl->v1 = tl->v0 + span;
    }
    clamp_view(p, a);
}

static void update_under(struct pane *p, struct view *a)
{
    struct tl_pane *tl = tl_of(p);
    tl->under = lane_event_at(&tl->lanes[tl->lane], a->t, tl->cursor, col_ns(p));
}

static void set_cpu_row(struct tl_pane *tl, struct view *a, uint32_t row)
{
    if (cpu_lane(tl)->row != row)
        lane_build(cpu_lane(tl), a->t, row, true);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static void lane_label(struct view *a, const struct lane *l, char *buf, size_t n)
{
    const struct row *r = &a->t->rows.v[l->row];
    if (l->cpu)
        snprintf(buf, n, "CPU %s", trace_str(a->t, r->tid_str));
    else
        snprintf(buf, n, "%s%d s%lld", devkind_name(a->t->device_kind), r->device,
                 (long long)r->stream);
}

static void draw_names(struct pane *p, struct view *a, int y, const struct lane *l);
static void draw_bar_labels(struct pane *p, struct view *a, int y, const struct lane *l);

/* Mark tl->crit[0..w) where the critical path's spans on lane l fall
 * (C shows them); false when it is not shown. */
static bool mark_critical(struct tl_pane *tl, struct view *a, const struct lane *l, int w,
                          int64_t cns)
{
    if (!a->crit_shown || !a->cpv)
        return false;
    tl->crit = xreallocarray(tl->crit, (size_t)w, sizeof(bool));
    memset(tl->crit, 0, (size_t)w * sizeof(bool));
    size_t n;
    const struct cpv_span *sp = critpath_view_spans(a->cpv, tl->v0, &n);
    for (size_t k = 0; k < n && sp[k].t0 < tl->v1; k++) {
        if (sp[k].t1 < tl->v0 || !lane_has_event(l, a->t, sp[k].ev))
            continue;
        int c0 = (int)((MAX(sp[k].t0, tl->v0) - tl->v0) / cns);
        int c1 = (int)((MIN(sp[k].t1, tl->v1 - 1) - tl->v0) / cns);
        for (int c = MAX(c0, 0); c <= MIN(c1, w - 1); c++)
            tl->crit[c] = true;
    }
    return true;
}

static void draw_lane(struct pane *p, struct view *a, int y, int li)
{
    struct tl_pane *tl = tl_of(p);
    const struct lane *l = &tl->lanes[li];
    int w = plot_w(p);
    char label[64];
    lane_label(a, l, label, sizeof(label));
    bool cur = li == tl->lane;
    attr_t lattr =
        cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : color_attr(C_DIM);
    draw_fit(p->win, y, 0, LABEL_W - 1, label, strlen(label), true, false, lattr, a->ascii);
    if (tl->occ_cols < w) {
        tl->occ = xreallocarray(tl->occ, (size_t)w * LC__COUNT, sizeof(float));
        tl->occ_cols = w;
    }
    lane_bins(l, tl->v0, tl->v1, w, tl->occ);
    lane_bars(l, a->t, tl->v0, tl->v1, w, a->sel, &tl->bars);
    int64_t cns = col_ns(p);
    int cursor_col = (int)((tl->cursor - tl->v0) / cns);
    bool crit = mark_critical(tl, a, l, w, cns);
    static const enum color_elem elems[LC__COUNT] = {C_COMP, C_COMM, C_MEMCPY, C_CPU};
    bool mono = color_pair(C_COMP) == 0;
    size_t bar = 0;
    for (int col = 0; col < w; col++) {
        float total = 0, best = 0;
        int cls = LC_COMP;
        for (int c = 0; c < LC__COUNT; c++) {
            float v = tl->occ[(size_t)c * (size_t)w + (size_t)col];
            total += v;
            if (v > best) {
                best = v;
                cls = c;
            }
        }
        if (total > 1)
            total = 1;
        const char *glyph;
        int level = total > 0 ? MAX(1, (int)(total * 8 + 0.5f)) : 0;
        /* A bar right after another starts with a gap where the column is
         * (nearly) full: two events that meet show as two bars. A column
         * less full shows its level, which tells them apart already. */
        while (bar < tl->bars.n && tl->bars.v[bar].c1 < col)
            bar++;
        bool meets = bar > 0 && bar < tl->bars.n && tl->bars.v[bar].c0 == col &&
                     tl->bars.v[bar - 1].c1 == col - 1;
        if (level == 0)
            glyph = " ";
        else if (meets && level >= 7)
            glyph = a->g->bar_start;
        else if ((mono || a->ascii) && cls == LC_COMM)
            glyph = a->g->shade_comm;
        else if ((mono || a->ascii) && cls == LC_MEMCPY)
            glyph = a->g->shade_memcpy;
        else
            glyph = a->g->levels[level];
        attr_t at = color_attr(level ? elems[cls] : C_IDLE);
        if (crit && tl->crit[col]) {
            /* On the critical path: reversed; a wait on it (a gap between
             * kernels, a launch delay) as a line. */
            at |= A_REVERSE;
            if (level == 0)
                glyph = a->g->crit_wait;
        }
        if (cur && col == cursor_col && a->focus == p->id) {
            at = color_attr(C_SELECT_FOCUS);
            if (level == 0)
                glyph = a->ascii ? "|" : a->g->vline;
        } else if (in_marked_range(tl, col, cursor_col, cns)) {
            at |= A_UNDERLINE;
            if (level == 0)
                glyph = a->ascii ? "_" : a->g->crit_wait;
        }
        draw_raw(p->win, y, LABEL_W + col, glyph, at);
    }
    if (l->cpu)
        draw_names(p, a, y, l);
    else
        draw_bar_labels(p, a, y, l);
}

/* The name event ev is shown by (the kernel names of K mode), cleaned. */
static void shown_name(struct view *a, uint32_t ev, struct strbuf *sb)
{
    size_t n;
    const char *name = a->kn ? knames_row_name(a->kn, ev, &n) : ev_name(a->t, ev);
    if (!a->kn)
        n = strlen(name);
    text_clean(sb, name, n, a->ascii);
}

/* The columns a label of clean text takes in `room` columns: whole when it
 * fits, cut in the middle when at least 12 columns show enough of it to
 * recognise; 0 (not drawn) in fewer than 6. */
static int label_cols(const struct strbuf *sb, int room)
{
    int nw = (int)text_width(sb_str(sb), sb->len);
    if (room < 6 || (nw > room && room < 12))
        return 0;
    return MIN(nw, room);
}

static void draw_label(struct pane *p, struct view *a, int y, int col, int cols,
                       const struct strbuf *sb)
{
    draw_fit(p->win, y, LABEL_W + col, cols, sb_str(sb), sb->len, true, false, color_attr(C_TITLE),
             a->ascii);
}

/* Label a GPU lane's bars inside their columns, a blank (bar) on each
 * side: the selected event's name on the bar holding it (where it has
 * room), else the event's name, or on a merged bar how many it holds. */
static void draw_bar_labels(struct pane *p, struct view *a, int y, const struct lane *l)
{
    struct tl_pane *tl = tl_of(p);
    for (size_t k = 0; k < tl->bars.n; k++) {
        const struct lane_bar *b = &tl->bars.v[k];
        int room = b->c1 - b->c0 - 1;
        if (room < 6)
            continue;
        struct strbuf sb = STRBUF_INIT;
        int cols = 0;
        if (b->marked) {
            shown_name(a, a->sel, &sb);
            cols = label_cols(&sb, room);
        }
        if (!cols) {
            sb_clear(&sb);
            if (b->n == 1 && b->ev != IDX_NONE)
                shown_name(a, b->ev, &sb);
            else
                sb_printf(&sb, "%u %s", b->n, l->only_kernels ? "kernels" : "events");
            cols = label_cols(&sb, room);
        }
        if (cols)
            draw_label(p, a, y, b->c0 + 1, cols, &sb);
        sb_free(&sb);
    }
}

/* Name the CPU lane's ops whose span has room for the name and a blank on
 * each side (cut in the middle in spans of 14 columns or more), left to
 * right, never over a name already drawn (a parent named hides its
 * children's names) nor over the selected op's, which is drawn first. At
 * most 3 steps per column. */
static void draw_names(struct pane *p, struct view *a, int y, const struct lane *l)
{
    struct tl_pane *tl = tl_of(p);
    int w = plot_w(p);
    int64_t cns = col_ns(p);
    /* The selected op's label: columns [s0, s1), with a blank either side. */
    int s0 = -2, s1 = -2;
    if (lane_has_event(l, a->t, a->sel)) {
        const struct event *e = trace_ev(a->t, a->sel);
        if (e->ts < tl->v1 && ev_end(e) > tl->v0) {
            int c0 = e->ts <= tl->v0 ? 0 : (int)((e->ts - tl->v0) / cns);
            int c1 = MIN((int)((MIN(ev_end(e), tl->v1) - tl->v0) / cns), w - 1);
            struct strbuf sb = STRBUF_INIT;
            shown_name(a, a->sel, &sb);
            int cols = label_cols(&sb, c1 - c0 - 2);
            if (cols) {
                draw_label(p, a, y, c0 + 1, cols, &sb);
                s0 = c0 + 1;
                s1 = c0 + 1 + cols;
            }
            sb_free(&sb);
        }
    }
    int free_col = 0, last_col = -1, in_col = 0;
    uint32_t ev = lane_event_at(l, a->t, tl->v0, 0);
    int64_t at = tl->v0 - 1;
    for (int guard = 0; guard <= 3 * w; guard++) {
        if (ev == IDX_NONE)
            ev = lane_event_step(l, a->t, at, 1);
        if (ev == IDX_NONE)
            break;
        const struct event *e = trace_ev(a->t, ev);
        if (e->ts >= tl->v1)
            break;
        int c0 = e->ts <= tl->v0 ? 0 : (int)((e->ts - tl->v0) / cns);
        int c1 = (int)((MIN(ev_end(e), tl->v1) - tl->v0) / cns);
        c1 = MIN(c1, w - 1);
        if (c0 >= free_col && ev != a->sel) {
            struct strbuf sb = STRBUF_INIT;
            shown_name(a, ev, &sb);
            int cols = label_cols(&sb, c1 - c0 - 2);
            if (cols && (c0 + 1 + cols < s0 || c0 >= s1)) {
                draw_label(p, a, y, c0 + 1, cols, &sb);
                free_col = c0 + 1 + cols + 1;
            }
            sb_free(&sb);
        }
        /* On to the next event; after a few in one column, to the next
         * column (tiny kernels cannot be named anyway). */
        in_col = c0 == last_col ? in_col + 1 : 0;
        last_col = c0;
        at = in_col < 2 ? e->ts : MAX(e->ts, tl->v0 + (int64_t)(c0 + 1) * cns - 1);
        ev = IDX_NONE;
    }
}

static double lane_busy(const struct lane *l)
{
    double sum = 0;
    for (size_t i = 0; i < l->iv[LC_CPU].n; i++)
        sum += (double)(l->iv[LC_CPU].v[i].end - l->iv[LC_CPU].v[i].start);
    return sum;
}

static int busier_first(const void *pa, const void *pb)
{
    double a = lane_busy(pa), b = lane_busy(pb);
    if (a != b)
        return a < b ? 1 : -1;
    const struct lane *x = pa, *y = pb;
    return (x->row > y->row) - (x->row < y->row);
}

/* The CPU lane of every thread with cpu ops (at most 64), busiest first. */
static void build_more(struct tl_pane *tl, struct view *a)
{
    if (tl->more_built)
        return;
    tl->more_built = true;
    const struct trace *t = a->t;
    bool *has = xcalloc(t->rows.n + 1, sizeof(bool));
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (t->ev.v[i].kind == EVK_CPU_OP)
            has[t->ev.v[i].row] = true;
    tl->more = xcalloc(t->rows.n + 1, sizeof(struct lane));
    for (uint32_t r = 0; r < t->rows.n; r++)
        if (has[r])
            lane_build(&tl->more[tl->nmore++], t, r, true);
    free(has);
    sort_items(tl->more, (size_t)tl->nmore, sizeof(struct lane), busier_first);
    while (tl->nmore > 64)
        lane_free(&tl->more[--tl->nmore]);
}

/* A lane of another thread: drawn like the CPU lane, never current. */
static void draw_more(struct pane *p, struct view *a, int y, struct lane *l)
{
    struct tl_pane *tl = tl_of(p);
    /* draw_lane draws lanes by index: the last one is swapped for l. */
    struct lane keep = tl->lanes[tl->nlanes - 1];
    int cur = tl->lane;
    tl->lanes[tl->nlanes - 1] = *l;
    tl->lane = -1;
    draw_lane(p, a, y, tl->nlanes - 1);
    tl->lanes[tl->nlanes - 1] = keep;
    tl->lane = cur;
}

/* The counter series (ctracks.h), then per device the memory allocated
 * after each [memory] event (memtrace.h), built once. */
static const struct ctracks *counters(struct tl_pane *tl, struct view *a)
{
    if (tl->ct)
        return tl->ct;
    tl->ct = ctracks_build(a->t);
    struct memtrace *m = memtrace_build(a->t);
    struct ctrack_point *pts = xmalloc((m->n + 1) * sizeof(*pts));
    for (size_t d = 0; d < m->ndevs; d++) {
        size_t n = 0;
        for (size_t k = 0; k < m->n; k++)
            if (m->e[k].dev == d)
                pts[n++] = (struct ctrack_point){m->e[k].ts, (double)m->e[k].allocated};
        char dev[48], label[64];
        snprintf(label, sizeof(label), "mem %s",
                 memtrace_device_name(&m->devs[d], dev, sizeof(dev)));
        ctracks_add_series(tl->ct, label, pts, n, true);
    }
    free(pts);
    memtrace_free(m);
    return tl->ct;
}

/* Counter series s as a lane: in each column the largest value in effect,
 * as a level of the series' largest value over the trace; blank where it
 * has no value. Never current: the cursor's values are in the detail. */
static void draw_counter(struct pane *p, struct view *a, int y, size_t s)
{
    struct tl_pane *tl = tl_of(p);
    const struct ctracks *c = counters(tl, a);
    int w = plot_w(p);
    char label[128];
    ctracks_label(a->t, c, s, label, sizeof(label));
    draw_fit(p->win, y, 0, LABEL_W - 1, label, strlen(label), true, false, color_attr(C_DIM),
             a->ascii);
    if (tl->occ_cols < w) {
        tl->occ = xreallocarray(tl->occ, (size_t)w * LC__COUNT, sizeof(float));
        tl->occ_cols = w;
    }
    ctracks_columns(c, s, tl->v0, tl->v1, w, tl->occ);
    double top = c->s[s].max;
    int cursor_col = (int)((tl->cursor - tl->v0) / col_ns(p));
    for (int col = 0; col < w; col++) {
        float v = tl->occ[col];
        int level = 0;
        if (!isnan(v) && v > 0 && top > 0)
            level = MAX(1, MIN(8, (int)(v / top * 8 + 0.5)));
        const char *glyph = a->g->levels[level];
        attr_t at = color_attr(level ? C_CPU : C_IDLE);
        if (col == cursor_col && a->focus == p->id) {
            at = color_attr(C_SELECT);
            if (level == 0)
                glyph = a->ascii ? "|" : a->g->vline;
        }
        draw_raw(p->win, y, LABEL_W + col, glyph, at);
    }
}

static void draw_axis(struct pane *p, struct view *a, int y)
{
    struct tl_pane *tl = tl_of(p);
    int w = plot_w(p);
    int64_t cns = col_ns(p);
    char buf[48];
    /* Past 10 s in seconds, so that the label keeps its LABEL_W - 1 columns. */
    double since = (double)(tl->cursor - a->t->t_start);
    if (since >= 1e10)
        snprintf(buf, sizeof(buf), "%+.4f s", since / 1e9);
    else
        snprintf(buf, sizeof(buf), "%+.3f ms", since / 1e6);
    draw_fit(p->win, y, 0, LABEL_W - 1, buf, strlen(buf), false, false, color_attr(C_DIM),
             a->ascii);
    int s0 = -1, s1 = -1;
    if (a->sel != IDX_NONE && a->sel < a->t->ev.n) {
        const struct event *e = trace_ev(a->t, a->sel);
        if (ev_end(e) >= tl->v0 && e->ts < tl->v1) {
            s0 = (int)((MAX(e->ts, tl->v0) - tl->v0) / cns);
            s1 = (int)((MIN(ev_end(e), tl->v1) - tl->v0) / cns);
            s1 = MIN(s1, w - 1);
        }
    }
    int cursor_col = (int)((tl->cursor - tl->v0) / cns);
    for (int col = 0; col < w; col++) {
        const char *g = col % 10 == 0 ? a->g->tick : a->g->axis;
        attr_t at = color_attr(C_GUIDE);
        if (col >= s0 && col <= s1 && s0 >= 0) {
            g = a->g->cursor;
            at = color_attr(C_CURSOR);
        }
        if (col == cursor_col && a->focus == p->id) {
            g = a->ascii ? "|" : a->g->vline;
            at = color_attr(C_SELECT_FOCUS);
        }
        draw_raw(p->win, y, LABEL_W + col, g, at);
    }
}

/* A time since the trace start in the unit text_duration() picks for it,
 * with the decimals that tell apart times about span / 100 apart (at
 * least text_duration's), so that both ends of a narrow view differ. */
static void view_time(char *buf, size_t n, int64_t ns, int64_t span, bool ascii)
{
    double unit = ns < 1000 ? 1 : ns < 1000000 ? 1e3 : ns < 1000000000 ? 1e6 : 1e9;
    if (unit == 1) {
        text_duration(buf, n, ns, ascii);
        return;
    }
    int dec = unit == 1e9 ? 3 : 2;
    double step = unit == 1e9 ? unit / 1000 : unit / 100;
    for (; step > (double)span / 100 && dec < 9; step /= 10)
        dec++;
    const char *name = unit == 1e3 ? (ascii ? "us" : "\xc2\xb5s") : unit == 1e6 ? "ms" : "s";
    snprintf(buf, n, "%.*f %s", dec, (double)ns / unit, name);
}

/* Lanes the pane could show: its own, then (as rows allow) the CPU lanes
 * of the other threads, at most 64 (build_more). Counting the threads
 * reads each thread's events up to its first cpu op, once. */
static int lanes_shown_max(struct tl_pane *tl, struct view *a)
{
    if (tl->more_built) {
        int extra = 0;
        for (int k = 0; k < tl->nmore; k++)
            extra += tl->more[k].row != cpu_lane(tl)->row;
        return tl->nlanes + extra;
    }
    if (tl->nthreads < 0)
        tl->nthreads = lanes_cpu_threads(a->t);
    return tl->nlanes + MAX(MIN(tl->nthreads, 64) - 1, 0);
}

static void timeline_draw(struct pane *p, struct view *a)
{
    struct tl_pane *tl = tl_of(p);
    werase(p->win);
    clamp_view(p, a);
    int rows = p->r.h - 2;
    int drawn = 0;
    if (rows >= 1) {
        if (tl->lane < tl->lane_top)
            tl->lane_top = tl->lane;
        if (tl->lane >= tl->lane_top + rows)
            tl->lane_top = tl->lane - rows + 1;
        for (; drawn < rows && tl->lane_top + drawn < tl->nlanes; drawn++)
            draw_lane(p, a, 1 + drawn, tl->lane_top + drawn);
        if (drawn < rows && tl->lane_top + drawn >= tl->nlanes) {
            const struct ctracks *c = counters(tl, a);
            for (size_t k = 0; k < c->ns && drawn < rows; k++)
                draw_counter(p, a, 1 + drawn++, k);
        }
        if (drawn < rows && tl->lane_top + drawn >= tl->nlanes) {
            build_more(tl, a);
            for (int k = 0; k < tl->nmore && drawn < rows; k++)
                if (tl->more[k].row != cpu_lane(tl)->row)
                    draw_more(p, a, 1 + drawn++, &tl->more[k]);
        }
        draw_axis(p, a, p->r.h - 1);
    }
    char d0[32], d1[32], dc[32];
    view_time(d0, sizeof(d0), tl->v0 - a->t->t_start, tl->v1 - tl->v0, a->ascii);
    view_time(d1, sizeof(d1), tl->v1 - a->t->t_start, tl->v1 - tl->v0, a->ascii);
    text_duration(dc, sizeof(dc), col_ns(p), a->ascii);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " Timeline  %s .. %s  (%s/col)%s", d0, d1, dc,
              a->crit_shown && a->cpv ? "  critical path" : "");
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, 0, p->r.w, sb_str(&sb), sb.len, false, false, tattr, a->ascii);
    /* Lanes left out (above the first shown, below the last), right
     * aligned; M (maximize) shows more of them. */
    int hidden = rows >= 1 ? lanes_shown_max(tl, a) + (int)counters(tl, a)->ns - drawn : 0;
    if (hidden > 0) {
        size_t title_w = text_width(sb_str(&sb), sb.len);
        sb_clear(&sb);
        sb_printf(&sb, "+%d lane%s%s ", hidden, hidden == 1 ? "" : "s",
                  !a->maximized ? " (M)" : "");
        int x = MAX(p->r.w - (int)sb.len, (int)title_w + 2);
        if (x + (int)sb.len <= p->r.w)
            draw_fit(p->win, 0, x, p->r.w - x, sb_str(&sb), sb.len, false, false, tattr, a->ascii);
    }
    sb_free(&sb);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static void zoom(struct pane *p, struct view *a, double factor)
{
    struct tl_pane *tl = tl_of(p);
    /* Times span up to 2^63 ns (the loader's range): the wider span and
     * its start are kept within the trace before they are int64 again. */
    int64_t lo = a->t->t_start, hi = MAX(a->t->t_end, a->t->t_start + 1);
    double want = (double)(tl->v1 - tl->v0) * factor;
    int64_t span = want >= (double)(hi - lo) ? hi - lo : MAX((int64_t)want, (int64_t)1);
    double at = tl->v1 > tl->v0 ? (double)(tl->cursor - tl->v0) / (double)(tl->v1 - tl->v0) : 0.5;
    __int128 v0 = (__int128)tl->cursor - (int64_t)(at * (double)span);
    tl->v0 = (int64_t)CLAMP(v0, (__int128)lo, (__int128)(hi - span));
    tl->v1 = tl->v0 + span;
    clamp_view(p, a);
}

static void fit_event(struct pane *p, struct view *a, uint32_t ev)
{
    struct tl_pane *tl = tl_of(p);
    const struct event *e = trace_ev(a->t, ev);
    int64_t span = MAX(e->dur + e->dur / 4, (int64_t)plot_w(p) * 10);
    tl->v0 = e->ts - (span - e->dur) / 2;
    tl->v1 = tl->v0 + span;
    tl->cursor = e->ts;
    clamp_view(p, a);
}

static unsigned move_cursor(struct pane *p, struct view *a, int64_t to)
{
    struct tl_pane *tl = tl_of(p);
    tl->cursor = to;
    show_time(p, a, to);
    update_under(p, a);
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static unsigned select_in_tree(struct pane *p, struct view *a, struct pane_request *req)
{
    struct tl_pane *tl = tl_of(p);
    if (tl->under == IDX_NONE) {
        view_error(a, "no event under the cursor");
        return R_HANDLED;
    }
    req->kind = REQ_SELECT;
    req->ev = tl->under;
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

/* m: the range's start at the cursor; again: its end, and every view for
 * the range (REQ_SCOPE). The end's column is in the range, so that a range
 * marked at one column is that column's time. */
static unsigned mark_range(struct pane *p, struct view *a, struct pane_request *req)
{
    struct tl_pane *tl = tl_of(p);
    if (!tl->marking) {
        tl->marking = true;
        tl->mark = tl->cursor;
        view_message(a, "range from %.3f ms: move to its end and press m again (Esc: unmark)",
                     (double)(tl->cursor - a->t->t_start) / 1e6);
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    tl->marking = false;
    int64_t cns = col_ns(p);
    req->kind = REQ_SCOPE;
    req->from = MIN(tl->mark, tl->cursor);
    req->to = MAX(tl->mark, tl->cursor) + cns;
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static unsigned timeline_action(struct pane *p, struct view *a, enum action act,
                                struct pane_request *req)
{
    struct tl_pane *tl = tl_of(p);
    int64_t cns = col_ns(p);
    int64_t span = tl->v1 - tl->v0;
    switch (act) {
    case A_MOVE_UP:
    case A_MOVE_DOWN:
        tl->lane = CLAMP(tl->lane + (act == A_MOVE_UP ? -1 : 1), 0, tl->nlanes - 1);
        update_under(p, a);
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_MOVE_FIRST:
        return move_cursor(p, a, a->t->t_start);
    case A_MOVE_LAST:
        return move_cursor(p, a, a->t->t_end - 1);
    case A_MOVE_LEFT:
        return move_cursor(p, a, tl->cursor - cns);
    case A_MOVE_RIGHT:
        return move_cursor(p, a, tl->cursor + cns);
    case A_PAGE_UP:
    case A_PAN_LEFT:
        tl->v0 -= span / 2;
        tl->v1 -= span / 2;
        clamp_view(p, a);
        return move_cursor(p, a, CLAMP(tl->cursor, tl->v0, tl->v1 - 1));
    case A_PAGE_DOWN:
    case A_PAN_RIGHT:
        tl->v0 += span / 2;
        tl->v1 += span / 2;
        clamp_view(p, a);
        return move_cursor(p, a, CLAMP(tl->cursor, tl->v0, tl->v1 - 1));
    case A_ZOOM_IN:
        zoom(p, a, 0.5);
        update_under(p, a);
        if (tl->v1 - tl->v0 == span)
            view_message(a, "zoomed in to 1 ns per column, the finest");
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_ZOOM_OUT:
        zoom(p, a, 2.0);
        update_under(p, a);
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_ZOOM_FIT:
        tl->v0 = a->t->t_start;
        tl->v1 = a->t->t_end;
        clamp_view(p, a);
        return R_HANDLED | R_DIRTY;
    case A_ZOOM_SELECTION:
        if (a->sel == IDX_NONE) {
            view_error(a, "nothing selected");
            return R_HANDLED;
        }
        fit_event(p, a, a->sel);
        return R_HANDLED | R_DIRTY;
    case A_EVENT_PREV:
    case A_EVENT_NEXT: {
        uint32_t ev =
            lane_event_step(&tl->lanes[tl->lane], a->t, tl->cursor, act == A_EVENT_NEXT ? 1 : -1);
        if (ev == IDX_NONE) {
            view_message(a, "no more events on this lane");
            return R_HANDLED;
        }
        unsigned r = move_cursor(p, a, trace_ev(a->t, ev)->ts);
        tl->under = ev;
        return r;
    }
    case A_SELECT_EVENT:
    case A_ACTIVATE:
        return select_in_tree(p, a, req);
    case A_MARK:
        return mark_range(p, a, req);
    case A_CANCEL:
        if (!tl->marking)
            return R_NONE;
        tl->marking = false;
        view_message(a, "range unmarked");
        return R_HANDLED | R_DIRTY | R_SYNC;
    default:
        return R_NONE;
    }
}

/* The time at the middle of screen column x (x >= LABEL_W). */
static int64_t col_time(struct pane *p, int x)
{
    int64_t cns = col_ns(p);
    return tl_of(p)->v0 + (int64_t)(x - LABEL_W) * cns + cns / 2;
}

static unsigned timeline_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                               struct pane_request *req)
{
    struct tl_pane *tl = tl_of(p);
    int li = tl->lane_top + y - 1;
    if (y >= 1 && y < p->r.h - 1 && li < tl->nlanes)
        tl->lane = li;
    if (x >= LABEL_W)
        tl->cursor = col_time(p, x);
    update_under(p, a);
    if (tl->under != IDX_NONE)
        return select_in_tree(p, a, req);
    return R_HANDLED | R_DIRTY | R_SYNC;
}

/* A drag along the time axis marks the range between the two columns, as
 * m at each end does, and scopes every view to it. */
static unsigned timeline_drag(struct pane *p, struct view *a, int y0, int x0, int y1, int x1,
                              struct pane_request *req)
{
    (void)y0;
    (void)y1;
    struct tl_pane *tl = tl_of(p);
    if (x0 < LABEL_W && x1 < LABEL_W)
        return R_NONE;
    tl->marking = true;
    tl->mark = col_time(p, MAX(x0, LABEL_W));
    tl->cursor = col_time(p, MAX(x1, LABEL_W));
    update_under(p, a);
    return mark_range(p, a, req);
}

static uint32_t timeline_current(struct pane *p, struct view *a)
{
    return tl_of(p)->under;
}

static void timeline_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    struct tl_pane *tl = tl_of(p);
    char label[64];
    lane_label(a, &tl->lanes[tl->lane], label, sizeof(label));
    detail_kvf(d, "lane", "%s", label);
    detail_kvf(d, "cursor", "%.3f ms", (double)(tl->cursor - a->t->t_start) / 1e6);
    if (tl->marking)
        detail_kvf(d, "range from", "%.3f ms (m at its end scopes every view to it)",
                   (double)(tl->mark - a->t->t_start) / 1e6);
    /* The counter series' values at the cursor (their lanes are below). */
    const struct ctracks *c = counters(tl, a);
    if (c->ns)
        detail_heading(d, "At the cursor");
    for (size_t k = 0; k < c->ns; k++) {
        char series[128];
        ctracks_label(a->t, c, k, series, sizeof(series));
        uint32_t at = ctracks_at(c, k, tl->cursor);
        char value[48];
        if (at != IDX_NONE && c->s[k].bytes && c->pts[at].v >= 0)
            text_bytes(value, sizeof(value), (uint64_t)c->pts[at].v);
        else if (at != IDX_NONE)
            snprintf(value, sizeof(value), "%.6g", c->pts[at].v);
        detail_kvf(d, series, "%s", at == IDX_NONE ? "(no sample yet)" : value);
    }
    if (c->ns)
        detail_heading(d, "Event");
    if (tl->under == IDX_NONE) {
        detail_textf(d, C_DIM, "(no event under the cursor)");
        return;
    }
    event_detail(d, a, tl->under);
}

static void timeline_follow(struct pane *p, struct view *a, uint32_t ev)
{
    struct tl_pane *tl = tl_of(p);
    if (ev == IDX_NONE || ev >= a->t->ev.n)
        return;
    const struct event *e = trace_ev(a->t, ev);
    if (evk_is_gpu(e->kind)) {
        for (int i = 0; i + 1 < tl->nlanes; i++)
            if (tl->lanes[i].row == e->row)
                tl->lane = i;
    } else if (evk_is_host_span(e->kind)) {
        set_cpu_row(tl, a, e->row);
        tl->lane = tl->nlanes - 1;
    }
    tl->cursor = e->ts;
    show_time(p, a, e->ts);
    tl->under = ev;
    p->dirty = true;
}

static unsigned timeline_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    /* Names live in the tree: search there; the cursor follows. */
    req->kind = REQ_SEARCH_TREE;
    req->dir = dir;
    return R_HANDLED | R_DIRTY;
}

static void timeline_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct tl_pane *tl = tl_of(p);
    snprintf(buf, n, "lane %d/%d", tl->lane + 1, tl->nlanes);
}

static void timeline_free_priv(struct pane *p)
{
    struct tl_pane *tl = tl_of(p);
    for (int i = 0; i < tl->nmore; i++)
        lane_free(&tl->more[i]);
    free(tl->more);
    for (int i = 0; i < tl->nlanes; i++)
        lane_free(&tl->lanes[i]);
    free(tl->lanes);
    free(tl->occ);
    free(tl->crit);
    ctracks_free(tl->ct);
    VEC_FREE(&tl->bars);
    free(tl);
}

const struct pane_ops timeline_pane_ops = {
    .name = "timeline",
    .draw = timeline_draw,
    .on_action = timeline_action,
    .on_click = timeline_click,
    .on_drag = timeline_drag,
    .current_event = timeline_current,
    .describe = timeline_describe,
    .search = timeline_search,
    .follow = timeline_follow,
    .position = timeline_position,
    .free = timeline_free_priv,
};

struct pane *timeline_pane_new(struct view *a)
{
    const struct trace *t = a->t;
    struct tl_pane *tl = xcalloc(1, sizeof(*tl));
    /* Lanes built while loading (tui.c, beside the analysis) are taken
     * over; else built here. */
    if (a->lanes) {
        tl->lanes = a->lanes;
        tl->nlanes = a->nlanes;
        a->lanes = NULL;
        a->nlanes = 0;
    } else {
        tl->lanes = lanes_build_all(t, &tl->nlanes);
    }
    tl->v0 = t->t_start;
    tl->v1 = MAX(t->t_end, t->t_start + 1);
    if (t->scope_text && t->gpu_end > t->gpu_start) {
        /* A scope keeps the spans around it whole (the profiler's own
         * span is the whole trace): it opens on its GPU work, 0 shows
         * everything. */
        int64_t pad = (t->gpu_end - t->gpu_start) / 50;
        tl->v0 = MAX(t->t_start, t->gpu_start - pad);
        tl->v1 = MIN(tl->v1, t->gpu_end + pad);
    }
    tl->cursor = tl->v0;
    tl->under = IDX_NONE;
    tl->nthreads = -1;
    return pane_new(&timeline_pane_ops, PANE_TIMELINE, tl);
}

bool timeline_pane_window(struct pane *p, int64_t *from, int64_t *to)
{
    if (!pane_is(p, &timeline_pane_ops))
        return false;
    struct tl_pane *tl = tl_of(p);
    *from = tl->v0;
    *to = tl->v1;
    return true;
}

int timeline_pane_lanes(struct pane *p)
{
    return pane_is(p, &timeline_pane_ops) ? tl_of(p)->nlanes : 0;
}

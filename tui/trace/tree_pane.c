/* The call tree pane: draws the visible slice of tui/trace/calltree.c's rows
 * with guides, CPU time, induced GPU time and share of the parent. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis/analysis.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/trace/calltree.h"
#include "tui/trace/critpath_view.h"
#include "tui/frame/detail.h"
#include "tui/trace/event_detail.h"
#include "tui/frame/draw.h"
#include "tui/frame/textview.h"
#include "tui/trace/knames.h"
#include "tui/trace/tree_pane.h"

#define NUM_W 9
#define PCT_W 6
#define RIGHT_W (NUM_W + 1 + NUM_W + 1 + PCT_W)

/* The numbers' columns: with the critical path shown (C), its time
 * first. */
static bool crit_col(const struct view *a)
{
    return a->crit_shown && a->cpv;
}
static int right_w(const struct view *a)
{
    return RIGHT_W + (crit_col(a) ? NUM_W + 1 : 0);
}
/* Rows made per step while the user looks (a few ms at most). */
#define TICK_MS 4.0
#define TICK_ROWS 1024

struct tree_pane {
    struct calltree *ct;
    struct listview lv;
    uint32_t *inst; /* instance filter (owned), NULL = none */
    size_t ninst;
    char *inst_label; /* what the instances are (owned) */
    size_t nmatch;    /* matches of the active filter */
    bool announce;    /* say how many rows there are once all are made */
    uint32_t base;    /* tree levels scrolled off to the left */
    uint32_t room;    /* levels below base drawn as guides; deeper: "·DEPTH·" */
    struct strbuf line, name;
};

static struct tree_pane *tr_of(struct pane *p)
{
    return pane_priv(p, &tree_pane_ops);
}

/* Make the rows up to `row` and two pages beyond (so that the list can
 * scroll there), then take the count. */
static void rows_upto(struct tree_pane *tr, size_t row)
{
    size_t h = tr->lv.height > 0 ? (size_t)tr->lv.height : 1;
    calltree_ensure(tr->ct, row + 2 * h + 1);
    tr->lv.n = calltree_nrows(tr->ct);
}

/* Make the rows the pane shows (and a page beyond), then take the count. */
static void sync_rows(struct tree_pane *tr)
{
    rows_upto(tr, MAX(tr->lv.top, tr->lv.cur));
    listview_clamp(&tr->lv);
}

static uint32_t cur_node(struct tree_pane *tr)
{
    return tr->lv.cur < calltree_nrows(tr->ct) ? calltree_row_node(tr->ct, tr->lv.cur) : IDX_NONE;
}

/* Put the cursor back on event ev (or the row it was on) after a rebuild. */
static void restore(struct tree_pane *tr, uint32_t ev, size_t old_row)
{
    sync_rows(tr);
    size_t row = ev != IDX_NONE ? calltree_reveal(tr->ct, ev) : CT_NOT_FOUND;
    if (row == CT_NOT_FOUND)
        row = old_row;
    rows_upto(tr, row);
    listview_set(&tr->lv, MIN(row, tr->lv.n ? tr->lv.n - 1 : 0));
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static enum color_elem node_elem(const struct calltree *ct, uint32_t n)
{
    const struct tnode *node = calltree_node(ct, n);
    if (node->kind == TN_THREAD || node->kind == TN_UNLINKED)
        return C_THREAD;
    if (node->kind == TN_GROUP)
        return C_GROUP;
    switch (trace_ev(ct->t, node->ref)->kind) {
    case EVK_PYTHON:
        return C_PYTHON;
    case EVK_RUNTIME:
    case EVK_DRIVER:
        return C_RUNTIME;
    case EVK_KERNEL:
    case EVK_MEMCPY:
    case EVK_MEMSET:
        return C_KERNEL;
    default:
        return C_OP;
    }
}

/* Guides of node n: "│ " or "  " per ancestor level, then "├─" or "└─".
 * Levels up to tr->base are scrolled off to the left (deep Python stacks
 * would leave no room for names); rows that deep start with a marker.
 * Rows more than tr->room levels below base (deeper than the cursor's
 * row) show their depth ("·57·") and their last few levels' guides, so
 * that their names keep the column's room at any depth. */
static void put_guides(struct pane *p, struct view *a, uint32_t n)
{
    struct tree_pane *tr = tr_of(p);
    const struct calltree *ct = tr->ct;
    uint32_t depth = calltree_node(ct, n)->depth;
    if (tr->base && depth <= tr->base) {
        sb_puts(&tr->line, a->ascii ? "<" : "\xc2\xab");
        return;
    }
    if (!depth)
        return;
    uint32_t levels = depth - tr->base;
    char deep[32];
    uint32_t keep =
        (uint32_t)textview_deep_indent(levels, depth, tr->room, 2, a->ascii, deep, sizeof(deep));
    /* The node's own "├─" always shows. */
    levels = MAX(keep, 1);
    uint8_t last[256];
    if (levels > sizeof(last))
        levels = sizeof(last);
    uint32_t d = levels;
    for (uint32_t x = n; d > 0 && x != IDX_NONE; x = calltree_node(ct, x)->parent, d--)
        last[d - 1] = (calltree_node(ct, x)->flags & TNF_LAST) != 0;
    if (tr->base)
        sb_puts(&tr->line, a->ascii ? "<" : "\xc2\xab");
    sb_puts(&tr->line, deep);
    for (uint32_t lv = 1; lv < levels; lv++)
        sb_puts(&tr->line, last[lv - 1] ? "  " : a->g->tree_vert);
    sb_puts(&tr->line, last[levels - 1] ? a->g->tree_end : a->g->tree_tee);
}

static void draw_row(struct pane *p, struct view *a, int y, size_t row)
{
    struct tree_pane *tr = tr_of(p);
    struct calltree *ct = tr->ct;
    uint32_t n = calltree_row_node(ct, row);
    const struct tnode *node = calltree_node(ct, n);
    bool cur = row == tr->lv.cur;
    attr_t sel = cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : 0;
    int name_w = p->r.w - right_w(a) - 1;
    if (name_w < 8)
        name_w = p->r.w;

    sb_clear(&tr->line);
    put_guides(p, a, n);
    int guide_w = (int)text_width(sb_str(&tr->line), tr->line.len);
    const char *exp = calltree_has_children(ct, n)
                          ? (calltree_is_open(ct, n) ? a->g->expanded : a->g->collapsed)
                          : a->g->leaf;
    sb_puts(&tr->line, exp);
    sb_putc(&tr->line, ' ');
    int x = 0;
    if (cur)
        draw_blank(p->win, y, 0, p->r.w, sel);
    draw_raw(p->win, y, 0, sb_str(&tr->line), sel ? sel : color_attr(C_GUIDE));
    x = guide_w + (int)text_width(exp, strlen(exp)) + 1;

    sb_clear(&tr->name);
    uint32_t ev = calltree_event(ct, n);
    if (ev != IDX_NONE && a->kn && knames_is_kernel(a->kn, ev)) {
        size_t len;
        const char *nm = knames_row_name(a->kn, ev, &len);
        sb_putn(&tr->name, nm, len);
    } else {
        calltree_name(ct, n, &tr->name);
    }
    bool match = (node->flags & TNF_MATCH) ||
                 (pattern_active(&a->search) && pattern_match(&a->search, sb_str(&tr->name)));
    attr_t at = sel ? sel : color_attr(match ? C_MATCH : node_elem(ct, n));
    char suffix[48] = "";
    if (node->kind == TN_GROUP)
        snprintf(suffix, sizeof(suffix), " %s%u", a->g->times, node->count);
    /* The top of a captured subtree under its graph launch says so. */
    if (ev != IDX_NONE && (trace_ev(ct->t, ev)->flags & EVF_CAPTURED) &&
        trace_ev(ct->t, ev)->parent == IDX_NONE)
        snprintf(suffix + strlen(suffix), sizeof(suffix) - strlen(suffix), " (from the capture)");
    /* An op activation checkpointing runs again in the backward pass. */
    if (ev != IDX_NONE && a->recompute && a->recompute[ev] &&
        trace_ev(ct->t, ev)->kind == EVK_CPU_OP)
        snprintf(suffix + strlen(suffix), sizeof(suffix) - strlen(suffix), " [recompute]");
    int suf_w = (int)text_width(suffix, strlen(suffix));
    int room = name_w - x - suf_w;
    if (room > 0) {
        int w = draw_fit(p->win, y, x, room, sb_str(&tr->name), tr->name.len, true, false, at,
                         a->ascii);
        if (suf_w)
            draw_raw(p->win, y, x + w, suffix, sel ? sel : color_attr(C_GROUP));
    }
    if (name_w == p->r.w)
        return;

    char cpu[32], gpu[32], pct[32];
    text_duration(cpu, sizeof(cpu), calltree_cpu(ct, n), a->ascii);
    int64_t g = calltree_gpu(ct, n), pg = calltree_parent_gpu(ct, n);
    if (g == 0)
        snprintf(gpu, sizeof(gpu), "0");
    else
        text_duration(gpu, sizeof(gpu), g, a->ascii);
    if (g == 0)
        pct[0] = '\0';
    else if (pg > 0)
        text_percent(pct, sizeof(pct), 100.0 * (double)g / (double)pg);
    else
        snprintf(pct, sizeof(pct), "-");
    int rx = p->r.w - right_w(a);
    attr_t num = sel ? sel : color_attr(C_NUMBER);
    if (crit_col(a)) {
        char crit[32] = "";
        int64_t us = ev != IDX_NONE ? critpath_view_subtree_us(a->cpv, ev) : 0;
        if (us)
            text_duration(crit, sizeof(crit), us * 1000, a->ascii);
        draw_fit(p->win, y, rx, NUM_W, crit, strlen(crit), false, true, num, a->ascii);
        rx += NUM_W + 1;
    }
    draw_fit(p->win, y, rx, NUM_W, cpu, strlen(cpu), false, true, num, a->ascii);
    draw_fit(p->win, y, rx + NUM_W + 1, NUM_W, gpu, strlen(gpu), false, true, num, a->ascii);
    draw_fit(p->win, y, rx + 2 * NUM_W + 2, PCT_W, pct, strlen(pct), false, true, num, a->ascii);
}

static void tree_draw(struct pane *p, struct view *a)
{
    struct tree_pane *tr = tr_of(p);
    werase(p->win);
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, " Call tree");
    if (tr->inst)
        sb_printf(&sb, "  instances of %s (%zu)", tr->inst_label ? tr->inst_label : "?",
                  tr->nmatch);
    else if (pattern_active(&a->filter))
        sb_printf(&sb, "  filter \"%s\" (%zu)", a->filter.text, tr->nmatch);
    if (tr->ct->hide_python)
        sb_puts(&sb, "  [python hidden]");
    if (tr->ct->group)
        sb_puts(&sb, "  [grouped]");
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, 0, p->r.w, sb_str(&sb), sb.len, false, false, tattr, a->ascii);
    sb_free(&sb);

    draw_blank(p->win, 1, 0, p->r.w, color_attr(C_COLHEAD));
    draw_str(p->win, 1, 0, p->r.w, "name", color_attr(C_COLHEAD), a->ascii);
    if (p->r.w - right_w(a) - 1 >= 8) {
        int rx = p->r.w - right_w(a);
        if (crit_col(a)) {
            draw_fit(p->win, 1, rx, NUM_W, "crit", 4, false, true, color_attr(C_COLHEAD), a->ascii);
            rx += NUM_W + 1;
        }
        draw_fit(p->win, 1, rx, NUM_W, "CPU", 3, false, true, color_attr(C_COLHEAD), a->ascii);
        draw_fit(p->win, 1, rx + NUM_W + 1, NUM_W, "GPU", 3, false, true, color_attr(C_COLHEAD),
                 a->ascii);
        draw_fit(p->win, 1, rx + 2 * NUM_W + 2, PCT_W, "%par", 4, false, true,
                 color_attr(C_COLHEAD), a->ascii);
    }
    tr->lv.height = p->r.h - 2;
    sync_rows(tr);
    if (!tr->lv.n) {
        draw_str(p->win, 2, 1, p->r.w - 2, "(nothing matches)", color_attr(C_DIM), a->ascii);
        return;
    }
    /* Scroll the guides so that the cursor row keeps a third of the name
     * column for its guides at most. */
    int levels_fit = MAX(2, (p->r.w - right_w(a) - 1) / 3 / 2);
    uint32_t cdepth = calltree_node(tr->ct, cur_node(tr))->depth;
    tr->base = cdepth > (uint32_t)levels_fit ? cdepth - (uint32_t)levels_fit : 0;
    tr->room = (uint32_t)levels_fit;
    for (int y = 0; y < tr->lv.height; y++) {
        size_t row = tr->lv.top + (size_t)y;
        if (row >= tr->lv.n)
            break;
        draw_row(p, a, 2 + y, row);
    }
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static unsigned set_options(struct pane *p, struct view *a, bool hide, bool group)
{
    struct tree_pane *tr = tr_of(p);
    uint32_t n = cur_node(tr);
    uint32_t ev = n != IDX_NONE ? calltree_event(tr->ct, n) : IDX_NONE;
    calltree_set_options(tr->ct, hide, group);
    restore(tr, ev, tr->lv.cur);
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static unsigned tree_action(struct pane *p, struct view *a, enum action act,
                            struct pane_request *req)
{
    struct tree_pane *tr = tr_of(p);
    struct calltree *ct = tr->ct;
    if (act == A_MOVE_LAST)
        calltree_finish(ct);
    sync_rows(tr);
    if (listview_action(&tr->lv, act)) {
        sync_rows(tr);
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    size_t row = tr->lv.cur;
    uint32_t n = cur_node(tr);
    switch (act) {
    case A_ACTIVATE:
    case A_TOGGLE:
        if (n != IDX_NONE && !calltree_toggle(ct, row) && act == A_ACTIVATE)
            view_message(a, "no children");
        sync_rows(tr);
        return R_HANDLED | R_DIRTY;
    case A_MOVE_RIGHT:
        if (n == IDX_NONE)
            return R_HANDLED;
        if (!calltree_is_open(ct, n))
            calltree_expand(ct, row);
        else
            listview_move(&tr->lv, 1);
        sync_rows(tr);
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_MOVE_LEFT:
        if (n == IDX_NONE)
            return R_HANDLED;
        if (calltree_is_open(ct, n)) {
            calltree_collapse(ct, row);
            sync_rows(tr);
            return R_HANDLED | R_DIRTY;
        }
        if (calltree_node(ct, n)->parent == IDX_NONE) {
            req->kind = REQ_BACK;
            return R_HANDLED;
        }
        listview_set(&tr->lv, calltree_parent_row(ct, row));
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_PARENT:
        listview_set(&tr->lv, calltree_parent_row(ct, row));
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_EXPAND_ALL:
        calltree_expand_all(ct, row);
        sync_rows(tr);
        tr->announce = calltree_pending(ct);
        if (tr->announce)
            view_message(a, "opening everything below...");
        else
            view_message(a, "%zu row%s", tr->lv.n, tr->lv.n == 1 ? "" : "s");
        return R_HANDLED | R_DIRTY;
    case A_COLLAPSE_ALL:
        row = calltree_collapse_all(ct, row);
        sync_rows(tr);
        listview_set(&tr->lv, row);
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_HOT_PATH: {
        size_t to = calltree_hot_path(ct, row);
        sync_rows(tr);
        if (to != CT_NOT_FOUND) {
            rows_upto(tr, to);
            listview_set(&tr->lv, to);
        }
        /* The cursor mid-pane: the path above it, its siblings below. */
        size_t depth = calltree_node(ct, cur_node(tr))->depth;
        size_t above = MIN(depth, (size_t)MAX(0, tr->lv.height / 2));
        tr->lv.top = tr->lv.cur >= above ? tr->lv.cur - above : 0;
        sync_rows(tr);
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    case A_HIDE_PYTHON:
        view_message(a, ct->hide_python ? "showing Python frames" : "hiding Python frames");
        return set_options(p, a, !ct->hide_python, ct->group);
    case A_GROUP:
        view_message(a, ct->group ? "siblings not grouped" : "identical siblings grouped");
        return set_options(p, a, ct->hide_python, !ct->group);
    default:
        return R_NONE;
    }
}

static unsigned tree_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                           struct pane_request *req)
{
    struct tree_pane *tr = tr_of(p);
    if (y < 2)
        return R_HANDLED;
    size_t row = tr->lv.top + (size_t)(y - 2);
    if (row >= tr->lv.n)
        return R_HANDLED;
    listview_set(&tr->lv, row);
    if (dbl) {
        calltree_toggle(tr->ct, row);
        sync_rows(tr);
    }
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static uint32_t tree_current(struct pane *p, struct view *a)
{
    struct tree_pane *tr = tr_of(p);
    uint32_t n = cur_node(tr);
    return n != IDX_NONE ? calltree_event(tr->ct, n) : IDX_NONE;
}

static void describe_root(struct view *a, struct calltree *ct, uint32_t n, struct detail_out *d)
{
    const struct tnode *node = calltree_node(ct, n);
    const struct trace *t = a->t;
    const struct row *row = &t->rows.v[node->ref];
    struct strbuf sb = STRBUF_INIT;
    calltree_name(ct, n, &sb);
    detail_wrap(d, NULL, sb_str(&sb), sb.len, C_THREAD);
    sb_free(&sb);
    detail_kvf(d, "pid / tid", "%s / %s", trace_str(t, row->pid_str), trace_str(t, row->tid_str));
    if (node->kind == TN_UNLINKED) {
        /* The node holds the row's unlinked GPU work only: count that,
         * with the row's events beside it. */
        detail_kvf(d, "unlinked", "%u of the row's %u events", calltree_unlinked_events(ct, n),
                   row->nevents);
    } else {
        detail_kvf(d, "events", "%u", row->nevents);
    }
    char buf[32];
    if (node->kind == TN_THREAD) {
        uint32_t spans = calltree_thread_spans(ct, n);
        detail_kvf(d, "top-level", "%u span%s", spans, spans == 1 ? "" : "s");
        text_duration(buf, sizeof(buf), calltree_cpu(ct, n), a->ascii);
        detail_kv(d, "CPU busy", buf, strlen(buf));
    }
    text_duration(buf, sizeof(buf), calltree_gpu(ct, n), a->ascii);
    detail_kv(d, "GPU induced", buf, strlen(buf));
}

static void tree_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    struct tree_pane *tr = tr_of(p);
    uint32_t n = cur_node(tr);
    if (n == IDX_NONE)
        return;
    const struct tnode *node = calltree_node(tr->ct, n);
    if (node->kind == TN_THREAD || node->kind == TN_UNLINKED) {
        describe_root(a, tr->ct, n, d);
        return;
    }
    if (node->kind == TN_GROUP) {
        char cpu[32], gpu[32];
        text_duration(cpu, sizeof(cpu), calltree_cpu(tr->ct, n), a->ascii);
        text_duration(gpu, sizeof(gpu), calltree_gpu(tr->ct, n), a->ascii);
        detail_heading(d, "Group of identical siblings");
        size_t nl = strtab_len(&a->t->strs, trace_ev(a->t, node->ref)->name);
        const char *nm = ev_name(a->t, node->ref);
        if (a->kn && knames_is_kernel(a->kn, node->ref))
            nm = knames_demangled(a->kn, trace_ev(a->t, node->ref)->name, &nl);
        detail_wrap(d, NULL, nm, nl, C_GROUP);
        detail_kvf(d, "count", "%u", node->count);
        detail_kv(d, "CPU total", cpu, strlen(cpu));
        detail_kv(d, "GPU induced", gpu, strlen(gpu));
        detail_heading(d, "First instance");
    }
    event_detail(d, a, node->ref);
}

static unsigned tree_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    struct tree_pane *tr = tr_of(p);
    bool wrapped = false;
    size_t row = calltree_find(tr->ct, tr->lv.cur, dir, &a->search, &wrapped);
    sync_rows(tr);
    if (row == CT_NOT_FOUND) {
        view_error(a, "/%s: not found in the call tree", a->search.text);
        return R_HANDLED | R_DIRTY;
    }
    rows_upto(tr, row);
    listview_jump(&tr->lv, row);
    size_t rank, total;
    if (calltree_match_rank(tr->ct, row, &a->search, &rank, &total))
        view_message(a, "/%s: match %zu of %zu%s", a->search.text, rank, total,
                     wrapped ? " (wrapped)" : "");
    else
        view_message(a, "/%s: found%s", a->search.text, wrapped ? " (wrapped)" : "");
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static void tree_rebuild(struct pane *p, struct view *a)
{
    struct tree_pane *tr = tr_of(p);
    uint32_t n = cur_node(tr);
    uint32_t ev = n != IDX_NONE ? calltree_event(tr->ct, n) : IDX_NONE;
    if (tr->inst) {
        tr->nmatch = calltree_set_filter(tr->ct, tr->inst, tr->ninst);
    } else if (pattern_active(&a->filter)) {
        tr->nmatch = calltree_set_filter_pattern(tr->ct, &a->filter);
    } else {
        tr->nmatch = 0;
        calltree_set_filter(tr->ct, NULL, 0);
    }
    restore(tr, ev, 0);
    p->dirty = true;
}

static void tree_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct tree_pane *tr = tr_of(p);
    /* "+": more rows are still being made. */
    snprintf(buf, n, "%zu/%zu%s", tr->lv.n ? tr->lv.cur + 1 : 0, tr->lv.n,
             calltree_pending(tr->ct) ? "+" : "");
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Make more rows: a few milliseconds' worth, or (wait) all of them. */
static unsigned tree_tick(struct pane *p, struct view *a, bool wait)
{
    struct tree_pane *tr = tr_of(p);
    struct calltree *ct = tr->ct;
    if (!calltree_pending(ct))
        return R_NONE;
    size_t before = calltree_nrows(ct);
    if (wait) {
        calltree_finish(ct);
    } else {
        double t0 = now_ms();
        while (calltree_generate(ct, TICK_ROWS) == TICK_ROWS && now_ms() - t0 < TICK_MS)
            ;
    }
    tr->lv.n = calltree_nrows(ct);
    if (before < tr->lv.top + (size_t)MAX(tr->lv.height, 1))
        p->dirty = true;
    if (tr->announce && !calltree_pending(ct)) {
        tr->announce = false;
        view_message(a, "%zu row%s", tr->lv.n, tr->lv.n == 1 ? "" : "s");
    }
    return R_HANDLED;
}

static bool tree_busy(struct pane *p)
{
    return calltree_pending(tr_of(p)->ct);
}

static void tree_free_priv(struct pane *p)
{
    struct tree_pane *tr = tr_of(p);
    calltree_free(tr->ct);
    free(tr->inst);
    free(tr->inst_label);
    sb_free(&tr->line);
    sb_free(&tr->name);
    free(tr);
}

const struct pane_ops tree_pane_ops = {
    .name = "tree",
    .draw = tree_draw,
    .on_action = tree_action,
    .on_click = tree_click,
    .current_event = tree_current,
    .describe = tree_describe,
    .search = tree_search,
    .rebuild = tree_rebuild,
    .position = tree_position,
    .free = tree_free_priv,
    .tick = tree_tick,
    .busy = tree_busy,
};

struct pane *tree_pane_new(struct view *a)
{
    struct tree_pane *tr = xcalloc(1, sizeof(*tr));
    tr->ct = calltree_new(a->t, a->an->gt);
    sync_rows(tr);
    return pane_new(&tree_pane_ops, PANE_TREE, tr);
}

bool tree_pane_select(struct pane *p, struct view *a, uint32_t ev)
{
    if (!pane_is(p, &tree_pane_ops))
        return false;
    struct tree_pane *tr = tr_of(p);
    size_t row = calltree_reveal(tr->ct, ev);
    sync_rows(tr);
    p->dirty = true;
    if (row == CT_NOT_FOUND)
        return false;
    rows_upto(tr, row);
    listview_jump(&tr->lv, row);
    return true;
}

void tree_pane_set_instances(struct pane *p, struct view *a, const uint32_t *ev, size_t n,
                             const char *label)
{
    if (!pane_is(p, &tree_pane_ops))
        return;
    struct tree_pane *tr = tr_of(p);
    free(tr->inst);
    free(tr->inst_label);
    tr->inst = NULL;
    tr->inst_label = NULL;
    tr->ninst = 0;
    if (ev) {
        tr->inst = xmalloc((n + 1) * sizeof(uint32_t));
        memcpy(tr->inst, ev, n * sizeof(uint32_t));
        tr->ninst = n;
        tr->inst_label = xstrdup(label ? label : "");
    }
    tree_rebuild(p, a);
}

const uint32_t *tree_pane_instances(struct pane *p, size_t *n, const char **label)
{
    if (!pane_is(p, &tree_pane_ops)) {
        *n = 0;
        *label = NULL;
        return NULL;
    }
    struct tree_pane *tr = tr_of(p);
    *n = tr->ninst;
    *label = tr->inst_label;
    return tr->inst;
}

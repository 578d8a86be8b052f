/* The explorer's documents (tui/trace/explore.h): a trace or a memory
 * snapshot as the app's panes, the drill-in history of the call tree, the
 * traceback view in the detail pane, and the requests and actions that
 * reach the concrete panes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/recompute.h"
#include "core/report/report.h"
#include "core/trace/tracecache.h"
#include "tui/frame/app.h"
#include "tui/frame/detail.h"
#include "tui/frame/detail_pane.h"
#include "tui/frame/help.h"
#include "tui/frame/table_pane.h"
#include "tui/snapshot/snap_chart_pane.h"
#include "tui/snapshot/snap_memory_pane.h"
#include "tui/snapshot/snapview.h"
#include "tui/trace/bgviews.h"
#include "tui/trace/crit_tables.h"
#include "tui/trace/critpath_view.h"
#include "tui/trace/event_detail.h"
#include "tui/trace/explore.h"
#include "tui/trace/export_ui.h"
#include "tui/trace/findings_ui.h"
#include "tui/trace/knames.h"
#include "tui/trace/roofline_view.h"
#include "tui/trace/scope_ui.h"
#include "tui/trace/timeline_pane.h"
#include "tui/trace/traceback_pane.h"
#include "tui/trace/tree_pane.h"

/* ------------------------------------------------------------------------ */
/* The traceback view                                                       */
/* ------------------------------------------------------------------------ */

/* What the traceback view shows for the selection of pane src. */
static void tb_subject_of(struct app *a, struct pane *src, struct tb_subject *s)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->source, sizeof(s->source), "%s", src->ops->name);
    s->ev = IDX_NONE;
    if (a->v.snap)
        s->picked = src->ops->pick && src->ops->pick(src, &a->v, &s->pick);
    else
        s->ev = pane_current_event(src, &a->v);
}

static bool traceback_shown(struct app *a)
{
    return a->tb && detail_pane_inset(a->panes[PANE_DETAIL]) == a->tb;
}

/* The traceback of the selection in the detail pane, focused; when it is
 * shown and focused, the details again. Reactions. */
static unsigned toggle_traceback(struct app *a)
{
    struct pane *d = a->panes[PANE_DETAIL];
    bool shown = traceback_shown(a);
    if (shown && a->v.focus == PANE_DETAIL) {
        detail_pane_set_inset(d, NULL);
        app_message(a, "details of the selection; t shows its traceback");
        return R_HANDLED | R_DIRTY;
    }
    if (!a->tb)
        a->tb = traceback_pane_new(&a->v);
    if (!shown) {
        struct tb_subject s;
        detail_pane_set_inset(d, a->tb);
        tb_subject_of(a, a->panes[a->source], &s);
        traceback_pane_load(a->tb, &a->v, &s);
    }
    app_focus(a, PANE_DETAIL);
    d->dirty = true;
    app_message(a, "Enter shows a frame's source; t the details");
    return R_HANDLED | R_DIRTY;
}

static void selected(struct app *a, struct pane *src)
{
    /* Another table view may show: it gets the crit column then. */
    crit_tables_sync(a);
    if (traceback_shown(a)) {
        struct tb_subject s;
        tb_subject_of(a, src, &s);
        traceback_pane_load(a->tb, &a->v, &s);
    }
}

/* ------------------------------------------------------------------------ */
/* Drill-in history                                                         */
/* ------------------------------------------------------------------------ */

static void all_dirty(struct app *a)
{
    for (int i = 0; i < PANE__COUNT; i++)
        a->panes[i]->dirty = true;
    a->v.dirty_chrome = true;
}

/* Remember the focus, the selection and the tree's instance filter for
 * `back`. */
static struct hist *hist_push(struct app *a)
{
    struct pane *tree = a->panes[PANE_TREE];
    struct hist *h = VEC_ADD(&a->hist);
    size_t pn;
    const char *plabel;
    const uint32_t *prev = tree_pane_instances(tree, &pn, &plabel);
    h->focus = a->v.focus;
    h->source = a->source;
    h->sel = a->v.sel;
    if (prev) {
        h->inst = xmalloc((pn + 1) * sizeof(uint32_t));
        memcpy(h->inst, prev, pn * sizeof(uint32_t));
        h->ninst = pn;
        h->label = xstrdup(plabel ? plabel : "");
    }
    return h;
}

/* Show only the paths of ev[0..n) in the call tree, focused, as a step
 * `back` undoes. */
static void drill(struct app *a, const uint32_t *ev, size_t n, const char *label)
{
    struct pane *tree = a->panes[PANE_TREE];
    hist_push(a);
    tree_pane_set_instances(tree, &a->v, ev, n, label);
    a->v.focus = PANE_TREE;
    bool shown = false;
    for (size_t i = 0; i < n && !shown; i++)
        shown = tree_pane_select(tree, &a->v, ev[i]);
    all_dirty(a);
    app_selection_changed(a, tree);
    app_message(a, "%zu instance%s of %s; Backspace goes back", n, n == 1 ? "" : "s", label);
}

/* Select event ev in the call tree and focus it (the other panes follow),
 * undone by `back` like a drill; the tree's instance filter is dropped
 * when ev is not among its paths. False, with a message, when ev is not in
 * the tree (filtered out). */
static bool jump(struct app *a, uint32_t ev)
{
    struct pane *tree = a->panes[PANE_TREE];
    struct hist *h = hist_push(a);
    bool ok = tree_pane_select(tree, &a->v, ev);
    if (!ok && h->inst) {
        tree_pane_set_instances(tree, &a->v, NULL, 0, NULL);
        ok = tree_pane_select(tree, &a->v, ev);
        if (!ok)
            tree_pane_set_instances(tree, &a->v, h->inst, h->ninst, h->label);
    }
    if (!ok) {
        free(h->inst);
        free(h->label);
        a->hist.n--;
        app_error(a, "the event is not in the call tree (filtered out?)");
        return false;
    }
    a->v.focus = PANE_TREE;
    all_dirty(a);
    app_selection_changed(a, tree);
    app_message(a, "selected in the call tree; Backspace goes back");
    return true;
}

static unsigned back(struct app *a)
{
    if (!a->hist.n)
        return R_NONE;
    struct hist *h = &a->hist.v[--a->hist.n];
    struct pane *tree = a->panes[PANE_TREE];
    tree_pane_set_instances(tree, &a->v, h->inst, h->ninst, h->label);
    if (h->sel != IDX_NONE)
        tree_pane_select(tree, &a->v, h->sel);
    free(h->inst);
    free(h->label);
    int focus = h->focus;
    a->v.focus = focus;
    a->source = h->source;
    all_dirty(a);
    app_selection_changed(a, a->panes[focus]);
    app_message(a, "back");
    return R_HANDLED | R_DIRTY_ALL;
}

/* ------------------------------------------------------------------------ */
/* Requests and actions                                                     */
/* ------------------------------------------------------------------------ */

static unsigned route(struct app *a, struct pane_request *req)
{
    struct pane *tree = a->panes[PANE_TREE];
    bool has_tree = pane_is(tree, &tree_pane_ops);
    switch (req->kind) {
    case REQ_SELECT:
        if (!has_tree || !tree_pane_select(tree, &a->v, req->ev))
            app_error(a, "the event is not in the call tree (filtered out?)");
        else
            app_message(a, "selected in the call tree");
        return R_NONE;
    case REQ_SHOW:
        if (!has_tree)
            return R_NONE;
        app_focus(a, PANE_TREE);
        if (!tree_pane_select(tree, &a->v, req->ev))
            app_error(a, "the event is not in the call tree (filtered out?)");
        return R_NONE;
    case REQ_JUMP:
        if (has_tree)
            jump(a, req->ev);
        return R_NONE;
    case REQ_INSTANCES:
        if (has_tree && !findings_ui_evidence(a, req))
            drill(a, req->evs, req->n, req->label);
        return R_NONE;
    case REQ_TRACEBACK:
        return toggle_traceback(a);
    case REQ_SCOPE:
        return scope_ui_window(a, req->from, req->to);
    case REQ_OPEN:
        return scope_ui_row(a, req->ev);
    case REQ_SEARCH_TREE: {
        if (!has_tree || !tree->ops->search)
            return R_NONE;
        struct pane_request sub = {0};
        unsigned tr = tree->ops->search(tree, &a->v, req->dir, &sub);
        tree->dirty = true;
        if (tr & R_SYNC)
            app_selection_changed(a, tree);
        return app_route(a, &sub);
    }
    default:
        return R_NONE;
    }
}

/* C: the critical path highlighted and its column shown, or hidden. */
static unsigned toggle_critpath(struct app *a)
{
    if (!a->v.cpv) {
        const char *why = bgviews_critpath_error(a->bg);
        if (why)
            app_error(a, "no critical path: %s", why);
        else
            app_message(a, "the critical path is being computed; C again once the header "
                           "says what bounds the step");
        return R_HANDLED;
    }
    a->v.crit_shown = !a->v.crit_shown;
    crit_tables_show(a, a->v.crit_shown);
    bool steps;
    size_t n = critpath_view_regions(a->v.cpv, &steps);
    char len[32];
    text_duration(len, sizeof(len), critpath_view_length(a->v.cpv) * 1000, a->v.ascii);
    if (a->v.crit_shown)
        app_message(a, "critical path of %zu %s%s: %s, highlighted; crit µs: time on it; C hides",
                    steps ? n : (size_t)1, steps ? "step" : "trace", steps && n != 1 ? "s" : "",
                    len);
    else
        app_message(a, "critical path hidden");
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

/* W: the paths' length were the selected event's name twice as fast,
 * worked out on a thread (a long trace's graphs take a while); the answer
 * comes on the message line (whatif_answer). */
static unsigned whatif(struct app *a)
{
    struct critpath_view *cv = a->v.cpv;
    if (!cv)
        return toggle_critpath(a); /* says why there is none */
    uint32_t ev = pane_current_event(a->panes[a->v.focus], &a->v);
    if (ev == IDX_NONE)
        ev = a->v.sel;
    if (ev == IDX_NONE || ev >= a->v.t->ev.n) {
        app_error(a, "what-if: select an op or a kernel first");
        return R_HANDLED;
    }
    if (!critpath_view_whatif_start(cv, a->v.t->ev.v[ev].name, ev)) {
        app_message(a, "what-if: the last one is still being worked out");
        return R_HANDLED;
    }
    app_message(a, "what-if: %.80s 2%s faster%s", ev_name(a->v.t, ev),
                a->v.ascii ? "x" : "\xc3\x97", a->v.ascii ? "..." : "\xe2\x80\xa6");
    return R_HANDLED;
}

/* The what-if's answer on the message line, once it is in. */
static unsigned whatif_answer(struct app *a, bool wait)
{
    struct critpath_view *cv = a->v.cpv;
    int64_t after;
    uint32_t ev;
    if (!cv || !critpath_view_whatif_take(cv, wait, &after, &ev))
        return R_NONE;
    int64_t before = critpath_view_length(cv);
    bool steps;
    size_t n = critpath_view_regions(cv, &steps);
    char subject[32];
    if (!steps)
        snprintf(subject, sizeof(subject), "the trace's critical path");
    else if (n == 1)
        snprintf(subject, sizeof(subject), "the step");
    else
        snprintf(subject, sizeof(subject), "the %zu steps", n);
    app_message(a, "if %.80s ran 2%s faster %s would shorten by %lld %s (%.1f %%)",
                ev_name(a->v.t, ev), a->v.ascii ? "x" : "\xc3\x97", subject,
                (long long)(before - after), a->v.ascii ? "us" : "\xc2\xb5s",
                before ? 100.0 * (double)(before - after) / (double)before : 0.0);
    return R_DIRTY;
}

static unsigned trace_action(struct app *a, enum action act)
{
    switch (act) {
    case A_CRITPATH:
        return toggle_critpath(a);
    case A_WHATIF:
        return whatif(a);
    case A_TRACEBACK:
        return toggle_traceback(a);
    case A_KERNEL_NAMES:
        if (!a->v.kn)
            return R_HANDLED;
        knames_set_full(a->v.kn, !knames_full(a->v.kn));
        app_message(a, knames_full(a->v.kn) ? "full kernel names" : "simplified kernel names");
        return R_HANDLED | R_DIRTY_ALL | R_SYNC;
    case A_EXPORT:
    case A_EXPORT_SUBTREE:
    case A_EXPORT_WINDOW:
        return export_ui_action(a, act);
    case A_ROOFLINE:
        return roofline_view_action(a);
    case A_FINDINGS:
        return findings_ui_show(a, 0);
    case A_STEPS:
        return scope_ui_steps(a);
    case A_SCOPE_SUBTREE:
        return scope_ui_subtree(a);
    default:
        return R_NONE;
    }
}

static unsigned snapshot_action(struct app *a, enum action act)
{
    if (act == A_TRACEBACK)
        return toggle_traceback(a);
    return snapview_action(a, act);
}

/* ------------------------------------------------------------------------ */
/* Background work                                                          */
/* ------------------------------------------------------------------------ */

static unsigned tick(struct app *a, bool wait)
{
    unsigned r = whatif_answer(a, wait);
    /* The traceback view takes in symbolizer answers shown or not. */
    if (a->tb) {
        unsigned t = pane_tick(a->tb, &a->v, wait);
        if (t && traceback_shown(a))
            a->panes[PANE_DETAIL]->dirty = true;
        r |= t;
    }
    /* Views built behind the first screen: the one shown may have changed
     * under the table's cursor. */
    if (bgviews_install(a->bg, a, wait && bgviews_pending(a->bg)))
        r |= a->v.focus == PANE_TABLE ? R_SYNC | R_DIRTY : R_DIRTY;
    return r;
}

static bool busy(struct app *a)
{
    return (a->tb && pane_busy(a->tb)) || bgviews_pending(a->bg) ||
           (a->v.cpv && critpath_view_whatif_busy(a->v.cpv));
}

static bool settle(struct app *a)
{
    return bgviews_install(a->bg, a, true);
}

/* ------------------------------------------------------------------------ */
/* The panes                                                                */
/* ------------------------------------------------------------------------ */

/* The event a row stands for, to tell kernel names in its cells: its
 * first instance, else its reference. */
static uint32_t row_event(const struct table *tab, size_t r)
{
    if (tab->inst_first && tab->inst_first[r + 1] > tab->inst_first[r])
        return tab->inst[tab->inst_first[r]];
    return tab->refs[r];
}

static const char *table_text(struct view *a, const struct table *tab, size_t row, size_t col,
                              const char *s, size_t n, size_t *len, bool full)
{
    *len = n;
    if (!a->kn)
        return s;
    return full ? knames_cell_full(a->kn, row_event(tab, row), s, n, len)
                : knames_cell(a->kn, row_event(tab, row), s, n, len);
}

static void trace_open(struct app *a)
{
    /* Enter on a step or an iteration: every view for it alone. */
    static const enum request_kind view_enter[APP_NVIEWS] = {
        [APP_VIEW_STEPS] = REQ_OPEN,
        [APP_VIEW_ITERATIONS] = REQ_OPEN,
    };
    const struct table_pane_views views = {
        .n = APP_NVIEWS,
        .names = app_view_names,
        .tabs = a->views,
        .errs = a->views_err,
        .keytab = PANE_TABLE,
        .enter = REQ_NONE,
        .view_enter = view_enter,
        .view_enter_keytab = KEYS_SCOPE_TABLE,
        .text = table_text,
        .describe_event = event_detail,
    };
    a->v.kn = knames_new(a->v.t);
    a->v.recompute = recompute_marks(a->v.t, NULL);
    a->bd = *analysis_breakdown(a->v.an, false);
    a->panes[PANE_TABLE] = table_pane_new(&a->v, &views);
    a->panes[PANE_TREE] = tree_pane_new(&a->v);
    a->panes[PANE_TIMELINE] = timeline_pane_new(&a->v);
}

static void snapshot_open(struct app *a)
{
    const struct table_pane_views views = {
        .n = SV__COUNT,
        .names = snapview_table_names,
        .tabs = a->v.snap->tabs,
        .errs = a->v.snap->errs,
        .keytab = KEYS_SNAP_TABLE,
        .enter = REQ_TRACEBACK,
        .pick = snapview_pick_row,
    };
    a->panes[PANE_TABLE] = table_pane_new(&a->v, &views);
    a->panes[PANE_TREE] = snap_memory_pane_new(&a->v);
    a->panes[PANE_TIMELINE] = snap_chart_pane_new(&a->v);
}

static void trace_opened(struct app *a)
{
    roofline_view_attach(a);
}

static void close_doc(struct app *a)
{
    /* The worker reads the trace and lends the roofline its analysis:
     * stopped before either is freed, freed after the roofline. */
    if (a->owns_bg)
        bgviews_stop(a->bg);
    pane_free(a->tb);
    a->tb = NULL;
    export_ui_free(a->exp);
    for (size_t i = 0; i < a->hist.n; i++) {
        free(a->hist.v[i].inst);
        free(a->hist.v[i].label);
    }
    VEC_FREE(&a->hist);
    crit_tables_free(a);
    for (int i = 0; i < APP_NVIEWS; i++) {
        table_free(a->views[i]);
        free(a->views_err[i]);
    }
    roofline_view_free(a->v.rlv);
    critpath_view_free(a->v.cpv);
    if (a->owns_bg)
        bgviews_free(a->bg);
    knames_free(a->v.kn);
    free(a->v.recompute);
    analysis_free(a->v.an);
    /* A view closed: the write of its cache is abandoned, as at a quit
     * (tui.c), and waited for in a script; no one is left to show its
     * notes. */
    free(tracecache_later_finish(a->cache_later, !a->v.headless));
    trace_free(a->v.t);
    snapview_free(a->v.snap);
    free(a->opened_with);
    a->opened_with = NULL;
}

static int trace_timeline_lines(struct app *a)
{
    return timeline_pane_lanes(a->panes[PANE_TIMELINE]);
}

/* What bounds the steps, once the critical path is in. */
static void trace_header_note(struct app *a, int width, char *out, size_t n, bool *pending)
{
    out[0] = '\0';
    *pending = false;
    if (a->v.cpv) {
        critpath_view_bound_text(a->v.cpv, width, a->v.ascii, out, n);
    } else if (bgviews_critpath_coming(a->bg)) {
        *pending = true;
        snprintf(out, n, "bound: computing%s", a->v.ascii ? "..." : "\xe2\x80\xa6");
    }
}

static bool snapshot_header(struct app *a, WINDOW *w, int cols)
{
    snapview_header(a, w, cols);
    return true;
}

static bool show_view(struct app *a, const char *name)
{
    return strncmp(name, "roofline:", 9) == 0 && roofline_view_show(a, name + 9);
}

bool explore_timeline_window(struct app *a, int64_t *from, int64_t *to)
{
    return timeline_pane_window(a->panes[PANE_TIMELINE], from, to);
}

const struct doc_ops explore_trace_doc = {
    .open = trace_open,
    .opened = trace_opened,
    .close = close_doc,
    .route = route,
    .action = trace_action,
    .selected = selected,
    .back = back,
    .timeline_lines = trace_timeline_lines,
    .header_note = trace_header_note,
    .header_extra_lines = findings_ui_header_lines,
    .header_extra = findings_ui_header,
    .header_click = findings_ui_header_click,
    .tick = tick,
    .busy = busy,
    .help_mode = HELP_TRACE,
    .view_names = app_view_names,
    .nviews = APP_NVIEWS,
    .show_view = show_view,
    .settle = settle,
};

const struct doc_ops explore_snapshot_doc = {
    .open = snapshot_open,
    .close = close_doc,
    .route = route,
    .action = snapshot_action,
    .selected = selected,
    .back = back,
    .timeline_lines = snapview_chart_lines,
    .tick = tick,
    .busy = busy,
    .header = snapshot_header,
    .help_mode = HELP_SNAPSHOT,
    .view_names = snapview_table_names,
    .nviews = SV__COUNT,
};

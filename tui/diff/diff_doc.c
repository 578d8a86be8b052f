/* A trace diff as a document of the app (tui/diff/diff_doc.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "core/report/report.h"
#include "tui/diff/diff_doc.h"
#include "tui/diff/diffdata.h"
#include "tui/diff/diffdetail.h"
#include "tui/diff/diffsides_pane.h"
#include "tui/diff/mergedtree_pane.h"
#include "tui/frame/app.h"
#include "tui/frame/colors.h"
#include "tui/frame/draw.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"
#include "tui/frame/table_pane.h"
#include "tui/trace/tui.h"

/* The table pane's views, and the diff report table behind each
 * (core/diff/diffreport.h's registry). */
enum { DT_OPS, DT_LCA, DT_ARGS, DT_ROOFLINE, DT__COUNT };
static const char *const table_names[DT__COUNT] = {"ops", "lca", "unique-args", "roofline"};

/* The diff's views in the order 1-5 and Tab go through them. */
enum diff_stop { S_OPS, S_TREE, S_LCA, S_ARGS, S_ROOFLINE, S_SIDES, S__COUNT };
static const char *const stop_names[S__COUNT] = {"ops",         "tree",     "lca",
                                                 "unique-args", "roofline", "sides"};

struct diff_doc {
    struct diffdata *dd;           /* owned */
    struct table *tabs[DT__COUNT]; /* owned */
    char *errs[DT__COUNT];         /* none: every table builds, empty at worst */
    struct tui_opts side_opts;     /* how a side's trace is opened (its path set then) */
    int detail_from;               /* pane focused before the detail took the body, -1: none */
};

static struct diff_doc *dd_of(struct app *a)
{
    return a->v.doc_state;
}

/* Table `name` of the diff report: its first sheet (a joined report may
 * have several; the others are in `torchtop diff -t`). Change columns
 * sort by magnitude and show on the first screen. */
static struct table *build_table(struct diffdata *dd, const char *name)
{
    const struct diffreport_table *r = diffreport_tables;
    while (r->name && strcmp(r->name, name) != 0)
        r++;
    struct table_list l = {0};
    if (r->name)
        r->build(&dd->ctx, &l);
    struct table *t = NULL;
    if (l.items.n) {
        t = l.items.v[0];
        l.items.v[0] = NULL;
        for (size_t i = 1; i < l.items.n; i++)
            table_add_note(t, "also: sheet %s (torchtop diff -t %s)", l.items.v[i]->name, name);
    }
    table_list_free(&l);
    if (!t)
        return table_new(name, "(empty)", NULL, 0);
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].kind != COL_TEXT && diffdata_change_col(&t->cols[c]))
            t->cols[c].flags |= COLF_MAGNITUDE | COLF_KEY;
    return t;
}

/* A row's detail beyond its cells: a name's events on both sides, a
 * merged node's (the LCA table's rows). */
static void describe_row(struct detail_out *d, struct view *v, const struct table *tab, size_t row)
{
    struct diff_doc *doc = v->doc_state;
    if (tab == doc->tabs[DT_OPS]) {
        const char *name = table_cell(tab, row, table_name_col(tab)).s;
        diffdetail_name(d, doc->dd, name ? name : "", v->ascii);
    } else if (tab == doc->tabs[DT_LCA]) {
        diffdetail_node(d, doc->dd, table_ref(tab, row), v->ascii);
    }
}

static void diff_open(struct app *a)
{
    struct diff_doc *doc = dd_of(a);
    for (int i = 0; i < DT__COUNT; i++)
        doc->tabs[i] = build_table(doc->dd, table_names[i]);
    int c = table_col_index(doc->tabs[DT_OPS], "diff_duration");
    if (c >= 0)
        table_sort(doc->tabs[DT_OPS], (size_t)c, true);
    const struct table_pane_views views = {
        .n = DT__COUNT,
        .names = table_names,
        .tabs = doc->tabs,
        .errs = doc->errs,
        .keytab = KEYS_DIFF_TABLE,
        .enter = REQ_OPEN,
        .describe_row = describe_row,
    };
    a->panes[PANE_TABLE] = table_pane_new(&a->v, &views);
    /* The user picks one view at a time (1-5, Tab): it gets the height,
     * the others a title and a row or two. */
    a->lcfg.focus_first = true;
    a->panes[PANE_TREE] = mergedtree_pane_new(&a->v, doc->dd, KEYS_DIFF_TREE);
    a->panes[PANE_TIMELINE] = diffsides_pane_new(doc->dd, KEYS_DIFF_SIDES);
    /* Each side's roofline, made now: the detail of a modelled op needs
     * it, and a key that selects the first such op must not wait for it. */
    for (int k = 0; k < 2; k++)
        diffdata_roofline(doc->dd, k);
}

/* The view shown: the focused pane's (the table pane: its table's). */
static enum diff_stop current_stop(struct app *a)
{
    int f = a->v.focus == PANE_DETAIL && dd_of(a)->detail_from >= 0 ? dd_of(a)->detail_from
                                                                    : a->v.focus;
    if (f == PANE_TREE)
        return S_TREE;
    if (f == PANE_TIMELINE)
        return S_SIDES;
    const char *v = app_table_view(a);
    for (int i = 0; v && i < S__COUNT; i++)
        if (strcmp(v, stop_names[i]) == 0)
            return (enum diff_stop)i;
    return S_OPS;
}

/* The detail gives the body back to the pane it came from. */
static unsigned detail_back(struct app *a)
{
    struct diff_doc *doc = dd_of(a);
    if (doc->detail_from < 0)
        return R_NONE;
    int to = doc->detail_from;
    doc->detail_from = -1;
    a->lcfg.maximized = -1;
    app_resize(a, a->lines, a->cols);
    app_focus(a, to);
    return R_HANDLED | R_DIRTY_ALL;
}

static unsigned show_detail(struct app *a)
{
    struct diff_doc *doc = dd_of(a);
    if (doc->detail_from >= 0)
        return detail_back(a);
    doc->detail_from = a->v.focus;
    a->lcfg.maximized = L_DETAIL;
    app_focus(a, PANE_DETAIL);
    app_message(a, "both sides of the selection; Esc, Backspace or Left comes back");
    return R_HANDLED | R_RELAYOUT;
}

static unsigned go_to(struct app *a, enum diff_stop s)
{
    detail_back(a);
    /* The view shown gets the height (focus_first, set at open): the
     * relayout follows the focus. */
    unsigned r = R_HANDLED | R_DIRTY_ALL | R_SYNC;
    if (s == S_TREE) {
        app_focus(a, PANE_TREE);
    } else if (s == S_SIDES) {
        app_focus(a, PANE_TIMELINE);
    } else {
        app_table_set_view(a, stop_names[s]);
        app_focus(a, PANE_TABLE);
    }
    return r;
}

static unsigned open_side(struct app *a, int k)
{
    struct diff_doc *doc = dd_of(a);
    const char *path = doc->dd->td->t[k]->path;
    if (!path || !*path || strcmp(path, "-") == 0) {
        app_error(a, "the %s was read from standard input: it cannot be opened again",
                  k ? "test" : "control");
        return R_HANDLED;
    }
    struct tui_opts o = doc->side_opts;
    o.path = path;
    o.name = doc->dd->td->label[k];
    return tui_push_view(a, &o, "the diff");
}

static unsigned diff_route(struct app *a, struct pane_request *req)
{
    if (req->kind != REQ_OPEN)
        return R_NONE;
    if (a->v.focus == PANE_TIMELINE)
        return open_side(a, req->ev ? 1 : 0);
    return show_detail(a);
}

static unsigned diff_action(struct app *a, enum action act)
{
    struct diff_doc *doc = dd_of(a);
    switch (act) {
    case A_DIFF_OPS:
    case A_DIFF_TREE:
    case A_DIFF_LCA:
    case A_DIFF_ARGS:
    case A_DIFF_ROOFLINE:
        return go_to(a, (enum diff_stop)(S_OPS + (act - A_DIFF_OPS)));
    case A_FOCUS_NEXT:
    case A_FOCUS_PREV:
        /* From the detail on the whole body (the detail pane's Tab): the
         * diff's next view, as Tab anywhere else in the diff. */
        if (doc->detail_from < 0)
            return R_NONE;
        /* fall through */
    case A_DIFF_NEXT:
    case A_DIFF_PREV: {
        bool next = act == A_DIFF_NEXT || act == A_FOCUS_NEXT;
        return go_to(a, (enum diff_stop)((current_stop(a) + (next ? 1 : S__COUNT - 1)) % S__COUNT));
    }
    case A_DIFF_DETAIL:
        return show_detail(a);
    case A_CANCEL:
        /* The detail closes first, then the search (the app's), then the
         * filter. */
        if (doc->detail_from >= 0)
            return detail_back(a);
        if (!pattern_active(&a->v.search) && pattern_active(&a->v.filter)) {
            app_filter_set(a, NULL);
            return R_HANDLED;
        }
        return R_NONE;
    case A_ROOFLINE:
    case A_TRACEBACK:
    case A_KERNEL_NAMES:
    case A_EXPORT:
    case A_CRITPATH:
    case A_WHATIF:
    case A_FINDINGS:
    case A_EXPORT_SUBTREE:
    case A_EXPORT_WINDOW:
        app_message(a, "%s works in a side's trace: Enter on a side (6th view, Tab) opens it",
                    action_name(act));
        return R_HANDLED;
    default:
        return R_NONE;
    }
}

static unsigned diff_back(struct app *a)
{
    return detail_back(a);
}

static int diff_timeline_lines(struct app *a)
{
    return DIFFSIDES_PANE_LINES;
}

/* " torchtop diff  [1 ops]  2 tree ...  CONTROL 1.2 ms -> TEST 0.9 ms", then
 * the change of GPU time, the devices' note and the filter. When the views
 * and the totals do not fit on the first line (80 columns), the totals
 * follow the change on the second: what is cut then is the note, which the
 * sides pane shows too. */
static bool diff_header(struct app *a, WINDOW *w, int cols)
{
    struct diff_doc *doc = dd_of(a);
    const struct diffdata *dd = doc->dd;
    enum diff_stop cur = current_stop(a);
    struct strbuf sb = STRBUF_INIT, tot = STRBUF_INIT;
    sb_puts(&sb, " torchtop diff ");
    for (int i = 0; i < S__COUNT; i++) {
        if (i == S_SIDES)
            sb_printf(&sb, i == (int)cur ? " [%s]" : "  %s ", stop_names[i]);
        else
            sb_printf(&sb, i == (int)cur ? " [%d %s]" : "  %d %s ", i + 1, stop_names[i]);
    }
    for (int k = 0; k < 2; k++) {
        char gpu[48];
        text_duration(gpu, sizeof(gpu), dd->gpu_total[k], a->v.ascii);
        if (k)
            sb_puts(&tot, a->v.ascii ? " -> " : " \xe2\x86\x92 ");
        display_sanitize(&tot, dd->td->label[k], strlen(dd->td->label[k]));
        sb_printf(&tot, " %s", gpu);
    }
    bool one_line = display_width(sb_str(&sb), sb.len) + 3 + display_width(sb_str(&tot), tot.len) <=
                    (size_t)cols;
    if (one_line) {
        sb_puts(&sb, "   ");
        sb_putn(&sb, sb_str(&tot), tot.len);
    }
    draw_fit(w, 0, 0, cols, sb_str(&sb), sb.len, false, false, color_attr(C_TITLE_FOCUS),
             a->v.ascii);
    sb_clear(&sb);
    sb_puts(&sb, " GPU change: ");
    diffdata_change_text(&sb, dd->gpu_total[0], dd->gpu_total[1], a->v.ascii);
    if (!one_line) {
        sb_puts(&sb, ", ");
        sb_putn(&sb, sb_str(&tot), tot.len);
    }
    sb_free(&tot);
    /* Different hardware on the two sides changes every time. */
    struct strbuf dn = STRBUF_INIT;
    if (tracediff_devices_note(dd->td, &dn)) {
        sb_puts(&sb, "  note: ");
        sb_putn(&sb, sb_str(&dn), dn.len);
    }
    sb_free(&dn);
    if (pattern_active(&a->v.filter)) {
        sb_puts(&sb, "  filter: ");
        display_sanitize(&sb, a->v.filter.text, strlen(a->v.filter.text));
    }
    draw_fit(w, 1, 0, cols, sb_str(&sb), sb.len, false, false, A_NORMAL, a->v.ascii);
    sb_free(&sb);
    return true;
}

static bool diff_show_view(struct app *a, const char *name)
{
    for (int i = 0; i < S__COUNT; i++)
        if (strcmp(name, stop_names[i]) == 0) {
            app_react(a, go_to(a, (enum diff_stop)i));
            return true;
        }
    return false;
}

static void diff_close(struct app *a)
{
    struct diff_doc *doc = dd_of(a);
    if (!doc)
        return;
    for (int i = 0; i < DT__COUNT; i++) {
        table_free(doc->tabs[i]);
        free(doc->errs[i]);
    }
    diffdata_free(doc->dd);
    free(doc);
    a->v.doc_state = NULL;
}

const struct doc_ops diff_doc_ops = {
    .open = diff_open,
    .close = diff_close,
    .route = diff_route,
    .action = diff_action,
    .back = diff_back,
    .timeline_lines = diff_timeline_lines,
    .header = diff_header,
    .help_mode = HELP_DIFF,
    .view_names = table_names,
    .nviews = DT__COUNT,
    .show_view = diff_show_view,
};

void diff_doc_open(struct app *a, struct tracediff *td, const struct tui_opts *o, bool ascii,
                   bool headless)
{
    struct diff_doc *doc = xcalloc(1, sizeof(*doc));
    doc->dd = diffdata_new(td);
    doc->detail_from = -1;
    doc->side_opts = *o;
    doc->side_opts.src = NULL;
    doc->side_opts.snapshot = false;
    doc->side_opts.mem = NULL;
    doc->side_opts.script = NULL;
    a->v.doc_state = doc;
    a->name = xstrdup("diff");
    app_init(a, &diff_doc_ops, ascii, headless);
    app_message(a, "%zu names, %zu merged nodes; ? shows the keys, Tab the next view",
                doc->dd->td->rows.n, doc->dd->ctx.dt->nodes.n);
}

struct diffdata *diff_doc_data(struct app *a)
{
    return dd_of(a)->dd;
}

int diff_doc_run(struct tracediff *td, const struct tui_opts *o)
{
    bool ascii;
    bool ok = tui_term_open(o, &ascii);
    if (!ok) {
        struct trace *t[2] = {(struct trace *)td->t[0], (struct trace *)td->t[1]};
        tracediff_free(td);
        trace_free(t[0]);
        trace_free(t[1]);
        return 1;
    }
    struct app a = {0};
    diff_doc_open(&a, td, o, ascii, o->script != NULL);
    return tui_run(&a, o);
}

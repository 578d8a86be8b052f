/* The findings in the explorer (tui/trace/findings_ui.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/findings/findings.h"
#include "tui/frame/app.h"
#include "tui/frame/draw.h"
#include "tui/trace/bgviews.h"
#include "tui/trace/findings_ui.h"

int findings_ui_header_lines(struct app *a, int lines)
{
    if (!a->v.t || !a->v.t->n_gpu)
        return 0;
    return lines >= FINDINGS_UI_LINES_3 ? 3 : lines >= FINDINGS_UI_LINES_1 ? 1 : 0;
}

/* The findings table once it is in, NULL before (or when it could not be
 * built). Its rows are in the builder's order, largest saving first, and
 * stay so: the table pane sorts its own list of rows. */
static const struct table *findings_table(struct app *a)
{
    return bgviews_coming(a->bg, APP_VIEW_FINDINGS) ? NULL : a->views[APP_VIEW_FINDINGS];
}

static const char *cell_text(const struct table *tab, size_t row, const char *col)
{
    int c = table_col_index(tab, col);
    const char *s = c >= 0 ? table_cell(tab, (size_t)row, (size_t)c).s : NULL;
    return s ? s : "";
}

static double cell_float(const struct table *tab, size_t row, const char *col)
{
    int c = table_col_index(tab, col);
    return c >= 0 ? table_cell(tab, row, (size_t)c).f : 0;
}

/* Line y: " −12.3 % kind: statement" cut to cols, with `more` right-aligned
 * at its end when given. */
static void finding_line(struct app *a, WINDOW *w, int y, int cols, const struct table *tab,
                         size_t row, const char *more)
{
    bool ascii = a->v.ascii;
    char saving[32];
    snprintf(saving, sizeof(saving), " %s%.1f %% ", ascii ? "-" : "\xe2\x88\x92",
             cell_float(tab, row, "saving_pct"));
    int mw = more ? (int)strlen(more) : 0;
    int room = cols - mw;
    int x = draw_str(w, y, 0, room, saving, color_attr(C_NUMBER) | A_BOLD, ascii);
    char kind[48];
    snprintf(kind, sizeof(kind), "%s: ", cell_text(tab, row, "kind"));
    if (x < room)
        x += draw_str(w, y, x, room - x, kind, A_BOLD, ascii);
    const char *st = cell_text(tab, row, "statement");
    if (x < room)
        draw_fit(w, y, x, room - x, st, strlen(st), false, false, 0, ascii);
    if (more && mw <= cols)
        draw_str(w, y, cols - mw, mw, more, color_attr(C_DIM), ascii);
}

/* A line of its own in dim text. */
static void note_line(struct app *a, WINDOW *w, int y, int cols, const char *fmt, const char *s)
{
    char line[512];
    snprintf(line, sizeof(line), fmt, s);
    draw_str(w, y, 1, cols - 1, line, color_attr(C_DIM), a->v.ascii);
}

void findings_ui_header(struct app *a, WINDOW *w, int y, int n, int cols)
{
    for (int k = 0; k < n; k++)
        draw_blank(w, y + k, 0, cols, 0);
    if (n <= 0 || cols < 2)
        return;
    const char *dots = a->v.ascii ? "..." : "\xe2\x80\xa6";
    if (bgviews_coming(a->bg, APP_VIEW_FINDINGS)) {
        note_line(a, w, y, cols, "findings: computing%s", dots);
        return;
    }
    const struct table *tab = a->views[APP_VIEW_FINDINGS];
    if (!tab) {
        const char *why = a->views_err[APP_VIEW_FINDINGS];
        note_line(a, w, y, cols, "findings: %s", why ? why : "not built");
        return;
    }
    if (!tab->nrows) {
        /* The table's last note says why there is none. */
        const char *why = tab->notes.n ? tab->notes.v[tab->notes.n - 1] : "none";
        note_line(a, w, y, cols, "findings: %s", why);
        return;
    }
    size_t shown = MIN(tab->nrows, (size_t)n);
    for (size_t r = 0; r < shown; r++) {
        char more[48] = "";
        if (r + 1 == shown && tab->nrows > shown)
            snprintf(more, sizeof(more), " +%zu more: I ", tab->nrows - shown);
        finding_line(a, w, y + (int)r, cols, tab, r, more[0] ? more : NULL);
    }
    if (shown < (size_t)n)
        note_line(a, w, y + (int)shown, cols, "%s",
                  "(savings: upper bounds per step on the critical path; I: every finding and "
                  "its evidence)");
}

unsigned findings_ui_show(struct app *a, size_t k)
{
    app_table_set_view(a, app_view_names[APP_VIEW_FINDINGS]);
    app_focus(a, PANE_TABLE);
    const struct table *tab = findings_table(a);
    if (!tab) {
        if (bgviews_coming(a->bg, APP_VIEW_FINDINGS))
            app_message(a, "the findings are being computed");
        return R_HANDLED | R_DIRTY_ALL | R_SYNC;
    }
    if (k < tab->nrows && !app_table_select_row(a, k))
        app_message(a, "finding %zu is filtered out (F clears the filter)", k + 1);
    else if (tab->nrows)
        app_message(a, "%zu finding%s; Enter shows a finding's evidence, Backspace comes back",
                    tab->nrows, tab->nrows == 1 ? "" : "s");
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

unsigned findings_ui_header_click(struct app *a, int line, bool dbl)
{
    const struct table *tab = findings_table(a);
    if (!tab || line < 0 || (size_t)line >= tab->nrows)
        return findings_ui_show(a, 0);
    unsigned r = findings_ui_show(a, (size_t)line);
    if (dbl)
        r |= app_action(a, A_ACTIVATE);
    return r;
}

/* Findings whose evidence is GPU work in time: its gaps and what runs
 * beside it show on the timeline, not in the tree. */
static bool timeline_kind(const char *kind)
{
    return strcmp(kind, findings_kind_name(FK_LAUNCH_BOUND)) == 0 ||
           strcmp(kind, findings_kind_name(FK_EXPOSED_COMM)) == 0;
}

/* The GPU work evidence ev stands for: ev itself, or the first GPU event
 * launched under it (the rules name the launching op, for its Python
 * line); ev when it launched none. */
static uint32_t gpu_work(struct app *a, uint32_t ev)
{
    if (ev >= a->v.t->ev.n || evk_is_gpu(a->v.t->ev.v[ev].kind) || !a->v.an)
        return ev;
    uint32_t n = 0;
    const uint32_t *k = gputime_subtree_events(a->v.an->gt, ev, &n);
    return n ? k[0] : ev;
}

bool findings_ui_evidence(struct app *a, const struct pane_request *req)
{
    /* The view, not the table: with the critical path shown the view
     * holds a copy with its crit column (tui/trace/crit_tables.h). */
    const char *shown = app_table_view(a);
    const struct table *tab;
    size_t row;
    if (req->kind != REQ_INSTANCES || !req->n || !shown ||
        strcmp(shown, app_view_names[APP_VIEW_FINDINGS]) != 0 ||
        !app_table_current_row(a, &tab, &row))
        return false;
    const char *kind = cell_text(tab, row, "kind");
    if (!timeline_kind(kind))
        return false; /* the call tree, the evidence's paths only: the caller's drill */
    /* The largest evidence selected as a step back undoes, then the
     * timeline around it: short kernels at 16 times their fitted view, so
     * that their neighbours and the launch gaps between them show; a
     * collective at twice, so that what runs (or not) beside it shows. */
    size_t steps = a->hist.n;
    struct pane_request jump = {.kind = REQ_JUMP, .ev = req->evs[0]};
    app_route(a, &jump);
    if (a->hist.n == steps)
        return false; /* not in the tree: its paths, as the caller would */
    /* The timeline goes to the GPU work's lane; focused, it makes that
     * work the selection. */
    struct pane *tl = a->panes[PANE_TIMELINE];
    if (tl->ops->follow)
        tl->ops->follow(tl, &a->v, gpu_work(a, req->evs[0]));
    app_focus(a, PANE_TIMELINE);
    struct pane_request none = {0};
    unsigned r = pane_action(tl, &a->v, A_ZOOM_SELECTION, &none);
    int zoom_outs = strcmp(kind, findings_kind_name(FK_LAUNCH_BOUND)) == 0 ? 4 : 1;
    for (int k = 0; k < zoom_outs; k++)
        r |= pane_action(tl, &a->v, A_ZOOM_OUT, &none);
    /* The selection stays the evidence, not what the zoom's cursor is over. */
    app_react(a, (r & ~(unsigned)R_SYNC) | R_DIRTY_ALL);
    app_message(a,
                "%s: its largest evidence on the timeline ([ ] the lane's events, "
                "Backspace comes back)",
                kind);
    return true;
}

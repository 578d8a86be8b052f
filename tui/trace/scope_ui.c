/* Scopes in the explorer (tui/trace/scope_ui.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/trace/scope.h"
#include "tui/frame/app.h"
#include "tui/trace/bgviews.h"
#include "tui/trace/scope_ui.h"
#include "tui/trace/tui.h"

unsigned scope_ui_window(struct app *a, int64_t from, int64_t to)
{
    const struct trace *t = a->v.t;
    if (!t || to <= from)
        return R_HANDLED;
    struct scope s;
    scope_init(&s);
    /* To whole microseconds, outwards: the header then says it briefly. */
    int64_t f = from - t->t_start, e = to - t->t_start;
    s.window = true;
    s.from.off_ns = f - ((f % 1000) + 1000) % 1000;
    s.to.off_ns = e + (1000 - ((e % 1000) + 1000) % 1000) % 1000;
    return tui_push_scope(a, &s);
}

unsigned scope_ui_subtree(struct app *a)
{
    uint32_t ev = pane_current_event(a->panes[PANE_TREE], &a->v);
    if (!a->v.t || ev == IDX_NONE || ev >= a->v.t->ev.n ||
        !evk_is_host_span(a->v.t->ev.v[ev].kind)) {
        app_error(a, "select an op or an annotation in the call tree first");
        return R_HANDLED;
    }
    /* The name as a POSIX extended regular expression matching it alone. */
    const char *name = ev_name(a->v.t, ev);
    struct strbuf re = STRBUF_INIT;
    sb_putc(&re, '^');
    for (const char *p = name; *p; p++) {
        if (strchr(".[]{}()\\*+?^$|", *p))
            sb_putc(&re, '\\');
        sb_putc(&re, *p);
    }
    sb_putc(&re, '$');
    struct scope s;
    scope_init(&s);
    s.match = sb_str(&re);
    unsigned r = tui_push_scope(a, &s);
    sb_free(&re);
    return r;
}

/* The view shown is view i, a table with row `row`. */
static const struct table *shown_table(struct app *a, int i, uint32_t row)
{
    const char *shown = app_table_view(a);
    const struct table *tab = a->views[i];
    if (!shown || strcmp(shown, app_view_names[i]) != 0 || !tab || row >= tab->nrows)
        return NULL;
    return tab;
}

unsigned scope_ui_row(struct app *a, uint32_t row)
{
    struct scope s;
    scope_init(&s);
    const struct table *tab = shown_table(a, APP_VIEW_STEPS, row);
    int col = tab ? table_col_index(tab, "step") : -1;
    if (col >= 0) {
        s.nsteps = 1;
        s.steps[0].lo = s.steps[0].hi = table_cell(tab, row, (size_t)col).i;
        return tui_push_scope(a, &s);
    }
    tab = shown_table(a, APP_VIEW_ITERATIONS, row);
    uint32_t ev = tab ? table_ref(tab, row) : IDX_NONE;
    if (ev != IDX_NONE && ev < a->v.t->ev.n) {
        const struct event *e = trace_ev(a->v.t, ev);
        return scope_ui_window(a, e->ts, ev_end(e));
    }
    app_error(a, "this row is not a step or an iteration");
    return R_HANDLED;
}

/* Show view i focused with a line on what Enter does; false when it has
 * no table. */
static bool show_list(struct app *a, int i, const char *what)
{
    const struct table *tab = a->views[i];
    if (!tab)
        return false;
    app_table_set_view(a, app_view_names[i]);
    app_focus(a, PANE_TABLE);
    app_message(a,
                "%zu %s%s; s sorts (by duration: the slowest first), Enter shows every view "
                "for one",
                tab->nrows, what, tab->nrows == 1 ? "" : "s");
    return true;
}

unsigned scope_ui_steps(struct app *a)
{
    if (!a->v.t)
        return R_NONE;
    if (show_list(a, APP_VIEW_STEPS, "step") || show_list(a, APP_VIEW_ITERATIONS, "iteration"))
        return R_HANDLED | R_DIRTY_ALL | R_SYNC;
    if (bgviews_coming(a->bg, APP_VIEW_STEPS) || bgviews_coming(a->bg, APP_VIEW_ITERATIONS))
        app_message(a, "the step list is being computed; T again in a moment");
    else
        app_error(a, "no step list: %s",
                  a->views_err[APP_VIEW_STEPS] ? a->views_err[APP_VIEW_STEPS]
                                               : "the trace has no ProfilerStep#N spans");
    return R_HANDLED;
}

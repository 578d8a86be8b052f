/* The roofline view of the op table, its category menu, and the detail
 * pane's roofline section with its plot. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/frame/app.h"
#include "tui/trace/bgviews.h"
#include "tui/frame/detail.h"
#include "tui/trace/roofline_view.h"

struct roofline_view {
    struct roofline *r;     /* owned */
    struct table_list tabs; /* one per category, owned */
    int shown;              /* category in the view */
};

struct roofline_view *roofline_view_new(struct analysis *an, const char *arch, char *err)
{
    struct roofline *r = roofline_new(an, arch, err);
    if (!r)
        return NULL;
    struct roofline_view *rv = xcalloc(1, sizeof(*rv));
    rv->r = r;
    roofline_tables(r, &rv->tabs);
    return rv;
}

void roofline_view_free(struct roofline_view *rv)
{
    if (!rv)
        return;
    table_list_free(&rv->tabs);
    roofline_free(rv->r);
    free(rv);
}

const struct roofline *roofline_view_roofline(const struct roofline_view *rv)
{
    return rv->r;
}

size_t roofline_view_count(const struct roofline_view *rv)
{
    return rv->tabs.items.n;
}

struct table *roofline_view_table(const struct roofline_view *rv, size_t i)
{
    return i < rv->tabs.items.n ? rv->tabs.items.v[i] : NULL;
}

/* ------------------------------------------------------------------------ */
/* The view and its categories                                              */
/* ------------------------------------------------------------------------ */

static void show(struct app *a, int i)
{
    struct roofline_view *rv = a->v.rlv;
    rv->shown = i;
    app_table_set_table(a, APP_VIEW_ROOFLINE, rv->tabs.items.v[i]);
}

/* The category (index into rv's tables) of the op behind event ev: the
 * sheet of ev's own roofline instance, else of its nearest modelled
 * ancestor (a kernel goes to its launcher first); the no-model table when
 * none is modelled; -1 when there is no such table (a trace without
 * shapes or kernels: its one table is a message). */
static int category_of(const struct roofline_view *rv, const struct trace *t, uint32_t ev)
{
    const struct roofline *r = rv->r;
    const char *want = "no_model";
    if (t && ev < t->ev.n && evk_on_device(trace_ev(t, ev)->kind)) {
        const struct gpu_info *g = ev_gpu(t, ev);
        ev = g ? g->launcher : IDX_NONE;
    }
    for (uint32_t up = ev; t && up < t->ev.n; up = trace_ev(t, up)->parent) {
        struct pm_result res;
        if (roofline_instance(r, up, &res, NULL)) {
            want = pm_sheet_name(res.sheet);
            break;
        }
    }
    for (size_t i = 0; i < rv->tabs.items.n; i++)
        if (strcmp(rv->tabs.items.v[i]->name, want) == 0)
            return (int)i;
    return -1;
}

void roofline_view_attach(struct app *a)
{
    if (!a->v.rlv || !a->v.rlv->tabs.items.n || !a->panes[PANE_TABLE])
        return;
    uint32_t asked = a->roofline_asked;
    a->roofline_asked = IDX_NONE;
    int c = asked != IDX_NONE ? category_of(a->v.rlv, a->v.t, asked) : -1;
    show(a, c < 0 ? 0 : c);
    /* r was pressed while the roofline was being built: the view it
     * switched to (saying "computing") now shows the op's category, unless
     * the user has moved on. */
    const char *view = app_table_view(a);
    if (asked != IDX_NONE && view && strcmp(view, app_view_names[APP_VIEW_ROOFLINE]) == 0)
        app_message(a, "roofline: %s; r again picks the category",
                    a->v.rlv->tabs.items.v[a->v.rlv->shown]->title);
}

/* Total kernel time of a category's table in µs, NaN when it has none. */
static double total_us(const struct table *tab)
{
    int c = table_col_index(tab, "Kernel Time (µs)_sum");
    if (c < 0)
        return NAN;
    double sum = 0;
    for (size_t r = 0; r < tab->nrows; r++) {
        double v = table_cell(tab, r, (size_t)c).f;
        if (isfinite(v))
            sum += v;
    }
    return sum;
}

static unsigned category_picked(struct app *a, void *ctx, int item)
{
    if (!a->v.rlv || item < 0 || (size_t)item >= a->v.rlv->tabs.items.n)
        return R_NONE;
    show(a, item);
    app_message(a, "roofline: %s", a->v.rlv->tabs.items.v[item]->title);
    return R_DIRTY | R_SYNC;
}

static void open_menu(struct app *a)
{
    struct roofline_view *rv = a->v.rlv;
    int n = (int)rv->tabs.items.n;
    char **items = xcalloc((size_t)n, sizeof(char *));
    for (int i = 0; i < n; i++) {
        const struct table *tab = rv->tabs.items.v[i];
        double us = total_us(tab);
        char kt[48] = "";
        if (isfinite(us)) {
            char d[32];
            text_duration(d, sizeof(d), (int64_t)(us * 1e3), a->v.ascii);
            snprintf(kt, sizeof(kt), ", %s", d);
        }
        items[i] =
            xasprintf("%-18s %zu row%s%s", tab->name, tab->nrows, tab->nrows == 1 ? "" : "s", kt);
    }
    app_open_menu(a, "Roofline category", items, n, rv->shown, category_picked, NULL);
}

unsigned roofline_view_action(struct app *a)
{
    uint32_t ev = a->v.sel;
    if (!a->v.rlv && bgviews_coming(a->bg, APP_VIEW_ROOFLINE)) {
        /* Still being built: show the view, which says how far the work
         * is, and the selected op's category once it is in. */
        a->roofline_asked = ev;
        if (a->v.focus != PANE_TABLE)
            app_focus(a, PANE_TABLE);
        app_table_set_view(a, app_view_names[APP_VIEW_ROOFLINE]);
        app_message(a, "roofline: computing; the selected op's category shows when it is in");
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    if (!a->v.rlv || !a->v.rlv->tabs.items.n) {
        app_error(a, "no roofline for this trace");
        return R_HANDLED;
    }
    if (a->v.focus != PANE_TABLE)
        app_focus(a, PANE_TABLE);
    const char *view = app_table_view(a);
    if (!view || strcmp(view, app_view_names[APP_VIEW_ROOFLINE]) != 0) {
        /* The category of the op selected where r was pressed. */
        int c = category_of(a->v.rlv, a->v.t, ev);
        if (c >= 0)
            show(a, c);
        app_table_set_view(a, app_view_names[APP_VIEW_ROOFLINE]);
        app_message(a, "roofline: %s; r again picks the category",
                    a->v.rlv->tabs.items.v[a->v.rlv->shown]->title);
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    open_menu(a);
    return R_HANDLED;
}

bool roofline_view_show(struct app *a, const char *name)
{
    if (!a->v.rlv)
        return false;
    for (size_t i = 0; i < a->v.rlv->tabs.items.n; i++)
        if (strcmp(a->v.rlv->tabs.items.v[i]->name, name) == 0) {
            show(a, (int)i);
            app_table_set_view(a, app_view_names[APP_VIEW_ROOFLINE]);
            return true;
        }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Detail section                                                           */
/* ------------------------------------------------------------------------ */

/* Columns the plot may take: the detail pane's text width. */
static int plot_width(const struct detail_out *d)
{
    return MIN(d->width, 72);
}

static void put_plot(struct detail_out *d, struct view *a, const struct roofline *r, uint32_t ev)
{
    int w = plot_width(d);
    int h = CLAMP(w / 3, 8, 14);
    struct strbuf sb = STRBUF_INIT;
    if (!roofline_plot(&sb, r, ev, w, h, a->ascii)) {
        sb_free(&sb);
        return;
    }
    const char *s = sb_str(&sb);
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        detail_kv(d, NULL, s, n);
        d->lines.v[d->lines.n - 1].elem = C_NUMBER;
        s += n + (nl != NULL);
    }
    sb_free(&sb);
}

void roofline_view_detail(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    if (!a->rlv || !t || ev >= t->ev.n)
        return;
    const struct roofline *r = a->rlv->r;
    struct pm_result res;
    struct roofline_point pt;
    if (!roofline_instance(r, ev, &res, &pt)) {
        const struct event *e = trace_ev(t, ev);
        if (e->kind != EVK_CPU_OP || gputime_subtree(a->an->gt, ev, true) <= 0)
            return;
        detail_heading(d, "Roofline");
        struct strbuf sb = STRBUF_INIT;
        const char *fail = roofline_failure(r, ev);
        uint32_t up = e->parent;
        while (up != IDX_NONE && !roofline_instance(r, up, NULL, NULL))
            up = trace_ev(t, up)->parent;
        if (!roofline_has_shapes(r))
            sb_puts(&sb, "none: the trace was recorded without record_shapes=True");
        else if (fail)
            sb_printf(&sb, "no model: %s", fail);
        else if (up != IDX_NONE)
            sb_printf(&sb, "counted in the enclosing %s", trace_str(t, trace_ev(t, up)->name));
        else
            sb_puts(&sb, "no model for this op");
        detail_wrap(d, NULL, sb_str(&sb), sb.len, C_DIM);
        if (roofline_has_shapes(r) && !fail && up != IDX_NONE)
            detail_link(d, up);
        sb_free(&sb);
        return;
    }
    detail_heading(d, "Roofline");
    struct strbuf sb = STRBUF_INIT;
    roofline_summary_line(&sb, r, ev, a->ascii);
    detail_wrap(d, NULL, sb_str(&sb), sb.len, C_OP);
    sb_free(&sb);
    detail_kv(d, "category", pm_sheet_name(res.sheet), strlen(pm_sheet_name(res.sheet)));
    size_t np;
    const struct pm_param_def *defs = pm_sheet_params(res.sheet, &np);
    for (size_t i = 0; i < np && i < res.nparams; i++) {
        const char *v = pm_param(&res, i);
        if (v)
            detail_wrap(d, defs[i].key, v, strlen(v), C_DEFAULT);
    }
    if (res.spec[0])
        detail_kv(d, "compute spec", res.spec, strlen(res.spec));
    char buf[32];
    text_duration(buf, sizeof(buf), (int64_t)(pt.kernel_us * 1e3), a->ascii);
    detail_kv(d, "kernel time", buf, strlen(buf));
    if (isfinite(pt.roof_us)) {
        text_duration(buf, sizeof(buf), (int64_t)(pt.roof_us * 1e3), a->ascii);
        detail_kv(d, "roofline time", buf, strlen(buf));
    }
    if (res.model)
        detail_kv(d, "model", res.model, strlen(res.model));
    const char *note = roofline_device_note(r);
    detail_wrap(d, "device", note, strlen(note), C_DIM);
    put_plot(d, a, r, ev);
}

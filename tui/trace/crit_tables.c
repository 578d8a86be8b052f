/* The table views with a "crit µs" column (tui/trace/crit_tables.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/frame/app.h"
#include "tui/trace/crit_tables.h"
#include "tui/trace/critpath_view.h"

struct crit_tables {
    struct table *plain[APP_NVIEWS]; /* the views as built while copies show (owned) */
};

static struct crit_tables *state(struct app *a)
{
    if (!a->v.doc_state)
        a->v.doc_state = xcalloc(1, sizeof(struct crit_tables));
    return a->v.doc_state;
}

/* A copy of tab with the column, NULL when its rows have no instances. */
static struct table *with_crit(const struct table *tab, const struct critpath_view *cv)
{
    static const struct table_col col = {"crit_us", "crit \xc2\xb5s", COL_INT, 0, 0};
    if (!tab->inst_first)
        return NULL;
    size_t at = table_name_col(tab) + 1;
    struct table *o = table_with_col(tab, at, &col);
    for (size_t r = 0; r < o->nrows; r++) {
        int64_t us = 0;
        for (uint32_t k = o->inst_first[r]; k < o->inst_first[r + 1]; k++)
            us += critpath_view_subtree_us(cv, o->inst[k]);
        table_set_int(o, r, at, us);
    }
    return o;
}

static void show_one(struct app *a, struct crit_tables *ct, int i, bool on)
{
    if (on && !ct->plain[i] && a->views[i]) {
        struct table *o = with_crit(a->views[i], a->v.cpv);
        if (!o)
            return;
        ct->plain[i] = a->views[i];
        a->views[i] = o;
        app_table_swap_table(a, i, o);
    } else if (!on && ct->plain[i]) {
        struct table *o = a->views[i];
        a->views[i] = ct->plain[i];
        ct->plain[i] = NULL;
        app_table_swap_table(a, i, a->views[i]);
        table_free(o);
    }
}

/* The index of the view the table pane shows, -1: none. */
static int shown_view(struct app *a)
{
    const char *name = app_table_view(a);
    for (int i = 0; name && i < APP_NVIEWS; i++)
        if (strcmp(app_view_names[i], name) == 0)
            return i;
    return -1;
}

void crit_tables_show(struct app *a, bool on)
{
    if (!a->v.cpv || !a->panes[PANE_TABLE])
        return;
    struct crit_tables *ct = state(a);
    if (on) {
        /* The view shown now; the others as they are shown
         * (crit_tables_sync): a copy costs a pass over the table. */
        int i = shown_view(a);
        if (i >= 0)
            show_one(a, ct, i, true);
        return;
    }
    for (int i = 0; i < APP_NVIEWS; i++)
        show_one(a, ct, i, false);
}

void crit_tables_sync(struct app *a)
{
    if (a->v.crit_shown && a->v.cpv && a->panes[PANE_TABLE]) {
        int i = shown_view(a);
        if (i >= 0)
            show_one(a, state(a), i, true);
    }
}

void crit_tables_free(struct app *a)
{
    struct crit_tables *ct = a->v.doc_state;
    if (!ct)
        return;
    for (int i = 0; i < APP_NVIEWS; i++)
        table_free(ct->plain[i]);
    free(ct);
    a->v.doc_state = NULL;
}

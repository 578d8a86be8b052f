/* The op table pane: report tables, one view each, sortable by any
 * column, narrowed by the filter; Enter on a row asks for its instances
 * in the call tree. Only the app (tui/frame/app.c) calls these. */
#ifndef TORCHTOP_TUI_TABLE_PANE_H
#define TORCHTOP_TUI_TABLE_PANE_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/frame/pane.h"

struct app;
struct table;

extern const struct pane_ops table_pane_ops;

/* Snapshot mode: the allocation stack behind row `row` of tab (*out
 * zeroed); false when it has none. */
typedef bool (*table_pick_fn)(struct app *a, const struct table *tab, size_t row,
                              struct snap_pick *out);

/* What a table pane shows. */
struct table_pane_views {
    int n;                     /* views, 1 to APP_NVIEWS */
    const char *const *names;  /* view names (borrowed, outlive the pane) */
    struct table *const *tabs; /* tables (borrowed), NULL with errs[i] saying why */
    char *const *errs;         /* (borrowed) */
    int keytab;                /* key table: enum pane_id or enum keytab */
    enum request_kind enter;   /* Enter on a row without instances; REQ_NONE: show
                                  its event in the call tree */
    table_pick_fn pick;        /* the pick op's answer; NULL: none */
};

/* A table pane in the table slot over v's tables. */
struct pane *table_pane_new(struct app *a, const struct table_pane_views *v);
/* Show tab (borrowed) in view i instead of what it showed; a table of the
 * same name keeps the column the user sorted by, cursor on top. Nothing
 * when p is not a table pane. */
void table_pane_set_table(struct pane *p, struct app *a, int view, struct table *tab);
/* The name of the view shown ("ops", "roofline"...); NULL when p is not a
 * table pane. */
const char *table_pane_view(struct pane *p);
/* Switch to a view by name; sort by column name or title. False when
 * there is no such view / column (or p is not a table pane). */
bool table_pane_set_view(struct pane *p, struct app *a, const char *name);
bool table_pane_sort_by(struct pane *p, struct app *a, const char *col);

#endif

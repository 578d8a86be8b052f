/* The op table pane: report tables, one view each, sortable by any
 * column, narrowed by the filter; Enter on a row asks for its instances
 * in the call tree. Only the app (tui/frame/app.c) calls these. */
#ifndef TORCHTOP_TUI_TABLE_PANE_H
#define TORCHTOP_TUI_TABLE_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/frame/pane.h"

struct view;
struct detail_out;
struct table;

extern const struct pane_ops table_pane_ops;

/* The most views one table pane holds. */
#define TABLE_PANE_MAX_VIEWS 18

/* Snapshot mode: the allocation stack behind row `row` of tab (*out
 * zeroed); false when it has none. */
typedef bool (*table_pick_fn)(struct view *a, const struct table *tab, size_t row,
                              struct snap_pick *out);

/* Text cell (row, col) as the document shows it (a trace's kernel names,
 * simplified unless full; a job's trace paths as base names unless full);
 * returns s itself or text that stays valid until the next call, its
 * length in *len. */
typedef const char *(*table_text_fn)(struct view *a, const struct table *tab, size_t row,
                                     size_t col, const char *s, size_t n, size_t *len, bool full);

/* What a table pane shows. */
struct table_pane_views {
    int n;                     /* views, 1 to APP_NVIEWS */
    const char *const *names;  /* view names (borrowed, outlive the pane) */
    struct table *const *tabs; /* tables (borrowed), NULL with errs[i] saying why */
    char *const *errs;         /* (borrowed) */
    int keytab;                /* key table: enum pane_id or enum keytab */
    enum request_kind enter;   /* Enter on a row without instances; REQ_NONE: show
                                  its event in the call tree */
    /* Per view (n of them), what Enter on a row asks for first, with ev the
     * table row (REQ_OPEN: a step list opens the step's scope); REQ_NONE:
     * the row's instances. NULL: none for any view. */
    const enum request_kind *view_enter;
    int view_enter_keytab; /* the key table while such a view shows (its Enter
                              labelled for what it asks); 0: keytab */
    table_pick_fn pick;    /* the pick op's answer; NULL: none */
    table_text_fn text;    /* text cells as shown; NULL: as the table has them */
    bool text_widths;      /* columns sized to text's cells (shorter: a job's base names)
                              rather than the table's (a trace's kernel names, which K
                              shows whole in the same columns) */
    /* The event a row stands for (its first instance), described below the
     * row's cells; NULL: none. */
    void (*describe_event)(struct detail_out *d, struct view *a, uint32_t ev);
    /* The document's own detail of row `row` of tab, after its cells
     * (a diff's name on both sides); NULL: none. */
    void (*describe_row)(struct detail_out *d, struct view *a, const struct table *tab, size_t row);
};

/* A table pane in the table slot over v's tables. */
struct pane *table_pane_new(struct view *a, const struct table_pane_views *v);
/* Show tab (borrowed) in view i instead of what it showed; a table of the
 * same name keeps the column the user sorted by, cursor on top. Nothing
 * when p is not a table pane. */
void table_pane_set_table(struct pane *p, struct view *a, int view, struct table *tab);
/* Show tab (borrowed) in view i instead of a table with the same rows in
 * the same order and other columns: the sort (by column name), the cursor
 * and the scroll stay. Else as table_pane_set_table. */
void table_pane_swap_table(struct pane *p, struct view *a, int view, struct table *tab);
/* The name of the view shown ("ops", "roofline"...); NULL when p is not a
 * table pane. */
const char *table_pane_view(struct pane *p);
/* Switch to a view by name; sort by column name or title. False when
 * there is no such view / column (or p is not a table pane). */
bool table_pane_set_view(struct pane *p, struct view *a, const char *name);
bool table_pane_sort_by(struct pane *p, struct view *a, const char *col);
/* Put the cursor on row `row` of the table shown; false when the filter
 * hides it (or p is not a table pane). */
bool table_pane_select_row(struct pane *p, size_t row);
/* The table shown and the table row under the cursor; false when there is
 * none (or p is not a table pane). */
bool table_pane_current_row(struct pane *p, const struct table **tab, size_t *row);

#endif

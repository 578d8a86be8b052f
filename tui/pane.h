/* Panes: a window, a rectangle and a small vtable. Each pane shows a list
 * of rows and draws only the visible slice; the app loop redraws a pane
 * when it is dirty.
 *
 * struct listview is the pure scroll/cursor arithmetic every list pane
 * shares (unit-tested). */
#ifndef TORCHTOP_TUI_PANE_H
#define TORCHTOP_TUI_PANE_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "tui/actions.h"
#include "tui/layout.h"
#include "tui/search.h"

struct app;
struct pane;
struct detail_out;
struct table;

/* Reaction bits: what a handler wants the loop to do. */
enum reaction {
    R_NONE = 0,
    R_HANDLED = 1 << 0,   /* the action was consumed */
    R_DIRTY = 1 << 1,     /* redraw the pane that handled it */
    R_DIRTY_ALL = 1 << 2, /* redraw every pane */
    R_REBUILD = 1 << 3,   /* the filter changed: panes rebuild their rows */
    R_RELAYOUT = 1 << 4,  /* recompute the layout (resize, maximize) */
    R_SYNC = 1 << 5,      /* the selected event changed: timeline and detail follow */
    R_QUIT = 1 << 6,      /* leave the loop */
};

struct pane_ops {
    const char *name;                            /* "table", "tree", ... */
    void (*draw)(struct pane *p, struct app *a); /* whole pane into p->win */
    unsigned (*on_action)(struct pane *p, struct app *a, enum action act); /* 0 = not handled */
    unsigned (*on_click)(struct pane *p, struct app *a, int y, int x, bool dbl); /* pane-relative */
    uint32_t (*current_event)(struct pane *p, struct app *a); /* event under the cursor */
    void (*describe)(struct pane *p, struct app *a, struct detail_out *d); /* detail pane text */
    unsigned (*search)(struct pane *p, struct app *a,
                       int dir);                    /* go to the next match of a->search */
    void (*rebuild)(struct pane *p, struct app *a); /* the filter changed */
    void (*follow)(struct pane *p, struct app *a, uint32_t ev); /* selection changed elsewhere */
    void (*position)(struct pane *p, struct app *a, char *buf, size_t n); /* "12/345" */
    void (*free)(struct pane *p);
    int (*keytab)(struct pane *p, struct app *a); /* key table in force; NULL: p->id's */
    unsigned (*tick)(struct pane *p, struct app *a,
                     bool wait);   /* take in finished background work (wait: all of it) */
    bool (*busy)(struct pane *p); /* background work is pending */
};

struct pane {
    const struct pane_ops *ops;
    int id;        /* enum pane_id */
    WINDOW *win;   /* NULL while hidden */
    struct rect r; /* where it is */
    bool dirty;
    void *priv; /* the pane's state */
};

/* Cursor and scroll of a list of n rows shown in `height` lines. */
struct listview {
    size_t n;   /* rows */
    size_t cur; /* cursor row (0 when n == 0) */
    size_t top; /* first row shown */
    int height; /* lines available for rows */
};

/* Keep cur in range and visible (scrolling as little as possible). */
void listview_clamp(struct listview *lv);
/* Move the cursor by delta rows (clamped); returns whether it moved. */
bool listview_move(struct listview *lv, long delta);
/* Put the cursor on row (clamped), scrolling so it is visible. */
void listview_set(struct listview *lv, size_t row);
/* Put the cursor on row; when that row is off screen, scroll it to the
 * middle (jumps: search results, revealed events). */
void listview_jump(struct listview *lv, size_t row);
/* Apply a movement action (up, down, page, first, last); returns whether
 * it was one. */
bool listview_action(struct listview *lv, enum action act);
/* Scroll by delta lines keeping the cursor visible (mouse wheel). */
void listview_scroll(struct listview *lv, long delta);

static inline void pane_draw(struct pane *p, struct app *a)
{
    p->ops->draw(p, a);
}
static inline unsigned pane_action(struct pane *p, struct app *a, enum action act)
{
    return p->ops->on_action ? p->ops->on_action(p, a, act) : R_NONE;
}
static inline uint32_t pane_current_event(struct pane *p, struct app *a)
{
    return p->ops->current_event ? p->ops->current_event(p, a) : UINT32_MAX;
}
/* Key table in force in p (keymap_table): enum pane_id or enum keytab. */
static inline int pane_keytab(struct pane *p, struct app *a)
{
    return p->ops->keytab ? p->ops->keytab(p, a) : p->id;
}
static inline unsigned pane_tick(struct pane *p, struct app *a, bool wait)
{
    return p->ops->tick ? p->ops->tick(p, a, wait) : R_NONE;
}
static inline bool pane_busy(struct pane *p)
{
    return p->ops->busy && p->ops->busy(p);
}

/* Constructors (one file each). */
struct pane *table_pane_new(struct app *a);
struct pane *tree_pane_new(struct app *a);
struct pane *timeline_pane_new(struct app *a);
struct pane *detail_pane_new(struct app *a);
void pane_free(struct pane *p);

/* The timeline's wanted lane count (for the layout). */
int timeline_pane_lanes(struct pane *p);
/* A table pane over other tables than the trace's report views (memory
 * snapshots): n views (at most APP_NVIEWS) named names[i], showing tabs[i]
 * (borrowed; NULL with errs[i] saying why), keys from table keytab.
 * Enter on a row without instances runs `enter` when set. */
struct pane *table_pane_new_views(struct app *a, int n, const char *const *names,
                                  struct table *const *tabs, char *const *errs, int keytab,
                                  enum action enter);
/* Table pane: show tab (borrowed) in view i instead of what it showed; a
 * table of the same name keeps the column the user sorted by, cursor on top. */
void table_pane_set_table(struct pane *p, struct app *a, int view, struct table *tab);
/* Table pane: the table and row under the cursor; false when none. */
bool table_pane_current_row(struct pane *p, const struct table **tab, size_t *row);
/* Table pane: the name of the view shown ("ops", "roofline"...). */
const char *table_pane_view(struct pane *p);
/* Timeline pane: the time window shown, [*from, *to) in ns (trace time). */
void timeline_pane_window(struct pane *p, int64_t *from, int64_t *to);
/* Table pane: switch to a view by report name; sort by column name or
 * title. False when there is no such view / column. */
bool table_pane_set_view(struct pane *p, struct app *a, const char *name);
bool table_pane_sort_by(struct pane *p, struct app *a, const char *col);
/* Tree pane: select event ev (revealing it); false when not in the tree. */
bool tree_pane_select(struct pane *p, struct app *a, uint32_t ev);
/* Tree pane: show only these events' paths (NULL: no such filter); label
 * names the set in the title. */
void tree_pane_set_instances(struct pane *p, struct app *a, const uint32_t *ev, size_t n,
                             const char *label);
/* Tree pane: the instance filter in force (count in *n, its label in
 * *label), NULL when none; borrowed until the next change. */
const uint32_t *tree_pane_instances(struct pane *p, size_t *n, const char **label);
/* Detail pane: rebuild from the pane that has the selection. */
void detail_pane_refresh(struct pane *p, struct app *a, struct pane *source);
/* Detail pane: show the traceback of the selection instead of its details
 * and focus it; when shown and focused, the details again. Reactions. */
unsigned detail_pane_traceback(struct pane *p, struct app *a);

#endif

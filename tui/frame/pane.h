/* Panes: a window, a rectangle and a small vtable. Each pane shows a list
 * of rows and draws only the visible slice; the app loop redraws a pane
 * when it is dirty.
 *
 * A pane knows this interface, its view (tui/frame/view.h: options,
 * search, filter, selection, message line, the document's data) and core,
 * never the app or another pane: its handlers return reaction bits (what
 * to redraw) and at most one request (struct pane_request) for what lies
 * outside the pane, which the app routes (tui/frame/app.c) through its
 * document. Each concrete pane's own API is in its own header
 * (tui/frame/table_pane.h, ...), included by its document alone. */
#ifndef TORCHTOP_TUI_PANE_H
#define TORCHTOP_TUI_PANE_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "tui/frame/actions.h"
#include "tui/frame/layout.h"
#include "tui/frame/listview.h"
#include "tui/frame/pattern.h"

struct app;
struct view;
struct pane;
struct detail_out;
struct snap_pick;

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

/* A menu item was picked: ctx is what the menu was opened with. Returns
 * reaction bits (the app applies them). */
typedef unsigned (*menu_pick_fn)(struct app *a, void *ctx, int item);

/* What a handler asks of the app beyond its own pane. */
enum request_kind {
    REQ_NONE,
    REQ_BACK,        /* undo the last drill-in or jump */
    REQ_SELECT,      /* select ev in the call tree; the focus stays */
    REQ_SHOW,        /* focus the call tree and select ev there */
    REQ_JUMP,        /* select ev in the call tree as a step `back` undoes */
    REQ_INSTANCES,   /* show only evs[0..n) in the call tree, named label */
    REQ_TRACEBACK,   /* show the selection's traceback (again: its details) */
    REQ_SEARCH_TREE, /* go to the next match of the search in the call tree */
    REQ_MENU,        /* open the menu described by menu */
    REQ_OPEN,        /* open what row ev of the table shown stands for (a job's rank) */
    REQ_SCOPE,       /* show every view for the time range [from, to) (ns, trace time) */
};

struct pane_request {
    enum request_kind kind;
    uint32_t ev;         /* REQ_SELECT, REQ_SHOW, REQ_JUMP */
    const uint32_t *evs; /* REQ_INSTANCES (borrowed until routed) */
    size_t n;
    char *label;      /* REQ_INSTANCES (owned by the request; the router frees it) */
    int dir;          /* REQ_SEARCH_TREE: 1 forward, -1 backward */
    int64_t from, to; /* REQ_SCOPE */
    struct {
        const char *title; /* static text */
        char **items;      /* owned by the request until the menu takes them */
        int n, cur;
        menu_pick_fn pick;
        void *ctx; /* handed to pick (borrowed) */
    } menu;        /* REQ_MENU */
};

struct pane_ops {
    const char *name;                             /* "table", "tree", ... */
    void (*draw)(struct pane *p, struct view *a); /* whole pane into p->win */
    /* An action; 0 = not handled. *req is REQ_NONE on entry. */
    unsigned (*on_action)(struct pane *p, struct view *a, enum action act,
                          struct pane_request *req);
    /* A click, pane-relative; *req as for on_action. */
    unsigned (*on_click)(struct pane *p, struct view *a, int y, int x, bool dbl,
                         struct pane_request *req);
    /* A drag from (y0, x0) to (y1, x1), pane-relative, both inside the
     * pane; *req as for on_action. NULL: the pane takes none (a click). */
    unsigned (*on_drag)(struct pane *p, struct view *a, int y0, int x0, int y1, int x1,
                        struct pane_request *req);
    uint32_t (*current_event)(struct pane *p, struct view *a); /* event under the cursor */
    void (*describe)(struct pane *p, struct view *a, struct detail_out *d); /* detail pane text */
    /* Go to the next match of a->search (dir 1 or -1); *req as for on_action. */
    unsigned (*search)(struct pane *p, struct view *a, int dir, struct pane_request *req);
    void (*rebuild)(struct pane *p, struct view *a);             /* the filter changed */
    void (*follow)(struct pane *p, struct view *a, uint32_t ev); /* selection changed elsewhere */
    void (*position)(struct pane *p, struct view *a, char *buf, size_t n); /* "12/345" */
    void (*free)(struct pane *p);
    int (*keytab)(struct pane *p, struct view *a); /* key table in force; NULL: p->id's */
    unsigned (*tick)(struct pane *p, struct view *a,
                     bool wait);  /* take in finished background work (wait: all of it) */
    bool (*busy)(struct pane *p); /* background work is pending */
    /* Snapshot mode: the allocation stack behind the selection (*out is
     * zeroed by the caller); false when it has none. */
    bool (*pick)(struct pane *p, struct view *a, struct snap_pick *out);
};

struct pane {
    const struct pane_ops *ops; /* also the pane's kind (pane_is) */
    int id;                     /* enum pane_id: the slot it sits in */
    WINDOW *win;                /* NULL while hidden */
    struct rect r;              /* where it is */
    bool dirty;
    void *priv; /* the pane's state, of the type its ops know */
};

/* Whether p is a pane of the kind whose ops are `ops` (htop's
 * Object_isA). Every cast of p->priv is checked with it first. */
static inline bool pane_is(const struct pane *p, const struct pane_ops *ops)
{
    return p && p->ops == ops;
}
/* Abort with a message: p was taken for a pane of kind `ops`. */
void pane_kind_fail(const struct pane *p, const struct pane_ops *ops) __attribute__((noreturn));
/* p->priv after checking that p is of kind `ops`; aborts with a message
 * when it is not (a programming error, never input). */
static inline void *pane_priv(struct pane *p, const struct pane_ops *ops)
{
    if (!pane_is(p, ops))
        pane_kind_fail(p, ops);
    return p->priv;
}

static inline void pane_draw(struct pane *p, struct view *a)
{
    p->ops->draw(p, a);
}
static inline unsigned pane_action(struct pane *p, struct view *a, enum action act,
                                   struct pane_request *req)
{
    return p->ops->on_action ? p->ops->on_action(p, a, act, req) : R_NONE;
}
static inline uint32_t pane_current_event(struct pane *p, struct view *a)
{
    return p->ops->current_event ? p->ops->current_event(p, a) : UINT32_MAX;
}
/* Key table in force in p (keymap_table): enum pane_id or enum keytab. */
static inline int pane_keytab(struct pane *p, struct view *a)
{
    return p->ops->keytab ? p->ops->keytab(p, a) : p->id;
}
static inline unsigned pane_tick(struct pane *p, struct view *a, bool wait)
{
    return p->ops->tick ? p->ops->tick(p, a, wait) : R_NONE;
}
static inline bool pane_busy(struct pane *p)
{
    return p->ops->busy && p->ops->busy(p);
}

/* A new pane of kind ops in slot id, with state priv (owned: ops->free
 * releases it). */
struct pane *pane_new(const struct pane_ops *ops, int id, void *priv);
/* Release the pane's state (ops->free), its window and the pane. */
void pane_free(struct pane *p);
/* Release what a request owns (a label, menu items not taken). */
void pane_request_done(struct pane_request *req);

#endif

/* The explorer's state and loop: keys and mouse -> actions -> the focused
 * pane, then the global handler -> reaction bits -> one relayout, one
 * rebuild, one redraw and a single doupdate() per turn.
 *
 * The same entry points serve the terminal loop (tui.c) and script mode
 * (script.c), so scripted sessions run the code a person runs. */
#ifndef TORCHTOP_TUI_APP_H
#define TORCHTOP_TUI_APP_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/analysis.h"
#include "core/base/table.h"
#include "core/analysis/timeline.h"
#include "core/trace/trace.h"
#include "tui/keymap.h"
#include "tui/layout.h"
#include "tui/pane.h"
#include "tui/search.h"
#include "tui/text.h"

/* The table views: report tables, in the order `v` cycles through them;
 * the last, the roofline, shows one category at a time
 * (tui/roofline_view.h). */
#define APP_NVIEWS 6
#define APP_VIEW_ROOFLINE 5
extern const char *const app_view_names[APP_NVIEWS];

enum overlay { OV_NONE, OV_HELP, OV_MENU, OV_PROMPT };

struct knames;
struct roofline_view;

typedef void (*menu_pick_fn)(struct app *a, int item);
typedef void (*prompt_done_fn)(struct app *a, const char *text);

struct snapview;

struct menu {
    char *title;  /* owned */
    char **items; /* owned, n of them */
    int n, cur, top;
    menu_pick_fn pick;
};

struct prompt {
    char label[32];     /* "/" or "filter: " */
    struct strbuf text; /* UTF-8 being typed */
    prompt_done_fn done;
};

/* One step of drill-in history, undone by `back`. */
struct hist {
    int focus;      /* pane focused before the drill */
    int source;     /* pane whose selection the detail pane showed */
    uint32_t *inst; /* tree instance filter before it (owned), NULL = none */
    size_t ninst;
    char *label;  /* its label (owned) */
    uint32_t sel; /* selected event before it */
};

struct app {
    /* What is shown. */
    struct trace *t;                 /* owned */
    struct analysis *an;             /* owned */
    struct table *views[APP_NVIEWS]; /* report tables, owned (NULL when not built) */
    char *views_err[APP_NVIEWS];     /* why a view could not be built (owned) */
    char *name;                      /* trace name for the header (owned) */
    struct timeline_breakdown bd;         /* the header's bar */
    char *load_warning;              /* load fault shown at start (owned) */
    struct snapview *snap;           /* a memory snapshot instead of a trace (owned); t, an
                                        and views are then NULL (tui/snap_view.h) */
    struct roofline_view *rlv;       /* roofline and its tables (owned), NULL: none */
    struct knames *kn;               /* kernel names as rows show them (owned) */

    /* Options. */
    bool ascii; /* ASCII glyphs and text */
    const struct glyphs *g;
    bool headless; /* script mode */

    /* Screen. */
    int lines, cols;
    struct layout_cfg lcfg;
    struct layout lay;
    WINDOW *w_header, *w_message, *w_keybar, *w_overlay;
    struct pane *panes[PANE__COUNT];
    int focus;         /* enum pane_id */
    int source;        /* pane whose selection the detail pane shows */
    bool dirty_chrome; /* header, message line, key bar */

    /* Interaction. */
    struct pattern search; /* last search */
    struct pattern filter; /* narrows table and tree */
    uint32_t sel;          /* selected event, IDX_NONE */
    char msg[512];
    bool msg_error;
    enum overlay ov;
    struct menu menu;
    struct prompt prompt;
    int help_top; /* help overlay scroll */
    VEC(struct hist) hist;
    bool quit;
};

/* Set up the app for a loaded trace: panes, windows and the first layout
 * (curses must be initialised). Takes ownership of t, an and the views. */
void app_init(struct app *a, bool ascii, bool headless);
void app_done(struct app *a);

/* Handle one key / one named action / one mouse event; returns reactions
 * already applied (the caller then calls app_render). */
unsigned app_key(struct app *a, int key);
unsigned app_action(struct app *a, enum action act);
unsigned app_mouse(struct app *a, int y, int x, int kind);
/* Mouse kinds for app_mouse. */
enum { MOUSE_CLICK, MOUSE_DOUBLE, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };

/* Apply reaction bits (relayout, rebuild, sync, dirty). */
void app_react(struct app *a, unsigned r);
/* Draw what is dirty and doupdate() once. */
void app_render(struct app *a);
/* The terminal size changed (KEY_RESIZE or a script's resize). */
void app_resize(struct app *a, int lines, int cols);

/* Messages on the message line. */
void app_message(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_error(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Search, filter, views and drill-in, shared by keys and script commands. */
void app_search_set(struct app *a, const char *text);
void app_filter_set(struct app *a, const char *text);
void app_focus(struct app *a, int pane);
void app_drill(struct app *a, const uint32_t *ev, size_t n, const char *label);
/* Select event ev in the call tree and focus it (the other panes follow),
 * undone by `back` like a drill; the tree's instance filter is dropped
 * when ev is not among its paths. False, with a message, when ev is not in
 * the tree (filtered out). */
bool app_jump(struct app *a, uint32_t ev);
void app_open_menu(struct app *a, const char *title, char **items, int n, int cur,
                   menu_pick_fn pick);

/* Selected event changed in pane `from`: move the other views. */
void app_selection_changed(struct app *a, struct pane *from);

/* Take in background work that finished (symbolizer answers) and apply the
 * reactions; with wait, first wait until none is pending (script mode, so
 * that screens do not depend on timing). Returns the reactions. */
unsigned app_tick(struct app *a, bool wait);
/* Background work is pending: the key loop should come back soon. */
bool app_busy(struct app *a);

#endif

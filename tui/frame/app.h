/* The explorer's state and loop: keys and mouse -> actions -> the focused
 * pane, then the document, then the global handler -> reaction bits -> one
 * relayout, one rebuild, one redraw and a single doupdate() per turn.
 *
 * The app is the hub of the panes: a pane's handler returns reaction bits
 * and at most one request (tui/frame/pane.h), and the app routes the
 * request: back and menus itself, the rest through its document (struct
 * doc_ops), which alone calls its concrete panes' API. The framework
 * (tui/frame) includes no document's headers; documents include it.
 *
 * The same entry points serve the terminal loop (tui/trace/tui.c) and
 * script mode (script.c), so scripted sessions run the code a person runs. */
#ifndef TORCHTOP_TUI_APP_H
#define TORCHTOP_TUI_APP_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/analysis.h"
#include "core/base/table.h"
#include "core/analysis/timeline.h"
#include "core/trace/trace.h"
#include "tui/frame/chrome.h"
#include "tui/frame/keymap.h"
#include "tui/frame/layout.h"
#include "tui/frame/pane.h"
#include "tui/frame/pattern.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"

/* The table views: report tables, in the order `v` cycles through them:
 * torchtop's, HTA's analyses (the first table of each, docs/metrics.md
 * §14), the roofline, which shows one category at a time
 * (tui/trace/roofline_view.h), the graph replays per graph and per node
 * position (-t graphs' two tables, docs/metrics.md §16), and the findings
 * (docs/metrics.md §20: Enter on one shows its evidence in the tree), the
 * profiler steps and the serving iterations (Enter on one shows every view
 * for it alone: a scope, tui/trace/scope_ui.h). */
#define APP_NVIEWS 18
#define APP_VIEW_ROOFLINE 12
#define APP_VIEW_FINDINGS 15
#define APP_VIEW_STEPS 16
#define APP_VIEW_ITERATIONS 17
extern const char *const app_view_names[APP_NVIEWS];

enum overlay { OV_NONE, OV_HELP, OV_MENU, OV_PROMPT };

struct export_ui;
struct knames;
struct roofline_view;
struct snapview;
struct srcpath;
struct tracecache_later;

/* The prompt was answered: ctx is what it was opened with. */
typedef void (*prompt_done_fn)(struct app *a, void *ctx, const char *text);

struct menu {
    char *title;  /* owned */
    char **items; /* owned, n of them */
    int n, cur, top;
    menu_pick_fn pick;
    void *ctx; /* handed to pick (borrowed) */
};

struct prompt {
    char label[32];     /* "/" or "filter: " */
    struct strbuf text; /* UTF-8 being typed */
    prompt_done_fn done;
    void *ctx; /* handed to done (borrowed) */
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

struct lane;

/* A document the app shows (a trace or a memory snapshot): its panes and
 * what only it knows. The app (tui/frame) reaches the document through
 * these hooks and includes none of its headers; tui/trace/explore.h fills
 * them for traces and snapshots. Hooks left NULL do nothing. */
struct doc_ops {
    /* Make the table, tree and timeline panes (a->panes; the app makes
     * the detail pane) from what the caller put in the app. */
    void (*open)(struct app *a);
    /* Every pane is made (before the first layout). */
    void (*opened)(struct app *a);
    /* Free the document's state (the app frees the panes, then this). */
    void (*close)(struct app *a);
    /* A pane's request the app does not route itself (everything but
     * back and menus); returns the reactions it adds. */
    unsigned (*route)(struct app *a, struct pane_request *req);
    /* An action the focused pane did not handle, before the app's own:
     * R_NONE when it is not the document's. */
    unsigned (*action)(struct app *a, enum action act);
    /* The selection moved to pane src's (the other panes and the detail
     * pane have followed it). */
    void (*selected)(struct app *a, struct pane *src);
    /* Undo the last drill-in or jump: reactions, R_NONE when there is
     * nothing to undo. */
    unsigned (*back)(struct app *a);
    /* Lines the timeline slot asks for, and the most of the body it may
     * take in percent (0: a quarter). */
    int (*timeline_lines)(struct app *a);
    int timeline_pct;
    /* Take in the document's background work (wait: all of it). */
    unsigned (*tick)(struct app *a, bool wait);
    bool (*busy)(struct app *a);
    /* Draw the header's first line instead of the trace's; false: not
     * drawn. */
    bool (*header)(struct app *a, WINDOW *w, int cols);
    /* A note at the end of the header's bar line in at most width
     * columns (the shortest form that fits, "" when none does); *pending:
     * it is still being worked out, shown only where the bar keeps its
     * numbers. NULL: none. */
    void (*header_note)(struct app *a, int width, char *out, size_t n, bool *pending);
    /* Lines the document adds to the header below its two on a screen
     * of this many lines (0..LAYOUT_MAX_HEADER_EXTRA): a function of the
     * screen size alone, so that the layout stays put while what they
     * show is worked out; draw them (n lines from line y of w); a click
     * on line `line` of them. NULL: none. */
    int (*header_extra_lines)(struct app *a, int lines);
    void (*header_extra)(struct app *a, WINDOW *w, int y, int n, int cols);
    unsigned (*header_click)(struct app *a, int line, bool dbl);
    /* The help's mode (enum help_mode) and the table views v cycles. */
    int help_mode;
    const char *const *view_names;
    int nviews;
    /* A view a script names that the table pane does not know
     * ("roofline:GEMM"); false when the document has none such. */
    bool (*show_view)(struct app *a, const char *name);
    /* Take in every view still being built behind the first screen,
     * waiting for them (a script's wait-analysis); whether anything
     * shown changed. */
    bool (*settle)(struct app *a);
};

struct app {
    struct view v;             /* what the panes see: options, search, filter, selection,
                                  focus, message line, the document's data */
    const struct doc_ops *doc; /* what the app shows (static) */
    struct app *child;         /* a view opened from this one (owned), shown instead of it
                                  and given its keys until it quits; NULL: none */
    /* What is shown. */
    struct table *views[APP_NVIEWS];      /* report tables, owned (NULL when not built) */
    char *views_err[APP_NVIEWS];          /* why a view could not be built (owned) */
    char *name;                           /* trace name for the header (owned) */
    struct timeline_breakdown bd;         /* the header's bar */
    char *load_warning;                   /* load fault shown at start (owned) */
    struct export_ui *exp;                /* the export in progress (owned), made on first use */
    struct bgviews *bg;                   /* views still being built behind the first screen, or
                                             NULL: borrowed (tui.c frees it after app_done) unless
                                             owns_bg */
    bool owns_bg;                         /* the document stops and frees bg when it closes (a view
                                             opened on top of another) */
    struct tracecache_later *cache_later; /* the trace's cache, written behind the screens
                                             (core/trace/tracecache.h); the document
                                             abandons it before freeing the trace, unless
                                             tui.c took it over */
    uint32_t roofline_asked;              /* r was pressed before the roofline was built: the event
                                             whose category to show once it is (IDX_NONE: not asked) */

    /* Screen. */
    int lines, cols;
    struct layout_cfg lcfg;
    struct layout lay;
    WINDOW *w_header, *w_message, *w_keybar, *w_overlay;
    struct pane *panes[PANE__COUNT];
    struct pane *tb;      /* the traceback view (owned), made on first use; lent to the
                             detail pane while shown */
    int source;           /* pane whose selection the detail pane shows */
    struct chrome chrome; /* where the key bar's entries were drawn */

    /* Interaction. */
    enum overlay ov;
    struct menu menu;
    struct prompt prompt;
    int help_top;         /* help overlay scroll */
    bool pressed;         /* button 1 is down (MOUSE_PRESS) */
    int press_y, press_x; /* where it went down */
    VEC(struct hist) hist;
    bool quit;
    bool back_quits;   /* Backspace with nothing to go back to quits (to the view below) */
    bool cancel_quits; /* so does Esc with nothing to cancel (a scope opened on its trace) */
    void *opened_with; /* a copy of the options the document was opened with, of the type
                          it knows (owned: its close hook frees it; NULL: none) */
};

/* Set up the app for a document: its panes, the windows and the first
 * layout (curses must be initialised). The document's close hook frees
 * what the caller put in the app (trace, analysis, views, snapshot). */
void app_init(struct app *a, const struct doc_ops *doc, bool ascii, bool headless);
void app_done(struct app *a);

/* Handle one key / one named action / one mouse event; returns reactions
 * already applied (the caller then calls app_render). */
unsigned app_key(struct app *a, int key);
unsigned app_action(struct app *a, enum action act);
unsigned app_mouse(struct app *a, int y, int x, int kind);
/* Mouse kinds for app_mouse. A press and its release are a drag when the
 * button moved within a pane that takes drags (on_drag), else a click
 * where it went down (a click held past the click interval). */
enum { MOUSE_CLICK, MOUSE_DOUBLE, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN, MOUSE_PRESS, MOUSE_RELEASE };

/* For the documents: route a pane's request (and release it), returning
 * the reactions it adds; the selection moved to pane `from` (the others
 * follow); go back one drill-in step, or quit to the view this one was
 * opened from, or say there is nothing to go back to. */
unsigned app_route(struct app *a, struct pane_request *req);
void app_selection_changed(struct app *a, struct pane *from);
unsigned app_back(struct app *a);

/* Open view `child` (set up with app_init, owned from now on) on top of
 * the top view of a: it gets the keys, the screen and the script's steps
 * until it quits (q, or Backspace with nothing to go back to), when it is
 * closed and the view below shows again. */
void app_push(struct app *a, struct app *child);
/* The view shown: a itself or the top of the views opened from it. */
struct app *app_top(struct app *a);

/* Apply reaction bits (relayout, rebuild, sync, dirty). */
void app_react(struct app *a, unsigned r);
/* Draw what is dirty and doupdate() once. */
void app_render(struct app *a);
/* The terminal size changed (KEY_RESIZE or a script's resize). */
void app_resize(struct app *a, int lines, int cols);

/* Messages on the message line. */
void app_message(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_error(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Search and filter, shared by keys and script commands. */
void app_search_set(struct app *a, const char *text);
void app_filter_set(struct app *a, const char *text);
/* Focus pane `pane` (enum pane_id); the other panes follow its selection. */
void app_focus(struct app *a, int pane);
/* Open a menu: items (n of them, owned by the menu from now on), the
 * cursor on cur; pick(a, ctx, item) runs on Enter. */
void app_open_menu(struct app *a, const char *title, char **items, int n, int cur,
                   menu_pick_fn pick, void *ctx);

/* The table slot's pane, for the feature modules: view i shows tab
 * (borrowed) instead of what it showed (a table of the same name keeps its
 * sort); the name of the view shown (NULL: no table pane); switch to a
 * view by name; sort by a column's name or title. False when there is no
 * such view / column. */
void app_table_set_table(struct app *a, int view, struct table *tab);
/* The same rows with other columns (table_pane_swap_table). */
void app_table_swap_table(struct app *a, int view, struct table *tab);
const char *app_table_view(struct app *a);
/* Put the cursor of the view shown on row `row` of its table (in the
 * order the user sorted it by); false when that row is not shown. */
bool app_table_select_row(struct app *a, size_t row);
/* The table shown and the row of it under the cursor; false when none. */
bool app_table_current_row(struct app *a, const struct table **tab, size_t *row);
bool app_table_set_view(struct app *a, const char *name);
bool app_table_sort_by(struct app *a, const char *col);

/* Take in background work that finished (symbolizer answers) and apply the
 * reactions; with wait, first wait until none is pending (script mode, so
 * that screens do not depend on timing). Returns the reactions. */
unsigned app_tick(struct app *a, bool wait);
/* Background work is pending: the key loop should come back soon. */
bool app_busy(struct app *a);

#endif

/* The explorer's dispatch: keys, actions and mouse to panes, the requests
 * they return routed, reactions, layout and the one doupdate() per turn. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/report.h"
#include "tui/frame/app.h"
#include "tui/frame/chrome.h"
#include "tui/frame/detail_pane.h"
#include "tui/frame/overlay.h"
#include "tui/frame/table_pane.h"

_Static_assert(APP_NVIEWS <= TABLE_PANE_MAX_VIEWS, "the table pane holds every report view");

const char *const app_view_names[APP_NVIEWS] = {
    "ops",       "categories",   "unique-args", "kernels",      "key-averages", "temporal",
    "idle-time", "kernel-types", "overlap",     "launch-stats", "queue-length", "memory-bw",
    "roofline",  "graphs",       "graph-nodes", "findings",     "steps",        "iterations",
};

/* Layout slot of each pane. */
static const enum layout_slot pane_slot[PANE__COUNT] = {
    [PANE_TABLE] = L_TABLE,
    [PANE_TREE] = L_TREE,
    [PANE_TIMELINE] = L_TIMELINE,
    [PANE_DETAIL] = L_DETAIL,
};

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */
/* ------------------------------------------------------------------------ */

static void vmessage(struct app *a, bool error, const char *fmt, va_list ap)
{
    vsnprintf(a->v.msg, sizeof(a->v.msg), fmt, ap);
    a->v.msg_error = error;
    a->v.dirty_chrome = true;
}

void app_message(struct app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(a, false, fmt, ap);
    va_end(ap);
}

void app_error(struct app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(a, true, fmt, ap);
    va_end(ap);
    if (!a->v.headless)
        beep();
}

/* ------------------------------------------------------------------------ */
/* Layout and drawing                                                       */
/* ------------------------------------------------------------------------ */

static WINDOW *place(WINDOW *w, const struct rect *r)
{
    if (w)
        delwin(w);
    if (r->h <= 0 || r->w <= 0)
        return NULL;
    return newwin(r->h, r->w, r->y, r->x);
}

static void all_dirty(struct app *a)
{
    for (int i = 0; i < PANE__COUNT; i++)
        a->panes[i]->dirty = true;
    a->v.dirty_chrome = true;
}

void app_resize(struct app *a, int lines, int cols)
{
    if (a->child) {
        app_resize(a->child, lines, cols);
        a->lines = lines; /* laid out again when the child is popped */
        a->cols = cols;
        return;
    }
    a->lines = lines;
    a->cols = cols;
    a->lcfg.timeline_lanes = a->doc->timeline_lines ? a->doc->timeline_lines(a) : 0;
    a->lcfg.timeline_pct = a->doc->timeline_pct;
    a->v.maximized = a->lcfg.maximized >= 0;
    a->lcfg.focus = pane_slot[a->v.focus];
    a->lcfg.header_extra = a->doc->header_extra_lines ? a->doc->header_extra_lines(a, lines) : 0;
    layout_compute(lines, cols, &a->lcfg, &a->lay);
    struct rect none = {0, 0, 0, 0};
    bool ok = !a->lay.too_small;
    a->w_header = place(a->w_header, ok ? &a->lay.r[L_HEADER] : &none);
    a->w_message = place(a->w_message, ok ? &a->lay.r[L_MESSAGE] : &none);
    a->w_keybar = place(a->w_keybar, ok ? &a->lay.r[L_KEYBAR] : &none);
    if (a->w_message)
        keypad(a->w_message, TRUE);
    for (int i = 0; i < PANE__COUNT; i++) {
        struct pane *p = a->panes[i];
        p->r = ok ? a->lay.r[pane_slot[i]] : none;
        p->win = place(p->win, &p->r);
    }
    if (a->w_overlay) {
        delwin(a->w_overlay);
        a->w_overlay = NULL;
    }
    /* A maximized pane other than the focused one makes no sense. */
    if (ok && !a->panes[a->v.focus]->win) {
        for (int i = 0; i < PANE__COUNT; i++)
            if (a->panes[i]->win) {
                app_focus(a, i);
                break;
            }
    }
    all_dirty(a);
    clearok(curscr, TRUE);
}

void app_render(struct app *a)
{
    if (a->child) {
        app_render(a->child);
        return;
    }
    if (a->lay.too_small) {
        chrome_too_small(a);
        doupdate();
        return;
    }
    for (int i = 0; i < PANE__COUNT; i++) {
        struct pane *p = a->panes[i];
        if (!p->win || !p->dirty)
            continue;
        pane_draw(p, &a->v);
        wnoutrefresh(p->win);
        p->dirty = false;
    }
    chrome_header(a);
    chrome_keybar(a);
    overlay_draw(a);
    /* The message line last: it holds the cursor while prompting. */
    chrome_message(a);
    a->v.dirty_chrome = false;
    if (!a->v.headless)
        curs_set(a->ov == OV_PROMPT ? 1 : 0);
    doupdate();
}

/* ------------------------------------------------------------------------ */
/* Selection, focus, drill-in                                               */
/* ------------------------------------------------------------------------ */

/* Selected event changed in pane `from`: move the other views. */
static void selection_changed(struct app *a, struct pane *from)
{
    if (from->id != PANE_DETAIL)
        a->source = from->id;
    struct pane *src = a->panes[a->source];
    a->v.sel = pane_current_event(src, &a->v);
    for (int i = 0; i < PANE__COUNT; i++) {
        struct pane *p = a->panes[i];
        if (p != src && p->ops->follow)
            p->ops->follow(p, &a->v, a->v.sel);
    }
    detail_pane_refresh(a->panes[PANE_DETAIL], &a->v, src);
    if (a->doc->selected)
        a->doc->selected(a, src);
}

void app_focus(struct app *a, int pane)
{
    if (pane < 0 || pane >= PANE__COUNT)
        return;
    if (a->lay.r[pane_slot[pane]].h == 0 && !a->lay.too_small) {
        /* Hidden by a maximized pane: restore the layout first. */
        a->lcfg.maximized = -1;
        a->v.focus = pane;
        app_resize(a, a->lines, a->cols);
    }
    a->panes[a->v.focus]->dirty = true;
    a->v.focus = pane;
    a->panes[pane]->dirty = true;
    a->v.dirty_chrome = true;
    if (pane != PANE_DETAIL)
        selection_changed(a, a->panes[pane]);
}

unsigned app_back(struct app *a)
{
    unsigned r = a->doc->back ? a->doc->back(a) : R_NONE;
    if (r != R_NONE)
        return r;
    if (a->back_quits) {
        a->quit = true; /* back to the view this one was opened from */
        return R_HANDLED;
    }
    app_message(a, "nothing to go back to");
    return R_HANDLED;
}

void app_selection_changed(struct app *a, struct pane *from)
{
    selection_changed(a, from);
}

/* ------------------------------------------------------------------------ */
/* Requests                                                                 */
/* ------------------------------------------------------------------------ */

/* Carry out what a pane's handler asked for and release the request.
 * Returns the reactions that adds. */
static unsigned route(struct app *a, struct pane_request *req)
{
    unsigned r = R_NONE;
    switch (req->kind) {
    case REQ_NONE:
        break;
    case REQ_BACK:
        r = app_back(a);
        break;
    case REQ_MENU:
        app_open_menu(a, req->menu.title, req->menu.items, req->menu.n, req->menu.cur,
                      req->menu.pick, req->menu.ctx);
        req->menu.items = NULL;
        req->menu.n = 0;
        break;
    default:
        if (a->doc->route)
            r = a->doc->route(a, req);
        break;
    }
    pane_request_done(req);
    return r;
}

unsigned app_route(struct app *a, struct pane_request *req)
{
    return route(a, req);
}

/* ------------------------------------------------------------------------ */
/* Search and filter                                                        */
/* ------------------------------------------------------------------------ */

static unsigned run_search(struct app *a, int dir)
{
    if (!pattern_active(&a->v.search)) {
        app_error(a, "no search yet: / starts one");
        return R_HANDLED;
    }
    struct pane *p = a->panes[a->v.focus];
    if (!p->ops->search)
        return R_HANDLED;
    struct pane_request req = {0};
    unsigned r = p->ops->search(p, &a->v, dir, &req);
    return r | route(a, &req);
}

void app_search_set(struct app *a, const char *text)
{
    char err[160];
    if (!pattern_set(&a->v.search, text, err, sizeof(err))) {
        app_error(a, "%s", err);
        return;
    }
    all_dirty(a);
    if (pattern_active(&a->v.search))
        app_react(a, run_search(a, 1));
}

void app_filter_set(struct app *a, const char *text)
{
    char err[160];
    if (!pattern_set(&a->v.filter, text, err, sizeof(err))) {
        app_error(a, "%s", err);
        return;
    }
    app_react(a, R_REBUILD | R_DIRTY_ALL | R_SYNC);
    if (pattern_active(&a->v.filter))
        app_message(a, "filter \"%s\"; F clears it", a->v.filter.text);
    else
        app_message(a, "filter cleared");
}

static void search_done(struct app *a, void *ctx, const char *text)
{
    if (!*text) {
        pattern_clear(&a->v.search);
        all_dirty(a);
        return;
    }
    app_search_set(a, text);
}

static void filter_done(struct app *a, void *ctx, const char *text)
{
    app_filter_set(a, text);
}

void app_open_menu(struct app *a, const char *title, char **items, int n, int cur,
                   menu_pick_fn pick, void *ctx)
{
    if (a->ov != OV_NONE)
        overlay_close(a);
    a->ov = OV_MENU;
    a->menu.title = xasprintf(" %s ", title);
    a->menu.items = items;
    a->menu.n = n;
    a->menu.cur = CLAMP(cur, 0, n - 1);
    a->menu.top = 0;
    a->menu.pick = pick;
    a->menu.ctx = ctx;
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                 */
/* ------------------------------------------------------------------------ */

void app_react(struct app *a, unsigned r)
{
    /* Focus moved off a maximized pane (a search, a jump, going back):
     * the layout comes back so that the focused pane, whose keys the bar
     * shows, is on screen. */
    if (a->lcfg.maximized >= 0 && !a->lay.too_small && a->lay.r[pane_slot[a->v.focus]].h == 0) {
        a->lcfg.maximized = -1;
        r |= R_RELAYOUT;
    }
    /* Short terminals (or a focus_first layout) give the focused pane the
     * height. */
    if ((a->lines < LAYOUT_FOCUS_LINES || a->lcfg.focus_first) &&
        a->lcfg.focus != (int)pane_slot[a->v.focus])
        r |= R_RELAYOUT;
    if (r & R_RELAYOUT)
        app_resize(a, a->lines, a->cols);
    if (r & R_REBUILD)
        for (int i = 0; i < PANE__COUNT; i++)
            if (a->panes[i]->ops->rebuild)
                a->panes[i]->ops->rebuild(a->panes[i], &a->v);
    if (r & R_SYNC)
        selection_changed(a, a->panes[a->v.focus]);
    if (r & R_DIRTY)
        a->panes[a->v.focus]->dirty = true;
    if (r & (R_DIRTY_ALL | R_REBUILD | R_RELAYOUT))
        all_dirty(a);
    a->v.dirty_chrome = true;
}

static unsigned global_action(struct app *a, enum action act)
{
    switch (act) {
    case A_QUIT:
        a->quit = true;
        return R_HANDLED | R_QUIT;
    case A_HELP:
        a->ov = OV_HELP;
        a->help_top = 0;
        return R_HANDLED;
    case A_CANCEL:
        if (pattern_active(&a->v.search)) {
            pattern_clear(&a->v.search);
            app_message(a, "search cleared");
        } else if (a->cancel_quits) {
            a->quit = true; /* back to the view this one was opened from */
        } else {
            a->v.msg[0] = '\0';
        }
        return R_HANDLED | R_DIRTY_ALL;
    case A_REDRAW:
        clearok(curscr, TRUE);
        return R_HANDLED | R_DIRTY_ALL;
    case A_FOCUS_NEXT:
    case A_FOCUS_PREV: {
        int f = a->v.focus;
        for (int k = 0; k < PANE__COUNT; k++) {
            f = (f + (act == A_FOCUS_NEXT ? 1 : PANE__COUNT - 1)) % PANE__COUNT;
            if (a->panes[f]->win)
                break;
        }
        app_focus(a, f);
        return R_HANDLED;
    }
    case A_FOCUS_TABLE:
        app_focus(a, PANE_TABLE);
        return R_HANDLED;
    case A_FOCUS_TREE:
        app_focus(a, PANE_TREE);
        return R_HANDLED;
    case A_FOCUS_TIMELINE:
        app_focus(a, PANE_TIMELINE);
        return R_HANDLED;
    case A_FOCUS_DETAIL:
        app_focus(a, PANE_DETAIL);
        return R_HANDLED;
    case A_MAXIMIZE: {
        int slot = pane_slot[a->v.focus];
        a->lcfg.maximized = a->lcfg.maximized == slot ? -1 : slot;
        return R_HANDLED | R_RELAYOUT;
    }
    case A_BACK:
    case A_MOVE_LEFT:
        return app_back(a);
    case A_SEARCH:
        overlay_prompt(a, "/", NULL, search_done, NULL);
        return R_HANDLED;
    case A_SEARCH_NEXT:
        return run_search(a, 1);
    case A_SEARCH_PREV:
        return run_search(a, -1);
    case A_FILTER:
        overlay_prompt(a, "filter: ", a->v.filter.text, filter_done, NULL);
        return R_HANDLED;
    case A_FILTER_CLEAR:
        app_filter_set(a, NULL);
        return R_HANDLED;
    case A_NONE:
        return R_HANDLED;
    default:
        app_message(a, "%s does nothing in the %s pane", action_name(act),
                    a->panes[a->v.focus]->ops->name);
        return R_HANDLED;
    }
}

/* The view on top of a quit: close it and show a again, with a message
 * saying where the user is back from. Returns r. */
static unsigned pop_if_done(struct app *a, unsigned r)
{
    struct app *c = a->child;
    if (!c->quit)
        return r;
    char back[160];
    snprintf(back, sizeof(back), "back from %s", c->name ? c->name : "the view");
    app_done(c);
    free(c);
    a->child = NULL;
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    app_resize(a, lines, cols);
    app_message(a, "%s", back);
    return R_HANDLED | R_DIRTY_ALL;
}

struct app *app_top(struct app *a)
{
    while (a->child)
        a = a->child;
    return a;
}

void app_push(struct app *a, struct app *child)
{
    while (a->child)
        a = a->child;
    a->child = child;
    child->back_quits = true;
}

unsigned app_action(struct app *a, enum action act)
{
    if (a->child)
        return pop_if_done(a, app_action(a->child, act));
    if (a->lay.too_small && act != A_QUIT && act != A_REDRAW)
        return R_HANDLED;
    /* A message speaks of the view it was given in. */
    if (act == A_VIEW_NEXT || act == A_VIEW_PREV) {
        a->v.msg[0] = '\0';
        a->v.dirty_chrome = true;
    }
    struct pane_request req = {0};
    unsigned r = pane_action(a->panes[a->v.focus], &a->v, act, &req);
    r |= route(a, &req);
    if (!(r & R_HANDLED) && a->doc->action)
        r = a->doc->action(a, act);
    if (!(r & R_HANDLED))
        r = global_action(a, act);
    app_react(a, r);
    return r;
}

unsigned app_key(struct app *a, int key)
{
    if (a->child)
        return pop_if_done(a, app_key(a->child, key));
    if (key == KEYF(KEY_RESIZE)) {
        int lines, cols;
        getmaxyx(stdscr, lines, cols);
        app_resize(a, lines, cols);
        return R_HANDLED | R_RELAYOUT;
    }
    if (key == KEYF(KEY_MOUSE)) {
        MEVENT me;
        if (getmouse(&me) != OK)
            return R_NONE;
        int kind = -1;
        if (me.bstate & BUTTON1_DOUBLE_CLICKED)
            kind = MOUSE_DOUBLE;
        else if (me.bstate & BUTTON1_CLICKED)
            kind = MOUSE_CLICK;
        else if (me.bstate & BUTTON1_PRESSED)
            kind = MOUSE_PRESS;
        else if (me.bstate & BUTTON1_RELEASED)
            kind = MOUSE_RELEASE;
        else if (me.bstate & BUTTON4_PRESSED)
            kind = MOUSE_WHEEL_UP;
#ifdef BUTTON5_PRESSED
        else if (me.bstate & BUTTON5_PRESSED)
            kind = MOUSE_WHEEL_DOWN;
#endif
        return kind < 0 ? R_NONE : app_mouse(a, me.y, me.x, kind);
    }
    if (a->ov != OV_NONE) {
        unsigned r = overlay_key(a, key);
        a->v.dirty_chrome = true;
        return r;
    }
    enum action act = keymap_lookup(pane_keytab(a->panes[a->v.focus], &a->v), key);
    if (act == A_NONE) {
        char name[32];
        keymap_key_name(key, name, sizeof(name));
        /* A key of another pane: say which, and how to get there. */
        static const enum action focus[PANE__COUNT] = {
            [PANE_TABLE] = A_FOCUS_TABLE,
            [PANE_TREE] = A_FOCUS_TREE,
            [PANE_TIMELINE] = A_FOCUS_TIMELINE,
            [PANE_DETAIL] = A_FOCUS_DETAIL,
        };
        for (int i = 0; i < PANE__COUNT; i++) {
            struct pane *p = a->panes[i];
            enum action other = keymap_lookup(pane_keytab(p, &a->v), key);
            char keys[48];
            if (i == a->v.focus || other == A_NONE ||
                !keymap_keys_for(PANE__COUNT, focus[i], keys, sizeof(keys)))
                continue;
            app_message(a, "%s: %s works in the %s pane (%s)", name, action_name(other),
                        p->ops->name, keys);
            return R_HANDLED;
        }
        app_message(a, "%s is not bound; ? shows the keys", name);
        return R_HANDLED;
    }
    return app_action(a, act);
}

/* A release after a press at (a->press_y, a->press_x): a drag to (y, x)
 * when the button moved within a pane that takes drags, else a click
 * where it went down. */
static unsigned mouse_release(struct app *a, int y, int x)
{
    if (!a->pressed)
        return R_NONE;
    a->pressed = false;
    int y0 = a->press_y, x0 = a->press_x;
    for (int i = 0; i < PANE__COUNT && (y != y0 || x != x0) && a->ov == OV_NONE; i++) {
        struct pane *p = a->panes[i];
        if (!p->win || !p->ops->on_drag || !rect_contains(&p->r, y0, x0) ||
            !rect_contains(&p->r, y, x))
            continue;
        if (a->v.focus != i)
            app_focus(a, i);
        struct pane_request req = {0};
        unsigned r =
            p->ops->on_drag(p, &a->v, y0 - p->r.y, x0 - p->r.x, y - p->r.y, x - p->r.x, &req);
        r |= route(a, &req);
        app_react(a, r | R_DIRTY);
        return r;
    }
    return app_mouse(a, y0, x0, MOUSE_CLICK);
}

unsigned app_mouse(struct app *a, int y, int x, int kind)
{
    if (a->child)
        return pop_if_done(a, app_mouse(a->child, y, x, kind));
    if (a->lay.too_small)
        return R_NONE;
    if (kind == MOUSE_PRESS) {
        a->pressed = true;
        a->press_y = y;
        a->press_x = x;
        return R_NONE;
    }
    if (kind == MOUSE_RELEASE)
        return mouse_release(a, y, x);
    if (a->ov == OV_HELP || a->ov == OV_MENU) {
        if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN)
            return overlay_key(a, kind == MOUSE_WHEEL_UP ? KEYF(KEY_UP) : KEYF(KEY_DOWN));
        overlay_close(a);
        return R_HANDLED;
    }
    if (rect_contains(&a->lay.r[L_KEYBAR], y, x)) {
        enum action act = chrome_keybar_action(&a->chrome, x);
        return act != A_NONE ? app_action(a, act) : R_NONE;
    }
    if (rect_contains(&a->lay.r[L_HEADER], y, x) && y >= 2 && a->doc->header_click &&
        (kind == MOUSE_CLICK || kind == MOUSE_DOUBLE)) {
        unsigned r = a->doc->header_click(a, y - 2, kind == MOUSE_DOUBLE);
        app_react(a, r);
        return r;
    }
    for (int i = 0; i < PANE__COUNT; i++) {
        struct pane *p = a->panes[i];
        if (!p->win || !rect_contains(&p->r, y, x))
            continue;
        if (a->v.focus != i)
            app_focus(a, i);
        unsigned r = R_HANDLED;
        struct pane_request req = {0};
        if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN) {
            for (int k = 0; k < 3; k++) {
                r |= pane_action(p, &a->v, kind == MOUSE_WHEEL_UP ? A_MOVE_UP : A_MOVE_DOWN, &req);
                r |= route(a, &req);
            }
        } else if (p->ops->on_click) {
            r |= p->ops->on_click(p, &a->v, y - p->r.y, x - p->r.x, kind == MOUSE_DOUBLE, &req);
            r |= route(a, &req);
        }
        app_react(a, r | R_DIRTY);
        return r;
    }
    return R_NONE;
}

unsigned app_tick(struct app *a, bool wait)
{
    if (a->child)
        return app_tick(a->child, wait);
    unsigned r = R_NONE;
    for (int i = 0; i < PANE__COUNT; i++)
        r |= pane_tick(a->panes[i], &a->v, wait);
    if (a->doc->tick)
        r |= a->doc->tick(a, wait);
    if (r)
        app_react(a, r);
    return r;
}

bool app_busy(struct app *a)
{
    if (a->child)
        return app_busy(a->child);
    for (int i = 0; i < PANE__COUNT; i++)
        if (pane_busy(a->panes[i]))
            return true;
    return a->doc->busy && a->doc->busy(a);
}

/* ------------------------------------------------------------------------ */
/* The panes, for the feature modules                                       */
/* ------------------------------------------------------------------------ */

void app_table_set_table(struct app *a, int view, struct table *tab)
{
    table_pane_set_table(a->panes[PANE_TABLE], &a->v, view, tab);
}

void app_table_swap_table(struct app *a, int view, struct table *tab)
{
    table_pane_swap_table(a->panes[PANE_TABLE], &a->v, view, tab);
}

const char *app_table_view(struct app *a)
{
    return table_pane_view(a->panes[PANE_TABLE]);
}

bool app_table_set_view(struct app *a, const char *name)
{
    return table_pane_set_view(a->panes[PANE_TABLE], &a->v, name);
}

bool app_table_select_row(struct app *a, size_t row)
{
    return table_pane_select_row(a->panes[PANE_TABLE], row);
}

bool app_table_current_row(struct app *a, const struct table **tab, size_t *row)
{
    return table_pane_current_row(a->panes[PANE_TABLE], tab, row);
}

bool app_table_sort_by(struct app *a, const char *col)
{
    return table_pane_sort_by(a->panes[PANE_TABLE], &a->v, col);
}

/* ------------------------------------------------------------------------ */
/* Lifetime                                                                 */
/* ------------------------------------------------------------------------ */

void app_init(struct app *a, const struct doc_ops *doc, bool ascii, bool headless)
{
    a->doc = doc;
    a->v.ascii = ascii;
    a->v.g = ascii ? &glyphs_ascii : &glyphs_utf8;
    a->v.headless = headless;
    a->v.sel = IDX_NONE;
    a->roofline_asked = IDX_NONE;
    a->lcfg.maximized = -1;
    a->lcfg.table_pct = 45;
    doc->open(a);
    a->panes[PANE_DETAIL] = detail_pane_new(&a->v);
    if (doc->opened)
        doc->opened(a);
    a->v.focus = PANE_TABLE;
    a->source = PANE_TABLE;
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    app_resize(a, lines, cols);
    selection_changed(a, a->panes[PANE_TABLE]);
    if (a->load_warning)
        app_error(a, "%s", a->load_warning);
    else
        app_message(a, "? shows the keys; Tab moves between panes");
}

void app_done(struct app *a)
{
    if (a->child) {
        app_done(a->child);
        free(a->child);
        a->child = NULL;
    }
    if (a->ov != OV_NONE)
        overlay_close(a);
    for (int i = 0; i < PANE__COUNT; i++)
        pane_free(a->panes[i]);
    if (a->doc->close)
        a->doc->close(a);
    if (a->w_header)
        delwin(a->w_header);
    if (a->w_message)
        delwin(a->w_message);
    if (a->w_keybar)
        delwin(a->w_keybar);
    pattern_clear(&a->v.search);
    pattern_clear(&a->v.filter);
    free(a->name);
    free(a->load_warning);
}

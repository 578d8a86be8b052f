/* Pieces shared by the views that draw their screens as text lines (the
 * diff view) and by the trees: which columns of a wide table show at a
 * horizontal scroll, the indent of deep tree rows (the diff's merged tree,
 * the explorer's call tree), and a menu drawn in place of a table (the
 * sort menu). Pure (no curses). */
#ifndef TORCHTOP_TUI_TEXTVIEW_H
#define TORCHTOP_TUI_TEXTVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"
#include "tui/frame/actions.h"

/* The continuation marks of a scrolled table: columns further right
 * ("›"), columns scrolled off to the left ("‹"). */
#define TEXTVIEW_MORE_UTF8 "\xe2\x80\xba"
#define TEXTVIEW_LESS_UTF8 "\xe2\x80\xb9"

/* The columns of a table shown at a horizontal scroll. Columns are in
 * display order, w[k] columns wide, `gap` apart; the first `fixed` always
 * show, then from fixed + *scroll on as many as fit in `cols` columns,
 * keeping 2 for the " ›" that says more follow (at least one scrolled
 * column shows, cut by the caller when wider than what is left). *scroll
 * is clamped so that the last column can be scrolled to but not past.
 * Writes the indices shown into shown[] (n entries at most) and returns
 * their count; *more says whether columns follow the last shown. */
size_t textview_plan_cols(const size_t *w, size_t n, size_t fixed, size_t *scroll, size_t cols,
                          size_t gap, size_t *shown, bool *more);

/* Indent compression of deep tree rows, so that their names keep their
 * columns at any depth: a row `levels` levels deep (of `unit` columns
 * each) drawn in `room` levels at most keeps its last levels and replaces
 * the others by a marker "·DEPTH·" (".DEPTH." in ASCII; `depth` is the
 * number shown), padded with spaces to whole levels. Writes the marker into buf ("" when every
 * level fits) and returns the levels to draw after it. The marker and the levels kept take no more
 * than room * unit columns (the marker alone may, when room is smaller than it). */
size_t textview_deep_indent(size_t levels, size_t depth, size_t room, size_t unit, bool ascii,
                            char *buf, size_t n);

/* A menu drawn in the lines of a table: a title, then numbered items, the
 * current one marked; it gets every key while open. */
struct textview_menu {
    bool open;
    char *title;  /* owned */
    char **items; /* n owned strings */
    int n;
    int cur; /* current item */
    int top; /* first item shown */
};

/* Open m on items (taken over: n strings and the array) with item cur
 * current. */
void textview_menu_open(struct textview_menu *m, const char *title, char **items, int n, int cur);
void textview_menu_close(struct textview_menu *m);

/* What a key did to an open menu. */
enum { TEXTVIEW_MENU_KEPT = -1, TEXTVIEW_MENU_CLOSED = -2 };

/* Apply a key (keymap_normalize'd) as the explorer's menus do: moves,
 * Enter or 1-9 pick (the menu closes and the item is returned), Esc, q or
 * Left close (TEXTVIEW_MENU_CLOSED); anything else keeps it open
 * (TEXTVIEW_MENU_KEPT). */
int textview_menu_key(struct textview_menu *m, int key);
/* The moves every menu shares (the explorer's overlay and this one): key
 * moves *cur among n items; returns A_ACTIVATE to pick *cur (Enter, or 1-9
 * after setting it), A_CANCEL to close (Esc, q, Left), A_NONE otherwise. */
enum action textview_menu_move(int *cur, int n, int key);

/* Append the menu in at most `lines` lines (each ending in '\n', at most
 * cols columns): its title, then the items that fit, scrolled to the
 * current one. *cursor_line gets the line of the current item, counted
 * from the first line appended. Returns the lines appended. */
int textview_menu_lines(struct textview_menu *m, struct strbuf *out, int lines, int cols,
                        bool ascii, int *cursor_line);

#endif

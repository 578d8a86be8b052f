/* The cursor and scroll arithmetic every list pane shares: n rows shown
 * in `height` lines, a cursor row and the first row shown. Pure (no
 * curses), unit-tested. */
#ifndef TORCHTOP_TUI_LISTVIEW_H
#define TORCHTOP_TUI_LISTVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/frame/actions.h"

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

#endif

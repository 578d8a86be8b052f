/* Pieces the panes share: the indent of deep tree rows (the diff's
 * merged tree, the explorer's call tree) and the keys of a menu (the
 * overlay's). Pure (no curses). */
#ifndef TORCHTOP_TUI_TEXTVIEW_H
#define TORCHTOP_TUI_TEXTVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/frame/actions.h"

/* Indent compression of deep tree rows, so that their names keep their
 * columns at any depth: a row `levels` levels deep (of `unit` columns
 * each) drawn in `room` levels at most keeps its last levels and replaces
 * the others by a marker "·DEPTH·" (".DEPTH." in ASCII; `depth` is the
 * number shown), padded with spaces to whole levels. Writes the marker into buf ("" when every
 * level fits) and returns the levels to draw after it. The marker and the levels kept take no more
 * than room * unit columns (the marker alone may, when room is smaller than it). */
size_t textview_deep_indent(size_t levels, size_t depth, size_t room, size_t unit, bool ascii,
                            char *buf, size_t n);

/* The moves of a menu: key moves *cur among n items; returns A_ACTIVATE
 * to pick *cur (Enter, or 1-9 after setting it), A_CANCEL to close (Esc,
 * q, Left), A_NONE otherwise. */
enum action textview_menu_move(int *cur, int n, int key);

#endif

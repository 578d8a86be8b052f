/* Putting text into curses windows. Everything goes through text_fit, so
 * untrusted bytes never reach the terminal and nothing writes past the
 * given width. */
#ifndef TORCHTOP_TUI_DRAW_H
#define TORCHTOP_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/frame/colors.h"

/* Draw s[0..n) at (y, x) in exactly `width` columns (cut and padded),
 * in the middle-cut style when middle is set, right-aligned when right is.
 * Returns the columns of text (without padding). */
int draw_fit(WINDOW *w, int y, int x, int width, const char *s, size_t n, bool middle, bool right,
             attr_t attr, bool ascii);
/* Same for a NUL-terminated string, not padded: draws at most width
 * columns and returns the columns drawn. */
int draw_str(WINDOW *w, int y, int x, int width, const char *s, attr_t attr, bool ascii);
/* Text the program wrote itself (trusted, already fitted): no cleaning. */
void draw_raw(WINDOW *w, int y, int x, const char *s, attr_t attr);
/* Fill width columns with spaces. */
void draw_blank(WINDOW *w, int y, int x, int width, attr_t attr);

/* One part of a stacked bar: its share (0-1), name, glyph and colour. */
struct bar_part {
    double share;
    const char *name;
    const char *glyph;
    enum color_elem elem;
};

/* A stacked bar on row y across cols columns: " LABEL [████▒▒░░]" with the
 * parts' cells rounded to add up to the bar, then "█name 12.3%" for each
 * part when there is room (at least 10 columns of bar beside them). */
void draw_stacked_bar(WINDOW *w, int y, int cols, const char *label, const struct bar_part *parts,
                      int nparts);

#endif

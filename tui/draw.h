/* Putting text into curses windows. Everything goes through text_fit, so
 * untrusted bytes never reach the terminal and nothing writes past the
 * given width. */
#ifndef TORCHTOP_TUI_DRAW_H
#define TORCHTOP_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/colors.h"

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

#endif

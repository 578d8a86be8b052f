/* Terminal text for the explorer: column-exact fitting of untrusted names
 * (on top of core/base/display.h), ASCII fallback, glyph sets and number and
 * duration formatting. Pure: no curses.
 *
 * Every string that reaches a pane goes through text_fit() or text_clean(),
 * so control bytes and escape sequences are shown escaped and widths are
 * terminal columns, never bytes. In ASCII mode (a non-UTF-8 locale or
 * --ascii) every non-ASCII character becomes '?' (a few common ones get an
 * ASCII look-alike: µ -> u, … -> ~, × -> x). */
#ifndef TORCHTOP_TUI_TEXT_H
#define TORCHTOP_TUI_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"

/* Glyphs used by the panes; one set for UTF-8 terminals, one for ASCII. */
struct glyphs {
    const char *ellipsis;     /* cut marker */
    const char *tree_vert;    /* "│ " guide of an ancestor with later siblings */
    const char *tree_tee;     /* "├─" child with later siblings */
    const char *tree_end;     /* "└─" last child */
    const char *expanded;     /* node shown open */
    const char *collapsed;    /* node with hidden children */
    const char *leaf;         /* node without children */
    const char *sort_desc;    /* sort marker, descending */
    const char *sort_asc;     /* sort marker, ascending */
    const char *vline;        /* pane separator */
    const char *times;        /* "×" of grouped siblings */
    const char *levels[9];    /* occupancy 0/8 .. 8/8 (timeline) */
    const char *bar_start;    /* timeline: first column of a bar right after another */
    const char *crit_wait;    /* timeline: an idle column on the critical path */
    const char *shade_comm;   /* timeline/bar glyph of exposed communication */
    const char *shade_memcpy; /* timeline/bar glyph of exposed memcpy */
    const char *shade_idle;   /* header bar glyph of idle time */
    const char *full;         /* full cell (bars) */
    const char *cursor;       /* timeline selection marker on the axis */
    const char *tick;         /* axis tick */
    const char *axis;         /* axis line */
    const char *mu;           /* micro sign in units */
    const char *more_left;    /* columns continue to the left (scrolled off) */
    const char *more_right;   /* columns continue to the right */
};

extern const struct glyphs glyphs_utf8;
extern const struct glyphs glyphs_ascii;

/* Append s[0..n) made safe for the terminal (display_sanitize), and in
 * ascii mode reduced to ASCII. */
void text_clean(struct strbuf *out, const char *s, size_t n, bool ascii);
/* Columns taken by text_clean output. */
size_t text_width(const char *clean, size_t n);
/* Append s[0..n), cleaned and cut to at most `width` columns: in the middle
 * when middle is set, else at the end, with the ellipsis marking the cut.
 * Returns the columns written. */
size_t text_fit(struct strbuf *out, const char *s, size_t n, size_t width, bool middle, bool ascii);
/* text_fit padded with spaces to exactly `width` columns; right-aligned
 * when right is set. */
void text_fit_pad(struct strbuf *out, const char *s, size_t n, size_t width, bool middle,
                  bool right, bool ascii);
/* Append `cols` spaces. */
void text_pad(struct strbuf *out, size_t cols);

/* Split cleaned text into lines of at most `width` columns (by characters;
 * a double-width character never straddles a line). Writes up to max byte
 * offsets of line starts into starts and returns the line count (at least
 * one; at most max, the last line then holding the rest). */
size_t text_wrap(const char *clean, size_t n, size_t width, size_t *starts, size_t max);

/* Durations with a unit picked by size, at most 9 columns: "812 ns",
 * "3.20 µs", "94.31 ms", "1.211 s". Negative means "none": "-". */
void text_duration(char *buf, size_t n, int64_t ns, bool ascii);
/* Percent with one decimal ("46.3%"), "-" when not finite. */
void text_percent(char *buf, size_t n, double pct);
/* Integer with thin grouping ("117,693"). */
void text_count(char *buf, size_t n, uint64_t v);
/* Bytes as "61.0 MB". */
void text_bytes(char *buf, size_t n, uint64_t bytes);

#endif

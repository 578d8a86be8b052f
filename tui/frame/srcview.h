/* Source preview: a source file around a line, scrollable, the line
 * marked. Files named by traces and snapshots are untrusted paths: they
 * are only ever open(2)ed and read (never handed to a shell), only when
 * they are regular files, at most SRCVIEW_MAX_BYTES of them, and every
 * line is made safe for the terminal (core/base/display.h) with tabs expanded. */
#ifndef TORCHTOP_TUI_SRCVIEW_H
#define TORCHTOP_TUI_SRCVIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/base/vec.h"
#include "tui/frame/actions.h"

struct view;

/* What is read of a file; the rest is left out (and said so). */
#define SRCVIEW_MAX_BYTES (4u << 20)
#define SRCVIEW_TAB 8

struct srcview {
    char *path;         /* as given (owned) */
    int64_t line;       /* marked line, 1-based; 0 = none */
    struct strbuf text; /* the lines, cleaned, one after another */
    VEC(uint32_t) off;  /* nlines + 1 offsets into text */
    bool cut;           /* the file is longer than what was read */
    char *note;         /* a line shown under the title (owned), or NULL */
    size_t top;         /* first line shown (0-based) */
    bool listing;       /* text is a message, not the file: no line numbers */
};

void srcview_init(struct srcview *sv);
void srcview_done(struct srcview *sv);
static inline size_t srcview_lines(const struct srcview *sv)
{
    return sv->off.n ? sv->off.n - 1 : 0;
}

/* Split buf[0..n) into lines (LF or CRLF), expanding tabs to SRCVIEW_TAB
 * columns and cleaning each line (text_clean; ASCII only when ascii).
 * Replaces what sv held. */
void srcview_set_text(struct srcview *sv, const char *buf, size_t n, bool ascii);

/* Read path (at most SRCVIEW_MAX_BYTES) into sv with line marked. Returns
 * false with why filled (an errno text, "not a regular file", "a binary
 * file") when it cannot be shown; sv is then empty. */
bool srcview_open(struct srcview *sv, const char *path, int64_t line, bool ascii, char *why,
                  size_t whyn);

/* The first line (1-based) holding text, 0 when none. */
int64_t srcview_find(const struct srcview *sv, const char *text);

/* First line (0-based) to show in a window of `height` lines so that the
 * 1-based `line` sits a third of the way down (clamped to the file);
 * line 0 gives 0. */
size_t srcview_top_for(size_t nlines, int64_t line, int height);

/* Draw the lines from sv->top into rows [y, y + h) of w, `width` columns
 * from x: a gutter of line numbers, the marked line flagged. */
void srcview_draw(struct srcview *sv, struct view *a, WINDOW *w, int y, int x, int h, int width,
                  bool focused);
/* Scroll for a movement action in a window of `height` lines; false when
 * act is not one. */
bool srcview_action(struct srcview *sv, enum action act, int height);

#endif

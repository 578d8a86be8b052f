/* Making untrusted text safe and measurable for a terminal or a text file.
 *
 * Names in traces are untrusted: they may hold escape sequences, control
 * bytes, invalid UTF-8, bidirectional overrides and double-width
 * characters. display_sanitize() turns any byte string into UTF-8 that is
 * safe to print: C0/C1 controls and DEL become visible escapes ("\x1b"),
 * invalid bytes become U+FFFD, bidi controls become "<U+202E>". Widths are
 * terminal columns (wcwidth under the current LC_CTYPE; call
 * setlocale(LC_CTYPE, "") first for UTF-8 terminals). */
#ifndef TORCHTOP_CORE_DISPLAY_H
#define TORCHTOP_CORE_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"

/* Append the sanitized form of s[0..n) to out. */
void display_sanitize(struct strbuf *out, const char *s, size_t n);
/* Columns taken by already-sanitized UTF-8 text. */
size_t display_width(const char *s, size_t n);
/* Append sanitized s, cut to at most `width` columns: in the middle
 * ("at::native::vec…Functor<float>") when middle is set, else at the end,
 * with "…" (or "~" when ascii) marking the cut. Returns columns written. */
size_t display_fit(struct strbuf *out, const char *s, size_t n, size_t width, bool middle,
                   bool ascii);

#endif

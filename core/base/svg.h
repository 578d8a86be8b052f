/* SVG documents: escaping untrusted text into XML, the document frame, and
 * writing the result whole (core/base/outfile.h). */
#ifndef TORCHTOP_CORE_SVG_H
#define TORCHTOP_CORE_SVG_H

#include <stddef.h>

#include "core/base/errinfo.h"
#include "core/base/strbuf.h"

/* Append s[0..n) as XML character data or attribute text: first made safe
 * as display_sanitize() does (controls become visible escapes, invalid
 * UTF-8 becomes U+FFFD), then U+FFFE/U+FFFF (not allowed in XML) become
 * U+FFFD and & < > " ' become entities. */
void svg_escape(struct strbuf *out, const char *s, size_t n);

/* The opening of a standalone SVG document of width x height pixels, with
 * a white background and `title` (escaped) as its <title>; and its end. */
void svg_begin(struct strbuf *out, int width, int height, const char *title);
void svg_end(struct strbuf *out);

/* Write svg to path through an outfile (atomic; "-" is standard output).
 * Returns ST_OK, or ST_IO with err filled and errno at the reason. */
enum status svg_save(const char *path, const struct strbuf *svg, struct errinfo *err);

#endif

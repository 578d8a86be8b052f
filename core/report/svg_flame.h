/* Interactive flame graphs as self-contained SVG (docs/metrics.md §13.3):
 * drawn from folded stack lines (core/symbols/folded.h), root at the
 * bottom, one box per frame of the merged call tree, siblings in name
 * order, widths proportional to the lines' values. Hovering a box shows
 * its name, value and share (<title>); clicking it zooms to it (inline
 * script; viewers without scripts show the whole graph). */
#ifndef TORCHTOP_CORE_SVG_FLAME_H
#define TORCHTOP_CORE_SVG_FLAME_H

#include <stddef.h>

#include "core/base/strbuf.h"

/* Width of the drawing and of its margins, in pixels. Frames narrower than
 * SVG_FLAME_MIN_PX are left out (with their callees), as flamegraph.pl
 * does, and counted in a line under the title. */
#define SVG_FLAME_WIDTH 1200
#define SVG_FLAME_MARGIN 10
#define SVG_FLAME_MIN_PX 0.1

/* Append the flame graph of folded[0..n) ("a;b;c 123" lines; lines that do
 * not end in a count are skipped) to out. title is shown above the graph;
 * unit names the values ("µs"). Frame names are escaped for XML. */
void svg_flame_render(struct strbuf *out, const char *folded, size_t n, const char *title,
                      const char *unit);

#endif

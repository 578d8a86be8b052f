/* The diff view's detail of its selection, both sides: for a name of the
 * per-name table, its events in the steps compared on each side (count,
 * CPU and GPU time, the input shapes seen most, the kernels under it with
 * their times, the roofline line of an instance with a perf model); for a
 * merged node (tree, LCA), the event of each side the same way; for a row
 * of a joined table, every cell. docs/metrics.md §12.3. */
#ifndef TORCHTOP_TUI_DIFFDETAIL_H
#define TORCHTOP_TUI_DIFFDETAIL_H

#include "core/base/strbuf.h"
#include "tui/diff/diffview.h"

/* Append the detail of dv's selection as lines of at most `width`
 * columns, each ending in '\n', text from the traces sanitized. Builds
 * each side's analysis the first time an op with a perf model is shown. */
void diffdetail_text(struct diffview *dv, struct strbuf *out, int width);

#endif

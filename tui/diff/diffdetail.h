/* Both sides' detail of a trace diff's selection, for the detail pane:
 * for a name of the per-name table, its events in the steps compared on
 * each side (count, CPU and GPU time, the input shapes seen most, the
 * kernels under it with their times, the roofline line of an instance
 * with a perf model); for a merged node (tree, LCA), the event of each
 * side the same way. docs/metrics.md §12.3. */
#ifndef TORCHTOP_TUI_DIFFDETAIL_H
#define TORCHTOP_TUI_DIFFDETAIL_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/diff/diffdata.h"

struct detail_out;

/* Append the detail of name `name` (as the per-name table has it) or of
 * merged node `node`. Builds each side's roofline the first time an op
 * with a perf model is shown. */
void diffdetail_name(struct detail_out *d, struct diffdata *dd, const char *name, bool ascii);
void diffdetail_node(struct detail_out *d, struct diffdata *dd, uint32_t node, bool ascii);

#endif

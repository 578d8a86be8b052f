#!/bin/sh
# Timeline: a compute and a communication stream, zoom, pan, step through
# events, select in the tree, jump to the selection; help overlay and
# maximizing a pane; zooming in on epoch timestamps.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
run_script timeline "$TRACES/hta-nccl-a100-2rank-rank0.json.gz" <<'STEPS'
focus-timeline
save-display timeline-open.txt
+
+
+
]
]
]
save-display timeline-zoomed.txt
<Enter>
expect selected in the call tree
<Down>
]
[
-
zoom-fit
focus-tree
hot-path
focus-timeline
zoom-selection
save-display timeline-selection.txt
H
L
M
save-display timeline-maximized.txt
M
help
save-display timeline-help.txt
<PgDn>
q
expect timeline lane
STEPS
# Epoch timestamps (ns since 1970): zoomed in on a 29 us aten::mm, its CPU
# lane stays solid down to 1 ns per column, and both ends of the view differ.
run_script timeline-epoch "$TRACES/param-dlrm-v100-8rank-rank0.pt.trace.json" --size 100x24 <<'STEPS'
focus-timeline
keys + + + + + + + + + + +
save-display timeline-epoch.txt
keys + + + + + + + + + +
expect zoomed in to 1 ns per column, the finest
expect (1 ns/col)
STEPS
check_screen timeline-open.txt
check_screen timeline-epoch.txt
check_screen timeline-zoomed.txt
check_screen timeline-selection.txt
check_screen timeline-maximized.txt
check_screen timeline-help.txt
finish

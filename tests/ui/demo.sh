#!/bin/sh
# With no trace, the explorer opens the bundled synthetic demo (no shared
# data needed).
. "${top_srcdir:-.}/tests/ui/lib.sh"
run_script demo "" <<'STEPS'
save-display demo-open.txt
focus-tree
group
hot-path
save-display demo-hot-path.txt
focus-timeline
expect GPU0 s7
STEPS
check_screen demo-open.txt
check_screen demo-hot-path.txt
finish

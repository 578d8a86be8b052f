#!/bin/sh
# Focus never lands on a pane a maximized pane hides (issue 14, point 3):
# Enter on a line of the maximized detail pane selects the event in the
# call tree, and the layout comes back with the tree focused and on screen.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
traces=$(cd "$TRACES" && pwd)
run_script focus "$traces/tracelens-h100-owlv2-infer-large.json.gz" --size 140x42 <<'STEPS'
<F5>
M
expect Detail (table)
search SoftMaxForward
<Enter>
expect selected in the call tree
expect  Call tree
expect  Timeline
save-display focus-restored.txt
STEPS
check_screen focus-restored.txt
run_script focus80 "$traces/tracelens-h100-owlv2-infer-large.json.gz" --size 80x24 <<'STEPS'
<F5>
M
search SoftMaxForward
<Enter>
expect  Call tree
save-display focus-restored-80x24.txt
STEPS
check_screen focus-restored-80x24.txt
finish

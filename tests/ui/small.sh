#!/bin/sh
# Small terminals (issue 14, point 9): at 80x24 the focused pane gets the
# height (the op table shows its top rows, the tree its rows when focused)
# and the key bar keeps ?:Help and q:Quit whatever pane is focused.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
traces=$(cd "$TRACES" && pwd)
run_script small "$traces/tracelens-h100-owlv2-infer-large.json.gz" --size 80x24 <<'STEPS'
expect aten::native_layer_norm
expect ?:Help
expect q:Quit
save-display small-table.txt
focus-tree
hot-path
expect ?:Help
expect q:Quit
save-display small-tree.txt
focus-detail
expect q:Quit
STEPS
check_screen small-table.txt
check_screen small-tree.txt
finish

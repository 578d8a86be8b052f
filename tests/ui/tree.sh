#!/bin/sh
# Call tree: hot path, Python frames hidden, identical siblings grouped,
# open all and page through, search with n/N, filter, drill in from the
# table and back, mouse; from the detail pane to the events it names;
# deep stacks at 80x24 and 140x42 with their names readable.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
run_script tree "$TRACES/tracelens-h100-bert-small-infer.json.gz" <<'STEPS'
focus-tree
save-display tree-roots.txt
hot-path
save-display tree-hot-path.txt
collapse-all
hide-python
group
hot-path
save-display tree-grouped-hot-path.txt
collapse-all
expand-all
page-down
page-down
save-display tree-expanded-paged.txt
G
expect tree 720/720
g
search layer_norm
save-display tree-search.txt
n
n
N
search ^aten::(add|gelu)$
expect match
filter gelu
save-display tree-filter.txt
filter
# Drill in: the table's first row (aten::addmm) shows its 26 instances.
focus-table
<Enter>
save-display tree-drilled.txt
expect instances of aten::addmm (26)
back
expect table 1/10
# Mouse: focus the tree with a click on its second row (screen line 14 at
# 100x30, below the header's three finding lines), open it with a double-click.
focus-tree
collapse-all
focus-table
click 3 14
expect tree 2/
double-click 3 14
save-display tree-mouse.txt
wheel-down 3 14
expect tree 3/3
wheel-up 3 14
expect tree 1/3
h
expect nothing to go back to
STEPS
# Detail lines that name an event (parents, launched GPU work) select it
# in the tree on Enter or a click; Backspace comes back.
run_script tree-links "$TRACES/tracelens-h100-bert-small-infer.json.gz" --size 120x40 <<'STEPS'
focus-tree
s
expect s: sort-menu works in the table pane (<F2>)
hot-path
focus-detail
search Parents
<Enter>
expect Enter selects the event a line names
j
<Enter>
expect selected in the call tree; Backspace goes back
save-display tree-detail-link.txt
<BS>
expect detail line 1/77
click 100 25
expect selected in the call tree; Backspace goes back
expect aten::_flash_attention_forward
expect tree 78/106
STEPS
# Deep Python stacks (the OWL-ViT inference, 20-26 levels here) at 80x24
# and 140x42: rows deeper than the guides' room show their depth
# ("·22·") and their last levels' guides, so their names keep the column.
for size in 80x24 140x42; do
    run_script "tree-deep-$size" "$TRACES/tracelens-h100-owlv2-infer-large.json.gz" \
        --size $size <<STEPS
focus-tree
expand-all
maximize
page-down
page-down
page-down
page-down
page-down
page-down
save-display tree-deep-$size.txt
STEPS
    check_screen "tree-deep-$size.txt"
done
grep -q "·2[0-9]· *[│ ]*[├└]─. <frozen os>(808): getenv" "$tmp/tree-deep-80x24.txt" ||
    fail "tree-deep-80x24: getenv's row (depth 21) is not readable after its depth"
check_screen tree-roots.txt
check_screen tree-hot-path.txt
check_screen tree-grouped-hot-path.txt
check_screen tree-expanded-paged.txt
check_screen tree-search.txt
check_screen tree-filter.txt
check_screen tree-drilled.txt
check_screen tree-mouse.txt
check_screen tree-detail-link.txt
finish

#!/bin/sh
# The largest shared trace: sort by GPU time, hot path with grouping,
# search, switch views, resize.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
run_script large "$TRACES/tracelens-h100-owlv2-infer-large.json.gz" <<'STEPS'
sort-by subtree ms
sort-by direct ms
save-display large-open.txt
focus-tree
group
hide-python
hot-path
save-display large-hot-path.txt
search bmm
expect match
n
save-display large-search.txt
focus-table
view unique-args
save-display large-unique-args.txt
<Enter>
expect Call tree
resize 120x40
save-display large-120x40.txt
STEPS
check_screen large-open.txt
check_screen large-hot-path.txt
check_screen large-search.txt
check_screen large-unique-args.txt
check_screen large-120x40.txt
finish

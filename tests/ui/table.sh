#!/bin/sh
# Op table: open a trace, sort by GPU time and by other columns (keys,
# sort menu, header click), reverse, switch views, show all columns,
# filter and search.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
run_script table "$TRACES/tracelens-h100-bert-small-infer.json.gz" <<'STEPS'
save-display table-open.txt
# Sort by count with the digit key, then back to GPU time by name.
4
expect sort count ▼
sort-by direct ms
sort-reverse
save-display table-sorted-asc.txt
S
# The sort menu numbers the visible columns as the digit keys do: pick
# "count" (4th) with the keys, then "category" (5th) with its digit.
s
save-display table-sort-menu.txt
<Down>
<Down>
<Enter>
expect sort count ▼
s
5
expect sort category ▲
# A click on a column header sorts by it.
click 45 6
expect sort subtree ms ▼
# Wide text columns make room for the count and the sort column.
view unique-args
resize 140x30
save-display table-unique-args.txt
resize 100x30
view kernels
save-display table-kernels.txt
v
expect key-averages: Key averages
w
save-display table-keyavg-all.txt
]
]
expect CPU total (us)
V
V
V
expect categories: GPU time by op category
search elementwise
expect elementwise
view ops
filter layer_norm
save-display table-filtered.txt
filter
expect filter cleared
STEPS
check_screen table-open.txt
check_screen table-sorted-asc.txt
check_screen table-sort-menu.txt
check_screen table-unique-args.txt
check_screen table-kernels.txt
check_screen table-keyavg-all.txt
check_screen table-filtered.txt
finish

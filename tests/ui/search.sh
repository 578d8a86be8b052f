#!/bin/sh
# Every search says which match of how many, and n/N say when they wrap:
# the call tree, the timeline (which searches the tree), a traceback, the
# detail pane, a snapshot's live allocations. The counts are the trace's
# events whose names hold the text, ignoring case as a lowercase search
# does (layer_norm: 20 ops, 20 Python functions, 10 kernels; gelu: 5 ops,
# 10 Python functions, 5 kernels; aten::gelu: 5), as Python's json counts
# them.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared

run_script search-tree "$TRACES/tracelens-h100-bert-small-infer.json.gz" --size 140x42 <<'STEPS'
focus-tree
search layer_norm
expect /layer_norm: match 1 of 50
n
expect /layer_norm: match 2 of 50
N
expect /layer_norm: match 1 of 50
N
expect /layer_norm: match 50 of 50 (wrapped)
save-display search-tree.txt
search ^aten::gelu$
expect /^aten::gelu$: match 1 of 5
n
n
n
n
expect /^aten::gelu$: match 5 of 5
n
expect /^aten::gelu$: match 1 of 5 (wrapped)
focus-timeline
search gelu
expect /gelu: match
expect of 20
save-display search-timeline.txt
STEPS
check_screen search-tree.txt
check_screen search-timeline.txt

run_script search-panes "$TRACES/tracelens-h100-bert-small-infer.json.gz" --size 140x42 <<'STEPS'
view kernels
t
M
search module
expect : match 1 of
n
expect : match 2 of
save-display search-traceback.txt
t
focus-detail
search total
expect /total: match 1 of
save-display search-detail.txt
STEPS
check_screen search-traceback.txt
check_screen search-detail.txt

run_script search-snap "$SHARED/snapshots/traces_cpp_py_frames.pickle" --size 140x42 <<'STEPS'
focus-tree
search optimizer
expect /optimizer: match 2 of 222 (allocation 2 of 447)
N
expect /optimizer: match 1 of 222 (allocation 1 of 447)
N
expect (wrapped)
save-display search-snap.txt
focus-table
view sites
search optimizer.py:78
expect /optimizer.py:78: match 1 of
STEPS
check_screen search-snap.txt
finish

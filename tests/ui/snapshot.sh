#!/bin/sh
# Memory snapshots in the explorer: a shared snapshot with C++, Python and
# Inductor frames opens in the memory views; jump to the peak, the largest
# allocation live there and its traceback, the allocation sites grouped by
# their top frames, the segments map, the chart moved by keys; a snapshot of
# two devices switched with d; a snapshot without trace entries.
. "${top_srcdir:-.}/tests/ui/lib.sh"
SNAPS="$SHARED/snapshots"
if [ ! -d "$SNAPS" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "FAIL: $SNAPS is missing; CI needs ../shared beside the checkout"
        exit 1
    fi
    echo "SKIP: $SNAPS not found (these sessions run on the shared snapshots)"
    exit 77
fi

run_script snap "$SNAPS/traces_cpp_py_frames.pickle" --size 120x40 <<'STEPS'
save-display snap-open.txt
p
expect peak: 3.85 GB allocated after entry 1843
focus-tree
expect memory 1/455
t
save-display snap-peak-traceback.txt
expect Traceback (memory): 154.4 MB allocation
expect frame 1/34
a
expect frame 1/51
G
<Enter>
expect no source location recorded for this native frame
a
search fake_train
<Enter>
expect cannot show /home/brian/Desktop/
t
focus-tree
v
save-display snap-map.txt
v
focus-table
view sites
D
D
expect sites grouped by their top 2 frames
save-display snap-sites.txt
focus-timeline
o
expect no out-of-memory events
g
]
]
expect chart 3/6486
[
expect cursor 1: alloc
l
expect chart 117/6486
+
+
expect entries 88..1709 of 6486
save-display snap-chart.txt
<Enter>
expect Traceback (chart): entry 116, alloc
STEPS
check_screen snap-open.txt
check_screen snap-peak-traceback.txt
check_screen snap-map.txt
check_screen snap-sites.txt
check_screen snap-chart.txt

run_script snap2 "$SNAPS/tiny_2dev_expandable.pickle" <<'STEPS'
expect cuda:0 (1 of 2)
d
expect device cuda:1
focus-timeline
expect no trace entries on this device
p
expect memory history was not recorded
focus-tree
expect live: 1 allocation, 8.5 MB on cuda:1 at snapshot time
STEPS
finish

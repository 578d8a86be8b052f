#!/bin/sh
# Memory snapshots in the explorer: a shared snapshot with C++, Python and
# Inductor frames opens in the memory views; jump to the peak, the largest
# allocation live there and its traceback, the allocation sites grouped by
# their top frames (the allocator's own frames skipped, the sort kept),
# the segments map (the final state at the last entry, the state at the
# cursor's entry at the peak), the chart moved by keys; a snapshot of two devices
# switched with d; a snapshot without trace entries; a crafted one with
# out-of-memory events (o goes from one to the next).
. "${top_srcdir:-.}/tests/ui/lib.sh"
SNAPS="$SHARED/snapshots"

# The shared snapshots; without ../shared only the crafted one below runs.
if [ ! -d "$SNAPS" ]; then
    [ "${CI:-}" = "true" ] && fail "$SNAPS is missing; CI needs ../shared beside the checkout"
    echo "note: $SNAPS not found; the shared snapshots' sessions were skipped"
else
run_script snap "$SNAPS/traces_cpp_py_frames.pickle" --size 120x40 <<'STEPS'
save-display snap-open.txt
focus-tree
v
expect map, final state: 96 segments, 4.24 GB reserved, 3.07 GB allocated
v
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
expect map at entry 1843 of 6486: 96 segments, 4.24 GB reserved, 3.86 GB allocated
expect 0x737a18000000  155.2 MB [█████████████████████████████████████████]    2 blk
save-display snap-map.txt
v
focus-table
view sites
sort-by allocs
D
D
expect sites grouped by their top 2 frames
expect allocs▼
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
expect chart 119/6486
+
+
expect of 6486  cursor 118: alloc
save-display snap-chart.txt
<Enter>
expect Traceback (chart): entry 118, alloc
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
fi

: "${PYTHON3:=python3}"
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && fail "python3 is needed"
    echo "note: python3 not found; the out-of-memory session was skipped"
    finish
fi
"$PYTHON3" - "$tmp/oom.pickle" <<'EOF'
import pickle
import sys

MB = 1 << 20


def frame(name, filename, line):
    return {"name": name, "filename": filename, "line": line}


def entry(action, addr, size, t, frames=()):
    return {"action": action, "addr": addr, "size": size, "stream": 0,
            "time_us": 1700000000000000 + t, "frames": list(frames)}


step = [frame("step", "train.py", 40), frame("<module>", "train.py", 90)]
grow = [frame("grow", "train.py", 12), frame("<module>", "train.py", 91)]
base = 0x7F0000000000
trace0 = [
    entry("segment_alloc", base, 20 * MB, 0),
    entry("alloc", base, 4 * MB, 100, step),
    entry("alloc", base + 4 * MB, 8 * MB, 200, grow),
    entry("oom", 0, 64 * MB, 300, grow),
    entry("free_requested", base, 4 * MB, 400, step),
    entry("free_completed", base, 4 * MB, 410, step),
    entry("oom", 2 * MB, 32 * MB, 500, grow),
    entry("alloc", base + 12 * MB, 2 * MB, 600, step),
]
blocks = [
    {"address": base, "size": 4 * MB, "requested_size": 4 * MB, "state": "inactive",
     "frames": []},
    {"address": base + 4 * MB, "size": 8 * MB, "requested_size": 8 * MB,
     "state": "active_allocated", "frames": grow},
    {"address": base + 12 * MB, "size": 2 * MB, "requested_size": 2 * MB,
     "state": "active_allocated", "frames": step},
    {"address": base + 14 * MB, "size": 6 * MB, "requested_size": 6 * MB, "state": "inactive",
     "frames": []},
]
segment = {"device": 0, "address": base, "total_size": 20 * MB, "allocated_size": 10 * MB,
           "active_size": 10 * MB, "requested_size": 10 * MB, "stream": 0,
           "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False,
           "frames": [], "blocks": blocks}
with open(sys.argv[1], "wb") as f:
    pickle.dump({"segments": [segment], "device_traces": [trace0]}, f, protocol=4)
EOF
run_script oom "$tmp/oom.pickle" <<'STEPS'
expect 2 OOM
focus-timeline
o
expect out of memory at entry 3: 67.1 MB asked for, 0 B free on the device
save-display snap-oom.txt
o
expect out of memory at entry 6: 33.6 MB asked for, 2.1 MB free on the device
o
expect out of memory at entry 3
focus-tree
expect live: 2 allocations, 12.6 MB on cuda:0 after entry 3 of 8
v
save-display snap-oom-map.txt
STEPS
check_screen snap-oom.txt
check_screen snap-oom-map.txt
finish

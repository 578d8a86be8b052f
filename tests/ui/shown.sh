#!/bin/sh
# What the first screens say about GPU time, ranks and devices, on the
# shared traces:
#  - the op table's rows for the GPU time no op row counts (unlinked work,
#    communication kernels), so that % is of all GPU time;
#  - the header's GPU busy time (union of GPU work) beside its span;
#  - the call tree's roots adding to 100 % where threads' GPU work
#    overlaps, and the unlinked-work root counting its unlinked events;
#  - the job view naming the straggler as -t stragglers does (the 8
#    param-dlrm ranks: rank 7), the slowest rank by step time labelled as
#    such, collectives named from their NCCL kernels;
#  - the diff view noting that an A100 trace and a V100 trace ran on
#    different devices.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
traces=$(cd "$TRACES" && pwd)

run_script shown-ops "$traces/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz" --size 140x42 <<'STEPS'
expect GPU busy 84.00 ms of span 86.57 ms
expect (communication kernels)
expect (GPU work with no launching op)
save-display shown-ops.txt
focus-tree
keys G
expect unlinked     5 of the row's 29 events
save-display shown-tree.txt
STEPS
# The roots' shares add to 100 % (rounding aside): 7.5 + 56.3 + 8.5 +
# 27.6, where against the union of GPU work they added to 104.8 %.
if [ -f "$tmp/shown-tree.txt" ]; then
    sum=$(grep -E '^▸ (thread|unlinked)' "$tmp/shown-tree.txt" | grep -oE '[0-9.]+%│$' |
        tr -d '%│' | awk '{s += $1} END {printf "%.1f", s}')
    [ "$sum" = "99.9" ] || [ "$sum" = "100.0" ] || [ "$sum" = "100.1" ] ||
        fail "the call tree's roots add to $sum %"
fi

mkdir "$tmp/dlrm" || exit 1
for r in 0 1 2 3 4 5 6 7; do
    ln -s "$traces/param-dlrm-v100-8rank-rank$r.pt.trace.json" "$tmp/dlrm/rank$r.pt.trace.json"
done
run_script shown-job dlrm --size 140x60 <<'STEPS'
expect straggler rank 7: waits least in collectives
expect slowest by mean step time: rank 1
expect allreduce
expect sendrecv
keys ]]]]]]]]]]]]]]
expect straggler
save-display shown-job.txt
STEPS

# The diff view's header: an A100 trace against a V100 trace.
(cd "$tmp" && printf 'save-display shown-diff.txt\n' >diff.steps &&
    timeout 300 "$TORCHTOP" diff --script diff.steps --size 200x30 \
        "$traces/hta-a100-alexnet-cudasync.json.gz" \
        "$traces/param-dlrm-v100-8rank-rank0.pt.trace.json") >"$tmp/diff.out" 2>&1 ||
    fail "diff view: exit status $?"
grep -q "note: the sides ran on different devices: NVIDIA A100-PG509-200 (" "$tmp/shown-diff.txt" ||
    fail "the diff view does not say that the devices differ"

check_screen shown-ops.txt
check_screen shown-tree.txt
check_screen shown-job.txt
finish

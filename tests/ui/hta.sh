#!/bin/sh
# HTA's analyses as explorer table views (docs/metrics.md §14): reached by
# name and by v, with HTA's numbers (those of the golden test).
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
nccl="$TRACES/hta-nccl-a100-2rank-rank0.json.gz"
run_script hta "$nccl" --size 120x30 <<'STEPS'
view temporal
expect temporal: HTA temporal breakdown
expect 77.23
v
expect idle-time: HTA idle time per stream
expect kernel_wait
v
expect kernel-types: HTA GPU time by kernel type
expect COMPUTATION overlapping COMMUNICATION
v
expect overlap: HTA communication time overlapped by computation
expect 14.76
v
expect launch-stats: HTA kernel launch statistics
v
expect queue-length: HTA queue length
v
expect memory-bw: HTA memory copy/set bandwidth
expect Memcpy DtoD
v
expect roofline
STEPS

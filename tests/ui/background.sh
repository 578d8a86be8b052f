#!/bin/sh
# The views built behind the first screen (tui/trace/bgviews.h): held back with
# TORCHTOP_HOLD_ANALYSIS, the op table works and every other view says it
# is being computed; after wait-analysis they show their tables.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
bert="$TRACES/tracelens-h100-bert-small-infer.json.gz"
TORCHTOP_HOLD_ANALYSIS=1 run_script background "$bert" --size 120x30 <<'STEPS'
expect ops: GPU time by launcher op
expect aten::addmm
view key-averages
expect computing … (0 %)
view temporal
expect computing … (0 %)
view roofline
expect computing … (0 %)
save-display background-held.txt
wait-analysis
expect roofline: Roofline: GEMM
view key-averages
expect key-averages:
expect aten::addmm
view temporal
expect temporal: HTA temporal breakdown
view ops
expect aten::addmm
STEPS
check_screen background-held.txt
# Without the hold a script sees every view from its first step.
run_script background-nohold "$bert" --size 120x30 <<'STEPS'
view key-averages
expect aten::addmm
STEPS
finish

#!/bin/sh
# Graph replays in the explorer: without a capture the replay is one
# hipGraphLaunch row; with --capture the replayed kernels count under the
# captured ops (the op table with parent modules, their instances in the
# call tree on the capture's thread).
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
replay="$TRACES/tracelens-mi300-vllm-graph-replay.json.gz"
capture="$TRACES/tracelens-mi300-vllm-graph-capture.json.gz"
run_script graphs "$replay" --size 140x40 <<'STEPS'
expect hipGraphLaunch
expect 96.93
STEPS
run_script graphs-capture "$replay" --size 140x40 --capture "$capture" <<'STEPS'
expect vllm::moe_forward
expect nn.Module: GraphModule
<Enter>
expect instances of vllm::moe_forward (24)
expect capture tracele
STEPS
finish

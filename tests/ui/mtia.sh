#!/bin/sh
# An MTIA trace in the explorer (docs/metrics.md §1.7): the header, its
# breakdown bar, the timeline's lanes and the call tree's unlinked work
# name the device MTIA, and its kernels show under the ops that launched
# them. A small trace written here, then the shared MTIA trace.
. "${top_srcdir:-.}/tests/ui/lib.sh"
cat > "$tmp/mtia.json" <<'EOF'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, "tid": 100, "ts": 0, "dur": 50},
{"ph": "X", "cat": "mtia_runtime", "name": "runFunction - job_prep_and_submit_for_execution",
 "pid": 100, "tid": 100, "ts": 5, "dur": 10, "args": {"correlation": 11}},
{"ph": "X", "cat": "mtia_ccp_events", "name": "fc-dtype_Float", "pid": 9, "tid": 4, "ts": 20,
 "dur": 30, "args": {"correlation": 11, "stream": 1}},
{"ph": "X", "cat": "mtia_ccp_events", "name": "dma_request", "pid": 9, "tid": 4, "ts": 40,
 "dur": 20, "args": {"stream": 1, "direction": "HOST_TO_DEVICE", "size": 64}},
{"ph": "M", "name": "process_labels", "pid": 9, "tid": 0, "args": {"labels": "MTIA 9"}},
{"ph": "M", "name": "thread_name", "pid": 9, "tid": 4, "args": {"name": "Stream 1 FW"}}
]}
EOF
run_script mtia mtia.json --size 120x36 <<'STEPS'
expect MTIA busy
expect MTIA [
expect fc-dtype_Float
focus-tree
expect unlinked MTIA work on MTIA 9 stream 1
focus-timeline
M
expect MTIA9 s1
STEPS

if [ -d "$TRACES" ]; then
    run_script mtia-shared "$TRACES/hta-mtia-rank0-stress.json.gz" --size 140x42 <<'STEPS'
expect MTIA busy 7.701 s of span 13.328 s
focus-tree
expect unlinked MTIA work on MTIA 9 stream 1
expect unlinked MTIA work on MTIA 9 stream 102
focus-timeline
M
expect MTIA9 s1
expect MTIA9 s102
STEPS
fi
finish

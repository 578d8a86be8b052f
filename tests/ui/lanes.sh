#!/bin/sh
# The timeline names what it shows (issue 14, point 6): an event whose span
# has room is named (cut in the middle when long), a maximized timeline has
# one lane per stream and per CPU thread (busiest first), and the cursor
# label stays whole past 10 s.
. "${top_srcdir:-.}/tests/ui/lib.sh"
cat > "$tmp/long.json" <<'EOF'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 2, "ts": 5000000, "dur": 3000000},
{"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 3, "ts": 6000000, "dur": 10},
{"ph": "X", "cat": "kernel", "name": "long_running_kernel", "pid": 0, "tid": 7,
 "ts": 1000000, "dur": 11000000, "args": {"device": 0, "stream": 7}}
]}
EOF
run_script lanes long.json --size 140x42 <<'STEPS'
focus-timeline
expect long_running_kernel
move-last
expect +12.0000 s
save-display lanes-long.txt
M
expect CPU 2
expect CPU 3
save-display lanes-maximized.txt
STEPS
check_screen lanes-long.txt
check_screen lanes-maximized.txt

if [ -d "$TRACES" ]; then
    traces=$(cd "$TRACES" && pwd)
    run_script lanes-owl "$traces/tracelens-h100-owlv2-infer-large.json.gz" --size 140x42 <<'STEPS'
focus-timeline
zoom-in
zoom-in
zoom-in
zoom-in
zoom-in
zoom-in
zoom-in
zoom-in
expect cunn_SoftMax
save-display lanes-owl-names.txt
STEPS
    check_screen lanes-owl-names.txt
elif [ "${CI:-}" = "true" ]; then
    fail "$TRACES is missing; CI needs ../shared beside the checkout"
else
    echo "SKIP (part): $TRACES not found, the shared-trace session was not run"
fi
finish

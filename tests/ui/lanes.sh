#!/bin/sh
# The timeline names what it shows (issue 14, point 6): an event whose span
# has room is named (cut in the middle when long), a maximized timeline has
# one lane per stream and per CPU thread (busiest first), and the cursor
# label stays whole past 10 s.
# Each kernel its own bar (issue 25, point 5): kernels that meet are two
# bars (the second starts with a gap glyph), a bar of kernels too small
# for a column each says how many it holds, the bar holding the selected
# kernel is labelled with its name, and the title counts the lanes that do
# not fit ("+3 lanes (M)"; M, maximize, shows them).
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

# Three kernels back to back on stream 7 (the selected one, row 3 of the
# kernels view, in the middle), then 100 kernels of 1 us 2.5 us apart;
# five more streams and four threads: 10 lanes.
awk 'BEGIN {
    print "{\"traceEvents\": [";
    split("sgemm_128x64_nn sgemm_64x64_tn sgemm_256x128_nt", name, " ");
    split("100 400 600", ts, " ");
    split("300 200 250", dur, " ");
    for (i = 1; i <= 3; i++) {
        printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 20},\n", i * 30 - 20;
        printf "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 5, \"args\": {\"correlation\": %d}},\n", i * 30 - 18, i;
        printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": %d, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": %d}},\n", name[i], ts[i], dur[i], i;
    }
    for (i = 0; i < 100; i++)
        printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"vectorized_add_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": %.1f, \"dur\": 1, \"args\": {\"device\": 0, \"stream\": 7}},\n", 900 + 2.5 * i;
    for (s = 8; s <= 12; s++)
        printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"copy_kernel\", \"pid\": 0, \"tid\": %d, \"ts\": %d, \"dur\": 50, \"args\": {\"device\": 0, \"stream\": %d}},\n", s, 100 * s - 600, s;
    for (t = 2; t <= 4; t++)
        printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": %d, \"ts\": %d, \"dur\": 100},\n", t, 200 * t;
    print "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::empty\", \"pid\": 1, \"tid\": 1, \"ts\": 1140, \"dur\": 10}";
    print "]}";
}' > "$tmp/bars.json"
for size in 140x42 80x24; do
    run_script lanes-bars-$size bars.json --size $size <<'STEPS'
focus-timeline
keys <Up> <Up> <Up> <Up> <Up> <Up>
expect lanes (M)
save-display lanes-bars-open.txt
focus-table
view kernels
keys <Down> <Down> <Enter>
focus-timeline
zoom-selection
save-display lanes-bars-selected.txt
focus-table
keys <Down> <Enter>
focus-timeline
zoom-fit
expect kernel▃
save-display lanes-bars-merged.txt
M
expect CPU 4
save-display lanes-bars-maximized.txt
STEPS
    for f in open selected merged maximized; do
        mv "$tmp/lanes-bars-$f.txt" "$tmp/lanes-bars-$f-$size.txt"
        check_screen lanes-bars-$f-$size.txt
    done
done
if grep -q "lanes (M)" "$tmp/lanes-bars-maximized-140x42.txt"; then
    fail "a maximized timeline that shows every lane still counts hidden ones"
fi

# On a CPU lane the selected op is named though its parent, named, would
# hide it.
cat > "$tmp/nested.json" <<'EOF'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
{"ph": "X", "cat": "cpu_op", "name": "aten::matmul", "pid": 1, "tid": 1, "ts": 20, "dur": 500}
]}
EOF
run_script lanes-nested nested.json --size 80x24 <<'STEPS'
focus-tree
keys <Right> <Down> <Right> <Down>
focus-timeline
expect █aten::matmul█
save-display lanes-cpu-selected.txt
STEPS
check_screen lanes-cpu-selected.txt

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

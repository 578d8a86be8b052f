#!/bin/sh
# Recorded op arguments in the explorer: the unique-args table's detail and
# the call tree's detail print the same Python reprs as the report (quotes
# chosen as Python chooses them, backslashes escaped, non-ASCII kept).
# Needs no shared data.
. "${top_srcdir:-.}/tests/ui/lib.sh"
cat > "$tmp/args.json" <<'EOF'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::fill_", "pid": 1, "tid": 1, "ts": 0, "dur": 100,
 "args": {"Input Dims": [[4, 4], []], "Input type": ["float", "Scalar"],
          "Concrete Inputs": ["", "it's"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10,
 "dur": 5, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "fill_kernel", "pid": 0, "tid": 7, "ts": 20, "dur": 50,
 "args": {"device": 0, "stream": 7, "correlation": 1}},
{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 200, "dur": 100,
 "args": {"Input Dims": [[2]], "Input type": ["na\u00efve"],
          "Concrete Inputs": ["a\\b", "say \"hi\""]}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 210,
 "dur": 5, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 220, "dur": 10,
 "args": {"device": 0, "stream": 7, "correlation": 2}}
]}
EOF

run_script args args.json --size 200x30 <<'STEPS'
view unique-args
expect ('', "it's")
<Down>
expect ('naïve',)
expect ('a\\b', 'say "hi"')
<Up>
<Enter>
focus-detail
M
expect aten::fill_ ((4, 4), ()) ('float', 'Scalar') ('', "it's")
STEPS
finish

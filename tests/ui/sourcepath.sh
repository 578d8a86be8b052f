#!/bin/sh
# The source search path: a trace recorded on another machine names
# /home/ci/work/model.py and torch/_ops.py. --source-map finds the first
# under src/ here; the second is on no directory of --source-path, and the
# pane lists where it was looked for, with why.
. "${top_srcdir:-.}/tests/ui/lib.sh"

mkdir -p "$tmp/src" "$tmp/lib/torch"
printf 'import torch\n\n\nclass Net(torch.nn.Module):\n    def forward(self, x):\n        # the line\n        y = x @ x\n        return y * 2\n' > "$tmp/src/model.py"
# A directory where torch/_ops.py is looked for first is not taken.
mkdir -p "$tmp/torch/_ops.py"
cat > "$tmp/remote.json" <<'JSON'
{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Test GPU"}],
 "traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python3"}},
  {"ph": "X", "cat": "python_function", "name": "/home/ci/work/train.py(12): <module>", "pid": 1, "tid": 1, "ts": 100, "dur": 300, "args": {"Python parent id": null, "Python id": 1}},
  {"ph": "X", "cat": "python_function", "name": "/home/ci/work/model.py(7): forward", "pid": 1, "tid": 1, "ts": 105, "dur": 290, "args": {"Python parent id": 1, "Python id": 2}},
  {"ph": "X", "cat": "python_function", "name": "torch/_ops.py(42): __call__", "pid": 1, "tid": 1, "ts": 110, "dur": 280, "args": {"Python parent id": 2, "Python id": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 120, "dur": 60, "args": {"External id": 5}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 130, "dur": 10, "args": {"correlation": 42, "External id": 5}},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 150, "dur": 90, "args": {"device": 0, "stream": 7, "correlation": 42, "External id": 5}}
 ]}
JSON

for size in 140x42 80x24; do
run_script "srcpath-$size" "$tmp/remote.json" --size "$size" --source-path .:lib \
    --source-map /home/ci/work=src <<STEPS
view kernels
t
M
search forward
<Enter>
expect line 1/8
save-display srcpath-found-$size.txt
<BS>
search _ops.py
<Enter>
expect cannot show torch/_ops.py
save-display srcpath-looked-$size.txt
<BS>
expect Traceback
STEPS
check_screen "srcpath-found-$size.txt"
check_screen "srcpath-looked-$size.txt"
done

# Without the substitution the absolute path is looked for as it is.
run_script srcpath-nomap "$tmp/remote.json" --size 140x42 --source-path . <<'STEPS'
view kernels
t
M
search forward
<Enter>
expect cannot show /home/ci/work/model.py
STEPS

# A malformed substitution is a usage error, before anything is read.
"$TORCHTOP" --source-map nothing "$tmp/remote.json" > /dev/null 2> "$tmp/bad.err"
rc=$?
[ $rc -eq 64 ] || fail "--source-map nothing: exit status $rc, not 64"
grep -q "source-map nothing: expected OLD=NEW" "$tmp/bad.err" || fail "--source-map nothing: $(cat "$tmp/bad.err")"
finish

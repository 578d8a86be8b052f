#!/bin/sh
# Graph replays in the call tree: with --capture each replay's captured ops
# hang under its graph launch (the top one marked from the capture) with
# the replayed kernels' times, a kernel the capture does not have stays
# under the launch, and a replayed kernel's traceback runs through the
# captured op to the graph launch; the graphs and graph-nodes views. A
# generated pair (written here), then the shared vLLM replays.
. "${top_srcdir:-.}/tests/ui/lib.sh"

# Two replays of one graph: gemm, norm, a kernel the capture never
# launched, gemm again; the capture launches them under ops under a module.
cat > "$tmp/replay.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "step", "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch", "pid": 1, "tid": 1, "ts": 100, "dur": 50, "args": {"correlation": 900}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch", "pid": 1, "tid": 1, "ts": 500, "dur": 50, "args": {"correlation": 901}},
{"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 7, "ts": 200, "dur": 10, "args": {"stream": 7, "device": 0, "correlation": 900}},
{"ph": "X", "cat": "kernel", "name": "norm_k", "pid": 0, "tid": 7, "ts": 220, "dur": 5, "args": {"stream": 7, "device": 0, "correlation": 900}},
{"ph": "X", "cat": "kernel", "name": "mystery_k", "pid": 0, "tid": 7, "ts": 230, "dur": 4, "args": {"stream": 7, "device": 0, "correlation": 900}},
{"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 7, "ts": 250, "dur": 12, "args": {"stream": 7, "device": 0, "correlation": 900}},
{"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 7, "ts": 600, "dur": 11, "args": {"stream": 7, "device": 0, "correlation": 901}},
{"ph": "X", "cat": "kernel", "name": "norm_k", "pid": 0, "tid": 7, "ts": 620, "dur": 6, "args": {"stream": 7, "device": 0, "correlation": 901}},
{"ph": "X", "cat": "kernel", "name": "mystery_k", "pid": 0, "tid": 7, "ts": 630, "dur": 4, "args": {"stream": 7, "device": 0, "correlation": 901}},
{"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 7, "ts": 650, "dur": 13, "args": {"stream": 7, "device": 0, "correlation": 901}}
]}
JSON
cat > "$tmp/capture.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "python_function", "name": "nn.Module: Model_0", "pid": 1, "tid": 1, "ts": 0, "dur": 500, "args": {}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50, "args": {"Input Dims": [[4, 8], [8, 16]], "Input type": ["float", "float"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 2, "args": {"kernel": "gemm_k", "correlation": 5}},
{"ph": "X", "cat": "cpu_op", "name": "aten::rms", "pid": 1, "tid": 1, "ts": 70, "dur": 30, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 75, "dur": 2, "args": {"kernel": "norm_k", "correlation": 6}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 200, "dur": 50, "args": {"Input Dims": [[4, 8], [8, 16]], "Input type": ["float", "float"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 210, "dur": 2, "args": {"kernel": "gemm_k", "correlation": 9}}
]}
JSON
run_script graphtree "$tmp/replay.json" --size 140x42 --capture "$tmp/capture.json" <<'STEPS'
focus-tree
expand-all
save-display graphtree.txt
expect tree 1/26
search norm_k
t
save-display graphtree-traceback.txt
expect (replayed the capture)
STEPS
check_screen graphtree.txt
check_screen graphtree-traceback.txt
# Without the capture: the graphs view (one graph, two replays), Enter
# shows its launches; the graph-nodes view has each node position's
# kernel, category and times, Enter shows that position in every replay.
run_script graphviews "$tmp/replay.json" --size 140x42 <<'STEPS'
view graphs
expect hipGraphLaunch
<Enter>
expect instances of #1 (2)
focus-table
view graph-nodes
save-display graphviews-nodes.txt
<Enter>
expect instances of gemm_k (2)
STEPS
check_screen graphviews-nodes.txt

if [ ! -d "$TRACES" ]; then
    [ "${CI:-}" = "true" ] && fail "$TRACES is missing; CI needs ../shared beside the checkout"
    echo "note: $TRACES not found; the shared vLLM session was skipped"
    finish
fi
# The hot path of the vLLM replay goes from the replay's Python stack
# through hipGraphLaunch into the captured model, down to the MoE kernel.
run_script graphtree-vllm "$TRACES/tracelens-mi300-vllm-graph-replay.json.gz" --size 140x42 \
    --capture "$TRACES/tracelens-mi300-vllm-graph-capture.json.gz" <<'STEPS'
focus-tree
hot-path
expect _matmul_ogs_NNT_bf16
t
expect hipModuleLaunchKernel  (from th
search hipGraphLaunch
expect hipGraphLaunch  (replayed the capture)
STEPS
# The piecewise replay without its capture: three graphs, the second
# replayed 23 times for 92 % of the GPU time.
run_script graphviews-vllm "$TRACES/tracelens-mi300-vllm-piecewise-replay.json.gz" --size 140x42 <<'STEPS'
view graphs
expect 91.98
j
<Enter>
expect instances of #2 (23)
STEPS
finish

#!/bin/sh
# torchtop export --capture: the exported trace, loaded back without the
# capture, gives every replayed kernel the launcher the capture merge gave
# it (kernels table identical, ops per name: Count and direct kernel time),
# with and without --flow-links (each aligned kernel's ac2g flow comes from
# its captured launch); it is valid JSON and adds no flow end without a start.
# A generated replay/capture pair, then the vLLM pairs in ../shared.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
TT="$top_builddir/torchtop"
SHARED="${TORCHTOP_SHARED:-$top_srcdir/../shared}"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-capexp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
failures=0

cat > "$tmp/replay.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "step", "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch", "pid": 1, "tid": 1, "ts": 100, "dur": 50, "args": {"correlation": 900}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch", "pid": 1, "tid": 1, "ts": 500, "dur": 50, "args": {"correlation": 901}},
{"ph": "s", "id": 900, "pid": 1, "tid": 1, "ts": 100, "cat": "ac2g", "name": "ac2g"},
{"ph": "f", "id": 900, "pid": 0, "tid": 7, "ts": 200, "cat": "ac2g", "name": "ac2g", "bp": "e"},
{"ph": "s", "id": 901, "pid": 1, "tid": 1, "ts": 500, "cat": "ac2g", "name": "ac2g"},
{"ph": "f", "id": 901, "pid": 0, "tid": 7, "ts": 630, "cat": "ac2g", "name": "ac2g", "bp": "e"},
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
# The captured module runs longer than the replays are apart: its copies
# overlap in time and go on two lanes of the capture thread.
cat > "$tmp/capture.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "python_function", "name": "nn.Module: Model_0", "pid": 1, "tid": 1, "ts": 0, "dur": 500, "args": {"Python id": 1, "Python parent id": 0}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50, "args": {"Input Dims": [[4, 8], [8, 16]], "Input type": ["float", "float"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 2, "args": {"kernel": "gemm_k", "correlation": 5}},
{"ph": "X", "cat": "cpu_op", "name": "aten::rms", "pid": 1, "tid": 1, "ts": 70, "dur": 30, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 75, "dur": 2, "args": {"kernel": "norm_k", "correlation": 6}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 200, "dur": 50, "args": {"Input Dims": [[4, 8], [8, 16]], "Input type": ["float", "float"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 210, "dur": 2, "args": {"kernel": "gemm_k", "correlation": 9}}
]}
JSON

# check NAME CAPTURE REPLAY
check() {
    name=$1 cap=$2 rep=$3
    out="$tmp/$name.json.gz"
    if ! "$TT" export -q --chrome "$out" --capture "$cap" "$rep"; then
        echo "FAIL: $name: export --capture failed"
        failures=$((failures + 1))
        return
    fi
    for links in "" --flow-links; do
        for tb in kernels ops; do
            "$TT" report -q $links -t $tb -f csv --capture "$cap" "$rep" > "$tmp/$name-merged-$tb.csv"
            "$TT" report -q $links -t $tb -f csv "$out" > "$tmp/$name-export-$tb.csv"
        done
        if ! cmp -s "$tmp/$name-merged-kernels.csv" "$tmp/$name-export-kernels.csv"; then
            echo "FAIL: $name $links: the export's kernels table differs from the merge's"
            diff "$tmp/$name-merged-kernels.csv" "$tmp/$name-export-kernels.csv" | head -10
            failures=$((failures + 1))
        fi
        if ! "$PYTHON3" - "$tmp/$name-merged-ops.csv" "$tmp/$name-export-ops.csv" "$out" "$rep" <<'PY'
import collections, csv, gzip, json, sys
def per_name(path):
    d = collections.defaultdict(lambda: [0, 0.0])
    for r in csv.DictReader(open(path, encoding="utf-8")):
        d[r["name"]][0] += int(r["Count"])
        d[r["name"]][1] += float(r["total_direct_kernel_time_sum"])
    return d
m, e = per_name(sys.argv[1]), per_name(sys.argv[2])
bad = [k for k in set(m) | set(e)
       if k not in m or k not in e or m[k][0] != e[k][0]
       or abs(m[k][1] - e[k][1]) > 1e-6 * max(1.0, m[k][1])]
for k in sorted(bad)[:10]:
    print("  op %s: merged %s, export %s" % (k, m.get(k), e.get(k)))
def loose_ends(path):
    op = gzip.open if path.endswith(".gz") else open
    ev = json.load(op(path, "rt", encoding="utf-8"))["traceEvents"]
    starts = {(x["cat"], x["id"]) for x in ev if x.get("ph") == "s"}
    return {(x["cat"], x["id"]) for x in ev if x.get("ph") == "f"} - starts
# Kineto leaves some flow ends without a start; the export adds none.
loose = loose_ends(sys.argv[3]) - loose_ends(sys.argv[4])
if loose:
    print("  %d flow ends without a start, e.g. %s" % (len(loose), sorted(loose)[:3]))
sys.exit(1 if bad or loose else 0)
PY
        then
            echo "FAIL: $name $links: ops per name or flows differ"
            failures=$((failures + 1))
        fi
    done
    echo "ok: $name"
}

check generated "$tmp/capture.json" "$tmp/replay.json"
# The generated pair: each replayed kernel's launcher by hand.
"$TT" report -q -t kernels -f csv "$tmp/generated.json.gz" | cut -d, -f2,3,6 | sort > "$tmp/gen.txt"
cat > "$tmp/gen.want" <<'EOF2'
Parent cpu_op,Kernel name,Kernel duration (µs)_count
aten::mm,gemm_k,4
aten::rms,norm_k,2
step,mystery_k,2
EOF2
sort "$tmp/gen.want" > "$tmp/gen.want.sorted"
if ! cmp -s "$tmp/gen.txt" "$tmp/gen.want.sorted"; then
    echo "FAIL: generated: launchers in the export"
    diff "$tmp/gen.want.sorted" "$tmp/gen.txt"
    failures=$((failures + 1))
fi

if [ -d "$SHARED/traces" ]; then
    for pair in graph piecewise; do
        check "vllm-$pair" "$SHARED/traces/tracelens-mi300-vllm-$pair-capture.json.gz" \
            "$SHARED/traces/tracelens-mi300-vllm-$pair-replay.json.gz"
    done
elif [ "${CI:-}" = "true" ]; then
    echo "FAIL: $SHARED/traces is missing; CI needs ../shared beside the checkout"
    failures=$((failures + 1))
else
    echo "note: $SHARED/traces not found; the vLLM pairs were skipped"
fi
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0

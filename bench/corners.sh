#!/bin/sh
# Inputs that once made the loader quadratic, at 100k and 1M records:
#   metadata  N thread_name records, one per thread (N rows to name)
#   fwd-bwd   N ops sharing one Sequence number, half forward, half backward
#   name      one event whose name is N * 100 bytes (10 MB, 100 MB)
#   name|     the same through a pipe (standard input), read in small pieces
# Each is loaded with `torchtop report -q` (every table) next to Python's
# json.load of the same file as the baseline. Prints wall time, peak RSS
# and the ratio to the baseline; a run over the time limit prints ">LIMIT".
#
#   bench/corners.sh [BUILD_DIR] [COUNTS...]       e.g. bench/corners.sh build 100000
#   CORNERS_TIMEOUT=SECONDS (default 300) bounds each run.
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 100000 1000000
tt="$build/torchtop"
py=${PYTHON3:-python3}
limit=${CORNERS_TIMEOUT:-300}
tmp=${TMPDIR:-/tmp}/torchtop-corners.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/gen.py" <<'EOF'
import sys
kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    f.write('{"traceEvents": [\n')
    if kind == "metadata":
        f.write(",\n".join('{"ph": "M", "name": "thread_name", "pid": 1, "tid": %d, '
                           '"args": {"name": "thread %d"}}' % (i, i) for i in range(n)))
    elif kind == "fwd-bwd":
        op = ('{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": 1, "tid": %d, "ts": %d, '
              '"dur": 1, "args": {"Sequence number": 7}}')
        f.write(",\n".join(op % ("aten::mm", 1, 2 * i) for i in range(n // 2)) + ",\n")
        f.write(",\n".join(op % ("autograd::engine::evaluate_function: MmBackward0", 2, 2 * i + 1)
                           for i in range(n - n // 2)))
    elif kind == "name":
        f.write('{"ph": "X", "cat": "cpu_op", "name": "')
        left = n * 100
        chunk = "abcdefghij" * 100000
        while left > 0:
            f.write(chunk[:left])
            left -= len(chunk)
        f.write('", "pid": 1, "tid": 1, "ts": 1, "dur": 1}')
    f.write("\n]}\n")
EOF

run() { # run CMD...: prints "SECONDS RSS_MB", or ">LIMIT -" past the limit
    if /usr/bin/time -f "%e %M" -o "$tmp/t" timeout "$limit" "$@" >/dev/null 2>"$tmp/err"; then
        awk '{printf "%.2f %.1f\n", $1, $2 / 1024}' "$tmp/t"
    else
        rc=$?
        if [ "$rc" -eq 124 ]; then echo ">$limit -"; else echo "exit$rc -"; fi
    fi
}

printf '%-9s %9s %8s %10s %8s %10s %8s\n' case records "JSON MB" "torchtop s" "RSS MB" "python s" ratio
for n in "$@"; do
    for kind in metadata fwd-bwd name name\|; do
        f="$tmp/${kind%|}-$n.json"
        [ -f "$f" ] || "$py" "$tmp/gen.py" "${kind%|}" "$n" "$f"
        mb=$(wc -c <"$f" | awk '{printf "%.1f", $1 / 1e6}')
        cat "$f" >/dev/null
        case $kind in
            *\|)
                run sh -c 'cat "$1" | "$2" -c "import json, sys; json.load(sys.stdin)"' sh "$f" "$py" \
                    >"$tmp/r"
                read -r t_py _ <"$tmp/r"
                run sh -c 'cat "$1" | "$2" report -q -o /dev/null -' sh "$f" "$tt" >"$tmp/r"
                read -r t rss <"$tmp/r"
                rm -f "$f"
                ;;
            *)
                run "$py" -c 'import json, sys; json.load(open(sys.argv[1]))' "$f" >"$tmp/r"
                read -r t_py _ <"$tmp/r"
                run "$tt" report -q -o /dev/null "$f" >"$tmp/r"
                read -r t rss <"$tmp/r"
                [ "$kind" = name ] || rm -f "$f"
                ;;
        esac
        ratio=$(awk -v a="$t" -v b="$t_py" 'BEGIN {
            if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2fx", a / b; else print "-" }')
        printf '%-9s %9d %8s %10s %8s %10s %8s\n' "$kind" "$n" "$mb" "$t" "$rss" "$t_py" "$ratio"
    done
done

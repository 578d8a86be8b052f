#!/bin/sh
# Graph replay + capture: `torchtop report -q -t ops --capture CAPTURE
# REPLAY` (load both, align, copy the captured ops in, index, the ops table)
# next to Python's json.load of the two gzipped files as the baseline, for
# the replay/capture pairs in ../shared. Best of 3 runs each; prints wall
# time, peak RSS, the ratio to the baseline, and torchtop's own phases
# (TORCHTOP_TIMING) of the last run.
#
#   bench/capture.sh [BUILD_DIR]      (TORCHTOP_SHARED: the shared folder)
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
tt="$build/torchtop"
py=${PYTHON3:-python3}
shared=${TORCHTOP_SHARED:-$here/../../shared}
tmp=${TMPDIR:-/tmp}/torchtop-capture-bench.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

best() { # best CMD...: the best "SECONDS RSS_MB" of 3 runs
    for i in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err"
        awk '{printf "%.3f %.1f\n", $1, $2 / 1024}' "$tmp/t"
    done | sort -n | head -1
}

printf '%-10s %8s %10s %8s %10s %7s\n' pair "gz MB" "torchtop s" "RSS MB" "python s" ratio
for pair in graph piecewise; do
    r="$shared/traces/tracelens-mi300-vllm-$pair-replay.json.gz"
    c="$shared/traces/tracelens-mi300-vllm-$pair-capture.json.gz"
    [ -f "$r" ] && [ -f "$c" ] || { echo "$pair: not in $shared/traces, skipped"; continue; }
    mb=$(cat "$r" "$c" | wc -c | awk '{printf "%.1f", $1 / 1e6}')
    set -- $(best "$py" -c 'import gzip, json, sys
for p in sys.argv[1:]:
    json.load(gzip.open(p))' "$r" "$c")
    t_py=$1
    set -- $(best "$tt" report -q -t ops --capture "$c" "$r")
    t=$1 rss=$2
    ratio=$(awk -v a="$t" -v b="$t_py" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
    printf '%-10s %8s %10s %8s %10s %7s\n' "$pair" "$mb" "$t" "$rss" "$t_py" "$ratio"
    TORCHTOP_TIMING=1 "$tt" report -q -t ops --capture "$c" "$r" 2>&1 >/dev/null | grep -i 'time\|load\|capture' | head -3
done

#!/bin/sh
# Inputs that grow one way while a table or a copy would grow faster
# (tests/bad/make-scale.py, the same inputs tests/bad/scale.sh runs under
# caps, here at the sizes of the reports): each run's exit status, wall
# time and peak RSS, with a baseline build next to it when given.
#
#   bench/bounds.sh [BUILD_DIR] [BASELINE_TORCHTOP]
#
# Rows: a summary inflating to 200 MB; 1,000 and 10,000 ranks in process
# groups of their own (collectives table); 500 ranks of rank-specific op
# names (ops); 100,000 collectives of distinct sizes (collectives-summary);
# a 30,000- and a 100,000-level chain with a kernel at each level (report,
# diff -t tree, the explorer's expanded tree); 10,000 and 100,000 graph
# launches of a 1,000-deep capture.
set -eu
# Every run parses: the trace cache (bench/cache.sh) would turn the second
# run of a large trace into a cache read.
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
base=${2:-}
tt="$build/torchtop"
py=${PYTHON3:-python3}
gen="$here/../tests/bad/make-scale.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$gen" summary-bomb "$tmp/bomb" 200
"$py" "$gen" coll-groups "$tmp/cg1k" 1000
"$py" "$gen" coll-groups "$tmp/cg10k" 10000
"$py" "$gen" ops-names "$tmp/ops" 500
"$py" "$gen" coll-sizes "$tmp/sizes" 100000
"$py" "$gen" nest "$tmp/nest30k" 30000
"$py" "$gen" nest "$tmp/nest100k" 100000
"$py" "$gen" capture "$tmp/cap10k" 10000
"$py" "$gen" capture "$tmp/cap100k" 100000
printf 'wait-analysis\nfocus-tree\nexpand-all\nG\n' >"$tmp/steps"

# one PROGRAM ARGS...: "status seconds RSS_MB" under an 8 GiB address cap;
# the status of a run a signal ended is "sigN".
one() {
    (ulimit -v 8388608 && /usr/bin/time -f "%x %e %M" -o "$tmp/t" "$@" >/dev/null 2>&1) || true
    sig=$(sed -n 's/^Command terminated by signal \([0-9]*\).*/sig\1/p' "$tmp/t")
    tail -n 1 "$tmp/t" | awk -v sig="$sig" '{printf "%s %s %.0f", sig != "" ? sig : $1, $2, $3 / 1024}'
}

row() { # label, args...
    label=$1
    shift
    printf '%-32s %-18s' "$label" "$(one "$tt" "$@")"
    [ -n "$base" ] && printf ' %-18s' "$(one "$base" "$@")"
    echo
}

printf '%-32s %-18s' input "status s MB"
[ -n "$base" ] && printf ' %-18s' "baseline"
echo
row "summary bomb 200 MB" report -q "$tmp/bomb/bomb.json.gz"
row "collectives, 1,000 ranks" report -q -t collectives "$tmp/cg1k"
row "collectives, 10,000 ranks" report -q -t collectives "$tmp/cg10k"
row "ops, 500 ranks" report -q -t ops "$tmp/ops"
row "collectives-summary 100,000" report -q -t collectives-summary "$tmp/sizes"
row "report, 30,000 levels" report -q "$tmp/nest30k/nest.json"
row "diff -t tree, 30,000 levels" diff -q -t tree "$tmp/nest30k/nest.json" "$tmp/nest30k/nest.json"
row "explorer, 30,000 levels" --script "$tmp/steps" "$tmp/nest30k/nest.json"
row "report, 100,000 levels" report -q "$tmp/nest100k/nest.json"
row "diff -t tree, 100,000 levels" diff -q -t tree "$tmp/nest100k/nest.json" \
    "$tmp/nest100k/nest.json"
row "capture, 10,000 launches" report -q --capture "$tmp/cap10k/capture.json" \
    "$tmp/cap10k/replay.json"
row "capture, 100,000 launches" report -q --capture "$tmp/cap100k/capture.json" \
    "$tmp/cap100k/replay.json"

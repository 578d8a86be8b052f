#!/bin/sh
# Benchmark: the critical path (HTA's graph and longest path of every step,
# core/critpath) against the load it sits on, in one run. For each trace:
#   load      `torchtop report -q -t kernels`: the load and a table that
#             costs nothing, the floor the critical path adds to
#   critpath  `torchtop report -q -t critical-path`: every step's graph
#   what-if   the same with `--what-if aten::addmm=0.5` (each graph built,
#             weighed twice): what the explorer's W costs
#   python    python3 json.load of the same file (files under 300 MB)
# and the explorer's background critical path (TORCHTOP_TIMING: wall and
# the worker's CPU seconds). Times are the best of BENCH_RUNS (default 3)
# runs: wall seconds, CPU seconds (user + sys: on a shared machine wall
# time counts the others' work too), peak RSS. "cp +" is critpath minus
# load: what the critical path itself costs.
#
#   bench/critpath.sh [BUILD_DIR] [TRACE | SIZE | gen:SIZE ...]
#
# A SIZE (e.g. 1G) tiles the H100 OWL-ViT trace to that many bytes with
# bench/tile.py (one step per copy); gen:SIZE makes a trace of that size
# with `torchtop gen` (many short steps: the per-step cost). They are
# written to a temporary directory removed at the end.
# Default: the H100 OWL-ViT trace, 1G, gen:256M.
set -eu
# Every run parses: the trace cache (bench/cache.sh) would turn the second
# run of a large trace into a cache read.
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
runs=${BENCH_RUNS:-3}
[ $# -gt 0 ] || set -- "$shared/traces/tracelens-h100-owlv2-infer-large.json.gz" 1G gen:256M
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# the least wall and the least CPU seconds of $runs runs, the largest peak
# RSS: "wall cpu rss_kb"
measure() {
    bw="" bc="" bm=0
    for i in $(seq "$runs"); do
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" >/dev/null 2>&1 || true
        read -r w u s m <"$tmp/t"
        c=$(echo "$u + $s" | bc)
        if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w; fi
        if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc)" = 1 ]; then bc=$c; fi
        [ "$m" -gt "$bm" ] && bm=$m
    done
    echo "$bw $bc $bm"
}

row() { # label wall cpu rss_kb
    printf '  %-10s %8.3f s wall %8.3f s cpu %8.1f MB\n' "$1" "$2" "$3" "$(echo "$4 / 1024" | bc -l)"
}

echo quit >"$tmp/load-only"
for a in "$@"; do
    case $a in
    gen:*)
        f="$tmp/gen-${a#gen:}.json"
        "$tt" gen --size "${a#gen:}" -o "$f" >/dev/null 2>&1
        ;;
    [0-9]*[kKmMgG])
        f="$tmp/tile-$a.json"
        python3 "$here/tile.py" "$a" "$f" 2>/dev/null
        ;;
    *) f=$a ;;
    esac
    bytes=$(gzip -dcf "$f" | wc -c)
    regions=$("$tt" report -q -t critical-path -f csv "$f" 2>/dev/null |
        awk -F, '{ sub(/\r$/, "") } /^# / { t = $0; next } t == "# critical_path" && $1 != "region" && $1 != "" { print $1 }' |
        sort -u | wc -l)
    printf '\n%s: %.1f MB of JSON, %s region(s)\n' "$(basename "$f")" \
        "$(echo "$bytes / 1000000" | bc -l)" "$regions"
    set -- $(measure "$tt" report -q -t kernels "$f")
    lw=$1 lc=$2
    row load "$1" "$2" "$3"
    set -- $(measure "$tt" report -q -t critical-path "$f")
    row critpath "$1" "$2" "$3"
    printf '  %-10s %8.3f s wall %8.3f s cpu\n' "cp +" "$(echo "$1 - $lw" | bc)" \
        "$(echo "$2 - $lc" | bc)"
    set -- $(measure "$tt" report -q -t critical-path --what-if aten::addmm=0.5 "$f")
    row what-if "$1" "$2" "$3"
    if [ "$bytes" -lt 300000000 ]; then
        set -- $(measure python3 -c 'import json,gzip,sys; f=sys.argv[1]; json.load(gzip.open(f) if f.endswith(".gz") else open(f))' "$f")
        row python "$1" "$2" "$3"
    fi
    # the explorer's background critical path, and the session's peak
    LC_ALL=C.UTF-8 TORCHTOP_TIMING=1 /usr/bin/time -f "%M" -o "$tmp/t" "$tt" --script \
        "$tmp/load-only" --size 120x40 "$f" 2>"$tmp/err" >/dev/null || true
    # (a build before the CPU seconds were printed gives wall time only)
    sed -n 's/^torchtop: timing background critical-path *\([0-9.]*\) s\( (cpu \([0-9.]*\) s)\)*/\1 \3/p' \
        "$tmp/err" >"$tmp/cp"
    if [ -s "$tmp/cp" ]; then
        read -r w c <"$tmp/cp"
        if [ -n "${c:-}" ]; then
            row explorer "$w" "$c" "$(cat "$tmp/t")"
        else
            printf '  %-10s %8.3f s wall %14s %8.1f MB\n' explorer "$w" "" \
                "$(echo "$(cat "$tmp/t") / 1024" | bc -l)"
        fi
    fi
    case $f in "$tmp"/*) rm -f "$f" ;; esac
done

#!/bin/sh
# Benchmark: `torchtop report` (all tables) on the largest shared traces,
# against Python merely parsing the same file (json.load), in one run.
# Prints wall time, peak RSS, ratios, and JSON throughput on one core.
# Each trace is measured as written (kineto) and with its events rewritten
# by Python's json.dumps (bench/tile.py --style python, one copy: ", "
# separators, shortest float reprs), side by side.
#
#   bench/report.sh [BUILD_DIR] [TRACE...]
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
if [ $# -eq 0 ]; then
    set -- "$shared/traces/tracelens-h100-owlv2-infer-large.json.gz" \
           "$shared/traces/hta-mtia-rank0-stress.json.gz" \
           "$shared/traces/tracelens-mi300-owlv2-infer-large.json.gz"
fi
first=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best-of-3 wall seconds, the peak RSS (KB) and the least CPU seconds (user
# + system: the steadier figure on a shared machine) of a command
measure() {
    best="" rss=0 cpu=""
    for i in 1 2 3; do
        /usr/bin/time -f "%e %M %U %S" -o "$tmp/t" "$@" >/dev/null 2>&1 || true
        read -r s m u y <"$tmp/t"
        c=$(echo "$u + $y" | bc)
        if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; fi
        if [ -z "$cpu" ] || [ "$(echo "$c < $cpu" | bc)" = 1 ]; then cpu=$c; fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    echo "$best $rss $cpu"
}

python3 --version
printf '%-42s %9s %9s %7s %8s %8s %7s %9s %7s %7s\n' trace "JSON MB" "torchtop" "CPU s" "RSS MB" \
    "python" "CPU s" "RSS MB" ratio "CPU x"
for orig in "$@"; do
    for style in kineto python; do
        f=$orig
        name=$(basename "$f" | cut -c1-35)
        if [ "$style" = python ]; then
            f="$tmp/$(basename "$orig" .gz).python.json"
            python3 "$here/tile.py" --style python x1 "$f" "$orig" 2>/dev/null
            name="$name python"
        fi
        size=$(gzip -dcf "$f" | wc -c)
        set -- $(measure "$tt" report -q "$f")
        t_tt=$1 r_tt=$2 c_tt=$3
        set -- $(measure python3 -c 'import json,gzip,sys; f=sys.argv[1]; json.load(gzip.open(f) if f.endswith(".gz") else open(f))' "$f")
        t_py=$1 r_py=$2 c_py=$3
        printf '%-42s %9.1f %8.3fs %7.2f %8.1f %7.2fs %7.2f %9.1f %6.1fx %6.1fx\n' "$name" \
            "$(echo "$size / 1000000" | bc -l)" "$t_tt" "$c_tt" "$(echo "$r_tt / 1024" | bc -l)" \
            "$t_py" "$c_py" "$(echo "$r_py / 1024" | bc -l)" "$(echo "$t_py / $t_tt" | bc -l)" \
            "$(echo "$c_py / $c_tt" | bc -l)"
        if [ "$style" = python ]; then rm -f "$f"; fi
    done
done

# JSON throughput on one core: plain JSON, one parser thread, load only.
gzip -dcf "$first" >"$tmp/plain.json"
size=$(wc -c <"$tmp/plain.json")
set -- $(measure "$tt" report -q --threads 1 -t timeline "$tmp/plain.json")
echo
printf 'one core, plain JSON, load + timeline: %.3fs for %.1f MB = %.0f MB/s\n' "$1" \
    "$(echo "$size / 1000000" | bc -l)" "$(echo "$size / 1000000 / $1" | bc -l)"
set -- $(measure "$tt" report -q -t timeline "$tmp/plain.json")
printf 'all cores, plain JSON, load + timeline: %.3fs = %.0f MB/s; peak RSS %.1f MB = %.2f x the JSON\n' \
    "$1" "$(echo "$size / 1000000 / $1" | bc -l)" "$(echo "$2 / 1024" | bc -l)" \
    "$(echo "$2 * 1024 / $size" | bc -l)"

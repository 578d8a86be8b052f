#!/bin/sh
# Scale benchmark, two series loaded with `torchtop report` (every table):
#   generated  `torchtop gen` traces (64 MB, 256 MB, 1 GB plain, 256 MB gzip),
#   tiled      a real shared trace tiled to the same sizes by bench/tile.py
#              (shifted times, ids offset per copy: Python frames, shapes,
#              flows, as users' traces are), in both of its styles: kineto
#              (the numbers as Kineto writes them) and python (the events as
#              json.dumps rewrites them: 17-digit shortest floats, ", "),
#              then the two side by side.
# Each row: wall time, CPU time (user + system), MB/s, events/s, peak RSS, the I/O floor of the same
# file (cat | wc -c, or gzip -dc | wc -c) and the time as a multiple of the
# series' first size (linear scaling: 1G = 16 x 64M). The times are the least
# of REPEAT runs (3): a 64 MB run takes a tenth of a second, which one
# interruption can double.
#
#   bench/scale.sh [BUILD_DIR] [SIZES...]      e.g. bench/scale.sh build 64M 1G
#   TILE_SOURCE=trace.json.gz  the trace to tile (default: the H100 OWL-ViT trace)
#   SERIES="generated tiled"   the series to run
#   REPEAT=3                   runs of torchtop per trace
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 64M 256M 1G 256M.gz
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
source=${TILE_SOURCE:-$shared/traces/tracelens-h100-owlv2-infer-large.json.gz}
series=${SERIES:-generated tiled}
repeat=${REPEAT:-3}
tmp=${TMPDIR:-/tmp}/torchtop-scale.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

secs() { # wall seconds, peak RSS (KB) and CPU seconds (user + system) of a command
    /usr/bin/time -f "%e %M %U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || true
    awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$tmp/t"
}

best_secs() { # secs of REPEAT runs: the least wall and CPU seconds, the largest peak RSS
    i=0
    while [ "$i" -lt "$repeat" ]; do
        secs "$@"
        i=$((i + 1))
    done | awk 'NR == 1 || $1 < w { w = $1 } $2 > m { m = $2 } NR == 1 || $3 < c { c = $3 }
                END { printf "%s %s %.2f\n", w, m, c }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in $series; do
    if [ "$kind" = tiled ] && [ ! -r "$source" ]; then
        echo "tiled: skipped, no $source (set TORCHTOP_SHARED or TILE_SOURCE)"
        continue
    fi
    styles=-
    [ "$kind" = tiled ] && styles="kineto python"
    for style in $styles; do
        label=$kind
        [ "$style" = - ] || label="$kind $style"
        echo
        printf '%-16s %9s %9s %8s %7s %9s %11s %8s %9s %6s %6s\n' "$label" "JSON MB" events \
            "load s" "CPU s" "MB/s" "events/s" "RSS MB" "floor s" floor x1st
        t_first=""
        for spec in "$@"; do
            case $spec in
                *.gz) size=${spec%.gz}; f="$tmp/trace-$size.json.gz"; floor="gzip -dc" ;;
                *) size=$spec; f="$tmp/trace-$size.json"; floor="cat" ;;
            esac
            if [ "$kind" = generated ]; then
                "$tt" gen --size "$size" --stats -o "$f" 2>"$tmp/gen"
                events=$(sed -n 's/.* \([0-9][0-9]*\) events,.*/\1/p' "$tmp/gen")
                json=$(sed -n 's/.* events, \([0-9][0-9]*\) bytes of JSON.*/\1/p' "$tmp/gen")
            else
                python3 "$here/tile.py" --style "$style" "$size" "$f" "$source" 2>"$tmp/gen"
                events=$(sed -n 's/.* copies.*, \([0-9][0-9]*\) events,.*/\1/p' "$tmp/gen")
                json=$(sed -n 's/.* events, \([0-9][0-9]*\) bytes of JSON.*/\1/p' "$tmp/gen")
            fi
            # written out and in the page cache, then measure
            sync
            cat "$f" >/dev/null
            set -- $(secs sh -c "$floor \"\$1\" | wc -c" sh "$f") "$@"
            t_floor=$1
            shift 3
            set -- $(best_secs "$tt" report -q -o /dev/null "$f") "$@"
            t=$1 rss=$2 cpu=$3
            shift 3
            [ -n "$t_first" ] || t_first=$t
            [ "$style" = - ] || echo "$spec $t" >>"$tmp/side-$style"
            printf '%-16s %9.1f %9d %8.2f %7.2f %9.0f %11.0f %8.1f %9.2f %5.1fx %5.1fx\n' "$spec" \
                "$(echo "$json / 1000000" | bc -l)" "$events" "$t" "$cpu" \
                "$(echo "$json / 1000000 / $t" | bc -l)" "$(echo "$events / $t" | bc -l)" \
                "$(echo "$rss / 1024" | bc -l)" "$t_floor" "$(echo "$t / $t_floor" | bc -l)" \
                "$(echo "$t / $t_first" | bc -l)"
            rm -f "$f"
        done
    done
done
if [ -s "$tmp/side-kineto" ] && [ -s "$tmp/side-python" ]; then
    echo
    printf '%-16s %9s %9s %8s\n' "tiled, load s" kineto python python/k
    paste -d' ' "$tmp/side-kineto" "$tmp/side-python" | while read -r spec k _ p; do
        printf '%-16s %9.2f %9.2f %7.2fx\n' "$spec" "$k" "$p" "$(echo "$p / $k" | bc -l)"
    done
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

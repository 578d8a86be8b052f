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
# of REPEAT runs (3), taken in rounds: each round runs every size of the
# series once, so that the ratios compare runs made at the same moments of
# the machine, and wall times are read from a nanosecond clock (a 64 MB run
# takes a tenth of a second: /usr/bin/time's hundredths would be 7 % of it).
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
    start=$(date +%s%N)
    /usr/bin/time -f "%M %U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || true
    end=$(date +%s%N)
    awk -v ns=$((end - start)) '{ printf "%.3f %s %.2f\n", ns / 1e9, $1, $2 + $3 }' "$tmp/t"
}

best_secs() { # lines of secs (one per run) -> the least wall and CPU seconds, the largest peak RSS
    awk 'NR == 1 || $1 < w { w = $1 } $2 > m { m = $2 } NR == 1 || $3 < c { c = $3 }
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
        # Every size made first (page cache warm), then REPEAT rounds.
        n=0
        for spec in "$@"; do
            n=$((n + 1))
            case $spec in
                *.gz) size=${spec%.gz}; f="$tmp/trace-$n.json.gz"; floor=gzip ;;
                *) size=$spec; f="$tmp/trace-$n.json"; floor=cat ;;
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
            echo "$spec $f $floor $events $json" >>"$tmp/specs"
            : >"$tmp/runs-$n"
        done
        sync
        round=0
        while [ "$round" -lt "$repeat" ]; do
            while read -r spec f floor events json; do
                n=${f##*trace-}
                n=${n%%.*}
                cat "$f" >/dev/null
                secs "$tt" report -q -o /dev/null "$f" >>"$tmp/runs-$n"
            done <"$tmp/specs"
            round=$((round + 1))
        done
        t_first=""
        while read -r spec f floor events json; do
            n=${f##*trace-}
            n=${n%%.*}
            [ "$floor" = gzip ] && floor="gzip -dc"
            set -- $(secs sh -c "$floor \"\$1\" | wc -c" sh "$f") "$@"
            t_floor=$1
            shift 3
            set -- $(best_secs <"$tmp/runs-$n") "$@"
            t=$1 rss=$2 cpu=$3
            shift 3
            [ -n "$t_first" ] || t_first=$t
            [ "$style" = - ] || echo "$spec $t" >>"$tmp/side-$style"
            printf '%-16s %9.1f %9d %8.3f %7.2f %9.0f %11.0f %8.1f %9.2f %5.1fx %5.1fx\n' "$spec" \
                "$(echo "$json / 1000000" | bc -l)" "$events" "$t" "$cpu" \
                "$(echo "$json / 1000000 / $t" | bc -l)" "$(echo "$events / $t" | bc -l)" \
                "$(echo "$rss / 1024" | bc -l)" "$t_floor" "$(echo "$t / $t_floor" | bc -l)" \
                "$(echo "$t / $t_first" | bc -l)"
            rm -f "$f"
        done <"$tmp/specs"
        rm -f "$tmp/specs"
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

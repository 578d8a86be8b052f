#!/bin/sh
# Benchmark: the trace cache (core/trace/tracecache.h). The first open of a
# trace (parse, index, write the cache) against the second (read the
# cache), for the explorer's first screen and `report -q`, and the cache's
# size against the JSON's. Wall seconds (best of 2) with the CPU seconds
# (user + system) beside them: on a shared machine the CPU time is the
# steadier figure.
#
#   bench/cache.sh [BUILD_DIR] [TRACE]
#
# Without TRACE, a 1 GB tile of the H100 OWL-ViT trace (bench/tile.py 1G) is
# made in a temporary folder and deleted after. The cache goes to a
# temporary XDG_CACHE_HOME.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then
    f=$1
else
    f="$tmp/t1g.json"
    python3 "$here/tile.py" 1G "$f"
fi
XDG_CACHE_HOME="$tmp/xdg"
export XDG_CACHE_HOME
unset TORCHTOP_CACHE TORCHTOP_CACHE_MIN_BYTES TORCHTOP_CACHE_MAX_BYTES
echo quit >"$tmp/load-only"

# "out wall cpu rss_kb" of one run of a command: out is the seconds until
# a reader of its standard output saw the end of it (the cache is written
# after that), wall until the command ended.
# The output goes through a FIFO that only the command opens (time(1) would
# hold a pipe open to the end).
timed() {
    rm -f "$tmp/fifo"
    mkfifo "$tmp/fifo"
    {
        cat "$tmp/fifo" >/dev/null
        date +%s.%N >"$tmp/eof"
    } &
    reader=$!
    t0=$(date +%s.%N)
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" sh -c 'exec "$@" >"$0"' "$tmp/fifo" "$@" \
        2>"$tmp/err" || true
    wait $reader
    out=$(echo "$(cat "$tmp/eof") - $t0" | bc -l)
    awk -v out="$out" '{ printf "%.2f %.2f %.2f %d\n", out, $1, $2 + $3, $4 }' "$tmp/t"
}

# The explorer's first screen (seconds from the start of the load), as
# TORCHTOP_TIMING tells it, the other views held back; then "wall cpu rss".
# Options for the explorer in "$@".
screen() {
    TORCHTOP_HOLD_ANALYSIS=1 TORCHTOP_TIMING=1 LC_ALL=C.UTF-8 \
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" \
        "$tt" "$@" --script "$tmp/load-only" --size 120x40 "$f" >/dev/null 2>"$tmp/err" || true
    first=$(awk '/timing first screen at/ { print $6 }' "$tmp/err")
    printf '%.2f ' "$first"
    awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 }' "$tmp/t"
}

# Best of two by the first figure.
best2() {
    a=$("$@")
    b=$("$@")
    if [ "$(echo "$a" | awk '{ print $1 }')" \< "$(echo "$b" | awk '{ print $1 }')" ]; then
        echo "$a"
    else
        echo "$b"
    fi
}

json=$(stat -c %s "$f")
printf 'trace %s: %.0f MB\n\n' "$(basename "$f")" "$(echo "$json / 1000000" | bc -l)"
printf '%-34s %10s %9s %9s %9s\n' "" "output s" "wall s" "CPU s" "RSS MB"

rm -rf "$XDG_CACHE_HOME"
set -- $(timed "$tt" report -q --no-cache "$f")
printf '%-34s %10s %9s %9s %9d\n' "report -q, no cache" "$1" "$2" "$3" $(($4 / 1024))
set -- $(timed "$tt" report -q "$f")
printf '%-34s %10s %9s %9s %9d\n' "report -q, first open (writes)" "$1" "$2" "$3" $(($4 / 1024))
cache=$(cat "$XDG_CACHE_HOME"/torchtop/*.ttc | wc -c)
set -- $(best2 timed "$tt" report -q "$f")
rq=$2
printf '%-34s %10s %9s %9s %9d\n' "report -q, second open (cache)" "$1" "$2" "$3" $(($4 / 1024))

echo
printf '%-34s %10s %9s %9s %9s\n' "" "screen s" "wall s" "CPU s" "RSS MB"
rm -rf "$XDG_CACHE_HOME"
set -- $(screen --no-cache)
printf '%-34s %10s %9s %9s %9d\n' "explorer, no cache" "$1" "$2" "$3" $(($4 / 1024))
set -- $(screen)
printf '%-34s %10s %9s %9s %9d\n' "explorer, first open (writes)" "$1" "$2" "$3" $(($4 / 1024))
set -- $(best2 screen)
sc=$1
printf '%-34s %10s %9s %9s %9d\n' "explorer, second open (cache)" "$1" "$2" "$3" $(($4 / 1024))

echo
ratio=$(echo "$cache / $json" | bc -l)
ok() { [ "$(echo "$1" | bc -l)" = 1 ] && echo met || echo MISSED; }
printf 'second open: first screen %.2f s (target <= 0.5 s: %s), report -q %.2f s (target <= 1 s: %s)\n' \
    "$sc" "$(ok "$sc <= 0.5")" "$rq" "$(ok "$rq <= 1")"
printf 'cache %.0f MB = %.2f x the JSON (target <= 0.5: %s)\n' "$(echo "$cache / 1000000" | bc -l)" \
    "$ratio" "$(ok "$ratio <= 0.5")"

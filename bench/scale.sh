#!/bin/sh
# Scale benchmark: synthetic traces of 64 MB, 256 MB and 1 GB (plain) and
# 256 MB gzip, loaded with `torchtop report` (every table), next to the I/O
# floor of the same file (cat | wc -c for plain, gzip -dc | wc -c for gzip). Prints wall
# time, MB/s, events/s, peak RSS and the ratio to the floor.
#
#   bench/scale.sh [BUILD_DIR] [SIZES...]      e.g. bench/scale.sh build 64M 1G
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 64M 256M 1G 256M.gz
tt="$build/torchtop"
tmp=${TMPDIR:-/tmp}/torchtop-scale.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

secs() { # wall seconds of a command (output discarded)
    /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || true
    cat "$tmp/t"
}

printf '%-10s %9s %9s %8s %9s %11s %8s %9s %6s\n' size "JSON MB" events "load s" "MB/s" "events/s" \
    "RSS MB" "floor s" ratio
for spec in "$@"; do
    case $spec in
        *.gz) size=${spec%.gz}; f="$tmp/trace-$size.json.gz"; floor="gzip -dc" ;;
        *) size=$spec; f="$tmp/trace-$size.json"; floor="cat" ;;
    esac
    "$tt" gen --size "$size" --stats -o "$f" 2>"$tmp/gen"
    events=$(sed -n 's/.* \([0-9][0-9]*\) events,.*/\1/p' "$tmp/gen")
    json=$(sed -n 's/.* events, \([0-9][0-9]*\) bytes of JSON.*/\1/p' "$tmp/gen")
    # written out and in the page cache, then measure
    sync
    cat "$f" >/dev/null
    set -- $(secs sh -c "$floor \"\$1\" | wc -c" sh "$f")
    t_floor=$1
    set -- $(secs "$tt" report -q -o /dev/null "$f")
    t=$1 rss=$2
    printf '%-10s %9.1f %9d %8.2f %9.0f %11.0f %8.1f %9.2f %5.1fx\n' "$spec" \
        "$(echo "$json / 1000000" | bc -l)" "$events" "$t" "$(echo "$json / 1000000 / $t" | bc -l)" \
        "$(echo "$events / $t" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$t_floor" \
        "$(echo "$t / $t_floor" | bc -l)"
    rm -f "$f"
done

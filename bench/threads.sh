#!/bin/sh
# Thread scaling of the loader: `torchtop report -q` on one trace with
# TORCHTOP_THREADS=1 and =2 (TORCHTOP_TIMING=1), best of REPEAT runs of each,
# interleaved so that both see the same machine. Prints the seconds of the
# load (reading and parsing) and of the index built after it, their sum
# (the load as a user waits for it), the whole run's wall and CPU seconds,
# and the ratio 1 thread / 2 threads of each (on two idle cores the load
# should approach 2; the index has one side thread).
#
#   bench/threads.sh [BUILD_DIR] [TRACE]     default trace: a 64 MB tile
#   REPEAT=3                                 runs of each
# The default trace is made by bench/tile.py from the H100 OWL-ViT trace
# (found through TORCHTOP_SHARED) unless TRACE is given.
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
tt="$build/torchtop"
repeat=${REPEAT:-3}
tmp=${TMPDIR:-/tmp}/torchtop-threads.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 2 ]; then
    trace=$2
else
    shared="${TORCHTOP_SHARED:-$here/../../shared}"
    trace="$tmp/tile-64M.json"
    python3 "$here/tile.py" 64M "$trace" \
        "$shared/traces/tracelens-h100-owlv2-infer-large.json.gz" 2>/dev/null
fi
cat "$trace" >/dev/null # in the page cache

run() { # threads -> "load index wall cpu"
    TORCHTOP_THREADS=$1 TORCHTOP_TIMING=1 /usr/bin/time -f "wall %e %U %S" -o "$tmp/t" \
        "$tt" report -q "$trace" >/dev/null 2>"$tmp/err"
    load=$(sed -n 's/.*timing load *\([0-9.]*\) s.*/\1/p' "$tmp/err")
    index=$(sed -n 's/.*timing index *\([0-9.]*\) s.*/\1/p' "$tmp/err")
    read -r _ wall user sys <"$tmp/t"
    both=$(awk -v l="$load" -v i="$index" 'BEGIN { printf "%.3f", l + i }')
    echo "$load $index $both $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
}

min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc)" = 1 ]; then echo "$2"; else echo "$1"; fi; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "trace: $trace ($(wc -c <"$trace") bytes)"
l1="" i1="" b1="" w1="" c1="" l2="" i2="" b2="" w2="" c2=""
i=0
while [ $i -lt "$repeat" ]; do
    set -- $(run 1)
    l1=$(min "$l1" "$1") i1=$(min "$i1" "$2") b1=$(min "$b1" "$3") w1=$(min "$w1" "$4")
    c1=$(min "$c1" "$5")
    set -- $(run 2)
    l2=$(min "$l2" "$1") i2=$(min "$i2" "$2") b2=$(min "$b2" "$3") w2=$(min "$w2" "$4")
    c2=$(min "$c2" "$5")
    i=$((i + 1))
done
printf '%-10s %8s %8s %12s %8s %8s\n' threads "load s" "index s" "load+index s" "wall s" "cpu s"
printf '%-10s %8s %8s %12s %8s %8s\n' 1 "$l1" "$i1" "$b1" "$w1" "$c1"
printf '%-10s %8s %8s %12s %8s %8s\n' 2 "$l2" "$i2" "$b2" "$w2" "$c2"
# A phase of 0 s (a trace read from its cache) has no ratio.
ratio() { if [ "$(echo "$2 > 0" | bc)" = 1 ]; then printf '%8.2f' "$(echo "$1 / $2" | bc -l)"; else printf '%8s' -; fi; }
printf '%-10s %s %s %12s %s\n' "1/2" "$(ratio "$l1" "$l2")" "$(ratio "$i1" "$i2")" \
    "$(ratio "$b1" "$b2" | tr -d ' ')" "$(ratio "$w1" "$w2")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

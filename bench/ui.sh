#!/bin/sh
# Benchmark: keystrokes of the explorer on large traces. A scripted session
# (script mode, headless, the same code as the terminal loop) times every
# step with a monotonic clock, from the key to the end of the redraw
# (doupdate), and this prints p50 / p99 / max per action against the 16 ms
# budget of one frame.
#
#   bench/ui.sh [BUILD_DIR] [TRACE...]
#
# Default traces: the largest shared trace and a synthetic trace of about
# one million events (torchtop gen). The steps are in bench/ui-steps.txt
# (REPEAT N lines expand to N copies of the line after them).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
    set -- "$shared/traces/tracelens-h100-owlv2-infer-large.json.gz"
    "$tt" gen --events 1000000 --gzip -o "$tmp/synth-1M.json.gz"
    set -- "$@" "$tmp/synth-1M.json.gz"
fi

# Expand "REPEAT N" lines.
awk '/^REPEAT / { n = $2; next } { if (n) { for (i = 0; i < n; i++) print; n = 0 } else print }' \
    "$here/ui-steps.txt" > "$tmp/steps"

for f in "$@"; do
    start=$(date +%s.%N)
    LC_ALL=C.UTF-8 "$tt" --script "$tmp/steps" --script-timing "$tmp/timing" --size 120x40 "$f"
    end=$(date +%s.%N)
    events=$(LC_ALL=C "$tt" report -q -t timeline "$f" | awk '/^events:/ { print $2 }' | tr -d ,)
    printf '\n%s  (%s events; session %.1f s including the load)\n' "$(basename "$f")" "$events" \
        "$(echo "$end - $start" | bc)"
    printf '%-14s %6s %9s %9s %9s  %s\n' action steps "p50 ms" "p99 ms" "max ms" "p99 <= 16 ms"
    sort -t "$(printf '\t')" -k1,1 -k2,2g "$tmp/timing" | awk -F '\t' '
        function flush() {
            if (!n) return
            i50 = int((n - 1) * 0.50) + 1; i99 = int((n - 1) * 0.99 + 0.999999) + 1
            if (i99 > n) i99 = n
            printf "%-14s %6d %9.3f %9.3f %9.3f  %s\n", name, n, v[i50], v[i99], v[n], v[i99] <= 16 ? "yes" : "NO"
        }
        $1 != name { flush(); name = $1; n = 0 }
        { v[++n] = $2 }
        END { flush() }'
done

#!/bin/sh
# Benchmark: rescoping in the explorer on a large trace. A scripted session
# (headless, the code the terminal runs) loads the trace, builds its views,
# then marks a range on the timeline (m at each end) and opens the step
# list's slowest step (T, sorted by duration, Enter), each time until the
# scope's op table is drawn, and goes back to the whole trace (Esc). The
# scope's other views are held back (TORCHTOP_HOLD_ANALYSIS) so that the
# times are those of the first screen, as when a trace opens; they are
# built behind it otherwise. Target: the op table within 0.5 s.
#
#   bench/scope.sh [BUILD_DIR] [SIZE | TRACE ...]
#
# A SIZE (256M, 1G) tiles the shared OWLv2 trace with bench/tile.py (its
# one step repeated: the range only) and generates a trace with steps of
# the same size with torchtop gen, both in a temporary directory removed at
# the end (under $TMPDIR, else /tmp). Default: 256M. Wall and CPU time
# (every thread's, user + system) are printed for each step: the machine
# may be shared.
set -eu
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-scope.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
[ $# -eq 0 ] && set -- 256M
traces=""
for a in "$@"; do
    case $a in
    [0-9]*[kKmMgG])
        echo "tiling the OWLv2 trace and generating a trace with steps, $a each ..."
        python3 "$here/tile.py" "$a" "$tmp/tiled-$a.json" 2>/dev/null
        "$tt" gen --size "$a" -o "$tmp/gen-$a.json"
        traces="$traces $tmp/tiled-$a.json $tmp/gen-$a.json"
        ;;
    *) traces="$traces $a" ;;
    esac
done

# The range: about a tenth of the trace, a third of the way in.
cat > "$tmp/range" <<'STEPS'
wait-analysis
focus-timeline
move-first
keys lllllllllllllllllllllllllllllllll
mark
keys llllllllll
mark
expect scope: window
cancel
expect back from
STEPS
cat > "$tmp/step" <<'STEPS'
wait-analysis
steps
sort-by duration_ms
enter
expect scope: step
cancel
expect back from
STEPS

# Wall and CPU ms of the session's mark, enter and cancel steps.
show() {
    awk -F '\t' -v what="$1" '
        $1 == "mark" { n++; if (n == 2) printf "  %-34s %8.0f ms wall %8.0f ms CPU\n", what " (op table shown)", $2, $3 }
        $1 == "enter" { printf "  %-34s %8.0f ms wall %8.0f ms CPU\n", what " (op table shown)", $2, $3 }
        $1 == "cancel" { printf "  %-34s %8.0f ms wall %8.0f ms CPU\n", "Esc (the whole trace)", $2, $3 }
    ' "$tmp/timing"
}

# shellcheck disable=SC2086
for f in $traces; do
    size=$(du -h "$f" | cut -f1)
    events=$("$tt" report -q -t timeline "$f" | awk '/^events:/ { print $2 }' | tr -d ,)
    printf '\n%s  (%s, %s events)\n' "$(basename "$f")" "$size" "$events"
    TORCHTOP_HOLD_ANALYSIS=1 LC_ALL=C.UTF-8 "$tt" --script "$tmp/range" \
        --script-timing "$tmp/timing" --size 120x40 "$f"
    show "range (m, m)"
    # A tiled trace repeats its steps' numbers (one step would be all the
    # copies): the step list is timed on traces with two steps or more.
    nsteps=$("$tt" report -q --no-header -t steps -f csv "$f" 2>/dev/null | awk 'END { print NR - 1 }')
    if [ "${nsteps:-0}" -ge 2 ]; then
        TORCHTOP_HOLD_ANALYSIS=1 LC_ALL=C.UTF-8 "$tt" --script "$tmp/step" \
            --script-timing "$tmp/timing" --size 120x40 "$f"
        show "slowest step (T, Enter)"
    fi
done

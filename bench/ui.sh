#!/bin/sh
# Benchmark: keystrokes of the explorer on large traces. A scripted session
# (script mode, headless, the same code as the terminal loop) times every
# step with a monotonic clock, from the key to the end of the redraw
# (doupdate), and this prints p50 / p99 / max per action against the 16 ms
# budget of one frame. "(idle)" is the work done between keys in bounded
# steps (rows of the call tree still being made): the longest a key can
# wait behind it.
#
#   bench/ui.sh [BUILD_DIR] [TRACE | SIZE | JOB_DIR ...]
#
# A JOB_DIR (the traces of a multi-rank job) runs bench/ui-job-steps.txt in
# the job view instead; dlrm-job is the shared 8-rank param-dlrm job.
# diff:CONTROL:TEST runs bench/ui-diff-steps.txt in the explorer on the
# diff of two traces; owl-diff is the shared OWLv2 H100/MI300 pair.
#
# A SIZE (e.g. 1G, 256M) generates a synthetic trace of that many bytes of
# JSON with torchtop gen, in a temporary directory removed at the end.
# Default: the largest shared trace and a synthetic trace of about one
# million events. For each trace it also prints the explorer's load: the
# time and peak memory of a session that only loads the trace and builds
# its tables. The steps are in bench/ui-steps.txt (REPEAT N lines expand
# to N copies of the line after them). "first screen" compares, in the same
# run, when the explorer's first screen is drawn (TORCHTOP_TIMING, the
# other views held back by TORCHTOP_HOLD_ANALYSIS) with the report's load
# and index phases: the target is within 0.3 s of them.
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ $# -eq 0 ]; then
    set -- "$shared/traces/tracelens-h100-owlv2-infer-large.json.gz" 1M-events
fi
traces=""
for a in "$@"; do
    case $a in
    1M-events)
        "$tt" gen --events 1000000 --gzip -o "$tmp/synth-1M.json.gz"
        traces="$traces $tmp/synth-1M.json.gz"
        ;;
    dlrm-job)
        # The shared 8-rank job, as a directory.
        mkdir -p "$tmp/param-dlrm-8rank"
        for r in "$shared"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json; do
            ln -s "$r" "$tmp/param-dlrm-8rank/"
        done
        traces="$traces $tmp/param-dlrm-8rank"
        ;;
    owl-diff)
        traces="$traces diff:$shared/traces/tracelens-h100-owlv2-infer-large.json.gz:$shared/traces/tracelens-mi300-owlv2-infer-large.json.gz"
        ;;
    [0-9]*[kKmMgG])
        echo "generating a synthetic trace of $a ..."
        "$tt" gen --size "$a" -o "$tmp/synth-$a.json"
        traces="$traces $tmp/synth-$a.json"
        ;;
    *) traces="$traces $a" ;;
    esac
done
# shellcheck disable=SC2086
set -- $traces

# p50 / p99 / max per action of the session's timings.
report_timing() {
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
}

# Expand "REPEAT N" lines.
awk '/^REPEAT / { n = $2; next } { if (n) { for (i = 0; i < n; i++) print; n = 0 } else print }' \
    "$here/ui-steps.txt" > "$tmp/steps"

awk '/^REPEAT / { n = $2; next } { if (n) { for (i = 0; i < n; i++) print; n = 0 } else print }' \
    "$here/ui-job-steps.txt" > "$tmp/job-steps"

awk '/^REPEAT / { n = $2; next } { if (n) { for (i = 0; i < n; i++) print; n = 0 } else print }' \
    "$here/ui-diff-steps.txt" > "$tmp/diff-steps"

echo quit > "$tmp/load-only"
for f in "$@"; do
    case $f in
    diff:*:*)
        # A pair: the diff's steps; the session includes loading both.
        pair=${f#diff:}
        start=$(date +%s.%N)
        LC_ALL=C.UTF-8 "$tt" diff --script "$tmp/diff-steps" --script-timing "$tmp/timing" \
            --size 120x40 "${pair%%:*}" "${pair#*:}"
        end=$(date +%s.%N)
        printf '\ndiff %s %s  (session %.1f s including the load)\n' "$(basename "${pair%%:*}")" \
            "$(basename "${pair#*:}")" "$(echo "$end - $start" | bc)"
        report_timing
        continue
        ;;
    esac
    if [ -d "$f" ]; then
        # A job directory: the job view's steps; no report load to set the
        # first screen against.
        start=$(date +%s.%N)
        (echo "search allreduce"; cat "$tmp/job-steps") > "$tmp/job-steps-s"
        LC_ALL=C.UTF-8 "$tt" --script "$tmp/job-steps-s" --script-timing "$tmp/timing" \
            --size 120x40 "$f"
        end=$(date +%s.%N)
        printf '\n%s  (a job of %s traces; session %.1f s including the load)\n' "$(basename "$f")" \
            "$(ls "$f" | wc -l)" "$(echo "$end - $start" | bc)"
        report_timing
        continue
    fi
    # The load alone: wall time and peak memory of a session with no steps.
    if [ -x /usr/bin/time ]; then
        load=$(LC_ALL=C.UTF-8 /usr/bin/time -f '%e s, peak RSS %M KB' "$tt" --script "$tmp/load-only" \
            --size 120x40 "$f" 2>&1 >/dev/null | tail -1)
    else
        start=$(date +%s.%N)
        LC_ALL=C.UTF-8 "$tt" --script "$tmp/load-only" --size 120x40 "$f"
        load="$(echo "$(date +%s.%N) - $start" | bc) s"
    fi
    start=$(date +%s.%N)
    LC_ALL=C.UTF-8 "$tt" --script "$tmp/steps" --script-timing "$tmp/timing" --size 120x40 "$f"
    end=$(date +%s.%N)
    events=$(LC_ALL=C "$tt" report -q -t timeline "$f" | awk '/^events:/ { print $2 }' | tr -d ,)
    printf '\n%s  (%s events; load %s; session %.1f s including the load)\n' "$(basename "$f")" \
        "$events" "$load" "$(echo "$end - $start" | bc)"
    # First screen against the report's load (the load and index phases).
    rload=$(TORCHTOP_TIMING=1 "$tt" report -q "$f" 2>&1 >/dev/null |
        awk '$2 == "timing" && ($3 == "load" || $3 == "index") { s += $4 } END { printf "%.3f", s }')
    first=$(TORCHTOP_HOLD_ANALYSIS=1 TORCHTOP_TIMING=1 LC_ALL=C.UTF-8 "$tt" --script "$tmp/load-only" \
        --size 120x40 "$f" 2>&1 >/dev/null | awk '/timing first screen at/ { print $6 }')
    echo "$first $rload" | awk '{ d = $1 - $2
        printf "first screen %.3f s, report load %.3f s: ratio %.3f, %+.3f s (target <= +0.3 s: %s)\n",
            $1, $2, ($2 > 0 ? $1 / $2 : 0), d, (d <= 0.3005 ? "met" : "NOT met") }'
    report_timing
done

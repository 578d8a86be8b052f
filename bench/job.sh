#!/bin/sh
# Benchmark: multi-rank jobs. (1) `torchtop report` with every job table on
# the 8 shared param-dlrm ranks, against Python merely parsing the same 8
# files (json.load); (2) 1,000 synthetic rank summaries merged by `torchtop
# report`, against Python merely decompressing and parsing them; (3) the
# map step on a big rank: `torchtop summarize` against `torchtop report -q`
# of the same trace (a generated rank of SIZE bytes, and the largest
# shared trace), the ratio being summarize / report. Wall time (best of
# 3), peak RSS, ratios, in one run.
#
#   bench/job.sh [BUILD_DIR] [RANKS] [SIZE]     (SIZE default 1G; 0 skips it)
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
ranks=${2:-1000}
size=${3:-1G}
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

measure() {
    best="" rss=0
    for i in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>&1 || true
        read -r s m <"$tmp/t"
        if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    echo "$best $rss"
}

row() { # label, torchtop s, KB, python s, KB
    printf '%-34s %9s %8d %9s %8d %7.2f\n' "$1" "$2" $(($3 / 1024)) "$4" $(($5 / 1024)) \
        "$(echo "scale=4; $2 / ($4 + 0.0001)" | bc)"
}
printf '%-34s %9s %8s %9s %8s %7s\n' input "torchtop" "RSS MB" "python" "RSS MB" ratio

if ls "$shared"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json >/dev/null 2>&1; then
    set -- $(measure "$tt" report -q "$shared/traces/param-dlrm-v100-8rank-rank*.pt.trace.json")
    a=$1 b=$2
    set -- $(measure python3 -c 'import json,sys; [json.load(open(f)) for f in sys.argv[1:]]' \
        "$shared"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json)
    row "8 param-dlrm ranks, all tables" "$a" "$b" "$1" "$2"
else
    echo "(no ../shared: the 8-rank row is left out)"
fi

"$tt" gen --ranks "$ranks" --gzip -o "$tmp/job"
# The map step, as the README's recipe runs it (not timed here).
if command -v parallel >/dev/null 2>&1; then
    (cd "$tmp/job" && ls | parallel --will-cite -j2 "$tt" summarize {} -o {.}.summary)
else
    for f in "$tmp"/job/rank-*.json.gz; do "$tt" summarize "$f" -o "${f%.gz}.summary"; done
fi
rm -f "$tmp"/job/rank-*.json.gz
set -- $(measure "$tt" report -q "$tmp/job")
a=$1 b=$2
set -- $(measure python3 -c 'import json,gzip,sys,os; d=sys.argv[1]; [json.load(gzip.open(os.path.join(d,f))) for f in os.listdir(d)]' "$tmp/job")
row "$ranks summaries merged, all tables" "$a" "$b" "$1" "$2"
echo "summary size: $(du -sk "$tmp/job" | cut -f1) KB for $ranks ranks"

# (3) summarize at the speed of report: both load the whole trace; the
# summary's own work (timeline, collectives, ops, compute intervals) is
# what summarize adds, under 1% of its time in perf. Measured on 2 shared
# cores (Dec 2026): a 1041 MB generated rank, summarize 34.9 s / 363 MB
# against report -q 38.4 s / 459 MB (0.91); tracelens-mi300-owlv2-infer-large
# (2.9 MB gzip), 1.76 s against 1.60 s, user time 0.43 s against 0.43-0.56 s.
printf '%-34s %9s %8s %9s %8s %7s\n' input "summarize" "RSS MB" "report" "RSS MB" ratio
big=""
if [ "$size" != 0 ]; then
    "$tt" gen --size "$size" -o "$tmp/big.json"
    big="$tmp/big.json"
fi
largest=$(ls -S "$shared"/traces/*.json* 2>/dev/null | head -1 || true)
for f in $big $largest; do
    set -- $(measure "$tt" summarize "$f" -o "$tmp/big.summary")
    a=$1 b=$2
    set -- $(measure "$tt" report -q "$f")
    row "$(basename "$f") ($(($(stat -c %s "$f") / 1048576)) MB)" "$a" "$b" "$1" "$2"
done

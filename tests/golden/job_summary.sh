#!/bin/sh
# Map/merge: rank summaries written by `torchtop summarize` (one by one,
# and with GNU parallel -j2 when it is installed, as the README's recipe
# runs it) give the same cross-rank tables, byte for byte, as the traces.
set -u
tt="$(cd "${top_builddir:-.}" && pwd)/torchtop"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-job-sum.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
"$tt" gen --ranks 5 --steps 2 -o "$tmp/job" || exit 1
for f in "$tmp"/job/rank-*.json; do
    "$tt" summarize "$f" -o "${f%.json}.summary" || fail=1
done
for fmt in csv json; do
    "$tt" report -q -f $fmt "$tmp"/job/rank-*.json >"$tmp/traces.$fmt" || fail=1
    "$tt" report -q -f $fmt "$tmp"/job/rank-*.summary >"$tmp/sums.$fmt" || fail=1
    cmp -s "$tmp/traces.$fmt" "$tmp/sums.$fmt" || {
        echo "FAIL: tables from summaries differ from the traces' ($fmt):"
        diff "$tmp/traces.$fmt" "$tmp/sums.$fmt" | head -20
        fail=1
    }
done
# The ranks' bound (their critical paths) comes through the summaries: the
# comparison above covers it only when it is there.
awk -F, '{ sub(/\r$/, "") } /^# / { t = $0; next }
    t == "# ranks" && $1 == "rank" { for (i = 1; i <= NF; i++) if ($i == "bound") c = i; next }
    t == "# ranks" && c && $c ~ /%$/ { n++ } END { exit n == 5 ? 0 : 1 }' "$tmp/sums.csv" ||
    { echo "FAIL: the summaries' ranks have no bound"; fail=1; }
# A summary that is cut is bad input, named; a trace is not overwritten.
head -c 100 "$tmp/job/rank-1.summary" >"$tmp/cut.summary"
"$tt" report -q "$tmp/job/rank-0.summary" "$tmp/cut.summary" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "cut.summary" "$tmp/err" || { echo "FAIL: cut summary: exit $rc"; cat "$tmp/err"; fail=1; }
"$tt" summarize "$tmp/job/rank-0.json" -o "$tmp/job/rank-0.json" 2>/dev/null
[ $? -eq 1 ] || { echo "FAIL: summarize onto its input"; fail=1; }

if command -v parallel >/dev/null 2>&1; then
    mkdir "$tmp/par"
    cp "$tmp"/job/rank-*.json "$tmp/par/"
    (cd "$tmp/par" && parallel --will-cite -j2 "$tt" summarize {} -o {.}.summary ::: rank-*.json) ||
        { echo "FAIL: GNU parallel recipe"; fail=1; }
    (cd "$tmp/par" && "$tt" report -q -f csv rank-*.summary >"$tmp/par.csv") || fail=1
    (cd "$tmp/par" && "$tt" report -q -f csv rank-*.json >"$tmp/par-traces.csv") || fail=1
    cmp -s "$tmp/par.csv" "$tmp/par-traces.csv" || { echo "FAIL: parallel summaries differ"; fail=1; }
else
    echo "note: GNU parallel not installed; its recipe is not run (Debian package parallel)"
fi
exit $fail

#!/bin/sh
# HTA's tables per rank of a job (report -t T DIR|TRACE...): on a
# generated 3-rank job and on the 8 shared param-dlrm ranks, each rank's
# rows of all seven tables equal `report -t T` on that rank's file alone
# (job_hta.py), also under --top; every format writes them; a sort
# applies within each rank; rank summaries are refused (exit 2, the table
# and file named).
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
tt="${top_builddir:-.}/torchtop"
chk="${top_srcdir:-.}/tests/golden/job_hta.py"
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    echo "SKIP: python3 not found"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-job-hta.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

"$tt" gen --ranks 3 -o "$tmp/job" >/dev/null || exit 1
"$PYTHON3" "$chk" --torchtop "$tt" --input "$tmp/job" "$tmp"/job/rank-*.json || fail=1
# Ranks numbered by file name, given as files in another order.
mkdir "$tmp/names"
for r in 0 1 2; do
    sed 's/"distributedInfo": {[^}]*},//' "$tmp/job/rank-$r.json" >"$tmp/names/t_rank_$((2 - r)).json"
done
"$PYTHON3" "$chk" --torchtop "$tt" --tables temporal,queue-length \
    --input "$tmp/names/t_rank_2.json" --input "$tmp/names/t_rank_0.json" \
    --input "$tmp/names/t_rank_1.json" "$tmp"/names/t_rank_*.json || fail=1

# Every format, HTA's tables beside the job's own.
for f in text csv md json; do
    "$tt" report -q -f "$f" -t ranks,temporal,idle-time "$tmp/job" >"$tmp/out.$f" ||
        { echo "FAIL: -f $f exited $?"; fail=1; }
    grep -q "idle" "$tmp/out.$f" && grep -q "slowest\|rank" "$tmp/out.$f" ||
        { echo "FAIL: -f $f lacks the tables"; cat "$tmp/out.$f"; fail=1; }
done
# CSV: the merged table leads with the job's rank and has 3 ranks' rows.
tr -d '\r' <"$tmp/out.csv" >"$tmp/lf.csv"
n=$(sed -n '/^# hta_temporal_breakdown/,/^$/p' "$tmp/lf.csv" | grep -c '^[0-2],')
head=$(sed -n '/^# hta_temporal_breakdown/{n;p;}' "$tmp/lf.csv")
[ "$n" -eq 3 ] && [ "${head%%,*}" = rank ] ||
    { echo "FAIL: temporal CSV: $n rank rows, header '$head'"; cat "$tmp/out.csv"; fail=1; }
if grep -q '#define HAVE_XLSXWRITER 1' "${top_builddir:-.}/config.h" 2>/dev/null; then
    "$tt" report -q -t temporal,launch-stats --xlsx "$tmp/hta.xlsx" "$tmp/job" ||
        { echo "FAIL: --xlsx exited $?"; fail=1; }
    [ -s "$tmp/hta.xlsx" ] || { echo "FAIL: no workbook"; fail=1; }
fi
# A sort orders each rank's rows, ranks stay in order.
"$tt" report -q -f csv -s idle_time -t idle-time "$tmp/job" >"$tmp/sorted.csv" || fail=1
awk -F, 'NR > 2 && NF > 1 { if ($1 < last) bad = 1; last = $1 } END { exit bad }' \
    "$tmp/sorted.csv" || { echo "FAIL: -s mixed the ranks"; cat "$tmp/sorted.csv"; fail=1; }
"$tt" report -q -s nosuch -t temporal "$tmp/job" >/dev/null 2>&1
[ $? -eq 64 ] || { echo "FAIL: unknown sort column not a usage error"; fail=1; }

# Rank summaries hold no events: refused, naming the table and the file.
for r in 0 1 2; do
    "$tt" summarize "$tmp/job/rank-$r.json" -o "$tmp/job/rank-$r.summary" || fail=1
done
"$tt" report -q -t overlap "$tmp"/job/rank-*.summary >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "overlap" "$tmp/err" || ! grep -q "rank-0.summary" "$tmp/err" ||
    ! grep -q "trace" "$tmp/err"; then
    echo "FAIL: summaries: exit $rc, expected 2 naming the table and the file:"; cat "$tmp/err"
    fail=1
fi
# The job's own tables still read summaries.
"$tt" report -q -t ranks "$tmp"/job/rank-*.summary >/dev/null || { echo "FAIL: ranks of summaries"; fail=1; }

# The 8 shared param-dlrm ranks (skipped without the shared folder).
(
    . "${top_srcdir:-.}/tests/lib/shared.sh"
    "$PYTHON3" "$chk" --torchtop "$tt" \
        --input "$SHARED/traces/param-dlrm-v100-8rank-rank*.pt.trace.json" \
        "$SHARED"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json || exit 1
    # --top cuts each rank's ranking tables as the rank's own report does.
    exec "$PYTHON3" "$chk" --torchtop "$tt" --top 1 \
        --input "$SHARED/traces/param-dlrm-v100-8rank-rank*.pt.trace.json" \
        "$SHARED"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json
)
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail=1
exit $fail

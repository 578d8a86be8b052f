#!/bin/sh
# Generated multi-rank jobs (torchtop gen --ranks): every cross-rank column
# against the values job_check.py computes from the files, the injected
# straggler found; inputs as a directory, a glob and files; a rank given
# twice and ranks of two jobs refused (exit 2, both files named).
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
tt="${top_builddir:-.}/torchtop"
chk="${top_srcdir:-.}/tests/golden/job_check.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-job-gen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

"$tt" gen --ranks 4 -o "$tmp/meta" || exit 1
"$PYTHON3" "$chk" --torchtop "$tt" --expect-straggler 2 --expect-mode process_group \
    --input "$tmp/meta" "$tmp"/meta/rank-*.json || fail=1
"$tt" gen --ranks 6 --steps 3 --collectives 5 --straggler 5 --straggler-us 900 --no-metadata \
    --gzip -o "$tmp/plain" || exit 1
"$PYTHON3" "$chk" --torchtop "$tt" --expect-straggler 5 --expect-mode order \
    --input "$tmp/plain/rank-*.json.gz" "$tmp"/plain/rank-*.json.gz || fail=1

# The same bytes for the same options.
"$tt" gen --ranks 4 -o "$tmp/again" || exit 1
cmp -s "$tmp/meta/rank-3.json" "$tmp/again/rank-3.json" || { echo "FAIL: gen --ranks not deterministic"; fail=1; }

# Rank from the file names when distributedInfo is absent, and the header says so.
mkdir "$tmp/names"
for r in 0 1 2; do
    sed 's/"distributedInfo": {[^}]*},//' "$tmp/meta/rank-$r.json" >"$tmp/names/trace_rank_$((2 - r)).json"
done
out=$("$tt" report -q -t ranks "$tmp/names") || { echo "FAIL: report of a directory"; fail=1; }
echo "$out" | grep -q "numbered by file name" || { echo "FAIL: header does not say ranks came from file names"; echo "$out"; fail=1; }

# Two files claiming one rank.
mkdir "$tmp/dup"
cp "$tmp/meta/rank-0.json" "$tmp/dup/a.json"
cp "$tmp/meta/rank-0.json" "$tmp/dup/b.json"
"$tt" report -q "$tmp/dup" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "rank 0" "$tmp/err" || ! grep -q "a.json" "$tmp/err"; then
    echo "FAIL: duplicate rank: exit $rc, expected 2 naming both files:"; cat "$tmp/err"; fail=1
fi
# Ranks of two jobs (world_size 4 and 3).
"$tt" gen --ranks 3 -o "$tmp/three" || exit 1
"$tt" report -q "$tmp/meta/rank-0.json" "$tmp/three/rank-1.json" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "world_size" "$tmp/err"; then
    echo "FAIL: mixed world sizes: exit $rc, expected 2:"; cat "$tmp/err"; fail=1
fi
# A pattern without matches, an unknown table.
"$tt" report -q "$tmp/none-*.json" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "matches no file" "$tmp/err" || { echo "FAIL: empty glob: exit $rc"; cat "$tmp/err"; fail=1; }
"$tt" report -q -t nosuch "$tmp/meta" >/dev/null 2>"$tmp/err"
[ $? -eq 64 ] || { echo "FAIL: unknown job table not a usage error"; fail=1; }
# A truncated rank is bad input, named.
head -c 3000 "$tmp/meta/rank-1.json" >"$tmp/cut.json"
"$tt" report -q "$tmp/meta/rank-0.json" "$tmp/cut.json" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "cut.json" "$tmp/err" || { echo "FAIL: truncated rank: exit $rc"; cat "$tmp/err"; fail=1; }
exit $fail

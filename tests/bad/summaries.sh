#!/bin/sh
# Rank summaries read back what summarize writes, and nothing else:
#  - numbers: traces with negative timestamps, traces longer than 104 days
#    (ns values past 2^53) and collectives whose sums pass int64 give the
#    same job tables from their summaries as from the traces, and no sum
#    wraps (saturated instead);
#  - strictness: trailing bytes, a second document or a duplicate key are
#    refused with the offset;
#  - messages: duplicate-rank and world-size errors name the summary files;
#    summarize -o /dev/full says why (no space); a job's error starts a
#    line of its own after the progress line.
set -u
. "${top_srcdir:-.}/tests/lib/corpus.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
command -v "$PYTHON3" >/dev/null 2>&1 || {
    echo "SKIP: python3 not found"
    exit 77
}

# gen DIR MODE: rank-0.json and rank-1.json, four collectives matched
# across the two ranks and a compute kernel after each.
gen() {
    mkdir -p "$1"
    "$PYTHON3" - "$1" "$2" <<'PY'
import json, sys
d, mode = sys.argv[1], sys.argv[2]
DAY_US = 86400 * 10**6
for r in range(2):
    if mode == "neg":
        starts = [-5000000 + k * 1000 + r * 7 for k in range(4)]
        durs = [100 + r] * 4
    elif mode == "long":
        starts = [k * 50 * DAY_US + r * 9 for k in range(4)]
        durs = [200 + k for k in range(4)]
    else:  # big: waits and durations near 2^62 ns, sums past 2^63
        starts = [(-4600000000000000 if r == 0 else 0) + k * 10 for k in range(4)]
        durs = [4000000000000000] * 4
    ev = []
    for k, (ts, du) in enumerate(zip(starts, durs)):
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                   "tid": 1, "ts": ts - 1, "dur": 1, "args": {"correlation": 100 + k}})
        ev.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                   "pid": 0, "tid": 7, "ts": ts, "dur": du,
                   "args": {"correlation": 100 + k, "stream": 7, "device": 0,
                            "Collective name": "allreduce", "dtype": "Float",
                            "In msg nelems": 1024, "Out msg nelems": 1024, "Group size": 2,
                            "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}})
        ev.append({"ph": "X", "cat": "kernel", "name": "gemm_k", "pid": 0, "tid": 8,
                   "ts": ts + 2, "dur": 5, "args": {"stream": 8, "device": 0}})
    json.dump({"distributedInfo": {"rank": r, "world_size": 2}, "traceEvents": ev},
              open("%s/rank-%d.json" % (d, r), "w"))
PY
}

# --- Whatever summarize writes, the reader reads; tables as from traces ----
for mode in neg long big; do
    d="$tmp/$mode"
    gen "$d" "$mode"
    for r in 0 1; do
        "$tt" summarize -o "$d/r$r.summary" "$d/rank-$r.json" 2>"$tmp/err"
        ok $? "$mode: summarize rank $r: $(cat "$tmp/err")"
    done
    "$tt" report -q -f csv --no-header "$d/rank-0.json" "$d/rank-1.json" >"$d/traces.csv" 2>"$tmp/err"
    ok $? "$mode: report on the traces: $(cat "$tmp/err")"
    "$tt" report -q -f csv --no-header "$d/r0.summary" "$d/r1.summary" >"$d/sums.csv" 2>"$tmp/err"
    ok $? "$mode: report on the summaries: $(cat "$tmp/err")"
    cmp -s "$d/traces.csv" "$d/sums.csv"
    ok $? "$mode: the tables from the summaries equal those from the traces"
done
# No sum wraps: every number of the stragglers table is 0 or more.
"$tt" report -q -f csv --no-header -t stragglers "$tmp/big/rank-0.json" "$tmp/big/rank-1.json" \
    >"$tmp/out" 2>"$tmp/err"
! grep -q -- ',-' "$tmp/out"
ok $? "big: no negative wait or nccl time: $(tr '\n' ' ' <"$tmp/out")"

# A base time past +-2^62 ns would overflow the absolute times: refused.
printf '{"baseTimeNanoseconds": 9223372036854775000, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1000000, "dur": 5, "args": {"stream": 7, "device": 0}}]}' \
    >"$tmp/base.json"
"$tt" summarize -o "$tmp/base.summary" "$tmp/base.json" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q 'expected "baseTimeNanoseconds" within' "$tmp/err"
ok $? "a base time past 2^62: exit $rc, $(cat "$tmp/err")"

# --- One document, each key once --------------------------------------------
gzip -dc "$tmp/neg/r0.summary" >"$tmp/s.json"
size=$(wc -c <"$tmp/s.json")
refused() {
    label=$1 want=$2
    gzip -c >"$tmp/bad.summary"
    "$tt" report -q "$tmp/bad.summary" "$tmp/neg/r1.summary" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -qF "bad.summary: byte $want: rank summary: expected" "$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $label: exit $rc (want 2 at byte $want)"
        sed 's/^/  /' "$tmp/err"
        fail=$((fail + 1))
    fi
}
{ cat "$tmp/s.json"; echo 'x'; } | refused "trailing garbage" "$size"
cat "$tmp/s.json" "$tmp/s.json" | refused "a second document" "$size"
dup_at=$("$PYTHON3" -c 'import sys; t = open(sys.argv[1]).read(); print(t.index("\"world_size\"") + len("\"world_size\": 2, "))' "$tmp/s.json")
sed 's/"world_size": 2,/"world_size": 2, "rank": 1,/' "$tmp/s.json" | refused "a duplicate key" "$dup_at"
{ cat "$tmp/s.json"; printf ' \n\t\n'; } | gzip -c >"$tmp/ws.summary"
"$tt" report -q "$tmp/ws.summary" "$tmp/neg/r1.summary" >/dev/null 2>"$tmp/err"
ok $? "white space after the document is fine: $(cat "$tmp/err")"

# --- Messages name the summary files ------------------------------------------
cp "$tmp/neg/r0.summary" "$tmp/again.summary"
"$tt" report -q "$tmp/neg/r0.summary" "$tmp/again.summary" >/dev/null 2>"$tmp/err"
grep -qF "again.summary: rank 0 (from its distributedInfo), which $tmp/neg/r0.summary claims too" "$tmp/err"
ok $? "duplicate rank names both summary files: $(cat "$tmp/err")"
sed 's/"world_size": 2/"world_size": 3/; s/"rank": 0/"rank": 1/' "$tmp/s.json" | gzip -c >"$tmp/w3.summary"
"$tt" report -q "$tmp/neg/r0.summary" "$tmp/w3.summary" >/dev/null 2>"$tmp/err"
grep -qF "w3.summary: distributedInfo.world_size 3, but $tmp/neg/r0.summary has 2" "$tmp/err"
ok $? "world size names both summary files: $(cat "$tmp/err")"
if [ -w /dev/full ]; then
    "$tt" summarize -o /dev/full "$tmp/neg/rank-0.json" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 1 ] && grep -q "No space left on device" "$tmp/err"
    ok $? "summarize -o /dev/full: exit $rc, $(cat "$tmp/err")"
fi
# A job error after the progress line starts a line of its own.
mkdir "$tmp/pj"
for i in 0 1 2 3 4 5; do cp "$tmp/neg/rank-0.json" "$tmp/pj/rank-$i.json"; done
printf '{"traceEvents": [' >"$tmp/pj/rank-1.json"
"$tt" report --threads 1 "$tmp/pj" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && tail -n 1 "$tmp/err" | grep -q "^torchtop: $tmp/pj/rank-1.json: byte"
ok $? "job error on a line of its own: exit $rc, $(tail -n 1 "$tmp/err" | od -c | head -2)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

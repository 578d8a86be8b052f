#!/bin/sh
# Inputs that grow one way while a table, a copy or a computation would
# grow faster (make-scale.py writes them at test time): each runs within a
# memory cap (corpus.sh's capped) and a CPU-time cap far above what the
# bounded code needs, so that a quadratic regression fails by running out
# of either (status 134, 137 or 152) rather than by a clock.
set -u
src="${top_srcdir:-.}/tests/bad"
. "${top_srcdir:-.}/tests/lib/corpus.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    echo "SKIP: python3 not found"
    exit 77
fi

# within MB SECONDS ARGS...: run torchtop under a memory cap of MB MiB and a
# CPU-time cap of SECONDS.
within() {
    mb=$1 cpu=$2
    shift 2
    (ulimit -t "$cpu" && capped "$mb" "$@")
}

gen() { # gen KIND [N]: the inputs in $tmp/KIND
    "$PYTHON3" "$src/make-scale.py" "$1" "$tmp/$1" ${2:-} || {
        echo "FAIL: make-scale.py $1 did not write its inputs"
        fail=$((fail + 1))
        return 1
    }
}

# A rank summary that inflates to 100 MB of JSON (105 KB of gzip) is
# refused at the limit, by name, before the JSON reader holds it.
if gen summary-bomb 100; then
    capped 384 report -q "$tmp/summary-bomb/bomb.json.gz" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    sed "s|^torchtop: $tmp/summary-bomb/|FILE: |" "$tmp/err" >"$tmp/err2"
    check "summary gzip bomb" 2 \
        "FILE: bomb.json.gz: byte 16777216: a rank summary of at most 16 MiB of JSON once decompressed (RANKSUM_MAX_TEXT)" \
        "$rc" "$tmp/err2" "$tmp/out"
fi

# 1,000 ranks, each in process groups of its own: 40,000 instances of one
# part. Dense per-rank columns would be 40,000 x 3,000 cells (1 GB).
if gen coll-groups; then
    within 384 60 report -q -t collectives,stragglers "$tmp/coll-groups" >"$tmp/out" 2>"$tmp/err"
    check "collectives of 1,000 ranks in groups of their own" 0 - $? "$tmp/err" "$tmp/out"
    if ! grep -q "the per-rank columns (rank_N_ts, rank_N_dur, rank_N_wait_time) are left out" \
        "$tmp/out"; then
        echo "FAIL: collectives of 1,000 ranks: no note on the per-rank columns left out"
        fail=$((fail + 1))
    fi
fi

# 500 ranks of 1,000 op names each, no name on two ranks: a dense names x
# ranks matrix would be 500,000 x 500 values (2 GB).
if gen ops-names; then
    within 768 60 report -q -t ops -n 3 "$tmp/ops-names" >"$tmp/out" 2>"$tmp/err"
    check "ops across 500 ranks of rank-specific names" 0 - $? "$tmp/err" "$tmp/out"
fi

# Two ranks of 100,000 collectives of distinct sizes: 100,000 groups in
# the collectives-summary (a pass over every instance per group took
# more than half a minute of CPU; now some 2 s).
if gen coll-sizes; then
    within 1024 15 report -q -t collectives-summary -n 3 "$tmp/coll-sizes" >"$tmp/out" 2>"$tmp/err"
    check "collectives-summary of 100,000 groups" 0 - $? "$tmp/err" "$tmp/out"
    # The job view on the same 100,000 collectives: 200 keys in its tables
    # (each key once formatted the whole table: most of a second apiece).
    {
        echo "focus-tree"
        i=0
        while [ $i -lt 100 ]; do
            echo "move-down"
            echo "sort-next"
            i=$((i + 1))
        done
        echo "expect collectives: Collectives across ranks"
    } >"$tmp/job-keys"
    within 1024 30 --script "$tmp/job-keys" --size 120x40 "$tmp/coll-sizes" >"$tmp/out" 2>"$tmp/err"
    check "job view keys over 100,000 collectives" 0 - $? "$tmp/err" "$tmp/out"
fi

# One chain of 60,000 nested ops with a kernel at each level: every
# subtree's GPU time, key_averages' totals up the chain and the diff's GPU
# signatures each went through the levels below every level (quadratic:
# more than half a minute of CPU each; now a few seconds).
if gen nest 60000; then
    within 1024 20 report -q "$tmp/nest/nest.json" >"$tmp/out" 2>"$tmp/err"
    check "report on a 60,000-level chain" 0 - $? "$tmp/err" "$tmp/out"
    within 1024 20 diff -q -t tree "$tmp/nest/nest.json" "$tmp/nest/nest.json" >"$tmp/out" 2>"$tmp/err"
    check "diff -t tree on a 60,000-level chain" 0 - $? "$tmp/err" "$tmp/out"
    printf 'wait-analysis\nfocus-tree\nexpand-all\nG\n' >"$tmp/steps"
    within 1024 20 --script "$tmp/steps" "$tmp/nest/nest.json" >"$tmp/out" 2>"$tmp/err"
    check "the explorer's tree on a 60,000-level chain" 0 - $? "$tmp/err" "$tmp/out"
fi

# A capture of a launch call under 1,000 nested ops, replayed by 10,000
# one-kernel graph launches: a copy of the captured chain per launch
# would be 10^7 events (1.2 GB); past the copy budget the launches share
# one copy, and every kernel is still attributed.
if gen capture 10000; then
    within 256 30 report -q -t timeline --capture "$tmp/capture/capture.json" \
        "$tmp/capture/replay.json" >"$tmp/out" 2>"$tmp/err"
    check "10,000 replays of a 1,000-deep capture" 0 - $? "$tmp/err" "$tmp/out"
    if ! grep -q "^captured: 10000 of 10000 kernels" "$tmp/out"; then
        echo "FAIL: 10,000 replays of a 1,000-deep capture: not every kernel attributed"
        fail=$((fail + 1))
    fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

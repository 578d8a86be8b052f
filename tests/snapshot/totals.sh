#!/bin/sh
# Every real snapshot in ../shared/snapshots: the totals torchtop prints
# (segments, blocks, bytes by state, entries by action, distinct frames and
# stacks, peaks in requested and in block sizes) equal what Python's pickle
# module gives for the same file, read plain, gzip-compressed and from stdin.
set -u
SHARED="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
if [ ! -d "$SHARED/snapshots" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "FAIL: $SHARED/snapshots is missing; CI needs ../shared beside the checkout" >&2
        exit 1
    fi
    echo "SKIP: $SHARED/snapshots not found (tests on real snapshots need ../shared)"
    exit 77
fi
if [ -z "${PYTHON3:-}" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "FAIL: python3 is needed to check the snapshot totals" >&2
        exit 1
    fi
    echo "SKIP: python3 not found"
    exit 77
fi
py="${top_srcdir:-.}/tests/snapshot/totals.py"
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
n=0
for f in "$SHARED"/snapshots/*.pickle; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    name=$(basename "$f")
    "$PYTHON3" "$py" pickle "$f" >"$tmp/want" || { echo "FAIL: $name: python could not read it"; fail=$((fail + 1)); continue; }
    for how in file gzip stdin; do
        case $how in
        file) "$tt" report -t summary -f json "$f" >"$tmp/out.json" 2>"$tmp/err" ;;
        gzip) gzip -c "$f" >"$tmp/s.pickle.gz"
              "$tt" report -t summary -f json "$tmp/s.pickle.gz" >"$tmp/out.json" 2>"$tmp/err" ;;
        stdin) gzip -c "$f" | "$tt" report -t summary -f json - >"$tmp/out.json" 2>"$tmp/err" ;;
        esac
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "FAIL: $name ($how): exit $rc: $(head -n 1 "$tmp/err")"
            fail=$((fail + 1))
            continue
        fi
        "$PYTHON3" "$py" report "$tmp/out.json" >"$tmp/got"
        if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
            echo "FAIL: $name ($how): totals differ (- python, + torchtop):"
            cat "$tmp/diff"
            fail=$((fail + 1))
            continue
        fi
        pass=$((pass + 1))
    done
    # Every table in every format prints without error.
    for fmt in text csv json md; do
        for t in summary sites segments trace; do
            if ! "$tt" report -t $t -f $fmt "$f" >/dev/null 2>"$tmp/err"; then
                echo "FAIL: $name: table $t in $fmt: $(head -n 1 "$tmp/err")"
                fail=$((fail + 1))
            fi
        done
    done
done
if [ $n -eq 0 ]; then
    echo "FAIL: no snapshots in $SHARED/snapshots"
    exit 1
fi
echo "$pass passed, $fail failed ($n snapshots)"
[ "$fail" -eq 0 ]

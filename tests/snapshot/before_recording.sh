#!/bin/sh
# Allocations made before recording began are named by where they were
# freed, apart from the allocation sites: on every real snapshot the
# "<allocated before recording> freed at" rows of the sites table hold
# exactly the allocations Python's pickle module finds freed with no alloc
# (before_recording.py). traces_cpp_py_frames.pickle has 222 of them: the
# 110 freed at optimizer.py:71 are one such row, and no allocation site
# reads "step (optimizer.py:71)" (they were one before, with the free's
# CachingAllocator::free < ~TensorImpl stack as if it made them).
. "${top_srcdir:-.}/tests/lib/shared.sh"
if [ -z "${PYTHON3:-}" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed" >&2; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
py="${top_srcdir:-.}/tests/snapshot/before_recording.py"
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in "$SHARED"/snapshots/*.pickle; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    name=$(basename "$f")
    if ! "$tt" report -t sites -n 1000000 -f json "$f" >"$tmp/sites.json" 2>"$tmp/err"; then
        echo "FAIL: $name: $(head -n 1 "$tmp/err")"
        fail=1
        continue
    fi
    if "$PYTHON3" "$py" "$f" "$tmp/sites.json" >"$tmp/out"; then
        echo "ok: $name: $(head -n 1 "$tmp/out")"
    else
        echo "FAIL: $name:"
        cat "$tmp/out"
        fail=1
    fi
done
[ $n -gt 0 ] || { echo "FAIL: no snapshots in $SHARED/snapshots"; exit 1; }

f="$SHARED/snapshots/traces_cpp_py_frames.pickle"
"$tt" report -t sites -n 1000000 -f csv "$f" >"$tmp/sites.csv"
row=$(grep '^<allocated before recording> freed at step (optimizer.py:71),' "$tmp/sites.csv")
case $row in
*,110,607451136,*) echo "ok: 110 allocations before recording, freed at optimizer.py:71" ;;
*) echo "FAIL: no row of 110 allocations freed at optimizer.py:71: '$row'"; fail=1 ;;
esac
if grep -q '^step (optimizer.py:71)' "$tmp/sites.csv"; then
    echo "FAIL: optimizer.py:71 (a free) still shown as an allocation site:"
    grep '^step (optimizer.py:71)' "$tmp/sites.csv"
    fail=1
fi
"$tt" report -t sites "$f" | grep -q '^note: <allocated before recording> freed at F:' ||
    { echo "FAIL: the sites table does not say what the freed-at rows are"; fail=1; }
exit $fail

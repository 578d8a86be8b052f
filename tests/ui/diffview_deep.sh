#!/bin/sh
# A trace diff in the explorer on a trace nested 10^6 deep (made here, 80 MB): expand-all
# (2 then e) walks the merged tree without recursion (it overflowed the
# stack at 80,000 levels), G reaches the deepest row, whose name shows
# after its depth ("·999999·"), within a memory cap.
. "${top_srcdir:-.}/tests/lib/corpus.sh"
# The session runs in $tmp (where the script saves its screen).
tt="$(cd "$(dirname "$tt")" && pwd)/torchtop"
levels=1000000
awk -v n=$levels 'BEGIN {
    print "{\"traceEvents\": ["
    for (i = 0; i < n; i++)
        printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d},\n", i % 7, i, 2 * n + 10 - 2 * i
    printf "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":3,\"args\":{\"stream\":7}}\n", n + 1
    print "]}"
}' > "$tmp/deep.json" || exit 1
printf 'keys 2e\nkeys G\nsave-display deep.txt\nquit\n' > "$tmp/deep.steps"
(cd "$tmp" && capped 3072 diff --script deep.steps --size 100x30 deep.json deep.json) \
    > "$tmp/out" 2> "$tmp/err"
check "diff view expand-all, 10^6 levels" 0 - $? "$tmp/err" "$tmp/out"
if ! grep -q "^ ·999999·  *op0 " "$tmp/deep.txt" 2>/dev/null; then
    echo "FAIL: the deepest row is not op0 at depth 999999:"
    tail -3 "$tmp/deep.txt" 2>/dev/null
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

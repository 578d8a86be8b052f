#!/bin/sh
# The malformed-pickle corpus: every file in expected.txt gives exactly the
# listed exit status and first line on stderr (FILE for its path), read as
# a file and from stdin, never a crash, and no control bytes from the input
# reach the terminal.
set -u
src="${top_srcdir:-.}/tests/bad-pickle"
. "${top_srcdir:-.}/tests/lib/corpus.sh"

tab=$(printf '\t')
n=0
while IFS="$tab" read -r name status message; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    "$tt" report "$src/$name" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    sed "s|^torchtop: $src/$name|FILE|" "$tmp/err" >"$tmp/err2"
    check "$name" "$status" "$message" "$rc" "$tmp/err2" "$tmp/out"
    "$tt" report - <"$src/$name" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    sed "s|^torchtop: -|FILE|" "$tmp/err" >"$tmp/err2"
    check "$name (stdin)" "$status" "$message" "$rc" "$tmp/err2" "$tmp/out"
done <"$src/expected.txt"

"$tt" report "$tmp/missing.pickle" >"$tmp/out" 2>"$tmp/err"
check "a missing file" 2 "torchtop: $tmp/missing.pickle: cannot open: No such file or directory" \
    $? "$tmp/err" "$tmp/out"
"$tt" report "$src" >"$tmp/out" 2>"$tmp/err"
check "a directory" 2 "torchtop: $src: is a directory, expected a trace file" $? "$tmp/err" "$tmp/out"
"$tt" report -t nope "$src/ok-minimal.pickle" >"$tmp/out" 2>"$tmp/err"
check "an unknown table" 64 "torchtop: unknown table 'nope' (tables: summary, sites, segments, trace)" \
    $? "$tmp/err" "$tmp/out"

echo "$pass passed, $fail failed ($n files)"
[ "$n" -ge 15 ] && [ "$fail" -eq 0 ]

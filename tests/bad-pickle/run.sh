#!/bin/sh
# The malformed-pickle corpus: every file in expected.txt gives exactly the
# listed exit status and first line on stderr (FILE for its path), read as
# a file and from stdin, never a crash, and no control bytes from the input
# reach the terminal.
set -u
src="${top_srcdir:-.}/tests/bad-pickle"
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() { # name expected-status expected-message actual-status stderr-file stdout-file
    msg=$(head -n 1 "$5")
    [ -n "$msg" ] || msg=-
    if [ "$4" != "$2" ] || [ "$msg" != "$3" ]; then
        echo "FAIL: $1: status $4 (want $2), message:"
        echo "  got:  $msg"
        echo "  want: $3"
        fail=$((fail + 1))
        return
    fi
    if LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037]')" "$5" "$6"; then
        echo "FAIL: $1: control bytes in the output"
        fail=$((fail + 1))
        return
    fi
    pass=$((pass + 1))
}

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

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
# A directory is a multi-rank job (core/job): one of pickles holds no trace.
check "a directory" 2 "torchtop: $src: the directory holds no trace (*.json, *.json.gz) or rank summary (*.summary)" $? "$tmp/err" "$tmp/out"
"$tt" report -t nope "$src/ok-minimal.pickle" >"$tmp/out" 2>"$tmp/err"
check "an unknown table" 64 "torchtop: unknown table 'nope' (tables: summary, sites, segments, trace)" \
    $? "$tmp/err" "$tmp/out"

# Memory bombs, made at test time (make-bombs.py): refused within 1 GiB,
# not expanded. Shared memo references to a segment or a list of trace
# entries are counted before they are copied; sixty million one-byte
# EMPTY_LISTs run into the reader's working-memory budget.
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if "$PYTHON3" "$src/make-bombs.py" "$tmp"; then
    while IFS="$tab" read -r name message; do
        capped 1024 report "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        sed "s|^torchtop: $tmp/$name|FILE|" "$tmp/err" >"$tmp/err2"
        check "$name" 2 "$message" "$rc" "$tmp/err2" "$tmp/out"
    done <<EOF
seg-memo-bomb.pickle${tab}FILE: byte 230109: shared (memoized) references would copy the 10001 segments, blocks and trace entries read so far into 100010000; torchtop refuses more than 85538 (twice the records plus 65536)
traces-memo-bomb.pickle${tab}FILE: byte 230063: shared (memoized) references would copy the 10000 segments, blocks and trace entries read so far into 100000000; torchtop refuses more than 85536 (twice the records plus 65536)
empty-lists.pickle.gz${tab}FILE: byte (uncompressed) 1048578: the pickle needs more than 96 MiB of working memory for the 1048579 bytes read so far (torchtop allows 64 MiB plus 32 bytes per byte of pickle)
EOF
else
    echo "FAIL: make-bombs.py did not write the memory bombs"
    fail=$((fail + 1))
fi
# A repr that doubles at each of 200 memo levels is cut, not expanded.
capped 1024 report -f csv "$src/settings-repr-bomb.pickle" >"$tmp/out" 2>"$tmp/err"
check "settings-repr-bomb.pickle" 0 - $? "$tmp/err" "$tmp/out"
if ! grep -q '^k,"\[\[\[.*\.\.\."' "$tmp/out"; then
    echo "FAIL: settings-repr-bomb.pickle: the setting's repr is not cut with ..."
    fail=$((fail + 1))
fi

echo "$pass passed, $fail failed ($n files)"
[ "$n" -ge 15 ] && [ "$fail" -eq 0 ]

#!/bin/sh
# Terminal escapes from names the user or a file system hands in never
# reach the terminal raw: report's progress line shows a trace file named
# with OSC 52 (clipboard), OSC 0 (title) and ESC[2J (clear) sanitized, and
# diff --labels with control characters gives sanitized column titles.
set -u
. "${top_srcdir:-.}/tests/lib/corpus.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3

esc=$(printf '\033')
# raw FILE: whether FILE holds one of the injected sequences.
raw() {
    grep -q "$esc\\]52;\\|$esc\\[2J\\|$esc\\]0;" "$1"
}

"$PYTHON3" -c '
import json, sys
ev = [{"ph": "X", "cat": "cpu_op", "name": "op%d" % i, "pid": 1, "tid": 1, "ts": i * 10, "dur": 5}
      for i in range(200)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))' "$tmp/t.json"

# --- report's progress line ----------------------------------------------------
# The progress line is drawn on a terminal (script(1) gives one) for a load
# past half a second: a small gzip trace padded with 1 GiB of white space
# (where even that loads faster, the line is not drawn and only the second
# check means anything).
evil="$tmp/$(printf 'x\033]52;c;aGk=\007\033[2J\033]0;pwn\007.json.gz')"
if command -v script >/dev/null 2>&1; then
    "$PYTHON3" - "$tmp/t.json" "$evil" <<'PY'
import gzip, sys
text = open(sys.argv[1]).read().rstrip()
with gzip.open(sys.argv[2], "wb", compresslevel=1) as f:
    f.write(text[:-1].encode())
    pad = b" " * (1 << 20)
    for _ in range(1024):
        f.write(pad)
    f.write(b"}")
PY
    TT="$tt" F="$evil" timeout 60 script -qc '"$TT" report --threads 1 -t key-averages -n 1 "$F"' \
        /dev/null >"$tmp/tty.out" 2>&1
    if grep -q 'reading ' "$tmp/tty.out"; then
        grep -q 'reading .*x1b\]52' "$tmp/tty.out"
        ok $? "the progress line shows the file name (sanitized): $(od -c "$tmp/tty.out" | head -3)"
    else
        echo "note: the load was too quick for a progress line"
    fi
    ! raw "$tmp/tty.out"
    ok $? "no raw escape of the file name reaches the terminal"
    rm -f "$evil"
else
    echo "note: no script(1): the progress line is not checked"
fi

# --- diff --labels ----------------------------------------------------------------
labels=$(printf 'a\033[2Jb,c\033]0;x\007d')
for fmt in text md; do
    "$tt" diff -q -f "$fmt" --labels "$labels" "$tmp/t.json" "$tmp/t.json" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 0 ] && ! raw "$tmp/out" && ! raw "$tmp/err" && grep -q 'x1b.*2Jb' "$tmp/out"
    ok $? "diff -f $fmt --labels with escapes: exit $rc, sanitized titles"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

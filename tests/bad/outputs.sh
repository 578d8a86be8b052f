#!/bin/sh
# Outputs never destroy data: every command that writes a file refuses an
# output that is its input (by name, symlink or hardlink: exit 1, one line
# naming both), and writes through a temporary file renamed into place, so
# that a failed write (a full disk, here a file size limit) or a signal
# leaves the old file whole and no temporary file behind. Standard output
# and FIFOs stay streams.
set -u
src="${top_srcdir:-.}/tests/bad"
. "${top_srcdir:-.}/tests/lib/corpus.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3

# A small valid trace (906 events) and copies of it.
d="$tmp/d"
mkdir "$d"
"$PYTHON3" -c '
import json, sys
ev = [{"ph": "X", "cat": "cpu_op", "name": "op%d" % i, "pid": 1, "tid": 1, "ts": i * 10, "dur": 5}
      for i in range(906)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))' "$d/in.json" 2>/dev/null ||
    printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 1, "dur": 5}]}' \
        >"$d/in.json"
cp "$d/in.json" "$tmp/orig.json"
ln -s in.json "$d/link.json"
ln "$d/in.json" "$d/hard.json"

intact() {
    cmp -s "$d/in.json" "$tmp/orig.json"
}

# --- The output is the input -------------------------------------------------
same() {
    label=$1 named=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    n=$(wc -l <"$tmp/err")
    if [ "$rc" = 1 ] && [ "$n" = 1 ] && grep -qF "$named: the output is the same file as the input" "$tmp/err" &&
        intact; then
        pass=$((pass + 1))
    else
        echo "FAIL: $label: exit $rc (want 1), input intact: $(intact && echo yes || echo no)"
        sed 's/^/  /' "$tmp/err"
        fail=$((fail + 1))
        cp "$tmp/orig.json" "$d/in.json"
    fi
}
for out in in.json link.json hard.json ./in.json; do
    same "export --chrome $out" "$d/$out" "$tt" export --chrome "$d/$out" --window 0:1 "$d/in.json"
    same "report -o $out" "$d/$out" "$tt" report -q -o "$d/$out" "$d/in.json"
    same "report --xlsx $out" "$d/$out" "$tt" report -q --xlsx "$d/$out" "$d/in.json"
done
printf 'q\n' >"$tmp/steps"
same "explorer --script-timing onto its trace" "$d/link.json" \
    "$tt" --script "$tmp/steps" --script-timing "$d/link.json" "$d/in.json"
same "export of a symlinked input onto its file" "$d/in.json" \
    "$tt" export --chrome "$d/in.json" "$d/link.json"
same "report -o FILE - <FILE" "$d/in.json" sh -c '"$1" report -q -o "$2" - <"$2"' sh "$tt" "$d/in.json"
grep -q "(standard input)" "$tmp/err"
ok $? "report -o FILE - <FILE: the message names standard input"
# An output that does not exist yet is fine, and gets the usual mode.
umask 022
"$tt" export -q --chrome "$d/new.json" "$d/in.json" 2>"$tmp/err"
ok $? "export to a new file: $(cat "$tmp/err")"
mode=$(ls -l "$d/new.json" | cut -c1-10)
[ "$mode" = "-rw-r--r--" ]
ok $? "a new output has mode 0666 less the umask (got $mode)"

# --- The output is a capture, a file of a capture or job directory ----------
# Every input (captures and the files of capture and job directories too)
# is compared with every output, by name, symlink or hardlink.
mkdir "$d/caps" "$d/job"
cp "$d/in.json" "$d/cap.json"
cp "$d/in.json" "$d/caps/c.json"
ln -s c.json "$d/caps/link.json.lnk"
cp "$d/in.json" "$d/job/rank-0.json"
cp "$d/in.json" "$d/job/rank-1.json"
capsame() {
    label=$1 named=$2 victim=$3
    shift 3
    cp "$victim" "$tmp/victim.orig"
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
        grep -qF "$named: the output is the same file as the input" "$tmp/err" &&
        cmp -s "$victim" "$tmp/victim.orig"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $label: exit $rc (want 1), input intact: $(cmp -s "$victim" "$tmp/victim.orig" && echo yes || echo no)"
        sed 's/^/  /' "$tmp/err"
        fail=$((fail + 1))
        cp "$tmp/victim.orig" "$victim"
    fi
}
capsame "report --capture CAP -o CAP" "$d/cap.json" "$d/cap.json" \
    "$tt" report -q --capture "$d/cap.json" -o "$d/cap.json" "$d/in.json"
capsame "report --capture CAP --xlsx CAP" "$d/cap.json" "$d/cap.json" \
    "$tt" report -q --capture "$d/cap.json" --xlsx "$d/cap.json" "$d/in.json"
capsame "report --capture CAP -t folded --svg CAP" "$d/cap.json" "$d/cap.json" \
    "$tt" report -q --capture "$d/cap.json" -t folded --svg "$d/cap.json" "$d/in.json"
capsame "report --capture DIR -o DIR/c.json" "$d/caps/c.json" "$d/caps/c.json" \
    "$tt" report -q --capture "$d/caps" -o "$d/caps/c.json" "$d/in.json"
capsame "report --capture DIR -o a symlink to DIR/c.json" "$d/caps/link.json.lnk" "$d/caps/c.json" \
    "$tt" report -q --capture "$d/caps" -o "$d/caps/link.json.lnk" "$d/in.json"
capsame "export --capture DIR --chrome DIR/c.json" "$d/caps/c.json" "$d/caps/c.json" \
    "$tt" export -q --capture "$d/caps" --chrome "$d/caps/c.json" "$d/in.json"
capsame "explorer --capture CAP --script-timing CAP" "$d/cap.json" "$d/cap.json" \
    "$tt" --capture "$d/cap.json" --script "$tmp/steps" --script-timing "$d/cap.json" "$d/in.json"
capsame "report DIR -o DIR/rank-1.json" "$d/job/rank-1.json" "$d/job/rank-1.json" \
    "$tt" report -q -o "$d/job/rank-1.json" "$d/job"
capsame "report 'GLOB' --xlsx a match" "$d/job/rank-0.json" "$d/job/rank-0.json" \
    "$tt" report -q --xlsx "$d/job/rank-0.json" "$d/job/rank-*.json"
"$tt" summarize -o "$d/job/r0.summary" "$d/job/rank-0.json" 2>"$tmp/err"
ok $? "summarize: $(cat "$tmp/err")"
capsame "report SUMMARY... -o the summary" "$d/job/r0.summary" "$d/job/r0.summary" \
    "$tt" report -q -o "$d/job/r0.summary" "$d/job/r0.summary" "$d/job/rank-1.json"
capsame "summarize -o its trace" "$d/job/rank-0.json" "$d/job/rank-0.json" \
    "$tt" summarize -o "$d/job/rank-0.json" "$d/job/rank-0.json"
rm -rf "$d/caps" "$d/job" "$d/cap.json"

# --- A write that fails leaves the old file ---------------------------------
# No temporary file is left: the folder holds what it held before.
listing() {
    ls -A "$d" | sort
}
listing >"$tmp/before"
fails() {
    label=$1 target=$2
    shift 2
    echo "the good old file" >"$target"
    # A file size limit stands in for a full disk: writes fail with EFBIG.
    (ulimit -f 2 && "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 1 ] && [ "$(cat "$target")" = "the good old file" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
        ! grep -q '\[ERROR\]' "$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $label: exit $rc (want 1), target now $(wc -c <"$target") bytes"
        sed 's/^/  /' "$tmp/err"
        fail=$((fail + 1))
    fi
    rm -f "$target"
    listing >"$tmp/after"
    cmp -s "$tmp/before" "$tmp/after"
    ok $? "$label: temporary files left: $(comm -13 "$tmp/before" "$tmp/after" | tr '\n' ' ')"
}
fails "export, disk full" "$d/x.json" "$tt" export -q --chrome "$d/x.json" "$d/in.json"
fails "export .gz, disk full" "$d/x.json.gz" "$tt" export -q --chrome "$d/x.json.gz" "$d/in.json"
fails "report -o, disk full" "$d/x.txt" "$tt" report -q -t key-averages -o "$d/x.txt" "$d/in.json"
fails "gen -o, disk full" "$d/x.json" "$tt" gen -o "$d/x.json"
if "$tt" report -q --xlsx "$tmp/probe.xlsx" "$d/in.json" 2>/dev/null; then
    fails "report --xlsx, disk full" "$d/x.xlsx" "$tt" report -q --xlsx "$d/x.xlsx" "$d/in.json"
fi

# --- A signal leaves the old file -------------------------------------------
# SIGTERM: a background job of a script ignores SIGINT, and keeps ignoring it.
echo "the good old file" >"$d/big.json"
"$tt" gen --size 4G -o "$d/big.json" 2>/dev/null &
pid=$!
i=0
while [ $i -lt 500 ] && ! ls -A "$d" | grep -q '^\.big\.json\.'; do
    sleep 0.02
    i=$((i + 1))
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
[ "$rc" -gt 128 ] && [ "$(cat "$d/big.json")" = "the good old file" ] && ! ls -A "$d" | grep -q '^\.big'
ok $? "gen killed: exit $rc, the old file whole and no temporary file left"
rm -f "$d/big.json"

# --- Streams ----------------------------------------------------------------
"$tt" export -q --chrome - "$d/in.json" >"$tmp/out" 2>"$tmp/err" && grep -q '"traceEvents"' "$tmp/out"
ok $? "export --chrome - writes to standard output"
"$tt" export -q --chrome /dev/stdout "$d/in.json" >"$tmp/out" 2>"$tmp/err" && grep -q '"traceEvents"' "$tmp/out"
ok $? "export --chrome /dev/stdout writes to standard output"
"$tt" report -q -t key-averages -o /dev/stdout "$d/in.json" >"$tmp/out" 2>"$tmp/err" && grep -q 'op1' "$tmp/out"
ok $? "report -o /dev/stdout writes to standard output"
if mkfifo "$d/fifo" 2>/dev/null; then
    cat "$d/fifo" >"$tmp/fifo.out" &
    cpid=$!
    "$tt" export -q --chrome "$d/fifo" "$d/in.json" 2>"$tmp/err"
    rc=$?
    wait "$cpid"
    [ "$rc" = 0 ] && grep -q '"traceEvents"' "$tmp/fifo.out" && [ -p "$d/fifo" ]
    ok $? "export into a FIFO streams into it (exit $rc)"
    rm -f "$d/fifo"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

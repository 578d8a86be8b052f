#!/bin/sh
# Pipes and FIFOs: a file of a job directory, a pattern's match or a
# capture directory is opened only if it is a regular file (never waiting
# for a FIFO's writer: exit 2 at once, naming the file and its type); a
# FIFO or pipe named on the command line is read, once (no peek drops its
# first bytes); standard input given twice is a usage error.
set -u
. "${top_srcdir:-.}/tests/lib/corpus.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3

mkfifo "$tmp/probe" 2>/dev/null || {
    echo "SKIP: no mkfifo here"
    exit 77
}

"$PYTHON3" -c '
import json, sys
ev = [{"ph": "X", "cat": "cpu_op", "name": "op%d" % i, "pid": 1, "tid": 1, "ts": i * 10, "dur": 5}
      for i in range(300)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))' "$tmp/t.json"
gzip -c "$tmp/t.json" >"$tmp/t.json.gz"
"$tt" report -q --no-header -t key-averages "$tmp/t.json" >"$tmp/want" 2>"$tmp/err"
ok $? "report on the file: $(cat "$tmp/err")"

# run LABEL WANT-RC GREP ARGS...: at most 10 s (a hang is a failure).
run() {
    label=$1 want=$2 pat=$3
    shift 3
    timeout 10 "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$tmp/err" "$tmp/out"; }; then
        pass=$((pass + 1))
    else
        echo "FAIL: $label: exit $rc (want $want; 124 is a hang), wanted '$pat' in:"
        sed 's/^/  /' "$tmp/err" | head -5
        fail=$((fail + 1))
    fi
}

# --- A FIFO in a job directory, a pattern or a capture directory -----------
mkdir "$tmp/job" "$tmp/caps"
cp "$tmp/t.json" "$tmp/job/rank-0.json"
cp "$tmp/t.json" "$tmp/job/rank-1.json"
mkfifo "$tmp/job/rank-2.json"
cp "$tmp/t.json" "$tmp/caps/a.json"
mkfifo "$tmp/caps/b.json"
fifo_msg="is a FIFO: only regular files are read"
run "report DIR with a FIFO" 2 "rank-2.json: $fifo_msg" "$tt" report -q "$tmp/job"
run "report GLOB matching a FIFO" 2 "rank-2.json: $fifo_msg" "$tt" report -q "$tmp/job/rank-*.json"
run "report -t temporal DIR with a FIFO" 2 "rank-2.json: $fifo_msg" \
    "$tt" report -q -t temporal "$tmp/job"
run "report --capture DIR with a FIFO" 2 "b.json: $fifo_msg" \
    "$tt" report -q --capture "$tmp/caps" "$tmp/t.json"
run "export --capture DIR with a FIFO" 2 "b.json: $fifo_msg" \
    "$tt" export -q --capture "$tmp/caps" --chrome "$tmp/x.json" "$tmp/t.json"
rm "$tmp/job/rank-2.json"

# --- A FIFO named on the command line is read, once ------------------------
mkfifo "$tmp/fifo"
(timeout 10 cat "$tmp/t.json.gz" >"$tmp/fifo") &
run "report a FIFO (gzip) named on the command line" 0 "op299" \
    "$tt" report -q --no-header -t key-averages "$tmp/fifo"
cmp -s "$tmp/out" "$tmp/want"
ok $? "report of a FIFO equals the report of the file"
wait
run "report of a pipe on standard input as /dev/stdin" 0 "op299" \
    sh -c 'cat "$1" | "$2" report -q -t key-averages /dev/stdin' sh "$tmp/t.json" "$tt"
wait
(timeout 10 cat "$tmp/t.json" >"$tmp/fifo") &
run "job: two files and a FIFO named on the command line" 0 "3 ranks" \
    "$tt" report -q "$tmp/job/rank-0.json" "$tmp/job/rank-1.json" "$tmp/fifo"
wait
printf 'q\n' >"$tmp/steps"
(timeout 10 cat "$tmp/t.json" >"$tmp/fifo") &
run "the explorer on a FIFO" 0 "" "$tt" --script "$tmp/steps" "$tmp/fifo"
wait
rm -f "$tmp/fifo"

# --- Standard input twice ----------------------------------------------------
run "report - -" 64 "standard input is read once" "$tt" report -q - - <"$tmp/t.json"
run "diff - -" 64 "standard input is read once" "$tt" diff -q - - <"$tmp/t.json"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

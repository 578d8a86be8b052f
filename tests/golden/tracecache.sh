#!/bin/sh
# The trace cache (core/trace/tracecache.h), end to end, its size threshold
# lowered so that every shared trace is cached:
# - for every shared trace, `report` opened fresh (--no-cache), opened while
#   writing its cache, and opened from the cache print the same bytes, with
#   nothing on stderr, and the warm open reads the cache (it is not written
#   again); `export` of the whole trace from the cache is the fresh one; the
#   explorer's views are the same from the cache;
# - a cache truncated, with a byte flipped, of another version, or of another
#   file is ignored with a note, the report is the fresh one and the cache is
#   written again; processes opening one trace at once all print the fresh
#   report and leave one good cache;
# - no cache beside the trace, none with TORCHTOP_CACHE=0 or --no-cache, none
#   below the threshold; the folder is kept within TORCHTOP_CACHE_MAX_BYTES.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
tt="$(cd "${top_builddir:-.}" && pwd)/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
XDG_CACHE_HOME="$tmp/xdg"
TORCHTOP_CACHE_MIN_BYTES=0
export XDG_CACHE_HOME TORCHTOP_CACHE_MIN_BYTES
unset TORCHTOP_CACHE TORCHTOP_CACHE_MAX_BYTES
dir="$XDG_CACHE_HOME/torchtop"
fails=0
bad() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# report -q of $1 into $2 (stdout) and $2.err (stderr), extra options after.
run() {
    run_in=$1
    run_out=$2
    shift 2
    "$tt" report -q "$@" "$run_in" >"$run_out" 2>"$run_out.err"
    echo $? >"$run_out.rc"
}

# The one cache file in the folder (empty when none).
cache_file() {
    ls "$dir"/*.ttc 2>/dev/null | head -1
}

# 1. Every shared trace: fresh, cold (writes) and warm (reads) agree.
n=0
for f in "$SHARED"/traces/*.json "$SHARED"/traces/*.json.gz; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    rm -rf "$dir"
    run "$f" "$tmp/fresh" --no-cache
    if [ -e "$dir" ] && [ -n "$(ls "$dir")" ]; then
        bad "$b: --no-cache wrote $(ls "$dir")"
    fi
    run "$f" "$tmp/cold"
    c=$(cache_file)
    if [ -z "$c" ]; then
        bad "$b: no cache written"
        continue
    fi
    ino=$(stat -c %i "$c")
    run "$f" "$tmp/warm"
    [ "$(stat -c %i "$c")" = "$ino" ] || bad "$b: the warm open wrote the cache again"
    # The export reads the texts kept as written from the trace again, at
    # the offsets the cache holds.
    "$tt" export -q --no-cache --chrome "$tmp/exp-fresh.json" "$f" 2>"$tmp/exp-fresh.err"
    "$tt" export -q --chrome "$tmp/exp-warm.json" "$f" 2>"$tmp/exp-warm.err"
    [ "$(stat -c %i "$c")" = "$ino" ] || bad "$b: the export wrote the cache again"
    cmp -s "$tmp/exp-fresh.json" "$tmp/exp-warm.json" || bad "$b: the export from the cache differs"
    cmp -s "$tmp/exp-fresh.err" "$tmp/exp-warm.err" || bad "$b: the export from the cache says $(cat "$tmp/exp-warm.err")"
    for k in cold warm; do
        cmp -s "$tmp/fresh" "$tmp/$k" || bad "$b: the $k report differs from the fresh one"
        cmp -s "$tmp/fresh.rc" "$tmp/$k.rc" || bad "$b: the $k exit status differs"
        [ -s "$tmp/$k.err" ] && bad "$b: $k open wrote to stderr: $(head -3 "$tmp/$k.err")"
    done
    n=$((n + 1))
done
[ "$n" -ge 20 ] || bad "only $n shared traces"
echo "ok: $n shared traces, fresh = cold = warm report, export fresh = warm"

# The cache is written after the output (tracecache_later): through a pipe,
# into a file, as folded stacks, scoped, and by export, the first open's
# output is the fresh one and the cache is there once the command is done.
f="$SHARED/traces/tracelens-h100-bert-small-infer.json.gz"
# $1: name; the rest: the command after torchtop, run fresh (--no-cache
# appended) into $tmp/after-$1.fresh and first (cold) into .cold, through a
# pipe; the cache must be there after the cold run only.
after_output() {
    name=$1
    shift
    rm -rf "$dir"
    "$tt" "$@" --no-cache 2>"$tmp/after-$name.fresh.err" | cat >"$tmp/after-$name.fresh"
    [ -n "$(cache_file)" ] && bad "after output, $name: --no-cache wrote a cache"
    "$tt" "$@" 2>"$tmp/after-$name.cold.err" | cat >"$tmp/after-$name.cold"
    [ -n "$(cache_file)" ] || bad "after output, $name: no cache written"
    ls -A "$dir" | grep -q tmp && bad "after output, $name: a temporary file was left"
    [ -s "$tmp/after-$name.fresh" ] || [ "$name" = export ] ||
        bad "after output, $name: no output"
    cmp -s "$tmp/after-$name.fresh" "$tmp/after-$name.cold" ||
        bad "after output, $name: the first open's output differs from the fresh one"
    cmp -s "$tmp/after-$name.fresh.err" "$tmp/after-$name.cold.err" ||
        bad "after output, $name: stderr differs: $(cat "$tmp/after-$name.cold.err")"
}
after_output pipe report -q "$f"
after_output folded report -q -t folded "$f"
after_output scoped report -q --window 0:5 "$f"
after_output per-step report -q --per-step -t ops "$f"
rm -rf "$dir"
"$tt" report -q -o "$tmp/after-file.fresh" --no-cache "$f"
"$tt" report -q -o "$tmp/after-file.cold" "$f"
[ -n "$(cache_file)" ] || bad "after output, report -o: no cache written"
cmp -s "$tmp/after-file.fresh" "$tmp/after-file.cold" || bad "after output, report -o: differs"
after_output export export -q --chrome "$tmp/after-exp.json" "$f"
cp "$tmp/after-exp.json" "$tmp/after-exp.cold.json"
"$tt" export -q --no-cache --chrome "$tmp/after-exp.json" "$f"
cmp -s "$tmp/after-exp.json" "$tmp/after-exp.cold.json" || bad "after output, export: differs"
echo "ok: the first open's output is the fresh one, the cache written after it"

# TraceLens's linking (--flow-links) builds another trace: a cache of its own.
f="$SHARED/traces/tracelens-mi300-vllm-graph-replay.json.gz"
rm -rf "$dir"
run "$f" "$tmp/plain"
run "$f" "$tmp/flow-fresh" --flow-links --no-cache
run "$f" "$tmp/flow-cold" --flow-links
run "$f" "$tmp/flow-warm" --flow-links
[ "$(ls "$dir" | wc -l)" = 2 ] || bad "--flow-links: the folder holds $(ls "$dir")"
cmp -s "$tmp/flow-fresh" "$tmp/flow-cold" || bad "--flow-links: the cold report differs"
cmp -s "$tmp/flow-fresh" "$tmp/flow-warm" || bad "--flow-links: the warm report differs"
run "$f" "$tmp/plain-warm"
cmp -s "$tmp/plain" "$tmp/plain-warm" || bad "--flow-links: the plain warm report differs"

# The explorer reads the cache too: the same screens warm as fresh.
f="$SHARED/traces/tracelens-h100-bert-small-infer.json.gz"
views="ops categories unique-args kernels key-averages temporal roofline"
# $1: name of the run; the screens of its views in $tmp/ui-$1.*
explore() {
    name=$1
    shift
    {
        echo wait-analysis
        for v in $views; do
            echo "view $v"
            echo "save-display $tmp/ui-$name.$v"
        done
        echo quit
    } >"$tmp/steps"
    LC_ALL=C.UTF-8 "$tt" "$@" --script "$tmp/steps" --size 120x40 "$f" >"$tmp/ui-$name.out" 2>&1
    [ -s "$tmp/ui-$name.out" ] && bad "explorer $name: $(head -3 "$tmp/ui-$name.out")"
}
rm -rf "$dir"
explore fresh --no-cache
explore cold
c=$(cache_file)
[ -n "$c" ] || bad "the explorer wrote no cache"
ino=$(stat -c %i "$c")
explore warm
[ "$(stat -c %i "$c")" = "$ino" ] || bad "explorer: the warm open wrote the cache again"
for v in $views; do
    [ -s "$tmp/ui-fresh.$v" ] || bad "explorer: no screen of $v"
    cmp -s "$tmp/ui-fresh.$v" "$tmp/ui-cold.$v" || bad "explorer: cold $v screen differs"
    cmp -s "$tmp/ui-fresh.$v" "$tmp/ui-warm.$v" || bad "explorer: warm $v screen differs"
done
echo "ok: explorer fresh = cold = warm"

# A trace opened on top of another (a rank of a job) writes its cache too,
# behind its screen.
rm -rf "$dir"
"$tt" gen --ranks 2 -o "$tmp/job" >/dev/null 2>&1 || bad "gen --ranks 2 failed"
printf '%s\n' focus-table g j '<Enter>' 'expect q or Backspace returns to the job' '<BS>' \
    'expect back from rank-1.json' quit >"$tmp/job-steps"
LC_ALL=C.UTF-8 "$tt" --script "$tmp/job-steps" --size 140x42 "$tmp/job" >"$tmp/job.out" 2>&1 ||
    bad "job session: $(head -3 "$tmp/job.out")"
[ "$(ls "$dir"/*.ttc 2>/dev/null | wc -l)" = 1 ] || bad "the rank's view left $(ls -A "$dir")"
echo "ok: a rank's view writes its cache"

# The explorer opened on a scope (--step) caches the whole trace, not the
# scope: the scoped screen is the fresh one, and a report from the cache is
# the whole trace's.
rm -rf "$dir"
"$tt" gen --steps 3 -o "$tmp/steps.json" >/dev/null 2>&1 || bad "gen --steps 3 failed"
printf '%s\n' "save-display $tmp/scoped.KIND" quit >"$tmp/scoped-steps"
for kind in fresh cold; do
    opt=
    [ "$kind" = fresh ] && opt=--no-cache
    sed "s/KIND/$kind/" "$tmp/scoped-steps" >"$tmp/scoped-steps.$kind"
    LC_ALL=C.UTF-8 "$tt" $opt --step 5 --script "$tmp/scoped-steps.$kind" --size 120x30 \
        "$tmp/steps.json" >"$tmp/scoped.$kind.out" 2>&1 || bad "explorer --step 5 ($kind) failed"
done
cmp -s "$tmp/scoped.fresh" "$tmp/scoped.cold" || bad "explorer --step 5: the first open's screen differs"
[ -n "$(cache_file)" ] || bad "explorer --step 5: no cache written"
run "$tmp/steps.json" "$tmp/steps-fresh" --no-cache
run "$tmp/steps.json" "$tmp/steps-warm"
cmp -s "$tmp/steps-fresh" "$tmp/steps-warm" || bad "the cache the scoped explorer wrote is not the whole trace's"
echo "ok: a scoped explorer caches the whole trace"

# 2. Damaged and foreign caches: a note, the fresh report, a new cache.
f="$SHARED/traces/tracelens-h100-bert-small-infer.json.gz"
g="$SHARED/traces/hta-a100-alexnet-cudasync.json.gz"
rm -rf "$dir"
run "$f" "$tmp/fresh" --no-cache
run "$f" "$tmp/cold"
c=$(cache_file)
cp "$c" "$tmp/good.ttc"
size=$(stat -c %s "$c")
ino=$(stat -c %i "$c")

# $1: what was done to the cache; $2: the note's reason expected.
expect_note() {
    ino=$(stat -c %i "$c")
    run "$f" "$tmp/out"
    cmp -s "$tmp/fresh" "$tmp/out" || bad "$1: the report differs from the fresh one"
    grep -q "cache .* ignored (.*$2.*); reading the trace" "$tmp/out.err" ||
        bad "$1: no note naming \"$2\" on stderr: $(cat "$tmp/out.err")"
    # Written again (string ids may differ from run to run: not byte for byte).
    [ "$(stat -c %i "$c" 2>/dev/null)" != "$ino" ] || bad "$1: the cache was not written again"
    run "$f" "$tmp/out2"
    [ -s "$tmp/out2.err" ] && bad "$1: the open after the rebuild wrote: $(cat "$tmp/out2.err")"
    cmp -s "$tmp/fresh" "$tmp/out2" || bad "$1: the report after the rebuild differs"
}

head -c $((size / 2)) "$tmp/good.ttc" >"$c"
expect_note "truncated" "bytes long"
head -c 100 "$tmp/good.ttc" >"$c"
expect_note "truncated in the header" "too short"
# At a byte of the table, a third of the way in, near the end (of the cache
# as it is now: a rewritten one may be a few bytes shorter or longer).
for at in 300 third end; do
    "$PYTHON3" -c 'import sys
p, at = sys.argv[1], sys.argv[2]
b = bytearray(open(p, "rb").read())
at = {"third": len(b) // 3, "end": len(b) - 5}.get(at) or int(at)
b[at] ^= 0x41
open(p, "wb").write(bytes(b))' "$c" "$at"
    expect_note "byte $at flipped" "does not match"
done
"$PYTHON3" -c 'import sys, struct
p = sys.argv[1]
b = bytearray(open(p, "rb").read()); b[8:12] = struct.pack("=I", 999)
open(p, "wb").write(bytes(b))' "$c"
expect_note "another version" "version 999"
# A cache of another file put in this file's place.
rm -rf "$dir"
run "$g" "$tmp/other"
mv "$(cache_file)" "$c"
expect_note "another file's cache" "another file"
# Not a cache at all.
printf 'hello' >"$c"
expect_note "not a cache" "too short"
echo "ok: damaged, foreign caches ignored with a note and written again"

# Processes opening one trace at once, with no cache, then with one.
rm -rf "$dir"
for round in 1 2; do
    for i in 1 2 3 4; do
        run "$f" "$tmp/par$i" &
    done
    wait
    for i in 1 2 3 4; do
        cmp -s "$tmp/fresh" "$tmp/par$i" || bad "concurrent round $round: report $i differs"
        [ -s "$tmp/par$i.err" ] && bad "concurrent round $round: $i wrote: $(cat "$tmp/par$i.err")"
    done
    [ "$(ls -A "$dir" | wc -l)" = 1 ] || bad "concurrent round $round: the folder holds $(ls -A "$dir")"
    run "$f" "$tmp/after"
    cmp -s "$tmp/fresh" "$tmp/after" || bad "concurrent round $round: the report after differs"
    [ -s "$tmp/after.err" ] && bad "concurrent round $round: the cache left: $(cat "$tmp/after.err")"
done
echo "ok: concurrent opens"

# 3. Where and when a cache is written.
rm -rf "$dir"
TORCHTOP_CACHE=0 run "$f" "$tmp/off"
cmp -s "$tmp/fresh" "$tmp/off" || bad "TORCHTOP_CACHE=0: the report differs"
[ -n "$(cache_file)" ] && bad "TORCHTOP_CACHE=0 wrote a cache"
TORCHTOP_CACHE_MIN_BYTES=$(($(stat -c %s "$f") + 1)) run "$f" "$tmp/small"
[ -n "$(cache_file)" ] && bad "a trace below the threshold was cached"
unset TORCHTOP_CACHE_MIN_BYTES
run "$f" "$tmp/default"
[ -n "$(cache_file)" ] && bad "a trace below the default 64 MiB was cached"
TORCHTOP_CACHE_MIN_BYTES=0
export TORCHTOP_CACHE_MIN_BYTES
# A trace in the cache folder itself: never cached beside it.
mkdir -p "$dir"
cp "$f" "$dir/trace.json.gz"
run "$dir/trace.json.gz" "$tmp/beside-fresh" --no-cache
run "$dir/trace.json.gz" "$tmp/beside"
cmp -s "$tmp/beside-fresh" "$tmp/beside" || bad "trace in the cache folder: the report differs"
[ -n "$(cache_file)" ] && bad "a cache was written beside the trace"
rm -rf "$dir"
# The bound: the caches used longest ago go first.
h="$SHARED/traces/hta-cpu-only-2022.json.gz"
XDG_CACHE_HOME="$tmp/xdg2" run "$h" "$tmp/x"
hsize=$(cat "$tmp"/xdg2/torchtop/*.ttc | wc -c)
fsize=$(stat -c %s "$tmp/good.ttc")
run "$f" "$tmp/x"
sleep 0.05
run "$g" "$tmp/x"
gcache=$(ls -t "$dir"/*.ttc | head -1)
sleep 0.05
run "$f" "$tmp/x" # read again: now the one used last
sleep 0.05
# Room for f's and h's caches, with some slack (a trace's string table may
# hold a few strings more from one run to the next), less than g's.
gsize=$(stat -c %s "$gcache")
TORCHTOP_CACHE_MAX_BYTES=$((fsize + hsize + gsize / 2)) run "$h" "$tmp/x"
[ "$(ls "$dir" | wc -l)" = 2 ] || bad "bound: the folder holds $(ls "$dir")"
[ -e "$gcache" ] && bad "bound: the cache used longest ago was kept"
[ -e "$c" ] || bad "bound: the cache read last was dropped"
total=$(cat "$dir"/*.ttc | wc -c)
# A writer's temporary file: kept while it may be written, gone once stale.
stale="$dir/.0123456789abcdef.ttc.tmp-AbCdEf"
young="$dir/.0123456789abcdef.ttc.tmp-GhIjKl"
echo x >"$stale"
echo x >"$young"
touch -d '2 hours ago' "$stale"
run "$g" "$tmp/x"
[ -e "$stale" ] && bad "a stale temporary file was kept"
[ -e "$young" ] || bad "a young temporary file was deleted"
rm -f "$young"
echo "ok: threshold, switch, folder and bound ($total bytes kept)"

[ "$fails" = 0 ] || exit 1

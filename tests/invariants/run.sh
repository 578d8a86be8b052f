#!/bin/sh
# Property test: the report tables keep their invariants
# (core/report/invariants.h) on every shared trace (and the shared 8-rank
# job), on generated traces of every `torchtop gen` shape (a model trace,
# with a conv stem, gzip; jobs with collective metadata and without, one
# rank and a straggler), and on the fuzz corpora (traces, gzip traces, and
# the job corpus's inputs unpacked as the job fuzz target does). The tables
# and traces each invariant checked are printed at the end.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
TT="$top_builddir/torchtop"
CHECK="$top_builddir/tests/invariants/check_invariants"
FUZZ="$top_srcdir/tests/fuzz/corpus"
SHARED="${TORCHTOP_SHARED:-$top_srcdir/../shared}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-inv.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

set --
if [ -d "$SHARED/traces" ]; then
    for f in "$SHARED"/traces/*.json "$SHARED"/traces/*.json.gz; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
    # The shared 8-rank job, as a directory of its traces.
    mkdir "$tmp/param-dlrm-8rank"
    for f in "$SHARED"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json; do
        [ -f "$f" ] && ln -s "$f" "$tmp/param-dlrm-8rank/$(basename "$f")"
    done
    set -- "$@" "$tmp/param-dlrm-8rank"
elif [ "${CI:-}" = "true" ]; then
    echo "FAIL: $SHARED/traces is missing; CI needs ../shared beside the checkout"
    exit 1
else
    echo "note: $SHARED/traces not found; generated traces and the fuzz corpora only"
fi

# Every shape `torchtop gen` writes.
"$TT" gen --seed 1 --events 4000 -o "$tmp/gen-model.json" &&
"$TT" gen --seed 2 --conv --events 4000 -o "$tmp/gen-conv.json.gz" &&
"$TT" gen --seed 3 --steps 2 --layers 2 -o "$tmp/gen-small.json" &&
"$TT" gen --seed 4 --moe --steps 2 --layers 2 -o "$tmp/gen-moe.json" &&
"$TT" gen --ranks 4 --steps 2 -o "$tmp/gen-job4" &&
"$TT" gen --ranks 3 --no-metadata --gzip -o "$tmp/gen-job3-plain" &&
"$TT" gen --ranks 1 -o "$tmp/gen-job1" &&
"$TT" gen --ranks 8 --straggler 5 --straggler-us 2000 --collectives 6 -o "$tmp/gen-job8" ||
    { echo "FAIL: torchtop gen"; exit 1; }
set -- "$@" "$tmp"/gen-model.json "$tmp"/gen-conv.json.gz "$tmp"/gen-small.json "$tmp"/gen-moe.json \
    "$tmp"/gen-job4 "$tmp"/gen-job3-plain "$tmp"/gen-job1 "$tmp"/gen-job8

for f in "$FUZZ"/trace/* "$FUZZ"/trace_gzip/*; do
    [ -f "$f" ] && set -- "$@" "$f"
done
# The job corpus: up to 4 files separated by "\n--8<--\n", each named by
# its first byte (tests/fuzz/fuzz_job.c).
if [ -n "${PYTHON3:-}" ]; then
    for f in "$FUZZ"/job/*; do
        [ -f "$f" ] || continue
        d="$tmp/fuzz-job-$(basename "$f")"
        mkdir "$d"
        "$PYTHON3" -c '
import sys
data = open(sys.argv[1], "rb").read()
for part in data.split(b"\n--8<--\n")[:4]:
    if not part:
        continue
    name = "rank-%d.%s" % (part[0] & 3, "summary" if part[0] & 4 else "json")
    open(sys.argv[2] + "/" + name, "wb").write(part[1:])
' "$f" "$d" && set -- "$@" "$d"
    done
else
    echo "note: python3 not found; the job corpus was left out"
fi

"$CHECK" "$@"

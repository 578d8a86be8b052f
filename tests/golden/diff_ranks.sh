#!/bin/sh
# diff with a multi-rank side: --control-rank/--test-rank pick a rank out of
# a directory, a glob or several files, and the diff equals the diff of
# the two files named alone (every table); a side with several traces and
# no rank, or a rank it lacks, is a usage error (64) listing the ranks
# found. On a generated job (torchtop gen --ranks) and on the 8 ranks of
# param-dlrm in ../shared (skipped without it).
set -u
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-diff-ranks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

# same DESC OUT_A OUT_B: the two outputs are equal
same() {
    if ! cmp -s "$2" "$3"; then
        echo "FAIL: $1"
        diff "$2" "$3" | head -20
        fail=1
    fi
}

# usage DESC EXPECTED_TEXT CMD...: exit 64 and EXPECTED_TEXT in the message
usage() {
    what=$1 want=$2
    shift 2
    "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 64 ] || ! grep -qF -- "$want" "$tmp/err"; then
        echo "FAIL: $what: exit $rc (64 expected), message:"
        cat "$tmp/err"
        echo "(expected to contain: $want)"
        fail=1
    fi
}

"$tt" gen --ranks 4 --steps 3 -o "$tmp/job" >/dev/null || exit 1
d="$tmp/job"
"$tt" diff -q --no-header -t all "$d/rank-1.json" "$d/rank-2.json" >"$tmp/files" || exit 1
"$tt" diff -q --no-header -t all --control-rank 1 --test-rank 2 "$d" "$d" >"$tmp/dirs" || fail=1
same "generated job: --control-rank 1 --test-rank 2 DIR DIR != rank-1 rank-2" "$tmp/files" "$tmp/dirs"
"$tt" diff -q --no-header -t all --control-rank 1 --test-rank 2 "$d/rank-*.json" "$d" \
    >"$tmp/glob" || fail=1
same "generated job: a glob side != the file" "$tmp/files" "$tmp/glob"
"$tt" diff -q --no-header -t all --test-rank 2 "$d/rank-1.json" "$d" >"$tmp/mixed" || fail=1
same "generated job: a file against a directory side != the two files" "$tmp/files" "$tmp/mixed"
# A rank picked out of files named on one argument each is not possible
# (two arguments only); a directory of one trace is that trace.
mkdir "$tmp/one"
cp "$d/rank-2.json" "$tmp/one/"
"$tt" diff -q --no-header -t all "$d/rank-1.json" "$tmp/one" >"$tmp/one.out" || fail=1
same "a directory of one trace != the trace" "$tmp/files" "$tmp/one.out"

usage "directory side without a rank" "4 traces, ranks 0-3 by file name" \
    "$tt" diff -q "$d" "$d/rank-1.json"
usage "test directory side without a rank" "--test-rank N" \
    "$tt" diff -q --control-rank 0 "$d" "$d"
usage "a rank the side lacks" "no rank 7 among 4 traces" \
    "$tt" diff -q --control-rank 7 --test-rank 0 "$d" "$d"
usage "a bad rank number" "--control-rank needs a rank number" \
    "$tt" diff -q --control-rank x "$d" "$d"
# Names without ranks: numbered by order.
mkdir "$tmp/plain"
cp "$d/rank-0.json" "$tmp/plain/a.json"
cp "$d/rank-3.json" "$tmp/plain/b.json"
usage "order numbering" "2 traces, ranks 0, 1 by the order of the files" \
    "$tt" diff -q "$tmp/plain" "$d/rank-1.json"
"$tt" diff -q --no-header -t all "$d/rank-3.json" "$d/rank-1.json" >"$tmp/files31" || exit 1
"$tt" diff -q --no-header -t all --control-rank 1 "$tmp/plain" "$d/rank-1.json" >"$tmp/ord" || fail=1
same "rank 1 by order (b.json) != rank-3.json" "$tmp/files31" "$tmp/ord"

# The 8 ranks of param-dlrm (../shared): rank 0 against rank 3.
(
    . "${top_srcdir:-.}/tests/lib/shared.sh"
    mkdir "$tmp/dlrm"
    for f in "$SHARED"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json; do
        ln -s "$f" "$tmp/dlrm/"
    done
    ok=0
    a="$SHARED/traces/param-dlrm-v100-8rank-rank0.pt.trace.json"
    b="$SHARED/traces/param-dlrm-v100-8rank-rank3.pt.trace.json"
    "$tt" diff -q --no-header -t ops,ops-diff,tree,lca "$a" "$b" >"$tmp/dlrm_files" || exit 1
    "$tt" diff -q --no-header -t ops,ops-diff,tree,lca --control-rank 0 --test-rank 3 \
        "$tmp/dlrm" "$tmp/dlrm" >"$tmp/dlrm_dirs" 2>"$tmp/dlrm_err" || ok=1
    if ! cmp -s "$tmp/dlrm_files" "$tmp/dlrm_dirs"; then
        echo "FAIL: param-dlrm: --control-rank 0 --test-rank 3 DIR DIR != rank0 rank3"
        diff "$tmp/dlrm_files" "$tmp/dlrm_dirs" | head -20
        ok=1
    fi
    # Picked by name, and distributedInfo agrees: no note.
    if [ -s "$tmp/dlrm_err" ]; then
        echo "FAIL: param-dlrm: unexpected messages:"
        cat "$tmp/dlrm_err"
        ok=1
    fi
    "$tt" diff -q "$tmp/dlrm" "$a" >/dev/null 2>"$tmp/err"
    if [ $? -ne 64 ] || ! grep -qF "8 traces, ranks 0-7 by file name" "$tmp/err"; then
        echo "FAIL: param-dlrm: a directory side without a rank"
        cat "$tmp/err"
        ok=1
    fi
    exit $ok
)
rc=$?
[ $rc -eq 77 ] && rc=0
[ $rc -ne 0 ] && fail=1
exit $fail

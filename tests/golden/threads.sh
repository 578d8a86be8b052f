#!/bin/sh
# The same input gives the same output whatever the number of parser
# threads (the default follows the core count): every file of the bad-input
# corpus, a few shared traces, and a shared trace with a bad event near its
# start and a cut at its end, reported (text and JSON) at --threads 1, 2
# and 4. Standard output, standard error and the exit status must be the
# same byte for byte.
set -u
tt="${top_builddir:-.}/torchtop"
bad="${top_srcdir:-.}/tests/bad"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# same_output FILE [REPORT-OPTIONS...]
same_output() {
    file=$1
    shift
    for n in 1 2 4; do
        "$tt" report --threads "$n" "$@" "$file" >"$tmp/out.$n" 2>"$tmp/err.$n"
        echo "exit status $?" >>"$tmp/err.$n"
    done
    for n in 2 4; do
        if cmp -s "$tmp/out.1" "$tmp/out.$n" && cmp -s "$tmp/err.1" "$tmp/err.$n"; then
            pass=$((pass + 1))
        else
            echo "FAIL: $file${*:+ $*}: --threads $n differs from --threads 1:"
            diff "$tmp/err.1" "$tmp/err.$n" | head -n 6
            diff "$tmp/out.1" "$tmp/out.$n" | head -n 6
            fail=$((fail + 1))
        fi
    done
}

for f in "$bad"/*.json "$bad"/*.gz "$bad"/*.bin "$bad"/*.txt; do
    [ -f "$f" ] || continue
    same_output "$f"
    same_output "$f" -f json
done

# The shared traces: skipped with a message when missing, failed under CI.
shared=$(. "${top_srcdir:-.}/tests/lib/shared.sh" && echo "$SHARED")
case $? in
    0)
        t="$shared/traces"
        for name in hta-a100-triton-tiny.json.gz tracelens-h100-bert-small-infer.json.gz \
                    hta-nccl-a100-2rank-rank0.json.gz param-dlrm-v100-8rank-rank0.pt.trace.json; do
            same_output "$t/$name"
        done
        same_output "$t/param-dlrm-v100-8rank-rank0.pt.trace.json" -f json
        # Several batches of a real trace: cut, and with a bad event near
        # the start as well (the bad one stops a single thread at once).
        src="$t/param-dlrm-v100-8rank-rank0.pt.trace.json"
        size=$(wc -c <"$src")
        head -c $((size * 7 / 10)) "$src" >"$tmp/cut.json"
        awk '!done && /"dur": [0-9]+/ { if (++n == 20) { sub(/"dur": [0-9]+/, "\"dur\": -1"); done = 1 } }
             { print }' "$tmp/cut.json" >"$tmp/bad-then-cut.json"
        for f in "$tmp/cut.json" "$tmp/bad-then-cut.json"; do
            same_output "$f"
            same_output "$f" -f json
        done
        ;;
    77) echo "$shared" ;;
    *)
        echo "$shared"
        fail=$((fail + 1))
        ;;
esac

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# Short fuzzing runs for `make fuzz-smoke`, from a fuzz build directory:
# each target for FUZZ_SECONDS (default 40) on its seeds, the regression
# inputs and the malformed-input corpora. A crash, leak, timeout or
# oracle failure fails the target; crashing inputs are left in
# fuzz-artifacts/. New corpus entries go to fuzz-corpus/ in the build, never
# into the source tree. Ends with "N passed, N failed".
# usage: smoke.sh SRCDIR [TARGET...]
set -u
srcdir=$1
shift
seconds=${FUZZ_SECONDS:-40}
targets=${*:-"trace trace_gzip args pickle elf demangle ranksum job"}
fz=$srcdir/tests/fuzz
passed=0 failed=0

for t in $targets; do
    prog=tests/fuzz/fuzz_$t
    if [ ! -x "$prog" ]; then
        echo "FAIL: fuzz_$t (not built)"
        failed=$((failed + 1))
        continue
    fi
    # Seeds: the committed corpus, the regressions, and per target the
    # malformed-input corpora or the seeds built here.
    extra=""
    opts=""
    case $t in
    trace | trace_gzip) extra="$srcdir/tests/bad"; opts="-max_len=32768 -dict=$fz/trace.dict" ;;
    args) opts="-max_len=4096 -dict=$fz/trace.dict" ;;
    pickle) extra="$srcdir/tests/bad-pickle"; opts="-max_len=16384" ;;
    elf) extra="tests/fuzz/seeds/elf"; opts="-max_len=65536" ;;
    demangle) opts="-max_len=4096" ;;
    ranksum | job) opts="-max_len=16384 -dict=$fz/job.dict" ;;
    esac
    # The elf target needs full allocation stacks for its suppression, and
    # lets libdwarf's absurd allocation requests fail (see replay.sh).
    san=""
    [ "$t" = elf ] && san="fast_unwind_on_malloc=0:allocator_may_return_null=1"
    work=fuzz-corpus/$t
    mkdir -p "$work" fuzz-artifacts
    dirs=""
    for d in "$fz/corpus/$t" "$fz/regress/$t" $extra; do
        [ -d "$d" ] && dirs="$dirs $d"
    done
    log=fuzz-$t.log
    # shellcheck disable=SC2086
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$san" \
        LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$fz/lsan.supp" \
        "$prog" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
        -artifact_prefix="fuzz-artifacts/$t-" $opts \
        "$work" $dirs >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 | sed -n 's/.*\(cov: [0-9]*\).*\(ft: [0-9]*\).*/\1 \2/p')
    if [ "$rc" -eq 0 ]; then
        echo "PASS: fuzz_$t (${runs:-?} runs, ${cov:-no coverage line})"
        passed=$((passed + 1))
    else
        echo "FAIL: fuzz_$t (exit $rc; log $log, inputs in fuzz-artifacts/)"
        tail -n 40 "$log"
        failed=$((failed + 1))
    fi
done

echo "# PASS: $passed"
echo "# FAIL: $failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

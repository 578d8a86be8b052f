#!/bin/sh
# Replays every fuzz target's harness (without libFuzzer) over its seed
# corpus, its crash regressions and the malformed-input corpora; the ELF
# target also reads its own replay program. Fails when an input crashes or
# trips an oracle (and, in sanitizer builds, on leaks).
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
fz=$s/tests/fuzz
status=0

# In sanitizer builds: leaks inside libdwarf are suppressed (lsan.supp),
# which needs full allocation stacks; libdwarf asks for absurd sizes when a
# header's counts are, and handles the NULL it then gets (torchtop's own
# allocations abort on NULL, so nothing of ours hides behind this).
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$fz/lsan.supp"
export LSAN_OPTIONS

replay() { # target, inputs...
    t=$1
    shift
    san=""
    [ "$t" = elf ] && san="fast_unwind_on_malloc=0:allocator_may_return_null=1"
    if ! ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$san" \
        "$b/tests/fuzz/replay_$t" "$fz/corpus/$t" "$fz/regress/$t" "$@"; then
        echo "FAIL: replay_$t"
        status=1
    fi
}

replay trace "$s/tests/bad"
replay trace_gzip "$s/tests/bad"
replay args
replay pickle "$s/tests/bad-pickle"
replay elf "$b/tests/fuzz/replay_elf"
replay demangle
replay ranksum
replay job
exit $status

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

replay() { # target, inputs...
    t=$1
    shift
    if ! "$b/tests/fuzz/replay_$t" "$fz/corpus/$t" "$fz/regress/$t" "$@"; then
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
exit $status

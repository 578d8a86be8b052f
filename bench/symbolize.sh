#!/bin/sh
# Benchmark: `torchtop symbolize` against binutils addr2line, elfutils
# eu-addr2line and llvm-symbolizer, in one run, on a generated C program of
# thousands of functions (with inlined helpers) built with -g:
# - 100,000 addresses picked at random inside its functions, resolved with
#   function names, inline frames and demangling (-f -i -C);
# - the first lookup alone (cold: start, open, read the DWARF it needs);
# - whether the answers agree, address by address, after the same
#   normalisation as tests/symbolize/compare.sh (basenames, discriminators,
#   line 0, gcc clone suffixes).
# eu-addr2line takes minutes on this many addresses; it gets EU_ADDRS of
# them and its time is scaled up (marked "est.").
#
#   bench/symbolize.sh [BUILD_DIR]
#   environment: FUNCS (3000), ADDRS (100000), EU_ADDRS (2000), OPT (-O2),
#                RUNS (3, best of), KEEP=1 keeps the work directory
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
tt="$build/torchtop"
funcs=${FUNCS:-3000}
naddr=${ADDRS:-100000}
neu=${EU_ADDRS:-2000}
opt=${OPT:--O2}
runs=${RUNS:-3}
[ -x "$tt" ] || { echo "no torchtop at $tt (give the build directory)" >&2; exit 2; }
work=$(mktemp -d /tmp/torchtop-bench-symbolize.XXXXXX)
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
cd "$work"

have() { command -v "$1" >/dev/null 2>&1; }

# --- the program --------------------------------------------------------------
awk -v n="$funcs" 'BEGIN {
    print "#include <stdio.h>"
    for (i = 0; i < n; i++) {
        printf "static inline __attribute__((always_inline)) int inl_%d(int x)\n{\n", i
        printf "    int y = x * %d;\n    y ^= y >> 3;\n    return y + %d;\n}\n", i + 3, i
    }
    for (i = 0; i < n; i++) {
        printf "__attribute__((noinline)) int fn_%d(int a)\n{\n    int s = inl_%d(a);\n", i, i
        printf "    if (a > %d) {\n        s += %s;\n    }\n", i % 7, i > 0 ? "fn_" (i - 1) "(a - 1)" : "a"
        printf "    for (int k = 0; k < (a & 3); k++)\n        s += inl_%d(s + k);\n", (i * 7) % n
        printf "    return s;\n}\n"
    }
    print "int main(int argc, char **argv)\n{\n    int s = 0;"
    for (i = 0; i < n; i += (n >= 50 ? int(n / 50) : 1))
        printf "    s += fn_%d(argc);\n", i
    print "    printf(\"%d\\n\", s);\n    return argc > 99 ? (int)(long)argv : 0;\n}"
}' > big.c
echo "building a $(wc -l < big.c)-line C file of $funcs functions with -g $opt ..."
gcc -g $opt -o big big.c

# --- the addresses --------------------------------------------------------------
nm -S --defined-only big | awk -v n="$naddr" '
    function hex(s,   i, v, c) {
        v = 0
        for (i = 1; i <= length(s); i++) {
            c = index("0123456789abcdef", substr(tolower(s), i, 1)) - 1
            v = v * 16 + c
        }
        return v
    }
    ($3 == "T" || $3 == "t") && $2 != "" { lo[k] = hex($1); sz[k] = hex($2); if (sz[k] > 0) k++ }
    END {
        srand(1)
        for (i = 0; i < n; i++) {
            j = int(rand() * k)
            printf "0x%x\n", lo[j] + int(rand() * sz[j])
        }
    }' > addrs
head -n "$neu" addrs > addrs.eu
head -n 1 addrs > addrs.one
echo "$(wc -l < addrs) addresses in $(nm --defined-only big | grep -c " [Tt] ") functions"

# --- timing -----------------------------------------------------------------------
now() { date +%s%N; }
# best of $runs wall-clock milliseconds of: $1 = input file, rest = command
best_ms() {
    input=$1
    shift
    best=""
    i=0
    while [ $i -lt "$runs" ]; do
        t0=$(now)
        "$@" < "$input" > out.tmp 2>/dev/null || true
        t1=$(now)
        ms=$(( (t1 - t0) / 1000000 ))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        i=$((i + 1))
    done
    echo "$best"
}

norm() {
    sed -E -e 's/^0x0*([0-9a-f])/0x\1/' \
        -e 's/ inlined at .* in .*$//' \
        -e 's/^([^ ]*:[0-9]+):[0-9]+$/\1/' \
        -e 's/ \(discriminator [0-9]+\)$//' \
        -e 's/:0$/:?/' \
        -e 's|^[^ ]*/([^/]*:[0-9?]+)$|\1|' \
        -e 's/(\.(cold|constprop\.[0-9]+|isra\.[0-9]+|part\.[0-9]+))+$//' | grep -v '^$'
}
# one line per address: its normalised frames joined by tabs
records() {
    norm | awk '/^0x[0-9a-f]+$/ { if (rec != "") print rec; rec = $0; next }
                { rec = rec "\t" $0 } END { if (rec != "") print rec }'
}
# how many of the records in $1 equal those in $2, line by line
agree() {
    paste -d '\n' "$1" "$2" | awk 'NR % 2 == 1 { a = $0; next } { n++; if (a == $0) same++ }
                                   END { printf "%d/%d", same, n }'
}

run_tool() { # name, input, command...
    name=$1 input=$2
    shift 2
    ms=$(best_ms "$input" "$@")
    cold=$(best_ms addrs.one "$@")
    "$@" < "$input" 2>/dev/null | records > "rec.$name"
    echo "$ms $cold"
}

printf '\n%-16s %9s %11s %9s %12s %s\n' tool addresses "time (ms)" "vs tt" "cold (ms)" \
    "same answers as torchtop"
set -- $(run_tool torchtop addrs "$tt" symbolize -a -f -i -C -e big)
t_tt=$1 c_tt=$2
printf '%-16s %9d %11d %9s %12d %s\n' torchtop "$naddr" "$t_tt" "1.00x" "$c_tt" "-"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }

t_a2l=""
if have addr2line; then
    set -- $(run_tool addr2line addrs addr2line -a -f -i -C -e big)
    t_a2l=$1
    printf '%-16s %9d %11d %9s %12d %s\n' addr2line "$naddr" "$1" "$(ratio "$1" "$t_tt")" "$2" \
        "$(agree rec.torchtop rec.addr2line)"
fi
t_llvm=""
if have llvm-symbolizer; then
    set -- $(run_tool llvm addrs llvm-symbolizer --output-style=GNU -a -f -i -C --obj=big)
    t_llvm=$1
    printf '%-16s %9d %11d %9s %12d %s\n' llvm-symbolizer "$naddr" "$1" "$(ratio "$1" "$t_tt")" \
        "$2" "$(agree rec.torchtop rec.llvm)"
fi
if have eu-addr2line; then
    saved=$runs
    runs=1
    set -- $(run_tool eu addrs.eu eu-addr2line -a -f -i -C -e big)
    runs=$saved
    est=$(( $1 * naddr / neu ))
    head -n "$neu" rec.torchtop > rec.torchtop.eu
    printf '%-16s %9s %11s %9s %12d %s\n' eu-addr2line "$neu" "$1 (est. $est)" \
        "$(ratio "$est" "$t_tt")" "$2" "$(agree rec.torchtop.eu rec.eu)"
fi

echo
target() { # label, their time, ours, factor
    awk -v a="$2" -v t="$3" -v f="$4" -v l="$1" 'BEGIN {
        printf "target: %s: %.2fx, %s\n", l, a / t, (a >= f * t ? "met" : "NOT met") }'
}
[ -n "$t_a2l" ] && target "at least 5x faster than addr2line" "$t_a2l" "$t_tt" 5
[ -n "$t_llvm" ] && target "no slower than llvm-symbolizer" "$t_llvm" "$t_tt" 1
echo "(wall-clock times, best of $runs, output to a file; cold = one address, from process"
echo " start; answers compared per address after normalising basenames, discriminators,"
echo " line 0, gcc clone suffixes, and eu-addr2line's columns)"

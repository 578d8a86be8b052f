#!/bin/sh
# torchtop symbolize against llvm-symbolizer (the reference, see
# ../shared/docs/deps.md P8) on every instruction of the test programs'
# own functions, built with gcc and clang, -O0 and -O2, DWARF 4 and 5;
# then separate debug files (build id, .gnu_debuglink), stripped and
# missing files, the LIB+0xOFF forms, JSON output, and one run under
# valgrind.
#
# Compared after normalising what the two tools print differently on
# purpose: directories (basenames only), discriminators, line 0 ("?" vs
# "0"), gcc clone suffixes (LLVM names the outermost frame after the ELF
# symbol: "f.cold", "f.constprop.0"), and C1/C2 (D1/D2) constructor
# aliases at one address. Names are compared mangled, so that the two
# demanglers' spellings do not matter.
set -u
srcdir="${top_srcdir:-.}/tests/symbolize"
builddir="${top_builddir:-.}"
torchtop="$builddir/torchtop"
work="$builddir/tests/symbolize/work"
llvm="${LLVM_SYMBOLIZER:-}"
[ -n "$llvm" ] || llvm=$(command -v llvm-symbolizer 2>/dev/null || true)

if [ -z "$llvm" ] || ! command -v objdump >/dev/null 2>&1 || ! command -v objcopy >/dev/null 2>&1; then
    echo "SKIP: llvm-symbolizer, objdump or objcopy not found"
    exit 77
fi
compilers=""
command -v gcc >/dev/null 2>&1 && compilers="gcc"
clang="${CLANG:-}"
[ -n "$clang" ] || clang=$(command -v clang 2>/dev/null || true)
[ -n "$clang" ] && compilers="$compilers $clang"
if [ -z "$compilers" ]; then
    echo "SKIP: neither gcc nor clang found"
    exit 77
fi

rm -rf "$work"
mkdir -p "$work"
fail=0
total=0

note() { echo "$*"; }
bad() { echo "FAIL: $*"; fail=1; }

# Instruction addresses of the test programs' own functions.
addresses() {
    objdump -d --no-show-raw-insn "$1" | awk '
      /^[0-9a-f]+ <.*>:$/ { name = $2; sub(/^</, "", name); sub(/>:$/, "", name);
          keep = (name ~ /^(main|sym_)/ || name ~ /^_Z.*(tt|sym)/); next }
      keep && /^ +[0-9a-f]+:/ { a = $1; sub(/:$/, "", a); print "0x" a }'
}

norm() {
    sed -E -e 's/^0x0*([0-9a-f])/0x\1/' \
        -e 's/ \(discriminator [0-9]+\)$//' \
        -e 's/:0$/:?/' \
        -e 's|^[^ ]*/([^/]*:[0-9?]+)$|\1|' \
        -e 's/(\.(cold|constprop\.[0-9]+|isra\.[0-9]+|part\.[0-9]+))+$//' \
        -e '/^_Z/s/([CD])[0-2]E/\1xE/g'
}

compare() {
    bin=$1
    addresses "$bin" > "$bin.addrs"
    n=$(wc -l < "$bin.addrs")
    if [ "$n" -lt 10 ]; then
        bad "$bin: only $n addresses found"
        return
    fi
    "$torchtop" symbolize -a -f -i -e "$bin" < "$bin.addrs" 2>"$bin.err" | norm > "$bin.ours"
    "$llvm" --output-style=GNU --no-demangle -a -f -i --obj="$bin" < "$bin.addrs" |
        grep -v '^$' | norm > "$bin.llvm"
    total=$((total + n))
    if cmp -s "$bin.ours" "$bin.llvm"; then
        note "ok   $(basename "$bin"): $n addresses"
    else
        bad "$(basename "$bin"): differs from llvm-symbolizer"
        diff "$bin.ours" "$bin.llvm" | head -20
    fi
}

for cc in $compilers; do
    tag=$(basename "$cc")
    for opt in -O0 -O2; do
        for dw in 4 5; do
            for lang in c cc; do
                bin="$work/prog-$lang-$tag$opt-dwarf$dw"
                if [ "$lang" = c ]; then
                    "$cc" -g -gdwarf-$dw $opt -o "$bin" "$srcdir/prog.c" 2>"$bin.cc.log"
                else
                    "$cc" -g -gdwarf-$dw $opt -x c++ -o "$bin" "$srcdir/prog.cc" -x none \
                        -lstdc++ 2>"$bin.cc.log"
                fi
                if [ $? -ne 0 ]; then
                    bad "cannot build $bin"
                    cat "$bin.cc.log"
                    continue
                fi
                compare "$bin"
            done
        done
    done
done

# --- torchtop itself: hundreds of units, whatever CFLAGS built it ----------
# Every 7th instruction of .text. Code without DWARF (crt files, static
# libraries) gets "??:?" like addr2line, where llvm-symbolizer names the
# object file from the symbol table; such lines are compared as "??:?".
self="$work/torchtop-self"
cp "$torchtop" "$self"
objdump -d -j .text --no-show-raw-insn "$self" | awk '/^ +[0-9a-f]+:/ { a = $1; sub(/:$/, "", a); print "0x" a }' |
    awk 'NR % 7 == 0' > "$self.addrs"
n=$(wc -l < "$self.addrs")
"$torchtop" symbolize -a -f -i -e "$self" < "$self.addrs" 2>/dev/null | norm |
    sed -E 's/^[^ ]*:\?$/??:?/' > "$self.ours"
"$llvm" --output-style=GNU --no-demangle -a -f -i --obj="$self" < "$self.addrs" | grep -v '^$' |
    norm | sed -E 's/^[^ ]*:\?$/??:?/' > "$self.llvm"
total=$((total + n))
if cmp -s "$self.ours" "$self.llvm"; then
    note "ok   torchtop itself: $n addresses"
else
    bad "torchtop itself: differs from llvm-symbolizer"
    diff "$self.ours" "$self.llvm" | head -20
fi

# PLT stubs lie in no function: "??" and "??:0" like addr2line (where
# llvm-symbolizer stretches the size-less _init over them).
plt=$(objdump -d -j .plt --no-show-raw-insn "$self" 2>/dev/null |
    awk '/^ +[0-9a-f]+:/ { a = $1; sub(/:$/, "", a); print "0x" a; exit }')
if [ -n "$plt" ]; then
    ours=$("$torchtop" symbolize -f -e "$self" "$plt" 2>/dev/null | tr '\n' ' ')
    theirs=$(addr2line -f -e "$self" "$plt" | tr '\n' ' ')
    if [ "$ours" = "$theirs" ] && [ "$ours" = "?? ??:0 " ]; then
        note "ok   a PLT address: $ours"
    else
        bad "PLT address $plt: torchtop '$ours', addr2line '$theirs'"
    fi
fi

# An empty input line is answered (as address 0), so output pairs with input.
lines=$(printf '\n%s\n' "$plt" | "$torchtop" symbolize -f -e "$self" 2>/dev/null | wc -l)
[ "$lines" -eq 4 ] && note "ok   empty input line answered" ||
    bad "an empty input line and one address gave $lines output lines, not 4"

# --- separate debug files -------------------------------------------------
first=$(echo $compilers | cut -d' ' -f1)
base="$work/sep"
"$first" -g -O2 -Wl,--build-id -o "$base" "$srcdir/prog.c" || bad "cannot build $base"
addresses "$base" > "$base.addrs"
"$torchtop" symbolize -a -f -i -e "$base" < "$base.addrs" > "$base.want" 2>/dev/null

objcopy --only-keep-debug "$base" "$base.debug"
# Build id: DIR/.build-id/xx/yyyy.debug
objcopy --strip-all "$base" "$base.byid"
id=$(readelf -n "$base" | awk '/Build ID:/ { print $3 }')
if [ -z "$id" ]; then
    bad "no build id in $base"
else
    mkdir -p "$work/debugroot/.build-id/$(echo "$id" | cut -c1-2)"
    cp "$base.debug" "$work/debugroot/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
    "$torchtop" symbolize --debug-dir "$work/debugroot" -a -f -i -e "$base.byid" \
        < "$base.addrs" > "$base.byid.out" 2>"$base.byid.err"
    if cmp -s "$base.want" "$base.byid.out"; then
        note "ok   stripped binary, debug file found by build id"
    else
        bad "stripped binary with a build-id debug file"
        diff "$base.want" "$base.byid.out" | head -10
    fi
fi
# .gnu_debuglink: <dir>/.debug/NAME, checked by CRC
mkdir -p "$work/linked/.debug"
objcopy --strip-all --remove-section=.note.gnu.build-id "$base" "$work/linked/prog"
cp "$base.debug" "$work/linked/.debug/prog.dbg"
(cd "$work/linked" && objcopy --add-gnu-debuglink=.debug/prog.dbg prog) ||
    bad "objcopy --add-gnu-debuglink failed"
"$torchtop" symbolize -a -f -i -e "$work/linked/prog" < "$base.addrs" > "$base.link.out" 2>/dev/null
if cmp -s "$base.want" "$base.link.out"; then
    note "ok   stripped binary, debug file found by .gnu_debuglink"
else
    bad "stripped binary with a .gnu_debuglink debug file"
    diff "$base.want" "$base.link.out" | head -10
fi
# A debug file with the wrong CRC is not used.
printf 'x' >> "$work/linked/.debug/prog.dbg"
"$torchtop" symbolize -f -e "$work/linked/prog" 0x10 > /dev/null 2>"$base.crc.err"
grep -q 'stripped' "$base.crc.err" || bad "a debug file with a wrong CRC was used: $(cat "$base.crc.err")"

# Symbol table only: function names, no lines; addr2line prints "??:?".
objcopy --strip-debug "$base" "$base.symtab"
main_addr=$(nm "$base" | awk '$3 == "main" { print $1 }')
out=$("$torchtop" symbolize -f -e "$base.symtab" "0x$main_addr" 2>"$base.symtab.err" | tr '\n' ' ')
[ "$out" = "main ??:? " ] || bad "symbol table only: got '$out'"
grep -q 'no debug info in sep.symtab; install the debug symbols' "$base.symtab.err" ||
    bad "symbol table only: reason: $(cat "$base.symtab.err")"

# --- locations: LIB+0xOFF, LIB(+0xOFF), LIB(SYMBOL+0xOFF) -----------------
want=$("$torchtop" symbolize -f -i -e "$base" "0x$main_addr" | tr '\n' ' ')
for loc in "$base+0x$main_addr" "$base(+0x$main_addr) [0x7f0000001234]" "$base(main+0x0)"; do
    got=$("$torchtop" symbolize -f -i "$loc" | tr '\n' ' ')
    [ "$got" = "$want" ] || bad "location '$loc': got '$got', want '$want'"
done
got=$(echo "$base+0x$main_addr" | "$torchtop" symbolize -f -i | tr '\n' ' ')
[ "$got" = "$want" ] || bad "location from stdin: got '$got', want '$want'"

# --- missing files ----------------------------------------------------------
got=$("$torchtop" symbolize -f /nonexistent/libnothere.so+0x10 2>"$work/missing.err" | tr '\n' ' ')
[ "$got" = "?? ??:0 " ] || bad "missing library: got '$got'"
grep -q 'file not found' "$work/missing.err" || bad "missing library: reason: $(cat "$work/missing.err")"
"$torchtop" symbolize -e /nonexistent/prog 0x10 >/dev/null 2>&1
[ $? -eq 1 ] || bad "a missing -e file must exit 1"
note "ok   missing files"

# --- JSON -------------------------------------------------------------------
if [ -n "${PYTHON3:-}" ]; then
    head -50 "$base.addrs" | "$torchtop" symbolize --json -i -C -e "$base" > "$work/out.json" 2>/dev/null
    "$PYTHON3" - "$work/out.json" <<'EOF' || bad "JSON output"
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["status"] in ("ok", "symbol_only", "no_info", "no_module"), o
    assert isinstance(o["frames"], list)
    for f in o["frames"]:
        assert set(f) == {"function", "file", "line", "column", "discriminator", "inlined"}, f
    n += 1
assert n == 50, n
EOF
    note "ok   JSON lines"
fi

# --- valgrind -----------------------------------------------------------------
if [ -n "${VALGRIND:-}" ] && [ -z "${TORCHTOP_NO_VALGRIND:-}" ]; then
    vbin=$(ls "$work"/prog-cc-*-O2-dwarf5 | head -1)
    "$VALGRIND" -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
        "$torchtop" symbolize -a -f -i -C -e "$vbin" < "$vbin.addrs" > /dev/null 2>"$work/valgrind.log"
    if [ $? -eq 9 ]; then
        bad "valgrind"
        head -40 "$work/valgrind.log"
    else
        note "ok   valgrind clean on $(basename "$vbin")"
    fi
fi

echo "$total addresses compared"
exit $fail

#!/bin/sh
# Untrusted names: escape sequences, control bytes, invalid UTF-8, a
# right-to-left override, double-width CJK, a 5,000-character kernel name
# and a 100 KB name. They must show escaped or cut in the middle, and never
# reach the terminal raw. Needs no shared data.
. "${top_srcdir:-.}/tests/ui/lib.sh"
long=$(awk 'BEGIN { s = "void very::long::kernel<"; while (length(s) < 5000) s = s "float, "; print s "int>(Params)" }')
huge=$(awk 'BEGIN { s = ""; while (length(s) < 100000) s = s "abcdefghij"; print "HEAD" s "TAIL" }')
{
    printf '{"traceEvents":[\n'
    printf '{"ph":"X","cat":"cpu_op","name":"evil\\u001b[2J\\u001b]0;pwned\\u0007op","pid":1,"tid":1,"ts":0,"dur":100,'
    printf '"args":{"Input Dims":[[2,3]],"note\\u001b[31m":"red\\u001b[0m\\u009b1m"}},\n'
    printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},\n'
    printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":20,"dur":50,"args":{"device":0,"stream":7,"correlation":1}},\n' "$long"
    printf '{"ph":"X","cat":"cpu_op","name":"\347\237\251\351\230\265\344\271\230\346\263\225_matmul_\345\206\205\346\240\270","pid":1,"tid":1,"ts":200,"dur":10},\n'
    printf '{"ph":"X","cat":"cpu_op","name":"rtl\\u202egnp.exe","pid":1,"tid":1,"ts":300,"dur":10},\n'
    printf '{"ph":"X","cat":"cpu_op","name":"bad\377\376utf8\315","pid":1,"tid":1,"ts":400,"dur":10},\n'
    printf '{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":1,"ts":500,"dur":10},\n' "$huge"
    printf '{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main\\u001b[7mthread"}}\n'
    printf ']}\n'
} > "$tmp/nasty.json"

# The invalid UTF-8 is reported on the message line, every event is shown,
# and the exit status is 2.
EXPECT_STATUS=2
run_script nasty nasty.json <<'STEPS'
expect nasty.json: byte 5658: invalid UTF-8 in a string
view key-averages
save-display nasty-table.txt
focus-tree
expand-all
save-display nasty-tree.txt
search very::long
save-display nasty-kernel.txt
focus-detail
G
save-display nasty-detail-end.txt
search HEAD
resize 200x50
save-display nasty-wide.txt
STEPS
for f in nasty-table.txt nasty-tree.txt nasty-kernel.txt nasty-detail-end.txt nasty-wide.txt; do
    check_screen "$f"
    if LC_ALL=C grep -q "$(printf '\033')" "$tmp/$f"; then fail "$f: raw ESC on screen"; fi
    if LC_ALL=C grep -q "$(printf '\342\200\256')" "$tmp/$f"; then fail "$f: raw RTL override"; fi
    if ! iconv -f UTF-8 -t UTF-8 "$tmp/$f" >/dev/null 2>&1; then fail "$f: invalid UTF-8 on screen"; fi
done
grep -q 'evil\\x1b\[2J' "$tmp/nasty-tree.txt" || fail "escape sequence not shown escaped"

# A trace cut in the middle of an event: the events before the cut are
# shown, the fault is on the message line, and the exit status is 2.
head -c 700 "$tmp/nasty.json" > "$tmp/cut.json"
run_script cut "$tmp/cut.json" <<'STEPS'
expect truncated
focus-tree
expand-all
expect evil\x1b[2J
STEPS
EXPECT_STATUS=0
grep -q '<U+202E>' "$tmp/nasty-tree.txt" || fail "RTL override not shown"
finish

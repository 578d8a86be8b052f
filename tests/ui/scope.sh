#!/bin/sh
# Scopes in the explorer (torchtop(1) SCOPES): a range marked on the
# timeline (m at each end, or a mouse drag) rescopes the op table and the header to that
# window, as `report --window` computes them; Esc restores the whole trace;
# the step list (T) sorted by duration opens the slowest step with Enter,
# its op table that of `report --step N`; `torchtop --step N` opens the
# same scope; O in the call tree scopes to the subtrees of a name
# (--match). On a generated trace (torchtop gen: the same bytes every run)
# and on a shared trace with steps.
. "${top_srcdir:-.}/tests/ui/lib.sh"
"$TORCHTOP" gen --steps 5 -o "$tmp/gen.json" || fail "gen: exit status $?"

# ops_agree SCREEN REPORT-OPTIONS...: the op table's first rows on the
# screen are the report's (name, as far as a name cut in the middle shows
# it, and direct GPU ms to the screen's three decimals) for the same trace
# and scope.
ops_agree() {
    screen=$1
    shift
    "$TORCHTOP" report -q --no-header -t ops -f csv "$@" > "$tmp/ops.csv" ||
        fail "report $*: exit status $?"
    awk -F, -v screen="$tmp/$screen" '
        NR == FNR { lines[++n] = $0; next }
        FNR == 1 || FNR > 6 { next }
        {
            name = $1; ms = sprintf("%.3f", $4); found = 0
            for (i = 1; i <= n; i++)
                if (index(lines[i], substr(name, 1, 16)) == 1 && index(lines[i], " " ms " ") > 0)
                    found = 1
            if (!found) { printf "%s: no row %s %s\n", screen, name, ms; bad++ }
            rows++
        }
        END { if (!rows) { print screen ": the report has no rows"; bad++ } exit bad > 0 }
    ' "$tmp/$screen" "$tmp/ops.csv" || fail "$screen: the op table is not the report's ($*)"
}

# The header's scope: the text after "scope: " up to its first " · ".
scope_of() {
    sed -n '1s/.*scope: \([^·]*\) ·.*/\1/p' "$tmp/$1" | sed 's/ *$//'
}

run_script scope-range "$tmp/gen.json" --size 120x30 <<'STEPS'
wait-analysis
save-display scope-whole.txt
keys <F4> g
keys l l l l l l l l l l l l l l l l l l l l
m
expect range from
keys l l l l l l l l l l l l l l l l l l l l
save-display scope-marking.txt
m
expect scope: window
expect every view is for the scope
save-display scope-range.txt
<Esc>
expect back from gen.json
save-display scope-restored.txt
STEPS
window=$(scope_of scope-range.txt)
case "$window" in
window\ *ms:*ms) ;;
*) fail "the scoped header names no window: '$window'" ;;
esac
ops_agree scope-range.txt --window "${window#window }" "$tmp/gen.json"
ops_agree scope-whole.txt "$tmp/gen.json"
ops_agree scope-restored.txt "$tmp/gen.json"
grep -q "scope:" "$tmp/scope-restored.txt" && fail "Esc left the scope in the header"
[ "$(head -1 "$tmp/scope-whole.txt")" = "$(head -1 "$tmp/scope-restored.txt")" ] ||
    fail "Esc: the header is not the whole trace's again"

# A mouse drag along the timeline (row 25 of 30 is its first lane, the
# labels take 12 columns) marks the range between the two columns and
# scopes to it, as m at each end does; a press and release at one place
# is a click (no scope), and so is a drag that leaves the timeline.
run_script scope-drag "$tmp/gen.json" --size 120x30 <<'STEPS'
wait-analysis
drag 40 25 40 25
drag 40 25 40 10
save-display scope-drag-click.txt
drag 32 25 52 26
expect scope: window
save-display scope-drag.txt
STEPS
grep -q "scope:" "$tmp/scope-drag-click.txt" && fail "a press and release without a drag scoped"
dragged=$(scope_of scope-drag.txt)
case "$dragged" in
window\ *ms:*ms) ;;
*) fail "the dragged scope names no window: '$dragged'" ;;
esac
ops_agree scope-drag.txt --window "${dragged#window }" "$tmp/gen.json"
# The drag's window is the marked range's, moved by the half column m's
# cursor starts off at.
awk -v a="${window#window }" -v b="${dragged#window }" 'BEGIN {
    split(a, x, ":"); split(b, y, ":"); sub("ms", "", x[1]); sub("ms", "", y[1]);
    sub("ms", "", x[2]); sub("ms", "", y[2]);
    d1 = y[1] - x[1]; d2 = y[2] - x[2];
    exit !(d1 >= 0 && d1 < 3 && d2 >= 0 && d2 < 3 && (d1 - d2) < 0.01 && (d2 - d1) < 0.01) }' ||
    fail "the dragged window $dragged is not the marked one ($window) at the same columns"

# The step list: sorted by duration, the slowest first; Enter opens it.
slowest=$("$TORCHTOP" report -q --no-header -t steps -f csv "$tmp/gen.json" |
    awk -F, 'NR > 1 && $3 + 0 > best { best = $3 + 0; step = $1 } END { print step }')
[ -n "$slowest" ] || fail "report -t steps gives no step"
run_script scope-steps "$tmp/gen.json" --size 80x24 <<STEPS
wait-analysis
keys T
expect 5 steps
sort-by duration_ms
expect duration ms▼
save-display scope-steps-80x24.txt
keys <Enter>
expect scope: step $slowest ·
save-display scope-step-80x24.txt
keys <BS>
expect steps: Per profiler step
STEPS
first=$(awk '/^ *[0-9]+ /{ print $1; exit }' "$tmp/scope-steps-80x24.txt")
[ "$first" = "$slowest" ] || fail "the step list's first row is step '$first', not the slowest ($slowest)"
check_screen scope-steps-80x24.txt
check_screen scope-step-80x24.txt

# The same scope from the command line, its op table the report's.
run_script scope-cli "$tmp/gen.json" --size 120x30 --step "$slowest" <<STEPS
wait-analysis
expect scope: step $slowest ·
save-display scope-cli.txt
STEPS
ops_agree scope-cli.txt --step "$slowest" "$tmp/gen.json"
# A step the trace does not have: a usage error, as report's (exit 64).
: > "$tmp/none.steps"
"$TORCHTOP" --script "$tmp/none.steps" --step 99 "$tmp/gen.json" > /dev/null 2> "$tmp/none.err"
rc=$?
[ $rc -eq 64 ] || fail "--step 99: exit status $rc"
grep -q "ProfilerStep#99" "$tmp/none.err" || fail "--step 99: $(cat "$tmp/none.err")"

# O on a call-tree node: the subtrees of its name (--match '^NAME$').
run_script scope-subtree "$tmp/gen.json" --size 120x30 <<'STEPS'
wait-analysis
keys <F3>
search Optimizer.step
O
expect scope: match
save-display scope-subtree.txt
STEPS
match=$(sed -n "1s/.*scope: match '\([^']*\)'.*/\1/p" "$tmp/scope-subtree.txt")
[ -n "$match" ] || fail "the subtree scope names no match"
ops_agree scope-subtree.txt --match "$match" "$tmp/gen.json"

# A shared trace with steps: its slowest step from the list.
resnet="$TRACES/kineto-v100-resnet50-pt19.pt.trace.json.gz"
if [ -f "$resnet" ]; then
    slowest=$("$TORCHTOP" report -q --no-header -t steps -f csv "$resnet" |
        awk -F, 'NR > 1 && $3 + 0 > best { best = $3 + 0; step = $1 } END { print step }')
    run_script scope-resnet "$resnet" --size 120x30 <<STEPS
wait-analysis
keys T
sort-by duration_ms
keys <Enter>
expect scope: step $slowest ·
save-display scope-resnet.txt
<Esc>
expect back from
STEPS
    ops_agree scope-resnet.txt --step "$slowest" "$resnet"
elif [ "${CI:-}" = "true" ]; then
    fail "$resnet is missing"
fi
finish

#!/bin/sh
# The findings in the header (tui/trace/findings_ui.h, docs/metrics.md
# §20): the lines are kept from the first screen on ("computing" while the
# worker builds them, so the panes do not move when they arrive), then the
# report's top three in its order, one line each with the saving first;
# one line with a count of the others on a short terminal. A click on a
# header line selects that finding in the findings view; Enter shows its
# evidence where it shows best (launch-bound kernels on the timeline, a
# sync or a DataLoader wait in the call tree) and Backspace comes back.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared

# The report's findings, largest first: "kind saving_pct" lines, the
# saving as the header prints it.
top() {
    "$TORCHTOP" report -q --no-header -t findings -f csv "$1" |
        awk -F, '/^# findings_rules/ { exit } /^[a-z-]+,[0-9]*,/ { printf "%s %.1f\n", $1, $5 }'
}
# The header line of the n-th finding: "−S % kind:".
header_has() { # screen n kind pct
    sed -n "$(($2 + 2))p" "$tmp/$1" | grep -q "^ −$4 % $3: " ||
        fail "$1: header line $2 is not '−$4 % $3: …': $(sed -n "$(($2 + 2))p" "$tmp/$1")"
}
# The line of the screen where the op table's title is.
title_line() {
    grep -n "^ ops: GPU time by launcher op\|^ findings: Findings" "$tmp/$1" | head -1 | cut -d: -f1
}

"$TORCHTOP" gen --inject data-loading:5000 --inject sync:3000 --inject small-kernels:2000 \
    -o "$tmp/inj.json" || fail "gen: exit status $?"
top "$tmp/inj.json" > "$tmp/inj.top"
[ "$(cut -d' ' -f1 "$tmp/inj.top" | head -3 | tr '\n' ' ')" = "data-loading sync launch-bound " ] ||
    fail "the report's top three are not the injected problems by size: $(cat "$tmp/inj.top")"

TORCHTOP_HOLD_ANALYSIS=1 run_script findings-header "$tmp/inj.json" --size 140x42 <<'STEPS'
expect findings: computing…
save-display findings-header-held-140x42.txt
wait-analysis
expect data-loading:
save-display findings-header-140x42.txt
resize 80x24
expect +
save-display findings-header-80x24.txt
resize 140x42
keys I
expect Enter shows a finding's evidence
keys j j
expect table 3/
keys <Enter>
expect launch-bound: its largest evidence on the timeline
expect timeline lane 1/
save-display findings-header-timeline-140x42.txt
keys <BS>
expect back
expect table 3/
click 20 3
expect table 2/
keys <Enter>
expect instances of
expect cudaStreamSynchronize
save-display findings-header-tree-140x42.txt
keys <BS>
expect table 2/
# With the critical path shown the view holds a copy with a crit column:
# Enter still finds the finding's kind.
keys C I j j
expect crit µs
keys <Enter>
expect launch-bound: its largest evidence on the timeline
STEPS
n=1
while [ $n -le 3 ]; do
    set -- $(sed -n "${n}p" "$tmp/inj.top")
    header_has findings-header-140x42.txt $n "$1" "$2"
    n=$((n + 1))
done
set -- $(sed -n 1p "$tmp/inj.top")
header_has findings-header-80x24.txt 1 "$1" "$2"
more=$(($(wc -l < "$tmp/inj.top") - 1))
sed -n 3p "$tmp/findings-header-80x24.txt" | grep -q "+$more more: I *\$" ||
    fail "80x24: the header's line does not end with +$more more: I"
sed -n 4p "$tmp/findings-header-80x24.txt" | grep -q "^ ops: " ||
    fail "80x24: the header is not one finding line"
# The layout does not move when the findings arrive.
[ "$(title_line findings-header-held-140x42.txt)" = 6 ] &&
    [ "$(title_line findings-header-140x42.txt)" = 6 ] ||
    fail "the op table moved: line $(title_line findings-header-held-140x42.txt) held," \
        "$(title_line findings-header-140x42.txt) after"

# A shared trace: PARAM's DLRM rank 0 (cpu-bound, launch-bound, copy,
# data-loading).
dlrm="$TRACES/param-dlrm-v100-8rank-rank0.pt.trace.json"
top "$dlrm" > "$tmp/dlrm.top"
run_script findings-header-dlrm "$dlrm" --size 140x42 <<'STEPS'
save-display findings-header-dlrm-140x42.txt
click 30 3
expect table 2/
keys <Enter>
expect launch-bound: its largest evidence on the timeline
save-display findings-header-dlrm-timeline-140x42.txt
keys <BS>
expect table 2/
keys k <Enter>
expect instances of
keys <BS>
expect table 1/
# A double click on a header line: that finding's evidence at once (the
# copy's, in the call tree); Backspace comes back to it in the view.
double-click 30 4
expect instances of
keys <BS>
expect table 3/
STEPS
n=1
while [ $n -le 3 ]; do
    set -- $(sed -n "${n}p" "$tmp/dlrm.top")
    header_has findings-header-dlrm-140x42.txt $n "$1" "$2"
    n=$((n + 1))
done
[ "$(sed -n 2p "$tmp/dlrm.top" | cut -d' ' -f1)" = launch-bound ] ||
    fail "DLRM's second finding is not launch-bound: $(cat "$tmp/dlrm.top")"

# Exposed communication (MI300 ResNet DDP, rank 0): the collective on its
# stream's lane, the compute stream beside it.
run_script findings-header-ddp "$TRACES/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz" \
    --size 140x42 <<'STEPS'
expect −42.8 % exposed-comm:
keys I <Enter>
expect exposed-comm: its largest evidence on the timeline
expect ncclDevKernel_Generic
save-display findings-header-ddp-timeline-140x42.txt
keys <BS>
expect table 1/
STEPS

check_screen findings-header-held-140x42.txt
check_screen findings-header-140x42.txt
check_screen findings-header-80x24.txt
check_screen findings-header-timeline-140x42.txt
check_screen findings-header-tree-140x42.txt
check_screen findings-header-dlrm-140x42.txt
check_screen findings-header-dlrm-timeline-140x42.txt
check_screen findings-header-ddp-timeline-140x42.txt
finish

#!/bin/sh
# The findings in the explorer (docs/metrics.md §20): on a generated trace
# with a DataLoader wait and a sync injected (torchtop gen --inject), I
# shows the findings view (the report's findings table, largest saving
# first) with the op table focused, and Enter on a finding shows its
# evidence events in the call tree.
. "${top_srcdir:-.}/tests/ui/lib.sh"
"$TORCHTOP" gen --inject data-loading:8000 --inject sync:4000 -o "$tmp/inj.json" ||
    fail "gen: exit status $?"
first=$("$TORCHTOP" report -q --no-header -t findings -f csv "$tmp/inj.json" |
    awk -F, 'NR == 3 { print $1 }')
[ "$first" = "data-loading" ] || fail "the report's first finding is '$first'"

run_script findings "$tmp/inj.json" --size 140x42 <<STEPS
wait-analysis
keys I
expect findings; Enter shows
expect data-loading
expect sync
save-display findings-view-140x42.txt
keys <Enter>
expect enumerate(DataLoader)
save-display findings-evidence-140x42.txt
STEPS

check_screen findings-view-140x42.txt
check_screen findings-evidence-140x42.txt
finish

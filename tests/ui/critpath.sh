#!/bin/sh
# The critical path in the explorer (tui/trace/critpath_view.h), on a
# shared trace with one step and on a generated trace with three:
#  - the header says what bounds the steps once the path is built ("bound:
#    computing…" before, with the analysis held back), with the shares of
#    `report -t critical-path` summed over the steps, at 140x42 and 80x24;
#  - C highlights the path (the timeline says so) and adds the crit µs
#    column to the op table and the call tree, C again takes them away;
#  - W on an op row says how much the steps would shorten were it twice as
#    fast, the number `report -t critical-path --what-if NAME=0.5` gives,
#    summed over the steps.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
bert="$(cd "$TRACES" && pwd)/tracelens-h100-bert-small-infer.json.gz"

# bound_line TRACE: the header's bound line as the report's shares give it
# (summed over the regions, largest first, those under 1 % left out).
bound_line() {
    "$TORCHTOP" report -t critical-path -f csv "$1" | awk -F, '
        { sub(/\r$/, "") }
        /^# / { table = substr($0, 3); next }
        table == "critical_path" && $4 ~ /^[0-9]+$/ { by[$2] += $4; total += $4 }
        END {
            name["cpu_bound"] = "CPU"; name["gpu_compute_bound"] = "GPU compute"
            name["gpu_communication_bound"] = "GPU comm"
            name["gpu_kernel_launch_overhead"] = "launch"
            name["gpu_kernel_kernel_overhead"] = "kernel gaps"
            line = "bound:"; sep = " "
            while (1) {
                best = ""
                for (b in by) if (b in name && 100 * by[b] >= total && (best == "" || by[b] > by[best])) best = b
                if (best == "") break
                line = line sep name[best] " " sprintf("%.0f", 100 * by[best] / total) " %"
                sep = " · "; delete by[best]
            }
            print line
        }'
}

# whatif_line TRACE NAME: the what-if message's "shorten by X µs (Y %)",
# from the report's what-if table summed over the regions.
whatif_line() {
    "$TORCHTOP" report -t critical-path --what-if "$2=0.5" -f csv "$1" | awk -F, '
        { sub(/\r$/, "") }
        /^# / { table = substr($0, 3); next }
        table == "critical_path_what_if" && $5 ~ /^[0-9]+$/ { before += $5; after += $6 }
        END { printf "shorten by %d µs (%.1f %%)\n", before - after, 100 * (before - after) / before }'
}

line=$(bound_line "$bert")
want=$(whatif_line "$bert" aten::addmm)
case "$line" in "bound: CPU"*) ;; *) fail "bert: the report's shares give '$line'" ;; esac

TORCHTOP_HOLD_ANALYSIS=1 run_script critpath-held "$bert" --size 140x42 <<STEPS
expect bound: computing…
keys C
expect the critical path is being computed
wait-analysis
expect $line
STEPS

run_script critpath-bert "$bert" --size 140x42 <<STEPS
expect $line
save-display critpath-open-140x42.txt
keys C
expect critical path of 1 step:
expect Timeline
expect critical path
expect crit µs
save-display critpath-shown-140x42.txt
keys W
expect if aten::addmm ran 2× faster the step would $want
focus-tree
keys x
expect crit
save-display critpath-tree-140x42.txt
keys C
expect critical path hidden
save-display critpath-hidden-140x42.txt
STEPS
if [ -f "$tmp/critpath-hidden-140x42.txt" ] && grep -q "crit µs" "$tmp/critpath-hidden-140x42.txt"; then
    fail "C again leaves the crit µs column"
fi

run_script critpath-bert-80 "$bert" --size 80x24 <<STEPS
expect bound: CPU
save-display critpath-open-80x24.txt
keys C
expect crit µs
keys W
expect if aten::addmm ran 2× faster
save-display critpath-whatif-80x24.txt
STEPS

# A generated trace: three steps, the path summed over them (HTA leaves
# the last one out, as the report does).
"$TORCHTOP" gen --events 20000 --steps 3 -o "$tmp/gen.json" || fail "gen: exit status $?"
line=$(bound_line "$tmp/gen.json")
want=$(whatif_line "$tmp/gen.json" aten::mm)
run_script critpath-gen "$tmp/gen.json" --size 140x42 <<STEPS
expect $line
keys C
expect critical path of 3 steps:
search aten::mm
keys W
expect if aten::mm ran 2× faster the 3 steps would $want
save-display critpath-gen-140x42.txt
STEPS
run_script critpath-gen-80 "$tmp/gen.json" --size 80x24 <<STEPS
expect bound: GPU compute
save-display critpath-gen-80x24.txt
STEPS

check_screen critpath-open-140x42.txt
check_screen critpath-shown-140x42.txt
check_screen critpath-tree-140x42.txt
check_screen critpath-hidden-140x42.txt
check_screen critpath-open-80x24.txt
check_screen critpath-whatif-80x24.txt
check_screen critpath-gen-140x42.txt
check_screen critpath-gen-80x24.txt
finish

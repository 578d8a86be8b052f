#!/bin/sh
# The roofline in the explorer: the op table's roofline view and its
# category menu, drilling into a row's instances, the detail pane's
# roofline section and plot (UTF-8 and ASCII), --arch, and a trace
# recorded without shapes.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
bert="$TRACES/tracelens-h100-bert-small-infer.json.gz"
run_script roofline "$bert" --size 120x40 <<'STEPS'
# r: the roofline view (first category), r again: the category menu.
r
expect roofline: Roofline: GEMM (H100 SXM)  4 rows
save-display roofline-gemm.txt
r
save-display roofline-menu.txt
<Down>
<Enter>
expect Roofline: SDPA_fwd (H100 SXM)
# v cycles through the report views (past the graph views, the findings,
# the steps and the iterations) and comes back to the roofline.
v
expect no graph launch (cudaGraphLaunch, hipGraphLaunch) owns GPU work
v
v
expect findings: Findings
v
expect steps: Per profiler step
v
expect the trace has no iteration annotations
v
expect ops: GPU time by launcher op
V
V
V
V
V
V
expect Roofline: SDPA_fwd
view roofline:GEMM
sort-by count
expect sort count
# Enter: the instances of the row in the call tree; their roofline line.
<Enter>
expect instances of aten::addmm (17)
expect 4.2 % of
save-display roofline-instance.txt
# The plot, maximized: made again for the wider pane.
focus-detail
M
search this combination
keys kkkkkkkkkkkkkkkk
save-display roofline-plot.txt
STEPS
check_screen roofline-gemm.txt
check_screen roofline-menu.txt
check_screen roofline-instance.txt
check_screen roofline-plot.txt

# ASCII glyphs and another device's peaks.
run_script roofline-ascii "$bert" --size 120x40 --ascii --arch MI300X <<'STEPS'
view roofline:GEMM
expect Roofline: GEMM (MI300X)
focus-detail
M
search this combination
keys kkkkkkkkkkkkkkkk
save-display roofline-plot-ascii.txt
STEPS
check_screen roofline-plot-ascii.txt

# A trace recorded without shapes: the view and the detail say so.
run_script roofline-noshapes "$TRACES/hta-a100-alexnet-cudasync.json.gz" --size 120x40 <<'STEPS'
r
expect record_shapes=True
view ops
expect recorded without
expect record_shapes=True
STEPS

# An op nested in a modelled op of its family: the detail names the row
# that counts it, and Enter on that line goes there.
run_script roofline-nested "$TRACES/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz" --size 160x60 <<'STEPS'
focus-tree
search aten::miopen_convolution
expect counted in the enclosing aten::convolution
STEPS

# An unknown --arch is refused before the trace is read.
if "$TORCHTOP" --arch no-such-gpu --script /dev/null "$bert" > "$tmp/arch.out" 2> "$tmp/arch.err"; then
    fail "--arch no-such-gpu was accepted"
fi
grep -q "no such device" "$tmp/arch.err" || fail "--arch no-such-gpu: $(cat "$tmp/arch.err")"
finish

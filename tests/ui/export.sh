#!/bin/sh
# Export from the explorer: the selected subtree and the visible timeline
# window, written through the file name prompt and read back with
# torchtop report; the window holds exactly what `torchtop export --window`
# selects for the same times. Also: the overwrite question, Esc, and a name
# that cannot be written.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
bert="$TRACES/tracelens-h100-bert-small-infer.json.gz"
run_script export "$bert" --size 120x40 <<'STEPS'
# The subtree of the first aten::addmm (found in the tree).
focus-tree
search ^aten::addmm$
export-subtree
expect export to: tracelens-h100-bert-small-infer-subtree-
<C-u>
type addmm.json
<Enter>
expect wrote 69 events and 4 flows (subtree of aten::addmm) to addmm.json
# A kernel stands for the op that launched it.
hot-path
expect kind           kernel
E
<C-u>
type kernel.json.gz
<Enter>
expect (subtree of aten::addmm, the launcher) to kernel.json.gz
# The window, zoomed in around the cursor, from the export menu (E in
# the other panes; in the timeline E exports the window at once).
focus-timeline
keys 0++]]]]]]]]]]
export
save-display export-menu.txt
<Down>
<Enter>
<C-u>
type window.json.gz
<Enter>
expect wrote
save-display export-window.txt
# The name is taken: keep the file, then Esc in the prompt.
E
<C-u>
type window.json.gz
<Enter>
expect file exists; overwrite? (y/n)
type n
<Enter>
expect not written: window.json.gz exists
export-window
<Esc>
expect cancelled
# A directory that does not exist.
export-window
<C-u>
type no/such/dir/w.json
<Enter>
expect export failed
STEPS
check_screen export-menu.txt
check_screen export-window.txt

# The subtree: one op, its launch and its kernel, with their flow, and the
# [memory] instants inside the op.
LC_ALL=C "$TORCHTOP" report -q -t kernels -f csv "$tmp/addmm.json" > "$tmp/addmm.txt" 2>&1 ||
    fail "report on the subtree export: $(cat "$tmp/addmm.txt")"
LC_ALL=C "$TORCHTOP" report -q -t timeline "$tmp/addmm.json" > "$tmp/addmm-h.txt" 2>&1
grep -q "^events:   67, cpu_op 2, runtime 2, driver 1, kernel 1, instant 3, metadata 58; flows 4" "$tmp/addmm-h.txt" ||
    fail "subtree export: $(grep '^events' "$tmp/addmm-h.txt")"
LC_ALL=C "$TORCHTOP" report -q -t key-averages -f json "$tmp/addmm.json" > "$tmp/addmm-k.json" 2>&1
grep -q '"Name": "aten::addmm", .*"CUDA Mem": 144384, ' "$tmp/addmm-k.json" ||
    fail "subtree export: the op's CUDA memory is not its own 144384 bytes"
[ "$(grep -c "^GEMM,aten::addmm," "$tmp/addmm.txt")" = 1 ] || fail "subtree export: not one kernel"
grep -q "cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8" "$tmp/addmm.txt" ||
    fail "subtree export: not the addmm's kernel"
cmp -s "$tmp/addmm.json" "$(cd "$tmp" && gzip -dc kernel.json.gz > kernel.json && echo "$tmp/kernel.json")" ||
    fail "the kernel's export differs from its launcher's"

# The window: the same bytes as the command line's export of that window.
window=$(sed -n 's/.*(window \([0-9.]*\)-\([0-9.]*\) ms).*/\1:\2/p' "$tmp/export-window.txt")
[ -n "$window" ] || fail "no window in the message"
LC_ALL=C "$TORCHTOP" export --chrome "$tmp/cli.json.gz" --window "$window" "$bert" > /dev/null 2>&1 ||
    fail "torchtop export --window $window failed"
gzip -dc "$tmp/window.json.gz" > "$tmp/window.json"
gzip -dc "$tmp/cli.json.gz" > "$tmp/cli.json"
cmp -s "$tmp/window.json" "$tmp/cli.json" || fail "the window export differs from torchtop export --window $window"
LC_ALL=C "$TORCHTOP" report -q -t timeline "$tmp/window.json.gz" > "$tmp/window.txt" 2>&1 ||
    fail "report on the window export: $(cat "$tmp/window.txt")"
grep -q "^events: " "$tmp/window.txt" || fail "the window export holds no events"
finish

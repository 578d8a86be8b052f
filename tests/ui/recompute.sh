#!/bin/sh
# Activation checkpointing: the ops the backward pass runs again under
# torch.utils.checkpoint's recompute_fn frame say "[recompute]" in the call
# tree; the first forward's do not.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
run_script recompute "$TRACES/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz" --size 120x36 <<'STEPS'
focus-tree
search aten::miopen_convolution
expect match
save-display recompute-forward.txt
search recompute_fn
expect match
<Right>
j
<Right>
search aten::miopen_convolution
expect [recompute]
save-display recompute-tree.txt
STEPS
check_screen recompute-forward.txt
check_screen recompute-tree.txt
finish

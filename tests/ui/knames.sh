#!/bin/sh
# Kernel names: simplified in the kernels view, the key-averages view and
# the call tree; K shows the full (demangled) names everywhere; the detail
# pane always has the full name.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
run_script knames "$TRACES/tracelens-h100-bert-small-infer.json.gz" --size 120x40 <<'STEPS'
view kernels
]
expect GEMM        cutlass::Kernel2<cut
expect kernel         void cutlass::Kernel2<cutl
save-display knames-kernels.txt
K
expect full kernel names
expect GEMM        void cutlass::Kernel
save-display knames-kernels-full.txt
K
expect simplified kernel names
focus-tree
hot-path
expect pytorch_flash::flash_fw
expect void pytorch_flash::flash_fwd_kernel<pyto
save-display knames-tree.txt
K
expect void pytorch_flash::fl
STEPS
check_screen knames-kernels.txt
check_screen knames-kernels-full.txt
check_screen knames-tree.txt
finish

#!/bin/sh
# Kernel names: simplified in the kernels view, the key-averages view and
# the call tree; K shows the full (demangled) names everywhere; the detail
# pane always has the full name; drilling into a kernel row names it.
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
# Enter on a kernel row labels the tree with the kernel, as the row shows it.
K
focus-table
<Enter>
expect instances of cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16
STEPS
check_screen knames-kernels.txt
check_screen knames-kernels-full.txt
check_screen knames-tree.txt
finish

#!/bin/sh
# Allocations made before recording began and freed during it: a shared
# snapshot frees 222 such blocks in the optimizer's step. The sites view
# names them "<allocated before recording> freed at ..." apart from the
# allocation sites, their traceback is the free's (the caching allocator's
# free under ~TensorImpl and THPVariable_dealloc), and one picked in the
# live list says where it was freed, under "Freed at", with no allocation
# stack.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
SNAPS="$SHARED/snapshots"

run_script snapfreed "$SNAPS/traces_cpp_py_frames.pickle" --size 140x42 <<'STEPS'
focus-table
view sites
M
expect <allocated before recording> freed at step (optimizer.py:71)
expect <allocated before recording> freed at wrapper (optimizer.py:526)
save-display snapfreed-sites.txt
M
search freed at step
<Enter>
expect Traceback (table): site <allocated before recor
expect THPVariable_dealloc
expect python   step  /home/brian/Desk…/optimizer.py:71
t
focus-timeline
g
focus-tree
expect live: 448 allocations
search freed at step
expect Freed at
expect no traceback recorded
save-display snapfreed-alloc.txt
STEPS
check_screen snapfreed-sites.txt
check_screen snapfreed-alloc.txt
finish

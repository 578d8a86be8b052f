#!/bin/sh
# Snapshot sites that read the same: on a shared snapshot, the optimizer's
# step at one line allocates through three ops; each row says which
# (calling ...), rows from the same line with different callers say via what.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
SNAPS="$SHARED/snapshots"

run_script snapsites "$SNAPS/traces_cpp_py_frames.pickle" --size 140x42 <<'STEPS'
focus-table
view sites
M
expect step (optimizer.py:78) calling structured_mul_out_functional::set_output_raw_strided
expect step (optimizer.py:78) calling structured_sqrt_out_functional::set_output_raw_strided
expect <allocated before recording> freed at step (optimizer.py:71)
save-display snapsites.txt
D
D
expect sites grouped by their top 2 frames
save-display snapsites-depth2.txt
STEPS
check_screen snapsites.txt
check_screen snapsites-depth2.txt
finish

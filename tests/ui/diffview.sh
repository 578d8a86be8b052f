#!/bin/sh
# A trace diff in the explorer (`torchtop diff --script`, tui/diff/diff_doc.h)
# on a generated pair (two seeds, 4 and 5 layers): every table at 140x42,
# the detail of a name and of a merged node, the filter, the help, the ops
# table and tree at 80x24; at both sizes the help, horizontal scroll to
# the last column, the search with its match counts, the sort menu, and a
# side's trace opened on top and closed again; against tests/ui/expected.
# The numbers of the ops table and the tree (each maximized) against
# `torchtop diff -f csv` (tests/ui/diffview_check.py).
. "${top_srcdir:-.}/tests/ui/lib.sh"
PY=${PYTHON3:-python3}

# run_diff NAME CONTROL TEST [OPTIONS...] < steps
run_diff() {
    name=$1
    shift
    cat > "$tmp/$name.steps"
    (cd "$tmp" && timeout 300 "$TORCHTOP" diff --script "$name.steps" "$@") \
        > "$tmp/$name.out" 2> "$tmp/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name: exit status $rc"
        cat "$tmp/$name.err"
    elif [ -s "$tmp/$name.err" ] || [ -s "$tmp/$name.out" ]; then
        fail "$name: wrote to stdout or stderr"
        cat "$tmp/$name.out" "$tmp/$name.err"
    fi
}

"$TORCHTOP" gen --events 4000 --seed 1 -o "$tmp/a.json" || exit 1
"$TORCHTOP" gen --events 4000 --seed 2 --layers 5 -o "$tmp/b.json" || exit 1

run_diff diffgen --size 140x42 a.json b.json <<'STEPS'
save-display diffgen-ops.txt
keys M
save-display diffgen-ops-max.txt
keys Mjj<Enter>
save-display diffgen-ops-detail.txt
keys <Esc>2
save-display diffgen-tree.txt
keys jjj<Enter>
save-display diffgen-tree-detail.txt
keys <Esc>*
save-display diffgen-tree-open.txt
keys M
save-display diffgen-tree-max.txt
keys Mc3
save-display diffgen-lca.txt
keys 4
save-display diffgen-unique-args.txt
keys 5
save-display diffgen-roofline.txt
keys 1f=aten::addmm<Enter><Enter>
save-display diffgen-filter-detail.txt
keys <Esc><Esc>?
save-display diffgen-help.txt
quit
STEPS
for s in ops ops-detail tree tree-detail tree-max lca unique-args roofline filter-detail help; do
    check_screen "diffgen-$s.txt"
done

run_diff diffgen80 --size 80x24 a.json b.json <<'STEPS'
save-display diffgen-80x24-ops.txt
keys <Tab>
save-display diffgen-80x24-tree.txt
STEPS
check_screen diffgen-80x24-ops.txt
check_screen diffgen-80x24-tree.txt

# The flat tables scroll sideways to their last column (] and Right), a
# "›" at the header's right edge while columns follow; s opens the sort
# menu, a digit picks a column; ? shows the keys of the focused pane
# first; / searches with "match N of M"; the sides pane (Shift-Tab from
# the ops table, j to the test) opens a side's trace on top, Backspace
# comes back. At
# 80x24 and 140x42.
for size in 80x24 140x42; do
    run_diff "diffscroll$size" --size $size a.json b.json <<STEPS
keys ?
save-display diffgen-$size-help.txt
expect diff-next
keys q]]]]]]]]]]]]]]]]
save-display diffgen-$size-ops-last.txt
keys <Left><Left><Left><Left><Left><Left><Left><Left><Left><Left><Left><Left><Left><Left><Left><Left>
save-display diffgen-$size-ops-back.txt
keys /aten::<Enter>n
save-display diffgen-$size-search.txt
expect match 2 of
keys <Esc>4<Right><Right><Right><Right><Right><Right><Right><Right><Right><Right>
save-display diffgen-$size-args-last.txt
keys s
save-display diffgen-$size-sort-menu.txt
keys 3
save-display diffgen-$size-args-sorted.txt
keys 1<S-Tab>j<Enter>
save-display diffgen-$size-side.txt
expect q or Backspace returns to the diff
keys <BS>
save-display diffgen-$size-side-back.txt
expect back from test
STEPS
    for s in help ops-last ops-back search args-last sort-menu args-sorted side side-back; do
        check_screen "diffgen-$size-$s.txt"
    done
done
grep -q "›" "$tmp/diffgen-80x24-ops-back.txt" || fail "no › on the ops table scrolled back"
grep -q "›" "$tmp/diffgen-80x24-ops-last.txt" && fail "› on the ops table at its last column"

# The screens' numbers are -f csv's.
if command -v "$PY" >/dev/null 2>&1; then
    all="-n 1000000000"
    (cd "$tmp" && "$TORCHTOP" diff $all -f csv a.json b.json > ops.csv &&
        "$TORCHTOP" diff $all -t tree -f csv a.json b.json > tree.csv &&
        "$TORCHTOP" diff $all --device gpu -f csv a.json b.json > gpu.csv) ||
        fail "diff -f csv"
    "$PY" "$top_srcdir/tests/ui/diffview_check.py" "$tmp/diffgen-ops-max.txt" \
        "$tmp/diffgen-tree-max.txt" "$tmp/ops.csv" "$tmp/tree.csv" "$tmp/gpu.csv" 140 ||
        fail "the diff view's numbers differ from diff -f csv"
elif [ "${CI:-}" = "true" ]; then
    fail "python3 is needed"
fi

# A report option with -i or --script is refused: they show the view.
(cd "$tmp" && "$TORCHTOP" diff -i -o out.txt a.json b.json) > /dev/null 2>&1
[ $? -eq 64 ] || fail "diff -i -o: exit status not 64"
# Without a terminal the report is printed, as before.
(cd "$tmp" && "$TORCHTOP" diff a.json b.json > report.txt) || fail "diff to a file"
grep -q "diff_duration" "$tmp/report.txt" || fail "diff to a file printed no report"
finish

#!/bin/sh
# A trace diff in the explorer on the shared OWL-ViT pair (H100 against
# MI300X, the same inference): the ops table, the merged tree with the
# detail of its root, aten::mm's detail with each side's shapes, kernels
# and roofline line, at 140x42 and 80x24; the numbers of the ops table
# and the tree (maximized) against `torchtop diff -f csv`.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
PY=${PYTHON3:-python3}
ln -s "$TRACES/tracelens-h100-owlv2-infer-large.json.gz" "$tmp/h100.json.gz"
ln -s "$TRACES/tracelens-mi300-owlv2-infer-large.json.gz" "$tmp/mi300.json.gz"
set -- --labels h100,mi300 h100.json.gz mi300.json.gz

cat > "$tmp/owl.steps" <<'STEPS'
save-display diffowl-ops.txt
keys M
save-display diffowl-ops-max.txt
keys M2
save-display diffowl-tree.txt
keys <Enter>
save-display diffowl-tree-detail.txt
keys <Esc>1
filter =aten::mm
keys <Enter>
save-display diffowl-mm-detail.txt
filter
keys <Esc>2*M
save-display diffowl-tree-open.txt
STEPS
printf 'save-display diffowl-80x24-ops.txt\nkeys 2<Enter>\nsave-display diffowl-80x24-tree.txt\n' \
    > "$tmp/owl80.steps"
for run in "owl 140x42" "owl80 80x24"; do
    steps=${run% *}
    (cd "$tmp" && timeout 300 "$TORCHTOP" diff --script "$steps.steps" --size "${run#* }" "$@") \
        > "$tmp/$steps.out" 2>&1 || { fail "$steps: exit status $?"; cat "$tmp/$steps.out"; }
    [ -s "$tmp/$steps.out" ] && { fail "$steps: wrote to stdout or stderr"; cat "$tmp/$steps.out"; }
done
for s in ops tree tree-detail mm-detail 80x24-ops 80x24-tree; do
    check_screen "diffowl-$s.txt"
done

# Deep rows of the merged tree (2 M g e: the tree on the whole body, all
# open; three pages down the Python stacks are 40 deep) keep their names readable: past a quarter of
# the name column the indent is the depth ("·41·"), at 100 and 80 columns.
for size in 100x30 80x24; do
    printf 'keys 2Mge<PgDn><PgDn><PgDn>\nsave-display diffowl-%s-deep.txt\n' $size \
        > "$tmp/deep$size.steps"
    (cd "$tmp" && timeout 300 "$TORCHTOP" diff --script "deep$size.steps" --size $size "$@") \
        > "$tmp/deep$size.out" 2>&1 || { fail "deep$size: exit status $?"; cat "$tmp/deep$size.out"; }
    check_screen "diffowl-$size-deep.txt"
    grep -q "·4[0-9]·  *[▾▸ ] aten::" "$tmp/diffowl-$size-deep.txt" ||
        fail "deep$size: no aten:: op readable 40 levels deep"
done

if command -v "$PY" >/dev/null 2>&1; then
    all="-n 1000000000"
    (cd "$tmp" && "$TORCHTOP" diff $all -f csv "$@" > ops.csv &&
        "$TORCHTOP" diff $all -t tree -f csv "$@" > tree.csv &&
        "$TORCHTOP" diff $all --device gpu -f csv "$@" > gpu.csv) || fail "diff -f csv"
    "$PY" "$top_srcdir/tests/ui/diffview_check.py" "$tmp/diffowl-ops-max.txt" \
        "$tmp/diffowl-tree-open.txt" "$tmp/ops.csv" "$tmp/tree.csv" "$tmp/gpu.csv" 140 ||
        fail "the diff view's numbers differ from diff -f csv"
elif [ "${CI:-}" = "true" ]; then
    fail "python3 is needed"
fi
finish

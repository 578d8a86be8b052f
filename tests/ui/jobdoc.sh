#!/bin/sh
# The job view in the one explorer (tui/job/job_doc.h), scripted, at
# 140x42 and 80x24, on a generated 4-rank job: the ranks and collectives
# tables with base names (the detail pane has the whole path), ? help from
# the key tables, horizontal scroll to the last column with its marks,
# search with match counts, the sort menu, the lanes following the
# collectives' cursor, and a rank's trace pushed on top (Enter) and popped
# (Backspace, q).
. "${top_srcdir:-.}/tests/ui/lib.sh"
"$TORCHTOP" gen --ranks 4 --straggler 3 -o "$tmp/job" >/dev/null 2>&1 || exit 1

for size in 140x42 80x24; do
    run_script "jobdoc-$size" job --size "$size" <<'STEPS'
expect torchtop job  4 ranks  8 collectives matched
expect ranks: Ranks side by side  4 rows
expect rank-3.json
expect straggler rank 3 (last in 8 of 8)
expect collectives: Collectives across ranks
expect Collective 0_0, absolute time
save-display jobdoc-open.txt
?
expect Op table
expect sort-menu
G
expect Table views (v next, V previous, in this order)
expect ranks, collectives
<Esc>
# Horizontal scroll to the last column: a mark on each side while more
# columns lie beyond.
keys ]]]]]]]]]]]]]]
expect mark
save-display jobdoc-scrolled.txt
keys [[[[[[[[[[[[[[
search rank-2
expect match 1 of 1 (row 3 of 4)
s
expect Sort by
expect 4 exp comm ms (descending)
<Esc>
sort-by rank
expect sort rank
# The lanes follow the collectives table's cursor.
focus-tree
j
expect Collective 0_1, absolute time
# Enter on a collective says where its lanes are; on a rank, opens it.
<Enter>
expect the lanes below show this collective
focus-table
g
j
<Enter>
expect rank-1.json  NVIDIA H1
expect ops: GPU time by launcher op
expect q or Backspace returns to the job
save-display jobdoc-rank.txt
<BS>
expect back from rank-1.json
expect ranks: Ranks side by side
j
<Enter>
expect rank-2.json  NVIDIA H1
q
expect back from rank-2.json
STEPS
    if [ "$size" = 140x42 ]; then
        # The table names a rank's trace by its base name, the detail pane
        # by its whole path.
        grep -q "trace  *job/rank-0.json" "$tmp/jobdoc-open.txt" || fail "$size: the detail has no whole path"
        grep -q "^ *0 rank-0.json" "$tmp/jobdoc-open.txt" || fail "$size: no base name in the table"
        grep -q "$(printf '\342\200\272')" "$tmp/jobdoc-open.txt" ||
            fail "$size: no › where the ranks table's columns continue"
        grep -q "$(printf '\342\200\271')" "$tmp/jobdoc-scrolled.txt" ||
            fail "$size: no ‹ where the scrolled columns continue to the left"
    fi
    for f in jobdoc-open jobdoc-scrolled jobdoc-rank; do
        [ -f "$tmp/$f.txt" ] && mv "$tmp/$f.txt" "$tmp/$f-$size.txt"
    done
done
# A rank read from a summary whose "source" names a FIFO: Enter says why
# it is not opened, and the view goes on (the FIFO is never opened). The
# other rank's source, relative, is found beside its summary.
mkdir -p "$tmp/sums/traces"
cp "$tmp/job/rank-0.json" "$tmp/job/rank-1.json" "$tmp/sums/traces/"
for r in 0 1; do
    (cd "$tmp/sums" && "$TORCHTOP" summarize "traces/rank-$r.json" -o "rank-$r.summary") 2>/dev/null ||
        fail "summarize rank $r"
done
mkfifo "$tmp/fifo.json"
gzip -dc "$tmp/sums/rank-0.summary" | sed "s|\"source\": \"[^\"]*\"|\"source\": \"$tmp/fifo.json\"|" |
    gzip >"$tmp/sums/rank-0.s" && mv "$tmp/sums/rank-0.s" "$tmp/sums/rank-0.summary"
run_script jobdoc-fifo "$tmp/sums" --size 140x42 <<'STEPS'
expect torchtop job  2 ranks
sort-by rank
g
<Enter>
expect is a FIFO: only a regular file is op
j
expect ranks: Ranks side by side
<Enter>
expect rank-1.json  NVIDIA H1
q
expect back from rank-1.json
STEPS
check_screen jobdoc-open-140x42.txt
check_screen jobdoc-open-80x24.txt
check_screen jobdoc-scrolled-80x24.txt
finish

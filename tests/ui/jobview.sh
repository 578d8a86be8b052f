#!/bin/sh
# The job view in a real terminal (tmux): `torchtop DIR` on a generated
# 4-rank job shows the ranks table (traces by base name, the selected
# rank's path on the last line), Tab the collectives, s the sort menu;
# Enter opens a rank's explorer, Backspace comes back, q quits with 0.
# Then at 80x24 and 140x42: ? shows the keys from the view's key table,
# ] scrolls the columns to the last one ("›" while more follow), and on
# the 8 param-dlrm ranks (skipped without ../shared) every column of the
# ranks table shows at 140x42 and can be reached at 80x24.
. "${top_srcdir:-.}/tests/ui/lib.sh"
TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
if [ -z "$TMUX_BIN" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: tmux is needed"; exit 1; }
    echo "SKIP: tmux not found"
    exit 77
fi
sock="torchtop-jobview-$$"
T() { "$TMUX_BIN" -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
limit=${TUI_WAIT:-60}
"$TORCHTOP" gen --ranks 4 --straggler 3 -o "$tmp/job" || exit 1

screen() { T capture-pane -p -t jv; }
wait_for() {
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "'$1' never showed"
    screen
    return 1
}
# The screen must not show $1.
absent() {
    if screen | grep -qF -- "$1"; then
        fail "'$1' showed"
        screen
    fi
}
# Each session gets a server of its own (see joblanes.sh).
starts=0
start() {
    T kill-server >/dev/null 2>&1
    starts=$((starts + 1))
    sock="torchtop-jobview-$$-$starts"
    size=$1
    shift
    T new-session -d -s jv -x "${size%x*}" -y "${size#*x}" -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
        "$* ; echo EXIT=\$?; sleep 60"
}

start 120x30 "'$TORCHTOP' '$tmp/job'"
wait_for "torchtop job [ranks]"
wait_for "rank-3.json"
wait_for "rank 0: $tmp/job/rank-0.json"
absent "$tmp/job/rank-3.json"
wait_for "note: slowest rank"
T send-keys -t jv Tab
wait_for "torchtop job [collectives]"
wait_for "0_0"
T send-keys -t jv s
wait_for "Sort by (Enter or 1-9 picks"
wait_for "> 10 avg wait us (descending)"
T send-keys -t jv 8
wait_for "sorted by start skew us"
T send-keys -t jv Tab j j
wait_for "rank 2: $tmp/job/rank-2.json"
T send-keys -t jv Enter
wait_for "rank-2.json  NVIDIA H100"
T send-keys -t jv BSpace
wait_for "back from $tmp/job/rank-2.json"
T send-keys -t jv q
wait_for "EXIT=0"

# ? and scrolling to the last column, at both sizes: at 140 columns the
# whole table fits (no "›"), at 80 ] reaches the last column, [ comes back.
for size in 80x24 140x42; do
    start $size "'$TORCHTOP' '$tmp/job'"
    wait_for "torchtop job [ranks]"
    T send-keys -t jv '?'
    wait_for "Job view keys (q, Esc or ? closes; j/k scroll)"
    wait_for "sort-menu"
    wait_for "] <Right> l"
    T send-keys -t jv q
    wait_for "Ranks side by side"
    if [ $size = 140x42 ]; then
        wait_for "wait %  mark"
        absent "›"
    else
        wait_for "›"
        absent "mark"
        T send-keys -t jv ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']' ']'
        wait_for "mark"
        absent "›"
        absent "rank-0.json  "
        T send-keys -t jv '[' '[' '[' '[' '[' '[' '[' '[' '[' '[' '[' '['
        wait_for "›"
        wait_for "rank-0.json  "
    fi
    T send-keys -t jv q
    wait_for "EXIT=0"
done

if [ ! -d "$TRACES" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: $TRACES is missing"; exit 1; }
    echo "SKIP (param-dlrm part): $TRACES not found"
    finish
fi
set -- "$TRACES"/param-dlrm-v100-8rank-rank[0-7].pt.trace.json
for size in 140x42 80x24; do
    start $size "'$TORCHTOP' $*"
    wait_for "torchtop job [ranks]"
    # Base names, cut at the front when the table is wider than the
    # screen; the selected rank's whole path on the last line.
    wait_for "rank7.pt.trace.json"
    absent "$TRACES/param-dlrm-v100-8rank-rank7"
    wait_for "rank 0: $TRACES/param-dlrm-v100-8rank-rank0.pt.trace.json"
    # At 140 columns every column shows; at 80 the last after ].
    if [ $size = 140x42 ]; then
        wait_for "colls  wait ms  wait %  mark"
    else
        absent "wait %"
        wait_for "›"
        T send-keys -t jv Right Right Right Right Right Right Right Right
        wait_for "wait %  mark"
    fi
    T send-keys -t jv q
    wait_for "EXIT=0"
done
finish

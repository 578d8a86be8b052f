#!/bin/sh
# The job view in a real terminal (tmux): `torchtop DIR` on a generated
# 4-rank job shows the ranks and collectives tables, Tab moves between the
# panes, s opens the sort menu; Enter on a rank opens its trace on top,
# Backspace comes back, q quits with 0.
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

T new-session -d -s jv -x 120 -y 30 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
    "'$TORCHTOP' '$tmp/job'; echo EXIT=\$?; sleep 60"
wait_for "torchtop job  4 ranks"
wait_for "rank-3.json"
wait_for "straggler rank 3"
wait_for "collectives: Collectives across ranks"
# Tab to the collectives table, s opens the sort menu, Enter picks.
T send-keys -t jv Tab s
wait_for "Sort by"
T send-keys -t jv Escape
T send-keys -t jv Tab Tab Tab j j Enter
wait_for "rank-2.json  NVIDIA H1"
T send-keys -t jv BSpace
wait_for "back from rank-2.json"
T send-keys -t jv q
wait_for "EXIT=0"
finish

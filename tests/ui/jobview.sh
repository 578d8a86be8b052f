#!/bin/sh
# The job view in a real terminal (tmux): `torchtop DIR` on a generated
# 4-rank job shows the ranks table, Tab the collectives, s sorts them;
# Enter opens a rank's explorer, Backspace comes back, q quits with 0.
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
wait_for "torchtop job [ranks]"
wait_for "$tmp/job/rank-3.json"
wait_for "note: slowest rank"
T send-keys -t jv Tab
wait_for "torchtop job [collectives]"
wait_for "0_0"
T send-keys -t jv s
wait_for "sorted by skew in start time"
T send-keys -t jv Tab j j Enter
wait_for "rank-2.json  NVIDIA H100"
T send-keys -t jv BSpace
wait_for "back from $tmp/job/rank-2.json"
T send-keys -t jv q
wait_for "EXIT=0"
finish

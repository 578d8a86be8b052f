#!/bin/sh
# A trace diff in a real terminal (tmux): `torchtop diff A B` with a
# terminal on standard output opens the explorer on a generated pair; Tab
# goes to the merged tree, Enter shows the detail, Esc comes back, f
# filters, q quits with 0. The same command into a pipe prints the report.
. "${top_srcdir:-.}/tests/ui/lib.sh"
TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
if [ -z "$TMUX_BIN" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: tmux is needed"; exit 1; }
    echo "SKIP: tmux not found"
    exit 77
fi
sock="torchtop-diffview-$$"
T() { "$TMUX_BIN" -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
limit=${TUI_WAIT:-60}
"$TORCHTOP" gen --events 4000 --seed 1 -o "$tmp/a.json" || exit 1
"$TORCHTOP" gen --events 4000 --seed 2 --layers 5 -o "$tmp/b.json" || exit 1

screen() { T capture-pane -p -t dv; }
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

T new-session -d -s dv -x 140 -y 42 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
    "cd '$tmp' && '$TORCHTOP' diff -q a.json b.json; echo EXIT=\$?; sleep 60"
wait_for "torchtop diff  [1 ops]"
wait_for "GPU change: +11.15 ms (+59.4 %)"
wait_for "test:    test  GPU 29.92 ms  ProfilerStep#9"
T send-keys -t dv Tab
wait_for "[2 tree]"
wait_for "train.py(212): <module>"
T send-keys -t dv Enter
wait_for "both sides of the selection; Esc"
T send-keys -t dv Escape 1 f a t e n : : a d d m m Enter
wait_for 'filter "aten::addmm"; F clears it'
wait_for "table 1/1"
T send-keys -t dv q
wait_for "EXIT=0"
(cd "$tmp" && "$TORCHTOP" diff a.json b.json | grep -q diff_duration) ||
    fail "diff into a pipe printed no report"
finish

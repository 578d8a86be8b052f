#!/bin/sh
# Nothing typed is lost: keys typed while the trace loads are applied in
# order once the first screen shows, and the roofline key pressed before
# the roofline is built shows "computing" and then the selected op's
# category (not the first one, not "no roofline"). On a generated trace,
# so that it runs without ../shared.
. "${top_srcdir:-.}/tests/ui/lib.sh"
"$TORCHTOP" gen --size 2M -o "$tmp/gen.json" || exit 1

# r on a non-GEMM op opens that op's category; on an op no model covers,
# the table of such ops.
run_script roofline-category "$tmp/gen.json" --size 120x30 <<'STEPS'
search ^aten::add$
r
expect roofline: Roofline: BinaryElementwise
r
<Esc>
view ops
search ^aten::_fused_adamw_$
r
expect Roofline: kernel time of ops no model covers
expect aten::_fused_adamw_
STEPS

# r while the roofline is still being built: the view says so, then shows
# the category of the op selected when r was pressed.
TORCHTOP_HOLD_ANALYSIS=1 run_script roofline-computing "$tmp/gen.json" --size 120x30 <<'STEPS'
search ^aten::add$
r
expect roofline
expect computing … (0 %)
wait-analysis
expect roofline: Roofline: BinaryElementwise
STEPS

TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
if [ -z "$TMUX_BIN" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: tmux is needed"; exit 1; }
    echo "SKIP: tmux not found (the scripted part passed)"
    finish
fi
sock="torchtop-typeahead-$$"
T() { "$TMUX_BIN" -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
bin=$(cd "$(dirname "$TORCHTOP")" && pwd)/$(basename "$TORCHTOP")
limit=${TUI_WAIT:-60}
screen() { T capture-pane -p -t "$1"; }
wait_for() {
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        screen "$1" | grep -qF -- "$2" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "$1: '$2' never showed"
    screen "$1"
    return 1
}

# --- keys typed during the load -------------------------------------------
# The trace comes through a pipe held open halfway until the keys are in,
# so that they are typed while the progress screen shows, whatever the
# machine's speed.
mkfifo "$tmp/in" "$tmp/gate" || exit 1
T new-session -d -s load -x 120 -y 40 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
    "'$bin' - < '$tmp/in'; echo EXIT=\$?; sleep 60"
(
    head -c 300000 "$tmp/gen.json"
    cat "$tmp/gate" >/dev/null
    tail -c +300001 "$tmp/gen.json"
) >"$tmp/in" &
feeder=$!
wait_for load "Ctrl-C cancels" || { : >"$tmp/gate"; finish; }
# Down three times (the fourth row, aten::_fused_adamw_: the communication
# kernels' row is the second), then the roofline of that op.
T send-keys -t load j j j r
sleep 0.3
: >"$tmp/gate"
wait "$feeder"
wait_for load "roofline: Roofline: kernel time of ops no model covers"
screen load | grep -qF "aten::_fused_adamw_" || fail "load: the roofline does not show the op selected"
T send-keys -t load q
wait_for load "EXIT=0"

# --- keys typed the moment the first screen shows ----------------------------
T new-session -d -s first -x 120 -y 40 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
    "'$bin' '$tmp/gen.json'; echo EXIT=\$?; sleep 60"
wait_for first "GPU time by launcher op"
T send-keys -t first r
wait_for first "roofline: Roofline: GEMM"
screen first | grep -qF "no roofline" && fail "first: r said there is no roofline"
T send-keys -t first q
wait_for first "EXIT=0"
finish

#!/bin/sh
# The real binary in a real terminal (tmux, 120x40, UTF-8): what a person
# sees after opening a trace, the hot path, the help, a search, a resize,
# colours on and off, other terminal types, quitting, and Ctrl-C while
# loading.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
if [ -z "$TMUX_BIN" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: tmux is needed"; exit 1; }
    echo "SKIP: tmux not found"
    exit 77
fi
sock="torchtop-ui-$$"
T() { "$TMUX_BIN" -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
bin=$(cd "$(dirname "$TORCHTOP")" && pwd)/$(basename "$TORCHTOP")
small="$TRACES/tracelens-h100-bert-small-infer.json.gz"
big="$TRACES/tracelens-h100-owlv2-infer-large.json.gz"
# Sanitizer builds are several times slower.
limit=${TUI_WAIT:-60}

# start NAME COMMAND [ENV...]: a session of its own running COMMAND; the
# shell stays so that the exit status can be read.
start() {
    name=$1
    cmd=$2
    shift 2
    envs=""
    for e in "$@"; do envs="$envs -e $e"; done
    # shellcheck disable=SC2086
    T new-session -d -s "$name" -x 120 -y 40 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 $envs \
        "$cmd; echo EXIT=\$?; sleep 60"
}

screen() { T capture-pane -p -t "$1"; }

# wait_for NAME TEXT: poll the screen until TEXT shows (the first capture
# can come before the first paint).
wait_for() {
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        if screen "$1" | grep -qF -- "$2"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    fail "$1: '$2' never showed"
    screen "$1"
    return 1
}

wait_gone() {
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        screen "$1" | grep -qF -- "$2" || return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "$1: '$2' did not go away"
    return 1
}

# --- a session as a person runs it -----------------------------------------
start main "'$bin' '$small'"
wait_for main "GPU time by launcher op" || finish
wait_for main "NVIDIA H100 80GB HBM3"
wait_for main "comp 7.9%"
wait_for main "aten::addmm"
screen main | grep -q "Detail (table)" || fail "no detail pane beside the table at 120x40"
# Colours: the focused title and the bar are coloured.
T capture-pane -p -e -t main | grep -q "$(printf '\033')\[[0-9;]*3[0-7][;m]" ||
    fail "no colours in a colour terminal"

T send-keys -t main Tab x
wait_for main "Call tree"
wait_for main "cudaLaunchKernel"
wait_for main "Detail (tree)"
screen main | grep -q "└─" || fail "no tree guides after the hot path"

T send-keys -t main '?'
wait_for main "hot-path"
wait_for main "Open the hot path"
wait_for main "Show this help"
T send-keys -t main q
wait_gone main "Open the hot path"

T send-keys -t main / l a y e r _ n o r m Enter
wait_for main "/layer_norm: match"

T resize-window -t main -x 80 -y 24
wait_for main "Detail (tree)"
sleep 0.3
wide=$(screen main | while IFS= read -r line; do
    [ "$(printf '%s' "$line" | wc -m)" -le 80 ] || echo "$line"
done)
[ -z "$wide" ] || fail "lines wider than the resized window: $wide"
screen main | head -1 | grep -q "infer.json.gz" || fail "no header after the resize"

T resize-window -t main -x 50 -y 12
wait_for main "terminal too small"
T resize-window -t main -x 120 -y 40
wait_for main "GPU time by launcher op"

T send-keys -t main q
wait_for main "EXIT=0"

# --- no colour ------------------------------------------------------------
start mono "'$bin' '$small'" NO_COLOR=1
wait_for mono "GPU time by launcher op"
if T capture-pane -p -e -t mono | grep -q "$(printf '\033')\[[0-9;]*3[0-7][;m]"; then
    fail "colours despite NO_COLOR"
fi
T capture-pane -p -e -t mono | grep -q "$(printf '\033')\[[0-9;]*7m" ||
    fail "the monochrome theme shows no reverse video"
T send-keys -t mono q
wait_for mono "EXIT=0"

# --- other terminal types --------------------------------------------------
# TERM is set in the command: tmux sets its own in a new session. vt100's
# entry has no PgDn, F3 or End: the keys tmux sends for them still arrive
# whole, and a sequence curses does not know is not taken for Esc and keys.
start vt "TERM=vt100 '$bin' '$small'"
wait_for vt "GPU time by launcher op"
T send-keys -t vt NPage
wait_for vt "table 10/10"
T send-keys -t vt F3
wait_for vt "tree 1/3"
T send-keys -t vt End
wait_for vt "tree 3/3"
T send-keys -t vt C-Right
wait_for vt "Esc [1;5C: a key this terminal type (TERM) does not describe"
screen vt | grep -q "sort direct ms" || fail "vt100: a key sequence re-sorted the table"
T send-keys -t vt Home
wait_for vt "tree 1/3"
T send-keys -t vt x
wait_for vt "cudaLaunchKernel"
T send-keys -t vt C-c
wait_for vt "EXIT=0"
# vt100 has no alternate screen: the last frame is cleared on the way out.
screen vt | grep -qF "GPU time by launcher op" && fail "vt100: the last frame stayed after quit"
# A terminal that cannot move the cursor is refused, as an unknown one is.
start dumb "TERM=dumb '$bin' '$small'"
wait_for dumb "cannot move the cursor"
wait_for dumb "EXIT=1"
# The Linux console's entry names Shift-Tab in an extended capability.
# (In sanitizer builds libgpm's own leak is suppressed: tests/ui/lsan.supp.)
start linux "TERM=linux '$bin' '$small'" ASAN_OPTIONS=fast_unwind_on_malloc=0 \
    "LSAN_OPTIONS=suppressions=$(cd "${top_srcdir:-.}/tests/ui" && pwd)/lsan.supp"
wait_for linux "GPU time by launcher op"
T send-keys -t linux BTab
wait_for linux "detail line 1/"
T send-keys -t linux q
wait_for linux "EXIT=0"
screen linux | grep -qF "GPU time by launcher op" && fail "linux: the last frame stayed after quit"

# --- rows made between keys: everything below the main thread of the
# largest trace opens in bounded steps, and the count comes without a key.
start rows "'$bin' '$big'"
wait_for rows "GPU time by launcher op" || finish
T send-keys -t rows Tab e
wait_for rows "104085 rows"
T send-keys -t rows G
wait_for rows "tree 104085/104085"
T send-keys -t rows q
wait_for rows "EXIT=0"

# --- Ctrl-C while loading a large trace ------------------------------------
start load "'$bin' '$big'"
i=0
seen=""
while [ $i -lt $((limit * 20)) ]; do
    s=$(screen load)
    case $s in
    *"Ctrl-C cancels"*) seen=progress; break ;;
    *"GPU time by launcher op"*) seen=ui; break ;;
    esac
    sleep 0.05
    i=$((i + 1))
done
case $seen in
progress)
    screen load | grep -q "events" || fail "the progress screen shows no event count"
    T send-keys -t load C-c
    wait_for load "EXIT="
    if screen load | grep -q "loading cancelled"; then
        screen load | grep -q "EXIT=1" || fail "a cancelled load should exit 1"
    else
        # The key came just after the load finished: it quit the explorer.
        echo "note: the load finished before Ctrl-C arrived"
        screen load | grep -q "EXIT=0" || fail "Ctrl-C in the explorer should quit with 0"
    fi
    ;;
ui)
    echo "note: the trace loaded before the progress screen could be seen"
    T send-keys -t load q
    wait_for load "EXIT=0"
    ;;
*)
    fail "neither the progress screen nor the explorer showed"
    ;;
esac
finish

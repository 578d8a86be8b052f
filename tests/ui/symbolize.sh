#!/bin/sh
# A raw native frame of a memory snapshot resolved through the symbolizer:
# the test builds a small program with DWARF, which prints where two of its
# frames are as module addresses (what TORCH_SYMBOLIZE_MODE=dladdr writes),
# and crafts a snapshot pickle with Python's pickle module whose allocation
# has those frames, a frame in a library that is not there, and Python
# frames. The traceback shows them resolved (the script waits for the
# answers), and Enter shows the program's source at the frame's line.
. "${top_srcdir:-.}/tests/ui/lib.sh"
: "${PYTHON3:=python3}"
CC=${CC:-cc}
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
# Only the compiler named by CC, without the build's flags (sanitizers).
set -- $CC
cc_bin=$1
if ! command -v "$cc_bin" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: no C compiler ($CC)"; exit 1; }
    echo "SKIP: no C compiler ($CC)"
    exit 77
fi

cat > "$tmp/prog.c" <<'EOF'
/* Prints the module addresses of two frames, as dladdr mode records them:
 * the function and the caller's return address - 1, minus the load bias. */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>

static uintptr_t bias;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    bias = info->dlpi_addr;
    return 1;
}

__attribute__((noinline)) static void leaf(void) { printf("%#lx %#lx\n", (unsigned long)((uintptr_t)&leaf - bias), (unsigned long)((uintptr_t)__builtin_return_address(0) - 1 - bias)); }

int main(void)
{
    dl_iterate_phdr(first_object, NULL);
    leaf();
    return 0;
}
EOF
# The source file is named "./prog.c" in the DWARF, whatever $tmp is.
if ! (cd "$tmp" && "$cc_bin" -g -O0 -fdebug-prefix-map="$tmp"=. -o prog prog.c) ||
    ! offsets=$("$tmp/prog"); then
    fail "cannot build and run the test program with $cc_bin"
    finish
fi

cat > "$tmp/model.py" <<'EOF'
import torch


def forward(x):
    return torch.empty(1 << 20, device="cuda")
EOF

# shellcheck disable=SC2086
"$PYTHON3" - "$tmp/prog" $offsets "$tmp/native.pickle" <<'EOF'
import pickle
import sys

prog, leaf, caller, out = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16), sys.argv[4]


def frame(name, filename, line):
    return {"name": name, "filename": filename, "line": line}


frames = [
    frame("??", prog, leaf),
    frame("??", prog, caller),
    frame("??", "/nonexistent/lib/libgone.so", 0x1234),
    frame("forward", "model.py", 5),
    frame("<module>", "train.py", 12),
]
addr, size = 0x7F0000000000, 2 << 20
block = {"address": addr, "size": size, "requested_size": 1 << 20,
         "state": "active_allocated", "frames": frames}
segment = {"device": 0, "address": addr, "total_size": size, "allocated_size": size,
           "active_size": size, "requested_size": 1 << 20, "stream": 0,
           "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False,
           "frames": [], "blocks": [block]}
trace = [
    {"action": "segment_alloc", "addr": addr, "size": size, "stream": 0,
     "time_us": 1000000, "frames": []},
    {"action": "alloc", "addr": addr, "size": 1 << 20, "stream": 0,
     "time_us": 1000250, "frames": frames},
]
snapshot = {"segments": [segment], "device_traces": [trace],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": ""},
            "external_annotations": []}
with open(out, "wb") as f:
    pickle.dump(snapshot, f, protocol=4)
EOF
[ -s "$tmp/native.pickle" ] || { fail "the test pickle was not written"; finish; }

run_script sym "$tmp/native.pickle" --size 100x30 <<'STEPS'
focus-tree
expect 1.0 MB
t
M
save-display sym-frames.txt
expect leaf
<Enter>
save-display sym-source.txt
<BS>
j
j
<Enter>
expect could not be resolved
j
<Enter>
expect Source: model.py:5
STEPS
check_screen sym-frames.txt
check_screen sym-source.txt

# The same in a real terminal: the key loop takes the answers in while no
# key is pressed (the row turns from "resolving" into the function).
TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
if [ -z "$TMUX_BIN" ]; then
    [ "${CI:-}" = "true" ] && fail "tmux is needed"
    echo "note: tmux not found; the terminal session was skipped"
    finish
fi
sock="torchtop-sym-$$"
T() { "$TMUX_BIN" -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
T new-session -d -s sym -x 120 -y 40 -c "$tmp" -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
    "'$TORCHTOP' native.pickle; echo EXIT=\$?; sleep 60"
limit=${TUI_WAIT:-60}
wait_for() {
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        T capture-pane -p -t sym | grep -qF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "'$1' never showed in the terminal"
    T capture-pane -p -t sym
    return 1
}
wait_for "Memory over time" &&
    T send-keys -t sym F3 t &&
    wait_for "leaf  ././prog.c:16" &&
    wait_for "main  ././prog.c:21" &&
    T send-keys -t sym q &&
    wait_for "EXIT=0"
finish

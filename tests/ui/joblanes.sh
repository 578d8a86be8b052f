#!/bin/sh
# The job view's timeline in a real terminal (tmux, 140x42): on the
# collectives table, the selected collective's lanes per rank. A generated
# 4-rank job's straggler (rank 3) arrives last in every collective while the
# others' waits are shaded; on the 8 param-dlrm ranks (skipped without
# ../shared) every rank's wait on screen equals `report -t collectives`'s
# rank_K_wait_time, and the rank with none is the one marked last.
. "${top_srcdir:-.}/tests/ui/lib.sh"
TMUX_BIN=${TMUX_BIN:-$(command -v tmux 2>/dev/null)}
if [ -z "$TMUX_BIN" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: tmux is needed"; exit 1; }
    echo "SKIP: tmux not found"
    exit 77
fi
sock="torchtop-joblanes-$$"
T() { "$TMUX_BIN" -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
limit=${TUI_WAIT:-60}

screen() { T capture-pane -p -t jl; }
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
# Each session gets a server of its own: a new session on the socket of a
# server that kill-server has told to exit races its exit ("server exited
# unexpectedly").
starts=0
start() {
    T kill-server >/dev/null 2>&1
    starts=$((starts + 1))
    sock="torchtop-joblanes-$$-$starts"
    T new-session -d -s jl -x 140 -y 42 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
        "$* ; echo EXIT=\$?; sleep 60"
}

# Lanes of the screen: rank -> (wait cells, wait text), straggler checks.
cat > "$tmp/lanes.py" <<'PY'
import re, sys
def lanes(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"r(\d+) (comp|coll) +", line)
        if m:
            out.setdefault(int(m.group(1)), {})[m.group(2)] = line.rstrip("\n")
    return out
def wait_us(text):
    if "arrived last" in text:
        return 0.0
    m = re.search(r"wait ([0-9.]+) (ns|µs|ms|s)\s*$", text)
    if not m:
        return None
    return float(m.group(1)) * {"ns": 1e-3, "µs": 1, "ms": 1e3, "s": 1e6}[m.group(2)]
mode, path = sys.argv[1], sys.argv[2]
L = lanes(path)
bad = []
if mode == "gen":
    if sorted(L) != [0, 1, 2, 3] or any(len(v) != 2 for v in L.values()):
        bad.append("want a comp and a coll lane for ranks 0-3, got %r" % sorted(L))
    else:
        if "arrived last" not in L[3]["coll"]:
            bad.append("rank 3 (the straggler) not marked last: " + L[3]["coll"])
        for r in (0, 1, 2):
            if "░" not in L[r]["coll"] or not (wait_us(L[r]["coll"]) or 0) > 300:
                bad.append("rank %d waits over 300 us, shaded: %s" % (r, L[r]["coll"]))
        # The straggler computes up to its late start; the others wait.
        if "░" in L[3]["coll"] or "▓" not in L[3]["coll"]:
            bad.append("rank 3 shows no wait and a collective: " + L[3]["coll"])
else:
    import csv
    rows = list(csv.DictReader(open(sys.argv[3], encoding="utf-8")))
    row = next(r for r in rows if r["collective_id"] == sys.argv[4])
    if sorted(L) != list(range(8)):
        bad.append("want lanes of ranks 0-7, got %r" % sorted(L))
    for r, v in sorted(L.items()):
        want = float(row["rank_%d_wait_time" % r])
        got = wait_us(v.get("coll", ""))
        # text_duration keeps 3 significant digits.
        if got is None or abs(got - want) > max(0.006 * want, 0.01):
            bad.append("rank %d: wait on screen %r, report says %.3f us" % (r, got, want))
        if (want == 0) != ("arrived last" in v.get("coll", "")):
            bad.append("rank %d: arrived last marked wrongly (wait %.3f)" % (r, want))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

"$TORCHTOP" gen --ranks 4 --straggler 3 -o "$tmp/job" || exit 1
start "'$TORCHTOP' '$tmp/job'"
wait_for "torchtop job "
T send-keys -t jl Tab
wait_for "absolute time"
for step in 1 2 3; do
    screen > "$tmp/gen$step.txt"
    python3 "$tmp/lanes.py" gen "$tmp/gen$step.txt" || { fail "generated job, row $step"; cat "$tmp/gen$step.txt"; }
    T send-keys -t jl j
    sleep 0.3
done
T send-keys -t jl q
wait_for "EXIT=0"

if [ ! -d "$TRACES" ]; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: $TRACES is missing"; exit 1; }
    echo "SKIP (param-dlrm part): $TRACES not found"
    finish
fi
set -- "$TRACES"/param-dlrm-v100-8rank-rank[0-7].pt.trace.json
"$TORCHTOP" report -q -t collectives --format csv "$@" > "$tmp/colls.csv" 2>/dev/null ||
    fail "report -t collectives"
start "'$TORCHTOP' $*"
wait_for "torchtop job "
T send-keys -t jl Tab
# Opened sorted by average wait: collective 0 first.
wait_for "Collective 0, absolute time"
screen > "$tmp/dlrm0.txt"
python3 "$tmp/lanes.py" dlrm "$tmp/dlrm0.txt" "$tmp/colls.csv" 0 || { fail "dlrm collective 0"; cat "$tmp/dlrm0.txt"; }
T send-keys -t jl j j
wait_for "Collective 7, absolute time"
screen > "$tmp/dlrm7.txt"
python3 "$tmp/lanes.py" dlrm "$tmp/dlrm7.txt" "$tmp/colls.csv" 7 || { fail "dlrm collective 7"; cat "$tmp/dlrm7.txt"; }
T send-keys -t jl q
wait_for "EXIT=0"
finish

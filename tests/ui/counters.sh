#!/bin/sh
# Counter tracks in the explorer (docs/metrics.md §19.3): every ph "C"
# series of the TensorBoard plugin's gpu_metrics_expected.json is a lane
# below the stream and CPU lanes, and the timeline's detail gives each
# series' value at the cursor, which must be the value of the file's last
# C sample at or before that time.
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
trace="$TRACES/kineto-tbplugin-gpu-metrics-counters.json"
run_script counters "$trace" --size 140x42 <<'STEPS'
focus-timeline
expect At the cursor
save-display counters-detail.txt
M
expect GPU 0…iency
save-display counters-maximized.txt
STEPS
check_screen counters-detail.txt
check_screen counters-maximized.txt
if command -v python3 >/dev/null 2>&1 && [ -f "$tmp/counters-detail.txt" ]; then
    if ! python3 - "$trace" "$tmp/counters-detail.txt" <<'PY'
import json, re, sys
from decimal import Decimal
doc = json.load(open(sys.argv[1]))
screen = open(sys.argv[2], encoding="utf-8").read()
ns = lambda us: int(Decimal(str(us)) * 1000)
evs = [e for e in doc["traceEvents"] if e.get("ph") in ("X", "i", "I", "C") and "ts" in e]
start = min(ns(e["ts"]) for e in evs)
cursor = start + int(Decimal(re.search(r"cursor +([0-9.]+) ms", screen).group(1)) * 1000000)
def value_at(name, t):
    v = None
    for e in doc["traceEvents"]:
        if e.get("ph") == "C" and e["name"] == name and ns(e["ts"]) <= t:
            v = list(e["args"].values())[0]
    return v
ok = True
for name, shown in (("GPU 0 Utilization", "GPU 0 Ut…ization"),
                    ("GPU 0 Est. SM Efficiency", "GPU 0 Es…iciency")):
    lo, hi = value_at(name, cursor - 500), value_at(name, cursor + 499)
    m = re.search(re.escape(shown) + r" +(\S+)", screen)
    got = float(m.group(1)) if m else None
    print("%s at %d ns: shown %s, file %s" % (name, cursor, got, lo))
    if lo != hi:
        continue  # a sample within the displayed rounding of the cursor
    ok = ok and got is not None and abs(got - float(lo)) < 1e-6
sys.exit(0 if ok else 1)
PY
    then
        fail "a counter's value at the cursor is not the file's"
    fi
fi
finish

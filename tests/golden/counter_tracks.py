#!/usr/bin/env python3
"""Check `report -t counter-tracks` on the TensorBoard plugin's expected
output (kineto-tbplugin-gpu-metrics-counters.json, the plugin's
gpu_metrics_expected.json): its `C` events are the "GPU 0 Utilization"
and "GPU 0 Est. SM Efficiency" series the plugin wrote.

The series are worked out here from the file's C events with the
definition of docs/metrics.md §19.3 (a sample holds until the next later
one; of samples at one time the last in the file holds), independently of
torchtop: per series and per ProfilerStep (and over the whole trace), the
number of samples, and the min, time-weighted mean and max of the values
in effect, must equal torchtop's within 1e-9. The whole trace runs from
the first timed event (or sample) to the last one's end (or sample), that
last sample included."""
import argparse
import collections
import os
import subprocess
import sys
from decimal import Decimal

from checks import check, csv_tables, load_trace, summary

TRACE = "kineto-tbplugin-gpu-metrics-counters.json"


def ns(us):
    return int(Decimal(str(us)) * 1000)


def stats(points, a, b, closed):
    """points: [(ts, v)] in file order; the range [a, b), [a, b] when
    closed."""
    pts = sorted(enumerate(points), key=lambda x: (x[1][0], x[0]))
    pts = [p for _, p in pts]
    n = sum(1 for ts, _ in pts if a <= ts < b or (closed and ts == b))
    vals, wsum, dur = [], 0.0, 0
    for i, (ts, v) in enumerate(pts):
        if ts > b or (ts == b and not closed):
            break
        nxt = pts[i + 1][0] if i + 1 < len(pts) and pts[i + 1][0] < b else b
        lo = max(ts, a)
        if nxt <= lo:
            continue
        vals.append(v)
        wsum += v * (nxt - lo)
        dur += nxt - lo
    if not vals:
        return n, None, None, None
    return n, min(vals), wsum / dur, max(vals)


def close(mine, want):
    if want is None:
        return mine == ""
    return mine != "" and abs(float(mine) - want) <= 1e-9 * max(1.0, abs(want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    path = os.path.join(args.shared, "traces", TRACE)
    doc = load_trace(path)
    evs = doc["traceEvents"]
    series = collections.OrderedDict()
    for e in evs:
        if e.get("ph") != "C":
            continue
        for k, v in e.get("args", {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                series.setdefault(e["name"], []).append((ns(e["ts"]), float(v)))
    steps = [(e["name"], ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in evs
             if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")]
    timed = [e for e in evs if e.get("ph") in ("X", "i", "I", "C") and "ts" in e]
    start = min(ns(e["ts"]) for e in timed)
    end = max(ns(e["ts"]) + ns(e.get("dur", 0)) for e in timed)
    check(len(series) == 2, "the file has %d C series, 2 expected" % len(series))
    res = subprocess.run([args.torchtop, "report", "-t", "counter-tracks", "-f", "csv",
                          "--no-header", path], capture_output=True, text=True)
    if res.returncode != 0:
        check(False, "torchtop failed: %s" % res.stderr.strip())
        return summary()
    rows = {(r["series"], r["step"]): r for r in csv_tables(res.stdout, "counter_tracks")["counter_tracks"]}
    check(len(rows) == len(series) * (len(steps) + 1),
          "%d rows, %d expected" % (len(rows), len(series) * (len(steps) + 1)))
    for name, pts in series.items():
        whole = (min(start, min(p[0] for p in pts)), max(end, max(p[0] for p in pts)))
        for step, a, b in steps + [("whole trace",) + whole]:
            n, mn, mean, mx = stats(pts, a, b, step == "whole trace")
            r = rows.get((name, step))
            check(r is not None, "no row for %s, %s" % (name, step))
            if r is None:
                continue
            print("%s, %s: %d samples, min %s mean %s max %s" % (name, step, n, mn, mean, mx))
            check(int(r["samples"]) == n, "%s %s: %s samples, %d expected" % (name, step, r["samples"], n))
            for col, want in (("min", mn), ("mean", mean), ("max", mx)):
                check(close(r[col], want), "%s %s: %s %s, %r expected" % (name, step, col, r[col], want))
    return summary()


if __name__ == "__main__":
    sys.exit(main())

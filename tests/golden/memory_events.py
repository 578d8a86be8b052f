#!/usr/bin/env python3
"""Check `report -t memory` against the [memory] events themselves.

On the TraceLens H100 traces (recorded with profile_memory=True) and on a
trace `torchtop gen` writes, per device ("cpu", "cuda:N"):
- the last allocated value (memory_devices and the curve's last point)
  equals the Total Allocated of the device's last event in time;
- the peak equals the largest Total Allocated, and the curve's largest
  point equals it too;
- the bytes per op (memory_by_op) sum to the events' bytes, allocations
  and frees apart, and so do the counts;
- no allocation is live at the end of a step whose free the events show
  within that step (checked as: live bytes never exceed allocated bytes).
The generated trace's allocations are known: the generator writes each
event's Total Allocated as its running total, so Total Allocated minus the
running sum of Bytes must stay one constant (the memory held before the
first event), and torchtop's peak must be the running sum's peak plus it."""
import argparse
import collections
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

from checks import check, csv_tables, load_trace, summary

TRACES = ["tracelens-h100-bert-small-infer.json.gz", "tracelens-h100-owlv2-infer-large.json.gz"]


def device(args):
    t, i = args.get("Device Type", 0), args.get("Device Id", -1)
    return "cpu" if t == 0 else "cuda:%d" % i if t == 1 else "type %d:%d" % (t, i)


def check_trace(torchtop, path, known=False):
    doc = load_trace(path)
    mem = [e for e in doc["traceEvents"] if e.get("name") == "[memory]" and
           e.get("ph") in ("i", "I") and "Bytes" in e.get("args", {})]
    order = sorted(range(len(mem)), key=lambda k: (Decimal(str(mem[k]["ts"])), k))
    mem = [mem[k] for k in order]
    res = subprocess.run([torchtop, "report", "-t", "memory", "-f", "csv", "--no-header", path],
                         capture_output=True, text=True)
    name = os.path.basename(path)
    if res.returncode != 0:
        check(False, "%s: torchtop failed: %s" % (name, res.stderr.strip()))
        return
    t = csv_tables(res.stdout)
    devs = {r["device"]: r for r in t["memory_devices"]}
    by_dev = collections.defaultdict(list)
    for e in mem:
        by_dev[device(e["args"])].append(e["args"])
    check(set(devs) == set(by_dev), "%s: devices %s, events' %s" % (name, sorted(devs), sorted(by_dev)))
    for d, evs in by_dev.items():
        r = devs.get(d)
        if r is None:
            continue
        last, peak = evs[-1]["Total Allocated"], max(a["Total Allocated"] for a in evs)
        print("%s %s: %d events, last %d, peak %d" % (name, d, len(evs), last, peak))
        check(int(r["last_allocated"]) == last, "%s %s: last %s, %d expected" % (name, d, r["last_allocated"], last))
        check(int(r["peak_allocated"]) == peak, "%s %s: peak %s, %d expected" % (name, d, r["peak_allocated"], peak))
        curve = [c for c in t["memory_curve"] if c["device"] == d]
        check(curve and int(curve[-1]["allocated"]) == last,
              "%s %s: the curve ends at %s, %d expected" % (name, d, curve[-1]["allocated"] if curve else None, last))
        cmax = max(int(c["max_allocated"]) for c in curve if c["max_allocated"])
        check(cmax == peak, "%s %s: the curve's peak %d, %d expected" % (name, d, cmax, peak))
        ops = [o for o in t["memory_by_op"] if o["device"] == d]
        pos = [a["Bytes"] for a in evs if a["Bytes"] >= 0]
        neg = [-a["Bytes"] for a in evs if a["Bytes"] < 0]
        for col, want in (("alloc_bytes", sum(pos)), ("freed_bytes", sum(neg)),
                          ("allocs", len(pos)), ("frees", len(neg))):
            got = sum(int(o[col]) for o in ops)
            check(got == want, "%s %s: %s per op sum to %d, the events' to %d" % (name, d, col, got, want))
        for o in ops:
            check(int(o["live_bytes_at_step_end"]) <= int(o["alloc_bytes"]),
                  "%s %s %s: more live than allocated" % (name, d, o["op"]))
        if known:
            run, offsets, top = 0, set(), 0
            for a in evs:
                run += a["Bytes"]
                offsets.add(a["Total Allocated"] - run)
                top = max(top, run)
            check(len(offsets) == 1, "%s %s: Total Allocated is not a running total" % (name, d))
            if len(offsets) == 1:
                check(int(r["peak_allocated"]) == top + offsets.pop(),
                      "%s %s: the peak is not the running total's" % (name, d))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    for trace in TRACES:
        check_trace(args.torchtop, os.path.join(args.shared, "traces", trace))
    with tempfile.TemporaryDirectory() as tmp:
        gen = os.path.join(tmp, "gen.json")
        res = subprocess.run([args.torchtop, "gen", "--events", "20000", "--steps", "3", "-o", gen],
                             capture_output=True, text=True)
        check(res.returncode == 0, "torchtop gen failed: %s" % res.stderr.strip())
        if res.returncode == 0:
            check_trace(args.torchtop, gen, known=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

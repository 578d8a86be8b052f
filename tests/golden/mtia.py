#!/usr/bin/env python3
"""The shared MTIA trace (hta-mtia-rank0-stress) against HTA's output on it
in ../shared/oracle/hta-mtia-rank0-stress/ (HTA f4d0062, rounding off) and
against the trace itself (docs/metrics.md §1.7, §2, §14).

- The header names the device: MTIA, the device "MTIA 9", its events.
- The GPU timeline counts the device work HTA counts: busy time is the
  union of the `mtia_ccp_events` on a stream (HTA's kernel_time less its
  idle_time), computation is HTA's compute_time, exposed memcpy (the DMA
  transfers) its non_compute_time, total_time its kernel_time.
- The kernel table's total is the sum of HTA's kernel breakdown (every
  name's sum, the "others" rows included), over as many kernels as the
  trace has `mtia_ccp_events` on a stream; 3453 of them linked to their
  `mtia_runtime` launch.
- HTA's tables keep matching: temporal, kernel types, the top kernels HTA
  lists (HTA's run kept 10 names per type, torchtop keeps 30: the rows
  HTA has are compared), and idle time's host_wait and other.
- Idle time: HTA's kernel_wait is negative here (rows of one stream
  overlap); torchtop's parts are >= 0 and add up, per stream, to the
  stream's span less the union of its rows, computed here from the trace.

Values within 0.1 % or the rounding HTA applied (as hta_oracle.py)."""
import argparse
import math
import os
import subprocess
import sys

from checks import check, load_trace, summary
from hta_oracle import Worst, cmp_ktypes, cmp_temporal, keyed, num, oracle, report, tables

NAME = "hta-mtia-rank0-stress"


def union(iv):
    tot, cur = 0.0, None
    for s, e in sorted(iv):
        if cur is None or s > cur[1]:
            if cur:
                tot += cur[1] - cur[0]
            cur = [s, e]
        else:
            cur[1] = max(cur[1], e)
    return tot + (cur[1] - cur[0] if cur else 0)


def device_work(path):
    """The trace's mtia_ccp_events on a stream, as (stream, ts, end, linked):
    times in µs, from exact ns."""
    doc = load_trace(path)
    out = []
    for e in doc["traceEvents"]:
        a = e.get("args") or {}
        if e.get("ph") == "X" and e.get("cat") == "mtia_ccp_events" and "stream" in a:
            ts, dur = round(e["ts"] * 1000), round(e["dur"] * 1000)  # exact ns
            out.append((a["stream"], ts / 1000, (ts + dur) / 1000, "correlation" in a))
    return out


def text_header(tt, trace):
    p = subprocess.run([tt, "report", "-q", "-t", "timeline", trace], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    check(p.returncode == 0, "report exited %d" % p.returncode)
    return p.stdout.decode("utf-8").split("\n\n")[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    trace = os.path.join(a.shared, "traces", NAME + ".json.gz")
    od = os.path.join(a.shared, "oracle", NAME)
    if not os.path.exists(os.path.join(od, "hta_noround_temporal_breakdown.csv")):
        check(False, "%s: HTA oracle missing" % NAME)
        return summary()
    work = device_work(trace)
    hta_t = oracle(od, "temporal_breakdown")[0]
    hta_union = num(hta_t["kernel_time(us)"]) - num(hta_t["idle_time(us)"])
    mine_union = union([(s, e) for _, s, e, _ in work])
    # HTA sums doubles of µs: within 0.1 µs of the exact union.
    check(abs(mine_union - hta_union) < 0.1,
          "union of the stream's mtia_ccp_events %.3f µs vs HTA's kernel - idle time %.3f"
          % (mine_union, hta_union))

    # The header names the device.
    hdr = text_header(a.torchtop, trace)
    print("  header:\n    " + hdr.replace("\n", "\n    "))
    check("\nmtia:     %d MTIA events, %d linked to a launch, %d unlinked"
          % (len(work), sum(1 for w in work if w[3]), sum(1 for w in work if not w[3])) in hdr,
          "header: no 'mtia:' line with the device work counted")
    check("devices:  MTIA 9 (no deviceProperties)" in hdr, "header: the device is not named")
    check("ms of MTIA activity" in hdr and "GPU" not in hdr, "header: says GPU on an MTIA trace")
    t = tables(a.torchtop, trace, "timeline", "--no-header")
    check(t["gpu_timeline"] is not None, "no timeline")

    # The GPU timeline against HTA's temporal breakdown.
    w = Worst()
    tl = {r["type"]: num(r["time ms"]) * 1000 for r in t["gpu_timeline"]}
    for mine, theirs in [("busy_time", hta_union), ("computation_time", "compute_time(us)"),
                         ("exposed_memcpy_time", "non_compute_time(us)"),
                         ("total_time", "kernel_time(us)"), ("idle_time", "idle_time(us)")]:
        v = theirs if isinstance(theirs, float) else num(hta_t[theirs])
        w.rows += 1
        w.cmp("timeline %s (µs)" % mine, tl[mine], v, 1.0)  # the table prints ms to 3 decimals
    report(NAME, "timeline vs HTA temporal", w)

    # The kernel table's total against HTA's kernel breakdown.
    k = tables(a.torchtop, trace, "kernels")
    ks = k["kernel_summary"]
    total = sum(num(r["Kernel duration (µs)_sum"]) for r in ks)
    count = sum(int(r["Kernel duration (µs)_count"]) for r in ks)
    top = oracle(od, "kernel_breakdown_top")
    hta_total = sum(num(r["sum (us)"]) for r in top)
    w = Worst()
    w.rows = len(ks)
    w.cmp("kernel table total µs", total, hta_total, 0.01)
    check(count == len(work), "kernel table counts %d kernels, the trace has %d on a stream"
          % (count, len(work)))
    report(NAME, "kernels total vs HTA breakdown", w,
           "  (%.3f µs, HTA %.3f µs)" % (total, hta_total))

    # HTA's own tables keep matching.
    t = tables(a.torchtop, trace, "temporal")
    report(NAME, "temporal", cmp_temporal(NAME, t["hta_temporal_breakdown"], [hta_t]))
    t = tables(a.torchtop, trace, "kernel-types")
    report(NAME, "kernel-types", cmp_ktypes(NAME, t["hta_kernel_type_breakdown"],
                                            oracle(od, "kernel_type_breakdown")))
    w = Worst()
    mk = keyed(t["hta_kernel_breakdown_top"], "kernel_type", "name")
    for r in top:
        if r["name"] == "others":
            continue
        key = (r["kernel_type"], r["name"])
        check(key in mk, "top kernels: HTA's row %s missing" % (key,))
        if key not in mk:
            continue
        w.rows += 1
        for col in ["sum (us)", "max (us)", "min (us)", "stddev", "mean (us)"]:
            w.cmp("top %s %s" % (r["name"][:40], col), mk[key][col], r[col], 1e-3)
    report(NAME, "kernel-types (HTA's top rows)", w)

    # Idle time: HTA's host_wait and other; parts >= 0 adding up to the
    # stream's span less its union.
    t = tables(a.torchtop, trace, "idle-time")
    rows = t["hta_idle_time_breakdown"]
    hta_idle = keyed(oracle(od, "idle_time_breakdown"), "stream", "idle_category")
    w = Worst()
    for r in rows:
        key = (r["stream"], r["idle_category"])
        v = num(r["idle_time"])
        check(v >= 0, "idle %s: %r < 0" % (key, v))
        ratio = num(r["idle_time_ratio"])
        check(math.isnan(ratio) or 0 <= ratio <= 1, "idle %s: ratio %r" % (key, ratio))
        if key[1] != "kernel_wait" and key in hta_idle:
            w.rows += 1
            w.cmp("idle %s" % (key,), v, hta_idle[key]["idle_time"], 0.006)
    for st in sorted({s for s, _, _, _ in work}):
        iv = [(s, e) for x, s, e, _ in work if x == st]
        want = max(e for _, e in iv) - min(s for s, _ in iv) - union(iv)
        got = sum(num(r["idle_time"]) for r in rows if r["stream"] == str(st))
        check(abs(got - want) < 0.05, "stream %s: idle parts add up to %.3f, span - union %.3f"
              % (st, got, want))
        hta_kw = num(hta_idle[(str(st), "kernel_wait")]["idle_time"])
        mine_kw = num(next(r["idle_time"] for r in rows
                           if r["stream"] == str(st) and r["idle_category"] == "kernel_wait"))
        print("  stream %s: idle %.2f µs = span - union; kernel_wait %.2f (HTA %.2f, negative: "
              "overlapping rows)" % (st, got, mine_kw, hta_kw))
    report(NAME, "idle-time (host_wait, other)", w)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The op table's rows of GPU time no op row counts (docs/metrics.md §3.3),
recomputed from the trace files: on each trace, the GPU events no launch
claims (no runtime event with their correlation), communication kernels
aside, are the `(GPU work with no launching op)` row (with the
`(graph replays: ...)` row for those carrying a nonzero `graph id`); the
communication kernels are the `(communication kernels)` row; each row's
time is the union of its events; the percentages add to 100 and the
report header's busy time is the union of all GPU work."""
import argparse
import csv
import gzip
import io
import json
import re
import subprocess
import sys

GPU = {"kernel", "gpu_memcpy", "gpu_memset"}
LAUNCH = {"cuda_runtime", "cuda_driver", "hip_runtime", "hip_driver"}
COMM = re.compile(r"nccl|rccl", re.I)
failures = 0


def check(ok, msg):
    global failures
    if not ok:
        failures += 1
        print("FAIL: " + msg)


def union_ms(iv):
    total, end = 0.0, None
    for s, e in sorted(iv):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total / 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    for path in a.traces:
        op = gzip.open if path.endswith(".gz") else open
        with op(path, "rt", encoding="utf-8") as f:
            evs = json.load(f)["traceEvents"]
        corr = {e["args"]["correlation"] for e in evs
                if e.get("cat") in LAUNCH and "correlation" in e.get("args", {})}
        sets = {"no_launching_op": [], "graph_replay": [], "communication": []}
        every = []
        for e in evs:
            if e.get("cat") not in GPU or e.get("ph") != "X":
                continue
            iv = (float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)))
            every.append(iv)
            args = e.get("args", {})
            if e["cat"] == "kernel" and COMM.search(e["name"]):
                sets["communication"].append(iv)
            elif args.get("correlation") not in corr:
                sets["graph_replay" if args.get("graph id") else "no_launching_op"].append(iv)
        out = subprocess.run([a.torchtop, "report", "--no-header", "-f", "csv", "-t", "ops", path],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        rows = list(csv.DictReader(io.StringIO(out)))
        kinds = {r["row_kind"]: r for r in rows if r["row_kind"] != "op"}
        for k, iv in sets.items():
            r = kinds.get(k)
            check(bool(r) == bool(iv), "%s: row %s %s, %d events"
                  % (path, k, "present" if r else "absent", len(iv)))
            if r and iv:
                check(int(r["Count"]) == len(iv), "%s %s: count %s, expected %d"
                      % (path, k, r["Count"], len(iv)))
                got, want = float(r["total_direct_kernel_time_ms"]), union_ms(iv)
                # torchtop holds times in whole ns: up to 1 ns off per event.
                check(abs(got - want) <= 1e-6 * (len(iv) + 1), "%s %s: %.6f ms, expected %.6f"
                      % (path, k, got, want))
        total = sum(float(r["Percentage (%)"]) for r in rows)
        check(not rows or abs(total - 100) < 1e-6, "%s: percentages add to %.6f" % (path, total))
        out = subprocess.run([a.torchtop, "report", "-f", "json", "-t", "ops", path],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        busy = json.loads(out)["trace"]["gpu_busy_ms"]
        check(abs(busy - union_ms(every)) <= 1e-6 * (len(every) + 1), "%s: busy %.6f ms, union %.6f" % (path, busy, union_ms(every)))
        print("%s: %s; busy %.3f ms"
              % (path, ", ".join("%s %d events" % (k, len(v)) for k, v in sets.items()), busy))
    sys.exit(1 if failures else 0)


main()

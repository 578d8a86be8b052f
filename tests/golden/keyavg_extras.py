#!/usr/bin/env python3
"""key-averages memory and FLOPs columns on a trace recorded with every
profiler option, against sums computed here from the raw events for two
ops. Prints 'N passed, N failed'."""
import argparse
import csv
import gzip
import io
import json
import subprocess
import sys

from checks import check, load_trace, summary

ROW_CATS = {"cpu_op", "user_annotation", "cuda_runtime", "cuda_driver"}


def expected(events, op):
    spans = [e for e in events if e.get("ph") == "X" and e.get("cat") in ROW_CATS]
    mems = [e for e in events if e.get("ph") == "i" and e.get("name") == "[memory]"]
    by_thread = {}
    for s in spans:
        by_thread.setdefault((s["pid"], s["tid"]), []).append(s)
    total = {0: 0, 1: 0}
    self_ = {0: 0, 1: 0}
    for m in mems:
        inside = [s for s in by_thread.get((m["pid"], m["tid"]), [])
                  if s["ts"] <= m["ts"] < s["ts"] + s["dur"]]
        if not inside:
            continue
        dev = 1 if m["args"].get("Device Type", 0) else 0
        b = m["args"]["Bytes"]
        innermost = max(inside, key=lambda s: (s["ts"], -s["dur"]))
        if innermost["name"] == op:
            self_[dev] += b
        total[dev] += b * sum(1 for s in inside if s["name"] == op)
    flops = 0
    for s in spans:
        if s["name"] != op:
            continue
        dims = s["args"].get("Input Dims", [])
        if op == "aten::addmm":
            (m, k), (_, n) = dims[1], dims[2]
            flops += 2 * m * k * n
        elif op in ("aten::add", "aten::mul"):
            c = 1
            for d in dims[0]:
                c *= d
            flops += c
    return total, self_, flops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("trace")
    a = ap.parse_args()
    events = json.load(gzip.open(a.trace))["traceEvents"]
    out = subprocess.run([a.torchtop, "report", "-q", "--no-header", "-f", "csv", "-t", "key-averages",
                          a.trace], stdout=subprocess.PIPE, check=True).stdout.decode()
    rows = list(csv.DictReader(io.StringIO(out)))
    flops_col = next(c for c in rows[0] if c.startswith("Total") and c.endswith("FLOPs"))
    scale = {"Total FLOPs": 1, "Total KFLOPs": 1e3, "Total MFLOPs": 1e6, "Total GFLOPs": 1e9,
             "Total TFLOPs": 1e12}.get(flops_col)
    hdr = list(rows[0])
    check("CPU Mem" in hdr and "Self CUDA Mem" in hdr, "memory columns present: %s" % hdr)
    for op in ("aten::addmm", "aten::add"):
        row = next(r for r in rows if r["Name"] == op)
        total, self_, flops = expected(events, op)
        print("%s: CUDA Mem %s (python %d), Self CUDA Mem %s (python %d), CPU Mem %s (python %d), "
              "FLOPs %s x %g (python %d)" % (op, row["CUDA Mem"], total[1], row["Self CUDA Mem"], self_[1],
                                              row["CPU Mem"], total[0], row[flops_col], scale, flops))
        check(int(row["CUDA Mem"]) == total[1], "%s CUDA Mem" % op)
        check(int(row["Self CUDA Mem"]) == self_[1], "%s Self CUDA Mem" % op)
        check(int(row["CPU Mem"]) == total[0], "%s CPU Mem" % op)
        check(int(row["Self CPU Mem"]) == self_[0], "%s Self CPU Mem" % op)
        check(flops > 0 and abs(float(row[flops_col]) * scale - flops) <= 1e-6 * flops, "%s FLOPs" % op)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compare torchtop's `report -t counters` with HTA's (f4d0062)
get_cupti_counter_data_with_operators on the range-profiler trace.

../shared/oracle/hta-a100-cupti-range-profiler/ holds HTA's table: one row
per cuda_profiler_range event, time order, with its SASS counters and the
top and bottom cpu_op of the launch it pairs with. torchtop's
cupti_counters table must have the same rows in the same order, each with
the same kernel name, every counter exactly equal and the same top and
bottom operator. The per-op tables must hold the oracle's counters summed
per bottom (top) operator, and FLOPs must be the counters weighted as HTA
weighs them (2 per FMA, 1 per add or multiply)."""
import argparse
import collections
import csv
import os
import subprocess
import sys

from checks import check, csv_tables, summary

TRACE = "hta-a100-cupti-range-profiler.json.gz"
ORACLE = "hta-a100-cupti-range-profiler/hta_cupti_counters_with_operators.csv"
PREFIX = "smsp__sass_thread_inst_executed_op_"


def weight(counter):
    op = counter[len(PREFIX):].split("_")[0]
    return 2 if "fma" in op else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    path = os.path.join(args.shared, "traces", TRACE)
    res = subprocess.run([args.torchtop, "report", "-t", "counters", "-f", "csv",
                          "--no-header", "--csv-raw", path], capture_output=True, text=True)
    if res.returncode != 0:
        check(False, "torchtop failed: %s" % res.stderr.strip())
        return summary()
    t = csv_tables(res.stdout)
    mine = t.get("cupti_counters", [])
    with open(os.path.join(args.shared, "oracle", ORACLE)) as f:
        theirs = sorted(csv.DictReader(f), key=lambda r: float(r["ts"]))
    counters = [c for c in theirs[0] if c.startswith(PREFIX)] if theirs else []
    check(len(counters) == 9, "the oracle has %d SASS counters, 9 expected" % len(counters))
    check(len(mine) == len(theirs), "%d rows, HTA %d" % (len(mine), len(theirs)))
    exact = ops_equal = 0
    for k, (m, o) in enumerate(zip(mine, theirs)):
        check(m["name"] == o["name"], "row %d: kernel %.60r, HTA %.60r" % (k, m["name"], o["name"]))
        bad = [c for c in counters if m.get(c) != str(int(float(o[c])))]
        check(not bad, "row %d: counters differ: %s" % (
            k, ["%s %s vs %s" % (c, m.get(c), o[c]) for c in bad][:3]))
        exact += not bad
        same = (m["top_level_op"], m["bottom_level_op"]) == (o["top_level_op"], o["bottom_level_op"])
        check(same, "row %d: ops %s / %s, HTA %s / %s" % (
            k, m["top_level_op"], m["bottom_level_op"], o["top_level_op"], o["bottom_level_op"]))
        ops_equal += same
        flops = sum(weight(c) * int(float(o[c])) for c in counters)
        check(float(m["flops"]) == flops, "row %d: FLOPs %s, expected %d" % (k, m["flops"], flops))
    print("%d rows (HTA %d): %d with every counter equal, %d with the same top and bottom op"
          % (len(mine), len(theirs), exact, ops_equal))
    for table, col in (("cupti_counters_by_op", "bottom_level_op"),
                       ("cupti_counters_by_top_op", "top_level_op")):
        want = collections.defaultdict(collections.Counter)
        for o in theirs:
            want[o[col]]["ranges"] += 1
            for c in counters:
                want[o[col]][c] += int(float(o[c]))
        got = {r["op"]: r for r in t.get(table, [])}
        check(set(got) == set(want), "%s: ops %s, HTA's %s" % (table, sorted(got), sorted(want)))
        for op, sums in want.items():
            r = got.get(op, {})
            bad = [c for c in sums if r.get(c) != str(sums[c])]
            check(not bad, "%s: %s: sums differ in %s" % (table, op, bad[:3]))
    return summary()


if __name__ == "__main__":
    sys.exit(main())

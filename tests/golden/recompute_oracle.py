#!/usr/bin/env python3
"""Golden test: activation checkpointing's recompute marking
(`report --recompute`, docs/metrics.md §3.5) against TraceLens's report
with detect_recompute=True (oracle folders with a recompute/ subfolder).

For ops_summary, ops_unique_args and every roofline sheet of the oracle,
each oracle row is joined with torchtop's by name, its parameters
(ops_unique_args: thread, Input Dims, Input type, Input Strides, Concrete
Inputs; roofline sheets: the param: columns) and is_recompute; every
oracle row must match one torchtop row with the same count, and every
torchtop row an oracle row, so that the marking of every row agrees.
Kernel time sums within 0.1 % with --flow-links (TraceLens's linking;
convolution rows, where TraceLens leaves MIOpen's flowless memsets out,
compare there too). Prints rows matched of rows present per sheet.
Standard library only.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roofline_oracle import NOT_KEYED, SHEETS, norm_value, parse_torchtop_csv  # noqa: E402

RATE_TOL = 0.001


def fnum(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def run(tt, args, trace):
    cmd = [tt, "report", "-q", "--no-header", "-f", "csv", "--recompute", "--flow-links"] + args
    p = subprocess.run(cmd + [trace], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[:300]}")
    return p.stdout


def key_of(row, cols):
    return tuple(norm_value(row.get(c)) for c in cols)


def compare(fails, where, orows, trows, cols, count_col, tcount_col, time_col, ttime_col):
    tt = {}
    for r in trows:
        tt.setdefault(key_of(r, cols), []).append(r)
    matched = 0
    nested = 0
    done = []
    unmatched = []
    for o in orows:
        k = key_of(o, cols)
        cand = tt.pop(k, None)
        if not cand:
            unmatched.append((o, k))
            continue
        done.append(o)
        if len(cand) > 1:
            fails.append(f"{where}: {len(cand)} torchtop rows for {k[:3]}")
            continue
        t = cand[0]
        ok = True
        if int(fnum(t[tcount_col])) != int(fnum(o[count_col])):
            fails.append(f"{where}: {k[:2]} is_recompute={k[-1]}: count {t[tcount_col]} vs "
                         f"{o[count_col]}")
            ok = False
        a, b = fnum(t[ttime_col]), fnum(o[time_col])
        if abs(a - b) > max(abs(b) * RATE_TOL, 1e-3):
            fails.append(f"{where}: {k[:2]} is_recompute={k[-1]}: kernel time {a} vs {b}")
            ok = False
        matched += ok
    # An oracle row that repeats the count and kernel time of a matched row
    # of the same marking is an op nested in an op of its family, which
    # torchtop counts in the outermost only (docs/metrics.md §6.1).
    for o, k in unmatched:
        if any(m[count_col] == o[count_col] and m.get("is_recompute") == o.get("is_recompute")
               and abs(fnum(m[time_col]) - fnum(o[time_col])) <= 1e-9 * abs(fnum(o[time_col]))
               for m in done):
            nested += 1
            continue
        fails.append(f"{where}: no torchtop row for {k[:3]}... is_recompute={k[-1]}")
    for k, rs in tt.items():
        fails.append(f"{where}: torchtop row {k[:3]} is_recompute={k[-1]} is no oracle row")
    marked = sum(1 for o in orows if o.get("is_recompute") == "True")
    print(f"{where}: {matched} of {len(orows)} rows matched ({marked} recomputed)"
          + (f", {nested} nested duplicates" if nested else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    fails, folders = [], 0
    oracle = os.path.join(args.shared, "oracle")
    for name in sorted(os.listdir(oracle)):
        d = os.path.join(oracle, name, "recompute")
        if not os.path.isdir(d):
            continue
        trace = os.path.join(args.shared, "traces", name + ".json.gz")
        if not os.path.exists(trace):
            fails.append(f"{name}: trace not found")
            continue
        folders += 1

        def oracle_rows(sheet):
            with open(os.path.join(d, sheet + ".csv"), encoding="utf-8") as f:
                return list(csv.DictReader(f))

        ops = list(csv.DictReader(io.StringIO(run(args.torchtop, ["-t", "ops"], trace))))
        ops = [r for r in ops if r.get("row_kind", "op") == "op"]
        compare(fails, f"{name}/ops_summary", oracle_rows("ops_summary"), ops,
                ["name", "is_recompute"], "Count", "Count", "total_direct_kernel_time_sum",
                "total_direct_kernel_time_sum")
        ua = list(csv.DictReader(io.StringIO(run(args.torchtop, ["-t", "unique-args"], trace))))
        compare(fails, f"{name}/ops_unique_args", oracle_rows("ops_unique_args"), ua,
                ["name", "thread_name", "Input Dims", "Input type", "Input Strides",
                 "Concrete Inputs", "is_recompute"], "operation_count", "operation_count",
                "total_direct_kernel_time_sum", "total_direct_kernel_time_sum")
        tables = parse_torchtop_csv(run(args.torchtop, ["-t", "roofline"], trace))
        for sheet in SHEETS:
            p = os.path.join(d, sheet + ".csv")
            if not os.path.exists(p):
                continue
            orows = oracle_rows(sheet)
            # num_output_elems is a documented difference (§7.6): not a key.
            cols = ["name"] + [c for c in orows[0] if c.startswith("param: ")
                               and c[7:] not in NOT_KEYED] + ["is_recompute"]
            trows = tables.get(sheet, [])
            compare(fails, f"{name}/{sheet}", orows, trows, cols, "name_count", "name_count",
                    "Kernel Time (µs)_sum", "Kernel Time (µs)_sum")
    if not folders:
        fails.append("no oracle folder with a recompute/ report")
    for f in fails:
        print("FAIL:", f)
    print(f"recompute golden: {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

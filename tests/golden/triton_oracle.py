#!/usr/bin/env python3
"""Golden test: torch.compile's Triton kernels (the roofline's `triton`
sheet, docs/metrics.md §7.11) against TraceLens's Triton rows.

TraceLens writes its Triton model's values into unified_perf_summary.csv
(op category `triton`, `perf_params` the model's parameters); no sheet of
their own. For every oracle folder whose unified_perf_summary.csv has such
rows, with the folder's trace (and its capture trace for a graph replay):
- every oracle row has a torchtop `triton` row of the same name, with the
  same fused_ops, xnumel and rnumel, and the same instance count;
- GFLOPS and Data Moved (MB) exact (1e-12 relative: both are printed from
  the same integer counts); TB/s and TFLOPS/s means within 0.1 %;
- where torchtop differs on purpose (fp32 tensors at 4 bytes, which
  TraceLens's Triton model gives no size; docs/metrics.md §7.11) its
  "TraceLens Data Moved" column must equal the oracle exactly, its own
  value must differ, and its TB/s times the ratio of the two byte counts
  must equal TraceLens's within 0.1 %; both values are printed;
- no Triton op that TraceLens models is left in torchtop's no_model table
  (one it does not, with no numels recorded, is no_model in both).
Prints rows matched of rows present. Standard library only.
"""
import argparse
import ast
import csv
import io
import os
import subprocess
import sys

RATE_TOL = 0.001
EXACT_TOL = 1e-12


def fnum(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def rel(a, b):
    if b == 0:
        return abs(a)
    return abs(a - b) / abs(b)


def parse_tables(text):
    tables, name, buf = {}, None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("# "):
            if name:
                tables[name] = list(csv.DictReader(io.StringIO("".join(buf))))
            name, buf = line[2:].strip(), []
        elif name:
            buf.append(line)
    if name:
        tables[name] = list(csv.DictReader(io.StringIO("".join(buf))))
    return tables


def find_trace(shared, name):
    for ext in (".json.gz", ".json"):
        p = os.path.join(shared, "traces", name + ext)
        if os.path.exists(p):
            return p
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    fails, checked = [], 0
    oracle = os.path.join(args.shared, "oracle")
    for name in sorted(os.listdir(oracle)):
        ups = os.path.join(oracle, name, "unified_perf_summary.csv")
        if not os.path.exists(ups):
            continue
        rows = [r for r in csv.DictReader(open(ups, encoding="utf-8"))
                if r.get("op category") == "triton" and r.get("has_perf_model") == "True"]
        if not rows:
            continue
        trace = find_trace(args.shared, name)
        if not trace:
            fails.append(f"{name}: trace not found")
            continue
        arch = os.path.join(oracle, "arch-MI300X.json")
        cmd = [args.torchtop, "report", "--no-header", "--table", "roofline", "--format", "csv",
               "--arch", arch, trace]
        # A graph replay's oracle attributes replayed kernels through the
        # capture trace (TraceLens's capture merge): torchtop's --capture.
        if name.endswith("-replay"):
            cap = find_trace(args.shared, name[:-len("replay")] + "capture")
            if cap:
                cmd[-1:-1] = ["--capture", cap]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            fails.append(f"{name}: torchtop exited {res.returncode}: {res.stderr[:300]}")
            continue
        tables = parse_tables(res.stdout)
        tt = {r["name"]: r for r in tables.get("triton", [])}
        matched = 0
        for o in rows:
            label = f"{name}: {o['name']}"
            t = tt.get(o["name"])
            if t is None:
                fails.append(f"{label}: no torchtop triton row")
                continue
            pp = ast.literal_eval(o["perf_params"])
            ok = True
            for key, col in (("fused_ops", "param: fused_ops"), ("xnumel", "param: xnumel"),
                             ("rnumel", "param: rnumel")):
                tv = t.get(col)
                if str(pp.get(key)) == "" and tv == "nan":
                    # No op TraceLens knows in the name: its parameter is the
                    # empty text, which a CSV cell of torchtop's writes nan.
                    print(f"{label}: {key} empty (torchtop's CSV: nan)")
                    continue
                if str(pp.get(key)) != tv:
                    fails.append(f"{label}: {key} torchtop {t.get(col)!r} vs oracle {pp.get(key)!r}")
                    ok = False
            if int(fnum(t["name_count"])) != int(fnum(o["operation_count"])):
                fails.append(f"{label}: count {t['name_count']} vs {o['operation_count']}")
                ok = False
            differs = (t.get("Differs from TraceLens") or "").strip()
            own_mb = fnum(t["Data Moved (MB)_first"])
            tl_mb = fnum(t["TraceLens Data Moved (MB)_first"])
            scale = 1.0
            if differs:
                if own_mb == tl_mb:
                    fails.append(f"{label}: says it differs ({differs}) but its bytes equal TraceLens's")
                    ok = False
                scale = tl_mb / own_mb if own_mb else float("nan")
                print(f"{label}: differs on purpose ({differs}): torchtop {own_mb} MB, "
                      f"TraceLens {tl_mb} MB")
            for tc, oc, tol, k in (("TraceLens GFLOPS_first", "GFLOPS", EXACT_TOL, 1.0),
                                   ("TraceLens Data Moved (MB)_first", "Data Moved (MB)",
                                    EXACT_TOL, 1.0),
                                   ("TB/s_mean", "TB/s_mean", RATE_TOL, scale),
                                   ("TFLOPS/s_mean", "TFLOPS/s_mean", RATE_TOL, 1.0),
                                   ("Kernel Time (µs)_sum", "Kernel Time (µs)_sum", RATE_TOL, 1.0)):
                tv, ov = fnum(t.get(tc)) * k, fnum(o.get(oc))
                if not rel(tv, ov) <= tol:
                    fails.append(f"{label}: {tc} torchtop {tv!r} vs oracle {ov!r}")
                    ok = False
            if not differs and (own_mb != tl_mb or t["GFLOPS_first"] != t["TraceLens GFLOPS_first"]):
                fails.append(f"{label}: torchtop's own values differ from its TraceLens columns "
                             "without saying why")
                ok = False
            if ok:
                matched += 1
            checked += 1
            print(f"{label}: GFLOPS {t['GFLOPS_first']} / {o['GFLOPS']}, MB "
                  f"{t['Data Moved (MB)_first']} / {o['Data Moved (MB)']}, TB/s "
                  f"{fnum(t['TB/s_mean']):.6f} / {fnum(o['TB/s_mean']):.6f} (torchtop / TraceLens)")
        modelled = {o["name"] for o in rows}
        for r in tables.get("no_model", []):
            if r["name"] in modelled:
                fails.append(f"{name}: {r['name']} left without a model: {r.get('reason')}")
        print(f"{name}: Triton rows matched {matched} of {len(rows)}")
    if not checked:
        fails.append("no Triton row of an oracle was compared")
    for f in fails:
        print("FAIL:", f)
    print(f"triton golden: {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

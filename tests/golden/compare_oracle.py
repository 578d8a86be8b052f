#!/usr/bin/env python3
"""Compare torchtop's report tables with TraceLens's and HTA's output.

Rules (docs/metrics.md §2, §3 and §11; tolerance 0.1 % or 1 us per value):
  * timeline: torchtop's default (every GPU event) equals TraceLens's
    include_unlinked variant; --linked-only --flow-links equals TraceLens's
    default (gpu_timeline.csv); --linked-only equals TraceLens's default
    except where linking by correlation finds launches that have no ac2g
    flow start (documented below), and then equals HTA's idle time.
  * ops, categories, unique-args: same rows and counts, times within
    tolerance; with --flow-links exactly TraceLens's rows.
  * kernels: same rows (kernel names demangled with c++filt on both sides),
    counts equal, sums within tolerance.
Documented difference: on tracelens-mi300-resnet-ddp-8rank-rank0, ROCm's
hipMemsetAsync calls start no ac2g flow, so TraceLens (which links by flow)
leaves their 81 memsets unlinked; torchtop links by correlation and counts
them under aten::miopen_convolution and aten::convolution_backward. The
test prints both numbers and checks that --flow-links reproduces TraceLens.
"""
import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys

from checks import check, load_trace, summary

TRACES = [
    "hta-mi250-rocm62-minitoy",
    "hta-nccl-a100-2rank-rank0",
    "param-2080ti-resnet-train",
    "tracelens-h100-bert-small-infer",
    "tracelens-mi300-resnet-ddp-8rank-rank0",
]

# Rows where torchtop and TraceLens differ on purpose: trace -> op names.
FLOW_LINK_DIFFS = {
    "tracelens-mi300-resnet-ddp-8rank-rank0": {"aten::miopen_convolution", "aten::convolution_backward"},
}
FLOW_LINK_CATS = {
    "tracelens-mi300-resnet-ddp-8rank-rank0": {"CONV_fwd", "CONV_bwd"},
}



def close(a, b, rel=1e-3, abs_us=1e-3, unit_ms=True):
    """Within 0.1 % or 1 us (abs_us is in the value's unit)."""
    return abs(a - b) <= max(abs(b) * rel, abs_us)


def run(tt, trace, *args):
    cmd = [tt, "report", "-q", "--no-header", "-f", "csv", *args, trace]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        check(False, "%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode()[:300]))
        return []
    return list(csv.DictReader(io.StringIO(p.stdout.decode("utf-8"))))


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def demangler():
    exe = shutil.which("c++filt") or shutil.which("llvm-cxxfilt")
    cache = {}

    def dm(name):
        if not name.startswith("_Z") or not exe:
            return name
        if name not in cache:
            # Deep CUTLASS names exceed the demangler's default recursion
            # limit; torchtop demangles them, so lift the limit here too.
            args = [exe, "--no-recurse-limit"] if exe.endswith("c++filt") else [exe]
            out = subprocess.run(args, input=(name + "\n").encode(), stdout=subprocess.PIPE)
            cache[name] = out.stdout.decode().strip() or name
        return cache[name]
    return dm


def compare_timeline(tt, trace, name, oracle):
    variants = json.load(open(os.path.join(oracle, "gpu_timeline_variants.json")))
    mine_all = {r["type"]: float(r["time ms"]) for r in run(tt, trace, "-t", "timeline")}
    mine_flow = {r["type"]: float(r["time ms"]) for r in
                 run(tt, trace, "-t", "timeline", "--linked-only", "--flow-links")}
    mine_linked = {r["type"]: float(r["time ms"]) for r in run(tt, trace, "-t", "timeline", "--linked-only")}
    tl_csv = {r["type"]: float(r["time ms"]) for r in read(os.path.join(oracle, "gpu_timeline.csv"))}
    for k, v in variants["unlinked"].items():
        check(close(mine_all.get(k, -1), v), "%s timeline %s: torchtop %.6f, TraceLens include_unlinked %.6f"
              % (name, k, mine_all.get(k, -1), v))
    for k, v in tl_csv.items():
        check(close(mine_flow.get(k, -1), v), "%s timeline --flow-links %s: torchtop %.6f, TraceLens %.6f"
              % (name, k, mine_flow.get(k, -1), v))
        check(close(variants["linked"][k], v), "%s oracle files disagree on %s" % (name, k))
    if name in FLOW_LINK_DIFFS:
        hta = read(os.path.join(oracle, "hta_noround_temporal_breakdown.csv"))[0]
        idle_ms = float(hta["idle_time(us)"]) / 1e3
        print("documented: %s busy_time --linked-only torchtop %.3f ms vs TraceLens %.3f ms; "
              "idle torchtop %.4f ms = HTA %.4f ms" % (name, mine_linked["busy_time"], tl_csv["busy_time"],
                                                        mine_linked["idle_time"], idle_ms))
        check(close(mine_linked["idle_time"], idle_ms), "%s idle vs HTA" % name)
        check(mine_linked["computation_time"] > tl_csv["computation_time"] + 0.1,
              "%s: correlation links should add the memsets TraceLens leaves unlinked" % name)
    else:
        for k, v in tl_csv.items():
            check(close(mine_linked.get(k, -1), v), "%s timeline --linked-only %s: torchtop %.6f, TraceLens %.6f"
                  % (name, k, mine_linked.get(k, -1), v))


def compare_ops(tt, trace, name, oracle):
    tl = {r["name"]: r for r in read(os.path.join(oracle, "ops_summary.csv"))}
    for flow in (False, True):
        args = ["-t", "ops"] + (["--flow-links"] if flow else [])
        # TraceLens's rows: the rows of GPU work no op launched are torchtop's.
        mine = {r["name"]: r for r in run(tt, trace, *args) if r.get("row_kind", "op") == "op"}
        check(set(mine) == set(tl), "%s ops%s: names differ: %s" % (name, " --flow-links" if flow else "",
                                                                     sorted(set(mine) ^ set(tl))))
        for op, t in tl.items():
            m = mine.get(op)
            if not m:
                continue
            check(m["Count"] == t["Count"], "%s ops %s count %s vs %s" % (name, op, m["Count"], t["Count"]))
            check(m["Categories"] == t["Categories"], "%s ops %s categories %s vs %s"
                  % (name, op, m["Categories"], t["Categories"]))
            for col in ("total_direct_kernel_time_ms", "total_subtree_kernel_time_ms"):
                a, b = float(m[col]), float(t[col])
                if not flow and op in FLOW_LINK_DIFFS.get(name, ()):
                    print("documented: %s %s %s torchtop %.4f ms (correlation links) vs TraceLens %.4f ms"
                          % (name, op, col, a, b))
                    check(a > b, "%s %s should count the memsets TraceLens leaves unlinked" % (name, op))
                    continue
                check(close(a, b, abs_us=1e-3), "%s ops %s %s: torchtop %.6f, TraceLens %.6f"
                      % (name, op, col, a, b))


def compare_categories(tt, trace, name, oracle):
    tl = {r["op category"]: r for r in read(os.path.join(oracle, "ops_summary_by_category.csv"))}
    for flow in (False, True):
        mine = {r["op category"]: r for r in run(tt, trace, "-t", "categories", *(["--flow-links"] if flow else []))}
        check(set(mine) == set(tl), "%s categories differ: %s" % (name, sorted(set(mine) ^ set(tl))))
        for c, t in tl.items():
            m = mine.get(c)
            if not m:
                continue
            check(m["Count"] == t["Count"], "%s category %s count" % (name, c))
            a, b = float(m["total_direct_kernel_time_ms"]), float(t["total_direct_kernel_time_ms"])
            if not flow and c in FLOW_LINK_CATS.get(name, ()):
                print("documented: %s category %s torchtop %.4f ms vs TraceLens %.4f ms" % (name, c, a, b))
                continue
            check(close(a, b), "%s category %s: torchtop %.6f, TraceLens %.6f" % (name, c, a, b))


def compare_kernels(tt, trace, name, oracle, dm):
    def key(r):
        return (r["Parent op category"], r["Parent cpu_op"], dm(r["Kernel name"]), r["Kernel stream"])
    tl = {key(r): r for r in read(os.path.join(oracle, "kernel_summary.csv"))}
    mine = {key(r): r for r in run(tt, trace, "-t", "kernels", "--linked-only", "--flow-links")}
    check(set(mine) == set(tl), "%s kernels: rows differ: %d only in torchtop, %d only in TraceLens"
          % (name, len(set(mine) - set(tl)), len(set(tl) - set(mine))))
    for k, t in tl.items():
        m = mine.get(k)
        if not m:
            continue
        check(m["Kernel duration (µs)_count"] == t["Kernel duration (µs)_count"],
              "%s kernel %s count" % (name, k[2][:60]))
        for col in ("Kernel duration (µs)_sum", "Kernel duration (µs)_min", "Kernel duration (µs)_max",
                    "Percent of kernels time (%)", "Percent of total time (%)"):
            check(close(float(m[col]), float(t[col]), abs_us=1.0 if "µs" in col else 1e-3),
                  "%s kernel %s %s: torchtop %s, TraceLens %s" % (name, k[2][:60], col, m[col], t[col]))


def compare_unique_args(tt, trace, name, oracle):
    def key(r):
        return (r["name"], r["thread_name"], r["Input Dims"], r["Input type"], r["Input Strides"],
                r["Concrete Inputs"])
    tl = {key(r): r for r in read(os.path.join(oracle, "ops_unique_args.csv"))}
    mine = {key(r): r for r in run(tt, trace, "-t", "unique-args", "--flow-links")}
    check(set(mine) == set(tl), "%s unique args: rows differ: %s" % (name, sorted(set(mine) ^ set(tl))[:3]))
    for k, t in tl.items():
        m = mine.get(k)
        if not m:
            continue
        check(m["operation_count"] == t["operation_count"], "%s unique %s count" % (name, k[0]))
        # TraceLens's UID: the position in traceEvents, flow points included.
        check(m["ex_UID"] == t["ex_UID"], "%s unique %s ex_UID: torchtop %s, TraceLens %s"
              % (name, k[0], m["ex_UID"], t["ex_UID"]))
        for col in ("total_direct_kernel_time_sum", "total_direct_kernel_time_mean",
                    "total_direct_kernel_time_median", "total_direct_kernel_time_min",
                    "total_direct_kernel_time_max", "total_subtree_kernel_time_sum"):
            check(close(float(m[col]), float(t[col]), abs_us=1.0),
                  "%s unique %s %s: torchtop %s, TraceLens %s" % (name, k[0], col, m[col], t[col]))


# TraceLens's inference reports (generate_perf_report_pytorch_inference,
# group_by_parent_module): one row per op and parent module. torchtop's rows
# are per op (its parent_module column comes only with --capture), so the
# oracle's rows are added up per op before the comparison: counts and sums
# add, min and max of the parts, ex_UID the smallest; a median or standard
# deviation only where one oracle row makes the torchtop row.
INFERENCE_TRACES = ["tracelens-mi300-sglang-prefilldecode"]


def merged(rows, key, sums=(), mins=(), maxs=(), firsts=()):
    out = {}
    for r in rows:
        k = key(r)
        m = out.get(k)
        if m is None:
            m = out[k] = dict(r)
            m["_parts"] = 1
            continue
        m["_parts"] += 1
        for c in sums:
            m[c] = repr(float(m[c]) + float(r[c]))
        for c in mins:
            m[c] = repr(min(float(m[c]), float(r[c])))
        for c in maxs:
            m[c] = repr(max(float(m[c]), float(r[c])))
        for c in firsts:
            m[c] = str(min(int(m[c]), int(r[c])))
        if "Categories" in m:
            m["Categories"] = str(sorted(set(eval(m["Categories"])) | set(eval(r["Categories"]))))
    return out


def compare_inference(tt, trace, name, oracle):
    tl_time = {r["type"]: float(r["time ms"]) for r in read(os.path.join(oracle, "gpu_timeline.csv"))}
    mine_time = {r["type"]: float(r["time ms"]) for r in
                 run(tt, trace, "-t", "timeline", "--linked-only", "--flow-links")}
    for k, v in tl_time.items():
        check(close(mine_time.get(k, -1), v), "%s timeline %s: torchtop %.6f, TraceLens %.6f"
              % (name, k, mine_time.get(k, -1), v))

    tl = merged(read(os.path.join(oracle, "ops_summary.csv")), lambda r: r["name"],
                sums=("Count", "total_direct_kernel_time_ms", "total_subtree_kernel_time_sum"))
    for flow in (False, True):
        mine = {r["name"]: r for r in run(tt, trace, "-t", "ops", *(["--flow-links"] if flow else []))
                if r.get("row_kind", "op") == "op"}
        check(set(mine) == set(tl), "%s ops: names differ: %s" % (name, sorted(set(mine) ^ set(tl))))
        for op, t in tl.items():
            m = mine.get(op)
            if not m:
                continue
            check(int(m["Count"]) == int(float(t["Count"])), "%s ops %s count %s vs %s"
                  % (name, op, m["Count"], t["Count"]))
            check(m["Categories"] == t["Categories"], "%s ops %s categories %s vs %s"
                  % (name, op, m["Categories"], t["Categories"]))
            a, b = float(m["total_direct_kernel_time_ms"]), float(t["total_direct_kernel_time_ms"])
            check(close(a, b), "%s ops %s direct: torchtop %.6f, TraceLens %.6f" % (name, op, a, b))
            a, b = float(m["total_subtree_kernel_time_sum"]), float(t["total_subtree_kernel_time_sum"])
            check(close(a, b, abs_us=1.0), "%s ops %s subtree: torchtop %.3f, TraceLens %.3f"
                  % (name, op, a, b))

    tl = merged(read(os.path.join(oracle, "ops_summary_by_category.csv")), lambda r: r["op category"],
                sums=("Count", "total_direct_kernel_time_ms"))
    mine = {r["op category"]: r for r in run(tt, trace, "-t", "categories", "--flow-links")}
    check(set(mine) == set(tl), "%s categories differ: %s" % (name, sorted(set(mine) ^ set(tl))))
    for c, t in tl.items():
        m = mine.get(c)
        if m:
            check(int(m["Count"]) == int(float(t["Count"])), "%s category %s count" % (name, c))
            a, b = float(m["total_direct_kernel_time_ms"]), float(t["total_direct_kernel_time_ms"])
            check(close(a, b), "%s category %s: torchtop %.6f, TraceLens %.6f" % (name, c, a, b))

    def key(r):
        return (r["name"], r["Input Dims"], r["Input type"], r["Input Strides"], r["Concrete Inputs"])
    tl = merged(read(os.path.join(oracle, "ops_unique_args.csv")), key,
                sums=("operation_count", "total_direct_kernel_time_sum", "total_subtree_kernel_time_sum"),
                mins=("total_direct_kernel_time_min",), maxs=("total_direct_kernel_time_max",),
                firsts=("ex_UID",))
    mine = {key(r): r for r in run(tt, trace, "-t", "unique-args", "--flow-links")}
    check(set(mine) == set(tl), "%s unique args: rows differ: %s" % (name, sorted(set(mine) ^ set(tl))[:3]))
    for k, t in tl.items():
        m = mine.get(k)
        if not m:
            continue
        check(int(m["operation_count"]) == int(float(t["operation_count"])), "%s unique %s count" % (name, k[0]))
        check(m["op category"] == t["op category"], "%s unique %s category %s vs %s"
              % (name, k[0], m["op category"], t["op category"]))
        check(m["ex_UID"] == t["ex_UID"], "%s unique %s ex_UID: torchtop %s, TraceLens %s"
              % (name, k[0], m["ex_UID"], t["ex_UID"]))
        cols = ["total_direct_kernel_time_sum", "total_subtree_kernel_time_sum",
                "total_direct_kernel_time_min", "total_direct_kernel_time_max"]
        if t["_parts"] == 1:
            cols += ["total_direct_kernel_time_mean", "total_direct_kernel_time_median"]
            if t["total_direct_kernel_time_std"]:
                cols.append("total_direct_kernel_time_std")
        for col in cols:
            check(close(float(m[col]), float(t[col]), abs_us=1.0),
                  "%s unique %s %s: torchtop %s, TraceLens %s" % (name, k[0], col, m[col], t[col]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    dm = demangler()
    for name in TRACES:
        trace = os.path.join(a.shared, "traces", name + ".json.gz")
        oracle = os.path.join(a.shared, "oracle", name)
        compare_timeline(a.torchtop, trace, name, oracle)
        compare_ops(a.torchtop, trace, name, oracle)
        compare_categories(a.torchtop, trace, name, oracle)
        compare_kernels(a.torchtop, trace, name, oracle, dm)
        compare_unique_args(a.torchtop, trace, name, oracle)
    for name in INFERENCE_TRACES:
        compare_inference(a.torchtop, os.path.join(a.shared, "traces", name + ".json.gz"), name,
                          os.path.join(a.shared, "oracle", name))
    return summary()


if __name__ == "__main__":
    sys.exit(main())

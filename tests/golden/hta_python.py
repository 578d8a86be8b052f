#!/usr/bin/env python3
"""torchtop's HTA tables against an independent Python computation of
HTA's definitions (docs/metrics.md §14), on traces written by `torchtop
gen` (several steps, two streams, NCCL, memcpys) and, for the launch
outliers, which HTA's oracle output does not hold, on the shared traces
when ../shared is there. Values within 1e-6 relative or 2 ns: this
computation, like HTA, holds epoch timestamps in µs as doubles, about
0.5 ns apart at 4e12 µs; torchtop subtracts them in exact ns."""
import argparse
import collections
import csv
import gzip
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile

from checks import check, summary

LAUNCH = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpyAsync", "cudaMemsetAsync"}
QUEUE = LAUNCH | {"cuLaunchKernel", "cuLaunchKernelEx",
                  "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
                  "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
                  "hipMemcpyWithStream"} | {
    "urEnqueue" + n for n in ["USMFill", "USMFill2D", "USMMemcpy", "USMMemcpy2D", "KernelLaunch",
                              "KernelLaunchExp", "KernelLaunchCustomExp", "KernelLaunchWithArgsExp",
                              "CooperativeKernelLaunchExp", "MemBufferFill", "MemBufferRead",
                              "MemBufferWrite", "MemBufferCopy"]} | {
    "urUSMHostAlloc", "urUSMSharedAlloc", "urUSMDeviceAlloc"}
# HTA's GPU kernel categories (KERNEL_CATEGORY_PATTERN, re.match)
KERNEL_CAT = re.compile(r"(kernel)|(gpu_mem.+)|(mtia_ccp_events)")


def py_int(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return int(v) if math.isfinite(v) else -1
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            return -1
    return -1


def frame(path):
    """HTA's rows: (ts µs from the earliest row, dur, end, stream, corr,
    name, args), its GPU rows after the last-step filter, its CPU rows."""
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rb") as f:
        doc = json.loads(f.read())
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    rows = []
    for e in evs:
        mem = e.get("ph") == "i" and e.get("name") == "[memory]" and e.get("cat") == "cpu_instant_event"
        if e.get("ph") != "X" and not mem:
            continue
        if not e.get("cat") or e.get("cat") == "Trace":
            continue
        a = e.get("args") or {}
        c = a.get("correlation", -1)
        rows.append(dict(name=e.get("name", ""), cat=e.get("cat"), ts=e["ts"], dur=0 if mem else e.get("dur", 0),
                         stream=py_int(a.get("stream", -1)), mem=mem,
                         corr=c if isinstance(c, int) else -1, args=a))
    t0 = min(r["ts"] for r in rows)
    rows = [r for r in rows if not r["mem"]]
    for r in rows:
        r["ts"] = r["ts"] - t0
        r["end"] = r["ts"] + r["dur"]
        r["gpu"] = r["stream"] >= 0 and r["corr"] >= 0
    cpu = [r for r in rows if not r["gpu"]]
    gpu = [r for r in rows if r["gpu"]]
    steps = {r["name"] for r in rows if "ProfilerStep" in r["name"]}
    if len(steps) >= 2:
        last = max(r["ts"] for r in cpu if r["name"] in steps)
        cpu = [r for r in cpu if r["ts"] < last]
        n = collections.Counter(r["corr"] for r in cpu)
        gpu = [r for r in gpu for _ in range(n.get(r["corr"], 0))]
    allr = gpu + cpu
    g = [r for r in allr if r["stream"] != -1]
    c = [r for r in allr if r["stream"] == -1]
    launch = {}
    for r in cpu:
        if r["corr"] != -1:
            launch[r["corr"]] = r  # the last one in file order
    return g, c, launch


def ktype(n, cat):
    if cat == "cuda_sync":  # a sync event runs no kernel, whatever its name
        return "OTHER"
    if re.match(r"^nccl.*Kernel", n):
        return "COMMUNICATION"
    if re.match(r"(^Memcpy)|(^Memset)|(^dma)", n):
        return "MEMORY"
    if not re.match(r"(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)", n):
        return "COMPUTATION"
    return "OTHER"


def merge(iv):
    out = []
    for s, e in sorted(iv, key=lambda x: x[0]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def describe(xs):
    xs = sorted(x for x in xs if x == x)
    n = len(xs)
    if not n:
        return [0] + [float("nan")] * 7

    def q(p):
        pos = (n - 1) * p
        lo = int(math.floor(pos))
        hi = min(lo + 1, n - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)

    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
    return [n, m, sd, xs[0], q(.25), q(.5), q(.75), xs[-1]]


def expected(path):
    g, c, launch = frame(path)
    for r in g:
        r["kt"] = ktype(r["name"], r["cat"])
    exp = {}
    m = merge([(r["ts"], r["end"]) for r in g])
    kt = m[-1][1] - m[0][0]
    idle = kt - sum(e - s for s, e in m)
    comp = merge([(r["ts"], r["end"]) for r in g if r["kt"] == "COMPUTATION"])
    ct = sum(e - s for s, e in comp)
    exp["temporal"] = [{"idle_time(us)": idle, "compute_time(us)": ct,
                        "non_compute_time(us)": kt - ct - idle, "kernel_time(us)": kt}]
    comm = merge([(r["ts"], r["end"]) for r in g if r["kt"] == "COMMUNICATION"])
    pts = sorted([(s, 1) for s, e in comm] + [(e, -1) for s, e in comm] +
                 [(s, 2) for s, e in comp] + [(e, -2) for s, e in comp], key=lambda p: (p[0], -p[1]))
    run, ov = 0, 0.0
    for i, (t, d) in enumerate(pts[:-1]):
        run += d
        if run == 3:
            ov += pts[i + 1][0] - t
    tc = sum(e - s for s, e in comm)
    exp["overlap"] = [{"comp_comm_overlap_pctg": round(100 * ov / tc, 2) if tc else float("nan")}]
    types = ["COMPUTATION", "COMMUNICATION", "MEMORY"]
    pts = []
    for k, ty in enumerate(types):
        for s, e in merge([(r["ts"], r["end"]) for r in g if r["kt"] == ty]):
            pts += [(s, 1 << k), (e, -(1 << k))]
    pts.sort(key=lambda p: (p[0], -p[1]))
    sums, run = collections.Counter(), 0
    for i, (t, d) in enumerate(pts[:-1]):
        run += d
        if run:
            sums[" overlapping ".join(ty for k, ty in enumerate(types) if run & (1 << k))] += \
                int(pts[i + 1][0] - t)
    exp["kernel_types"] = {k: v for k, v in sums.items()}
    # idle time per stream
    idle_rows, iv_rows = {}, {}
    gk = [r for r in g if KERNEL_CAT.match(r["cat"])]  # sync events make no gaps
    for st in dict.fromkeys(r["stream"] for r in gk):
        ks = sorted((r for r in gk if r["stream"] == st), key=lambda r: r["ts"])
        cats = collections.defaultdict(list)
        cats["other"].append(float("nan"))
        # gaps from the latest end so far: a row overlapping earlier ones
        # has a gap of 0 (HTA: a negative one), docs/metrics.md 14.2
        busy_until = ks[0]["end"] if ks else 0
        for b in ks[1:]:
            gap = max(0, b["ts"] - busy_until)
            l = launch.get(b["corr"]) if b["corr"] >= 0 else None
            if l is not None and l["stream"] != -1 and l["corr"] >= 0:
                l = None
            cat = "host_wait" if l is not None and l["ts"] > busy_until else \
                "kernel_wait" if gap < 30 else "other"
            cats[cat].append(gap)
            busy_until = max(busy_until, b["end"])
        tot = sum(x for v in cats.values() for x in v if x == x)
        for cat, xs in cats.items():
            s = sum(x for x in xs if x == x)
            idle_rows[(str(st), cat)] = {"idle_time": s, "idle_time_ratio": s / tot if tot else float("nan")}
            iv_rows[(str(st), cat)] = dict(zip(["count", "mean", "std", "min", "25%", "50%", "75%", "max"],
                                               describe(xs)))
    exp["idle"], exp["intervals"] = idle_rows, iv_rows
    # launches
    corrs = {r["corr"] for r in c + g if r["name"] in LAUNCH}
    bycorr = collections.defaultdict(list)
    for r in g:
        bycorr[r["corr"]].append(r)
    lrows = []
    for r in c:
        if r["corr"] in corrs:
            for k in bycorr.get(r["corr"], []):
                lrows.append((r["corr"], r["dur"], k["dur"], max(0.0, k["ts"] - (r["ts"] + r["dur"]))))
    exp["launch"] = {col: describe([x[i] for x in lrows])
                     for i, col in enumerate(["correlation", "cpu_duration", "gpu_duration", "launch_delay"])}
    exp["outliers"] = sorted((x for x in lrows if x[1] > 50 or x[3] > 100), key=lambda x: x[0])
    # queue length
    # +1 per GPU row a listed call launched, -1 when such a row starts;
    # GPU rows no listed call launched move nothing; enqueues first at ties
    qp, fed_corrs = [], set()
    for r in c:
        if r["name"] in QUEUE and r["corr"] >= 0 and any(k["stream"] >= 0 for k in bycorr.get(r["corr"], [])):
            qp += [(r["ts"], k["stream"], 1) for k in bycorr[r["corr"]]]
            fed_corrs.add(r["corr"])
    qp += [(r["ts"], r["stream"], -1) for r in g if r["corr"] in fed_corrs]
    qp.sort(key=lambda p: (p[0], -p[2]))
    q = {}
    for st in sorted({r["stream"] for r in g}):
        vals, v, fed = [], 0, False
        for t, s, d in qp:
            if s == st:
                v += d
                vals.append(v)
                fed |= d > 0
        if fed:
            q[str(st)] = describe(vals)
    exp["queue"] = q
    # memory bandwidth
    mem = [r for r in g if r["kt"] == "MEMORY"]

    def kind(n):
        return "Memset" if n[:6] == "Memset" else n[:11] if n[:6] == "Memcpy" else "Memcpy Unknown"

    bw = [(r["ts"], kind(r["name"]), float(r["args"].get("memory bandwidth (GB/s)", 0) or 0)) for r in mem]
    bw += [(r["ts"] + r["dur"], kind(r["name"]), -float(r["args"].get("memory bandwidth (GB/s)", 0) or 0))
           for r in mem]
    bw.sort(key=lambda p: p[0])
    out = {}
    for k in sorted({p[1] for p in bw}):
        run, xs = 0.0, []
        for t, kk, b in bw:
            if kk == k:
                run += b
                if run > 0:
                    xs.append(run)
        if xs:
            out[k] = describe(xs)
    exp["membw"] = out
    return exp


def torchtop(tt, trace, table, *extra):
    p = subprocess.run([tt, "report", "-q", "--no-header", "-f", "csv", "-t", table, *extra, trace],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 0, "%s %s: exit %d %s" % (table, trace, p.returncode, p.stderr[:200]))
    text = p.stdout.decode()
    if not text.startswith("# "):
        return {"": list(csv.DictReader(io.StringIO(text)))}
    out, cur, lines = {}, None, []
    for line in text.split("\n") + ["# end"]:
        if line.startswith("# "):
            if cur:
                out[cur] = list(csv.DictReader(io.StringIO("\n".join(lines))))
            cur, lines = line[2:].strip(), []
        elif line.strip():
            lines.append(line)
    return out


def same(what, mine, want):
    a = float(mine) if mine not in ("", None) else float("nan")
    b = float(want)
    if math.isnan(a) or math.isnan(b):
        check(math.isnan(a) and math.isnan(b), "%s: %s, expected %s" % (what, mine, want))
    else:
        check(abs(a - b) <= max(1e-6 * abs(b), TOL), "%s: %s, expected %r" % (what, mine, b))


STATS = ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]
TOL = 2e-3  # µs


def compare(tt, trace, outliers_only=False):
    name = os.path.basename(trace)
    exp = expected(trace)
    t = torchtop(tt, trace, "launch-stats")
    o = t["hta_cuda_kernel_launch_outliers"]
    got = sorted((int(r["correlation"]), float(r["cpu_duration"]), float(r["gpu_duration"]),
                  float(r["launch_delay"])) for r in o)
    check(len(got) == len(exp["outliers"]), "%s outliers: %d rows, expected %d" % (name, len(got), len(exp["outliers"])))
    for a, b in zip(got, exp["outliers"]):
        check(a[0] == b[0] and all(abs(x - y) <= max(1e-6 * abs(y), TOL) for x, y in zip(a[1:], b[1:])),
              "%s outlier %s, expected %s" % (name, a, b))
    print("  %s: launch outliers %d rows" % (name, len(got)))
    if outliers_only:
        return
    for r in t["hta_cuda_kernel_launch_stats_describe"]:
        for col, vals in exp["launch"].items():
            same("%s launch %s %s" % (name, r["stat"], col), r[col], vals[STATS.index(r["stat"])])
    (r,) = torchtop(tt, trace, "temporal")[""]
    for col, v in exp["temporal"][0].items():
        same("%s temporal %s" % (name, col), r[col], v)
    (r,) = torchtop(tt, trace, "overlap")[""]
    same("%s overlap" % name, r["comp_comm_overlap_pctg"], exp["overlap"][0]["comp_comm_overlap_pctg"])
    t = torchtop(tt, trace, "kernel-types")
    got = {r["kernel_type"]: int(r["sum"]) for r in t["hta_kernel_type_breakdown"]}
    # each stretch is truncated to whole µs: a stretch whose length sits on
    # an integer may land on either side in this float computation
    check(set(got) == set(exp["kernel_types"]) and
          all(abs(got[k] - v) <= max(2, 1e-4 * v) for k, v in exp["kernel_types"].items()),
          "%s kernel types %s, expected %s" % (name, got, exp["kernel_types"]))
    t = torchtop(tt, trace, "idle-time", "--idle-intervals")
    got = {(r["stream"], r["idle_category"]): r for r in t["hta_idle_time_breakdown"]}
    check(set(got) == set(exp["idle"]), "%s idle rows %s, expected %s" % (name, sorted(got), sorted(exp["idle"])))
    for k, v in exp["idle"].items():
        if k in got:
            same("%s idle %s" % (name, k), got[k]["idle_time"], v["idle_time"])
            same("%s idle ratio %s" % (name, k), got[k]["idle_time_ratio"], v["idle_time_ratio"])
    got = {(r["stream"], r["idle_category"]): r for r in t["hta_idle_interval_stats"]}
    for k, v in exp["intervals"].items():
        for s in STATS:
            same("%s intervals %s %s" % (name, k, s), got.get(k, {}).get(s, ""), v[s])
    for table, key, want in [("queue-length", "stream", exp["queue"]), ("memory-bw", "name", exp["membw"])]:
        got = {r[key]: r for r in torchtop(tt, trace, table)[""]}
        check(set(got) == set(want), "%s %s rows %s, expected %s" % (name, table, sorted(got), sorted(want)))
        for k, vals in want.items():
            for s, v in zip(STATS, vals):
                same("%s %s %s %s" % (name, table, k, s), got.get(k, {}).get(s, ""), v)
        if table == "queue-length":
            for k, r in got.items():
                check(float(r["min"]) >= 0, "%s queue length %s: min %s < 0" % (name, k, r["min"]))
    print("  %s: temporal, overlap, kernel types (%d), idle (%d rows), launches, queue (%d streams), "
          "memory bw (%d kinds) as computed here" % (name, len(exp["kernel_types"]), len(exp["idle"]),
                                                    len(exp["queue"]), len(exp["membw"])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", default="")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        for seed, steps in [(1, 3), (7, 2), (3, 1)]:
            path = os.path.join(d, "gen-%d.json" % seed)
            p = subprocess.run([a.torchtop, "gen", "--events", "20000", "--steps", str(steps),
                                "--seed", str(seed), "-o", path])
            check(p.returncode == 0, "torchtop gen failed")
            compare(a.torchtop, path)
    if a.shared and os.path.isdir(os.path.join(a.shared, "traces")):
        for tn in ["hta-nccl-a100-2rank-rank0", "param-2080ti-resnet-train",
                   "tracelens-h100-bert-small-infer"]:
            compare(a.torchtop, os.path.join(a.shared, "traces", tn + ".json.gz"), outliers_only=True)
    else:
        print("  ../shared not found: outliers checked on generated traces only")
    return summary()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Cross-rank tables of `torchtop report TRACE...` against values computed
here, from the trace files alone, with TraceLens's NcclAnalyser definitions
(nccl_implicit_sync, its summary and straggler_summary):

  collective kernel: cat "kernel", a collective's name (nccl/rccl), with a
    correlation or an External id;
  matching: by (Process Group Name, K-th in start order) per rank, keeping
    allreduce/reducescatter/allgather/alltoall names; without any process
    group name and one stream per rank, by K alone (id "K", group "all");
  times are absolute (the file's baseTimeNanoseconds added), in µs;
  comm_latency = min dur; skew in start = max ts - min ts; wait(r) = max ts
    - ts(r); earliest arrival = the rank of the largest wait (ties: highest
    rank); skew in end = max end - min end; algo bw = size MB / 1024 /
    (latency us / 1e6); bus bw = algo bw x 2(n-1)/n (allreduce) or (n-1)/n.

Usage: job_check.py --torchtop BIN [--expect-straggler R] [--expect-mode M]
                    [--input ARG]... TRACE...
TRACE... are the traces read here; each --input gives what torchtop reads
instead (a directory, summaries), default the same files."""
import argparse
import gzip
import json
import math
import re
import statistics
import subprocess
import sys

IMPLICIT = {
    "allreduce": "allreduce", "allreduce_coalesced": "allreduce",
    "reducescatter": "reducescatter", "_reduce_scatter_base": "reducescatter",
    "reduce_scatter_tensor_coalesced": "reducescatter",
    "allgather": "allgather", "all_gather": "allgather", "_allgather_base": "allgather",
    "all_gather_into_tensor_coalesced": "allgather",
    "allgather_into_tensor_coalesced": "allgather",
    "all_to_all": "alltoall", "all_to_allv": "alltoallv",
}
DTYPE_BYTES = {"Float": 4, "Int": 4, "Long": 8, "BFloat16": 2, "Bool": 1, "Byte": 1, "Char": 1,
               "Double": 8, "Half": 2, "Short": 2}
COMM = re.compile(r"nccl|rccl|cross_device_reduce", re.I)



KERNEL_OPS = {"AllReduce": ("allreduce", True), "ReduceScatter": ("reducescatter", True),
              "AllGather": ("allgather", False), "Broadcast": ("broadcast", False),
              "Reduce": ("reduce", True), "SendRecv": ("sendrecv", False),
              "Send": ("sendrecv", False), "Recv": ("sendrecv", False),
              "AllToAll": ("all_to_all", False)}
KERNEL_TYPES = {"float": "Float", "f32": "Float", "half": "Half", "f16": "Half", "bf16": "BFloat16",
                "double": "Double", "f64": "Double", "int8": "Char", "i8": "Char", "uint8": "Byte",
                "u8": "Byte", "int32": "Int", "i32": "Int", "int64": "Long", "i64": "Long"}


def kernel_collective(kernel):
    """(name, dtype) of a NCCL kernel without a "Collective name" arg, from
    its name, as docs/metrics.md §15 says; (None, None) for other names."""
    for prefix in ("ncclKernel_", "ncclDevKernel_"):
        if kernel.startswith(prefix):
            toks = kernel[len(prefix):].split("(")[0].split("_")
            op = KERNEL_OPS.get(toks[0])
            if not op:
                return None, None
            dt = next((KERNEL_TYPES[t] for t in toks[1:] if t in KERNEL_TYPES), None) if op[1] else None
            return op[0], dt
    return None, None

def load(path):
    op = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with op(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def collectives(doc):
    out = []
    for e in doc.get("traceEvents", []):
        if e.get("cat") != "kernel" or e.get("ph") != "X" or not COMM.search(e.get("name", "")):
            continue
        a = e.get("args", {})
        if a.get("correlation") is None and a.get("External id") is None:
            continue
        out.append(e)
    return out


def rel_close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and math.isnan(a):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--expect-straggler", type=int)
    ap.add_argument("--expect-mode", choices=["order", "process_group"])
    ap.add_argument("--input", dest="inputs", action="append")
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()

    docs = [load(p) for p in args.traces]
    ranks = [d["distributedInfo"]["rank"] for d in docs]
    long = []  # (rank, event) in rank order, start order (stable)
    for r, d in sorted(zip(ranks, docs), key=lambda x: x[0]):
        # Absolute times, so that ranks line up: the file's ts are relative
        # to its baseTimeNanoseconds when it has one.
        base_us = int(d.get("baseTimeNanoseconds", 0)) / 1000
        evs = sorted(collectives(d), key=lambda e: e["ts"])
        long += [(r, dict(e, ts=base_us + float(e["ts"]))) for e in evs]
    pg_missing = all(e["args"].get("Process Group Name") in (None, "Unknown_Group")
                     for _, e in long)
    one_stream = all(len({e["args"].get("stream", e.get("tid")) for rr, e in long if rr == r}) <= 1
                     for r in ranks)
    simplified = pg_missing and one_stream
    insts = {}
    counters = {}
    for r, e in long:
        g = "all" if simplified else (e["args"].get("Process Group Name") or "Unknown_Group")
        k = counters.get((g, r), 0)
        counters[(g, r)] = k + 1
        cid = str(k) if simplified else "%s_%d" % (g, k)
        insts.setdefault(cid, {})[r] = e
    expect = {}
    for cid, parts in insts.items():
        first = parts[min(parts)]
        name = first["args"].get("Collective name")
        ctype = IMPLICIT.get(name)
        kname, kdtype = kernel_collective(first["name"]) if name is None else (None, None)
        if simplified:
            if name is not None and ctype is not None and ctype == "alltoallv":
                continue
        elif ctype not in ("allreduce", "reducescatter", "allgather", "alltoall"):
            continue
        ts = {r: float(e["ts"]) for r, e in parts.items()}
        dur = {r: float(e["dur"]) for r, e in parts.items()}
        latest = max(ts.values())
        wait = {r: latest - ts[r] for r in ts}
        row = {
            "collective_id": cid,
            "Collective name": name if name is not None else kname or "Unknown",
            "comm_latency": min(dur.values()),
            "skew in start time": latest - min(ts.values()),
            "earliest arrival rank": max((w, r) for r, w in wait.items())[1],
            "avg_wait_time": sum(wait.values()) / len(wait),
            "skew in end time": max(ts[r] + dur[r] for r in ts) - min(ts[r] + dur[r] for r in ts),
        }
        a = first["args"]
        b = DTYPE_BYTES.get(a.get("dtype"))
        if b and a.get("In msg nelems") is not None and ctype in (
                "allreduce", "reducescatter", "allgather", "alltoall"):
            full = (a["Out msg nelems"] if ctype == "allgather" else a["In msg nelems"]) * b / 1024**2
            row["Full msg size (MB)"] = full
            algo = full / 1024 / (row["comm_latency"] / 1e6)
            n = a["Group size"]
            f = 2 * (n - 1) / n if ctype == "allreduce" else (n - 1) / n
            row["algo bw (GB/s)"] = algo
            row["bus bw (GB/s)"] = algo * f
        for r in ts:
            row["rank_%d_ts" % r] = ts[r]
            row["rank_%d_dur" % r] = dur[r]
            row["rank_%d_wait_time" % r] = wait[r]
        row["_wait"] = wait
        expect[cid] = row

    inputs = args.inputs or args.traces
    out = subprocess.run([args.torchtop, "report", "-q", "-f", "json", "-t",
                          "collectives,stragglers,collectives-summary,ranks"] + inputs,
                         check=True, capture_output=True, text=True).stdout
    got = json.loads(out)
    tabs = {t["name"]: t for t in got["tables"]}
    fails = 0

    def fail(msg):
        nonlocal fails
        fails += 1
        if fails <= 20:
            print("FAIL:", msg)

    mode = "order" if simplified else "process_group"
    if got["trace"]["matching"] != mode:
        fail("matching %s, expected %s" % (got["trace"]["matching"], mode))
    if args.expect_mode and mode != args.expect_mode:
        fail("the traces match by %s, the test expects %s" % (mode, args.expect_mode))
    rows = {r["collective_id"]: r for r in tabs["collectives"]["rows"]}
    if set(rows) != set(expect):
        fail("collective ids differ: extra %s, missing %s" %
             (sorted(set(rows) - set(expect))[:5], sorted(set(expect) - set(rows))[:5]))
    worst = 0.0
    checked = 0
    for cid, want in expect.items():
        have = rows.get(cid)
        if not have:
            continue
        for k, v in want.items():
            if k.startswith("_"):
                continue
            h = have.get(k)
            if isinstance(v, str):
                if h != v:
                    fail("%s %s: %r, expected %r" % (cid, k, h, v))
                continue
            checked += 1
            if not rel_close(float(v), h if h is None else float(h)):
                fail("%s %s: %r, expected %r" % (cid, k, h, v))
            elif h is not None and v:
                worst = max(worst, abs(h - v) / max(1.0, abs(v)))

    # straggler_summary
    n = len(expect)
    srows = {r["rank"]: r for r in tabs["stragglers"]["rows"]}
    for r in sorted(set(ranks)):
        waits = [row["_wait"][r] for row in expect.values() if r in row["_wait"]]
        last = sum(1 for row in expect.values()
                   if min(sorted(row["_wait"]), key=lambda q: row["_wait"][q]) == r)
        first = sum(1 for row in expect.values() if row["earliest arrival rank"] == r)
        total_dur = sum(float(e["dur"]) for rr, e in long if rr == r)
        want = {"total_wait_time_us": sum(waits),
                "mean_wait_time_us": sum(waits) / len(waits) if waits else None,
                "times_arrived_last": last, "times_arrived_first": first,
                "pct_arrived_last": 100.0 * last / n if n else None,
                "num_collectives": n, "total_nccl_dur_us": total_dur}
        have = srows.get(r)
        if not have:
            fail("stragglers: no row for rank %d" % r)
            continue
        for k, v in want.items():
            checked += 1
            if not rel_close(v if v is None else float(v),
                             have.get(k) if have.get(k) is None else float(have.get(k))):
                fail("stragglers rank %d %s: %r, expected %r" % (r, k, have.get(k), v))
    if args.expect_straggler is not None and n:
        top = tabs["stragglers"]["rows"][0]
        if top["rank"] != args.expect_straggler or top["times_arrived_last"] != n:
            fail("the straggler is rank %s (last %s of %d times), expected rank %d every time" %
                 (top["rank"], top["times_arrived_last"], n, args.expect_straggler))

    # collectives-summary: groups by (name, dtype, In msg nelems)
    groups = {}
    for cid, row in expect.items():
        a = insts[cid][min(insts[cid])]["args"]
        dt = a.get("dtype") or (kernel_collective(insts[cid][min(insts[cid])]["name"])[1]
                                if a.get("Collective name") is None else None)
        key = (row["Collective name"], dt or "Unknown", a.get("In msg nelems"))
        groups.setdefault(key, []).append(row)
    sums = {(r["Collective name"], r["dtype"], r.get("In msg nelems")): r
            for r in tabs["collectives_summary"]["rows"]}
    if set(sums) != set(groups):
        fail("summary groups differ: %s vs %s" % (sorted(map(str, sums))[:3],
                                                   sorted(map(str, groups))[:3]))
    for key, rs in groups.items():
        have = sums.get(key)
        if not have:
            continue
        for m in ("comm_latency", "skew in start time", "skew in end time"):
            xs = [r[m] for r in rs]
            want = {"_mean": statistics.mean(xs), "_median": statistics.median(xs),
                    "_min": min(xs), "_max": max(xs),
                    "_std": statistics.stdev(xs) if len(xs) > 1 else None}
            for suf, v in want.items():
                checked += 1
                if not rel_close(v, have.get(m + suf)):
                    fail("summary %s %s%s: %r, expected %r" % (key, m, suf, have.get(m + suf), v))
        checked += 2
        if have["count"] != len(rs):
            fail("summary %s count %s, expected %d" % (key, have["count"], len(rs)))
        if not rel_close(sum(r["comm_latency"] for r in rs) / 1000, have["Total comm latency (ms)"]):
            fail("summary %s total latency" % (key,))

    # ranks: collective kernels and profiler steps per rank
    rrows = {r["rank"]: r for r in tabs["ranks"]["rows"]}
    for r, d in zip(ranks, docs):
        steps = [e for e in d["traceEvents"] if e.get("ph") == "X" and
                 str(e.get("name", "")).startswith("ProfilerStep#") and
                 e.get("cat") != "gpu_user_annotation"]
        have = rrows[r]
        checked += 2
        if have["collectives"] != len(collectives(d)):
            fail("ranks %d collectives %s, expected %d" % (r, have["collectives"],
                                                           len(collectives(d))))
        if have["steps"] != len(steps):
            fail("ranks %d steps %s, expected %d" % (r, have["steps"], len(steps)))
        if steps and not rel_close(statistics.mean(float(e["dur"]) for e in steps) / 1000,
                                   have["step_time_ms"]):
            fail("ranks %d step_time_ms %s" % (r, have["step_time_ms"]))

    print("%d collectives, %d ranks, %d values checked, worst relative difference %.3g" %
          (len(expect), len(set(ranks)), checked, worst))
    if fails:
        print("%d failures" % fails)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`torchtop export --chrome` slices: every event of the slice and nothing
else is in the written file, which torchtop loads back, with flows intact.
The expected slice is computed here from the raw events by the rules in
torchtop(1). Prints 'N passed, N failed'."""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

from checks import check, load_trace, summary

HOST = {"cpu_op", "user_annotation", "python_function", "cuda_runtime", "cuda_driver", "Trace",
        "Operator", "Runtime", "overhead"}
GPU = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}
LAUNCH = {"cuda_runtime", "cuda_driver", "Runtime"}


def ns(x):
    return round(float(x) * 1000)


def key(e):
    return (e.get("ph"), e.get("cat", ""), e.get("name", ""), str(e.get("pid")), str(e.get("tid")),
            ns(e["ts"]) if "ts" in e and e.get("ph") != "M" else None,
            ns(e.get("dur", 0)) if e.get("ph") == "X" else None)




def is_host(e):
    return e.get("ph") == "X" and (e.get("cat") in HOST or (e.get("cat") not in GPU and
                                    e.get("cat") not in ("gpu_user_annotation", "cuda_sync",
                                                         "cuda_profiler_range", "mtia_ccp_events")))


def owners(events):
    """id(instant) -> the innermost host span around it on its row (None if
    none): the span it goes with, as key-averages charges it."""
    by_row = {}
    for e in events:
        if is_host(e) or e.get("ph") in ("i", "I"):
            by_row.setdefault((str(e.get("pid")), str(e.get("tid"))), []).append(e)
    out = {}
    for evs in by_row.values():
        evs.sort(key=lambda e: (ns(e["ts"]), -ns(e.get("dur", 0)) if e.get("ph") == "X" else 0))
        stack = []
        for e in evs:
            t = ns(e["ts"])
            while stack and t >= ns(stack[-1]["ts"]) + ns(stack[-1]["dur"]):
                stack.pop()
            if e.get("ph") == "X":
                stack.append(e)
            else:
                out[id(e)] = stack[-1] if stack else None
    return out


def with_instants(events, out):
    """out plus the instants whose owner it holds."""
    have = {id(e) for e in out}
    own = owners(events)
    return out + [e for e in events if id(e) not in have and own.get(id(e)) is not None
                  and id(own[id(e)]) in have]


def gpu_of(events, launches):
    corr = {e["args"]["correlation"] for e in launches if "correlation" in e.get("args", {})}
    return [e for e in events if e.get("ph") == "X" and e.get("cat") in GPU
            and e.get("args", {}).get("correlation") in corr]


def expect_window(events, a, b):
    out = []
    rt_corr = {e["args"].get("correlation") for e in events
               if e.get("ph") == "X" and e.get("cat") in LAUNCH and "correlation" in e.get("args", {})}
    kept_launches = []
    for e in events:
        ph = e.get("ph")
        if ph == "M":
            out.append(e)
            continue
        if ph not in ("X", "i", "I", "C"):
            continue
        ts, dur = ns(e["ts"]), ns(e.get("dur", 0)) if ph == "X" else 0
        inside = ts < b and ts + dur > a if dur else a <= ts < b
        if e.get("cat") in GPU and e.get("args", {}).get("correlation") in rt_corr:
            continue  # with its launch
        if inside:
            out.append(e)
            if e.get("cat") in LAUNCH:
                kept_launches.append(e)
    return with_instants(events, out) + gpu_of(events, kept_launches)


def expect_match(events, pattern):
    rx = re.compile(pattern)
    hosts = [e for e in events if is_host(e)]
    by_row = {}
    for e in hosts:
        by_row.setdefault((str(e["pid"]), str(e["tid"])), []).append(e)
    kept = set()
    out = []
    for e in hosts:
        if not rx.search(e["name"]):
            continue
        a, b = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
        for c in by_row[(str(e["pid"]), str(e["tid"]))]:
            ca, cb = ns(c["ts"]), ns(c["ts"]) + ns(c["dur"])
            if a <= ca and cb <= b and id(c) not in kept:
                kept.add(id(c))
                out.append(c)
    out = with_instants(events, out) + [e for e in events if e.get("ph") == "M"]
    return out + gpu_of(events, [e for e in out if e.get("cat") in LAUNCH])


def run_case(tt, trace, label, args, expected_fn, tmp, gz=False, mem_ops=()):
    """mem_ops: ops whose key-averages memory the slice keeps whole."""
    out = os.path.join(tmp, "slice.json" + (".gz" if gz else ""))
    p = subprocess.run([tt, "export", "-q", "--chrome", out, *args, trace], stderr=subprocess.PIPE)
    check(p.returncode == 0, "%s: export exit %d: %s" % (label, p.returncode, p.stderr.decode()[:200]))
    if p.returncode:
        return
    orig = load_trace(trace)
    events = orig["traceEvents"]
    got_doc = load_trace(out)
    got = got_doc["traceEvents"]
    for k, v in orig.items():
        if k != "traceEvents":
            check(k in got_doc, "%s: top-level key %s kept" % (label, k))
    check(got_doc.get("baseTimeNanoseconds") == orig.get("baseTimeNanoseconds"),
          "%s: baseTimeNanoseconds exact" % label)
    want = {key(e) for e in expected_fn(events)}
    have = {key(e) for e in got if e.get("ph") not in ("s", "f", "t")}
    check(have == want, "%s: %d events written, %d expected; %d missing, %d extra" %
          (label, len(have), len(want), len(want - have), len(have - want)))
    # Flows: complete pairs whose ends bind to written events.
    flows = [e for e in got if e.get("ph") in ("s", "f", "t")]
    groups = {}
    for f in flows:
        groups.setdefault((f.get("cat"), f["id"]), []).append(f["ph"])
    orig_groups = {}
    for f in events:
        if f.get("ph") in ("s", "f", "t"):
            orig_groups.setdefault((f.get("cat"), f["id"]), []).append(f["ph"])
    for g, phs in groups.items():
        check(sorted(phs) == sorted(orig_groups.get(g, [])), "%s: flow %s has %s, originally %s" %
              (label, g, phs, orig_groups.get(g)))
    spans = [e for e in got if e.get("ph") == "X"]
    rows = {}
    for e in spans:
        rows.setdefault((str(e["pid"]), str(e["tid"])), []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
    unbound = 0
    for f in flows:
        t = ns(f["ts"])
        if not any(a <= t <= b for a, b in rows.get((str(f["pid"]), str(f["tid"])), [])):
            unbound += 1
    check(unbound == 0, "%s: %d flow points bind to no written event" % (label, unbound))
    # torchtop reads it back, with every GPU event still linked.
    p = subprocess.run([tt, "report", "-q", "-f", "json", "-t", "timeline", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    check(p.returncode == 0, "%s: reload exit %d" % (label, p.returncode))
    if p.returncode == 0:
        hdr = json.loads(p.stdout)["trace"]
        n_gpu = sum(1 for e in got if e.get("ph") == "X" and e.get("cat") in GPU)
        check(hdr["gpu_events"] == n_gpu, "%s: reloaded GPU events %d vs %d" % (label, hdr["gpu_events"], n_gpu))
        orig_unlinked = sum(1 for e in got if e.get("ph") == "X" and e.get("cat") in GPU and
                            e.get("args", {}).get("correlation") not in
                            {x["args"].get("correlation") for x in got
                             if x.get("cat") in LAUNCH and "correlation" in x.get("args", {})})
        check(hdr["unlinked_gpu_events"] == orig_unlinked, "%s: unlinked after reload" % label)
    for name in mem_ops:
        want_mem, got_mem = key_avg_mem(tt, trace, name), key_avg_mem(tt, out, name)
        check(want_mem == got_mem, "%s: %s memory (CPU, self CPU, CUDA, self CUDA) %s, originally %s" %
              (label, name, got_mem, want_mem))
    print("%s: %d events, %d flow points" % (label, len(have), len(flows)))


def key_avg_mem(tt, trace, name):
    p = subprocess.run([tt, "report", "-q", "-f", "json", "-t", "key-averages", trace],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        return None
    for r in json.loads(p.stdout)["tables"][0]["rows"]:
        if r["Name"] == name:
            return (r["CPU Mem"], r["Self CPU Mem"], r["CUDA Mem"], r["Self CUDA Mem"])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    tr = os.path.join(a.shared, "traces")
    bert = os.path.join(tr, "tracelens-h100-bert-small-infer.json.gz")
    nccl = os.path.join(tr, "hta-nccl-a100-2rank-rank0.json.gz")
    with tempfile.TemporaryDirectory() as tmp:
        ev = load_trace(nccl)["traceEvents"]
        steps = sorted((e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")),
                       key=lambda e: e["ts"])
        s = steps[1]
        a_ns, b_ns = ns(s["ts"]), ns(s["ts"]) + ns(s["dur"])
        run_case(a.torchtop, nccl, "nccl --step", ["--step", s["name"].split("#")[1]],
                 lambda evs: expect_window(evs, a_ns, b_ns), tmp, gz=True)
        timed = [e for e in ev if e.get("ph") in ("X", "i", "C") and "ts" in e]
        t0 = min(ns(e["ts"]) for e in timed)
        t1 = max(ns(e["ts"]) + ns(e.get("dur", 0)) for e in timed)
        lo_ms = round((t1 - t0) * 0.5 / 1e6, 3)
        hi_ms = round(lo_ms + (t1 - t0) * 0.02 / 1e6, 3)
        run_case(a.torchtop, nccl, "nccl --window", ["--window", "%s:%s" % (lo_ms, hi_ms)],
                 lambda evs: expect_window(evs, t0 + round(lo_ms * 1e6), t0 + round(hi_ms * 1e6)), tmp)
        run_case(a.torchtop, bert, "bert --match", ["--match", "^aten::(addmm|native_layer_norm)$"],
                 lambda evs: expect_match(evs, "^aten::(addmm|native_layer_norm)$"), tmp,
                 mem_ops=("aten::addmm", "aten::native_layer_norm"))
        # A pre-1.10 trace: ProfilerStep#N is an op, and [memory] instants
        # under spans a window overhangs go with them.
        resnet = os.path.join(tr, "kineto-v100-resnet50-pt19.pt.trace.json.gz")
        ev = load_trace(resnet)["traceEvents"]
        s = [e for e in ev if e.get("ph") == "X" and e.get("name") == "ProfilerStep#6"][0]
        a_ns, b_ns = ns(s["ts"]), ns(s["ts"]) + ns(s["dur"])
        run_case(a.torchtop, resnet, "resnet --step", ["--step", "6"],
                 lambda evs: expect_window(evs, a_ns, b_ns), tmp, mem_ops=("ProfilerStep#6",))
        mid = a_ns + (b_ns - a_ns) // 3
        t0 = min(ns(e["ts"]) for e in ev if e.get("ph") in ("X", "i", "C") and "ts" in e)
        lo_ms = round((mid - t0) / 1e6, 3)
        hi_ms = round(lo_ms + 0.2, 3)
        run_case(a.torchtop, resnet, "resnet --window", ["--window", "%s:%s" % (lo_ms, hi_ms)],
                 lambda evs: expect_window(evs, t0 + round(lo_ms * 1e6), t0 + round(hi_ms * 1e6)), tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

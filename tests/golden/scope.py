#!/usr/bin/env python3
"""Scoped reports: for each shared trace, `torchtop report SCOPE` equals
`torchtop report` on the trace `torchtop export SCOPE` writes, table for
table and cell for cell (CSV), for a step, a range of steps, the steps
after the first, a window anchored at a step, a window in milliseconds and
a match; then the same over generated traces (torchtop gen) with random
windows. A scope the trace does not have fails both the same way.
Prints 'N passed, N failed'."""
import argparse
import csv
import glob
import gzip
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile

from checks import check, load_trace, summary
from steady import check_steady

TABLES = "all,roofline,critical-path,key-averages,events"
STEP = re.compile(r"^ProfilerStep#(0|[1-9][0-9]*)$")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def steps_of(path):
    doc = load_trace(path)
    evs = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    out = set()
    for e in evs:
        if isinstance(e, dict) and e.get("ph") == "X":
            m = STEP.match(str(e.get("name", "")))
            if m:
                out.add(int(m.group(1)))
    return sorted(out)


def span_ms(tt, path):
    rc, out, _ = run([tt, "report", "-q", "-t", "timeline", "-f", "json", path])
    if rc:
        return 0.0
    return float(json.loads(out)["trace"]["span_ms"])


def compare(tt, tmp, path, scope, tables, name):
    """report SCOPE vs report of export SCOPE."""
    rc1, out1, err1 = run([tt, "report", "-q", "--no-header", "-f", "csv", "-t", tables] +
                          scope + [path])
    sliced = os.path.join(tmp, "slice.json")
    rc2, _, err2 = run([tt, "export", "-q", "--chrome", sliced] + scope + [path])
    if rc2:
        # A scope the trace does not have: report refuses it too.
        check(rc1 == 64 and err1.strip(), "%s %s: export failed (%s) but report gave %d"
              % (name, scope, err2.decode().strip(), rc1))
        return False
    rc3, out3, err3 = run([tt, "report", "-q", "--no-header", "-f", "csv", "-t", tables, sliced])
    check(rc1 == rc3, "%s %s: exit %d scoped, %d on the export (%s / %s)"
          % (name, scope, rc1, rc3, err1.decode().strip(), err3.decode().strip()))
    if out1 != out3:
        a, b = out1.decode().splitlines(), out3.decode().splitlines()
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        table = next((a[i] for i in range(min(first, len(a) - 1), -1, -1) if a[i].startswith("# ")),
                     "?")
        check(False, "%s %s: %s, line %d differs: %r vs %r" % (
            name, scope, table, first + 1, a[first] if first < len(a) else None,
            b[first] if first < len(b) else None))
    else:
        check(rc1 != 0 or len(out1) > 0, "%s %s: empty report" % (name, scope))
    return True


GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}


def check_steps_table(tt, path, name):
    rc, out, err = run([tt, "report", "-q", "-t", "steps", "-f", "json", path])
    check(rc == 0, "%s -t steps: %r" % (name, err))
    if rc:
        return
    rows = json.loads(out)["tables"][0]["rows"]
    doc = load_trace(path)
    evs = [e for e in doc["traceEvents"] if isinstance(e, dict) and e.get("ph") == "X"]
    t0 = min(float(e["ts"]) for e in doc["traceEvents"]
             if isinstance(e, dict) and "ts" in e and e.get("ph") != "M")
    win = {}
    for e in evs:
        m = STEP.match(str(e.get("name", "")))
        if m:
            n = int(m.group(1))
            a, b = float(e["ts"]), float(e["ts"]) + float(e["dur"])
            win[n] = (min(a, win.get(n, (a, b))[0]), max(b, win.get(n, (a, b))[1]))
    gpu = sorted((float(e["ts"]), float(e["ts"]) + float(e["dur"])) for e in evs
                 if e.get("cat") in GPU_CATS and float(e.get("dur", 0)) > 0)
    check(sorted(r["step"] for r in rows) == sorted(win), "%s: steps %r vs %r"
          % (name, [r["step"] for r in rows], sorted(win)))
    for r in rows:
        a, b = win.get(r["step"], (0, 0))
        check(abs(r["duration_ms"] - (b - a) / 1e3) < 1e-3, "%s step %d: duration %r vs %r"
              % (name, r["step"], r["duration_ms"], (b - a) / 1e3))
        check(abs(r["start_ms"] - (a - t0) / 1e3) < 1e-3, "%s step %d: start %r vs %r"
              % (name, r["step"], r["start_ms"], (a - t0) / 1e3))
        n = sum(1 for x, y in gpu if a <= x < b)
        check(r["gpu_events"] == n, "%s step %d: %d GPU events, %d starting in it"
              % (name, r["step"], r["gpu_events"], n))
        busy, end = 0.0, a
        for x, y in gpu:
            x, y = max(x, end), min(y, b)
            if y > x:
                busy += y - x
                end = y
        check(abs(r["gpu_busy_ms"] - busy / 1e3) < 2e-3, "%s step %d: GPU busy %r vs %r"
              % (name, r["step"], r["gpu_busy_ms"], busy / 1e3))
        check(abs(r["gpu_busy_ms"] + r["gpu_idle_ms"] - r["duration_ms"]) < 2e-3,
              "%s step %d: busy + idle != duration" % (name, r["step"]))


def csv_tables(text):
    """{table name: [rows as lists]} of a CSV report (header rows left out)."""
    out, cur = {}, None
    for row in csv.reader(io.StringIO(text)):
        if row and row[0].startswith("# "):
            cur = out.setdefault(row[0][2:], [])
            cur.append(None)  # the column header follows
        elif cur is not None and row:
            if cur and cur[-1] is None:
                cur[-1] = "header"
            else:
                cur.append(row)
    return {k: [r for r in v if r not in (None, "header")] for k, v in out.items()}


def check_per_step(tt, path, name, steps):
    tables = "timeline,ops,categories,kernels,temporal"
    rc, out, err = run([tt, "report", "-q", "--per-step", "--no-header", "-f", "csv", "-t",
                        tables, path])
    check(rc == 0, "%s --per-step: %r" % (name, err))
    if rc:
        return
    per = csv_tables(out.decode())
    for n in steps:
        rc, one, err = run([tt, "report", "-q", "--step", str(n), "--no-header", "-f", "csv",
                            "-t", tables, path])
        check(rc == 0, "%s --step %d: %r" % (name, n, err))
        check(sum(len(v) for v in csv_tables(one.decode()).values()) > 0,
              "%s --step %d: no rows" % (name, n))
        for tname, rows in csv_tables(one.decode()).items():
            mine = [r[1:] for r in per.get(tname, []) if r[0] == str(n)]
            check(mine == rows, "%s --per-step, %s, step %d: %d rows, --step gives %d%s" % (
                name, tname, n, len(mine), len(rows),
                "" if len(mine) != len(rows) else
                ": first differing %r vs %r" % next(((x, y) for x, y in zip(mine, rows)
                                                     if x != y), (None, None))))


VLLM = re.compile(r"^execute_\d+_context_(\d+)\(sq(\d+)sk\d+sqsq\d+sqsk\d+\)"
                  r"_generation_(\d+)\(sq(\d+)sk\d+sqsq\d+sqsk\d+\)")


def check_iterations(tt, path, name):
    """The iterations table against the vLLM-form annotations of the trace;
    returns the kinds seen."""
    rc, out, err = run([tt, "report", "-q", "-t", "iterations", "-f", "json", path])
    check(rc == 0, "%s -t iterations: %r" % (name, err))
    if rc:
        return set()
    tab = json.loads(out)["tables"][0]
    rows = tab["rows"]
    doc = load_trace(path)
    evs = [e for e in doc["traceEvents"] if isinstance(e, dict) and e.get("ph") == "X"]
    anns = sorted((float(e["ts"]), e["name"]) for e in evs
                  if e.get("cat") == "user_annotation" and VLLM.match(e["name"]))
    check(len(rows) == len(anns), "%s: %d iterations, %d annotations" % (name, len(rows), len(anns)))
    for r, (_, ann) in zip(rows, anns):
        m = VLLM.match(ann)
        creq, ctok, greq, gtok = (int(m.group(i)) for i in range(1, 5))
        check((r["prefill_requests"], r["prefill_tokens"], r["decode_requests"],
               r["decode_tokens"]) == (creq, ctok, greq, gtok),
              "%s iteration %d: %r vs the annotation %r" % (name, r["iteration"], r, ann))
        kind = "mixed" if ctok and gtok else "prefill" if ctok else "decode"
        check(r["kind"] == kind, "%s iteration %d: kind %s, not %s" % (name, r["iteration"],
                                                                         r["kind"], kind))
    gpu = sum(float(e["dur"]) for e in evs if e.get("cat") in GPU_CATS) / 1e3
    note = " ".join(tab.get("notes", []))
    m = re.search(r"GPU time of the trace: ([0-9.]+) ms, of which ([0-9.]+) ms", note)
    check(m is not None, "%s: no GPU time note in %r" % (name, note))
    if m:
        total, outside = float(m.group(1)), float(m.group(2))
        inside = sum(r["gpu_time_ms"] for r in rows)
        check(abs(total - gpu) < 1e-3, "%s: GPU time %r, the events' %r" % (name, total, gpu))
        check(abs(inside + outside - total) < 1e-3 * max(1, len(rows)),
              "%s: iterations %r + outside %r != %r" % (name, inside, outside, total))
    return {r["kind"] for r in rows}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--generated", type=int, default=4)
    a = ap.parse_args()
    tt = a.torchtop
    rng = random.Random(31)
    with tempfile.TemporaryDirectory() as tmp:
        traces = sorted(glob.glob(os.path.join(a.shared, "traces", "*.json*")))
        for path in traces:
            name = os.path.basename(path)
            steps = steps_of(path)
            scopes = []
            if steps:
                mid = steps[len(steps) // 2]
                scopes.append(["--step", str(mid)])
                scopes.append(["--window", "step%d+1ms:step%d+3ms" % (mid, mid)])
                scopes.append(["--step", str(mid), "--match", "aten::"])
            if len(steps) >= 2:
                scopes.append(["--step", "%d-%d" % (steps[0], steps[1])])
                scopes.append(["--skip-steps", "1"])
            span = span_ms(tt, path)
            if span > 0:
                scopes.append(["--window", "%.6f:%.6f" % (span / 3, 2 * span / 3)])
            scopes.append(["--match", "^aten::(mm|addmm|linear|conv|_conv|cudnn_conv|add)"])
            for scope in scopes:
                compare(tt, tmp, path, scope, TABLES, name)
            if "graph-replay" in name or "piecewise-replay" in name:
                for scope in scopes[:2]:
                    compare(tt, tmp, path, scope, "graphs", name)
        # summarize SCOPE: the summary of the exported scope (but its source).
        path = os.path.join(a.shared, "traces", "hta-nccl-a100-2rank-rank0.json.gz")
        for scope in (["--step", "5"], ["--skip-steps", "1", "--match", "ProfilerStep"]):
            s1, s2 = os.path.join(tmp, "s1.summary"), os.path.join(tmp, "s2.summary")
            sliced = os.path.join(tmp, "slice.json")
            rc1, _, e1 = run([tt, "summarize"] + scope + [path, "-o", s1])
            rc2, _, e2 = run([tt, "export", "-q", "--chrome", sliced] + scope + [path])
            rc3, _, e3 = run([tt, "summarize", sliced, "-o", s2])
            check(rc1 == rc2 == rc3 == 0, "summarize %s: %r %r %r" % (scope, e1, e2, e3))
            if rc1 == rc2 == rc3 == 0:
                with gzip.open(s1) as f1, gzip.open(s2) as f2:
                    d1, d2 = json.load(f1), json.load(f2)
                d1.pop("source", None)
                d2.pop("source", None)
                check(d1 == d2, "summarize %s: differs from the exported scope's" % scope)
        # diff SCOPE: each side scoped, as diff of the two exported scopes.
        ctl = os.path.join(a.shared, "traces", "kineto-v100-resnet50-pt19.pt.trace.json.gz")
        tst = os.path.join(a.shared, "traces", "hta-a100-8rank-rank3-async_cpu_to_gpu.json.gz")
        for scope in (["--skip-steps", "1"], ["--match", "^aten::(conv|mm|addmm)"]):
            e1, e2 = os.path.join(tmp, "c.json"), os.path.join(tmp, "t.json")
            rcs = [run([tt, "export", "-q", "--chrome", out] + scope + [p])[0]
                   for out, p in ((e1, ctl), (e2, tst))]
            r1 = run([tt, "diff", "-q", "--no-header", "-f", "csv", "-t", "all"] + scope +
                     [ctl, tst])
            r2 = run([tt, "diff", "-q", "--no-header", "-f", "csv", "-t", "all", e1, e2])
            check(rcs == [0, 0] and r1[0] == r2[0] == 0 and r1[1] == r2[1] and r1[1],
                  "diff %s: differs from the diff of the exported scopes (%r / %r)"
                  % (scope, r1[2], r2[2]))
        # report -t steps against the raw events: each step's window, its GPU
        # work (count starting in it, busy union clipped to it).
        for name in ("kineto-v100-resnet50-pt19.pt.trace.json.gz",
                     "hta-nccl-a100-2rank-rank0.json.gz"):
            path = os.path.join(a.shared, "traces", name)
            check_steps_table(tt, path, name)
        # --per-step: step N's rows are report --step N's.
        for name in ("kineto-v100-resnet50-pt19.pt.trace.json.gz",
                     "hta-a100-8rank-rank3-async_cpu_to_gpu.json.gz"):
            path = os.path.join(a.shared, "traces", name)
            check_per_step(tt, path, name, steps_of(path))
        # Serving iterations: tokens and requests are the annotations', the
        # GPU times add up to the trace's; --iteration KIND as its export.
        for name in ("tracelens-mi300-sglang-prefilldecode.json.gz",
                     "tracelens-mi300-vllm-graph-replay.json.gz",
                     "tracelens-mi300-vllm-piecewise-replay.json.gz"):
            path = os.path.join(a.shared, "traces", name)
            kinds = check_iterations(tt, path, name)
            for kind in ("prefill", "decode", "mixed"):
                compare(tt, tmp, path, ["--iteration", kind], TABLES, name)
            check(kinds, "%s: no iterations" % name)
        # The steady-state window: on a serving trace written for it, and
        # on the shared ones.
        check_steady(tt, run, compare, TABLES, tmp,
                     [os.path.join(a.shared, "traces", n) for n in
                      ("tracelens-mi300-sglang-prefilldecode.json.gz",
                       "tracelens-mi300-vllm-graph-replay.json.gz",
                       "tracelens-mi300-vllm-piecewise-replay.json.gz")])
        # A step the trace does not have.
        rc, _, err = run([tt, "report", "-q", "--step", "999999", traces[0]])
        check(rc == 64 and b"ProfilerStep#999999" in err, "missing step: exit %d, %r" % (rc, err))
        # Generated traces, random windows (in µs, ms and s) and steps.
        for k in range(a.generated):
            gen = os.path.join(tmp, "gen%d.json" % k)
            rc, _, err = run([tt, "gen", "--events", str(rng.choice([3000, 6000, 12000])),
                              "--steps", str(rng.randint(2, 5)), "--seed", str(k + 1), "-o", gen])
            check(rc == 0, "gen %d: %s" % (k, err))
            span = span_ms(tt, gen)
            for _ in range(3):
                x, y = sorted(rng.uniform(-0.1, 1.1) * span for _ in range(2))
                unit = rng.choice(["ms", "us", "s", ""])
                f = {"ms": 1, "": 1, "us": 1e3, "s": 1e-3}[unit]
                w = "%.3f%s:%.3f%s" % (x * f, unit, (y + 1e-3) * f, unit)
                compare(tt, tmp, gen, ["--window", w], TABLES, "gen%d" % k)
            compare(tt, tmp, gen, ["--skip-steps", "1", "--match", "nn.Module"], TABLES,
                    "gen%d" % k)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

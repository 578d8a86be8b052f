#!/usr/bin/env python3
"""Golden test of graph replays attributed through their capture traces
(docs/metrics.md §16) against TraceLens's capture-merged reports.

For each replay oracle whose trace has a capture beside it
(TRACE-replay / TRACE-capture), torchtop reads both (--capture) and must
give, with a tolerance of 0.5 % (or 1 µs) on times:
  * ops_summary: the same rows per op name and parent_module, the same
    Count, and the direct kernel time;
  * ops_unique_args: the same rows per op name, parent_module and the four
    argument lists, the same operation_count, direct time sum and mean;
  * gpu_timeline: every line;
  * the header's attribution line: every kernel of the graph launches
    attributed.
The replay alone (no --capture) must say in its header and op table how
much GPU time ran in graph replays with no launching op.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

failures = []
notes = []


def fail(msg):
    failures.append(msg)


def close(a, b, rel=5e-3, abs_us=1.0):
    return abs(a - b) <= max(abs(b) * rel, abs_us)


def run(tt, args):
    p = subprocess.run([tt, "report", "-q", *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        fail("torchtop report %s exited %d: %s" % (" ".join(args), p.returncode,
                                                   p.stderr.decode()[:300]))
        return ""
    return p.stdout.decode("utf-8")


def table(tt, args):
    return list(csv.DictReader(io.StringIO(run(tt, ["--no-header", "-f", "csv", *args]))))


def read(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def compare_ops(name, tl, mine):
    key = lambda r: (r["name"], r["parent_module"])
    t = {key(r): r for r in tl}
    m = {key(r): r for r in mine if r.get("row_kind", "op") == "op"}  # TraceLens's rows
    if set(t) != set(m):
        fail("%s ops: rows differ: only TraceLens %s, only torchtop %s"
             % (name, sorted(set(t) - set(m))[:3], sorted(set(m) - set(t))[:3]))
    worst = 0.0
    for k, r in t.items():
        x = m.get(k)
        if not x:
            continue
        if int(x["Count"]) != int(r["Count"]):
            fail("%s ops %s: Count torchtop %s, TraceLens %s" % (name, k, x["Count"], r["Count"]))
        a, b = float(x["total_direct_kernel_time_sum"]), float(r["total_direct_kernel_time_sum"])
        if not close(a, b):
            fail("%s ops %s: direct time torchtop %.3f µs, TraceLens %.3f µs" % (name, k, a, b))
        worst = max(worst, abs(a - b) / b if b else 0)
    notes.append("%s ops: %d/%d rows matched, worst direct-time difference %.4f %%"
                 % (name, len(set(t) & set(m)), len(t), 100 * worst))


def compare_unique(name, tl, mine):
    def key(r):
        return (r["name"], r["parent_module"], r["Input Dims"], r["Input type"],
                r["Input Strides"], r["Concrete Inputs"])
    t = {}
    for r in tl:
        t.setdefault(key(r), []).append(r)
    m = {}
    for r in mine:
        m.setdefault(key(r), []).append(r)
    if set(t) != set(m):
        fail("%s unique args: rows differ: only TraceLens %s, only torchtop %s"
             % (name, sorted(set(t) - set(m))[:2], sorted(set(m) - set(t))[:2]))
    for k, rs in t.items():
        xs = m.get(k)
        if not xs:
            continue
        cnt = lambda rows: sum(int(r["operation_count"]) for r in rows)
        tot = lambda rows: sum(float(r["total_direct_kernel_time_sum"]) for r in rows)
        if cnt(xs) != cnt(rs):
            fail("%s unique %s: count torchtop %d, TraceLens %d" % (name, k[:2], cnt(xs), cnt(rs)))
        if not close(tot(xs), tot(rs)):
            fail("%s unique %s: direct sum torchtop %.3f, TraceLens %.3f"
                 % (name, k[:2], tot(xs), tot(rs)))
    notes.append("%s unique args: %d/%d rows matched" % (name, len(set(t) & set(m)), len(t)))


def compare_timeline(name, tl, mine):
    m = {r["type"]: r for r in mine}
    for r in tl:
        x = m.get(r["type"])
        if not x:
            fail("%s timeline: no %s line" % (name, r["type"]))
        elif not close(float(x["time ms"]), float(r["time ms"]), abs_us=1e-3):
            fail("%s timeline %s: torchtop %s ms, TraceLens %s ms"
                 % (name, r["type"], x["time ms"], r["time ms"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    oracle = os.path.join(a.shared, "oracle")
    done = 0
    for name in sorted(os.listdir(oracle)):
        if not name.endswith("-replay"):
            continue
        base = os.path.join(a.shared, "traces", name[:-len("replay")])
        replay, capture = base + "replay.json.gz", base + "capture.json.gz"
        if not (os.path.exists(replay) and os.path.exists(capture)):
            continue
        done += 1
        od = os.path.join(oracle, name)
        cap = ["--capture", capture]
        head = run(a.torchtop, ["-t", "ops", replay])
        if "ran in graph replays with no launching op" not in head or "--capture" not in head:
            fail("%s: the replay alone does not say that GPU time ran in graph replays" % name)
        head = run(a.torchtop, ["-t", "timeline", *cap, replay])
        line = [l for l in head.splitlines() if l.startswith("captured:")]
        if not line or "attributed through the capture" not in line[0]:
            fail("%s: no attribution line in the header" % name)
        else:
            n = line[0].split()[1:4]
            if n[0] != n[2]:
                fail("%s: %s" % (name, line[0]))
            notes.append("%s: %s" % (name, line[0]))
        for extra in ([], ["--flow-links"]):
            tag = name + (" " + extra[0] if extra else "")
            compare_ops(tag, read(os.path.join(od, "ops_summary.csv")),
                        table(a.torchtop, ["-t", "ops", *extra, *cap, replay]))
            compare_unique(tag, read(os.path.join(od, "ops_unique_args.csv")),
                           table(a.torchtop, ["-t", "unique-args", *extra, *cap, replay]))
        compare_timeline(name, read(os.path.join(od, "gpu_timeline.csv")),
                         table(a.torchtop, ["-t", "timeline", "--linked-only", "--flow-links",
                                            *cap, replay]))
    if not done:
        fail("no replay oracle with a capture trace in %s" % oracle)
    for n in notes:
        print("note:", n)
    for f in failures:
        print("FAIL:", f)
    print("capture golden: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compare torchtop's key-averages table of a legacy-profiler trace with
the table PyTorch printed for the same run (record.py).

    compare.py --torchtop PATH NAME.json ...   (each beside its NAME.table.txt)

Rules (docs/metrics.md §5.8): the same names; # of Calls equal; Self CPU
and CPU total within 0.5 µs, the rounding of PyTorch's printed times (the
trace holds the same whole microseconds PyTorch summed); Self CPU total
within 1 µs per row. One documented difference: where PyTorch prints a
negative Self CPU (its children's whole-microsecond durations sum to more
than the parent's), torchtop reads zero (docs/metrics.md §5.2); the total
then differs by that amount. Standard library only.
"""
import argparse
import csv
import io
import re
import subprocess
import sys

UNITS = {"s": 1e6, "ms": 1e3, "us": 1.0, "ns": 1e-3}


def us(text):
    m = re.fullmatch(r"(-?[0-9.]+)(s|ms|us|ns)", text)
    if not m:
        raise ValueError("not a time: %r" % text)
    return float(m.group(1)) * UNITS[m.group(2)]


def parse_pytorch(path):
    """Rows of PyTorch's printed table: name -> (self us, total us, calls),
    and its 'Self CPU time total'."""
    lines = open(path, encoding="utf-8").read().splitlines()
    header = next(i for i, l in enumerate(lines) if "# of Calls" in l)
    dash = lines[header - 1]
    # Column spans from the dashed rule above the header.
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dash)]
    names = [lines[header][a:b].strip() for a, b in spans]
    rows, total = {}, None
    for l in lines[header + 2:]:
        if l.startswith("-"):
            continue
        m = re.match(r"Self CPU time total: (\S+)", l)
        if m:
            total = us(m.group(1))
            continue
        if not l.strip() or l.startswith("#"):
            continue
        cells = dict(zip(names, (l[a:b].strip() for a, b in spans)))
        rows[cells["Name"]] = (us(cells["Self CPU"]), us(cells["CPU total"]),
                               int(cells["# of Calls"]))
    return rows, total


def run_torchtop(tt, trace):
    p = subprocess.run([tt, "report", "-q", "--no-header", "-t", "key-averages", "-f", "csv",
                        trace], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (tt, p.returncode, p.stderr.decode()[:300]))
    rows = {}
    for r in csv.DictReader(io.StringIO(p.stdout.decode("utf-8"))):
        rows[r["Name"]] = (float(r["Self CPU"]), float(r["CPU total"]),
                           int(r["# of Calls"]))
    return rows


def compare(tt, trace):
    ref, total = parse_pytorch(re.sub(r"\.json$", ".table.txt", trace))
    mine = run_torchtop(tt, trace)
    fails = []
    if set(ref) != set(mine):
        fails.append("names differ: only PyTorch %s, only torchtop %s"
                     % (sorted(set(ref) - set(mine)), sorted(set(mine) - set(ref))))
    worst, negative = 0.0, 0.0
    for name, (s, t, n) in sorted(ref.items()):
        if name not in mine:
            continue
        ms, mt, mn = mine[name]
        if mn != n:
            fails.append("%s: # of Calls %d, PyTorch %d" % (name, mn, n))
        if s < 0 and ms == 0:
            negative += -s
            print("documented: %s: PyTorch's Self CPU %.3f us, torchtop 0" % (name, s))
            s = 0.0
        for what, a, b in (("Self CPU", ms, s), ("CPU total", mt, t)):
            worst = max(worst, abs(a - b))
            if abs(a - b) > 0.5 + 1e-6:
                fails.append("%s: %s %.3f us, PyTorch %.3f us" % (name, what, a, b))
    self_sum = sum(v[0] for v in mine.values())
    if total is None or abs(self_sum - negative - total) > len(mine) + 1e-6:
        fails.append("Self CPU total %.3f us, PyTorch %s us" % (self_sum, total))
    print("%s: %d rows, %d calls; worst time difference %.3f us; %s"
          % (trace, len(ref), sum(v[2] for v in ref.values()), worst,
             "FAIL" if fails else "ok"))
    for f in fails:
        print("FAIL:", f)
    return not fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    ok = all([compare(a.torchtop, t) for t in a.traces])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

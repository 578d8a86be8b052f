#!/usr/bin/env python3
"""Every op name of every shared trace with its category, against
tests/golden/op_categories.expected, so that an op TraceLens maps and
torchtop does not (or a changed mapping) shows as a diff.

The names are those of the ops table's op rows (every kernel launcher,
with the categories of its instances, docs/metrics.md §4; not the rows of
GPU time no op counts), one line per trace and
name: TRACE<TAB>NAME<TAB>CATEGORIES. Regenerate after a deliberate change
of the category map, and review the diff:

    tests/golden/op_categories.py --torchtop build/torchtop \\
        --shared ../shared --write tests/golden/op_categories.expected

Standard library only.
"""
import argparse
import csv
import difflib
import io
import os
import subprocess
import sys

EXTS = (".json.gz", ".json")


def lines(tt, shared):
    out = []
    tdir = os.path.join(shared, "traces")
    for f in sorted(os.listdir(tdir)):
        if not f.endswith(EXTS):
            continue
        name = f[:-len(next(e for e in EXTS if f.endswith(e)))]
        p = subprocess.run([tt, "report", "-q", "--no-header", "-t", "ops", "-f", "csv",
                            os.path.join(tdir, f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit("FAIL: %s: ops exited %d: %s" % (f, p.returncode,
                                                              p.stderr.decode()[:300]))
        for r in csv.DictReader(io.StringIO(p.stdout.decode("utf-8"))):
            # The rows of GPU time no op counts (row_kind other than op)
            # are not ops and have no category.
            if r.get("row_kind", "op") != "op":
                continue
            out.append("%s\t%s\t%s" % (name, r["name"], r["Categories"]))
    return sorted(set(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--expected", default=os.path.join(os.path.dirname(__file__),
                                                       "op_categories.expected"))
    ap.add_argument("--write", help="write the listing here instead of comparing")
    a = ap.parse_args()
    got = lines(a.torchtop, a.shared)
    if a.write:
        with open(a.write, "w", encoding="utf-8") as f:
            f.write("".join(l + "\n" for l in got))
        print("wrote %d lines to %s" % (len(got), a.write))
        return 0
    want = open(a.expected, encoding="utf-8").read().splitlines()
    if got == want:
        other = sum(1 for l in got if l.endswith("['other']"))
        print("%d op names, %d of them other: as expected" % (len(got), other))
        return 0
    for d in difflib.unified_diff(want, got, "expected", "torchtop", lineterm="", n=0):
        print(d)
    print("FAIL: op categories differ from %s (regenerate with --write after reviewing)"
          % a.expected)
    return 1


if __name__ == "__main__":
    sys.exit(main())

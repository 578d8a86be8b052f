#!/usr/bin/env python3
"""HTA's tables per rank of a job (`report -t T DIR|TRACE...`): every
rank's rows of the job's table equal, cell for cell, the rows of
`report -t T` on that rank's trace alone, the trace's own rank column
aside (the job's numbering replaces it); the job's rank numbers are those
of its `ranks` table; every rank is present in every table."""
import argparse
import json
import subprocess
import sys

HTA = ["temporal", "idle-time", "kernel-types", "overlap", "launch-stats",
       "queue-length", "memory-bw"]


def report(tt, tables, inputs, extra=()):
    cmd = [tt, "report", "-q", "-f", "json", "-t", tables, *extra, *inputs]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: %s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr))
    return json.loads(r.stdout)


def strip_rank(row):
    return {k: v for k, v in row.items() if k != "rank"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--input", action="append", required=True,
                    help="what the job is given (repeatable)")
    ap.add_argument("--tables", default=",".join(HTA))
    ap.add_argument("--top", default=None, help="--top for both sides")
    ap.add_argument("files", nargs="+", help="the rank files, one by one")
    a = ap.parse_args()
    extra = ["--top", a.top] if a.top else []
    ranks = report(a.torchtop, "ranks", a.input)["tables"][0]["rows"]
    rank_of = {r["trace"]: r["rank"] for r in ranks}
    job = report(a.torchtop, a.tables, a.input, extra)["tables"]
    jobt = {t["name"]: t for t in job}
    fail = 0
    compared = 0
    names = set()
    for f in a.files:
        if f not in rank_of:
            sys.exit("FAIL: %s is not a rank of the job (%s)" % (f, sorted(rank_of)))
        rank = rank_of[f]
        one = report(a.torchtop, a.tables, [f], extra)["tables"]
        for t in one:
            names.add(t["name"])
            jt = jobt.get(t["name"])
            if jt is None:
                print("FAIL: table %s missing from the job's output" % t["name"])
                fail = 1
                continue
            cols = [c["name"] for c in jt["columns"]]
            want_cols = ["rank"] + [c["name"] for c in t["columns"] if c["name"] != "rank"]
            if cols != want_cols:
                print("FAIL: %s columns %s, expected %s" % (t["name"], cols, want_cols))
                fail = 1
                continue
            got = [strip_rank(r) for r in jt["rows"] if r["rank"] == rank]
            want = [strip_rank(r) for r in t["rows"]]
            if got != want:
                print("FAIL: %s rank %d (%s): %d rows, expected %d" %
                      (t["name"], rank, f, len(got), len(want)))
                for g, w in zip(got, want):
                    if g != w:
                        print("  got  %s\n  want %s" % (g, w))
                        break
                fail = 1
            compared += len(want)
    for n, jt in jobt.items():
        seen = {r["rank"] for r in jt["rows"]}
        if n in names and jt["rows"] and not seen <= set(rank_of.values()):
            print("FAIL: %s has ranks %s outside the job's" % (n, sorted(seen)))
            fail = 1
    if set(jobt) != names:
        print("FAIL: job tables %s, one trace gives %s" % (sorted(jobt), sorted(names)))
        fail = 1
    if compared == 0:
        print("FAIL: no rows compared")
        fail = 1
    print("%s: %d tables, %d rows of %d ranks compared" %
          ("FAIL" if fail else "ok", len(names), compared, len(a.files)))
    return fail


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Golden test of `diff --short-names`: every event name of every trace in
../shared/traces fed through torchtop's C implementation
(core/diff/shortname.c, via tests/lib/shortname_filter) and through the
independent Python one of hta_diff_ref.py (HTA's shorten_name with its
rule that a name with neither '<' nor '(' stays as it is); every name must
give the same short name in both. Also shown, not asserted: how many names
HTA's shorten_name without that rule and without the empty-name fallback
(its hta/utils/utils.py as stored at 0c2146a) would give otherwise, with
examples of both values.

Standard library only."""
import argparse
import gzip
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hta_diff_ref import shorten_name, strip_brackets as shorten_unguarded  # noqa: E402


def trace_names(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8", "surrogateescape"))
    evs = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    return {e["name"] for e in evs if isinstance(e, dict) and isinstance(e.get("name"), str)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filter", required=True, help="tests/lib/shortname_filter")
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    tdir = os.path.join(args.shared, "traces")
    names = set()
    files = sorted(f for f in os.listdir(tdir) if f.endswith((".json", ".json.gz")))
    for f in files:
        names |= trace_names(os.path.join(tdir, f))
    # NUL separates the names; a name holding NUL cannot be passed whole.
    names = sorted(n for n in names if "\0" not in n)
    data = b"".join(n.encode("utf-8", "surrogateescape") + b"\0" for n in names)
    res = subprocess.run([args.filter], input=data, capture_output=True)
    if res.returncode != 0:
        print(f"FAIL: {args.filter} exited {res.returncode}")
        return 1
    out = res.stdout.split(b"\0")
    if out and out[-1] == b"":
        out.pop()
    failures = []
    if len(out) != len(names):
        failures.append(f"{len(names)} names in, {len(out)} short names out")
    shortened = unguarded_differs = 0
    examples = []
    for n, c in zip(names, out):
        want = shorten_name(n)
        got = c.decode("utf-8", "surrogateescape")
        if got != want:
            failures.append(f"{n!r}: C {got!r}, Python {want!r}")
        shortened += want != n
        u = shorten_unguarded(n)
        if u != want:
            unguarded_differs += 1
            if len(examples) < 5:
                examples.append((n, want, u))
    print(f"short names: {len(names)} distinct names from {len(files)} traces, "
          f"{shortened} shortened, {len(failures)} mismatches between C and Python")
    print(f"without the '<' / '(' rule and the empty-name fallback, {unguarded_differs} names "
          "would get another short name, e.g.:")
    for n, w, u in examples:
        print(f"  {n[:80]!r}: {w[:60]!r} (torchtop), {u[:60]!r} (unguarded)")
    if len(names) < 1000 or not shortened:
        failures.append(f"too few names ({len(names)}) or none shortened: not a real check")
    for f in failures[:20]:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Allocations made before recording began, computed two ways.

  before_recording.py FILE.pickle SITES.json

FILE.pickle is read with Python's pickle module (standard library only):
per device, a free_completed whose address no earlier alloc holds frees an
allocation made before recording. Its stack is the free's when the file
recorded frees with their own stacks (some alloc / free_completed pair has
different frames, or no pair tells; PyTorch records a free with the
allocation's context otherwise). SITES.json is `torchtop report -t sites
-f json` of the same file. Checks: those allocations are exactly the
"<allocated before recording> freed at" rows, one per free stack, with
their counts and bytes, each stack column marked "freed at: "; no other row
holds them (every row's allocations add up to the replay's). Prints one
summary line; exits 1 with the differences.
"""
import json
import pickle
import sys
from collections import Counter

PREFIX = "<allocated before recording> freed at "


def stack_key(frames):
    return tuple((f.get("filename"), f.get("line"), f.get("name")) for f in frames or [])


def expected(snap):
    """(Counter of free stack -> [count, bytes], allocations in all)."""
    groups = {}
    nallocs = 0
    traces = snap.get("device_traces", []) if isinstance(snap, dict) else []
    segments = snap.get("segments", []) if isinstance(snap, dict) else snap
    for dev, trace in enumerate(traces):
        live = {}
        pairs = differ = 0
        unmatched = []
        for e in trace:
            a = e.get("action")
            if a == "alloc":
                live[e["addr"]] = e
                nallocs += 1
            elif a == "free_completed":
                al = live.pop(e["addr"], None)
                if al is None:
                    unmatched.append(e)
                    nallocs += 1
                else:
                    pairs += 1
                    differ += stack_key(al.get("frames")) != stack_key(e.get("frames"))
        free_stacks = pairs == 0 or differ > 0
        for e in unmatched:
            k = stack_key(e.get("frames"))
            if free_stacks and k:
                g = groups.setdefault(k, [0, 0])
                g[0] += 1
                g[1] += e["size"]
        # Final live blocks no traced allocation holds count too.
        held = set(live)
        for seg in segments:
            if seg.get("device", 0) != dev:
                continue
            for b in seg.get("blocks", []):
                if b.get("state") == "active_allocated" and b.get("address") not in held:
                    nallocs += 1
    if not traces:
        for seg in segments:
            nallocs += sum(1 for b in seg.get("blocks", []) if b.get("state") == "active_allocated")
    return groups, nallocs


def main():
    with open(sys.argv[1], "rb") as f:
        snap = pickle.load(f)
    with open(sys.argv[2]) as f:
        rows = json.load(f)["tables"][0]["rows"]
    groups, nallocs = expected(snap)
    errors = []
    freed = [r for r in rows if r["site"].startswith(PREFIX)]
    got_total = sum(r["allocations"] for r in rows)
    if got_total != nallocs:
        errors.append("rows hold %d allocations, the replay %d" % (got_total, nallocs))
    if len(freed) != len(groups):
        errors.append("%d freed-at rows, %d free stacks" % (len(freed), len(groups)))
    want = sorted((g[0], g[1]) for g in groups.values())
    got = sorted((r["allocations"], r["total_bytes"]) for r in freed)
    if want != got:
        errors.append("freed-at rows (count, bytes) %s, expected %s" % (got, want))
    for r in freed:
        if not r["stack"].startswith("freed at: "):
            errors.append("row %r: stack not marked as the free's: %r" % (r["site"], r["stack"][:80]))
        if r["mean_lifetime_us"] is not None:
            errors.append("row %r has a lifetime" % r["site"])
    for r in rows:
        if not r["site"].startswith(PREFIX) and r["stack"].startswith("freed at: "):
            errors.append("allocation site %r shows a free stack" % r["site"])
    n = sum(g[0] for g in groups.values())
    print("%d allocations before recording in %d free stacks, %d rows" % (n, len(groups), len(rows)))
    for e in errors:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

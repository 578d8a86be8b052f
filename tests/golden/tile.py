#!/usr/bin/env python3
"""Check bench/tile.py's output against its source: SOURCE TILED COPIES.
The tiled trace holds COPIES copies of the source's events (metadata once),
copy k with every time shifted by k times the same whole number of
microseconds and every link id (> 0) offset by k times one offset per key,
so that no link id repeats across copies; the top-level keys are kept."""
import json
import sys

ID_KEYS = ("correlation", "External id", "Sequence number", "Python id", "Python parent id",
           "Ev Idx")
FLOW_KEYS = ("id", "bind_id")


def links(e):
    args = e.get("args") if isinstance(e.get("args"), dict) else {}
    out = {k: args[k] for k in ID_KEYS if isinstance(args.get(k), int) and args[k] > 0}
    out.update({k: e[k] for k in FLOW_KEYS if isinstance(e.get(k), int) and e[k] > 0})
    return out


def main():
    src = json.load(open(sys.argv[1]))
    tiled = json.load(open(sys.argv[2]))
    copies = int(sys.argv[3])
    fails = []
    sev = src["traceEvents"]
    body = [e for e in sev if e.get("ph") != "M"]
    tev = tiled["traceEvents"]
    if len(tev) != len(sev) + (copies - 1) * len(body):
        fails.append("%d events, expected %d" % (len(tev), len(sev) + (copies - 1) * len(body)))
    if {k: v for k, v in tiled.items() if k != "traceEvents"} != \
            {k: v for k, v in src.items() if k != "traceEvents"}:
        fails.append("top-level keys differ")
    if tev[:len(sev)] != sev:
        fails.append("the first copy differs from the source")
    shift = None
    offsets = {}
    seen = {}
    for k in range(1, copies):
        part = tev[len(sev) + (k - 1) * len(body):len(sev) + k * len(body)]
        for a, b in zip(body, part):
            if a.get("ph") != b.get("ph") or a.get("name") != b.get("name"):
                fails.append("copy %d: event order differs" % k)
                break
            if "ts" in a:
                d = round((b["ts"] - a["ts"]) / k)
                shift = d if shift is None else shift
                if d != shift or abs(b["ts"] - a["ts"] - k * shift) > 2e-3:
                    fails.append("copy %d: ts %r -> %r, not shifted by %d" % (k, a["ts"], b["ts"], k * shift))
                    break
            la, lb = links(a), links(b)
            if la.keys() != lb.keys():
                fails.append("copy %d: link keys %s -> %s" % (k, sorted(la), sorted(lb)))
                break
            for key in la:
                off = (lb[key] - la[key]) // k
                offsets.setdefault(key, off)
                if off <= 0 or lb[key] - la[key] != k * offsets[key]:
                    fails.append("copy %d: %s %d -> %d" % (k, key, la[key], lb[key]))
                    break
            if {key: b[key] for key in b if key not in ("ts", "args", "id", "bind_id")} != \
                    {key: a[key] for key in a if key not in ("ts", "args", "id", "bind_id")}:
                fails.append("copy %d: fields other than ts and ids changed" % k)
                break
        if fails:
            break
    # A link id that identifies an event (Python id, External id of ops,
    # flow ids) appears in one copy only.
    for i, e in enumerate(tev):
        py = links(e).get("Python id")
        if py is not None:
            if py in seen:
                fails.append("Python id %d repeats (events %d and %d)" % (py, seen[py], i))
                break
            seen[py] = i
    if shift is not None and shift <= 0:
        fails.append("shift %d" % shift)
    for f in fails[:10]:
        print("FAIL: " + f)
    print("%d copies, %d events, shift %s us, offsets %s: %s" %
          (copies, len(tev), shift, offsets, "FAIL" if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

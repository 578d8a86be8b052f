#!/usr/bin/env python3
"""Totals of a CUDA memory snapshot, computed two ways for comparison.

  totals.py pickle FILE   from Python's own pickle module (standard library
                          only; the requested peak follows MemoryViz.js
                          process_alloc_data, free_requested/free_completed
                          merging included; the allocated peak is the same
                          replay in block sizes, as torchtop(1) describes)
  totals.py report JSON   from `torchtop report -t summary -f json`

Both print the same lines ("cuda:0 segments 96", ...), sorted, so that the
two outputs can be compared with diff.
"""
import gzip
import json
import pickle
import sys

ACTIONS = ["alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
           "segment_map", "segment_unmap", "oom", "snapshot", "annotate"]
STATES = ["active_allocated", "active_pending_free", "inactive"]


def is_frame(x):
    return (isinstance(x, dict) and type(x.get("filename")) is str
            and type(x.get("name")) is str and type(x.get("line")) is int)


def walk(x, frames, stacks):
    todo = [x]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            if is_frame(v):
                frames.add((v["filename"], v["line"], v["name"]))
            todo.extend(v.values())
            todo.extend(v.keys())
        elif isinstance(v, (list, tuple)):
            if isinstance(v, list) and v and all(is_frame(f) for f in v):
                stacks.add(tuple((f["filename"], f["line"], f["name"]) for f in v))
            todo.extend(v)


def memory_viz_peak(segments, trace, device):
    """MemoryViz.js: annotate_snapshot's free merge, then process_alloc_data."""
    events = []
    for t in trace:
        t = dict(t)
        if (t.get("action") == "free_completed" and events
                and events[-1]["action"] == "free_requested"
                and events[-1].get("addr") == t.get("addr")):
            events[-1]["action"] = "free"
            continue
        events.append(t)
    elements, initially, actions, addr_to_alloc = [], [], [], {}
    for e in events:
        if e["action"] == "alloc":
            elements.append(e)
            addr_to_alloc[e["addr"]] = len(elements) - 1
            actions.append(len(elements) - 1)
        elif e["action"] in ("free", "free_completed"):
            if e["addr"] in addr_to_alloc:
                actions.append(addr_to_alloc.pop(e["addr"]))
            else:
                elements.append(e)
                initially.append(len(elements) - 1)
                actions.append(len(elements) - 1)
    for seg in segments:
        if seg.get("device", 0) != device:
            continue
        addr = seg["address"]
        for b in seg["blocks"]:
            if "frames" not in b and "history" in b and b["history"]:
                req = b.get("requested_size") or b["history"][0].get("real_size")
            else:
                req = b.get("requested_size", b["size"])
            if b["state"] == "active_allocated" and addr not in addr_to_alloc:
                elements.append({"size": req})
                initially.append(len(elements) - 1)
            addr += b["size"]
    initially.reverse()
    if not actions and initially:
        actions.append(initially.pop())
    total, current, peak = 0, set(), 0
    for i in initially:
        current.add(i)
        total += elements[i]["size"]
    for i in actions:
        if i in current:
            current.remove(i)
            total -= elements[i]["size"]
        else:
            current.add(i)
            total += elements[i]["size"]
        peak = max(peak, total)
    return peak


def block_peak(segments, trace, device):
    """The allocated replay in block sizes: a traced allocation live at the
    end counts its final active_allocated block, every other final
    active_allocated block counts from the start, any other allocation its
    request rounded up to 512 bytes (at least 512)."""
    final = {}
    for seg in segments:
        if seg.get("device", 0) != device:
            continue
        addr = seg["address"]
        for b in seg["blocks"]:
            a = b.get("address", addr)
            if b["state"] == "active_allocated":
                final[a] = b["size"]
            addr = a + b["size"]
    allocs, live = [], {}  # [size, alloc index or None, free index or None]
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            live[e["addr"]] = len(allocs)
            allocs.append([e["size"], i, None])
        elif e["action"] == "free_completed":
            if e["addr"] in live:
                allocs[live.pop(e["addr"])][2] = i
            else:
                allocs.append([e["size"], None, i])
    rounded = [max(512, (a[0] + 511) // 512 * 512) for a in allocs]
    for addr, k in live.items():
        if addr in final:
            rounded[k] = final.pop(addr)
    delta = [0] * len(trace)
    base = sum(final.values())
    for a, size in zip(allocs, rounded):
        if a[1] is None:
            base += size
        else:
            delta[a[1]] += size
        if a[2] is not None:
            delta[a[2]] -= size
    cur, peak = base, None
    for i, e in enumerate(trace):
        cur += delta[i]
        if e["action"] in ("alloc", "free_completed") and (peak is None or cur > peak):
            peak = cur
    return base if peak is None else peak


def from_pickle(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        data = pickle.load(f)
    if isinstance(data, list):
        data = {"segments": data, "device_traces": []}
    segments = data.get("segments", [])
    traces = data.get("device_traces", [])
    ndev = len(traces)
    for s in segments:
        ndev = max(ndev, s.get("device", 0) + 1)
    out = []
    frames, stacks = set(), set()
    walk(data, frames, stacks)
    for d in range(ndev):
        name = "cuda:%d" % d
        segs = [s for s in segments if s.get("device", 0) == d]
        trace = traces[d] if d < len(traces) else []
        blocks = [b for s in segs for b in s["blocks"]]
        out.append("%s segments %d" % (name, len(segs)))
        out.append("%s blocks %d" % (name, len(blocks)))
        for key in ("total_size", "allocated_size", "active_size", "requested_size"):
            out.append("%s %s %d" % (name, key, sum(s.get(key, 0) for s in segs)))
        for st in STATES:
            out.append("%s bytes_%s %d" % (name, st, sum(b["size"] for b in blocks
                                                          if b["state"] == st)))
        out.append("%s trace_entries %d" % (name, len(trace)))
        for a in ACTIONS:
            out.append("%s action_%s %d" % (name, a, sum(1 for t in trace if t["action"] == a)))
        out.append("%s peak_requested %d" % (name, memory_viz_peak(segments, trace, d)))
        peak = block_peak(segments, trace, d)
        out.append("%s peak_allocated %d" % (name, peak))
        allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
        out.append("%s peak_allocated_not_below_allocated %s" % (name, peak >= allocated))
    out.append("distinct_frames %d" % len(frames))
    out.append("distinct_stacks %d" % len(stacks))
    return out


def from_report(path):
    with open(path) as f:
        doc = json.load(f)
    table = next(t for t in doc["tables"] if t["name"] == "memory_summary")
    out = []
    for r in table["rows"]:
        name = r["device"]
        if name == "all":
            out.append("distinct_frames %d" % r["distinct_frames"])
            out.append("distinct_stacks %d" % r["distinct_stacks"])
            continue
        out.append("%s segments %d" % (name, r["segments"]))
        out.append("%s blocks %d" % (name, r["blocks"]))
        for key, col in (("total_size", "reserved_bytes"), ("allocated_size", "allocated_bytes"),
                         ("active_size", "active_bytes"), ("requested_size", "requested_bytes")):
            out.append("%s %s %d" % (name, key, r[col]))
        for st in STATES:
            out.append("%s bytes_%s %d" % (name, st, r[st + "_bytes"]))
        out.append("%s trace_entries %d" % (name, r["trace_entries"]))
        for a in ACTIONS:
            out.append("%s action_%s %d" % (name, a, r[a]))
        out.append("%s peak_requested %d" % (name, r["peak_requested_bytes"]))
        out.append("%s peak_allocated %d" % (name, r["peak_allocated_bytes"]))
        out.append("%s peak_allocated_not_below_allocated %s" %
                   (name, r["peak_allocated_bytes"] >= r["active_allocated_bytes"]))
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("pickle", "report"):
        sys.exit(__doc__)
    lines = from_pickle(sys.argv[2]) if sys.argv[1] == "pickle" else from_report(sys.argv[2])
    print("\n".join(sorted(lines)))


if __name__ == "__main__":
    main()

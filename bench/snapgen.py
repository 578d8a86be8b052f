#!/usr/bin/env python3
"""Write a large synthetic CUDA memory snapshot by repeating a real one's
trace entries, encoded the way Python's pickler (protocol 4) encodes real
snapshots: FRAMEs of about 64 KiB, MEMOIZE after every dict, list and
string, frame dicts shared through the memo (BINGET / LONG_BINGET), and a
new frame list and entry dict for every repeated entry. Times advance with
each repetition so the trace stays in time order.

  snapgen.py --source REAL.pickle --size-mb 1024 -o OUT.pickle

Standard library only.
"""
import argparse
import pickle
import struct
import sys


class Writer:
    """A small protocol-4 pickler with Python's memo and batching rules."""

    def __init__(self):
        self.buf = bytearray()
        self.memo = {}          # id(obj) or ("s", text) -> memo index
        self.keep = []          # objects memoized by id stay alive
        self.n = 0              # MEMOIZE count

    def memoize(self, key, obj=None):
        self.memo[key] = self.n
        self.n += 1
        if obj is not None:
            self.keep.append(obj)
        self.buf += b"\x94"

    def get(self, idx):
        if idx < 256:
            self.buf += b"h" + bytes([idx])
        else:
            self.buf += b"j" + struct.pack("<I", idx)

    def save_int(self, v):
        if 0 <= v < 256:
            self.buf += b"K" + bytes([v])
        elif 0 <= v < 65536:
            self.buf += b"M" + struct.pack("<H", v)
        elif -2**31 <= v < 2**31:
            self.buf += b"J" + struct.pack("<i", v)
        else:
            n = (v.bit_length() + 8) // 8
            self.buf += b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)

    def save(self, obj):
        if obj is None:
            self.buf += b"N"
        elif obj is True or obj is False:
            self.buf += b"\x88" if obj else b"\x89"
        elif isinstance(obj, int):
            self.save_int(obj)
        elif isinstance(obj, float):
            self.buf += b"G" + struct.pack(">d", obj)
        elif isinstance(obj, str):
            key = ("s", obj)
            if key in self.memo:
                return self.get(self.memo[key])
            b = obj.encode("utf-8", "surrogatepass")
            if len(b) < 256:
                self.buf += b"\x8c" + bytes([len(b)]) + b
            else:
                self.buf += b"X" + struct.pack("<I", len(b)) + b
            self.memoize(key)
        elif isinstance(obj, tuple):
            for x in obj:
                self.save(x)
            self.buf += {0: b")", 1: b"\x85", 2: b"\x86", 3: b"\x87"}[len(obj)]
            self.memoize(id(obj), obj)
        elif isinstance(obj, list):
            if id(obj) in self.memo:
                return self.get(self.memo[id(obj)])
            self.buf += b"]"
            self.memoize(id(obj), obj)
            self.batch(obj, False)
        elif isinstance(obj, dict):
            if id(obj) in self.memo:
                return self.get(self.memo[id(obj)])
            self.buf += b"}"
            self.memoize(id(obj), obj)
            self.batch(list(obj.items()), True)
        else:
            raise TypeError(type(obj))

    def batch(self, items, pairs):
        for i in range(0, len(items), 1000):
            chunk = items[i:i + 1000]
            if len(chunk) > 1:
                self.buf += b"("
            for x in chunk:
                if pairs:
                    self.save(x[0])
                    self.save(x[1])
                else:
                    self.save(x)
            self.buf += (b"u" if pairs else b"e") if len(chunk) > 1 else (b"s" if pairs else b"a")

    def take(self):
        b = bytes(self.buf)
        self.buf.clear()
        return b


class Framer:
    def __init__(self, out):
        self.out = out
        self.cur = bytearray()
        self.total = 0

    def write(self, b):
        self.cur += b
        if len(self.cur) >= 65536:
            self.flush()

    def flush(self):
        if self.cur:
            self.out.write(b"\x95" + struct.pack("<Q", len(self.cur)))
            self.out.write(self.cur)
            self.total += 9 + len(self.cur)
            self.cur = bytearray()


def long1(v):
    n = (v.bit_length() + 8) // 8
    return b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True, help="a real snapshot with trace entries")
    ap.add_argument("--size-mb", type=float, default=1024, help="approximate output size")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()

    with open(a.source, "rb") as f:
        snap = pickle.load(f)
    trace = snap["device_traces"][0]
    if not trace:
        sys.exit("the source snapshot has no trace entries")
    times = [e["time_us"] for e in trace if "time_us" in e]
    span = (max(times) - min(times) + 1000) if times else 1000
    target = int(a.size_mb * 1e6)

    # Repetitions after the first leave out frees of memory allocated before
    # the trace and allocations the trace never frees, so that every
    # repetition allocates and frees the same memory and the replayed peak
    # stays that of the real run.
    live, skip = {}, set()
    for i, e in enumerate(trace):
        act, addr = e.get("action"), e.get("addr")
        if act == "alloc":
            live[addr] = i
        elif act in ("free_requested", "free_completed"):
            if addr in live:
                if act == "free_completed":
                    del live[addr]
            else:
                skip.add(i)
    skip.update(live.values())

    w = Writer()
    out = open(a.output, "wb")
    out.write(b"\x80\x04")
    fr = Framer(out)
    # Top-level dict, segments as they are, then device_traces[0].
    w.buf += b"}"
    w.memoize(id(snap), snap)
    w.buf += b"("
    w.save("segments")
    w.save(snap["segments"])
    w.save("device_traces")
    w.buf += b"]"
    w.memoize(id(snap["device_traces"]), snap["device_traces"])
    w.buf += b"]"
    w.memoize(id(trace), trace)
    fr.write(w.take())

    # Repetition 0 registers every string and frame dict in the memo;
    # repetition 1 builds per-entry templates, split around time_us, that
    # later repetitions write again with a shifted time. A template holds
    # MEMOIZE opcodes (its dict and list), which the memo count follows.
    templates = {}
    pending = 0
    count = 0
    rep = 0
    while True:
        for i, e in enumerate(trace):
            if rep > 0 and i in skip:
                continue
            if pending == 0:
                fr.write(b"(")
            if rep < 2:
                fresh = {k: (list(v) if k == "frames" else v) for k, v in e.items()}
                n0 = w.n
                w.buf += b"}"
                w.memoize(id(fresh), fresh)
                w.buf += b"("
                before = None
                for k, v in fresh.items():
                    w.save(k)
                    if k == "time_us" and rep == 1:
                        before = w.take()
                        continue
                    w.save(v + rep * span if k == "time_us" else v)
                w.buf += b"u"
                if rep == 1:
                    after = w.take()
                    templates[i] = (before, after, e.get("time_us"), w.n - n0)
                    fr.write(after if before is None else before + long1(e["time_us"] + span) + after)
                else:
                    fr.write(w.take())
            else:
                before, after, t, memos = templates[i]
                fr.write(after if before is None else before + long1(t + rep * span) + after)
                w.n += memos
            count += 1
            pending += 1
            if pending == 1000:
                fr.write(b"e")
                pending = 0
        rep += 1
        if fr.total + len(fr.cur) >= target:
            break
    if pending:
        fr.write(b"e")
    fr.write(b"a")  # append device 0's list to device_traces
    if "allocator_settings" in snap:
        w.save("allocator_settings")
        w.save(snap["allocator_settings"])
    if "external_annotations" in snap:
        w.save("external_annotations")
        w.save(snap["external_annotations"])
    w.buf += b"u."
    fr.write(w.take())
    fr.flush()
    out.close()
    print("%s: %.1f MB, %d trace entries (%d repetitions of %d)"
          % (a.output, fr.total / 1e6, count, rep, len(trace) - len(skip)), file=sys.stderr)


if __name__ == "__main__":
    main()

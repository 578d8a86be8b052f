#!/usr/bin/env python3
"""The four recorded argument lists of ops, printed by torchtop's
unique-args table, against what Python itself prints for them: TraceLens
reads the trace with json.load, turns lists into tuples (list_to_tuple) and
prints str() of the result. The values are random (fixed seed): strings of
every kind of character, both quotes, backslashes, floats from random bit
patterns, nested lists, dicts. Prints 'N passed, N failed'."""
import argparse
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from checks import check, summary

TWO53 = 2 ** 53


def list_to_tuple(obj):
    if isinstance(obj, list):
        return tuple(list_to_tuple(item) for item in obj)
    return obj


def rand_char(rng):
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice("'\"\\")
    if kind == 1:
        return chr(rng.randrange(1, 0x20))  # C0 controls (NUL is read as U+2400)
    if kind == 2:
        return chr(rng.randrange(0x7f, 0x100))  # DEL, C1, Latin-1
    if kind == 3:
        cp = rng.randrange(0x100, 0x10000)
        return chr(cp) if not 0xD800 <= cp < 0xE000 else "x"  # no surrogates
    if kind == 4:
        return chr(rng.randrange(0x10000, 0x110000))
    if kind == 5:
        return rng.choice("\u200b\u202e\u2028\u3000\ufeff\u00ad\u00a0\ue000\u0378")
    return chr(rng.randrange(0x20, 0x7f))


def rand_str(rng):
    return "".join(rand_char(rng) for _ in range(rng.randrange(0, 12)))


def rand_float(rng):
    while True:
        d = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if rng.random() < 0.5:
            d = rng.uniform(-1e6, 1e6) * 10.0 ** rng.randrange(-30, 30)
        # The parser keeps no trace of how a number was written, so an
        # integral float below 2^53 reads back as an int: not compared.
        if math.isfinite(d) and not (d == math.floor(d) and abs(d) < TWO53):
            return d


def rand_value(rng, depth=0):
    kind = rng.randrange(10 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randrange(-TWO53 + 1, TWO53)
    if kind == 3:
        return rand_float(rng)
    if kind in (4, 5):
        return rand_str(rng)
    if kind in (6, 7, 8):
        return [rand_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))]
    return {rand_str(rng): rand_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


KEYS = ["Input Dims", "Input type", "Input Strides", "Concrete Inputs"]


def make_ops(rng, n):
    ops = [{"Input Dims": [[], []], "Input type": ["", ""], "Concrete Inputs": ["", "it's"]},
           {"Input Dims": [[2, 3]], "Input type": ["say \"hi\""], "Input Strides": [[3, 1]],
            "Concrete Inputs": ["it's \"both\"", "back\\slash", "\u00e9\u202e\u77e9"]}]
    for _ in range(n):
        args = {}
        for k in KEYS:
            if rng.random() < 0.85:
                args[k] = [rand_value(rng, 1) for _ in range(rng.randrange(0, 6))]
        ops.append(args)
    return ops


def make_trace(ops):
    events = []
    for i, args in enumerate(ops):
        t0 = i * 100
        events.append({"ph": "X", "cat": "cpu_op", "name": "op%d" % i, "pid": 1, "tid": 1,
                       "ts": t0, "dur": 50, "args": args})
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                       "tid": 1, "ts": t0 + 10, "dur": 5, "args": {"correlation": i + 1}})
        events.append({"ph": "X", "cat": "kernel", "name": "k%d" % i, "pid": 0, "tid": 7,
                       "ts": t0 + 20, "dur": 20,
                       "args": {"device": 0, "stream": 7, "correlation": i + 1}})
    return {"traceEvents": events}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--ops", type=int, default=400)
    a = ap.parse_args()
    rng = random.Random(12)
    ops = make_ops(rng, a.ops)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "args.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(make_trace(ops), f, ensure_ascii=rng.random() < 0.5)
        # What TraceLens has: the file read back by json.load.
        with open(path, encoding="utf-8") as f:
            events = json.load(f)["traceEvents"]
        p = subprocess.run([a.torchtop, "report", "-q", "--no-header", "-f", "json", "-t",
                            "unique-args", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 0, "torchtop exit %d: %s" % (p.returncode, p.stderr[:300]))
    rows = {r["name"]: r for r in json.loads(p.stdout.decode("utf-8"))["tables"][0]["rows"]}
    check(len(rows) == len(ops), "%d rows for %d ops" % (len(rows), len(ops)))
    for e in events:
        if e["cat"] != "cpu_op":
            continue
        row = rows.get(e["name"])
        if not row:
            check(False, "%s: no row" % e["name"])
            continue
        for k in KEYS:
            want = str(list_to_tuple(e["args"][k])) if k in e["args"] else ""
            check(row[k] == want, "%s %s: torchtop %r, Python %r" % (e["name"], k, row[k], want))
    check(rows["op0"]["Concrete Inputs"] == "('', \"it's\")",
          "op0: %r" % rows["op0"]["Concrete Inputs"])
    return summary()


if __name__ == "__main__":
    sys.exit(main())

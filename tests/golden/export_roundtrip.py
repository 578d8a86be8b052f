#!/usr/bin/env python3
"""`torchtop export --chrome` of a whole trace gives back the trace: every
event and flow point, every field, every value with its JSON type (numbers
compared by value: 10.500 and 10.5 are the same number; a number that
differs only beyond a double's precision counts as the same). Checked on
every shared trace and on a made-up one holding what real traces rarely
do: global instants, B/E and async events, flow ids that are strings or
out of range, quoted tids, unknown keys, counters without a tid,
metadata without a ts and repeated verbatim. A window that covers the
whole trace keeps everything too (made-up and smaller traces). Prints 'N
passed, N failed'."""
import argparse
import collections
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary

MADE_UP = r"""{"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10.5, "dur": 2,
   "args": {"big": 18446744073709551615, "neg": -9223372036854775808, "f": 0.1, "e": 1e300,
            "nested": [1, 2.5, {"a": null}], "s": "x\u0000y", "t": true, "u": false}},
  {"ph": "i", "s": "g", "name": "Iteration Start", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 11},
  {"ph": "i", "name": "no scope", "pid": 1, "tid": 1, "ts": 11.25},
  {"ph": "I", "s": "p", "name": "process scope", "pid": 1, "tid": 1, "ts": 12},
  {"ph": "B", "name": "begin", "pid": 1, "tid": 2, "ts": 13},
  {"ph": "E", "pid": 1, "tid": 2, "ts": 14},
  {"ph": "b", "cat": "async", "name": "as", "id": "0x1f", "pid": 1, "tid": 2, "ts": 15},
  {"ph": "n", "cat": "async", "name": "as", "id": "0x1f", "pid": 1, "tid": 2, "ts": 15.5},
  {"ph": "e", "cat": "async", "name": "as", "id": "0x1f", "pid": 1, "tid": 2, "ts": 16},
  {"ph": "s", "cat": "ac2g", "name": "f", "id": "0xABC", "pid": 1, "tid": 1, "ts": 10.5, "bp": "e"},
  {"ph": "f", "cat": "ac2g", "name": "f", "id": "0xABC", "pid": 1, "tid": 1, "ts": 12, "bp": "e"},
  {"ph": "s", "cat": "fwdbwd", "name": "fb", "id": 18446744073709551615, "pid": 1, "tid": 1, "ts": 10.5},
  {"ph": "f", "cat": "fwdbwd", "name": "fb", "id": -3, "pid": 1, "tid": 1, "ts": 12, "bp": "s"},
  {"ph": "t", "cat": "x", "name": "fb", "id2": {"local": "0x1"}, "pid": 1, "tid": 1, "ts": 12},
  {"ph": "s", "cat": "ac2g", "name": "plain", "id": 7, "pid": 1, "tid": "24572", "ts": 20, "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "quoted tid", "pid": 1, "tid": "24572", "ts": 20, "dur": 1},
  {"ph": "X", "cat": "cpu_op", "name": "zero-padded tid", "pid": 1, "tid": "0024572", "ts": 20, "dur": 1},
  {"ph": "X", "cat": "", "name": "empty cat", "pid": 1, "tid": 1, "ts": 21, "dur": 1},
  {"ph": "X", "name": "no cat", "pid": 1, "tid": 1, "ts": 21.123, "dur": 0.001},
  {"ph": "X", "cat": "cpu_op", "name": "four decimals", "pid": 1, "tid": 1, "ts": 21.1234, "dur": 1},
  {"ph": "X", "cat": "cpu_op", "name": "extra keys", "pid": 1, "tid": 1, "ts": 22, "dur": 1,
   "tts": 5, "cname": "good"},
  {"ph": "X", "cat": "cpu_op", "name": "no dur", "pid": 1, "tid": 1, "ts": 23},
  {"ph": "C", "name": "counter", "pid": 0, "ts": 24, "args": {"v": 1}},
  {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "no ts"}},
  {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "ts": 0, "args": {"name": "t"}},
  {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "ts": 0, "args": {"name": "t"}},
  {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "ts": 0, "args": {"name": "t"}},
  {"ph": "X",
     "cat": "cpu_op", "name": "spaced  name", "pid": 1,
     "tid": 1, "ts": 25, "dur": 1},
  {"ph": "Xyz", "name": "long ph", "pid": 1, "tid": 1, "ts": 27, "dur": 1},
  {"ph": "X", "cat": "cpu_op", "name": "\u00e9\ud83d\ude00", "pid": 1.0, "tid": -1, "ts": -5, "dur": 1e1},
  {"ph": "X", "cat": "cpu_op", "name": 7, "pid": 1, "tid": 1, "ts": 30, "dur": "2"}
]}"""


def number(text):
    """A JSON fraction as a value: whole ones as integers, so that 10.000
    and 10 are one number (as 10.500 and 10.5 are)."""
    f = float(text)
    return int(f) if f.is_integer() and abs(f) < 2 ** 63 else f


# Only phases torchtop does not analyse, as a bare array.
OTHERS_ONLY = r"""[{"ph": "B", "name": "a", "pid": 1, "tid": 1, "ts": 1},
 {"ph": "E", "pid": 1, "tid": 1, "ts": 2}]"""


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return json.loads(text, parse_float=number)


def canon(v):
    """Hashable and type-keeping: objects with sorted keys; "1" and 1 differ."""
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def events(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def compare(label, orig, got):
    want, have = events(orig), events(got)
    cw = collections.Counter(canon(e) for e in want)
    ch = collections.Counter(canon(e) for e in have)
    missing, extra = cw - ch, ch - cw
    check(not missing and not extra and len(want) == len(have),
          "%s: %d events in, %d out; %d missing, %d changed or added; first missing %s, first "
          "added %s" % (label, len(want), len(have), sum(missing.values()), sum(extra.values()),
                        str(next(iter(missing), ""))[:300], str(next(iter(extra), ""))[:300]))
    # Spans, instants and counters come out in their file order.
    timed = ("X", "i", "I", "C")
    order_in = [canon(e) for e in want if isinstance(e, dict) and e.get("ph") in timed]
    order_out = [canon(e) for e in have if isinstance(e, dict) and e.get("ph") in timed]
    check(order_in == order_out, "%s: spans, instants and counters out of file order" % label)
    if isinstance(orig, dict):
        for k, v in orig.items():
            if k != "traceEvents":
                check(isinstance(got, dict) and canon(got.get(k)) == canon(v),
                      "%s: top-level key %s changed" % (label, k))


def roundtrip(tt, trace, tmp, label, window):
    orig = load(trace)
    runs = [([], "whole")]
    if window:
        runs.append((["--window", "-1e12:1e12"], "window over everything"))
    for args, what in runs:
        # gzip output once: the small traces' (it is the same writer).
        gz = window and trace.endswith(".gz") and what == "whole"
        out = os.path.join(tmp, "out.json.gz" if gz else "out.json")
        p = subprocess.run([tt, "export", "-q", "--chrome", out, *args, trace],
                           stderr=subprocess.PIPE)
        # A made-up trace may hold soft faults (exit 2); the export is whole.
        check(p.returncode in (0, 2), "%s (%s): export exit %d: %s" %
              (label, what, p.returncode, p.stderr.decode()[:200]))
        if p.returncode in (0, 2):
            compare("%s (%s)" % (label, what), orig, load(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        made = os.path.join(tmp, "made-up.json")
        with open(made, "w", encoding="utf-8") as f:
            f.write(MADE_UP)
        roundtrip(a.torchtop, made, tmp, "made-up", True)
        others = os.path.join(tmp, "others-only.json")
        with open(others, "w", encoding="utf-8") as f:
            f.write(OTHERS_ONLY)
        roundtrip(a.torchtop, others, tmp, "others only", False)
        if a.shared:
            for trace in sorted(glob.glob(os.path.join(a.shared, "traces", "*.json*"))):
                # The window's selection path on the smaller traces only:
                # reading the big ones back twice would double the time.
                small = os.path.getsize(trace) < 1000000
                roundtrip(a.torchtop, trace, tmp, os.path.basename(trace), small)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

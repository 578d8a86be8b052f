#!/usr/bin/env python3
"""Tile a real trace to a target size, as users' long traces look: the
events repeated with `ts` shifted by the trace's span per copy and the ids
that link events (correlation, External id, Sequence number, Python id and
parent id, Ev Idx, flow id and bind_id) offset per copy, so that no two
copies share a link. Metadata events ("ph": "M") are written once. The last
copy is cut at an event boundary once the output reaches the target size.

Two styles of event text:
  kineto  (default) the numbers' text is kept as written (a shift adds whole
          microseconds to the integer part), so each copy's times are exact;
  python  each event as a Python script that rewrites traces writes it:
          json.loads, the times shifted by k times the span as Python
          computes it (t1 - t0 + 1, a float: 1419117298792.78 plus 1294791.227
          is 1419118593584.0071), json.dumps (", " and ": " separators,
          floats in their shortest repr, up to 17 digits, 1e-05).

    bench/tile.py [--style kineto|python] SIZE OUT [SOURCE]
                                        SIZE: bytes with k/M/G (binary), as torchtop gen,
                                        or xN for N whole copies
                                        OUT: .json or .json.gz; SOURCE: .json or .json.gz

Prints the copies, events and bytes written on standard error."""
import decimal
import gzip
import json
import math
import os
import re
import sys

# The shared traces sit beside the checkout, or where TORCHTOP_SHARED says.
SHARED = os.environ.get("TORCHTOP_SHARED",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
DEFAULT_SOURCE = os.path.join(SHARED, "traces", "tracelens-h100-owlv2-infer-large.json.gz")

# Keys whose integer values are offset per copy. A value of 0 or below is
# left alone: Kineto writes 0 and -1 for "no link".
ID_KEYS = ("correlation", "External id", "external id", "Sequence number", "Python id",
           "Python parent id", "Ev Idx", "id", "bind_id")
NUM = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
FIELD = re.compile(r'(?<![\\\w])"(ts|' + "|".join(re.escape(k) for k in ID_KEYS) + r')"(\s*:\s*)(' +
                   NUM + r")")


def parse_size(s):
    mul = {"k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20, "g": 1 << 30, "G": 1 << 30}
    if s and s[-1] in mul:
        return int(float(s[:-1]) * mul[s[-1]])
    return int(float(s))


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", "surrogateescape")


def split_events(text):
    """(head, [(start, end, event)], tail): head ends after '[' of
    traceEvents, tail starts at its ']'."""
    key = re.search(r'"traceEvents"\s*:\s*\[', text)
    if not key:
        sys.exit("tile.py: no \"traceEvents\" array in the source")
    dec = json.JSONDecoder()
    pos = key.end()
    spans = []
    n = len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= n:
            sys.exit("tile.py: the source's traceEvents array does not end")
        if text[pos] == "]":
            break
        obj, end = dec.raw_decode(text, pos)
        spans.append((pos, end, obj))
        pos = end
    return text[:key.end()], spans, text[pos:]


def shift_number(lit, add):
    """lit + add as JSON text; add is an integer."""
    if add == 0:
        return lit
    if lit[0] != "-" and "e" not in lit and "E" not in lit:
        dot = lit.find(".")
        if dot < 0:
            return str(int(lit) + add)
        return str(int(lit[:dot]) + add) + lit[dot:]
    return str(decimal.Decimal(lit) + add)


def shift_value(v, add):
    return v + add if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def python_style(ev, offset, k):
    """Event ev (parsed) of copy k, shifted as Python adds numbers, as
    json.dumps writes it (default options)."""
    if k:
        ev = dict(ev)
        ev["ts"] = shift_value(ev.get("ts"), offset["span"] * k) if "ts" in ev else None
        if ev["ts"] is None:
            del ev["ts"]
        args = ev.get("args")
        for d in (ev, dict(args) if isinstance(args, dict) else None):
            if d is None:
                continue
            for key in ID_KEYS:
                v = d.get(key)
                if isinstance(v, int) and not isinstance(v, bool) and v > 0:
                    d[key] = v + offset[key] * k
            if d is not ev:
                ev["args"] = d
    return json.dumps(ev)


def main():
    args = sys.argv[1:]
    style = "kineto"
    if args and args[0].startswith("--style"):
        style = args[0].split("=", 1)[1] if "=" in args[0] else (args[1] if len(args) > 1 else "")
        args = args[1:] if "=" in args[0] else args[2:]
    if style not in ("kineto", "python") or len(args) not in (2, 3):
        sys.exit(__doc__)
    whole = int(args[0][1:]) if args[0].startswith("x") else None
    target = parse_size(args[0]) if whole is None else 1 << 62
    out_path = args[1]
    text = read_text(args[2] if len(args) == 3 else DEFAULT_SOURCE)
    head, spans, tail = split_events(text)

    t0, t1 = math.inf, -math.inf
    top = {k: 0 for k in ID_KEYS}
    for _, _, e in spans:
        ts = e.get("ts")
        if isinstance(ts, (int, float)):
            t0 = min(t0, ts)
            dur = e.get("dur")
            t1 = max(t1, ts + (dur if isinstance(dur, (int, float)) else 0))
        for src in (e, e.get("args") if isinstance(e.get("args"), dict) else {}):
            for k in ID_KEYS:
                v = src.get(k)
                if isinstance(v, int) and v > top[k]:
                    top[k] = v
    if t0 > t1:
        sys.exit("tile.py: the source has no timed events")
    span_us = int(math.ceil(t1 - t0)) + 1
    offset = {k: v + 1 for k, v in top.items()}
    offset["ts"] = span_us
    offset["span"] = t1 - t0 + 1

    sep = ",\n    "
    first = [text[a:b] for a, b, _ in spans]
    rest = [text[a:b] for a, b, e in spans if e.get("ph") != "M"]
    first_obj = [e for _, _, e in spans]
    rest_obj = [e for _, _, e in spans if e.get("ph") != "M"]

    def sub(m, k):
        v = m.group(3)
        key = m.group(1)
        if key != "ts" and (not v.isdigit() or v == "0"):
            return m.group(0)
        return '"' + key + '"' + m.group(2) + shift_number(v, offset[key] * k)

    opener = gzip.open if out_path.endswith(".gz") else open
    written = 0
    events = 0
    copies = 0
    with opener(out_path, "wt", encoding="utf-8", errors="surrogateescape", newline="") as out:
        out.write(head + "\n    ")
        written += len(head) + 5
        k = 0
        while written < target and (whole is None or k < whole):
            if style == "python":
                src = [python_style(e, offset, k) for e in (rest_obj if k else first_obj)]
            else:
                src = first if k == 0 else rest
                if k:
                    src = [FIELD.sub(lambda m: sub(m, k), ev) for ev in src]
            n = 0
            size = 0
            for ev in src:
                add = len(ev) + (len(sep) if events + n else 0)
                if written + size + add > target and (events + n):
                    break
                size += add
                n += 1
            if n == 0:
                break
            body = sep.join(src[:n])
            if events:
                body = sep + body
            out.write(body)
            written += size
            events += n
            copies += 1
            k += 1
            if n < len(src):
                break
        out.write("\n  " + tail)
        written += len(tail) + 3
    print("tile.py: %s style, %d copies (the last may be cut), %d events, %d bytes of JSON, span %d us per copy"
          % (style, copies, events, written, span_us), file=sys.stderr)


if __name__ == "__main__":
    main()

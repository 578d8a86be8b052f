#!/usr/bin/env python3
"""Writes the malformed-input corpus (run from tests/bad/). Every file is
small and made here; expected.txt lists what torchtop must say of each."""
import gzip
import io
import json
import os
import zlib

E = '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10.5, "dur": 2}'


def doc(*events, tail=""):
    return '{"traceEvents": [' + ", ".join(events) + "]" + tail + "}"


def ev(**kv):
    base = {"ph": '"X"', "cat": '"cpu_op"', "name": '"op"', "pid": "1", "tid": "1", "ts": "1", "dur": "1"}
    base.update(kv)
    return "{" + ", ".join('"%s": %s' % (k, v) for k, v in base.items() if v is not None) + "}"


def sums_past_int64():
    """Values that fit one by one but not added up: [memory] Bytes of 2^63 - 1,
    2^63 - 1 and 2^63 under one op, three kernels of 4e15 us launched by one
    op, a transposed convolution with padding -99999999999 (no convolution
    has it) and a conv2d with padding 2^62 (FLOPs in 128 bits)."""
    evs = [{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 0,
            "dur": 10}]
    for b in (2**63 - 1, 2**63 - 1, 2**63):
        evs.append({"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1,
                    "tid": 1, "ts": 1, "args": {"Bytes": b, "Device Type": 0}})
    evs.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20,
                "dur": 10, "args": {"Input Dims": [[4, 4], [4, 4]], "Input type": ["float", "float"]}})
    for c in (1, 2, 3):
        evs.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                    "ts": 21 + c, "dur": 1, "args": {"correlation": c}})
        evs.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 30 + c,
                    "dur": 4000000000000000, "args": {"correlation": c, "device": 0, "stream": 7}})
    scalars = ["", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"]
    evs.append({"ph": "X", "cat": "cpu_op", "name": "aten::convolution", "pid": 1, "tid": 1, "ts": 40,
                "dur": 10, "args": {"Input Dims": [[1, 4, 3, 3], [4, 2, 2, 2]] + [[]] * 7,
                                    "Input type": ["float", "float"] + scalars,
                                    "Concrete Inputs": ["", "", "", "[1, 1]", "[-99999999999]",
                                                        "[1, 1]", "True", "[0, 0]", "1"]}})
    evs.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                "ts": 41, "dur": 1, "args": {"correlation": 4}})
    evs.append({"ph": "X", "cat": "kernel", "name": "conv", "pid": 0, "tid": 7, "ts": 50, "dur": 5,
                "args": {"correlation": 4, "device": 0, "stream": 7}})
    evs.append({"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 1, "tid": 1, "ts": 60,
                "dur": 10, "args": {"Input Dims": [[1, 3, 8, 8], [4, 3, 3, 3]] + [[]] * 5,
                                    "Input type": ["float", "float"] + scalars[:5],
                                    "Concrete Inputs": ["", "", "", "[1, 1]",
                                                        "[4611686018427387904]", "[1, 1]", "1"]}})
    return json.dumps({"profile_memory": 1, "with_flops": 1,
                       "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
                       "traceEvents": evs})


files = {
    "empty.json": "",
    "whitespace.json": "  \n\t \n",
    "not-json.txt": "hello, this is not a trace\n",
    "binary.bin": bytes(range(256)) * 4,
    "json-number.json": "42\n",
    "json-not-trace.json": '{"schemaVersion": 1, "deviceProperties": []}\n',
    "trace-events-not-array.json": '{"traceEvents": 5}\n',
    "event-not-object.json": '{"traceEvents": [1, 2]}\n',
    "event-string.json": '{"traceEvents": ["X"]}\n',
    "missing-ph.json": doc(E, ev(ph=None)),
    "ph-number.json": doc(E, ev(ph="5")),
    "ts-string.json": doc(E, ev(ts='"soon"')),
    "ts-missing.json": doc(E, ev(ts=None)),
    "ts-overflow.json": doc(E, ev(ts="1e400")),
    "ts-huge.json": doc(E, ev(ts="1e30")),
    "ts-dur-8.9e15.json": doc(E, ev(ts="8.9e15", dur="8.9e15")),
    "end-past-2pow62.json": doc(E, ev(ts="4e15", dur="1e15")),
    "sums-past-int64.json": sums_past_int64(),
    "dur-negative.json": doc(E, ev(dur="-3")),
    "dur-object.json": doc(E, ev(dur="{}")),
    "pid-array.json": doc(E, ev(pid="[1]")),
    "pid-huge.json": doc(E, ev(pid="1e300")),
    "tid-bool.json": doc(E, ev(tid="true")),
    "args-array.json": doc(E, ev(args="[1, 2]")),
    "cat-number.json": doc(E, ev(cat="7")),
    "nan-literal.json": doc(E, ev(ts="NaN")),
    "double-comma.json": '{"traceEvents": [' + E + ', {"ph": "X",, "ts": 1}]}',
    "mismatched-brackets.json": '{"traceEvents": [' + E + ', {"ph": "X", "args": {"a": [1}}]}',
    "bad-escape.json": '{"traceEvents": [' + E + ', {"ph": "X", "name": "\\x41", "ts": 1}]}',
    "nul-byte.json": ('{"traceEvents": [' + E + ', {"ph": "X",\x00 "ts": 1}]}'),
    "deep-nesting.json": '{"traceEvents": [' + E + ', {"ph": "X", "ts": 1, "args": {"a": ' + "[" * 1500 + "]" * 1500 + "}}]}",
    "truncated-mid-event.json": '{"traceEvents": [' + E + ", " + E + ', {"ph": "X", "cat": "cpu',
    "truncated-after-event.json": '{"traceEvents": [' + E + ", " + E,
    "truncated-in-key.json": '{"traceEvents": [' + E + '], "deviceProp',
    "truncated-in-value.json": '{"traceEvents": [' + E + '], "deviceProperties": [{"id": 0, ',
    "no-colon.json": '{"traceEvents" [' + E + "]}",
    "key-not-string.json": '{traceEvents: [' + E + "]}",
    "top-value-invalid.json": '{"traceEvents": [' + E + '], "schemaVersion": 1x}',
    "unknown-phase-only.json": doc('{"ph": "Q", "ts": 1}'),
    "invalid-utf8.json": doc(E, ev(name='"bad \xff\xfe utf8 \xc3"')),
    "escapes-in-name.json": doc(E, ev(name='"\\u001b[31mred\\u001b[0m \\u202eevil\\u0007"')),
    "long-name.json": doc(E, ev(name='"' + "x" * 100000 + '"')),
    "escape-in-key.json": '{"traceEvents": [' + E + '], "evil\x1b[31mkey\x07": 1x}',
    "junk-after-document.json": doc(E, E) + "\n}\n",
    "junk-after-array.json": "[" + E + "] x\n",
    "name-number.json": doc(E, ev(name="123")),
    "dur-string.json": doc(E, ev(dur='"5"')),
    "ts-number-string.json": doc(E, ev(ts='"7.5"')),
    "device-properties-number.json": '{"traceEvents": [' + E + '], "deviceProperties": 5}\n',
    "two-trace-events.json": '{"traceEvents": [' + E + '], "traceEvents": [' + E + "]}\n",
    "byte-order-mark.json": "\ufeff" + doc(E),
    "open-brace.json": "{",
    "formula-names.json": doc(E, ev(name='"=HYPERLINK(\\"http://example.invalid\\",\\"x\\")"'),
                              ev(name='"+cmd|\' /C calc\'!A0"'), ev(name='"-2+3"'),
                              ev(name='"@SUM(1,2)"'), ev(name='"-5"'), ev(name='"+1.5e3"')),
    "deep-nesting-valid.json": '{"traceEvents": [' + E + ', {"ph": "X", "ts": 1, "args": {"a": ' + "[" * 100000 + "]" * 100000 + "}}]}",
    "lone-surrogate.json": doc(E, ev(name='"a\\ud800b"')),
    "lone-low-surrogate.json": doc(E, ev(name='"a\\udc00b"')),
    "surrogate-pair.json": doc(E, ev(name='"a\\ud83d\\ude00b"')),
    "nul-in-top-key.json": '{"traceEvents": [' + E + '], "sche\x00ma": 1}',
    "number-leading-zero.json": doc(E, ev(ts="0001")),
    "number-trailing-dot.json": doc(E, ev(dur="5.")),
    "number-dot-exponent.json": doc(E, ev(args='{"x": [1, 2.e3]}')),
    "number-leading-zero-top.json": '{"traceEvents": [' + E + '], "schemaVersion": 01}',
    "numbers-valid.json": doc(E, ev(args='{"a": [0, -0, 0.5, -0.5, 1e05, 1E-05, 10, 100.25], '
                                     '"s": "2024-01-05 v1. -.5 0001"}')),
}


def write(name, data):
    if isinstance(data, str):
        data = data.encode("latin-1") if any(ord(c) > 127 for c in data) and "utf8" in name else data.encode()
    with open(name, "wb") as f:
        f.write(data)


for name, data in files.items():
    write(name, data)

# gzip cases
good = doc(*([E] * 200)).encode()
gz = gzip.compress(good, mtime=0)
write("truncated.json.gz", gz[: len(gz) // 2])
# A bad event near the start, then a cut at the end: the bad event is the
# fault, as the first in the file, and what is said of the input read
# (bytes, truncation) is the same with any thread count. In one batch, and
# over several (0.7 MB of JSON).
bad_start = [E] * 5 + [ev(dur="-3")]
write("bad-event-then-cut.json.gz", gzip.compress(doc(*(bad_start + [E] * 200)).encode(), mtime=0)[:-20])
write("bad-event-then-cut-big.json.gz", gzip.compress(doc(*(bad_start + [E] * 7000)).encode(), mtime=0)[:-20])
corrupt = bytearray(gz)
for i in range(30, 60):
    corrupt[i] ^= 0x5A
write("corrupt.json.gz", bytes(corrupt))
write("garbage-in-gzip.json.gz", gzip.compress(b"\x00\x01binary garbage inside gzip", mtime=0))
write("gzip-header-only.json.gz", gz[:10])
write("truncated-gzip-of-truncated.json.gz", gzip.compress(good[: len(good) // 3], mtime=0))
write("gzip-bad-crc.json.gz", gz[:-8] + bytes(b ^ 0xFF for b in gz[-8:-4]) + gz[-4:])
write("gzip-no-trailer.json.gz", gz[:-8])
write("gzip-bad-length.json.gz", gz[:-4] + bytes(b ^ 0x01 for b in gz[-4:-3]) + gz[-3:])


def gzip_member(data, flags, hcrc_xor=0):
    """A gzip member with the optional header fields of flags (FHCRC 2,
    FEXTRA 4, FNAME 8, FCOMMENT 16); hcrc_xor spoils the header CRC."""
    h = bytes([0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 3])
    if flags & 4:
        h += (10).to_bytes(2, "little") + b"tt" + (6).to_bytes(2, "little") + b"\x1f\x8b\x08xyz"
    if flags & 8:
        h += b"trace.json\0"
    if flags & 16:
        h += b"written by hand\0"
    if flags & 2:
        h += ((zlib.crc32(h) & 0xFFFF) ^ hcrc_xor).to_bytes(2, "little")
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    return h + body + zlib.crc32(data).to_bytes(4, "little") + len(data).to_bytes(4, "little")


# Every optional header field, a second member, and bytes after it that are
# not a member (ignored, as gzip does): a good trace.
half = len(good) // 2
write("gzip-header-fields.json.gz",
      gzip_member(good[:half], 2 | 4 | 8 | 16) + gzip_member(good[half:], 0) + b"\x1fjunk")
write("gzip-bad-header-crc.json.gz", gzip_member(good, 2 | 8, hcrc_xor=1))

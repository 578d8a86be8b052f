#!/usr/bin/env python3
"""Regenerate the malformed-pickle corpus in this folder (the files are
committed; run this only to change them):

    tests/bad-pickle/make-corpus.py [SHARED_SNAPSHOTS_DIR]

Cut real snapshots come from ../shared/snapshots. Standard library only.
"""
import gzip
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared",
                                                             "snapshots")


def real(name):
    with open(os.path.join(shared, name), "rb") as f:
        return f.read()


def gz(data):
    return gzip.compress(data, mtime=0)


def nested(n):
    return b"\x80\x04" + b"]" * n + b"a" * (n - 1) + b"."


def u(text):
    """SHORT_BINUNICODE."""
    return b"\x8c" + bytes([len(text)]) + text.encode()


def long1(v):
    """LONG1 of v in two's complement, 9 bytes (values of 2^63 and more)."""
    return b"\x8a\x09" + (v % (1 << 72)).to_bytes(9, "little")


def int1(v):
    """BININT1."""
    return b"K" + bytes([v])


def d(*kv):
    """A dict of key, value pairs (values as opcodes)."""
    return b"}(" + b"".join(u(k) + v for k, v in zip(kv[0::2], kv[1::2])) + b"u"


def lst(*items):
    return b"](" + b"".join(items) + b"e"


def snapshot(segments=b"]", traces=b"]", extra=b""):
    return b"\x80\x04}(" + u("segments") + segments + u("device_traces") + traces + extra + b"u."


def one_block(**fields):
    return snapshot(segments=lst(d("device", int1(0), "total_size", int1(1), "blocks",
                                   lst(d("state", u("inactive"), *sum(fields.items(), ()))))))


def one_entry(**fields):
    return snapshot(traces=lst(lst(d("action", u("alloc"), *sum(fields.items(), ())))))


# An allocator_settings value whose repr doubles at each of 200 levels,
# as Python pickles x = [x_prev, x_prev]: the first reference spelled out,
# the second through the memo.
repr_bomb = b"]q\x00" + int1(1) + b"a"
for level in range(1, 201):
    repr_bomb = b"]q" + bytes([level]) + b"(" + repr_bomb + b"h" + bytes([level - 1]) + b"e"


small = real("small_12seg.pickle")
tiny = real("tiny_2dev_expandable.pickle")

files = {
    "empty.pickle": b"",
    "not-a-pickle.bin": b'{"traceEvents": []}\n',
    "text.bin": b"segments, device_traces\n",
    "proto-only.pickle": b"\x80",
    "protocol-1.pickle": b"\x80\x01N.",
    "protocol-6.pickle": b"\x80\x06N.",
    "truncated-frame-header.pickle": small[:6],
    "truncated-in-string.pickle": small[:20],
    "truncated-half.pickle": tiny[:len(tiny) // 2],
    "truncated-before-stop.pickle": small[:-1],
    "unknown-opcode.pickle": b"\x80\x04]\x94\xff.",
    "global-os-system.pickle": b"\x80\x02cos\nsystem\n(X\x02\x00\x00\x00idtR.",
    "global-escapes.pickle": b"\x80\x02cos\x1b[31m\nsys\x07tem\n.",
    "stack-global-eval.pickle": b"\x80\x04\x8c\x08builtins\x8c\x04eval\x93.",
    "reduce.pickle": b"\x80\x02NN\x85R.",
    "build.pickle": b"\x80\x02}}b.",
    "inst.pickle": b"\x80\x02(ios\nsystem\n.",
    "obj.pickle": b"\x80\x02(No.",
    "newobj.pickle": b"\x80\x02N)\x81.",
    "newobj-ex.pickle": b"\x80\x04N)}\x92.",
    "persid.pickle": b"\x80\x02P0\n.",
    "binpersid.pickle": b"\x80\x02NQ.",
    "ext1.pickle": b"\x80\x02\x82\x01.",
    "long4.pickle": b"\x80\x02\x8b\x01\x00\x00\x00\x01.",
    "memo-out-of-range.pickle": b"\x80\x04]\x94(h\xc8e.",
    "memo-put-huge.pickle": b"\x80\x02Nr\xff\xff\xff\xff.",
    "binunicode-absurd.pickle": b"\x80\x02X\xf0\xff\xff\xffabc.",
    "binunicode-past-end.pickle": b"\x80\x02X\xe8\x03\x00\x00abc.",
    "binunicode8-absurd.pickle": b"\x80\x04\x8d" + struct.pack("<Q", 1 << 62) + b"abc.",
    "long1-10-bytes.pickle": b"\x80\x02\x8a\x0a" + b"\x01" * 10 + b".",
    "long1-9-bytes-too-big.pickle": b"\x80\x02\x8a\x09" + b"\x00" * 8 + b"\x02.",
    "invalid-utf8.pickle": b"\x80\x04\x8c\x03a\xff" + b"b.",
    "deep-nesting.pickle": nested(1000),
    "deep-marks.pickle": b"\x80\x04" + b"(" * 100000 + b".",
    "recursive-list.pickle": b"\x80\x02]q\x00h\x00a.",
    "setitems-odd.pickle": b"\x80\x04}(\x8c\x01au.",
    "appends-no-mark.pickle": b"\x80\x04]K\x01e.",
    "stop-empty-stack.pickle": b"\x80\x04.",
    "not-a-snapshot.pickle": b"\x80\x04K\x05.",
    "dict-not-snapshot.pickle": b"\x80\x04}\x94\x8c\x01a\x94K\x01s.",
    "segment-device-absurd.pickle":
        b"\x80\x04}(\x8c\x08segments](}(\x8c\x06device\x8a\x04\x00\x00\x00\x10"
        b"\x8c\x0atotal_sizeK\x01ueu.",
    # Values that do not fit what torchtop adds up (sizes up to 2^62 bytes,
    # times within +-2^62 us, address ranges inside 2^64).
    "block-size-2pow63.pickle": one_block(size=long1(1 << 63)),
    "block-address-wraps.pickle": one_block(address=long1((1 << 64) - 4096), size=b"M\x00\x20"),
    "entry-size-negative.pickle": one_entry(addr=int1(0), size=b"J\xff\xff\xff\xff"),
    "entry-time-huge.pickle": one_entry(size=int1(1), time_us=long1(1 << 62)),
    "sizes-add-up.pickle": snapshot(segments=lst(d("device", int1(0), "blocks", lst(
        d("state", u("inactive"), "size", long1(1 << 61)),
        d("state", u("inactive"), "size", long1(1 << 61)))))),
    "devices-5000.pickle": snapshot(traces=b"](" + b"]" * 5000 + b"e"),
    "settings-repr-bomb.pickle": snapshot(extra=u("allocator_settings") + d("k", repr_bomb)),
    "gzip-truncated.pickle.gz": gz(small)[:300],
    "gzip-corrupt.pickle.gz": gz(small)[:40] + b"\xff" * 40 + gz(small)[80:],
    "gzip-of-garbage.pickle.gz": gz(b"hello, not a pickle"),
    # Valid files among the bad ones: the smallest snapshot, and the C++
    # writer's restore_type_tag form.
    "ok-minimal.pickle": b"\x80\x04}(\x8c\x08segments]\x8c\x0ddevice_traces]u.",
    "ok-type-tag.pickle":
        b"\x80\x02ctorch.jit._pickle\nrestore_type_tag\nq\x00}(X\x08\x00\x00\x00segments"
        b"h\x00]X\x04\x00\x00\x00List\x86RX\x0d\x00\x00\x00device_traces]u"
        b"X\x04\x00\x00\x00Dict\x86R.",
}

for name, data in files.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
print("wrote %d files" % len(files))

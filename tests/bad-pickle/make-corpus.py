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

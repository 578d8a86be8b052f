#!/usr/bin/env python3
"""Write the memory-bomb snapshots into a folder (run.sh makes them at test
time rather than committing them):

    tests/bad-pickle/make-bombs.py OUTDIR

Each is a small pickle, written opcode by opcode so that its bytes (and the
offsets in run.sh's expected messages) do not depend on Python's pickler:

  seg-memo-bomb.pickle      one segment of 10,000 blocks, memoized and listed
                            10,000 times in 'segments' (140 KB; 10^8 blocks
                            when every reference is copied)
  traces-memo-bomb.pickle   device_traces = [entries] * 10000 with 10,000
                            entries (210 KB; 10^8 trace entries)
  empty-lists.pickle.gz     60 million EMPTY_LIST opcodes (58 KB of gzip)

Standard library only.
"""
import gzip
import os
import struct
import sys

PROTO = b"\x80\x04"
MARK, STOP, EMPTY_DICT, EMPTY_LIST = b"(", b".", b"}", b"]"
SETITEMS, APPENDS = b"u", b"e"


def s(text):
    """SHORT_BINUNICODE."""
    data = text.encode()
    return b"\x8c" + bytes([len(data)]) + data


def put(i):
    """BINPUT i: memoize the top of the stack."""
    return b"q" + bytes([i])


def get(i):
    """BINGET i."""
    return b"h" + bytes([i])


def binint(v):
    return b"J" + struct.pack("<i", v)


def seg_memo_bomb():
    # Memo: 0 the segment, 1 "size", 2 "state", 3 "inactive", 4 "address".
    first_block = (EMPTY_DICT + MARK + s("size") + put(1) + binint(512) + s("state") + put(2)
                   + s("inactive") + put(3) + s("address") + put(4) + binint(0) + SETITEMS)
    blocks = [first_block] + [EMPTY_DICT + MARK + get(1) + binint(512) + get(2) + get(3)
                              + get(4) + binint(512 * i) + SETITEMS for i in range(1, 10000)]
    segment = (EMPTY_DICT + put(0) + MARK + s("device") + binint(0) + s("total_size")
               + binint(512 * 10000) + s("blocks") + EMPTY_LIST + MARK + b"".join(blocks)
               + APPENDS + SETITEMS)
    return (PROTO + EMPTY_DICT + MARK + s("segments") + EMPTY_LIST + MARK + segment
            + get(0) * 9999 + APPENDS + s("device_traces") + EMPTY_LIST + SETITEMS + STOP)


def traces_memo_bomb():
    # Memo: 0 the entry list, 1 "action", 2 "alloc", 3 "addr", 4 "size".
    first = (EMPTY_DICT + MARK + s("action") + put(1) + s("alloc") + put(2) + s("addr") + put(3)
             + binint(0) + s("size") + put(4) + binint(512) + SETITEMS)
    entries = [first] + [EMPTY_DICT + MARK + get(1) + get(2) + get(3) + binint(512 * i) + get(4)
                         + binint(512) + SETITEMS for i in range(1, 10000)]
    lst = EMPTY_LIST + put(0) + MARK + b"".join(entries) + APPENDS
    return (PROTO + EMPTY_DICT + MARK + s("segments") + EMPTY_LIST + s("device_traces")
            + EMPTY_LIST + MARK + lst + get(0) * 9999 + APPENDS + SETITEMS + STOP)


def main():
    out = sys.argv[1]
    files = {
        "seg-memo-bomb.pickle": seg_memo_bomb(),
        "traces-memo-bomb.pickle": traces_memo_bomb(),
        "empty-lists.pickle.gz": gzip.compress(PROTO + EMPTY_LIST * 60000000, 9, mtime=0),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()

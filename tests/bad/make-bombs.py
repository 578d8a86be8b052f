#!/usr/bin/env python3
"""Write the memory-bomb traces into a folder (run.sh makes them at test
time rather than committing them):

    tests/bad/make-bombs.py OUTDIR

Each holds one good event, then:

  event-20mb.json.gz        an event whose args hold 10 million numbers (20 MB
                            of JSON, longer than torchtop's 16 MiB per event)
  event-parse-memory.json.gz  one of 7.5 million numbers (15 MB: short enough,
                            but some 500 MB of parsed values)
  name-1gb.json.gz          an event named by 1 GiB of 'a' (1 MB of gzip:
                            1024 concatenated members of 1 MiB each)
  top-value-20mb.json.gz    a top-level string of 20 MB after traceEvents

Standard library only.
"""
import gzip
import os
import sys

GOOD = b'{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}'
HEAD = b'{"traceEvents": [' + GOOD + b', '


def gz(data):
    return gzip.compress(data, 6, mtime=0)


def numbers_event(n):
    return (HEAD + b'{"ph": "X", "cat": "cpu_op", "name": "big", "pid": 1, "tid": 1, "ts": 2, '
            b'"dur": 1, "args": {"x": [' + b"0," * (n - 1) + b"0]}}]}")


def main():
    out = sys.argv[1]
    mib = gz(b"a" * (1 << 20))
    files = {
        "event-20mb.json.gz": gz(numbers_event(10000000)),
        "event-parse-memory.json.gz": gz(numbers_event(7500000)),
        "name-1gb.json.gz": gz(HEAD + b'{"ph": "X", "cat": "cpu_op", "name": "') + mib * 1024
        + gz(b'", "pid": 1, "tid": 1, "ts": 2, "dur": 1}]}'),
        "top-value-20mb.json.gz": gz(b'{"traceEvents": [' + GOOD + b'], "note": "'
                                     + b"a" * 20000000 + b'"}'),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()

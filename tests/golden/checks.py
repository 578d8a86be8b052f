"""Counting checks for the golden tests: check() records and prints each
failure; summary() prints the 'N passed, N failed' line and gives the exit
status."""
import csv
import gzip
import io
import json

_failures = []
_checks = 0


def check(cond, msg):
    global _checks
    _checks += 1
    if not cond:
        _failures.append(msg)
        print("FAIL:", msg)


def summary():
    print("%d passed, %d failed" % (_checks - len(_failures), len(_failures)))
    return 1 if _failures else 0


def load_trace(path):
    """The trace's JSON document, plain or gzip."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.loads(f.read().decode("utf-8", "replace"))


def csv_tables(text, single=None):
    """`torchtop report -f csv` output of several tables: {table name: rows
    as dicts}. Each table starts with a "# NAME" line; other "#" lines
    (titles, notes) are skipped. Output of one table has no such line:
    it is named `single`."""
    out, name, buf = {}, single, []

    def flush():
        if name is not None:
            out[name] = list(csv.DictReader(io.StringIO("".join(buf))))

    for line in text.splitlines(keepends=True):
        if line.startswith("# ") and len(line.split()) == 2:
            flush()
            name, buf = line.split()[1], []
        elif line.startswith("#"):
            continue
        elif name is not None and line.strip():
            buf.append(line)
    flush()
    return out

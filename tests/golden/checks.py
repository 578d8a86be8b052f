"""Counting checks for the golden tests: check() records and prints each
failure; summary() prints the 'N passed, N failed' line and gives the exit
status."""
import gzip
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

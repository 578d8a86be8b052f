#!/bin/sh
# Traces of PyTorch's legacy profiler: torchtop's key-averages table against
# the one PyTorch printed for the same run (compare.py), on the runs kept in
# tests/legacy/ and, when a Python with torch is installed (Debian's
# python3-torch at /usr/bin/python3, or $TORCH_PYTHON), on fresh runs that
# record.py makes now. Without torch only the kept runs are compared: torch
# is an optional package, so its absence is no failure, even under CI.
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
dir="${top_srcdir:-.}/tests/legacy"
tt="${top_builddir:-.}/torchtop"
"$PYTHON3" "$dir/compare.py" --torchtop "$tt" "$dir/mlp.json" "$dir/conv.json" || exit 1
TORCH_PYTHON="${TORCH_PYTHON:-/usr/bin/python3}"
if ! "$TORCH_PYTHON" -c 'import torch' >/dev/null 2>&1; then
    echo "note: $TORCH_PYTHON cannot import torch (Debian: apt-get install python3-torch);" \
        "fresh runs not recorded, the kept ones compared"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$TORCH_PYTHON" "$dir/record.py" "$tmp" || { echo "FAIL: record.py failed"; exit 1; }
"$PYTHON3" "$dir/compare.py" --torchtop "$tt" "$tmp"/*.json

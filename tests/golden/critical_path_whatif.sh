#!/bin/sh
# torchtop report --what-if on the critical path: the table's format and
# sums, what the targets take, a job's rows per rank, and usage errors
# (critical_path_whatif.py).
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/critical_path_whatif.py" \
    --torchtop "${top_builddir:-.}/torchtop"

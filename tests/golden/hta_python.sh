#!/bin/sh
# torchtop's HTA tables against an independent Python computation of HTA's
# definitions on generated traces, and the launch outliers on the shared
# traces when they are there (docs/metrics.md §14).
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
SHARED="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/hta_python.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

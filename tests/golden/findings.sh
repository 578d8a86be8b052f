#!/bin/sh
# Golden test: the findings of every shared trace and of a generated one,
# their schema, their savings against the critical path's what-if, and the
# golden file tests/golden/findings.expected (findings.py; docs/metrics.md §20).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/findings.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED" \
    --expected "${top_srcdir:-.}/tests/golden/findings.expected"

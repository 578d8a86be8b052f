#!/bin/sh
# Golden test: the shared MTIA trace against HTA's output on it and
# against the trace itself (docs/metrics.md §1.7, §14). See mtia.py.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/mtia.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

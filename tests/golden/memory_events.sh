#!/bin/sh
# Golden test: report -t memory (docs/metrics.md §19.4) on the shared
# traces recorded with profile_memory and on a generated trace whose
# allocations are known. See memory_events.py.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/memory_events.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

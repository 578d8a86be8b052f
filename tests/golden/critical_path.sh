#!/bin/sh
# Golden test: torchtop's critical path against HTA's own, region by
# region (docs/metrics.md, "Critical path"). See critical_path.py.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/critical_path.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

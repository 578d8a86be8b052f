#!/bin/sh
# Golden tests: torchtop's HTA tables against HTA's own output in
# ../shared/oracle (docs/metrics.md §14). See hta_oracle.py for the rules.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/hta_oracle.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

#!/bin/sh
# Golden tests: torchtop's reports against TraceLens's and HTA's output in
# ../shared/oracle (docs/metrics.md §11). See compare_oracle.py for the rules.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/compare_oracle.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

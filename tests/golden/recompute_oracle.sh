#!/bin/sh
# Golden test of the recompute marking (report --recompute) against
# TraceLens's detect_recompute report in ../shared/oracle;
# see recompute_oracle.py for the rules.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/recompute_oracle.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

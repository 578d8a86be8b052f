#!/bin/sh
# Golden test: the CUPTI range-profiler counters table against HTA's
# get_cupti_counter_data_with_operators (docs/metrics.md §19.1). See
# cupti_counters.py.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/cupti_counters.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

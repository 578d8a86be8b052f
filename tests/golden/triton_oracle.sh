#!/bin/sh
# Golden test of torch.compile's Triton kernels in the roofline against the
# Triton rows of TraceLens's unified_perf_summary.csv in ../shared/oracle;
# see triton_oracle.py for the rules.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/triton_oracle.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

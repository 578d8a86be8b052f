#!/bin/sh
# Golden test: counter tracks (docs/metrics.md §19.3) against the
# TensorBoard plugin's gpu_metrics_expected.json. See counter_tracks.py.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"; exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/counter_tracks.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

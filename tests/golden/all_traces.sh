#!/bin/sh
# Every shared trace loads and every table prints (all_traces.py).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/all_traces.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

#!/bin/sh
# An export of the whole trace gives the trace back (export_roundtrip.py),
# on a made-up trace and on every shared trace.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/export_roundtrip.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

#!/bin/sh
# torchtop export slices against the rules (export.py).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/export.py" --torchtop "${top_builddir:-.}/torchtop" \
    --shared "$SHARED"

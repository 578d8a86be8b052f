#!/bin/sh
# Scoped reports equal reports of the exported scope (scope.py).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/scope.py" --torchtop "${top_builddir:-.}/torchtop" \
    --shared "$SHARED"

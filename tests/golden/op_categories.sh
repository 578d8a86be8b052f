#!/bin/sh
# Every op name of every shared trace with its category, against
# tests/golden/op_categories.expected (op_categories.py says how to
# regenerate it).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/op_categories.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"

#!/bin/sh
# torchtop diff against an independent implementation of HTA's TraceDiff
# (diff.py, hta_diff_ref.py) on real and generated pairs.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/diff.py" --torchtop "${top_builddir:-.}/torchtop" \
    --shared "$SHARED"

#!/bin/sh
# torchtop report's command line: sorting, formats, limits and errors
# (report_cli.py).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/report_cli.py" --torchtop "${top_builddir:-.}/torchtop" \
    --shared "$SHARED"
